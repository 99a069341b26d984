import type { Decimal } from 'decimal.js';
import { D, MAGNITUDE_TOLERANCE_RATE, SEVERITY_BANDS, WARNING_TOLERANCE_MULTIPLE, type Judgement } from './identity-judgement.ts';
import type { IdentityStatus, Severity } from './statement-types.ts';

/**
 * The identity judgement of identity-judgement.ts for figures that are all whole numbers, in
 * BigInt: the same answers without decimal.js's digit arrays.
 */

export const WHOLE_NUMBER = /^-?\d+$/;

/**
 * The judgement's constants (identity-judgement.ts) as whole numbers for judgeWhole, derived, not restated: the magnitude
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
 * judgeDecimal for a rule whose values are all whole numbers (nearly every statement: figures in
 * dollars, thousands, millions), in BigInt: the same exact arithmetic, comparisons and texts as the
 * decimal.js path, without its digit arrays (the identity checks and the reconciliation ledger were
 * ~0.3 s of decimal.js per whole-mirror ingestion). The tolerance max(n * u / 2, largest * rate)
 * is fractional, so it is carried times TOLERANCE_SCALE (2 / rate), where both of its parts are
 * whole: n * u / rate and 2 * largest. `used` is the actual value then each present term's, `signs` the
 * terms' signs in the same order.
 */
export function judgeWhole(used: readonly string[], signs: readonly (1 | -1)[]): Judgement {
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
  return {
    status,
    severity,
    expected_value: String(expected),
    actual_value: String(actual),
    delta: String(delta),
    tolerance: unscaleTolerance(tolerance),
  };
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
