import { Decimal } from 'decimal.js';
import { IDENTITY_RULES } from './identity-checks.ts';
import type { StatementFigure, StatementType } from './statement-types.ts';

/**
 * The filer's own calculation linkbase as evidence beside our identity checks: where a figure's
 * concept is a calculation total on the statement, the children the filer declared are summed
 * from the same filing's facts for the same period. When our identity check fails but the filer's
 * calculation holds, the break is in how lines map to metrics, not in the filing (and the reverse
 * points at the filing).
 */

export interface CalculationArc {
  from: string;
  to: string;
  weight: number;
}

export interface CalculationChild {
  concept: string;
  weight: number;
  /** null when the filing reports no value for it in the period (XBRL sums only reported items) */
  value: string | null;
}

export interface CalculationEvidence {
  metric: string;
  concept: string;
  children: CalculationChild[];
  reported_value: string;
  computed_value: string;
  /** reported - computed */
  delta: string;
  /** one unit of the total's reported precision (its decimals), the most rounding explains */
  tolerance: string;
  holds: boolean;
  /** identity rules whose actual side is this metric */
  identity_rules: string[];
}

/** A package fact's value and decimals for a concept over one period; null when not reported. */
export type FactLookup = (concept: string, start: string | null, end: string) => { value: string; decimals: string | null } | null;

const D = Decimal.clone({ precision: 1_000 });

export function calculationEvidence(
  type: StatementType,
  figures: ReadonlyMap<string, StatementFigure>,
  arcs: readonly CalculationArc[],
  lookup: FactLookup,
): CalculationEvidence[] {
  const children = new Map<string, CalculationArc[]>();
  for (const a of arcs) {
    const list = children.get(a.from);
    if (list) {
      if (!list.some((x) => x.to === a.to)) list.push(a);
    } else children.set(a.from, [a]);
  }
  const out: CalculationEvidence[] = [];
  for (const [metric, f] of figures) {
    // derived, corrected or carried figures were not read from this filing's facts as they stand
    if (f.value_origin !== 'SOURCE' || f.correction_rule !== null || f.source_xbrl_concept === null) continue;
    const arcsOf = children.get(f.source_xbrl_concept);
    const total = arcsOf && lookup(f.source_xbrl_concept, f.period_start, f.period_end);
    if (!arcsOf || !total) continue;
    let sum = new D(0);
    const kids: CalculationChild[] = arcsOf.map((a) => {
      const v = lookup(a.to, f.period_start, f.period_end);
      if (v) sum = sum.plus(new D(v.value).times(a.weight));
      return { concept: a.to, weight: a.weight, value: v?.value ?? null };
    });
    if (kids.every((k) => k.value === null)) continue;
    const delta = new D(total.value).minus(sum);
    const decimals = total.decimals === null || total.decimals === 'INF' ? 0 : Number(total.decimals);
    const tolerance = new D(10).pow(-(Number.isFinite(decimals) ? decimals : 0));
    out.push({
      metric,
      concept: f.source_xbrl_concept,
      children: kids,
      reported_value: total.value,
      computed_value: sum.toFixed(),
      delta: delta.toFixed(),
      tolerance: tolerance.toFixed(),
      holds: delta.abs().lte(tolerance),
      identity_rules: IDENTITY_RULES.filter((r) => r.statement_type === type && r.actual === metric).map((r) => r.rule_id),
    });
  }
  return out.sort((a, b) => a.metric.localeCompare(b.metric));
}
