/**
 * The metric catalog: canonical metrics (mapped from filer tags), derived metrics (formulas over
 * canonical ones), bundles and views, and lookups over them.
 */
import { BALANCE_SHEET_METRICS } from './balance-sheet.ts';
import { METRIC_BUNDLES, METRIC_VIEWS } from './bundles.ts';
import { CASH_FLOW_METRICS } from './cash-flow.ts';
import { DERIVED_METRICS } from './derived.ts';
import { INCOME_STATEMENT_METRICS } from './income-statement.ts';
import type { CanonicalMetric, DerivedMetric, MetricDefinition, StatementType } from './types.ts';

export type * from './types.ts';
export { STATEMENT_TYPES } from '../statements/types.ts';
export { DERIVED_METRICS, METRIC_BUNDLES, METRIC_VIEWS };

/** Every canonical metric in a stable order: income statement, balance sheet, cash flow. */
export const CANONICAL_METRICS: CanonicalMetric[] = [
  ...INCOME_STATEMENT_METRICS,
  ...BALANCE_SHEET_METRICS,
  ...CASH_FLOW_METRICS,
];

export const CANONICAL_METRIC_NAMES: readonly string[] = Object.freeze(CANONICAL_METRICS.map((m) => m.metric));

const canonicalByName = new Map<string, CanonicalMetric>(CANONICAL_METRICS.map((m) => [m.metric, m]));
const derivedByName = new Map<string, DerivedMetric>(DERIVED_METRICS.map((m) => [m.metric, m]));

const CATALOG_RANK = new Map(CANONICAL_METRIC_NAMES.map((m, i) => [m, i]));

/** Sort order of metric names everywhere they are listed: catalog order, then unknown names by name. */
export function byCatalogOrder(a: string, b: string): number {
  return (CATALOG_RANK.get(a) ?? 1e9) - (CATALOG_RANK.get(b) ?? 1e9) || a.localeCompare(b);
}

export function canonicalMetric(name: string): CanonicalMetric | undefined {
  return canonicalByName.get(name);
}

export function isCanonicalMetric(name: string): boolean {
  return canonicalByName.has(name);
}

export function derivedMetric(name: string): DerivedMetric | undefined {
  return derivedByName.get(name);
}

/** Canonical metrics a statement carries, in catalog order. */
export function metricsForStatement(type: StatementType): CanonicalMetric[] {
  return CANONICAL_METRICS.filter((m) => m.statement_type === type);
}

/** The published fields of a definition, without mapping internals (concepts, period_kind, sign_convention). */
export function publicDefinition(m: MetricDefinition): MetricDefinition {
  return {
    metric: m.metric,
    display_name: m.display_name,
    category: m.category,
    statement_type: m.statement_type,
    is_canonical: m.is_canonical,
    is_derived: m.is_derived,
    unit_type: m.unit_type,
    formula: m.formula,
    dependencies: [...m.dependencies],
    denominator_zero_behavior: m.denominator_zero_behavior,
    missing_input_behavior: m.missing_input_behavior,
    market_data_required: m.market_data_required,
    source_notes: m.source_notes,
  };
}

/** Public definitions of every canonical then every derived metric. */
export const ALL_METRIC_DEFINITIONS: MetricDefinition[] = [...CANONICAL_METRICS, ...DERIVED_METRICS].map(publicDefinition);

/** Public definition of a canonical or derived metric, or undefined for an unknown name. */
export function definitionOf(name: string): MetricDefinition | undefined {
  const m = canonicalByName.get(name) ?? derivedByName.get(name);
  return m ? publicDefinition(m) : undefined;
}

export interface ConceptUse {
  metric: string;
  /** position in the metric's candidate list: 0 is the preferred tag */
  rank: number;
  negate: boolean;
}

let conceptIndexCache: Map<string, ConceptUse[]> | undefined;

/**
 * Which canonical metrics a taxonomy-qualified concept (e.g. 'us-gaap:Revenues') feeds, with its
 * rank there. Built once. A concept serves more than one metric only where one tag by definition
 * states both (the basic-and-diluted EPS and share-count tags).
 */
export function conceptIndex(): Map<string, ConceptUse[]> {
  if (conceptIndexCache) return conceptIndexCache;
  const index = new Map<string, ConceptUse[]>();
  for (const m of CANONICAL_METRICS) {
    m.concepts.forEach((c, rank) => {
      const key = `${c.taxonomy}:${c.concept}`;
      const uses = index.get(key) ?? [];
      uses.push({ metric: m.metric, rank, negate: c.negate === true });
      index.set(key, uses);
    });
  }
  conceptIndexCache = index;
  return index;
}
