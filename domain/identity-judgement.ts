/**
 * How far an identity's actual value may be from its expected one, and what a larger gap is:
 * tolerance, status and severity in decimal.js (domain/identity-checks.ts states the rule).
 */
import { Decimal } from 'decimal.js';
import { precisionOf } from './decimal.ts';
import type { IdentityCheck, IdentityStatus, Severity } from './statement-types.ts';

/**
 * Private decimal.js constructor: precision is in significant digits and every operation rounds to
 * it, so the library default (20) would silently round a 24-digit sum. 1,000 digits keeps every
 * addition and subtraction of reported figures exact. The global Decimal is left untouched.
 */
export const D = Decimal.clone({ precision: 1_000, rounding: Decimal.ROUND_HALF_EVEN });

/** |delta| / magnitude bounds of the severity bands (LOW below the first, then MEDIUM, HIGH) */
export const SEVERITY_BANDS: readonly [Severity, Decimal][] = [
  ['LOW', new D('0.001')],
  ['MEDIUM', new D('0.01')],
  ['HIGH', new D('0.1')],
];
/** a delta within this many tolerances (and under the LOW band) is a WARNING rather than a FAIL */
export const WARNING_TOLERANCE_MULTIPLE = new D(10);
/** the magnitude part of the tolerance: one part per million of the largest figure */
export const MAGNITUDE_TOLERANCE_RATE = new D('0.000001');

/** What judging one identity on one statement gives, before it is tied to the rule and the statement. */
export type Judgement = Pick<IdentityCheck, 'status' | 'severity' | 'expected_value' | 'actual_value' | 'delta' | 'tolerance'>;

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
export function toleranceFor(values: readonly string[]): Decimal {
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

/**
 * The judgement in decimal.js: `used` is the actual value then each present term's, `signs` the
 * terms' signs in the same order.
 */
export function judgeDecimal(used: readonly string[], signs: readonly (1 | -1)[]): Judgement {
  let expected = new D(0);
  for (let i = 0; i < signs.length; i++) expected = expected.plus(parse(used[i + 1]!).times(signs[i]!));
  const actual = parse(used[0]!);
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
  return {
    status,
    severity,
    expected_value: format(expected),
    actual_value: format(actual),
    delta: format(delta),
    tolerance: format(tolerance),
  };
}
