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

/** The keyless route that serves the local store's objects (routes/server.ts). */
export const DOWNLOAD_PREFIX = '/v1/bulk/download/';

/*
 * A segment may not start with '.': that rules out '.' and '..', and keeps the store's own files
 * (temp names during put, the signing secret) out of list() and out of the download route.
 */
const SEGMENT = '[A-Za-z0-9_=-][A-Za-z0-9_.=-]*';
const KEY = new RegExp(`^${SEGMENT}(/${SEGMENT})*$`);
const MAX_KEY_LENGTH = 1024;

/** Whether `key` is a well-formed blob key (the stores refuse others; the download route answers 400). */
export function isValidKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && KEY.test(key);
}

export type DownloadCheck = 'ok' | 'expired' | 'bad_signature';

/**
 * A store whose files the service streams itself at signed URLs (the local store; a GCS bucket
 * serves its own). The download route reaches it through this port, not through export/.
 */
export interface LocalDownloads {
  /** the signature is checked before the expiry, so an altered `expires` reads as tampering */
  verify(key: string, expires: string | null, signature: string | null, now: Date): DownloadCheck;
  /** the file behind a valid key */
  pathOf(key: string): string;
}

/** Whether the service itself serves this store's download URLs. */
export function servesDownloads(store: BlobStore): store is BlobStore & LocalDownloads {
  return store.kind === 'local' && typeof (store as Partial<LocalDownloads>).verify === 'function';
}
