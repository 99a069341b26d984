/**
 * Multi-year rows: one per fiscal year, with the inputs a valuation model takes from the filings.
 * Every input is in `valuation_inputs`, null when unavailable with an `unavailable_metrics` entry:
 * - reported lines of the year's statements (NOT_REPORTED when the year does not report them);
 * - EBITDA = OPERATING_INCOME + DEPRECIATION_AND_AMORTIZATION, FREE_CASH_FLOW = OPERATING_CASH_FLOW
 *   - CAPITAL_EXPENDITURES, TOTAL_DEBT = CURRENT_PORTION_LONG_TERM_DEBT + LONG_TERM_DEBT, NET_DEBT =
 *   TOTAL_DEBT - CASH_AND_EQUIVALENTS (MISSING_INPUT naming what is not reported), exact sums;
 * - market inputs (PRICE, MARKET_CAPITALIZATION, ENTERPRISE_VALUE) are never persisted: the service
 *   holds no market data, and a price stored in a point-in-time snapshot would be stale on every
 *   later read; they are null with NOT_REPORTED (no filing reports them), and the row says so in
 *   `market_data`. A caller multiplies its own price by SHARES_OUTSTANDING.
 */
import { canonicalMetric } from '../catalog/index.ts';
import { VALUATION_INPUT_METRICS } from '../catalog/traits.ts';
import { dec, plain } from '../decimal.ts';
import type { PeriodGroup } from '../series-periods.ts';
import { readsOf } from './company.ts';
import type { Unavailable } from './types.ts';

/** The reported lines of the row, in row order (catalog trait `valuation_input`). */
export const REPORTED_VALUATION_INPUTS: readonly string[] = VALUATION_INPUT_METRICS;
const COMPUTED: ReadonlyArray<[string, (v: (m: string) => string | undefined) => { value: string | null; missing: string[] }]> = [
  ['EBITDA', (v) => sum(v, ['OPERATING_INCOME', 'DEPRECIATION_AND_AMORTIZATION'], [])],
  ['FREE_CASH_FLOW', (v) => sum(v, ['OPERATING_CASH_FLOW'], ['CAPITAL_EXPENDITURES'])],
  ['TOTAL_DEBT', (v) => sum(v, ['CURRENT_PORTION_LONG_TERM_DEBT', 'LONG_TERM_DEBT'], [])],
  ['NET_DEBT', (v) => sum(v, ['CURRENT_PORTION_LONG_TERM_DEBT', 'LONG_TERM_DEBT'], ['CASH_AND_EQUIVALENTS'])],
];
export const MARKET_INPUTS = ['PRICE', 'MARKET_CAPITALIZATION', 'ENTERPRISE_VALUE'] as const;

/** Every valuation input, in row order. */
export const VALUATION_INPUT_NAMES: readonly string[] = [...REPORTED_VALUATION_INPUTS, ...COMPUTED.map(([m]) => m), ...MARKET_INPUTS];

export const MARKET_DATA_NOTE =
  'Market inputs (price, market capitalization, enterprise value) are not persisted: the service holds no market data, and a price frozen into a point-in-time snapshot would be stale on every later read. Multiply your own price by SHARES_OUTSTANDING.';

function sum(v: (m: string) => string | undefined, plus: string[], minus: string[]): { value: string | null; missing: string[] } {
  const missing = [...plus, ...minus].filter((m) => v(m) === undefined);
  if (missing.length > 0) return { value: null, missing };
  let total = dec('0');
  for (const m of plus) total = total.plus(v(m)!);
  for (const m of minus) total = total.minus(v(m)!);
  return { value: plain(total), missing: [] };
}

export interface MultiYearResult {
  year: PeriodGroup;
  valuation_inputs: Record<string, string | null>;
  unavailable_metrics: Unavailable[];
  reads: string[];
}

/** The multi-year row of a fiscal year. */
export function multiYearRow(year: PeriodGroup): MultiYearResult {
  const value = (m: string): string | undefined => {
    const type = canonicalMetric(m)!.statement_type;
    return year.statements[type]?.figures[m]?.v;
  };
  const inputs: Record<string, string | null> = {};
  const unavailable: Unavailable[] = [];
  for (const m of REPORTED_VALUATION_INPUTS) {
    const v = value(m);
    inputs[m] = v ?? null;
    if (v === undefined) unavailable.push({ metric: m, reason: 'NOT_REPORTED' });
  }
  for (const [m, compute] of COMPUTED) {
    const r = compute(value);
    inputs[m] = r.value;
    if (r.value === null) unavailable.push({ metric: m, reason: 'MISSING_INPUT', missing_inputs: r.missing });
  }
  for (const m of MARKET_INPUTS) {
    inputs[m] = null;
    unavailable.push({ metric: m, reason: 'NOT_REPORTED' });
  }
  return { year, valuation_inputs: inputs, unavailable_metrics: unavailable, reads: readsOf(year, false) };
}
