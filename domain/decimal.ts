import { Decimal } from 'decimal.js';

/**
 * Exact decimal arithmetic on decimal strings. Money never passes through a JS number: values
 * arrive as strings, are computed with decimal.js and leave as plain (never exponent) strings.
 */
const D = Decimal.clone({ precision: 60, toExpNeg: -60, toExpPos: 60 });

export function dec(value: string): Decimal {
  return new D(value);
}

export function plain(value: Decimal): string {
  return value.toFixed();
}

/**
 * Whole numbers of up to 30 digits are added and subtracted as BigInt: exact like decimal.js and
 * with the same text ('0' for a zero result, no exponent), without its digit arrays (sub was a hot
 * spot of deriving quarters). Anything else, fractions included, goes through decimal.js.
 */
const WHOLE = /^-?\d{1,30}$/;

export function add(a: string, b: string): string {
  if (WHOLE.test(a) && WHOLE.test(b)) return String(BigInt(a) + BigInt(b));
  return plain(dec(a).plus(b));
}

export function sub(a: string, b: string): string {
  if (WHOLE.test(a) && WHOLE.test(b)) return String(BigInt(a) - BigInt(b));
  return plain(dec(a).minus(b));
}

export function negate(a: string): string {
  return a.startsWith('-') ? a.slice(1) : a === '0' ? '0' : `-${a}`;
}

export function decEquals(a: string, b: string): boolean {
  return a === b || dec(a).equals(b);
}

export function isNegative(a: string): boolean {
  return a.startsWith('-') && !dec(a).isZero();
}

/** Fixed number of fraction digits, for NUMERIC columns and wire formats that promise a scale. */
export function fixed(value: string, digits: number): string {
  return dec(value).toFixed(digits);
}

/** Fraction digits of decimal strings on the wire (API and tool results). */
export const WIRE_SCALE = 6;

/**
 * A stored decimal as served: a fixed six fraction digits ("383285000000.000000", "6.130000") so
 * every value of a field has one shape. A value with more digits keeps all of them: exactness
 * wins over uniformity, and no value is ever rounded on the way out.
 */
export function wireDecimal(value: string): string {
  const v = /[eE]/.test(value) ? plain(dec(value)) : value;
  const dot = v.indexOf('.');
  if (dot === -1) return `${v}.${'0'.repeat(WIRE_SCALE)}`;
  const digits = v.length - dot - 1;
  return digits >= WIRE_SCALE ? v : v + '0'.repeat(WIRE_SCALE - digits);
}

/** wireDecimal of a value that may be absent (null stays null). */
export function wireDecimalOrNull(value: string | null): string | null {
  return value === null ? null : wireDecimal(value);
}

const DECIMAL_STRING = /^-?\d+(\.\d+)?$/;

/**
 * The power of ten a reported value looks rounded to, read from its digits: '394328000000' ->
 * 1e6, '6.13' -> 0.01, '0' -> 1 (padded fraction zeros are ignored). Identity-check tolerances and
 * the precision rule of versions both use it. Only plain decimal strings are accepted.
 */
export function precisionOf(value: string): Decimal {
  if (typeof value !== 'string' || !DECIMAL_STRING.test(value)) {
    throw new TypeError(`not a decimal string: ${JSON.stringify(value)}`);
  }
  // read off the text (a hot path of the identity checks): the fraction without its padding
  // zeros, else the integer's trailing zeros; the powers of ten are exact and shared (immutable)
  const dot = value.indexOf('.');
  let end = value.length;
  if (dot !== -1) {
    while (end > dot + 1 && value.charCodeAt(end - 1) === 48 /* 0 */) end--;
    if (end > dot + 1) return powerOfTen(-(end - dot - 1));
    end = dot;
  }
  let zeros = 0;
  while (zeros < end && value.charCodeAt(end - 1 - zeros) === 48) zeros++;
  const start = value.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (zeros === end - start) return powerOfTen(0); // zero
  return powerOfTen(zeros);
}

const POWERS_OF_TEN = new Map<number, Decimal>();
function powerOfTen(exponent: number): Decimal {
  let p = POWERS_OF_TEN.get(exponent);
  if (!p) POWERS_OF_TEN.set(exponent, (p = new D(`1e${exponent}`)));
  return p;
}

/**
 * Equal once the finer value is rounded to the coarser one's unit: 95799932 (dollars) and
 * 95800000 (hundreds of thousands) are the same figure told at two precisions, not a revision.
 */
export function equalAtReportedPrecision(a: string, b: string): boolean {
  if (decEquals(a, b)) return true;
  const ua = precisionOf(a);
  const ub = precisionOf(b);
  // a guess from trailing zeros: only units a thousandfold apart (dollars vs thousands, thousands
  // vs millions) count as two precisions, so 230000000 -> 231000000 stays a real change
  const ratio = ua.greaterThan(ub) ? ua.dividedBy(ub) : ub.dividedBy(ua);
  if (ratio.lessThan(1000)) return false;
  const [fine, coarse, unit] = ua.lessThan(ub) ? [a, b, ub] : [b, a, ua];
  return dec(fine).dividedBy(unit).toDecimalPlaces(0, D.ROUND_HALF_UP).times(unit).equals(dec(coarse));
}

/**
 * The place of a plain decimal's leading significant digit, floor(log10 |v|): '741300000' -> 8,
 * '-741.3' -> 2, '0.05' -> -2; null for zero. Read off the text (no decimal.js): the scale
 * rules (slips, breaks) and quarter-versus-year checks run it on many figures.
 */
export function leadingPlace(v: string): number | null {
  let i = v.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  while (i < v.length && v.charCodeAt(i) === 48 /* 0 */) i++;
  const dot = v.indexOf('.');
  const intEnd = dot === -1 ? v.length : dot;
  if (i < intEnd) return intEnd - i - 1;
  if (dot === -1) return null;
  for (let j = dot + 1; j < v.length; j++) if (v.charCodeAt(j) !== 48) return dot - j;
  return null;
}
