import { createHash, hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { JsonPart } from '../api/prepared-json.ts';

/** Marks a prepared part's digest in a parts body's ETag input (a byte no JSON text holds). */
const PART_MARK = Buffer.from([0xff]);

/** Bodies smaller than this go uncompressed: below a packet or two, compressing costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

type Encoding = 'br' | 'gzip' | 'identity';

/** A quality value as RFC 9110 12.4.2 writes one: 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The caller's preferred encoding we speak (br before gzip on equal weight); q=0 refuses one. A
 * coding whose quality is not a valid qvalue (`gzip;q=abc`, `br;q=2`) is not taken: the body then
 * goes uncompressed, which every client reads, rather than in a coding the client may not have meant.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    let weight = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1 || param.slice(0, eq).trim() !== 'q') continue;
      const value = param.slice(eq + 1).trim();
      weight = QVALUE.test(value) ? Number(value) : 0;
    }
    weights.set(name!.trim(), weight);
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
  return `W/"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/** If-None-Match, weak comparison (RFC 9110 13.1.2): any listed tag, or `*`. */
export function notModified(req: IncomingMessage, etag: string): boolean {
  const given = req.headers['if-none-match'];
  if (!given) return false;
  if (given.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return given.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * A response body with what is derived from its bytes (ETag, compressed forms) computed on first
 * use and kept with it: a body made once for an immutable payload (`keptBody`) or a static
 * document serves every later request without hashing or compressing again. The ETag of a body
 * made of parts (api/prepared-json.ts jsonPartsOf: prepared values' kept bytes between text written
 * per request) hashes each prepared part's kept digest in place of its bytes: a weak validator of
 * the same content, worked out without reading the kept bytes again.
 */
/** Up to this many parts a body is written part by part; past it, joined first (each write has its own cost). */
const MAX_WRITTEN_PARTS = 4;

export class EncodedBody {
  private joined: Buffer | null;
  private tag: string | null = null;
  private readonly compressed = new Map<'br' | 'gzip', Buffer>();
  private readonly parts: readonly JsonPart[] | null;
  /** the body's length in bytes */
  readonly length: number;

  /** `strong`: compress at the highest levels (the result is kept, so its cost is paid once) */
  constructor(text: string | Buffer | readonly JsonPart[], private readonly strong = false) {
    if (typeof text === 'string' || Buffer.isBuffer(text)) {
      this.joined = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      this.parts = null;
      this.length = this.joined.length;
    } else if (text.length === 1) {
      this.joined = text[0]!.bytes;
      this.parts = null;
      this.length = this.joined.length;
    } else {
      this.joined = null;
      this.parts = text;
      this.length = text.reduce((n, p) => n + p.bytes.length, 0);
    }
  }

  /**
   * The body's bytes as the few buffers it is made of (a JSON-RPC reply: its head, a prepared
   * result's kept bytes, its tail), each written to the socket as it is; a body of more parts (a
   * page of points) joined, one buffer.
   */
  get chunks(): readonly Buffer[] {
    if (this.parts === null || this.parts.length > MAX_WRITTEN_PARTS) return [this.raw];
    return this.parts.map((p) => p.bytes);
  }

  /** the body's bytes, joined */
  get raw(): Buffer {
    return (this.joined ??= Buffer.concat(this.parts!.map((p) => p.bytes)));
  }

  get etag(): string {
    if (this.tag !== null) return this.tag;
    if (this.parts === null) return (this.tag = etagOf(this.raw));
    const h = createHash('sha256');
    for (const p of this.parts) {
      if (p.digest === null) h.update(p.bytes);
      else h.update(PART_MARK).update(p.digest);
    }
    return (this.tag = `W/"${h.digest('base64url').slice(0, 27)}"`);
  }

  encoded(encoding: 'br' | 'gzip'): Buffer {
    let out = this.compressed.get(encoding);
    if (out === undefined) {
      out =
        encoding === 'br'
          ? brotliCompressSync(this.raw, { params: { [constants.BROTLI_PARAM_QUALITY]: this.strong ? 9 : 5, [constants.BROTLI_PARAM_SIZE_HINT]: this.raw.length } })
          : gzipSync(this.raw, { level: this.strong ? 9 : 6 });
      this.compressed.set(encoding, out);
    }
    return out;
  }
}

/** Static documents (OpenAPI, reference page, manifest): each body and its compressed forms made once. */
const staticBodies = new Map<string, { text: string; body: EncodedBody }>();

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
 * accepts it. HEAD gets the same status and headers, no body (node drops it). `content` is the
 * text, or an EncodedBody kept with an immutable payload.
 */
export function sendBody(res: ServerResponse, status: number, content: string | EncodedBody, type: string, options: SendOptions = {}): void {
  const req = res.req as IncomingMessage | undefined;
  const encoded = typeof content === 'string' ? staticBody(content, options.cacheKey) : content;
  const headers: Record<string, string | number> = { 'content-type': type, ...options.headers };
  const method = req?.method ?? 'GET';
  const cacheable = status === 200 && (method === 'GET' || method === 'HEAD');
  if (cacheable) {
    const etag = encoded.etag;
    headers.etag = etag;
    headers['cache-control'] = options.immutable ? 'private, max-age=31536000, immutable' : 'private, no-cache';
    if (req && notModified(req, etag)) {
      delete headers['content-type'];
      res.writeHead(304, headers);
      res.end();
      return;
    }
  }
  let body: Buffer | null = null;
  if (encoded.length >= COMPRESS_MIN_BYTES) {
    const vary = res.getHeader('vary');
    headers.vary = vary ? `${String(vary)}, accept-encoding` : 'accept-encoding';
    const encoding = chooseEncoding(req?.headers['accept-encoding']);
    if (encoding !== 'identity') {
      body = encoded.encoded(encoding);
      headers['content-encoding'] = encoding;
    }
  }
  if (body !== null) {
    headers['content-length'] = body.length;
    res.writeHead(status, headers);
    res.end(body);
    return;
  }
  headers['content-length'] = encoded.length;
  res.writeHead(status, headers);
  // written one after the other in this tick: the socket takes them in one writev, no joined copy
  const chunks = encoded.chunks;
  for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
  res.end(chunks[chunks.length - 1]);
}

/** A static document's kept body (made again if its text changed), or a fresh one for any other text. */
function staticBody(text: string, cacheKey: string | undefined): EncodedBody {
  if (cacheKey === undefined) return new EncodedBody(text);
  const kept = staticBodies.get(cacheKey);
  if (kept && kept.text === text) return kept.body;
  const body = new EncodedBody(text, true);
  staticBodies.set(cacheKey, { text, body });
  return body;
}
