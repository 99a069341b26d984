import type { Db } from '../db/client.ts';
import { budgetUsed, forgetBudgetWindows, takeBudgetUnit } from '../db/request-budgets.ts';
import type { Budget } from '../domain/plans.ts';
import { decisionOf, windowOf, type BudgetCounter, type RateDecision } from '../domain/rate-limit.ts';

const HOUR_MS = 3_600_000;

/**
 * Request budgets counted in PostgreSQL, so N instances behind a load balancer allow one budget,
 * not N. Closed windows are forgotten now and then (at most once a minute per instance).
 */
export function postgresBudgets(sql: Db, now: () => number = Date.now): BudgetCounter {
  let lastSweepMs = 0;
  const sweep = (nowMs: number) => {
    if (nowMs - lastSweepMs < 60_000) return;
    lastSweepMs = nowMs;
    // never awaited by a request: a failed sweep is retried a minute later
    forgetBudgetWindows(sql, new Date(nowMs - HOUR_MS)).catch(() => {});
  };
  return {
    async take(bucket: string, budget: Budget): Promise<RateDecision> {
      const nowMs = now();
      sweep(nowMs);
      const w = windowOf(nowMs, budget.window_s);
      return decisionOf(budget, await takeBudgetUnit(sql, bucket, w.start, budget.limit), w.reset_s);
    },
    async peek(bucket: string, budget: Budget): Promise<RateDecision> {
      const w = windowOf(now(), budget.window_s);
      const used = await budgetUsed(sql, bucket, w.start);
      return decisionOf(budget, used >= budget.limit ? null : used, w.reset_s);
    },
  };
}
