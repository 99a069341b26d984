import type { StatementType } from './catalog/types.ts';
import { daysBetween } from './dates.ts';
import { dec } from './decimal.ts';
import { STATEMENT_TYPES, type FiledFiscalPeriod } from './statements/types.ts';
import { COVERAGE_CORE_METRICS } from './catalog/traits.ts';

/**
 * Company coverage: what should exist for a filer (expected periods, from its own reporting
 * life) against what does (statement periods holding core metrics), so an empty read can be told
 * apart from a gap. Pure: rows in, a coverage record out. The rules, as built:
 *
 * - **Reporting life**: the fiscal years its periodic reports (10-K, 10-Q, 20-F, 40-F, transition
 *   reports and amendments) are *for*: each report's fiscal-year focus, first to last. Reports
 *   that carry no XBRL facts (filed before XBRL, or absent from the source's company facts) cannot
 *   be placed in a fiscal year and cannot build statements: they are counted, not expected.
 *   Comparative columns reaching back before the first report make statements but do not extend
 *   the life.
 * - **Transition periods**: a fiscal year named only by transition reports (10-KT, 10-QT) is the
 *   stub between two fiscal year ends; nothing is expected of it.
 * - **Skipped labels**: a fiscal-year label inside the life that no report or statement carries,
 *   where the annual periods labelled just before and after it end at most 400 days apart, was
 *   skipped by the filer's own numbering (Walmart and NVIDIA went from 2013 to 2015 when they
 *   corrected their fiscal-year focus); no time is missing, so nothing is expected of it.
 * - **Year in progress**: the last fiscal year of the life, when no annual report and no annual
 *   statement is on record for it. Its annual period is not expected yet; its quarters are
 *   expected up to the latest one reported.
 * - **Annual periods expected**: one (FY) per fiscal year of the life, less transition years,
 *   skipped labels and the year in progress.
 * - **Quarterly periods expected**: Q1, Q2, Q3 for each fiscal year from the first to the last
 *   year a quarterly report (10-Q, 10-QT) names; Q4 is derived from the annual report and never
 *   expected. Zero for a filer with no quarterly reports (a 20-F or 40-F filer).
 * - **Populated**: an expected period is populated when its latest statement version of some type
 *   holds at least one core metric of that type (`CORE_METRICS`). It measures whether a period is
 *   there, not how many metrics it has; it is not a quality score.
 * - **Completeness** (`core_metric_completeness`): populated / expected over annual and quarterly
 *   periods together; the per-statement measures count a period for a type only when that
 *   type's statement holds one of its core metrics. null when nothing is expected.
 * - **Continuity** (`annual_reporting_continuous`): every annual period of the life present,
 *   tolerating the year in progress; false when there is no reporting life at all.
 * - **Gaps**: every expected period lacking a core metric on at least one statement type, with
 *   the types it lacks, so a short statement is told apart from a missing period.
 * - **Status**: NO_PERIODIC_REPORTS (nothing on record to expect anything from), NO_STATEMENTS
 *   (periodic reports on record, none with XBRL facts we could read), COMPLETE (every expected
 *   period populated), PARTIAL (some expected period holds no core metric at all).
 */

/**
 * The headline totals an analyst builds a model from, per statement type. A period holding any one
 * of them is populated; a statement carrying only line items (say share-based compensation from a
 * cash-flow comparative) is not.
 */
export const CORE_METRICS: Readonly<Record<StatementType, readonly string[]>> = COVERAGE_CORE_METRICS;

export const ALL_CORE_METRICS: readonly string[] = Object.freeze(Object.values(CORE_METRICS).flat());

const QUARTERS = ['Q1', 'Q2', 'Q3'] as const;

/** A periodic report on record for the company. */
export interface PeriodicReport {
  form: string;
  /** the fiscal year the report is for (its fiscal-year focus); null when no XBRL facts tell it */
  fiscal_year: number | null;
  /** the report's fiscal-period focus (FY, Q1, Q2, Q3) as tagged; may be wrong, so only a hint */
  fiscal_period: string | null;
  filing_date: string;
}

/** One statement identity (cik, type, year, period) as its latest version stands. */
export interface StatementPeriod {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: string;
  /** metrics the latest version carries; only core metrics matter here, so callers may pass just those */
  metrics: readonly string[];
  /** every version of the identity (1 unless a later filing restated or added figures) */
  versions: number;
  /** a later version revised figures (a restatement); a version that only added figures is not one */
  restated: boolean;
  period_end: string;
}

export interface CoveragePeriod {
  fiscal_year: number;
  /** only these are ever expected: Q4 is derived */
  fiscal_period: FiledFiscalPeriod;
}

/** An expected period whose statements of some types hold no core metric (all three: the period is unpopulated). */
export interface CoverageGap extends CoveragePeriod {
  missing_statement_types: StatementType[];
}

export type CoverageStatus = 'COMPLETE' | 'PARTIAL' | 'NO_STATEMENTS' | 'NO_PERIODIC_REPORTS';

export interface CompanyCoverageFigures {
  status: CoverageStatus;
  first_fiscal_year: number | null;
  last_fiscal_year: number | null;
  fiscal_year_in_progress: number | null;
  transition_fiscal_years: number[];
  skipped_fiscal_years: number[];
  annual_periods_expected: number;
  annual_periods_populated: number;
  quarterly_periods_expected: number;
  quarterly_periods_populated: number;
  core_metric_completeness: string | null;
  income_statement_completeness: string | null;
  balance_sheet_completeness: string | null;
  cash_flow_statement_completeness: string | null;
  annual_reporting_continuous: boolean;
  gaps: CoverageGap[];
  first_statement_fiscal_year: number | null;
  last_statement_fiscal_year: number | null;
  latest_period_end: string | null;
  statement_periods: number;
  statement_versions: number;
  restated_statement_periods: number;
  periodic_reports: number;
  periodic_reports_without_facts: number;
  latest_filing_date: string | null;
}

const baseForm = (form: string) => form.trim().toUpperCase().replace(/\/A$/, '');
const isTransition = (form: string) => /^10-[KQ]T$/.test(baseForm(form));
const isQuarterly = (form: string) => /^10-QT?$/.test(baseForm(form));
const isAnnual = (form: string) => ['10-K', '10-KT', '20-F', '40-F'].includes(baseForm(form));
/** a 53-week year plus slack for a moved year end; two years apart is far more */
const MAX_FISCAL_YEAR_DAYS = 400;
const quarterIndex = (period: string | null) => (period === 'Q1' ? 1 : period === 'Q2' ? 2 : period === 'Q3' ? 3 : 0);

/** n / d with six fraction digits (rounded half up), null when d is 0. */
export function shareOf(n: number, d: number): string | null {
  return d === 0 ? null : dec(String(n)).dividedBy(d).toFixed(6);
}

function holdsCore(p: StatementPeriod): boolean {
  const core = CORE_METRICS[p.statement_type];
  return p.metrics.some((m) => core.includes(m));
}

/** Company coverage from its periodic reports and its statement periods (latest versions). */
export function companyCoverage(reports: readonly PeriodicReport[], statements: readonly StatementPeriod[]): CompanyCoverageFigures {
  const placed = reports.filter((r): r is PeriodicReport & { fiscal_year: number } => r.fiscal_year !== null);
  const years = placed.map((r) => r.fiscal_year);
  const first = years.length > 0 ? Math.min(...years) : null;
  const last = years.length > 0 ? Math.max(...years) : null;

  const reportsOf = (y: number) => placed.filter((r) => r.fiscal_year === y);
  const byPeriod = new Map<string, StatementPeriod[]>();
  for (const s of statements) {
    const key = `${s.fiscal_year} ${s.fiscal_period}`;
    byPeriod.set(key, [...(byPeriod.get(key) ?? []), s]);
  }
  const statementsOf = (y: number, period: string) => byPeriod.get(`${y} ${period}`) ?? [];

  const transitionYears: number[] = [];
  if (first !== null && last !== null) {
    for (let y = first; y <= last; y++) {
      const rs = reportsOf(y);
      if (rs.length > 0 && rs.every((r) => isTransition(r.form))) transitionYears.push(y);
    }
  }
  const isTransitionYear = (y: number) => transitionYears.includes(y);

  // A label no report or statement carries, between two annual periods a year apart, was skipped
  // by the filer's numbering (a relabelling), not left unreported.
  const yearEnd = new Map<number, string>();
  for (const s of statements) if (s.fiscal_period === 'FY' && s.period_end > (yearEnd.get(s.fiscal_year) ?? '')) yearEnd.set(s.fiscal_year, s.period_end);
  const skippedYears: number[] = [];
  if (first !== null && last !== null) {
    for (let y = first + 1; y < last; y++) {
      if (placed.some((r) => r.fiscal_year === y) || statements.some((s) => s.fiscal_year === y)) continue;
      const endBefore = yearEnd.get(y - 1);
      const endAfter = yearEnd.get(y + 1);
      if (endBefore && endAfter && daysBetween(endBefore, endAfter) <= MAX_FISCAL_YEAR_DAYS) skippedYears.push(y);
    }
  }
  const isSkippedYear = (y: number) => skippedYears.includes(y);

  let inProgress: number | null = null;
  if (last !== null && !isTransitionYear(last)) {
    const annualReported = reportsOf(last).some((r) => isAnnual(r.form));
    if (!annualReported && statementsOf(last, 'FY').length === 0) inProgress = last;
  }

  const expected: CoveragePeriod[] = [];
  let annualExpected = 0;
  if (first !== null && last !== null) {
    for (let y = first; y <= last; y++) {
      if (isTransitionYear(y) || isSkippedYear(y) || y === inProgress) continue;
      expected.push({ fiscal_year: y, fiscal_period: 'FY' });
      annualExpected++;
    }
  }

  const quarterlyYears = placed.filter((r) => isQuarterly(r.form)).map((r) => r.fiscal_year);
  let quarterlyExpected = 0;
  if (quarterlyYears.length > 0) {
    const qFirst = Math.min(...quarterlyYears);
    const qLast = Math.max(...quarterlyYears);
    for (let y = qFirst; y <= qLast; y++) {
      if (isTransitionYear(y) || isSkippedYear(y)) continue;
      const upTo = y === inProgress ? quartersReported(reportsOf(y), statements.filter((s) => s.fiscal_year === y)) : 3;
      for (const q of QUARTERS.slice(0, upTo)) {
        expected.push({ fiscal_year: y, fiscal_period: q });
        quarterlyExpected++;
      }
    }
  }

  const populatedFor = (p: CoveragePeriod, type?: StatementType) =>
    statementsOf(p.fiscal_year, p.fiscal_period).some((s) => (type === undefined || s.statement_type === type) && holdsCore(s));
  const populated = expected.filter((p) => populatedFor(p));
  const annualPopulated = populated.filter((p) => p.fiscal_period === 'FY').length;
  const quarterlyPopulated = populated.length - annualPopulated;
  const byType = Object.fromEntries(
    STATEMENT_TYPES.map((t) => [t, shareOf(expected.filter((p) => populatedFor(p, t)).length, expected.length)]),
  ) as Record<StatementType, string | null>;

  const gaps = expected
    .map((p) => ({ ...p, missing_statement_types: STATEMENT_TYPES.filter((t) => !populatedFor(p, t)) }))
    .filter((g) => g.missing_statement_types.length > 0)
    .sort((a, b) => a.fiscal_year - b.fiscal_year || a.fiscal_period.localeCompare(b.fiscal_period));

  const statementYears = statements.map((s) => s.fiscal_year);
  const periodEnds = statements.map((s) => s.period_end).sort();
  const filingDates = reports.map((r) => r.filing_date).sort();
  const status: CoverageStatus =
    statements.length === 0
      ? reports.length === 0
        ? 'NO_PERIODIC_REPORTS'
        : 'NO_STATEMENTS'
      : populated.length === expected.length
        ? 'COMPLETE'
        : 'PARTIAL';

  return {
    status,
    first_fiscal_year: first,
    last_fiscal_year: last,
    fiscal_year_in_progress: inProgress,
    transition_fiscal_years: transitionYears,
    skipped_fiscal_years: skippedYears,
    annual_periods_expected: annualExpected,
    annual_periods_populated: annualPopulated,
    quarterly_periods_expected: quarterlyExpected,
    quarterly_periods_populated: quarterlyPopulated,
    core_metric_completeness: shareOf(populated.length, expected.length),
    income_statement_completeness: byType.INCOME_STATEMENT,
    balance_sheet_completeness: byType.BALANCE_SHEET,
    cash_flow_statement_completeness: byType.CASH_FLOW_STATEMENT,
    annual_reporting_continuous: first !== null && annualPopulated === annualExpected,
    gaps,
    first_statement_fiscal_year: statementYears.length > 0 ? Math.min(...statementYears) : null,
    last_statement_fiscal_year: statementYears.length > 0 ? Math.max(...statementYears) : null,
    latest_period_end: periodEnds[periodEnds.length - 1] ?? null,
    statement_periods: statements.length,
    statement_versions: statements.reduce((n, s) => n + s.versions, 0),
    restated_statement_periods: statements.filter((s) => s.restated).length,
    periodic_reports: reports.length,
    periodic_reports_without_facts: reports.length - placed.length,
    latest_filing_date: filingDates[filingDates.length - 1] ?? null,
  };
}

/**
 * Quarters of the year in progress that should be there by now: up to the latest one its
 * quarterly reports or statements show. A report's fiscal-period focus is only a hint (filers
 * mis-tag it: Snowflake's fiscal 2023 first-quarter 10-Q says FY), so the count of original
 * quarterly reports and the quarters already on record count too.
 */
function quartersReported(reports: readonly PeriodicReport[], statements: readonly StatementPeriod[]): number {
  const quarterly = reports.filter((r) => isQuarterly(r.form));
  const originals = quarterly.filter((r) => !/\/A$/.test(r.form.trim())).length;
  const tagged = Math.max(0, ...quarterly.map((r) => quarterIndex(r.fiscal_period)));
  const onRecord = Math.max(0, ...statements.map((s) => quarterIndex(s.fiscal_period)));
  return Math.min(3, Math.max(originals, tagged, onRecord));
}
