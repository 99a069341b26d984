/**
 * Derived metrics evaluated on read: each catalog formula (domain/catalog/derived.ts) is parsed
 * once and evaluated with decimal.js over one fiscal period's canonical figures. Pure: figures in,
 * value or reason out.
 *
 * Rules, as the catalog states them:
 * - a missing input gives null with reason MISSING_INPUT naming it, never zero;
 * - a zero divisor gives null with reason DENOMINATOR_ZERO;
 * - a formula that divides a flow (income, cash flow) by a balance reads each balance as the
 *   average of opening and closing when the balance at the previous period end exists, otherwise
 *   the closing balance; balance-only and flow-only formulas read the period's own figures;
 * - the day-count constant 365 stands for the period's length: 365 for a fiscal year, the
 *   period's days (end - start + 1) for a quarter; a quarter is never annualized;
 * - a formula that needs market data is null (MARKET_DATA_UNAVAILABLE): the service holds none.
 * Currency results (sums and differences of money) are exact; ratios, days, times and per-share
 * values are rounded half-up to DERIVED_SCALE fraction digits and always carry all of them.
 */
import { canonicalMetric, DERIVED_METRICS, type DerivedMetric, type StatementType } from './catalog/index.ts';
import { dec, plain } from './decimal.ts';
import type { Decimal } from 'decimal.js';
import { STATEMENT_TYPES } from './statements/types.ts';

/** Fraction digits of a derived value (the bulk export's decimal(38, 12) scale). */
export const DERIVED_SCALE = 12;

/** Day-count constant of the catalog formulas, replaced by the period's length for a quarter. */
const DAY_COUNT_CONSTANT = '365';

export type UnavailableReason = 'MISSING_INPUT' | 'DENOMINATOR_ZERO' | 'NOT_APPLICABLE_TO_PERIOD' | 'MARKET_DATA_UNAVAILABLE';

type Node =
  | { k: 'name'; name: string }
  | { k: 'num'; value: string }
  | { k: 'neg'; e: Node }
  | { k: 'bin'; op: '+' | '-' | '*' | '/'; l: Node; r: Node };

/** Parses the arithmetic of a catalog formula: names, numbers, + - * /, parentheses, unary minus. */
export function parseFormula(formula: string): Node {
  const tokens = formula.match(/[A-Z][A-Z0-9_]*|\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  if (tokens.join('') !== formula.replace(/\s+/g, '')) throw new Error(`unsupported formula: ${formula}`);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++]!;
  const expr = (): Node => {
    let l = term();
    while (peek() === '+' || peek() === '-') l = { k: 'bin', op: next() as '+' | '-', l, r: term() };
    return l;
  };
  const term = (): Node => {
    let l = factor();
    while (peek() === '*' || peek() === '/') l = { k: 'bin', op: next() as '*' | '/', l, r: factor() };
    return l;
  };
  const factor = (): Node => {
    const t = next();
    if (t === undefined) throw new Error(`formula ends early: ${formula}`);
    if (t === '(') {
      const e = expr();
      if (next() !== ')') throw new Error(`unbalanced parenthesis: ${formula}`);
      return e;
    }
    if (t === '-') return { k: 'neg', e: factor() };
    if (/^\d/.test(t)) return { k: 'num', value: t };
    if (/^[A-Z]/.test(t)) return { k: 'name', name: t };
    throw new Error(`unexpected ${t} in ${formula}`);
  };
  const tree = expr();
  if (i !== tokens.length) throw new Error(`trailing tokens in ${formula}`);
  return tree;
}

/** How a derived metric reads its period: which inputs are averaged, whether it counts days. */
export interface DerivedConventions {
  /** statement types its inputs come from */
  input_statement_types: StatementType[];
  /** balance-sheet inputs read as the average of opening and closing (flow-over-balance formulas) */
  balance_inputs_averaged: string[];
  /** the formula's 365 is the period's length in days */
  uses_day_count: boolean;
}

export function conventionsOf(def: DerivedMetric): DerivedConventions {
  const kinds = def.dependencies.map((d) => canonicalMetric(d)?.period_kind);
  const mixed = kinds.includes('duration') && kinds.includes('instant');
  const types = new Set(def.dependencies.map((d) => canonicalMetric(d)?.statement_type).filter((t): t is StatementType => t !== undefined));
  return {
    input_statement_types: STATEMENT_TYPES.filter((t) => types.has(t)),
    balance_inputs_averaged: mixed ? def.dependencies.filter((d) => canonicalMetric(d)?.period_kind === 'instant') : [],
    uses_day_count: new RegExp(`\\b${DAY_COUNT_CONSTANT}\\b`).test(def.formula ?? ''),
  };
}

interface Compiled {
  def: DerivedMetric;
  tree: Node;
  conventions: DerivedConventions;
}

const compiled = new Map<string, Compiled>(
  DERIVED_METRICS.map((def) => [def.metric, { def, tree: parseFormula(def.formula!), conventions: conventionsOf(def) }]),
);

/** One fiscal period's canonical figures, all statement types together. */
export interface PeriodFigures {
  /** FY, Q1..Q4 */
  fiscal_period: string;
  /** days from period start to period end inclusive; null when no flow statement gives a start */
  days: number | null;
  /** metric -> decimal string at or over the period */
  closing: Readonly<Record<string, string>>;
  /** balance-sheet metric -> decimal string at the previous period end (empty when none is on record) */
  opening: Readonly<Record<string, string>>;
}

export interface DerivedValue {
  metric: string;
  /** decimal string (plain, not padded), or null with a reason */
  value: string | null;
  reason: UnavailableReason | null;
  /** inputs that were not reported, for MISSING_INPUT */
  missing_inputs: string[];
}

class DenominatorZero extends Error {}

/** Evaluates one derived metric over one period. Throws only for a name outside the catalog. */
export function evaluateDerived(metric: string, p: PeriodFigures): DerivedValue {
  const c = compiled.get(metric);
  if (!c) throw new Error(`not a derived metric: ${metric}`);
  if (c.def.market_data_required) return { metric, value: null, reason: 'MARKET_DATA_UNAVAILABLE', missing_inputs: [] };
  const missing = c.def.dependencies.filter((d) => p.closing[d] === undefined);
  if (missing.length > 0) return { metric, value: null, reason: 'MISSING_INPUT', missing_inputs: missing };
  const averaged = new Set(c.conventions.balance_inputs_averaged);
  let days: string = DAY_COUNT_CONSTANT;
  if (c.conventions.uses_day_count && p.fiscal_period !== 'FY') {
    if (p.days === null) return { metric, value: null, reason: 'NOT_APPLICABLE_TO_PERIOD', missing_inputs: [] };
    days = String(p.days);
  }
  const input = (name: string): Decimal => {
    const closing = dec(p.closing[name]!);
    const opening = p.opening[name];
    return averaged.has(name) && opening !== undefined ? closing.plus(opening).dividedBy(2) : closing;
  };
  const run = (n: Node): Decimal => {
    switch (n.k) {
      case 'name':
        return input(n.name);
      case 'num':
        return dec(n.value === DAY_COUNT_CONSTANT ? days : n.value);
      case 'neg':
        return run(n.e).negated();
      case 'bin': {
        const l = run(n.l);
        const r = run(n.r);
        if (n.op === '+') return l.plus(r);
        if (n.op === '-') return l.minus(r);
        if (n.op === '*') return l.times(r);
        if (r.isZero()) throw new DenominatorZero();
        return l.dividedBy(r);
      }
    }
  };
  try {
    const result = run(c.tree).toDecimalPlaces(DERIVED_SCALE);
    // money stays as exact as its inputs; ratios, days and per-share values carry the full scale
    const text = c.def.unit_type === 'currency' ? plain(result.abs().isZero() ? result.abs() : result) : result.toFixed(DERIVED_SCALE).replace(/^-(0\.0+)$/, '$1');
    return { metric, value: text, reason: null, missing_inputs: [] };
  } catch (err) {
    if (err instanceof DenominatorZero) return { metric, value: null, reason: 'DENOMINATOR_ZERO', missing_inputs: [] };
    throw err;
  }
}

/** Conventions of a catalog derived metric (cached); undefined for another name. */
export function conventionsFor(metric: string): DerivedConventions | undefined {
  return compiled.get(metric)?.conventions;
}

/** Canonical inputs of the given derived metrics, deduplicated. */
export function inputsOf(metrics: readonly string[]): string[] {
  return [...new Set(metrics.flatMap((m) => compiled.get(m)?.def.dependencies ?? []))];
}

/** Days from start to end inclusive (YYYY-MM-DD strings). */
export function periodDays(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}
