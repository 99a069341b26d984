import { knownFlow, type KnownFlow } from './figures.ts';
import type { Candidate } from './candidates.ts';
import { sameFigure } from '../statements/versions.ts';

/**
 * Year-to-date flows known so far, by metric, fiscal year and quarters covered (1 = first
 * quarter, 4 = full year). The latest filing presenting a value wins, as it would for a reader on
 * that day. Slot `Q4_MARK` marks a fourth quarter already derived (or reported) for the metric.
 * Keyed by numbers under each metric: a string built per lookup was a hot spot of the normalizer.
 */
export class FlowStore {
  private readonly byMetric = new Map<string, Map<number, KnownFlow>>();
  /** the candidates of the filing that set a slot, where it told more than one (rule 11: same-concept derivations) */
  private readonly told = new Map<string, Map<number, ToldFlows>>();
  /** by metric and slot, the flow a later filing's opposite-signed telling replaced (rare: made on first use) */
  private flipped: Map<string, { flow: KnownFlow; told: ToldFlows | null }> | null = null;

  get(metric: string, fiscalYear: number, slot: number): KnownFlow | undefined {
    return this.byMetric.get(metric)?.get(fiscalYear * 8 + slot);
  }

  has(metric: string, fiscalYear: number, slot: number): boolean {
    return this.byMetric.get(metric)?.has(fiscalYear * 8 + slot) ?? false;
  }

  /** `told`: every candidate the same filing told for the slot (more than one); a later set without them forgets the earlier filing's */
  set(metric: string, fiscalYear: number, slot: number, flow: KnownFlow, told: ToldFlows | null = null): void {
    const key = fiscalYear * 8 + slot;
    let slots = this.byMetric.get(metric);
    if (!slots) this.byMetric.set(metric, (slots = new Map()));
    const old = slots.get(key);
    // when the slot's figure began: kept through tellings of the same figure, moved on by another
    if (slot < Q4_MARK && flow.filed !== undefined) {
      if (old === undefined) {
        flow.since = flow.filed;
        flow.prevSince = null;
      } else if (sameFigure(old, flow) || old.source_accession === flow.source_accession) {
        // the same figure told again, or the same filing's telling corrected (another of its candidates)
        flow.since = old.since ?? old.filed;
        flow.prevSince = old.prevSince ?? null;
      } else {
        flow.since = flow.filed;
        flow.prevSince = old.since ?? old.filed ?? null;
      }
    }
    // another filing's figure told again with the opposite sign: kept, in case folding finds the later one slipped
    if (old !== undefined && old.source_accession !== flow.source_accession && negates(old.value, flow.value)) {
      (this.flipped ??= new Map()).set(`${metric}|${key}`, { flow: old, told: this.told.get(metric)?.get(key) ?? null });
    }
    slots.set(key, flow);
    if (told !== null) {
      let kept = this.told.get(metric);
      if (!kept) this.told.set(metric, (kept = new Map()));
      kept.set(key, told);
    } else this.told.get(metric)?.delete(key);
  }

  /**
   * Takes back what filing `accession` set for the slot where it told an earlier filing's figure
   * with the opposite sign and folding found the later telling slipped (sign-slips.ts
   * yearToDateWitness): later derivations start from the figure on record again. False where the
   * slot holds another filing's flow or no flipped one was kept.
   */
  restore(metric: string, fiscalYear: number, slot: number, accession: string): boolean {
    const key = fiscalYear * 8 + slot;
    const current = this.get(metric, fiscalYear, slot);
    const id = `${metric}|${key}`;
    const before = this.flipped?.get(id);
    if (current === undefined || before === undefined || current.source_accession !== accession) return false;
    this.flipped!.delete(id);
    this.byMetric.get(metric)!.set(key, before.flow);
    if (before.told !== null) this.told.get(metric)!.set(key, before.told);
    else this.told.get(metric)?.delete(key);
    return true;
  }

  /** the slot's flow under `concept`: the chosen one, or another candidate the same filing told */
  under(metric: string, fiscalYear: number, slot: number, concept: string | null): KnownFlow | undefined {
    const chosen = this.get(metric, fiscalYear, slot);
    if (chosen === undefined || chosen.source_xbrl_concept === concept) return chosen;
    const told = this.told.get(metric)?.get(fiscalYear * 8 + slot);
    const c = told?.list.find((x) => x.concept === concept);
    return c === undefined ? undefined : knownFlow(c, told!.unit, told!.filed);
  }
}

/** whether one decimal text is the other negated (the same digits, opposite signs, neither zero) */
function negates(a: string, b: string): boolean {
  return a.length === b.length + 1 ? a.charCodeAt(0) === 45 && a.endsWith(b) : b.length === a.length + 1 && b.charCodeAt(0) === 45 && b.endsWith(a);
}

/** a year-to-date's candidates as one filing told them, made into flows only when asked for */
interface ToldFlows {
  list: readonly Candidate[];
  unit: string;
  filed: string;
}

/** the FlowStore slot that marks a metric's fourth quarter as derived or reported (1-4 are year-to-date quarters) */
export const Q4_MARK = 5;
