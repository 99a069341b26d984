import { createHash } from 'node:crypto';
import { CANONICAL_METRICS, DERIVED_METRICS, METRIC_BUNDLES, METRIC_VIEWS } from './index.ts';
import type { CanonicalMetric } from './types.ts';

/** JSON with object keys sorted at every depth, so the text depends on content, never on key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A stable hash (SHA-256, hex) of every canonical catalog entry, in catalog order: names,
 * candidate concepts and their signs, statement, period kind, unit, traits and notes. It changes
 * exactly when an entry does, so ingestion can tell that stored statements were built by another
 * catalog and rebuild them, instead of a hand-bumped normalizer version that a new metric forgets.
 * Derived metrics are left out: they are computed on read and never stored on a version.
 */
export const CATALOG_FINGERPRINT: string = fingerprintOf(CANONICAL_METRICS);

/** The fingerprint of a list of catalog entries (exported so a test can show what moves it). */
export function fingerprintOf(entries: readonly CanonicalMetric[]): string {
  return createHash('sha256').update(canonicalJson(entries), 'utf8').digest('hex');
}

/**
 * The fingerprint of everything in the catalog that shapes an answer on read: canonical and derived
 * definitions, bundles and views (deterministic-query manifests record it). Same canonical JSON as
 * CATALOG_FINGERPRINT, wider scope: derived metrics change read answers without changing stored rows.
 */
export const CATALOG_READ_FINGERPRINT: string = readFingerprintOf({ canonical: CANONICAL_METRICS, derived: DERIVED_METRICS, bundles: METRIC_BUNDLES, views: METRIC_VIEWS });

/** The read fingerprint of a catalog's parts (exported so a test can show what moves it). */
export function readFingerprintOf(parts: { canonical: unknown; derived: unknown; bundles: unknown; views: unknown }): string {
  return createHash('sha256').update(canonicalJson(parts), 'utf8').digest('hex');
}
