import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../db/database.ts';
import { exportParts } from '../export/dataset-queries.ts';
import type { PartSink } from '../export/csv-plan.ts';
import { createTestDatabase } from './helpers/database.ts';

/**
 * postgres.js pauses a connection's socket when a COPY row fills its stream's buffer (16 KB), and
 * only the stream's next read resumes it. A COPY whose every row, its end and its CommandComplete
 * arrive in one socket read (a small dataset: the companies of a corpus a few times the test one)
 * is all buffered before the export's listener is attached, so the stream has ended by the time it
 * is read: nothing resumed the socket, and the transaction's next query (the build's COMMIT) waited
 * forever, the backend "idle in transaction". Here the COPY waits on a lock while its rows cannot
 * be read yet: the lock goes and the server finishes the COPY while this process is blocked in a
 * synchronous psql, so the whole answer is waiting in the socket when the process reads it again.
 */
describe('a bulk export COPY answered in one socket read', () => {
  let db: Database;

  before(async () => {
    db = await createTestDatabase({ corpus: true });
    // longer names, for ~36 KB of companies CSV: past the stream's buffer, within one socket read (64 KB)
    let bytes = 0;
    const files = await db.sql.begin((tx) => exportParts(tx, 'companies', 1000, { open() {}, write: (b) => void (bytes += b.length), close() {} }));
    const pad = Math.max(0, Math.ceil((36_000 - bytes) / files[0]!.rows));
    await db.sql`UPDATE companies SET name = name || repeat('x', ${pad}::int)`;
  });
  after(async () => {
    await db?.close();
  });

  it('leaves the transaction able to run its next query', { timeout: 120_000 }, async () => {
    const [count] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM companies`;
    const n = count!.n;

    // the lock holder: a psql of its own, ended below by pg_terminate_backend (its lock with it)
    const holder = spawn('psql', [db.url, '-qAtc', 'BEGIN; LOCK TABLE companies IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(3600);'], {
      env: { ...process.env, PGAPPNAME: 'export-copy-socket-lock' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      let holderPid = 0;
      while (holderPid === 0) {
        const [h] = await db.sql<{ pid: number }[]>`
          SELECT pid FROM pg_stat_activity WHERE application_name = 'export-copy-socket-lock' AND query LIKE '%pg_sleep%' AND state = 'active'`;
        if (h) holderPid = h.pid;
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }

      let rows = 0;
      let bytes = 0;
      const sink: PartSink = { open() {}, write: (b) => void (bytes += b.length), close: (f) => void (rows += f.rows) };
      const next = await db.sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
        const [r] = await tx<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        const copying = exportParts(tx, 'companies', 1000, sink);
        // the COPY is sent and waits for the lock
        for (;;) {
          const [w] = await db.sql<{ wait: string | null }[]>`SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = ${r!.pid}`;
          if (w?.wait === 'Lock') break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        // blocked here until the server has sent the whole COPY (its backend idle in the transaction)
        execFileSync('psql', [
          db.url,
          '-v',
          'ON_ERROR_STOP=1',
          '-qAtc',
          `SELECT pg_terminate_backend(${holderPid});
           DO $$ BEGIN
             WHILE coalesce((SELECT state FROM pg_stat_activity WHERE pid = ${r!.pid}), '') <> 'idle in transaction' LOOP
               PERFORM pg_stat_clear_snapshot();
               PERFORM pg_sleep(0.005);
             END LOOP;
           END $$;`,
        ]);
        const files = await copying;
        assert.equal(files.length, 1);
        const [one] = await tx<{ one: number }[]>`SELECT 1 AS one`;
        return one!.one;
      });
      assert.equal(next, 1);
      assert.equal(rows, n);
      // the condition: past the stream's buffer, within one socket read
      assert.ok(bytes > 16_384 && bytes < 65_536, `companies CSV of ${bytes} bytes`);
    } finally {
      holder.kill();
      await exited;
    }
  });
});
