import type { Config } from '../config.ts';
import type { Sql } from '../db/client.ts';
import type { FixedWindowLimiter } from '../domain/rate-limit.ts';
import type { Authenticator } from './auth.ts';
import type { CoverageGate } from './coverage.ts';

export type Phase = 'starting' | 'loading' | 'ready';

/** What readiness and metadata report about start-up and loading. */
export interface ServiceStatus {
  phase: Phase;
  startedAt: Date;
  /** human-readable progress of the current loading step, when loading */
  progress: string | null;
}

/** Per-tool call counts and latency, in process memory, for /v1/system/metadata. */
export class ToolStats {
  private readonly byTool = new Map<string, { calls: number; errors: number; totalMs: number }>();

  record(name: string, ms: number, failed: boolean): void {
    const s = this.byTool.get(name) ?? { calls: 0, errors: 0, totalMs: 0 };
    s.calls += 1;
    s.totalMs += ms;
    if (failed) s.errors += 1;
    this.byTool.set(name, s);
  }

  snapshot(): { name: string; calls: number; errors: number; mean_ms: number }[] {
    return [...this.byTool].map(([name, s]) => ({
      name,
      calls: s.calls,
      errors: s.errors,
      mean_ms: Math.round((s.totalMs / s.calls) * 1000) / 1000,
    }));
  }
}

/** Everything a handler may use. Built once at start-up; tests build it against their own database. */
export interface Services {
  sql: Sql;
  config: Config;
  now: () => Date;
  limiter: FixedWindowLimiter;
  authenticator: Authenticator;
  coverage: CoverageGate;
  status: ServiceStatus;
  stats: ToolStats;
  /** validate every handler's output against its schema (tests turn this on) */
  checkOutputs: boolean;
}
