import type { Sql } from './client.ts';

/**
 * A streaming read replica (DATABASE_READ_URL) beside the primary. Read-only work may go to it
 * while it is usable: reachable (a connection failure sets it aside for `retryMs`, reads going to
 * the primary meanwhile) and not known to lag (a change it did not replay within `maxLagMs` sets it
 * aside until it has). `replayed()` is what the change feed waits on before it tells caches that a
 * table changed, so nothing cached or read afterwards is older than the change.
 */
export class ReadReplica {
  private downUntil = 0;
  /** the primary's WAL position the replica was last seen behind, while it lags */
  private behind: string | null = null;
  private recheck: Promise<void> | null = null;

  constructor(
    readonly sql: Sql,
    private readonly primary: Sql,
    private readonly options: { maxLagMs: number; retryMs: number; now?: () => number } = { maxLagMs: 2_000, retryMs: 5_000 },
  ) {}

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  /** Whether reads may go to the replica now. A lagging replica is checked again (once at a time) when asked. */
  usable(): boolean {
    if (this.now() < this.downUntil) return false;
    if (this.behind !== null) {
      this.recheck ??= this.caughtUp(this.behind)
        .then((ok) => {
          if (ok) this.behind = null;
        })
        .catch(() => this.markDown())
        .finally(() => (this.recheck = null));
      return false;
    }
    return true;
  }

  /** The replica failed a read: send reads to the primary for a while. */
  markDown(): void {
    this.downUntil = this.now() + this.options.retryMs;
  }

  private async caughtUp(lsn: string): Promise<boolean> {
    const [r] = await this.sql<{ ok: boolean | null }[]>`SELECT NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS ok`;
    return r?.ok === true;
  }

  /**
   * Resolves once the replica has replayed everything the primary had committed when called, or
   * after `maxLagMs` (the replica is then set aside until it catches up) or when it cannot be
   * reached (set aside for `retryMs`). Either way, reads then see the change.
   */
  async replayed(): Promise<void> {
    let lsn: string;
    try {
      const [r] = await this.primary<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`;
      lsn = r!.lsn;
    } catch {
      return; // the primary is away: nothing is read from anywhere until it is back
    }
    const deadline = this.now() + this.options.maxLagMs;
    try {
      for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
        if (await this.caughtUp(lsn)) return;
        if (this.now() >= deadline) {
          this.behind = lsn;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } catch {
      this.markDown();
    }
  }
}
