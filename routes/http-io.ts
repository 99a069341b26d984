import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateDecision } from '../domain/rate-limit.ts';
import type { ServiceError } from '../domain/service-error.ts';
import { jsonOf } from '../api/prepared-json.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export function newTraceId(): string {
  return randomBytes(16).toString('hex');
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

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // a prepared (immutable) payload is serialized once, whatever the number of requests for it
  const text = jsonOf(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A refused oversized body: answer, then close the connection rather than read the rest. */
export function closeAfter(res: ServerResponse): void {
  res.setHeader('connection', 'close');
  res.on('finish', () => res.socket?.destroySoon?.());
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
  sendJson(
    res,
    error.httpStatus,
    { error: { code: error.code, http_status: error.httpStatus, message: error.message, details: error.details, trace_id: traceId } },
    extra,
  );
}
