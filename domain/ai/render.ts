/**
 * How generated text writes numbers. Every numeral a narrative or explanation prints comes from
 * one of these functions applied to an exact decimal string held in a claim, so a reader (or a
 * test) can re-derive each printed figure from the claim it cites. Rounding is always half-up,
 * done with decimal.js on the exact value; nothing passes through a JS number.
 *
 * - money:     1 decimal in the largest unit of thousand it reaches: 383285000000 -> "383.3B",
 *              -106000000 -> "-106.0M", 950000 -> "950.0K", 812 -> "812"
 * - ratio:     as a percentage with 1 decimal: 0.441311 -> "44.1%"
 * - points:    a change of a ratio in percentage points, signed: 0.0153 -> "+1.5 pp"
 * - growth:    a relative change, signed, 1 decimal: -0.0280 -> "-2.8%"
 * - multiple:  2 decimals and an x: 1.234 -> "1.23x"
 * - period:    "FY2023", "Q3 FY2023"
 *
 * Each but period takes `extra` decimals beyond those: a claim whose two values differ but would
 * print alike ("26.0% to 26.0%") prints as many more as make them differ, and a growth that is not
 * zero as many as make it print so (claims.ts, `extraPlaces`, `growthPlaces`).
 */
import { Decimal } from 'decimal.js';
import { dec } from '../decimal.ts';

const UNITS: readonly [string, string][] = [
  ['1000000000000', 'T'],
  ['1000000000', 'B'],
  ['1000000', 'M'],
  ['1000', 'K'],
];

function halfUp(d: Decimal, places: number): string {
  return d.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(places);
}

/** "-0.0" reads as a number with a sign it does not have */
function unsignedZero(s: string): string {
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
}

/** A money amount in compact form (see the module comment). */
export function renderMoney(value: string, extra = 0): string {
  const d = dec(value);
  const abs = d.abs();
  for (const [size, suffix] of UNITS) {
    if (abs.greaterThanOrEqualTo(size)) return `${unsignedZero(halfUp(d.dividedBy(size), 1 + extra))}${suffix}`;
  }
  return unsignedZero(halfUp(d, extra));
}

/** A fraction as a percentage: 0.441311 -> "44.1%" (extra 1: "44.13%"). */
export function renderRatio(value: string, extra = 0): string {
  return `${unsignedZero(halfUp(dec(value).times(100), 1 + extra))}%`;
}

function signed(s: string): string {
  const u = unsignedZero(s);
  return u.startsWith('-') || /^0(\.0+)?$/.test(u) ? u : `+${u}`;
}

/** A change of a fraction in percentage points: 0.0153 -> "+1.5 pp". */
export function renderPoints(change: string, extra = 0): string {
  return `${signed(halfUp(dec(change).times(100), 1 + extra))} pp`;
}

/** A relative change: -0.028 -> "-2.8%" (extra 1: "-2.80%"). */
export function renderGrowth(change: string, extra = 0): string {
  return `${signed(halfUp(dec(change).times(100), 1 + extra))}%`;
}

/** A multiple (turnover): 1.234 -> "1.23x". */
export function renderMultiple(value: string, extra = 0): string {
  return `${unsignedZero(halfUp(dec(value), 2 + extra))}x`;
}

/** "FY2023" or "Q3 FY2023". */
export function renderPeriod(p: { fiscal_year: number; fiscal_period: string }): string {
  return p.fiscal_period === 'FY' ? `FY${p.fiscal_year}` : `${p.fiscal_period} FY${p.fiscal_year}`;
}

/** Every numeral in a text, as written ("383.3", "2023", "1.5"): what a claim must account for. */
export function numeralsIn(text: string): string[] {
  return text.match(/\d+(?:[.,]\d+)*/g) ?? [];
}
