import type { Config } from '../config.ts';
import type { Sql } from '../db/client.ts';
import type { ChangeFeed } from '../db/change-feed.ts';
import type { DatabaseCircuit } from '../db/circuit.ts';
import type { BlobStore } from '../domain/bulk/blob-store.ts';
import type { Logger } from 'pino';
import type { BudgetCounter } from '../domain/rate-limit.ts';
import type { Authenticator } from './auth.ts';
import type { CoverageGate } from './coverage-gate.ts';
import type { ToolDefinition } from './define-tool.ts';

export type Phase = 'starting' | 'loading' | 'ready';

/** What readiness and metadata report about start-up and loading. */
export interface ServiceStatus {
  phase: Phase;
  startedAt: Date;
  /** human-readable progress of the current loading step, when loading */
  progress: string | null;
  /** set on SIGTERM: readiness answers 503 while in-flight requests finish */
  draining: boolean;
}

/** Everything a handler may use. Built once at start-up; tests build it against their own database. */
export interface Services {
  sql: Sql;
  config: Config;
  now: () => Date;
  /** request budgets, counted in PostgreSQL so every instance shares them */
  budgets: BudgetCounter;
  /** structured JSON log (pino): request lines, failures with their trace id */
  logger: Logger;
  authenticator: Authenticator;
  /** commits that change cached tables, from any instance (db/change-feed.ts); read caches key on it */
  changes: ChangeFeed;
  coverage: CoverageGate;
  status: ServiceStatus;
  /** where bulk snapshot files live (export/) */
  bulkStore: BlobStore;
  /** validate every handler's output against its schema (tests turn this on) */
  checkOutputs: boolean;
  /**
   * The registry by definition name, injected at start-up (api/ cannot import tools/), so
   * ToolContext.invoke can call a definition by name through the seam.
   */
  registry: ReadonlyMap<string, ToolDefinition>;
  /**
   * With a read replica (DATABASE_READ_URL): the same services reading from it, for read-only
   * definitions while it is usable (api/seam.ts decides); null: every read on the primary.
   */
  replica: { view: Services; usable(): boolean; markDown(): void } | null;
  /** whether the (primary) database answered the last request; while it did not, requests are refused at once but for one probe */
  circuit: DatabaseCircuit;
}
