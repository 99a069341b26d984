/**
 * Whether a fiscal year's four served quarters add up to its served year, and where they do not,
 * why: the year restated and the quarters not (Microsoft's fiscal 2016 revenue, restated for ASC
 * 606 by its 10-K of 2018 while its quarters were never told again), the quarters restated and the
 * year not, or the filer's own figures disagreeing (both as first told). Pure: the versions of the
 * five periods a read sees in, one mark per metric out; statement, series, panel and modeling reads
 * attach it to the quarter and year figures they serve.
 */
import { Decimal } from 'decimal.js';
import { canonicalMetric } from '../catalog/index.ts';
import { dec, plain } from '../decimal.ts';
import type { FiscalPeriod } from '../statement-types.ts';
import { precisionUnit, sameFigure } from './versions.ts';

export const COHERENCE_REASONS = ['YEAR_RESTATED_QUARTERS_NOT', 'QUARTERS_RESTATED_YEAR_NOT', 'FILER_INCONSISTENT'] as const;
/**
 * - YEAR_RESTATED_QUARTERS_NOT: the year served is another figure than the year as first told, and
 *   the quarters are as first told (or the year was told again after them): two bases;
 * - QUARTERS_RESTATED_YEAR_NOT: the reverse;
 * - FILER_INCONSISTENT: every figure is as first told, and the filer's quarters do not add up to its
 *   year (a quarterly three-month tag and a year-to-date of different scope, rounding beyond the
 *   figures' precision, a mis-tag).
 */
export type CoherenceReason = (typeof COHERENCE_REASONS)[number];

export const COHERENCE_PERIODS = ['Q1', 'Q2', 'Q3', 'Q4', 'FY'] as const satisfies readonly FiscalPeriod[];

/** One metric's figure on one version, as the coherence rule reads it: its value and, for a derived figure, its inputs' values (their rounding). */
export interface ToldFigure {
  value: string;
  /** the values of a derived figure's calculation steps; null for a tagged one */
  inputs: readonly string[] | null;
}

/** One visible version of one of the five periods: when it was filed and the figures it carries. */
export interface PeriodVersion {
  fiscal_period: FiscalPeriod;
  version_sequence: number;
  filing_date: string;
  figures: Readonly<Record<string, ToldFigure>>;
}

/** The mark a quarter or year figure carries where the year's quarters do not add up to it. */
export interface QuarterCoherence {
  reason: CoherenceReason;
  fiscal_year: number;
  /** the year as served */
  served_year: string;
  /** Q1 + Q2 + Q3 + Q4 as served */
  quarters_sum: string;
  /** quarters_sum - served_year */
  difference: string;
  /** how far they may sit apart by the figures' rounding alone: half a unit of each figure's precision (a derived figure's, its inputs') */
  tolerance: string;
  /** each quarter as served */
  quarters: Record<'Q1' | 'Q2' | 'Q3' | 'Q4', string>;
}

/** Money flows of the income and cash-flow statements: what four quarters add up to a year of. */
export function isAdditiveFlow(metric: string): boolean {
  const m = canonicalMetric(metric);
  return m !== undefined && m.unit_type === 'currency' && m.period_kind === 'duration' && m.statement_type !== 'BALANCE_SHEET';
}

/** half a unit of the figure's precision; a derived figure carries each input's */
function roundingOf(f: ToldFigure): Decimal {
  if (f.inputs === null || f.inputs.length === 0) return precisionUnit({ value: f.value }).dividedBy(2);
  let slack = new Decimal(0);
  for (const v of f.inputs) slack = slack.plus(precisionUnit({ value: v }).dividedBy(2));
  return slack;
}

interface Served {
  figure: ToldFigure;
  /** the figure as first told: the earliest visible version carrying the metric */
  first: ToldFigure;
  /** the filing date of the earliest version telling the served figure (the same figure) */
  since: string;
}

/** The served figure of `metric` in one period's versions (oldest first), null where the latest carries none. */
function servedOf(versions: readonly PeriodVersion[], metric: string): Served | null {
  const latest = versions[versions.length - 1];
  const figure = latest?.figures[metric];
  if (figure === undefined) return null;
  let first: ToldFigure | null = null;
  let since = latest!.filing_date;
  // the served figure began with the earliest version of an unbroken run telling the same figure
  for (let i = versions.length - 1; i >= 0; i--) {
    const f = versions[i]!.figures[metric];
    if (f === undefined || !sameFigure({ value: f.value }, { value: figure.value })) break;
    since = versions[i]!.filing_date;
  }
  for (const v of versions) {
    const f = v.figures[metric];
    if (f !== undefined) {
      first = f;
      break;
    }
  }
  return { figure, first: first!, since };
}

const restated = (s: Served) => !sameFigure({ value: s.first.value }, { value: s.figure.value });

/**
 * The mark of one metric for a fiscal year, from the visible versions of its five periods (each
 * list oldest first): null where the four quarters and the year are not all served, or where the
 * quarters add up to the year within the figures' rounding.
 */
export function quarterCoherence(fiscalYear: number, metric: string, periods: Readonly<Partial<Record<FiscalPeriod, readonly PeriodVersion[]>>>): QuarterCoherence | null {
  if (!isAdditiveFlow(metric)) return null;
  const year = servedOf(periods.FY ?? [], metric);
  if (year === null) return null;
  const quarters: Served[] = [];
  for (const q of ['Q1', 'Q2', 'Q3', 'Q4'] as const) {
    const s = servedOf(periods[q] ?? [], metric);
    if (s === null) return null;
    quarters.push(s);
  }
  let sum = new Decimal(0);
  let tolerance = roundingOf(year.figure);
  for (const q of quarters) {
    sum = sum.plus(dec(q.figure.value));
    tolerance = tolerance.plus(roundingOf(q.figure));
  }
  const difference = sum.minus(dec(year.figure.value));
  if (difference.abs().lessThanOrEqualTo(tolerance)) return null;
  return {
    reason: reasonOf(year, quarters),
    fiscal_year: fiscalYear,
    served_year: year.figure.value,
    quarters_sum: plain(sum),
    difference: plain(difference),
    tolerance: plain(tolerance),
    quarters: { Q1: quarters[0]!.figure.value, Q2: quarters[1]!.figure.value, Q3: quarters[2]!.figure.value, Q4: quarters[3]!.figure.value },
  };
}

/** Which side moved: the one told again as another figure, and where both were, the one told again last. */
function reasonOf(year: Served, quarters: readonly Served[]): CoherenceReason {
  const yearRestated = restated(year);
  const retold = quarters.filter(restated);
  if (!yearRestated && retold.length === 0) return 'FILER_INCONSISTENT';
  if (yearRestated && retold.length === 0) return 'YEAR_RESTATED_QUARTERS_NOT';
  if (!yearRestated) return 'QUARTERS_RESTATED_YEAR_NOT';
  const lastQuarter = retold.reduce((a, q) => (q.since > a ? q.since : a), '');
  return year.since > lastQuarter ? 'YEAR_RESTATED_QUARTERS_NOT' : 'QUARTERS_RESTATED_YEAR_NOT';
}

/**
 * Every metric's mark for one fiscal year (only the marked ones): what a read serving the year's
 * quarters or the year attaches to those figures.
 */
export function yearCoherence(fiscalYear: number, periods: Readonly<Partial<Record<FiscalPeriod, readonly PeriodVersion[]>>>): Map<string, QuarterCoherence> {
  const out = new Map<string, QuarterCoherence>();
  const year = periods.FY?.[periods.FY.length - 1];
  if (year === undefined) return out;
  for (const metric of Object.keys(year.figures)) {
    const c = quarterCoherence(fiscalYear, metric, periods);
    if (c !== null) out.set(metric, c);
  }
  return out;
}
