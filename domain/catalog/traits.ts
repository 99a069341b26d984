/**
 * The lists the rules read, derived from the traits on each catalog entry (never typed again):
 * data quality's non-negative, headline, required and scale-checked metrics, coverage's core
 * metrics, the trust score's core requirements, the lines of the modeling rows (trailing twelve
 * months, multi-year valuation inputs) and the lines that explain margin moves in narratives. Adding a metric with a trait is one catalog entry.
 *
 * Non-negative means never negative under the metric's sign convention ("positive balance",
 * "positive expense", "positive payment", share counts). Left out on purpose: metrics that may
 * legitimately turn negative (impairment and restructuring reversals, income taxes paid net of
 * refunds, acquisitions net of cash acquired, interest income under negative rates).
 */
import { CANONICAL_METRICS } from './index.ts';
import type { CanonicalMetric, RequiredSeverity, StatementType } from './types.ts';
import { STATEMENT_TYPES } from '../statements/types.ts';

const named = (keep: (m: CanonicalMetric) => boolean): ReadonlySet<string> => new Set(CANONICAL_METRICS.filter(keep).map((m) => m.metric));

function byStatement<T>(of: (metrics: CanonicalMetric[]) => T): Readonly<Record<StatementType, T>> {
  return Object.freeze(Object.fromEntries(STATEMENT_TYPES.map((t) => [t, of(CANONICAL_METRICS.filter((m) => m.statement_type === t))])) as Record<StatementType, T>);
}

/** Metrics never negative under their sign convention. */
export const NON_NEGATIVE_METRICS = named((m) => m.traits.non_negative);

/** Statement totals and share counts: a defect there moves every ratio built on them. */
export const HEADLINE_METRICS = named((m) => m.traits.headline);

/** Metrics steady enough from one period to the next that a 1,000x move means a scale error (DQ_SCALE_BREAK). */
export const SCALE_CHECKED_METRICS = named((m) => m.traits.scale_checked);

/**
 * The metrics of `metrics` a trait gives a place, in the order of their places. The places of one
 * list run 1, 2, ... without a gap or a repeat: a row's order is part of its output, so a clash
 * fails when the catalog loads rather than letting catalog order decide.
 */
export function placedMetrics(metrics: readonly CanonicalMetric[], what: string, placeOf: (m: CanonicalMetric) => number | null): readonly string[] {
  const entries = metrics.flatMap((m) => {
    const place = placeOf(m);
    return place === null ? [] : [{ metric: m.metric, place }];
  }).sort((a, b) => a.place - b.place);
  entries.forEach((e, i) => {
    if (e.place !== i + 1) throw new Error(`${what}: ${e.metric} has place ${e.place} where ${i + 1} is due`);
  });
  return Object.freeze(entries.map((e) => e.metric));
}

/** The flows of the trailing-twelve-month row, summed over its four quarters, in row order. */
export const TTM_FLOW_METRICS = placedMetrics(CANONICAL_METRICS, 'ttm flows', (m) => (m.traits.ttm?.as === 'flow' ? m.traits.ttm.place : null));

/** The balances of the trailing-twelve-month row, taken at its window end, in row order. */
export const TTM_BALANCE_METRICS = placedMetrics(CANONICAL_METRICS, 'ttm balances', (m) => (m.traits.ttm?.as === 'balance' ? m.traits.ttm.place : null));

/** The reported valuation inputs of the multi-year row, in row order. */
export const VALUATION_INPUT_METRICS = placedMetrics(CANONICAL_METRICS, 'valuation inputs', (m) => m.traits.valuation_input);

/** The lines whose share of revenue explains a move of each margin, in catalog order (trait `margin_line`). */
export const MARGIN_LINES: Readonly<Record<'gross' | 'operating' | 'below_operating', readonly string[]>> = Object.freeze({
  gross: Object.freeze(CANONICAL_METRICS.filter((m) => m.traits.margin_line === 'gross').map((m) => m.metric)),
  operating: Object.freeze(CANONICAL_METRICS.filter((m) => m.traits.margin_line === 'operating').map((m) => m.metric)),
  below_operating: Object.freeze(CANONICAL_METRICS.filter((m) => m.traits.margin_line === 'below_operating').map((m) => m.metric)),
});

/** Per statement type, the metrics a statement should carry, with the severity of their absence (catalog order). */
export const QUALITY_REQUIRED_METRICS = byStatement((ms) =>
  Object.freeze(ms.filter((m) => m.traits.quality_required !== null).map((m) => ({ metric: m.metric, severity: m.traits.quality_required as RequiredSeverity }))),
);

/** Per statement type, the headline totals whose presence makes a period populated (catalog order). */
export const COVERAGE_CORE_METRICS = byStatement((ms) => Object.freeze(ms.filter((m) => m.traits.coverage_core).map((m) => m.metric)));

/**
 * Per statement type, the trust score's core requirements in catalog order; each is the list of
 * metrics that satisfy it (alternatives share a requirement name on their entries).
 */
export const TRUST_REQUIREMENTS = byStatement((ms) => {
  const groups = new Map<string, string[]>();
  for (const m of ms) if (m.traits.trust_requirement !== null) groups.set(m.traits.trust_requirement, [...(groups.get(m.traits.trust_requirement) ?? []), m.metric]);
  return Object.freeze([...groups.values()].map((g) => Object.freeze(g)));
});
