import { open, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../domain/service-error.ts';
import { DOWNLOAD_PREFIX, isValidKey, servesDownloads } from '../domain/bulk/blob-store.ts';
import { expiryOf } from '../api/bulk-expiry.ts';
import type { Services } from '../api/services.ts';
import { sendError } from './http-io.ts';

const CONTENT_TYPES: Record<string, string> = { '.parquet': 'application/vnd.apache.parquet', '.json': 'application/json' };

function downloadUrlInvalid(key: string, reason: 'expired' | 'bad_signature', expires: string | null): ServiceError {
  const slash = key.indexOf('/');
  const ask = slash > 0 ? `GET /v1/bulk/snapshots/${key.slice(0, slash)}/files/${key.slice(slash + 1)}` : 'GET /v1/bulk/snapshots/{snapshot_id}/files/{file_path}';
  if (reason === 'expired') {
    const at = new Date(Number(expires) * 1000).toISOString();
    return new ServiceError('DOWNLOAD_URL_INVALID', `This download URL expired at ${at}. Ask ${ask} with your API key for a new URL.`, { reason, expired_at: at });
  }
  return new ServiceError(
    'DOWNLOAD_URL_INVALID',
    `This download URL is not valid: its signature is missing or does not match (was the URL altered?). Ask ${ask} with your API key for a new URL.`,
    { reason },
  );
}

/**
 * The local store's signed URLs (spec: fetched with a plain GET and no key; the signature is the
 * credential). Outside the registry because the answer is a file streamed from disk, not JSON.
 */
export async function serveDownload(
  req: IncomingMessage,
  res: ServerResponse,
  services: Services,
  key: string,
  query: URLSearchParams,
  traceId: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  const store = services.bulkStore;
  if (!servesDownloads(store)) {
    return sendError(res, new ServiceError('NOT_FOUND', `No route ${method} ${DOWNLOAD_PREFIX}${key}: bulk files are downloaded from the URLs the service issues.`), traceId);
  }
  if (method !== 'GET' && method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return sendError(res, new ServiceError('METHOD_NOT_ALLOWED', `Download URLs answer GET and HEAD, not ${method}.`), traceId);
  }
  if (!isValidKey(key)) {
    return sendError(res, new ServiceError('VALIDATION_ERROR', `"${key}" is not a bulk file path: segments of letters, digits and _ . = - joined by '/', no '.' or '..'.`), traceId);
  }
  const now = services.now();
  const expires = query.get('expires');
  const check = store.verify(key, expires, query.get('signature'), now);
  if (check !== 'ok') return sendError(res, downloadUrlInvalid(key, check, expires), traceId);

  // a URL issued before its snapshot expired answers as the snapshot does: 410, files deleted
  const slash = key.indexOf('/');
  const expired = slash > 0 ? await expiryOf(services.sql, key.slice(0, slash)) : null;
  if (expired) return sendError(res, expired, traceId);

  const notFound = new ServiceError('NOT_FOUND', `No bulk file ${key}; its snapshot may have been removed. Ask /v1/bulk/snapshots/latest for the current one.`);
  let fh: FileHandle;
  try {
    fh = await open(store.pathOf(key), 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return sendError(res, notFound, traceId);
    throw err;
  }
  // held open from here: a retention pass deleting the file mid-download cannot cut it short
  try {
    const stat = await fh.stat();
    if (!stat.isFile()) return sendError(res, notFound, traceId);
    const dot = key.lastIndexOf('.');
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[dot === -1 ? '' : key.slice(dot)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': `private, max-age=${Math.max(0, Math.floor((Number(expires) * 1000 - now.getTime()) / 1000))}`,
    });
    if (method === 'HEAD') {
      res.end();
      return;
    }
    await pipeline(fh.createReadStream({ autoClose: false }), res).catch((err: NodeJS.ErrnoException) => {
      // the caller hung up: nothing to answer and nothing of ours to log
      if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
    });
  } finally {
    await fh.close();
  }
}
