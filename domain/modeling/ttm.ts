/**
 * Trailing-twelve-month rows, one per fiscal quarter whose window of four consecutive quarters
 * (this one and the three before it, Q4s included, derived or not) is on record:
 * - a flow (income or cash-flow line) is the sum of the four quarters' figures, only when every
 *   quarter reports it; otherwise INCOMPLETE_TRAILING_YEAR (never a partial sum);
 * - FREE_CASH_FLOW is the trailing operating cash flow less the trailing capital expenditures;
 * - balances are not summed: they are the balance sheet at the window end (a Q4's is the
 *   fiscal-year-end balance sheet);
 * - per-share figures are never summed: EPS_BASIC / EPS_DILUTED are the trailing net income over the
 *   mean of the four quarters' weighted-average basic / diluted share counts (every quarter must
 *   report its count; a non-positive mean is NON_POSITIVE_VALUE), rounded to MODEL_FRACTION_DIGITS.
 *   The four counts are on one split basis, the newest count's (share-basis.ts): a count of an
 *   older filing is restated to it, the row's `split_adjustments` saying how; where that basis
 *   cannot be determined the figure is NO_COMPARABLE_PERIOD (SPLIT_BASIS_UNDETERMINED).
 * Sums are exact.
 */
import { canonicalMetric } from '../catalog/index.ts';
import { TTM_BALANCE_METRICS, TTM_FLOW_METRICS } from '../catalog/traits.ts';
import { dec, plain } from '../decimal.ts';
import type { PeriodGroup } from '../series-periods.ts';
import { CALENDAR_SLACK_DAYS, previousQuarterKey } from './company.ts';
import { fixedScale } from './growth.ts';
import { NO_SPLITS, onOneBasis, type OperandSplitAdjustment, type SplitContext } from './share-basis.ts';
import { MetricSheet, periodKey, type ModelVersion } from './types.ts';

/** The row's summed flows and its window-end balances, in row order (catalog trait `ttm`). */
export const TTM_FLOWS: readonly string[] = TTM_FLOW_METRICS;
export const TTM_BALANCES: readonly string[] = TTM_BALANCE_METRICS;
const PER_SHARE: ReadonlyArray<[string, string]> = [['EPS_BASIC', 'WEIGHTED_AVERAGE_SHARES_BASIC'], ['EPS_DILUTED', 'WEIGHTED_AVERAGE_SHARES_DILUTED']];

/** Every metric of a TTM row, in row order. */
export const TTM_NAMES: readonly string[] = [...TTM_FLOWS, 'FREE_CASH_FLOW', ...PER_SHARE.map(([m]) => m), ...TTM_BALANCES];

export interface TtmQuarter {
  fiscal_year: number;
  fiscal_period: string;
  period_start: string | null;
  period_end: string;
  /** canonical flows of this quarter that are derived (a Q4 = year minus three quarters, a discrete cash-flow quarter) */
  derived_figures: string[];
}

export interface TtmResult {
  end: PeriodGroup;
  window: PeriodGroup[];
  sheet: MetricSheet;
  reads: string[];
  /** per-share metric -> the quarters' share counts restated to the row's split basis (only metrics that needed it) */
  split_adjustments: Record<string, OperandSplitAdjustment[]>;
}

/** the period's own statement of the metric's type */
function statementOf(g: PeriodGroup, metric: string): ModelVersion | undefined {
  const row = g.statements[canonicalMetric(metric)!.statement_type];
  return row && row.fiscal_period === g.fiscal_period ? (row as ModelVersion) : undefined;
}

function flowOf(g: PeriodGroup, metric: string) {
  return statementOf(g, metric)?.figures[metric];
}

function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** The four quarters ending with `end`, oldest first; null unless all four are on record and follow each other. */
export function ttmWindow(end: PeriodGroup, byKey: ReadonlyMap<string, PeriodGroup>): PeriodGroup[] | null {
  if (end.fiscal_period === 'FY') return null;
  const window = [end];
  while (window.length < 4) {
    const key = previousQuarterKey(window[0]!);
    const prev = key ? byKey.get(key) : undefined;
    if (!prev) return null;
    const next = window[0]!;
    // consecutive: the later quarter starts right after the earlier one ends
    if (next.period_start && Math.abs(daysBetween(prev.period_end, next.period_start) - 1) > CALENDAR_SLACK_DAYS) return null;
    window.unshift(prev);
  }
  return window;
}

export function ttmQuarters(window: readonly PeriodGroup[]): TtmQuarter[] {
  return window.map((q) => ({
    fiscal_year: q.fiscal_year,
    fiscal_period: q.fiscal_period,
    period_start: q.period_start,
    period_end: q.period_end,
    derived_figures: TTM_FLOWS.filter((m) => flowOf(q, m)?.d),
  }));
}

/** The TTM row ending at quarter `end`; undefined without a full window. */
export function ttmRow(end: PeriodGroup, byKey: ReadonlyMap<string, PeriodGroup>, basis: SplitContext = NO_SPLITS): TtmResult | undefined {
  const window = ttmWindow(end, byKey);
  if (!window) return undefined;
  const sheet = new MetricSheet();
  const adjustments: Record<string, OperandSplitAdjustment[]> = {};
  const sums = new Map<string, string>();
  for (const m of TTM_FLOWS) {
    const figures = window.map((q) => flowOf(q, m));
    if (figures.some((f) => f === undefined)) {
      sheet.miss(m, 'INCOMPLETE_TRAILING_YEAR');
      continue;
    }
    const total = plain(figures.reduce((acc, f) => acc.plus(f!.v), dec('0')));
    sums.set(m, total);
    sheet.put(m, total);
  }
  const ocf = sums.get('OPERATING_CASH_FLOW');
  const capex = sums.get('CAPITAL_EXPENDITURES');
  if (ocf !== undefined && capex !== undefined) sheet.put('FREE_CASH_FLOW', plain(dec(ocf).minus(capex)));
  else sheet.miss('FREE_CASH_FLOW', 'INCOMPLETE_TRAILING_YEAR');
  const income = sums.get('NET_INCOME');
  for (const [eps, shares] of PER_SHARE) {
    const counts = window.map((q) => flowOf(q, shares));
    if (income === undefined || counts.some((c) => c === undefined)) {
      sheet.miss(eps, 'INCOMPLETE_TRAILING_YEAR');
      continue;
    }
    const one = onOneBasis(
      window.map((q, i) => ({ line: shares, fiscal_year: q.fiscal_year, fiscal_period: q.fiscal_period, value: counts[i]!.v, basis: statementOf(q, shares)!.share_bases?.[shares] })),
      basis,
    );
    if (!one.ok) {
      sheet.missBecause(eps, 'NO_COMPARABLE_PERIOD', 'SPLIT_BASIS_UNDETERMINED');
      continue;
    }
    if (one.adjustments.length > 0) adjustments[eps] = one.adjustments;
    const mean = one.values.reduce((acc, c) => acc.plus(c), dec('0')).dividedBy(4);
    if (mean.lte(0)) sheet.miss(eps, 'NON_POSITIVE_VALUE');
    else sheet.put(eps, fixedScale(dec(income).dividedBy(mean)));
  }
  const balance = end.statements.BALANCE_SHEET;
  for (const m of TTM_BALANCES) {
    const f = balance?.figures[m];
    if (f) sheet.put(m, f.v);
    else sheet.miss(m, 'NOT_REPORTED');
  }
  const reads = new Set(window.map(periodKey));
  if (balance) reads.add(periodKey(balance));
  return { end, window, sheet, reads: [...reads], split_adjustments: adjustments };
}
