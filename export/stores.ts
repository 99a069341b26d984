import type { Config } from '../config.ts';
import type { BlobStore } from '../domain/bulk/blob-store.ts';
import { loadSigningSecret, LocalStore } from './local-store.ts';

/**
 * The configured bulk store. Local (the default): a directory whose files the service serves itself
 * at HMAC-signed URLs under `baseUrl`. GCS: a bucket, credentials from the environment the way
 * Google's client finds them (GOOGLE_APPLICATION_CREDENTIALS or the metadata server).
 */
export async function openBlobStore(config: Config, baseUrl: () => string): Promise<BlobStore> {
  if (config.bulkStore === 'gcs') {
    if (!config.gcsBucket) throw new Error('BULK_STORE=gcs needs GCS_BUCKET');
    // Google's client takes most of a second to load: only a GCS store loads it
    const { GcsStore } = await import('./gcs-store.ts');
    return new GcsStore({ bucket: config.gcsBucket, ...(config.gcsApiEndpoint ? { apiEndpoint: config.gcsApiEndpoint } : {}) });
  }
  const secret = await loadSigningSecret(config.bulkDir, config.bulkSigningSecret);
  return new LocalStore({ root: `${config.bulkDir}/store`, secret, baseUrl });
}
