import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers a browser page may send to us, and those of ours it may read. */
const ALLOW_HEADERS = 'x-api-key, content-type, x-request-id, traceparent, tracestate, if-none-match';
const EXPOSE_HEADERS = 'x-trace-id, x-request-id, ratelimit, ratelimit-policy, retry-after, etag, server-timing, www-authenticate';
const ALLOW_METHODS = 'GET, HEAD, POST, OPTIONS';

/** Whether `origin` is one CORS_ORIGINS lists (`*` lists every origin). */
export function corsAllows(origin: string | undefined, allowed: readonly string[]): origin is string {
  return origin !== undefined && (allowed.includes('*') || allowed.includes(origin.replace(/\/$/, '')));
}

/**
 * CORS for the origins of CORS_ORIGINS: the allow-origin header on every answer to them (the API
 * key travels in a header, never a cookie, so credentials stay off), and preflights (OPTIONS with
 * Access-Control-Request-Method) answered 204 here. Returns true when the request was a preflight
 * and is answered. Origins not listed get no CORS headers: the browser then refuses the read.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  const listed = corsAllows(origin, allowed);
  if (allowed.length > 0) res.setHeader('vary', 'origin');
  if (listed) {
    res.setHeader('access-control-allow-origin', allowed.includes('*') ? '*' : origin);
    res.setHeader('access-control-expose-headers', EXPOSE_HEADERS);
  }
  const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  if (!preflight) return false;
  const headers: Record<string, string> = { 'content-length': '0' };
  if (listed) {
    headers['access-control-allow-methods'] = ALLOW_METHODS;
    headers['access-control-allow-headers'] = ALLOW_HEADERS;
    headers['access-control-max-age'] = '600';
  }
  res.writeHead(204, headers);
  res.end();
  return true;
}
