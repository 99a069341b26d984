/**
 * Where bulk snapshot files live. Keys are `<snapshot_id>/<manifest path>`, e.g.
 * `20261123T043000Z/financials/fiscal_year_2023/part-0000.parquet`. A snapshot is visible to callers
 * only once its database row says published, so files under an unpublished prefix are staging.
 *
 * Two implementations: export/local-store.ts (a directory; the service signs its own download URLs
 * with an HMAC) and export/gcs-store.ts (Google Cloud Storage; V4 signed URLs).
 */
export interface BlobStore {
  readonly kind: 'local' | 'gcs';
  /** upload a finished local file under key (overwrites) */
  put(key: string, localPath: string): Promise<void>;
  /** server-side copy of an existing object; carries an unchanged file forward byte-identical */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** delete every object whose key starts with prefix (a snapshot id followed by '/') */
  deletePrefix(prefix: string): Promise<void>;
  /** keys under prefix (tests and retention checks) */
  list(prefix: string): Promise<string[]>;
  /** a URL anyone can GET without a key until expiresAt */
  signedUrl(key: string, expiresAt: Date): Promise<string>;
}

/** How long an issued download URL stays valid (spec "Limits": ten minutes). */
export const DOWNLOAD_URL_LIFETIME_MS = 10 * 60 * 1000;

/** `<snapshot_id>/<path>`; the path is always one taken from a manifest, never from a caller. */
export function blobKey(snapshotId: string, path: string): string {
  return `${snapshotId}/${path}`;
}
