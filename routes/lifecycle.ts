import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServiceError } from '../domain/service-error.ts';
import type { Config } from '../config.ts';
import type { ServiceStatus } from '../api/services.ts';
import { newTraceId } from './http-io.ts';

/** Request line plus headers: node's default, set here so it is a decision, not an accident. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Idle keep-alive connections live a little longer than a typical load balancer's 60 s, so it closes them first. */
export const KEEP_ALIVE_MS = 65_000;

/** Options node takes at server creation. */
export function serverOptions(): { maxHeaderSize: number; keepAliveTimeout: number } {
  return { maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: KEEP_ALIVE_MS };
}

/**
 * Timeouts set deliberately: the whole request must arrive within REQUEST_TIMEOUT_S, its headers
 * within a third of that (slow-loris), idle keep-alive connections close after KEEP_ALIVE_MS.
 * Requests node refuses before they reach us (a request line or headers over 16 KB, a malformed
 * request, a timeout) get our error envelope with an X-Trace-Id, not node's bare status line.
 */
export function configureServer(server: Server, config: Pick<Config, 'requestTimeoutMs'>): void {
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = Math.max(1000, Math.floor(config.requestTimeoutMs / 3));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket));
  // without a listener node drops a CONNECT's socket unanswered; we are no proxy: say so
  server.on('connect', (_req: unknown, socket: Duplex) =>
    answerOnSocket(socket, new ServiceError('METHOD_NOT_ALLOWED', 'CONNECT is not served: this is an HTTP API, not a proxy. Routes answer GET, HEAD and POST.'), 'allow: GET, HEAD, POST, OPTIONS\r\n'),
  );
}

function clientErrorOf(code: string | undefined): ServiceError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ServiceError('HEADERS_TOO_LARGE', `The request line and headers exceed ${MAX_HEADER_BYTES / 1024} KB. Send long parameter lists as repeated or comma-separated values over several requests.`, {
      limit_bytes: MAX_HEADER_BYTES,
    });
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ServiceError('REQUEST_TIMEOUT', 'The request did not arrive in time; send it again.');
  return new ServiceError('BAD_REQUEST', 'The request is not valid HTTP/1.1.');
}

function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  answerOnSocket(socket, clientErrorOf(err.code));
}

/** Our error envelope written straight onto a socket node has not turned into a request/response pair. */
function answerOnSocket(socket: Duplex, error: ServiceError, extraHeaders = ''): void {
  const traceId = newTraceId();
  const body = JSON.stringify({ error: { code: error.code, http_status: error.httpStatus, message: error.message, details: error.details, trace_id: traceId } });
  const reason = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[error.httpStatus] ?? 'Bad Request';
  socket.end(
    `HTTP/1.1 ${error.httpStatus} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-trace-id: ${traceId}\r\n${extraHeaders}connection: close\r\n\r\n${body}`,
  );
}

export interface DrainOptions {
  /** readiness answers 503 this long before the listener closes */
  delayMs: number;
  /** in-flight requests get this long to finish; then their connections are cut */
  timeoutMs: number;
}

/**
 * Graceful stop (SIGTERM): readiness turns 503 at once (load balancers stop sending), after
 * `delayMs` the listener stops accepting and idle keep-alive connections close, requests in
 * flight finish (their answers carry Connection: close), and whatever is still open after
 * `timeoutMs` is cut. Resolves when no connection is left; the caller then closes the database.
 */
export async function drainServer(server: Server, status: ServiceStatus, options: DrainOptions): Promise<{ forced: boolean }> {
  status.draining = true;
  if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // connections that finish their last answer become idle: close them as they do
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  let forced = false;
  const deadline = setTimeout(() => {
    forced = true;
    server.closeAllConnections();
  }, options.timeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
  return { forced };
}
