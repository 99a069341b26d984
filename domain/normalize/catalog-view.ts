import { CANONICAL_METRICS } from '../catalog/index.ts';
import type { CanonicalMetric } from '../catalog/types.ts';
import type { ConceptIndex, ConceptUse } from './candidates.ts';

/** The canonical catalog as the normalizer reads it: metrics by name, and the concepts that map to them. */
export interface CatalogView {
  byName: ReadonlyMap<string, CanonicalMetric>;
  index: ConceptIndex;
}

/** The canonical catalog arranged for mapping: tag -> the metrics it may serve, with their rank. */
export function catalogView(metrics: readonly CanonicalMetric[] = CANONICAL_METRICS): CatalogView {
  const byName = new Map(metrics.map((m) => [m.metric, m]));
  const index = new Map<string, Map<string, ConceptUse[]>>();
  for (const m of metrics) {
    m.concepts.forEach((c, rank) => {
      let byConcept = index.get(c.taxonomy);
      if (!byConcept) index.set(c.taxonomy, (byConcept = new Map()));
      const list = byConcept.get(c.concept) ?? [];
      list.push({ metric: m, rank, negate: c.negate === true });
      byConcept.set(c.concept, list);
    });
  }
  return { byName, index };
}
