import type { CanonicalMetric } from '../catalog/types.ts';
import { negate } from '../decimal.ts';
import type { Fact } from '../facts.ts';

/** One tagged value that could serve a canonical metric for one period of one filing. */
export interface Candidate {
  metric: string;
  /** position of the concept in the metric's candidate list; lower wins */
  rank: number;
  /** value in the metric's sign convention */
  value: string;
  /** value exactly as tagged */
  tagged_value: string;
  concept: string;
  fact: Fact;
}

export interface ConceptUse {
  metric: CanonicalMetric;
  rank: number;
  negate: boolean;
}

/** taxonomy -> concept -> the metrics the tag may serve (two levels: no string is built per fact) */
export type ConceptIndex = ReadonlyMap<string, ReadonlyMap<string, readonly ConceptUse[]>>;

/** facts of one filing, grouped by period ("start|end" or "|end") and metric, candidates best first */
export type PeriodCandidates = Map<string, Map<string, Candidate[]>>;

export function periodKey(start: string | null, end: string): string {
  return `${start ?? ''}|${end}`;
}

export function parsePeriodKey(key: string): { start: string | null; end: string } {
  const [start, end] = key.split('|') as [string, string];
  return { start: start === '' ? null : start, end };
}

/** three capital letters, checked without a regex: this runs once per fact */
function isCurrencyUnit(unit: string): boolean {
  if (unit.length !== 3) return false;
  for (let i = 0; i < 3; i++) {
    const c = unit.charCodeAt(i);
    if (c < 65 || c > 90) return false;
  }
  return true;
}

/**
 * The currency a filing reports in: the most used ISO currency unit among its facts. Foreign
 * filers add convenience translations (TSMC tags some USD beside TWD), which must not mix in.
 */
export function reportingCurrency(facts: readonly Fact[]): string | null {
  const tally = new CurrencyTally();
  for (const f of facts) tally.add(f.unit);
  return tally.currency();
}

/**
 * reportingCurrency counted one fact at a time, so a pass over a company's facts that does other
 * work can count each filing's units on the way (buildStatementHistory does, instead of a pass of
 * its own over each filing's facts).
 */
export class CurrencyTally {
  // counters in first-seen order; facts come grouped by concept and unit, so the last unit's
  // counter usually serves the next fact without a lookup
  private readonly tally = new Map<string, { n: number }>();
  private lastUnit = '';
  private last: { n: number } | null = null;

  add(unit: string): void {
    if (unit === this.lastUnit) {
      if (this.last) this.last.n++;
      return;
    }
    this.lastUnit = unit;
    if (!isCurrencyUnit(unit)) {
      this.last = null;
      return;
    }
    this.last = this.tally.get(unit) ?? null;
    if (this.last) this.last.n++;
    else this.tally.set(unit, (this.last = { n: 1 }));
  }

  currency(): string | null {
    let best: string | null = null;
    let n = 0;
    for (const [unit, { n: count }] of this.tally) if (count > n || (count === n && unit === 'USD')) [best, n] = [unit, count];
    return best;
  }
}

/** whether a fact's unit is the metric's: a money metric takes the reporting currency only */
export function unitFits(metric: CanonicalMetric, unit: string, currency: string | null): boolean {
  switch (metric.unit_type) {
    case 'currency':
      return currency !== null && unit === currency;
    case 'per_share':
      return currency !== null && unit === `${currency}/shares`;
    case 'shares':
      return unit === 'shares';
    default:
      return false;
  }
}

/** Every candidate for every canonical metric in one filing's facts, by period. */
export function collectCandidates(
  facts: readonly Fact[],
  index: ConceptIndex,
  currency: string | null,
): PeriodCandidates {
  const out: PeriodCandidates = new Map();
  // the groups of `out` by end, then start ('' for an instant): found without building the
  // "start|end" key, which is made once per period (a string built and hashed per fact was the
  // costliest step here)
  const byEnd = new Map<string, Map<string, Map<string, Candidate[]>>>();
  // unitFits, with the per-share unit built once per filing rather than per fact
  const perShare = currency === null ? null : `${currency}/shares`;
  // facts come grouped by concept: the previous fact's uses usually serve the next one
  let lastTaxonomy = '';
  let lastConcept = '';
  let lastUses: readonly ConceptUse[] | undefined;
  // and the qualified concept, made at the group's first fitting fact
  let qualified = '';
  for (const fact of facts) {
    if (fact.concept !== lastConcept || fact.taxonomy !== lastTaxonomy) {
      lastTaxonomy = fact.taxonomy;
      lastConcept = fact.concept;
      lastUses = index.get(fact.taxonomy)?.get(fact.concept);
      qualified = '';
    }
    const uses = lastUses;
    // a period ending after the filing date is a schedule of future amounts, never a statement period
    if (!uses || fact.end > fact.filed) continue;
    // the period's group and the qualified concept, made once per fact at its first fitting use
    let byMetric: Map<string, Candidate[]> | undefined;
    let concept = '';
    for (const use of uses) {
      const m = use.metric;
      if ((m.period_kind === 'instant') !== (fact.start === null)) continue;
      const unit = m.unit_type;
      if (unit === 'currency' ? currency === null || fact.unit !== currency : unit === 'per_share' ? perShare === null || fact.unit !== perShare : unit !== 'shares' || fact.unit !== 'shares') continue;
      if (byMetric === undefined) {
        let byStart = byEnd.get(fact.end);
        if (!byStart) byEnd.set(fact.end, (byStart = new Map()));
        byMetric = byStart.get(fact.start ?? '');
        if (!byMetric) {
          byStart.set(fact.start ?? '', (byMetric = new Map()));
          out.set(periodKey(fact.start, fact.end), byMetric);
        }
        if (qualified === '') qualified = `${fact.taxonomy}:${fact.concept}`;
        concept = qualified;
      }
      let list = byMetric.get(m.metric);
      if (!list) byMetric.set(m.metric, (list = []));
      // keep best first (after candidates of the same rank); the same concept twice for one period keeps the first seen
      let at = list.length;
      let duplicate = false;
      for (let i = 0; i < list.length; i++) {
        const c = list[i]!;
        if (c.concept === concept) {
          duplicate = true;
          break;
        }
        if (at === list.length && c.rank > use.rank) at = i;
      }
      if (duplicate) continue;
      const candidate: Candidate = {
        metric: m.metric,
        rank: use.rank,
        value: use.negate ? negate(fact.value) : fact.value,
        tagged_value: fact.value,
        concept,
        fact,
      };
      if (at === list.length) list.push(candidate);
      else list.splice(at, 0, candidate);
    }
  }
  return out;
}
