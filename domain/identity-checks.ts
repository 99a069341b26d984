/**
 * Accounting identities of one normalized statement: the block served as
 * `normalized_payload._meta.identity`. Pure: no I/O, money only as decimal strings in and out and
 * decimal.js in between (BigInt when every value of a rule is a whole number, see judgeWhole).
 *
 * Every rule is evaluated for every statement, so `total_rules_count` is always the number of
 * rules. A rule is SKIPPED (all four values null, severity NONE, left out of `pass_rate`) when it
 * belongs to another statement type, or when the statement lacks its actual metric or a required
 * term of every alternative. Optional terms count as zero when absent.
 *
 * Status of an evaluated rule, with delta = actual - expected and tolerance from `toleranceFor`:
 * - PASS (severity NONE) when |delta| <= tolerance.
 * - WARNING (severity LOW) when tolerance < |delta| <= 10 * tolerance and the delta is under 0.1%
 *   of the larger of |actual| and |expected|: a few rounding units off, more than rounding alone
 *   explains but too small to call a break (e.g. a filer's footing plug). Neither a pass nor a
 *   failure: it lowers `pass_rate` but is not in `failed_rules_count`.
 * - FAIL otherwise, severity by |delta| / max(|actual|, |expected|):
 *   < 0.1% LOW, < 1% MEDIUM, < 10% HIGH, else CRITICAL.
 *
 * These checks are stricter than the checks that decide publication, so a published statement can
 * show a failing identity.
 */
import { Decimal } from 'decimal.js';
import { precisionOf } from './decimal.ts';

export { precisionOf };
import type { FiscalPeriod, IdentityCheck, IdentityStatus, IdentitySummary, Severity, StatementType } from './statement-types.ts';

/**
 * Private decimal.js constructor: precision is in significant digits and every operation rounds to
 * it, so the library default (20) would silently round a 24-digit sum. 1,000 digits keeps every
 * addition and subtraction of reported figures exact. The global Decimal is left untouched.
 */
const D = Decimal.clone({ precision: 1_000, rounding: Decimal.ROUND_HALF_EVEN });

/** |delta| / magnitude bounds of the severity bands (LOW below the first, then MEDIUM, HIGH) */
const SEVERITY_BANDS: readonly [Severity, Decimal][] = [
  ['LOW', new D('0.001')],
  ['MEDIUM', new D('0.01')],
  ['HIGH', new D('0.1')],
];
/** a delta within this many tolerances (and under the LOW band) is a WARNING rather than a FAIL */
const WARNING_TOLERANCE_MULTIPLE = new D(10);
/** the magnitude part of the tolerance: one part per million of the largest figure */
const MAGNITUDE_TOLERANCE_RATE = new D('0.000001');

export interface IdentityInput {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  /** metric name -> decimal string, only metrics present on the statement (frozen: see evaluateIdentityRule) */
  values: Readonly<Record<string, string>>;
}

/** One term of the expected side: `sign` * value of `metric`; an absent optional term counts as zero. */
export interface IdentityTerm {
  metric: string;
  sign: 1 | -1;
  optional?: boolean;
}

export interface IdentityRule {
  /** stable, SCREAMING_SNAKE */
  rule_id: string;
  statement_type: StatementType;
  description: string;
  /** the metric the statement reports, compared against the sum of the terms */
  actual: string;
  /**
   * Alternative term sets for the expected side, tried in order: the first whose required terms
   * are all present is used. Each set has at least one required term.
   */
  expected: readonly (readonly IdentityTerm[])[];
}

const req = (metric: string, sign: 1 | -1 = 1): IdentityTerm => ({ metric, sign });
const opt = (metric: string, sign: 1 | -1 = 1): IdentityTerm => ({ metric, sign, optional: true });

/** Total equity: the reported total, else stockholders' equity plus noncontrolling interest. */
const EQUITY_ALTERNATIVES: readonly (readonly IdentityTerm[])[] = [
  [req('TOTAL_EQUITY')],
  [req('STOCKHOLDERS_EQUITY'), opt('NONCONTROLLING_INTEREST')],
];
const liabilitiesPlusEquity = (): (readonly IdentityTerm[])[] =>
  EQUITY_ALTERNATIVES.map((equity) => [req('TOTAL_LIABILITIES'), opt('TEMPORARY_EQUITY'), ...equity]);

export const IDENTITY_RULES: readonly IdentityRule[] = [
  {
    rule_id: 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY',
    statement_type: 'BALANCE_SHEET',
    description: 'Total assets equal the reported total of liabilities and equity.',
    actual: 'TOTAL_ASSETS',
    expected: [[req('LIABILITIES_AND_EQUITY')]],
  },
  {
    rule_id: 'BS_LIABILITIES_PLUS_EQUITY',
    statement_type: 'BALANCE_SHEET',
    description:
      'The reported total of liabilities and equity equals total liabilities plus temporary equity plus total equity ' +
      "(or, without a reported total equity, stockholders' equity plus noncontrolling interest).",
    actual: 'LIABILITIES_AND_EQUITY',
    expected: liabilitiesPlusEquity(),
  },
  {
    rule_id: 'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY',
    statement_type: 'BALANCE_SHEET',
    description:
      'Total assets equal total liabilities plus temporary equity plus total equity ' +
      "(or, without a reported total equity, stockholders' equity plus noncontrolling interest).",
    actual: 'TOTAL_ASSETS',
    expected: liabilitiesPlusEquity(),
  },
  {
    rule_id: 'IS_GROSS_PROFIT',
    statement_type: 'INCOME_STATEMENT',
    description: 'Gross profit equals revenue minus cost of revenue.',
    actual: 'GROSS_PROFIT',
    expected: [[req('REVENUE'), req('COST_OF_REVENUE', -1)]],
  },
  {
    rule_id: 'IS_OPERATING_INCOME',
    statement_type: 'INCOME_STATEMENT',
    description: 'Operating income equals gross profit minus operating expenses.',
    actual: 'OPERATING_INCOME',
    expected: [[req('GROSS_PROFIT'), req('OPERATING_EXPENSES', -1)]],
  },
  {
    rule_id: 'IS_NET_INCOME_ATTRIBUTION',
    statement_type: 'INCOME_STATEMENT',
    description:
      'Net income including noncontrolling interest equals net income attributable to the parent plus net income attributable to noncontrolling interest.',
    actual: 'NET_INCOME_INCLUDING_NONCONTROLLING',
    expected: [[req('NET_INCOME'), opt('NET_INCOME_NONCONTROLLING')]],
  },
  {
    rule_id: 'CF_NET_CHANGE_IN_CASH',
    statement_type: 'CASH_FLOW_STATEMENT',
    description:
      'The net change in cash equals operating plus investing plus financing cash flow plus the effect of exchange rates on cash.',
    actual: 'NET_CHANGE_IN_CASH',
    expected: [
      [
        req('OPERATING_CASH_FLOW'),
        req('INVESTING_CASH_FLOW'),
        req('FINANCING_CASH_FLOW'),
        opt('EFFECT_OF_EXCHANGE_RATE_ON_CASH'),
      ],
    ],
  },
];

const DECIMAL_STRING = /^-?\d+(\.\d+)?$/;

function parse(value: string): Decimal {
  if (typeof value !== 'string' || !DECIMAL_STRING.test(value)) {
    throw new TypeError(`not a decimal string: ${JSON.stringify(value)}`);
  }
  return new D(value);
}

/** Plain decimal string, no exponent, never '-0'. */
function format(value: Decimal): string {
  return value.isZero() ? '0' : value.toFixed();
}


/**
 * The largest |delta| accepted between figures `values` (the actual value and every term present),
 * tolerance = max(rounding, magnitude):
 * - rounding = n * u / 2, n the number of values and u the filer's rounding unit, taken as the
 *   smallest `precisionOf` among the nonzero values (1 when all are zero). Each reported figure
 *   can be up to u/2 from its unrounded amount, so an identity over n rounded figures can be off
 *   by up to n * u / 2 from rounding alone. The smallest precision is used because every figure
 *   of a filer rounding to u is a multiple of u, so a figure that merely looks rounder (a round
 *   billion among figures in millions) cannot widen the tolerance, and a zero says nothing.
 *   Figures in millions: 2 values accept 1,000,000, 3 values 1,500,000, 4 values 2,000,000.
 * - magnitude = 0.000001 * the largest |value| (one part per million), for figures whose rounding
 *   cannot be read from their digits (reported to the dollar or the cent).
 * Apple's FY2023 balance sheet (figures in millions around 352.6 billion): 1,500,000 for a
 * three-figure identity, so a 50,000,000 break fails.
 */
export function toleranceFor(values: string[]): Decimal {
  const parsed = values.map(parse);
  let unit: Decimal | null = null;
  let largest = new D(0);
  for (let i = 0; i < parsed.length; i++) {
    const d = parsed[i]!;
    if (!d.isZero()) {
      const p = precisionOf(values[i]!);
      if (unit === null || p.lessThan(unit)) unit = p;
    }
    if (d.abs().greaterThan(largest)) largest = d.abs();
  }
  const rounding = (unit ?? new D(1)).times(parsed.length).div(2);
  const magnitude = largest.times(MAGNITUDE_TOLERANCE_RATE);
  return D.max(rounding, magnitude);
}

function severityOf(delta: Decimal, magnitude: Decimal): Severity {
  if (magnitude.isZero()) return 'CRITICAL'; // unreachable for a nonzero delta: kept for safety
  // |delta| / magnitude < bound, compared as |delta| < bound * magnitude: an exact product instead
  // of a quotient carried to 1,000 digits (the costliest step of judging an identity). The same
  // answer: reported figures have few digits, so a quotient that is not the bound itself differs
  // from it far beyond where the 1,000-digit division rounds.
  const size = delta.abs();
  for (const [severity, bound] of SEVERITY_BANDS) if (size.lessThan(bound.times(magnitude))) return severity;
  return 'CRITICAL';
}

function present(values: Record<string, string>, metric: string): string | null {
  if (!Object.hasOwn(values, metric)) return null;
  const v = values[metric];
  return typeof v === 'string' ? v : null;
}

type Judgement = Pick<IdentityCheck, 'status' | 'severity' | 'expected_value' | 'actual_value' | 'delta' | 'tolerance'>;

/** One rule's check on one statement: the rule and the statement it was judged on, and the judgement. */
function checkOf(rule: IdentityRule, input: IdentityInput, judgement: Judgement): IdentityCheck {
  return {
    rule_id: rule.rule_id,
    statement_type: rule.statement_type,
    fiscal_year: input.fiscal_year,
    fiscal_period: input.fiscal_period,
    ...judgement,
  };
}

function skipped(rule: IdentityRule, input: IdentityInput): IdentityCheck {
  return checkOf(rule, input, { status: 'SKIPPED', severity: 'NONE', expected_value: null, actual_value: null, delta: null, tolerance: null });
}

/**
 * One rule against one statement, as `checkIdentities` does for each of `IDENTITY_RULES`. Exported
 * so other rule sets (the reconciliation ledger) judge their equalities with the same tolerance,
 * status and severity.
 */
export function evaluateIdentityRule(rule: IdentityRule, input: IdentityInput): IdentityCheck {
  // a frozen values record cannot change, so each rule is judged on it once: ingestion hands the
  // same frozen record of a version to the data-quality rules and the reconciliation ledger
  if (!Object.isFrozen(input.values)) return evaluate(rule, input);
  let judged = JUDGED.get(input.values);
  if (!judged) JUDGED.set(input.values, (judged = new Map()));
  const seen = judged.get(rule);
  if (seen && seen.input.statement_type === input.statement_type && seen.input.fiscal_year === input.fiscal_year && seen.input.fiscal_period === input.fiscal_period) {
    return seen.check;
  }
  const check = evaluate(rule, input);
  judged.set(rule, { input, check });
  return check;
}

const JUDGED = new WeakMap<object, Map<IdentityRule, { input: IdentityInput; check: IdentityCheck }>>();

/**
 * `evaluateIdentityRule` on decimal.js alone, never the whole-number path: the reference a test
 * holds judgeWhole to (same statuses, severities and texts on whole-number statements).
 */
export function evaluateIdentityRuleInDecimal(rule: IdentityRule, input: IdentityInput): IdentityCheck {
  return evaluate(rule, input, false);
}

function evaluate(rule: IdentityRule, input: IdentityInput, wholeAllowed = true): IdentityCheck {
  if (rule.statement_type !== input.statement_type) return skipped(rule, input);
  const actualRaw = present(input.values, rule.actual);
  if (actualRaw === null) return skipped(rule, input);
  const terms = rule.expected.find(
    (set) => set.some((t) => !t.optional) && set.every((t) => t.optional || present(input.values, t.metric) !== null),
  );
  if (!terms) return skipped(rule, input);

  const used = [actualRaw];
  const signs: (1 | -1)[] = [];
  let whole = wholeAllowed && WHOLE_NUMBER.test(actualRaw);
  for (const term of terms) {
    const raw = present(input.values, term.metric);
    if (raw === null) continue; // an absent optional term counts as zero
    used.push(raw);
    signs.push(term.sign);
    if (whole && !WHOLE_NUMBER.test(raw)) whole = false;
  }
  if (whole) return judgeWhole(rule, input, used, signs);
  let expected = new D(0);
  for (let i = 0; i < signs.length; i++) expected = expected.plus(parse(used[i + 1]!).times(signs[i]!));
  const actual = parse(actualRaw);
  const delta = actual.minus(expected);
  const tolerance = toleranceFor(used);
  const magnitude = D.max(actual.abs(), expected.abs());

  let status: IdentityStatus;
  let severity: Severity;
  if (delta.abs().lessThanOrEqualTo(tolerance)) {
    status = 'PASS';
    severity = 'NONE';
  } else {
    severity = severityOf(delta, magnitude);
    status = severity === 'LOW' && delta.abs().lessThanOrEqualTo(tolerance.times(WARNING_TOLERANCE_MULTIPLE)) ? 'WARNING' : 'FAIL';
  }
  return checkOf(rule, input, {
    status,
    severity,
    expected_value: format(expected),
    actual_value: format(actual),
    delta: format(delta),
    tolerance: format(tolerance),
  });
}

const WHOLE_NUMBER = /^-?\d+$/;

/**
 * The rule's constants above as whole numbers for judgeWhole, derived, not restated: the magnitude
 * rate as its inverse (10^6), the tolerance scale that makes both tolerance parts whole (2 / rate),
 * each severity bound as its inverse (1000, 100, 10), the warning multiple.
 */
function wholeInverse(d: Decimal, what: string): bigint {
  const inverse = new D(1).div(d);
  if (!inverse.isInteger()) throw new Error(`${what} must be 1 / a whole number for the whole-number path, got ${d.toFixed()}`);
  return BigInt(inverse.toFixed());
}
const INVERSE_RATE = wholeInverse(MAGNITUDE_TOLERANCE_RATE, 'MAGNITUDE_TOLERANCE_RATE');
const TOLERANCE_SCALE = 2n * INVERSE_RATE;
/** digits of INVERSE_RATE's power of ten: a scaled tolerance is written back with this many fraction digits, plus one for the halving */
const RATE_DIGITS = String(INVERSE_RATE).length - 1;
if (10n ** BigInt(RATE_DIGITS) !== INVERSE_RATE) throw new Error('MAGNITUDE_TOLERANCE_RATE must be a power of ten for the whole-number path');
const WHOLE_BANDS: readonly [Severity, bigint][] = SEVERITY_BANDS.map(([severity, bound]) => [severity, wholeInverse(bound, `the ${severity} band`)]);
if (!WARNING_TOLERANCE_MULTIPLE.isInteger()) throw new Error('WARNING_TOLERANCE_MULTIPLE must be whole for the whole-number path');
const WHOLE_WARNING_MULTIPLE = BigInt(WARNING_TOLERANCE_MULTIPLE.toFixed());

/**
 * `evaluate` for a rule whose values are all whole numbers (nearly every statement: figures in
 * dollars, thousands, millions), in BigInt: the same exact arithmetic, comparisons and texts as the
 * decimal.js path, without its digit arrays (the identity checks and the reconciliation ledger were
 * ~0.3 s of decimal.js per whole-mirror ingestion). The tolerance max(n * u / 2, largest * rate)
 * is fractional, so it is carried times TOLERANCE_SCALE (2 / rate), where both of its parts are
 * whole: n * u / rate and 2 * largest. `used` is the actual value then each present term's, `signs` the
 * terms' signs in the same order.
 */
function judgeWhole(rule: IdentityRule, input: IdentityInput, used: readonly string[], signs: readonly (1 | -1)[]): IdentityCheck {
  const actual = BigInt(used[0]!);
  let expected = 0n;
  for (let i = 0; i < signs.length; i++) {
    const v = BigInt(used[i + 1]!);
    expected = signs[i] === -1 ? expected - v : expected + v;
  }
  const delta = actual - expected;
  // the smallest rounding unit among the nonzero values (as a count of trailing zeros, as
  // precisionOf reads it), and the largest magnitude
  let unitZeros = -1;
  let largest = 0n;
  for (const raw of used) {
    const v = abs(BigInt(raw));
    if (v === 0n) continue;
    const zeros = trailingZeros(raw);
    if (unitZeros === -1 || zeros < unitZeros) unitZeros = zeros;
    if (v > largest) largest = v;
  }
  const rounding = 10n ** BigInt(unitZeros === -1 ? 0 : unitZeros) * BigInt(used.length) * INVERSE_RATE;
  const magnitude = 2n * largest;
  const tolerance = rounding > magnitude ? rounding : magnitude; // times TOLERANCE_SCALE
  const size = abs(delta);
  let status: IdentityStatus;
  let severity: Severity;
  if (size * TOLERANCE_SCALE <= tolerance) {
    status = 'PASS';
    severity = 'NONE';
  } else {
    // severityOf: |delta| < bound * max(|actual|, |expected|), as |delta| * (1 / bound) < max
    const scale = abs(actual) > abs(expected) ? abs(actual) : abs(expected);
    severity = 'CRITICAL';
    if (scale !== 0n) {
      for (const [band, inverse] of WHOLE_BANDS) {
        if (size * inverse < scale) {
          severity = band;
          break;
        }
      }
    }
    status = severity === 'LOW' && size * TOLERANCE_SCALE <= tolerance * WHOLE_WARNING_MULTIPLE ? 'WARNING' : 'FAIL';
  }
  return checkOf(rule, input, {
    status,
    severity,
    expected_value: String(expected),
    actual_value: String(actual),
    delta: String(delta),
    tolerance: unscaleTolerance(tolerance),
  });
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

/** trailing zeros of a whole number's digits (nonzero: the caller skips zeros) */
function trailingZeros(raw: string): number {
  let zeros = 0;
  while (raw.charCodeAt(raw.length - 1 - zeros) === 48 /* 0 */) zeros++;
  return zeros;
}

/** v / TOLERANCE_SCALE as decimal.js's toFixed() writes it: no trailing fraction zeros, no exponent (v > 0) */
function unscaleTolerance(v: bigint): string {
  const scaled = v * 5n; // v / (2 * 10^k) = 5v / 10^(k+1)
  const unit = INVERSE_RATE * 10n;
  const whole = scaled / unit;
  let fraction = String(scaled % unit).padStart(RATE_DIGITS + 1, '0');
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  fraction = fraction.slice(0, end);
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/**
 * Evaluates every rule of `IDENTITY_RULES` against one statement.
 * pass_rate = PASS / supported, 6 fraction digits rounded down (so it reads "1.000000" only when
 * every supported rule passed); null when no rule was evaluated, since nothing was verified and
 * neither "1.000000" nor "0.000000" would be true.
 */
export function checkIdentities(input: IdentityInput): IdentitySummary {
  // pushed, not mapped: Array.prototype.map makes a packed array in the interpreter and a holey
  // one in optimized code, and the readers of `checks` deoptimized on meeting the other kind
  const checks: IdentityCheck[] = [];
  for (const rule of IDENTITY_RULES) checks.push(evaluateIdentityRule(rule, input));
  const count = (status: IdentityStatus) => checks.filter((c) => c.status === status).length;
  const skippedCount = count('SKIPPED');
  const supported = checks.length - skippedCount;
  return {
    pass_rate: supported === 0 ? null : new D(count('PASS')).div(supported).toFixed(6, D.ROUND_DOWN),
    total_rules_count: checks.length,
    supported_rules_count: supported,
    skipped_rules_count: skippedCount,
    failed_rules_count: count('FAIL'),
    checks,
  };
}
