import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../db/database.ts';
import { refreshStaleStatistics } from '../db/table-statistics.ts';
import { createTestDatabase } from './helpers/database.ts';

/** Writes `rows` rows into `table` on one connection and makes sure the table counters have them. */
async function grow(db: Database, table: string, rows: number): Promise<void> {
  await db.sql.begin(async (tx) => {
    await tx`INSERT INTO ${tx(table)} SELECT generate_series(1, ${rows})`;
  });
  await db.sql.reserve().then(async (c) => {
    try {
      await c`SELECT pg_stat_force_next_flush()`;
      await c`SELECT 1`;
    } finally {
      c.release();
    }
  });
  // the cumulative statistics reach pg_stat_user_tables when a backend reports them
  for (let i = 0; i < 50; i++) {
    const [r] = await db.sql<{ n: string }[]>`SELECT n_mod_since_analyze::text AS n FROM pg_stat_user_tables WHERE relname = ${table}`;
    if (r && Number(r.n) >= rows) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`the counters of ${table} never showed ${rows} changed rows`);
}

async function analyzedTables(db: Database): Promise<string[]> {
  const rows = await db.sql<{ relname: string }[]>`
    SELECT relname FROM pg_stat_user_tables WHERE relname LIKE 'stats_probe_%' AND last_analyze IS NOT NULL ORDER BY relname`;
  return rows.map((r) => r.relname);
}

describe('planner statistics after an ingestion run (db/table-statistics.ts)', () => {
  let db: Database;
  before(async () => {
    db = await createTestDatabase();
    await db.sql`CREATE TABLE stats_probe_big (x int)`;
    await db.sql`CREATE TABLE stats_probe_small (x int)`;
  });
  after(async () => {
    await db?.close();
  });

  it('analyzes a table that changed by more than autovacuum\'s threshold and leaves one that changed less', async () => {
    await grow(db, 'stats_probe_big', 1000);
    await grow(db, 'stats_probe_small', 20);
    assert.deepEqual(await refreshStaleStatistics(db.sql), ['public.stats_probe_big']);
    assert.deepEqual(await analyzedTables(db), ['stats_probe_big']);
    const [est] = await db.sql<{ reltuples: number }[]>`SELECT reltuples FROM pg_class WHERE relname = 'stats_probe_big'`;
    assert.equal(est!.reltuples, 1000);
  });

  it('analyzes nothing again until a table changes by a tenth more', async () => {
    assert.deepEqual(await refreshStaleStatistics(db.sql), []);
    await grow(db, 'stats_probe_big', 200);
    assert.deepEqual(await refreshStaleStatistics(db.sql), ['public.stats_probe_big']);
  });
});
