import { Decimal } from 'decimal.js';
import { CANONICAL_METRICS, DERIVED_METRICS } from './catalog/index.ts';
import type { DerivedMetric } from './catalog/index.ts';
import { dec, plain, wireDecimal } from './decimal.ts';

/**
 * Pure arithmetic behind the restatement and version-analytics routes: per-metric deltas between
 * two versions, relative changes, derived formulas evaluated over one version's figures, and the
 * rule that filed-figure comparisons never take a market-dependent metric.
 */

/**
 * Metrics that need a share price or market value. None is persisted (the service stores filed
 * figures only); the names are recognised so that a caller asking for one is told why it is refused
 * rather than told it is unknown. Catalog entries flagged market_data_required join the list.
 */
export const MARKET_DEPENDENT_METRICS: readonly string[] = Object.freeze([
  ...new Set([
    'MARKET_CAP',
    'ENTERPRISE_VALUE',
    'SHARE_PRICE',
    'PE_RATIO',
    'PRICE_TO_EARNINGS',
    'PRICE_TO_BOOK',
    'PRICE_TO_SALES',
    'PRICE_TO_FREE_CASH_FLOW',
    'EV_TO_EBITDA',
    'EV_TO_REVENUE',
    'EV_TO_SALES',
    'EARNINGS_YIELD',
    'FCF_YIELD',
    'DIVIDEND_YIELD',
    ...[...CANONICAL_METRICS, ...DERIVED_METRICS].filter((m) => m.market_data_required).map((m) => m.metric),
  ]),
]);

const MARKET_SET = new Set(MARKET_DEPENDENT_METRICS);

export function isMarketDependent(metric: string): boolean {
  return MARKET_SET.has(metric);
}

/** How one metric compares between an earlier (old) and a later (new) side. */
export type ChangeStatus = 'CHANGED' | 'UNCHANGED' | 'ADDED' | 'REMOVED' | 'NOT_REPORTED';

export interface MetricChange {
  status: ChangeStatus;
  /** new - old, exact; null unless both sides report the metric */
  difference: string | null;
  /** (new - old) / |old|, six fraction digits; null when a side is missing or old is zero */
  relative_change: string | null;
}

const RATIO_DIGITS = 6;

/** A computed (not stored) quotient on the wire: six fraction digits, half away from zero. */
export function wireRatio(value: Decimal): string {
  return wireDecimal(plain(value.toDecimalPlaces(RATIO_DIGITS, Decimal.ROUND_HALF_UP)));
}

export function compareValues(oldValue: string | null, newValue: string | null): MetricChange {
  if (oldValue === null && newValue === null) return { status: 'NOT_REPORTED', difference: null, relative_change: null };
  if (oldValue === null) return { status: 'ADDED', difference: null, relative_change: null };
  if (newValue === null) return { status: 'REMOVED', difference: null, relative_change: null };
  const diff = dec(newValue).minus(oldValue);
  const base = dec(oldValue).abs();
  return {
    status: diff.isZero() ? 'UNCHANGED' : 'CHANGED',
    difference: wireDecimal(plain(diff)),
    relative_change: base.isZero() ? null : wireRatio(diff.dividedBy(base)),
  };
}

/** Reasons a derived value is null (the spec's unavailable_metrics vocabulary). */
export type UnavailableReason = 'MISSING_INPUT' | 'DENOMINATOR_ZERO' | 'NON_POSITIVE_VALUE';

export type FormulaResult = { value: Decimal; reason: null; missing_inputs: [] } | { value: null; reason: UnavailableReason; missing_inputs: string[] };

type Token = { kind: 'num'; text: string } | { kind: 'name'; text: string } | { kind: 'op'; text: string };

function tokenize(formula: string): Token[] {
  const out: Token[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?)|([A-Z][A-Z0-9_]*)|([-+*/()]))/y;
  let m: RegExpExecArray | null;
  re.lastIndex = 0;
  while (re.lastIndex < formula.length && (m = re.exec(formula))) {
    if (m[1] !== undefined) out.push({ kind: 'num', text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: 'name', text: m[2] });
    else out.push({ kind: 'op', text: m[3]! });
  }
  if (formula.slice(re.lastIndex).trim() !== '') throw new Error(`unreadable formula: ${formula}`);
  return out;
}

class DivideByZero extends Error {}

/**
 * Evaluate a catalog formula (names, numbers, + - * / and parentheses) over decimal strings.
 * A missing input makes the result null with MISSING_INPUT (never zero); a zero divisor gives
 * DENOMINATOR_ZERO. `days` replaces the literal 365 of day-count formulas for a shorter period.
 */
export function evaluateFormula(formula: string, values: Record<string, string | null | undefined>, days = 365): FormulaResult {
  const tokens = tokenize(formula);
  const missing = [...new Set(tokens.filter((t) => t.kind === 'name' && (values[t.text] ?? null) === null).map((t) => t.text))];
  if (missing.length > 0) return { value: null, reason: 'MISSING_INPUT', missing_inputs: missing };
  let i = 0;
  const peek = () => tokens[i];
  const expr = (): Decimal => {
    let v = term();
    while (peek()?.kind === 'op' && (peek()!.text === '+' || peek()!.text === '-')) {
      const op = tokens[i++]!.text;
      const r = term();
      v = op === '+' ? v.plus(r) : v.minus(r);
    }
    return v;
  };
  const term = (): Decimal => {
    let v = factor();
    while (peek()?.kind === 'op' && (peek()!.text === '*' || peek()!.text === '/')) {
      const op = tokens[i++]!.text;
      const r = factor();
      if (op === '/' && r.isZero()) throw new DivideByZero();
      v = op === '*' ? v.times(r) : v.dividedBy(r);
    }
    return v;
  };
  const factor = (): Decimal => {
    const t = tokens[i++];
    if (!t) throw new Error(`formula ends early: ${formula}`);
    if (t.kind === 'num') return dec(t.text === '365' ? String(days) : t.text);
    if (t.kind === 'name') return dec(values[t.text]!);
    if (t.text === '-') return factor().negated();
    if (t.text === '(') {
      const v = expr();
      if (tokens[i++]?.text !== ')') throw new Error(`unbalanced formula: ${formula}`);
      return v;
    }
    throw new Error(`unexpected ${t.text} in ${formula}`);
  };
  try {
    const v = expr();
    if (i !== tokens.length) throw new Error(`trailing tokens in ${formula}`);
    return { value: v, reason: null, missing_inputs: [] };
  } catch (e) {
    if (e instanceof DivideByZero) return { value: null, reason: 'DENOMINATOR_ZERO', missing_inputs: [] };
    throw e;
  }
}

/** Derived catalog metrics that read at least one metric of `statementMetrics` (so a restatement of it can move them). */
export function derivedReading(statementMetrics: ReadonlySet<string>): DerivedMetric[] {
  return DERIVED_METRICS.filter((d) => d.dependencies.some((m) => statementMetrics.has(m)));
}

/** Days in a period for day-count formulas: 365 for a fiscal year, else the period's own length. */
export function periodDays(fiscalPeriod: string, periodStart: string | null, periodEnd: string): number {
  if (fiscalPeriod === 'FY' || periodStart === null) return 365;
  const ms = Date.parse(`${periodEnd}T00:00:00Z`) - Date.parse(`${periodStart}T00:00:00Z`);
  return Math.round(ms / 86_400_000) + 1;
}

/**
 * Price-free valuation sensitivity: at an unchanged market value, a multiple whose denominator is
 * `driver` becomes original multiple x (original driver / this version's driver). Null when the
 * driver is missing on either side or not positive (a multiple of a loss or deficit means nothing).
 */
export const VALUATION_MULTIPLES: readonly { multiple: string; driver: string; numerator: 'MARKET_CAP' | 'ENTERPRISE_VALUE' }[] = [
  { multiple: 'PRICE_TO_EARNINGS', driver: 'NET_INCOME', numerator: 'MARKET_CAP' },
  { multiple: 'PRICE_TO_SALES', driver: 'REVENUE', numerator: 'MARKET_CAP' },
  { multiple: 'PRICE_TO_BOOK', driver: 'STOCKHOLDERS_EQUITY', numerator: 'MARKET_CAP' },
  { multiple: 'PRICE_TO_FREE_CASH_FLOW', driver: 'FREE_CASH_FLOW', numerator: 'MARKET_CAP' },
  { multiple: 'EV_TO_EBITDA', driver: 'EBITDA', numerator: 'ENTERPRISE_VALUE' },
  { multiple: 'EV_TO_REVENUE', driver: 'REVENUE', numerator: 'ENTERPRISE_VALUE' },
];

export function multipleFactor(originalDriver: string | null, driver: string | null): { factor: string | null; reason: UnavailableReason | null } {
  if (originalDriver === null || driver === null) return { factor: null, reason: 'MISSING_INPUT' };
  if (!dec(originalDriver).isPositive() || dec(originalDriver).isZero() || !dec(driver).isPositive() || dec(driver).isZero()) {
    return { factor: null, reason: 'NON_POSITIVE_VALUE' };
  }
  return { factor: wireRatio(dec(originalDriver).dividedBy(driver)), reason: null };
}
