/**
 * When and how long to wait before asking SEC again. Kept apart from the HTTP code so the
 * arithmetic (backoff, jitter, Retry-After parsing) can be reasoned about and tested alone.
 */
export interface RetryPolicy {
  /** total tries including the first */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** a Retry-After longer than this means "blocked", so give up instead of stalling a job */
  maxRetryAfterMs: number;
}

/** 5 tries spread over at most ~15s: rides out SEC's brief 5xx blips without stalling a job for minutes. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** 429 and 5xx are SEC (or its CDN) being busy; every other status will not change on retry. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Retry-After as milliseconds from now; accepts delta-seconds and HTTP-dates, null if absent or unreadable. */
export function parseRetryAfterMs(header: string | string[] | undefined, nowMs: number = Date.now()): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * Delay before retry number `failures` (1 after the first failure). Exponential with "equal
 * jitter" so parallel jobs that failed together do not retry in lockstep; a server-sent
 * Retry-After is a floor, never shortened.
 */
export function backoffDelayMs(
  policy: RetryPolicy,
  failures: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return retryAfterMs === null ? jittered : Math.max(retryAfterMs, jittered);
}
