import { randomUUID } from 'node:crypto';
import type { Sql } from './client.ts';

/**
 * What tells a service instance that rows it may have cached changed: the `fds_changes`
 * notifications the tables' triggers send when a writing transaction commits (migration 000031),
 * whichever instance or process wrote. Each instance listens on one connection of its own. A read
 * cache keeps an entry only while the generation it was made in is current: a notification from
 * the table, a (re)connection of the listening session (notifications may have been missed while
 * it was down) or `bump()` after a local write moves the generation on. Before `start`, after
 * `stop`, or when listening failed, the feed is not live and caches are bypassed. A connection that
 * drops is only noticed when postgres.js reconnects it (it gives no word of the drop), so until then
 * caches go on serving what they hold: their age bound (api/read-cache.ts) caps that window.
 */
export const CHANGE_CHANNEL = 'fds_changes';

/** The tables whose changes are announced (their triggers are in migrations 000031 and 000050). */
export const CHANGED_TABLES = ['statement_versions', 'filings', 'reconciliation_results', 'api_keys', 'organizations'] as const;
export type ChangedTable = (typeof CHANGED_TABLES)[number];

const PROBE = 'probe:';

/** Tables whose rows reads on a replica return, so a change to them waits for the replica's replay. */
const REPLICA_READ = new Set<string>(['statement_versions', 'filings', 'reconciliation_results']);

export class ChangeFeed {
  private readonly generations = new Map<string, number>();
  private listening = false;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly probes = new Map<string, () => void>();
  /** notifications waiting for the replica, handled in commit order */
  private queue: Promise<void> = Promise.resolve();

  /**
   * `replayed`: with a read replica, what a change to a table read from it waits for before its
   * generation moves on (db/replica.ts: the replica has replayed it), so a cache is never refilled
   * from a replica that has not seen the change yet.
   */
  constructor(
    private readonly sql: Sql,
    private readonly replayed: (() => Promise<void>) | null = null,
  ) {}

  /** Starts listening; resolves once the first LISTEN is in place. Failing to listen leaves the feed not live (reads go uncached). */
  async start(): Promise<void> {
    if (this.unlisten) return;
    const r = await this.sql.listen(
      CHANGE_CHANNEL,
      (payload) => this.onNotify(payload),
      () => {
        // first LISTEN, or a new session after the connection dropped: anything may have changed meanwhile
        this.bumpAll();
        this.listening = true;
      },
    );
    this.unlisten = r.unlisten;
  }

  async stop(): Promise<void> {
    this.listening = false;
    this.bumpAll();
    const u = this.unlisten;
    this.unlisten = null;
    if (u) await u().catch(() => {});
    for (const resolve of this.probes.values()) resolve();
    this.probes.clear();
  }

  /** Whether caches may keep entries: the feed is listening. */
  get live(): boolean {
    return this.listening;
  }

  /** The current generation of `table`'s rows, or null when the feed is not live (do not cache). */
  generation(table: ChangedTable): number | null {
    if (!this.listening) return null;
    return this.generations.get(table) ?? 0;
  }

  /** A write made through this process: drop what was cached from `table` now, before its notification arrives. */
  bump(table: ChangedTable): void {
    this.generations.set(table, (this.generations.get(table) ?? 0) + 1);
  }

  /**
   * Resolves once every change committed before the call has been seen: sends a probe through the
   * channel and waits for it (PostgreSQL delivers notifications to a listener in commit order).
   * Tests use it after writing through a connection of their own.
   */
  async sync(): Promise<void> {
    if (!this.listening) return;
    const id = randomUUID();
    const seen = new Promise<void>((resolve) => this.probes.set(id, resolve));
    await this.sql`SELECT pg_notify(${CHANGE_CHANNEL}, ${PROBE + id})`;
    await seen;
  }

  private onNotify(payload: string): void {
    if (payload.startsWith(PROBE)) {
      const id = payload.slice(PROBE.length);
      // after every change announced before it has been applied
      this.queue = this.queue.then(() => {
        this.probes.get(id)?.();
        this.probes.delete(id);
      });
      return;
    }
    const table = payload as ChangedTable;
    const gate = this.replayed;
    // keys and organizations are read on the primary; versions, filings and the ledger may be read from the replica
    if (gate && REPLICA_READ.has(table)) this.queue = this.queue.then(gate).then(() => this.bump(table));
    else this.queue = this.queue.then(() => this.bump(table));
  }

  private bumpAll(): void {
    for (const t of CHANGED_TABLES) this.bump(t);
  }
}
