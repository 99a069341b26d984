/**
 * Peers: the companies of the same snapshot whose financial-profile embeddings (embedding.ts) are
 * nearest to a company's, never the company itself. Similarity is the cosine of the two vectors
 * over the features both companies have (a missing feature is left out rather than counted as
 * average), from -1 to 1, six fraction digits; a pair sharing fewer than MIN_SHARED_FEATURES
 * features is not compared. The features that drove a match are those with the largest positive
 * contributions a_i x b_i / (|a| |b|) to the cosine: where both companies sit on the same side of
 * the reference center, far from it. Ordered by similarity, then CIK, so the list is stable.
 */
import { Decimal } from 'decimal.js';
import { dec } from '../decimal.ts';
import { COMPONENT_DIGITS, FEATURES, type CompanyEmbedding } from './embedding.ts';

export const MIN_SHARED_FEATURES = Math.ceil(FEATURES.length / 2);
/** How many driving features a peer lists. */
export const DRIVERS = 3;

export interface PeerDriver {
  feature: string;
  /** the share of the cosine this feature contributes */
  contribution: string;
  company_z: string;
  peer_z: string;
  company_raw: string | null;
  peer_raw: string | null;
}

export interface Peer {
  cik: string;
  similarity: string;
  shared_features: number;
  drivers: PeerDriver[];
}

/** A universe member: its embedding and SIC code. */
export interface PeerCandidate {
  embedding: CompanyEmbedding;
  sic: string | null;
}

const fixed = (d: Decimal) => {
  const s = d.toDecimalPlaces(COMPONENT_DIGITS, Decimal.ROUND_HALF_UP).toFixed(COMPONENT_DIGITS);
  return /^-0\.0+$/.test(s) ? s.slice(1) : s;
};

/** Cosine similarity over shared features with each feature's contribution; null when too few are shared or a side is all zeros. */
export function compare(a: CompanyEmbedding, b: CompanyEmbedding): { similarity: Decimal; shared: number; contributions: Map<string, Decimal> } | null {
  const missing = new Set([...a.missing_features, ...b.missing_features]);
  const shared = FEATURES.map((f, i) => ({ f, i })).filter(({ f }) => !missing.has(f.name));
  if (shared.length < MIN_SHARED_FEATURES) return null;
  let dot = dec('0');
  let na = dec('0');
  let nb = dec('0');
  for (const { i } of shared) {
    const x = dec(a.vector[i]!);
    const y = dec(b.vector[i]!);
    dot = dot.plus(x.times(y));
    na = na.plus(x.times(x));
    nb = nb.plus(y.times(y));
  }
  if (na.isZero() || nb.isZero()) return null;
  const norm = na.sqrt().times(nb.sqrt());
  const contributions = new Map<string, Decimal>();
  for (const { f, i } of shared) contributions.set(f.name, dec(a.vector[i]!).times(b.vector[i]!).dividedBy(norm));
  return { similarity: dot.dividedBy(norm), shared: shared.length, contributions };
}

/**
 * The nearest companies to `subject` among `universe` (the company itself is excluded by CIK),
 * optionally only those whose SIC code starts with `sicPrefix`.
 */
export function findPeers(subject: CompanyEmbedding, universe: readonly PeerCandidate[], sicPrefix: string | null = null): Peer[] {
  const out: (Peer & { exact: Decimal })[] = [];
  for (const c of universe) {
    if (c.embedding.cik === subject.cik) continue;
    if (sicPrefix !== null && !(c.sic ?? '').startsWith(sicPrefix)) continue;
    const cmp = compare(subject, c.embedding);
    if (!cmp) continue;
    const byName = new Map(FEATURES.map((f, i) => [f.name, i]));
    const drivers = [...cmp.contributions.entries()]
      .filter(([, v]) => v.isPositive())
      .sort(([an, av], [bn, bv]) => bv.comparedTo(av) || an.localeCompare(bn))
      .slice(0, DRIVERS)
      .map(([feature, v]): PeerDriver => {
        const i = byName.get(feature)!;
        return {
          feature, contribution: fixed(v), company_z: subject.vector[i]!, peer_z: c.embedding.vector[i]!,
          company_raw: subject.features[i]!.raw, peer_raw: c.embedding.features[i]!.raw,
        };
      });
    out.push({ cik: c.embedding.cik, similarity: fixed(cmp.similarity), shared_features: cmp.shared, drivers, exact: cmp.similarity });
  }
  out.sort((x, y) => y.exact.comparedTo(x.exact) || x.cik.localeCompare(y.cik));
  return out.map(({ exact: _exact, ...p }) => p);
}
