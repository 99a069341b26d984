/**
 * Per-share figures and share counts restated to a company's latest split basis, for reads that
 * ask for it (split_adjusted=true); the default stays as filed. A figure is on the share basis of
 * the filing it was read from: every split the company told (tagged, or shown by its own figures;
 * stock-splits.ts) dated after that filing's date, and known by the read's point in time, still
 * applies to it. The factor is exact: each split's ratio as a fraction of whole numbers (10-for-1 is
 * 10/1, 1-for-15 is 1/15, 3-for-2 is 3/2), multiplied as integers; a per-share value is divided by
 * it, a share count multiplied, in decimal arithmetic.
 */
import { Decimal } from 'decimal.js';
import { dec, plain } from '../decimal.ts';
import { splitFactors, splitScaling, type SplitEvidence, type StockSplit } from './stock-splits.ts';

/** A company's split as stored: its date, when a filing first told it, and its exact ratio (new shares per old). */
export interface CompanySplit {
  split_date: string;
  /** the filing date of the first periodic filing that told the split (a point-in-time read sees it from then on) */
  known_from: string;
  /** the ratio as the filer told it (a tag like 0.0667, or the whole ratio its figures showed) */
  ratio: string;
  numerator: number;
  denominator: number;
  evidence: SplitEvidence;
}

/** The splits a figure read from a filing of `basisDate` is still to be adjusted for, and their product. */
export interface SplitFactor {
  numerator: bigint;
  denominator: bigint;
  splits: CompanySplit[];
}

/** Fraction digits of an adjusted per-share value whose division does not terminate (rounded half-up). */
export const SPLIT_ADJUSTED_FRACTION_DIGITS = 12;

/**
 * The exact ratio of a told split: the one whole-number ratio its tag stands for, or where a tag
 * rounded so that it allows two (0.07: 1-for-14 or 1-for-15), the one its recasts bear out
 * (`shown`, the factors the company's recorded recasts matched), else the nearest to the tag; a
 * ratio no whole number fits (1.5) as its own fraction (3/2).
 */
export function exactRatio(split: Pick<StockSplit, 'ratio'>, shown: readonly Decimal[] = []): { numerator: number; denominator: number } {
  const candidates = splitFactors(split.ratio);
  const tag = dec(split.ratio);
  const chosen =
    candidates.find((c) => shown.some((s) => s.equals(c))) ??
    candidates.reduce((best, c) => (c.minus(tag).abs().lessThan(best.minus(tag).abs()) ? c : best), candidates[0]!);
  const [n, d] = chosen.toFraction(1_000_000) as [Decimal, Decimal];
  return { numerator: n.toNumber(), denominator: d.toNumber() };
}

/** The product of the splits dated after `basisDate` and known by `asOf` (null: every split on record); null where none applies. */
export function splitFactorSince(splits: readonly CompanySplit[], basisDate: string, asOf: string | null): SplitFactor | null {
  return splitFactorBetween(splits, basisDate, null, asOf);
}

/**
 * The product of the splits dated after `fromBasis` and on or before `toBasis` (null: no end),
 * known by `asOf`: what restates a figure of a filing of `fromBasis` to the basis of a filing of
 * `toBasis`. Null where none applies.
 */
export function splitFactorBetween(splits: readonly CompanySplit[], fromBasis: string, toBasis: string | null, asOf: string | null): SplitFactor | null {
  let numerator = 1n;
  let denominator = 1n;
  const applied: CompanySplit[] = [];
  for (const s of splits) {
    if (s.split_date <= fromBasis || (toBasis !== null && s.split_date > toBasis) || (asOf !== null && s.known_from > asOf)) continue;
    numerator *= BigInt(s.numerator);
    denominator *= BigInt(s.denominator);
    applied.push(s);
  }
  if (applied.length === 0) return null;
  const g = gcd(numerator, denominator);
  return { numerator: numerator / g, denominator: denominator / g, splits: applied };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/**
 * A figure in `unit` restated by `factor`: per-share values divided by it, share counts multiplied;
 * null for any other unit (money is never restated for a split). `rounded` where the division does
 * not terminate (then SPLIT_ADJUSTED_FRACTION_DIGITS fraction digits, half-up).
 */
export function splitAdjusted(value: string, unit: string, factor: SplitFactor): { value: string; rounded: boolean } | null {
  const scaling = splitScaling(unit);
  if (scaling === null) return null;
  const [times, by] = scaling === 'PER_SHARE' ? [factor.denominator, factor.numerator] : [factor.numerator, factor.denominator];
  const exact = dec(value).times(times.toString());
  if (terminates(exact, by)) return { value: plain(exact.dividedBy(by.toString())), rounded: false };
  return { value: plain(exact.dividedBy(by.toString()).toDecimalPlaces(SPLIT_ADJUSTED_FRACTION_DIGITS, Decimal.ROUND_HALF_UP)), rounded: true };
}

/** whether v / by has a finite decimal expansion: by, less what it shares with v's digits, has no prime factor but 2 and 5 */
function terminates(v: Decimal, by: bigint): boolean {
  const places = v.decimalPlaces();
  let numerator = BigInt(v.times(new Decimal(10).pow(places)).toFixed(0));
  let d = by * 10n ** BigInt(places);
  const g = gcd(numerator === 0n ? d : numerator, d);
  numerator /= g;
  d /= g;
  while (d % 2n === 0n) d /= 2n;
  while (d % 5n === 0n) d /= 5n;
  return d === 1n;
}
