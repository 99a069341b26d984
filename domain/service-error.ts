/**
 * The one error type of the service. Every failure a caller can see is a ServiceError with a
 * code from the spec's table (plus the few the spec leaves to us); each surface maps it once:
 * routes/ to the HTTP envelope, tools/ to the tool-server `isError` envelope.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, type: 'invalid_request', retryable: false },
  UNAUTHORIZED: { status: 401, type: 'authentication', retryable: false },
  FEATURE_NOT_AVAILABLE: { status: 403, type: 'permission', retryable: false },
  COVERAGE_SELECTION_FULL: { status: 403, type: 'permission', retryable: false },
  DOWNLOAD_URL_INVALID: { status: 403, type: 'permission', retryable: false },
  NOT_FOUND: { status: 404, type: 'not_found', retryable: false },
  METHOD_NOT_ALLOWED: { status: 405, type: 'invalid_request', retryable: false },
  EDGAR_STATEMENT_AMBIGUOUS: { status: 409, type: 'conflict', retryable: false },
  REQUEST_TIMEOUT: { status: 408, type: 'invalid_request', retryable: true },
  PAYLOAD_TOO_LARGE: { status: 413, type: 'invalid_request', retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, type: 'invalid_request', retryable: false },
  RATE_LIMITED: { status: 429, type: 'rate_limit', retryable: true },
  HEADERS_TOO_LARGE: { status: 431, type: 'invalid_request', retryable: false },
  BAD_REQUEST: { status: 400, type: 'invalid_request', retryable: false },
  BULK_SNAPSHOT_NOT_FOUND: { status: 404, type: 'not_found', retryable: false },
  BULK_SNAPSHOT_EXPIRED: { status: 410, type: 'not_found', retryable: false },
  BULK_FILE_NOT_FOUND: { status: 404, type: 'not_found', retryable: false },
  BULK_DOWNLOAD_BUDGET_EXCEEDED: { status: 429, type: 'rate_limit', retryable: true },
  SERVICE_UNAVAILABLE: { status: 503, type: 'unavailable', retryable: true },
  INTERNAL_ERROR: { status: 500, type: 'server_error', retryable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly details: Record<string, unknown>;
  /** Seconds the caller should wait before retrying; sent as Retry-After / retry_after_s. */
  readonly retryAfterS: number | null;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options: { retryAfterS?: number | null; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.httpStatus = ERROR_CODES[code].status;
    this.details = details;
    this.retryAfterS = options.retryAfterS ?? null;
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }

  get type(): string {
    return ERROR_CODES[this.code].type;
  }
}

/**
 * Anything thrown that is not a ServiceError is a fault of ours: the caller gets a generic
 * 500 and the trace id, never the internal message or a stack.
 */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (isDatabaseUnavailable(err)) {
    return new ServiceError(
      'SERVICE_UNAVAILABLE',
      'The database is not reachable right now (restarting or failing over); retry shortly.',
      { dependency: 'database' },
      { retryAfterS: DATABASE_RETRY_AFTER_S, cause: err },
    );
  }
  return new ServiceError(
    'INTERNAL_ERROR',
    'The service failed to complete this request. Retry shortly; quote the trace id if it persists.',
    {},
    { cause: err },
  );
}

/** Retry-After on answers refused while the database is unreachable: a restart usually takes seconds. */
export const DATABASE_RETRY_AFTER_S = 2;

/** Socket-level failures of a database connection (refused, reset, closed, timed out); ENOENT on connect is handled beside. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/**
 * Whether `err` says the database is unreachable rather than that a query is wrong: a connection
 * that could not be opened or was lost, or PostgreSQL's own SQLSTATE classes for it (08 connection
 * exception, 57P01-57P03 shutting down / starting up, 53300 too many connections). Such a failure
 * is the caller's 503 with Retry-After, never a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  if (err instanceof AggregateError) return err.errors.length > 0 && err.errors.every(isDatabaseUnavailable);
  const { code, syscall } = err as { code?: unknown; syscall?: unknown };
  if (typeof code !== 'string') return false;
  // a Unix-domain socket that is gone while the server restarts (connect ENOENT); any other ENOENT is a file's
  if (code === 'ENOENT') return syscall === 'connect';
  return CONNECTION_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}
