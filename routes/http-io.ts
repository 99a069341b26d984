import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateDecision } from '../domain/rate-limit.ts';
import type { ServiceError } from '../domain/service-error.ts';
import { EncodedBody, sendBody, type SendOptions } from './encoding.ts';
import { jsonPartsOf, keptWith } from '../api/prepared-json.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Random bytes drawn ahead in one call (as randomUUID does) instead of a system call per request. */
const POOL_BYTES = 16 * 256;
let pool = Buffer.alloc(0);
let poolAt = POOL_BYTES;

export function newTraceId(): string {
  if (poolAt + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  const id = pool.toString('hex', poolAt, poolAt + 16);
  poolAt += 16;
  return id;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * W3C Trace Context: a valid `traceparent` from the caller (an OpenTelemetry-instrumented client or
 * gateway) gives its trace id to X-Trace-Id, the logs and error.trace_id, so one trace spans both
 * sides. Anything else (absent, malformed, version ff, all-zero ids) gets a new id of the same shape.
 */
export function traceIdOf(req: IncomingMessage): string {
  const given = req.headers.traceparent;
  const m = typeof given === 'string' ? TRACEPARENT.exec(given.trim().toLowerCase()) : null;
  if (m && m[1] !== 'ff' && !/^0+$/.test(m[2]!) && !/^0+$/.test(m[3]!)) return m[2]!;
  return newTraceId();
}

/** Echo the caller's X-Request-ID when it is a sane token; otherwise mint one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  const v = Array.isArray(given) ? given[0] : given;
  return v && /^[\x21-\x7e]{1,200}$/.test(v) ? v : randomUUID();
}

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'aborted' };

/** Reads at most BODY_LIMIT_BYTES; a declared or actual larger body is refused without buffering it. */
export function readBody(req: IncomingMessage): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > BODY_LIMIT_BYTES) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        done = true;
        chunks.length = 0;
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
      done = true;
    });
    req.on('error', () => {
      if (!done) resolve({ ok: false, reason: 'aborted' });
      done = true;
    });
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, options: Omit<SendOptions, 'headers'> = {}): void {
  // a prepared (immutable) payload is serialized, hashed and compressed once, whatever the number of
  // requests for it; an envelope around one (a JSON-RPC reply) reuses its encoded bytes
  const content = keptWith(body, 'http-body', () => new EncodedBody(jsonPartsOf(body)));
  sendBody(res, status, content, 'application/json; charset=utf-8', { ...options, headers });
}

/** What the service reads of a refused body before it hangs up on a sender that will not stop. */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A refused body (too large, or from a refused origin): the answer goes out at once and the rest
 * of the body is read and discarded, so a client still sending sees the answer instead of EPIPE
 * (closing the socket under a sender resets the connection, and `Connection: close` makes node do
 * exactly that). Once the body is in, the connection is clean and stays open for the next request;
 * past DRAIN_LIMIT_BYTES (a body that long is no mistake) it is cut.
 */
export function drainRefusedBody(req: IncomingMessage): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): policy and what is left of it. */
export function rateHeaders(policy: string, d: RateDecision | null): Record<string, string> {
  if (!d) return {};
  return {
    'ratelimit-policy': `"${policy}";q=${d.limit};w=${d.window_s}`,
    ratelimit: `"${policy}";r=${d.remaining};t=${d.reset_s}`,
  };
}

/** The HTTP error envelope; the one place a ServiceError becomes an HTTP response. */
export function sendError(res: ServerResponse, error: ServiceError, traceId: string, headers: Record<string, string> = {}): void {
  const extra: Record<string, string> = { ...headers };
  if (error.retryAfterS !== null) extra['retry-after'] = String(error.retryAfterS);
  // RFC 9110 11.6.1: a 401 names how to authenticate
  if (error.httpStatus === 401) extra['www-authenticate'] ??= 'ApiKey realm="fds", header="X-Api-Key"';
  sendJson(
    res,
    error.httpStatus,
    { error: { code: error.code, http_status: error.httpStatus, message: error.message, details: error.details, trace_id: traceId } },
    extra,
  );
}
