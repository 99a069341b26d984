import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { dec, leadingPlace, precisionOf } from '../decimal.ts';
import type { StatementFigure } from '../statement-types.ts';

/**
 * The one rule that decides whether a later filing's figure is the same figure, a scale slip or
 * a revision of the one on record. Ingestion (folding presentations into versions) and the
 * writer (comparing a rebuilt history with what is stored) both call `compareFigures`, so a
 * version exists exactly when this rule says a figure changed or first appeared.
 */

/** A value as compared: its exact text and, where a filing package gave it, the instance's `decimals`. */
export interface ComparedValue {
  value: string;
  /** XBRL decimals attribute ("-6", "2", "INF"); null or absent when only the text is known */
  decimals?: string | null;
  /** the inputs of a derived value: each carries its own rounding into the result */
  calculation_steps?: readonly { value: string }[] | null;
}

/** What a later value is relative to the one on record. */
export type FigureComparison = 'SAME' | 'SCALE_SLIP' | 'REVISED';

const TEN = new Decimal(10);
const SCALE_FACTORS = [new Decimal(1000), new Decimal(1_000_000)];

/**
 * The power of ten a value is told to: from the instance's `decimals` where the filing package
 * gave it (-6 -> 1,000,000; 2 -> 0.01), else from the text's trailing zeros (companyfacts carries
 * no decimals). `INF` means exact, read as the text's own last digit.
 */
export function precisionUnit(v: ComparedValue): Decimal {
  const d = v.decimals?.trim();
  if (d && d !== 'INF' && /^-?\d+$/.test(d)) return TEN.pow(-Number(d));
  return precisionOf(v.value);
}

function roundTo(value: Decimal, unit: Decimal): Decimal {
  return value.dividedBy(unit).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
}

/**
 * Same figure: the two agree at the coarser of their precisions (the finer value, with its own
 * rounding, lies within half a coarse unit of the coarse one), and the coarse value still keeps
 * at least two significant digits there (23,182,600,000 and 23,183,000,000 are one figure;
 * 1,700,000 and 2,000,000 are not: "2 millions" says too little). At one precision only equal
 * values agree.
 */
export function sameFigure(a: ComparedValue, b: ComparedValue): boolean {
  if (a.value === b.value) return true;
  if ((a.decimals ?? null) === null && (b.decimals ?? null) === null && WHOLE.test(a.value) && WHOLE.test(b.value)) return sameWhole(a.value, b.value);
  const x = dec(a.value);
  const y = dec(b.value);
  if (x.equals(y)) return true;
  const ua = precisionUnit(a);
  const ub = precisionUnit(b);
  // each value stands for the interval its rounding leaves open; the two agree when those overlap
  // (23,182.6M and 23,183M; 6,264.5M and 6,264M, which a filer rounding 6,264.46M writes both ways)
  if (!x.minus(y).abs().lessThan(ua.plus(ub).dividedBy(2))) return false;
  const [coarse, unit] = ua.greaterThan(ub) ? [x, ua] : [y, ub];
  return roundTo(coarse.abs(), unit).greaterThanOrEqualTo(10);
}

/** whole numbers of up to 30 digits, which sameWhole decides exactly in BigInt (decimal.js here carries 60 digits) */
const WHOLE = /^-?\d{1,30}$/;

/**
 * `sameFigure` of two whole numbers told by their text alone (no decimals), in BigInt: the same
 * comparisons on the same exact values, without decimal.js's digit arrays (the texts that differ,
 * a tenth of the figures folding compares, were most of its cost). Each value's unit is 10^(its
 * trailing zeros) (1 for zero) and the value is a multiple of it, so the coarse value over its own
 * unit is whole and rounding it changes nothing; |x - y| < (ua + ub) / 2 is compared doubled.
 */
function sameWhole(a: string, b: string): boolean {
  const x = BigInt(a);
  const y = BigInt(b);
  if (x === y) return true;
  const ua = 10n ** BigInt(wholeZeros(a));
  const ub = 10n ** BigInt(wholeZeros(b));
  if (2n * (x > y ? x - y : y - x) >= ua + ub) return false;
  const [coarse, unit] = ua > ub ? [x, ua] : [y, ub];
  return (coarse < 0n ? -coarse : coarse) >= 10n * unit;
}

/** trailing zeros of a whole number's text, as precisionOf counts them: none for zero itself */
function wholeZeros(v: string): number {
  let zeros = 0;
  while (zeros < v.length && v.charCodeAt(v.length - 1 - zeros) === 48 /* 0 */) zeros++;
  const digits = v.charCodeAt(0) === 45 /* - */ ? v.length - 1 : v.length;
  return zeros === digits ? 0 : zeros;
}

/**
 * A scale slip: the later value is the earlier one times or divided by 1,000 or 1,000,000 (the
 * same figure at the shifted scale), e.g. 741,300,000 shares re-tagged as 741.3. Zero never is.
 */
export function isScaleSlip(before: ComparedValue, after: ComparedValue): boolean {
  // cheap reject: a slip moves the leading digit by three or six places. Two values sameFigure
  // calls one figure are within about 10% of each other (less than a unit apart, the coarse one at
  // least 9.5 units), so their leading digits are at most one place apart, and scaling by 1,000 or
  // 1,000,000 moves it exactly three or six: a shift outside 2..7 is never a slip. Zero never is.
  // (Plain texts short enough that decimal.js scales them exactly; anything else takes the long way.)
  if (PLAIN_SHORT.test(before.value) && PLAIN_SHORT.test(after.value)) {
    const ob = leadingPlace(before.value);
    const oa = leadingPlace(after.value);
    if (ob === null || oa === null) return false;
    const shift = Math.abs(ob - oa);
    if (shift < 2 || shift > 7) return false;
  }
  const b = dec(before.value);
  const a = dec(after.value);
  if (b.isZero() || a.isZero() || b.isNegative() !== a.isNegative()) return false;
  for (const f of SCALE_FACTORS) {
    for (const scaled of [b.times(f), b.dividedBy(f)]) {
      if (sameFigure({ value: scaled.toFixed(), decimals: null }, { value: after.value, decimals: null })) return true;
    }
  }
  return false;
}

/**
 * How far a derived value may sit from the true one by its inputs' rounding alone: half a unit of
 * each input's precision (a Q4 of 185,208,000 from figures in thousands and a reported 185,207,000
 * are one figure). Zero for a tagged value.
 */
export function roundingSlack(v: ComparedValue): Decimal {
  let slack = new Decimal(0);
  for (const step of v.calculation_steps ?? []) slack = slack.plus(precisionOf(step.value).dividedBy(2));
  return slack;
}

/** a plain decimal of at most 40 characters */
const PLAIN_SHORT = /^(?=.{1,40}$)-?\d+(\.\d+)?$/;


/** The rule: the same figure, a scale slip (a data-quality finding), or a revision. */
export function compareFigures(before: ComparedValue, after: ComparedValue): FigureComparison {
  if (sameFigure(before, after)) return 'SAME';
  // only a derived value has a rounding slack (a tagged one's is zero, which allows nothing)
  if ((before.calculation_steps?.length ?? 0) > 0 || (after.calculation_steps?.length ?? 0) > 0) {
    const slack = roundingSlack(before).plus(roundingSlack(after));
    if (slack.greaterThan(0) && dec(before.value).minus(after.value).abs().lessThanOrEqualTo(slack)) return 'SAME';
  }
  if (isScaleSlip(before, after)) return 'SCALE_SLIP';
  return 'REVISED';
}

/**
 * Which side of a scale slip is the slip: the value further, in orders of magnitude, from the
 * typical size of the statement's other figures in the same unit (`neighbours`). A later value
 * that fits them (McDonald's FY2020 impairment first tagged 26.3, later 26,300,000) corrects the
 * earlier slip; otherwise, and without neighbours, the earlier value stands.
 */
export function slippedSide(before: ComparedValue, after: ComparedValue, neighbours: readonly string[]): 'BEFORE' | 'AFTER' {
  const sizes = neighbours.filter((v) => !dec(v).isZero()).map(magnitude).sort((x, y) => x - y);
  if (sizes.length === 0) return 'AFTER';
  const typical = sizes[Math.floor(sizes.length / 2)]!;
  const off = (v: string) => Math.abs(magnitude(v) - typical);
  return off(before.value) - off(after.value) >= 2 ? 'BEFORE' : 'AFTER';
}

/** log10 |v|, kept per text: a statement's neighbours are measured again for each of its slips (Decimal log is slow) */
const MAGNITUDES = new Map<string, number>();
function magnitude(v: string): number {
  let m = MAGNITUDES.get(v);
  if (m === undefined) {
    if (MAGNITUDES.size >= 50_000) MAGNITUDES.clear();
    MAGNITUDES.set(v, (m = dec(v).abs().log(10).toNumber()));
  }
  return m;
}

/** The more precise of two texts of the same figure (the earlier on a tie): what a version keeps. */
export function morePrecise<T extends ComparedValue>(before: T, after: T): T {
  if (before.value === after.value && (before.decimals ?? null) === (after.decimals ?? null)) return before;
  return precisionUnit(after).lessThan(precisionUnit(before)) ? after : before;
}

/** What a version's content hash covers: its period and filing, and each figure's value and provenance. */
export interface HashedVersion {
  period_start: string | null;
  period_end: string;
  filing: { accession: string };
  currency: string | null;
  figures: ReadonlyMap<string, StatementFigure>;
  /** quarters the version does not serve and why (domain/normalize UnavailableFigure) */
  unavailable?: ReadonlyMap<string, { reason: string; value: string | null; source_accession: string; calculation_steps: readonly { value: string; source_accession: string }[] }>;
}

/**
 * The identity of a version's content. The writer appends a built version only where the stored
 * list of the statement is not already a prefix with the same hashes, so a re-run is a no-op.
 * `lines` keeps each figure's line for the next version that carries the same figure object
 * (later versions share their unchanged figures); only for figures nobody changes meanwhile.
 */
export function versionContentHash(v: HashedVersion, lines?: Map<StatementFigure, string>): string {
  const entries = [...v.figures.values()].sort((a, b) => a.metric.localeCompare(b.metric));
  // one text, hashed in one call: the same bytes as a hash updated line by line, without a native
  // call (and an encoding pass) per figure and step
  let text = `${v.period_start}|${v.period_end}|${v.filing.accession}|${v.currency}`;
  for (const f of entries) {
    let line = lines?.get(f);
    if (line === undefined) {
      line = `\n${f.metric}=${f.value}|${f.unit}|${f.source_accession}|${f.source_xbrl_concept}|${f.mapping_type}|${f.correction_rule}|${f.as_filed_value}|${f.as_filed_concept}|${f.selection_rule}`;
      for (const step of f.calculation_steps ?? []) line += `|${step.operation}:${step.value}@${step.source_accession}`;
      lines?.set(f, line);
    }
    text += line;
  }
  // a version without reasons hashes as it always did
  if (v.unavailable !== undefined && v.unavailable.size > 0) {
    for (const metric of [...v.unavailable.keys()].sort()) {
      const u = v.unavailable.get(metric)!;
      text += `\n!${metric}=${u.reason}|${u.value}|${u.source_accession}`;
      for (const step of u.calculation_steps) text += `|${step.value}@${step.source_accession}`;
    }
  }
  return createHash('sha256').update(text).digest('hex');
}
