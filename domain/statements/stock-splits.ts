import { Decimal } from 'decimal.js';
import { dec, precisionOf } from '../decimal.ts';
import { precisionUnit, type ComparedValue } from './versions.ts';

/**
 * Stock splits and the recasts they cause. After a split, a filer presents earlier periods again
 * on the new share basis: per-share figures divided by the split's ratio, share counts multiplied
 * by it. Nothing was restated (the income, the cash, the balance sheet are the figures they were),
 * so such a recast is not a revision: the later version carries the recast figures (so a
 * company's per-share series is on one basis) and no restatement alert or fact revision says
 * otherwise. A changed per-share figure counts as a recast only with the filer's own word for the
 * split, filed between the two filings compared: its tagged split ratio, or, where it tagged none,
 * its own figures (evidentSplit: one period told again with per-share figures divided and share
 * counts multiplied by one whole ratio, net income the same).
 */

/**
 * A split the filer told: the ratio of new shares to old (4 for a 4-for-1 split, 0.0667 for
 * 1-for-15) and a date; TAGGED_RATIO, the tagged fact's date; RESTATED_FIGURES, the filing date of
 * the first filing whose figures showed it (evidentSplit).
 */
export interface StockSplit {
  ratio: string;
  date: string;
  evidence: SplitEvidence;
  /** the filing date of the first filing that told it (the tagged fact's earliest filing, or the showing filing's); absent where unknown */
  known_from?: string;
}

export const SPLIT_EVIDENCE = ['TAGGED_RATIO', 'RESTATED_FIGURES'] as const;
export type SplitEvidence = (typeof SPLIT_EVIDENCE)[number];

/** The US-GAAP concepts of a split's conversion ratio (new shares per old share). */
const SPLIT_RATIO_CONCEPTS: ReadonlySet<string> = new Set([
  'StockholdersEquityNoteStockSplitConversionRatio1',
  'StockholdersEquityNoteStockSplitConversionRatio',
]);

/** Whether a fact tells a split's ratio (checked per fact: the length test rejects nearly all at once). */
export function isSplitRatioFact(f: { taxonomy: string; concept: string }): boolean {
  const n = f.concept.length;
  return (n === 47 || n === 48) && f.taxonomy === 'us-gaap' && SPLIT_RATIO_CONCEPTS.has(f.concept);
}

/**
 * The splits a company's ratio facts tell, once each (a ratio is tagged again in later filings),
 * ordered by date. A ratio that is not a positive decimal other than 1 tells no split.
 */
export function stockSplits(facts: Iterable<{ value: string; end: string; filed?: string }>): StockSplit[] {
  const seen = new Map<string, StockSplit>();
  for (const f of facts) {
    let r: Decimal;
    try {
      r = dec(f.value);
    } catch {
      continue;
    }
    if (!r.isFinite() || r.lessThanOrEqualTo(0) || r.equals(1)) continue;
    const key = `${f.end}|${r.toFixed()}`;
    const known = seen.get(key);
    if (!known) {
      const split: StockSplit = { ratio: r.toFixed(), date: f.end, evidence: 'TAGGED_RATIO' };
      if (f.filed !== undefined) split.known_from = f.filed;
      seen.set(key, split);
    } else if (f.filed !== undefined && (known.known_from === undefined || f.filed < known.known_from)) known.known_from = f.filed;
  }
  return [...seen.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.ratio < b.ratio ? -1 : a.ratio > b.ratio ? 1 : 0));
}

/**
 * The exact factors a tagged ratio can stand for: every whole number of new shares per old one
 * (or, for a reverse split, the reciprocal of every whole number of old shares per new one) that
 * rounds to the tag, else the tag itself (3-for-2: 1.5). 4 is 4-for-1; 0.0667 is 1-for-15; 0.07,
 * as a filer rounded 1-for-15, allows 1-for-14 and 1-for-15 (the figures decide).
 */
export function splitFactors(ratio: string): Decimal[] {
  const r = dec(ratio);
  const half = precisionOf(ratio).dividedBy(2);
  const ONE = new Decimal(1);
  // the whole numbers in [low, high], at most a few (a tag rounded so coarsely that it allows more tells no split)
  const wholes = (low: Decimal, high: Decimal | null) => {
    const out: Decimal[] = [];
    const last = high === null ? low.ceil() : high.floor();
    for (let n = low.ceil(); n.lessThanOrEqualTo(last) && out.length <= 4; n = n.plus(1)) if (n.greaterThan(1)) out.push(n);
    return out.length <= 4 ? out : [];
  };
  if (r.greaterThanOrEqualTo(1)) {
    const whole = wholes(r.minus(half), r.plus(half));
    return whole.length > 0 ? whole : [r];
  }
  // reverse: old shares per new one lie between 1/(r + half) and 1/(r - half)
  const high = r.minus(half).greaterThan(0) ? ONE.dividedBy(r.minus(half)) : null;
  const whole = wholes(ONE.dividedBy(r.plus(half)), high);
  return whole.length > 0 ? whole.map((n) => ONE.dividedBy(n)) : [r];
}

/** What a split does to a figure in this unit: per-share values divide by the ratio, share counts multiply; other units it leaves alone. */
export function splitScaling(unit: string): 'PER_SHARE' | 'SHARES' | null {
  if (unit === 'shares') return 'SHARES';
  if (unit.endsWith('/shares')) return 'PER_SHARE';
  return null;
}

/**
 * The split `after` is `before` recast for, or null: one of the company's splits dated after the filing of
 * `before` (`window.after`, exclusive) and by the filing of `after` (`window.upTo`): per-share,
 * before divided by the split's factor, or share count, before multiplied by it, within the two
 * values' rounding (half a unit of each, the earlier one's scaled by the factor). A per-share value
 * is read at the finer of the two precisions: its text alone cannot say (companyfacts writes 3.00
 * as 3 and 0.50 as 0.5), and a filer tells per-share amounts alike before and after the split.
 * Zero, a change of sign or of unit is never a recast.
 */
export function splitRecastOf<S extends Pick<StockSplit, 'ratio' | 'date'>>(
  before: ComparedValue & { unit: string },
  after: ComparedValue & { unit: string },
  splits: readonly S[],
  window: { after: string; upTo: string },
): S | null {
  if (splits.length === 0 || before.unit !== after.unit) return null;
  const scaling = splitScaling(after.unit);
  if (scaling === null) return null;
  const b = dec(before.value);
  const a = dec(after.value);
  if (b.isZero() || a.isZero() || b.isNegative() !== a.isNegative()) return null;
  let ub = precisionUnit(before);
  let ua = precisionUnit(after);
  if (scaling === 'PER_SHARE') ua = ub = Decimal.min(ua, ub);
  for (const split of splits) {
    if (split.date <= window.after || split.date > window.upTo) continue;
    for (const f of splitFactors(split.ratio)) {
      const [expected, slack] =
        scaling === 'PER_SHARE' ? [b.dividedBy(f), ua.plus(ub.dividedBy(f)).dividedBy(2)] : [b.times(f), ua.plus(ub.times(f)).dividedBy(2)];
      if (a.minus(expected).abs().lessThanOrEqualTo(slack)) return split;
    }
  }
  return null;
}

type Valued = ComparedValue & { unit: string };

/**
 * A split a filing's own figures show where the company tagged none (Under Armour's 2-for-1 splits
 * of 2012 and 2014): in one statement period the filing tells again, a share count multiplied by a
 * whole number k of at least 2 (or divided by it, 1-for-k) and a per-share figure divided by the
 * same k (multiplied), each within the rounding splitRecastOf allows, while net income stays the
 * same figure (nothing was restated: a restatement that halved EPS would have moved the income).
 * `pairs` are the period's figures on record and as the filing tells them, by metric; `sameIncome`
 * whether net income is on record and told as the same figure. Returns the split, dated `filed`
 * (the split fell before the filing; figures filed before it are on the old basis), or null.
 */
export function evidentSplit(pairs: ReadonlyMap<string, { before: Valued; after: Valued }>, sameIncome: boolean, filed: string): StockSplit | null {
  if (!sameIncome) return null;
  for (const { before, after } of pairs.values()) {
    if (splitScaling(before.unit) !== 'SHARES' || splitScaling(after.unit) !== 'SHARES') continue;
    const b = dec(before.value);
    const a = dec(after.value);
    if (b.isZero() || a.isZero() || b.isNegative() || a.isNegative()) continue;
    // the candidate ratio from the share count: new shares per old, a whole number either way
    const up = a.greaterThan(b);
    const k = (up ? a.dividedBy(b) : b.dividedBy(a)).toDecimalPlaces(0);
    if (k.lessThan(2)) continue;
    const split: StockSplit = { ratio: up ? k.toFixed() : new Decimal(1).dividedBy(k).toFixed(6), date: filed, evidence: 'RESTATED_FIGURES' };
    const window = { after: '0000-00-00', upTo: filed };
    if (splitRecastOf(before, after, [split], window) === null) continue;
    for (const other of pairs.values()) {
      if (splitScaling(other.after.unit) === 'PER_SHARE' && splitRecastOf(other.before, other.after, [split], window) !== null) return split;
    }
  }
  return null;
}
