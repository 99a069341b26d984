import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Bodies smaller than this go uncompressed: below a packet or two, compressing costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

type Encoding = 'br' | 'gzip' | 'identity';

/** The caller's preferred encoding we speak (br before gzip on equal weight); q=0 refuses one. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    weights.set(name!.trim(), q ? Number(q[1]) : 1);
  }
  const weight = (e: string) => weights.get(e) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

/** A weak validator of the representation's content (weak: the same JSON served br, gzip or plain). */
export function etagOf(body: Buffer): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** If-None-Match, weak comparison (RFC 9110 13.1.2): any listed tag, or `*`. */
export function notModified(req: IncomingMessage, etag: string): boolean {
  const given = req.headers['if-none-match'];
  if (!given) return false;
  if (given.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return given.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** Compressed forms of static documents (OpenAPI, reference page, manifest): computed once each. */
const compressedCache = new Map<string, Buffer>();

function compress(body: Buffer, encoding: 'br' | 'gzip', cacheKey: string | null): Buffer {
  const key = cacheKey && `${encoding}:${cacheKey}`;
  const hit = key ? compressedCache.get(key) : undefined;
  if (hit) return hit;
  const out =
    encoding === 'br'
      ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: cacheKey ? 9 : 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : gzipSync(body, { level: cacheKey ? 9 : 6 });
  if (key) compressedCache.set(key, out);
  return out;
}

export interface SendOptions {
  /** extra response headers */
  headers?: Record<string, string>;
  /** the body never changes for this URL (keyed by a statement version id): cache it for a year */
  immutable?: boolean;
  /** a static document: its compressed forms are kept after the first request */
  cacheKey?: string;
}

/**
 * Every body the service sends goes through here: an ETag on successful reads (and 304 when
 * If-None-Match matches), Cache-Control, and br or gzip over COMPRESS_MIN_BYTES when the caller
 * accepts it. HEAD gets the same status and headers, no body (node drops it).
 */
export function sendBody(res: ServerResponse, status: number, text: string, type: string, options: SendOptions = {}): void {
  const req = res.req as IncomingMessage | undefined;
  const raw = Buffer.from(text, 'utf8');
  const headers: Record<string, string | number> = { 'content-type': type, ...options.headers };
  const method = req?.method ?? 'GET';
  const cacheable = status === 200 && (method === 'GET' || method === 'HEAD');
  if (cacheable) {
    const etag = etagOf(raw);
    headers.etag = etag;
    headers['cache-control'] = options.immutable ? 'private, max-age=31536000, immutable' : 'private, no-cache';
    if (req && notModified(req, etag)) {
      delete headers['content-type'];
      res.writeHead(304, headers);
      res.end();
      return;
    }
  }
  let body: Buffer = raw;
  if (raw.length >= COMPRESS_MIN_BYTES) {
    const vary = res.getHeader('vary');
    headers.vary = vary ? `${String(vary)}, accept-encoding` : 'accept-encoding';
    const encoding = chooseEncoding(req?.headers['accept-encoding']);
    if (encoding !== 'identity') {
      body = compress(raw, encoding, options.cacheKey ?? null);
      headers['content-encoding'] = encoding;
    }
  }
  headers['content-length'] = body.length;
  res.writeHead(status, headers);
  res.end(body);
}
