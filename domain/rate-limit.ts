import type { Budget } from './plans.ts';

/**
 * Fixed-window request counter, one window per (key, class). Fixed windows make the
 * RateLimit header honest: `r` is exactly what is left and `t` exactly when it resets.
 * The clock is injected so tests can move time.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets (>= 1 while the window is open) */
  reset_s: number;
  window_s: number;
}

interface Window {
  startedMs: number;
  count: number;
}

export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweepMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  take(bucket: string, budget: Budget): RateDecision {
    const nowMs = this.now();
    this.sweep(nowMs);
    const windowMs = budget.window_s * 1000;
    let w = this.windows.get(bucket);
    if (!w || nowMs - w.startedMs >= windowMs) {
      w = { startedMs: nowMs, count: 0 };
      this.windows.set(bucket, w);
    }
    const reset_s = Math.max(1, Math.ceil((w.startedMs + windowMs - nowMs) / 1000));
    if (w.count >= budget.limit) {
      return { allowed: false, limit: budget.limit, remaining: 0, reset_s, window_s: budget.window_s };
    }
    w.count += 1;
    return { allowed: true, limit: budget.limit, remaining: budget.limit - w.count, reset_s, window_s: budget.window_s };
  }

  /** Forget closed windows now and then so the map does not grow with every key ever seen. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < 60_000) return;
    this.lastSweepMs = nowMs;
    for (const [k, w] of this.windows) if (nowMs - w.startedMs > 3_600_000) this.windows.delete(k);
  }
}
