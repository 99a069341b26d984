/**
 * Ratio rows: the spec's fourteen ratios on each income-statement and balance-sheet version of a
 * snapshot. Each ratio follows its catalog formula and conventions (domain/catalog/derived.ts,
 * evaluated by domain/derived-eval.ts): flows over balances average the opening and closing
 * balance when the previous period-end balance exists, quarters are never annualized, day counts
 * use 365 for a fiscal year and the quarter's own days otherwise. A ratio whose catalog statement
 * is not the row's is NOT_ON_STATEMENT there (it is on the other row of the same period).
 */
import { derivedMetric, type StatementType } from '../catalog/index.ts';
import { conventionsFor, evaluateDerived } from '../derived-eval.ts';
import { periodFigures, type PeriodGroup } from '../series-periods.ts';
import { ownStatement, readsOf } from './company.ts';
import { MetricSheet, type ModelVersion } from './types.ts';

export const RATIO_NAMES = [
  'GROSS_MARGIN', 'OPERATING_MARGIN', 'NET_MARGIN', 'ROE', 'ROA', 'ROIC', 'DEBT_TO_EQUITY', 'CURRENT_RATIO',
  'QUICK_RATIO', 'BOOK_VALUE_PER_SHARE', 'DSO', 'DPO', 'INVENTORY_TURNOVER', 'CASH_CONVERSION_CYCLE',
] as const;

/** Statement type each ratio lives on (the catalog's). */
export const RATIO_STATEMENT: Readonly<Record<string, StatementType>> = Object.fromEntries(
  RATIO_NAMES.map((n) => [n, derivedMetric(n)!.statement_type]),
);

/** Statement types that carry ratio rows. */
export const RATIO_STATEMENT_TYPES: readonly StatementType[] = [...new Set(Object.values(RATIO_STATEMENT))];

export interface RatioResult {
  version: ModelVersion;
  sheet: MetricSheet;
  reads: string[];
}

/** The ratio row of one period's statement of `type`; undefined when the period has no such statement of its own. */
export function ratioRow(g: PeriodGroup, type: StatementType): RatioResult | undefined {
  const version = ownStatement(g, type);
  if (!version) return undefined;
  const inputs = periodFigures(g);
  const sheet = new MetricSheet();
  let readsOpening = false;
  for (const name of RATIO_NAMES) {
    if (RATIO_STATEMENT[name] !== type) {
      sheet.miss(name, 'NOT_ON_STATEMENT');
      continue;
    }
    const r = evaluateDerived(name, inputs);
    if (r.value !== null) {
      sheet.put(name, r.value);
      if (conventionsFor(name)?.balance_inputs_averaged.some((i) => inputs.opening[i] !== undefined)) readsOpening = true;
    } else if (r.reason === 'MISSING_INPUT') sheet.miss(name, 'MISSING_INPUT', r.missing_inputs);
    else if (r.reason === 'DENOMINATOR_ZERO' || r.reason === 'NOT_APPLICABLE_TO_PERIOD') sheet.miss(name, r.reason);
    else throw new Error(`${name}: unexpected reason ${r.reason}`); // none of the fourteen needs market data
  }
  return { version, sheet, reads: readsOf(g, readsOpening) };
}
