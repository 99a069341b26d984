/**
 * Growth rows, one per statement version of a snapshot. Each growth metric compares one canonical
 * line of its own statement type with the same line of a comparable period:
 * - *_YOY: the same fiscal period one fiscal year earlier (a quarter with that quarter, a year with
 *   the year before), of the same length within the 52/53-week slack;
 * - *_QOQ: the immediately preceding quarter (Q1 against the previous year's Q4, usually derived);
 *   on a fiscal-year row it is NOT_APPLICABLE_TO_PERIOD;
 * - *_CAGR: compound annual growth over CAGR_YEARS fiscal years, on fiscal-year rows only.
 * Growth is (current - prior) / |prior|, so a loss that narrows is positive growth; a prior of zero
 * is DENOMINATOR_ZERO. A CAGR needs both ends positive, else NON_POSITIVE_VALUE. Values are
 * rounded half-up to MODEL_FRACTION_DIGITS.
 * A per-share or share-count line is compared on one split basis (share-basis.ts): the operand of
 * the older filing restated to the newer one's basis, the row's `split_adjustments` saying how;
 * where that basis cannot be determined the metric is NO_COMPARABLE_PERIOD (SPLIT_BASIS_UNDETERMINED).
 */
import { canonicalMetric, type StatementType } from '../catalog/index.ts';
import { dec } from '../decimal.ts';
import type { PeriodGroup } from '../series-periods.ts';
import { ownStatement, previousQuarterKey, readsOf, sameLength, yearAgoKey } from './company.ts';
import { NO_SPLITS, onOneBasis, type OperandSplitAdjustment, type SplitContext } from './share-basis.ts';
import { MetricSheet, MODEL_FRACTION_DIGITS, type ModelVersion } from './types.ts';

/** Fiscal years a CAGR spans (the growth rows' cagr_years). */
export const CAGR_YEARS = 3;

interface GrowthDef {
  metric: string;
  /** the canonical line compared */
  line: string;
  statement_type: StatementType;
  kind: 'yoy' | 'qoq' | 'cagr';
}

/** a growth metric of `line`, on the line's own statement type (the catalog's) */
const g = (metric: string, line: string, kind: GrowthDef['kind']): GrowthDef => ({ metric, line, statement_type: canonicalMetric(line)!.statement_type, kind });

export const GROWTH_DEFS: readonly GrowthDef[] = [
  g('REVENUE_GROWTH_YOY', 'REVENUE', 'yoy'),
  g('REVENUE_GROWTH_QOQ', 'REVENUE', 'qoq'),
  g('GROSS_PROFIT_GROWTH_YOY', 'GROSS_PROFIT', 'yoy'),
  g('OPERATING_INCOME_GROWTH_YOY', 'OPERATING_INCOME', 'yoy'),
  g('NET_INCOME_GROWTH_YOY', 'NET_INCOME', 'yoy'),
  g('NET_INCOME_GROWTH_QOQ', 'NET_INCOME', 'qoq'),
  g('EPS_DILUTED_GROWTH_YOY', 'EPS_DILUTED', 'yoy'),
  g('REVENUE_CAGR', 'REVENUE', 'cagr'),
  g('NET_INCOME_CAGR', 'NET_INCOME', 'cagr'),
  g('OPERATING_CASH_FLOW_GROWTH_YOY', 'OPERATING_CASH_FLOW', 'yoy'),
  g('CAPITAL_EXPENDITURES_GROWTH_YOY', 'CAPITAL_EXPENDITURES', 'yoy'),
  g('TOTAL_ASSETS_GROWTH_YOY', 'TOTAL_ASSETS', 'yoy'),
  g('STOCKHOLDERS_EQUITY_GROWTH_YOY', 'STOCKHOLDERS_EQUITY', 'yoy'),
];

export const GROWTH_NAMES: readonly string[] = GROWTH_DEFS.map((d) => d.metric);

/** Fixed-scale text without a negative zero. */
export function fixedScale(value: import('decimal.js').Decimal): string {
  return value.toFixed(MODEL_FRACTION_DIGITS).replace(/^-(0\.0+)$/, '$1');
}

/** (current - prior) / |prior|, or null when prior is zero. */
export function growthRate(current: string, prior: string): string | null {
  const p = dec(prior);
  if (p.isZero()) return null;
  return fixedScale(dec(current).minus(p).dividedBy(p.abs()));
}

/** (end / start)^(1 / years) - 1, or null when either end is not positive. */
export function cagr(end: string, start: string, years: number): string | null {
  const e = dec(end);
  const s = dec(start);
  if (e.lte(0) || s.lte(0)) return null;
  return fixedScale(e.dividedBy(s).pow(dec('1').dividedBy(years)).minus(1));
}

export interface GrowthResult {
  version: ModelVersion;
  sheet: MetricSheet;
  cagr_years: number | null;
  reads: string[];
  /** growth metric -> the operands restated to the row's split basis (only metrics that needed it) */
  split_adjustments: Record<string, OperandSplitAdjustment[]>;
}

const SHARE_UNITS = new Set(['per_share', 'shares']);

/** The growth row of one period's statement of `type`; undefined when the period has no such statement of its own. */
export function growthRow(cur: PeriodGroup, type: StatementType, byKey: ReadonlyMap<string, PeriodGroup>, basis: SplitContext = NO_SPLITS): GrowthResult | undefined {
  const version = ownStatement(cur, type);
  if (!version) return undefined;
  const sheet = new MetricSheet();
  const adjustments: Record<string, OperandSplitAdjustment[]> = {};
  const reads = new Set(readsOf(cur, false));
  const isYear = cur.fiscal_period === 'FY';
  for (const d of GROWTH_DEFS) {
    if (d.statement_type !== type) {
      sheet.miss(d.metric, 'NOT_ON_STATEMENT');
      continue;
    }
    if (d.kind === 'qoq' && isYear) {
      sheet.miss(d.metric, 'NOT_APPLICABLE_TO_PERIOD');
      continue;
    }
    if (d.kind === 'cagr' && !isYear) {
      sheet.miss(d.metric, 'NOT_APPLICABLE_TO_PERIOD');
      continue;
    }
    const key = d.kind === 'yoy' ? yearAgoKey(cur) : d.kind === 'qoq' ? previousQuarterKey(cur)! : yearAgoKey(cur, CAGR_YEARS);
    reads.add(key);
    const prior = byKey.get(key) ? ownStatement(byKey.get(key)!, type) : undefined;
    let now = version.figures[d.line]?.v;
    if (!prior || !sameLength(version, prior)) {
      sheet.miss(d.metric, 'NO_COMPARABLE_PERIOD');
      continue;
    }
    if (now === undefined) {
      sheet.miss(d.metric, 'NOT_REPORTED');
      continue;
    }
    let before = prior.figures[d.line]?.v;
    if (before === undefined) {
      sheet.miss(d.metric, 'MISSING_INPUT', [d.line]);
      continue;
    }
    if (SHARE_UNITS.has(canonicalMetric(d.line)!.unit_type)) {
      const one = onOneBasis([operand(version, d.line, now), operand(prior, d.line, before)], basis);
      if (!one.ok) {
        sheet.missBecause(d.metric, 'NO_COMPARABLE_PERIOD', 'SPLIT_BASIS_UNDETERMINED');
        continue;
      }
      [now, before] = one.values as [string, string];
      if (one.adjustments.length > 0) adjustments[d.metric] = one.adjustments;
    }
    if (d.kind === 'cagr') {
      const v = cagr(now, before, CAGR_YEARS);
      if (v === null) sheet.miss(d.metric, 'NON_POSITIVE_VALUE');
      else sheet.put(d.metric, v);
    } else {
      const v = growthRate(now, before);
      if (v === null) sheet.miss(d.metric, 'DENOMINATOR_ZERO');
      else sheet.put(d.metric, v);
    }
  }
  return { version, sheet, cagr_years: isYear ? CAGR_YEARS : null, reads: [...reads], split_adjustments: adjustments };
}

function operand(v: ModelVersion, line: string, value: string) {
  return { line, fiscal_year: v.fiscal_year, fiscal_period: v.fiscal_period, value, basis: v.share_bases?.[line] };
}

