import { IdempotencyStrategy, Storage, type Bucket, type StorageOptions } from '@google-cloud/storage';
import type { BlobStore } from '../domain/bulk/blob-store.ts';

export interface GcsStoreOptions {
  bucket: string;
  /**
   * An emulator or test double. Note the client then sends no credentials at all (its
   * useAuthWithCustomEndpoint defaults off), and signed URLs are issued on this host instead of
   * storage.googleapis.com.
   */
  apiEndpoint?: string;
  projectId?: string;
  /** a service-account key; without one the client uses Application Default Credentials */
  credentials?: { client_email: string; private_key: string };
  /** merged over this store's defaults; tests turn autoRetry off so a failure surfaces at once */
  retryOptions?: StorageOptions['retryOptions'];
}

const CONTENT_TYPES: Record<string, string> = {
  '.parquet': 'application/vnd.apache.parquet',
  '.json': 'application/json',
};

function contentTypeOf(key: string): string {
  const dot = key.lastIndexOf('.');
  return (dot >= 0 && CONTENT_TYPES[key.slice(dot)]) || 'application/octet-stream';
}

/** The client's errors name neither the object nor what was being done to it. */
function failed(op: string, key: string, err: unknown): Error {
  const reason = err instanceof Error ? err.message : String(err);
  return new Error(`gcs ${op} ${key}: ${reason}`, { cause: err });
}

// deletes in flight at once: enough to clear a snapshot quickly, few enough to stay clear of rate limits
const DELETE_CONCURRENCY = 10;

export class GcsStore implements BlobStore {
  readonly kind = 'gcs' as const;
  private readonly bucket: Bucket;

  constructor(options: GcsStoreOptions) {
    const storage = new Storage({
      apiEndpoint: options.apiEndpoint,
      projectId: options.projectId,
      credentials: options.credentials,
      retryOptions: {
        /*
         * Every call here is safe to repeat: put rewrites the same bytes, copy the same object, delete
         * ignores "already gone". Under the client's default (RetryConditional) an upload without
         * ifGenerationMatch sets the shared client's autoRetry to false and never restores it, so
         * after the first put even listings stopped retrying a 503.
         */
        idempotencyStrategy: IdempotencyStrategy.RetryAlways,
        ...options.retryOptions,
      },
    });
    this.bucket = storage.bucket(options.bucket);
  }

  async put(key: string, localPath: string): Promise<void> {
    try {
      // snapshot files are written once and small enough for a single request; resumable sessions
      // would only add a round trip. The client checks the CRC32C the server reports.
      await this.bucket.upload(localPath, { destination: key, resumable: false, contentType: contentTypeOf(key) });
    } catch (err) {
      throw failed('put', key, err);
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    try {
      // a rewrite never passes the bytes through this process; the client follows rewrite tokens
      await this.bucket.file(fromKey).copy(this.bucket.file(toKey));
    } catch (err) {
      throw failed('copy', `${fromKey} -> ${toKey}`, err);
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    // an empty prefix would be the whole bucket: never what a retention pass means
    if (prefix === '') throw new Error('deletePrefix needs a non-empty prefix');
    // list everything first so deletions cannot disturb the listing's page tokens
    const keys = await this.list(prefix);
    for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
      await Promise.all(
        keys.slice(i, i + DELETE_CONCURRENCY).map(async (key) => {
          try {
            // gone already is the outcome wanted, e.g. when a half-finished cleanup is re-run
            await this.bucket.file(key).delete({ ignoreNotFound: true });
          } catch (err) {
            throw failed('delete', key, err);
          }
        }),
      );
    }
  }

  async list(prefix: string): Promise<string[]> {
    try {
      const [files] = await this.bucket.getFiles({ prefix, autoPaginate: true });
      return files.map((f) => f.name).sort();
    } catch (err) {
      throw failed('list', `${prefix}*`, err);
    }
  }

  async signedUrl(key: string, expiresAt: Date): Promise<string> {
    try {
      // signed locally with the key's private_key; under ADC the client asks IAM signBlob instead
      const [url] = await this.bucket.file(key).getSignedUrl({ version: 'v4', action: 'read', expires: expiresAt });
      return url;
    } catch (err) {
      throw failed('sign', key, err);
    }
  }
}
