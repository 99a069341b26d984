import type { Budget } from './plans.ts';

/**
 * Fixed-window request budgets. Windows are aligned to the epoch (a one-minute budget's windows
 * start on the minute), so every instance of the service agrees on the window without talking to
 * the others, and the RateLimit header is honest: `r` is exactly what is left, `t` exactly when it
 * resets.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets (>= 1 while the window is open) */
  reset_s: number;
  window_s: number;
}

/** The window `nowMs` falls in and the whole seconds until it ends. */
export function windowOf(nowMs: number, window_s: number): { start: Date; reset_s: number } {
  const windowMs = window_s * 1000;
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  return { start: new Date(startMs), reset_s: Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000)) };
}

/** The decision for a window in which `used` units are counted (`null`: this request was refused). */
export function decisionOf(budget: Budget, used: number | null, reset_s: number): RateDecision {
  if (used === null) return { allowed: false, limit: budget.limit, remaining: 0, reset_s, window_s: budget.window_s };
  return { allowed: true, limit: budget.limit, remaining: Math.max(0, budget.limit - used), reset_s, window_s: budget.window_s };
}

/** Where budgets are counted: PostgreSQL in the service (shared by every instance). */
export interface BudgetCounter {
  /** count one request; refused (allowed false) when the window is spent */
  take(bucket: string, budget: Budget): Promise<RateDecision>;
  /** what is left, counting nothing */
  peek(bucket: string, budget: Budget): Promise<RateDecision>;
}
