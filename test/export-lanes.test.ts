import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type Sql } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import { buildSnapshot, SCRATCH } from '../export/build.ts';
import { importSnapshot } from '../export/dataset-queries.ts';
import { LocalStore } from '../export/local-store.ts';
import type { DatasetName } from '../domain/bulk/datasets.ts';
import { createTestDatabase } from './helpers/database.ts';

describe('bulk export over two transactions reading one snapshot, and its shared scratch space', () => {
  let db: Database;
  let dir: string;
  let clock = Date.UTC(2026, 10, 2, 4, 30, 0);
  let files: unknown[] = [];

  before(async () => {
    db = await createTestDatabase({ corpus: true });
    dir = await mkdtemp(path.join(tmpdir(), 'fds-lanes-'));
  });
  after(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const build = (sql: Sql, rowsPerFile?: Partial<Record<DatasetName, number>>) => {
    clock += 1000;
    const store = new LocalStore({ root: path.join(dir, 'store'), secret: Buffer.from('t'), baseUrl: () => 'http://127.0.0.1' });
    return buildSnapshot({ sql, store, stagingDir: path.join(dir, 'staging'), now: () => new Date(clock) }, { full: true, rowsPerFile });
  };

  it('a transaction that imports the exported snapshot reads what the exporting one reads, not a later commit', async () => {
    const [filing] = await db.sql<{ accession: string; form: string }[]>`SELECT accession, form FROM filings ORDER BY accession LIMIT 1`;
    const seen: string[] = [];
    await db.sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
      const [exported] = await tx<{ snapshot: string }[]>`SELECT pg_export_snapshot() AS snapshot`;
      // committed after the snapshot: neither transaction may see it
      await db.sql`UPDATE filings SET form = 'LATER' WHERE accession = ${filing!.accession}`;
      await db.sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (other) => {
        await importSnapshot(other as unknown as Sql, exported!.snapshot);
        const [r] = await other<{ form: string }[]>`SELECT form FROM filings WHERE accession = ${filing!.accession}`;
        seen.push(r!.form);
      });
      const [r] = await tx<{ form: string }[]>`SELECT form FROM filings WHERE accession = ${filing!.accession}`;
      seen.push(r!.form);
    });
    await db.sql`UPDATE filings SET form = ${filing!.form} WHERE accession = ${filing!.accession}`;
    assert.deepEqual(seen, [filing!.form, filing!.form]);
    await assert.rejects(
      db.sql.begin(async (tx) => importSnapshot(tx as unknown as Sql, "x'; DROP TABLE filings; --")),
      /not a snapshot id/,
    );
  });

  it('writes the same files over two transactions as over one (a pool too small for two streams uses one)', async () => {
    const two = await build(db.sql);
    // two connections: the build lock's and one reading transaction, so all six stream on it
    const small = connect(db.url, { max: 2 });
    try {
      const one = await build(small);
      assert.equal(one.manifest.files.length, two.manifest.files.length);
      assert.deepEqual(
        one.manifest.files.map((f) => [f.path, f.rows, f.sha256]),
        two.manifest.files.map((f) => [f.path, f.rows, f.sha256]),
      );
    } finally {
      await small.end({ timeout: 5 });
    }
    files = two.manifest.files.map((f) => [f.path, f.rows, f.sha256]);
  });

  it('writes the same small parts whichever way they are batched: ~1,400 files over streaming batches and the tail connection', async () => {
    // small parts: many batch statements while rows stream (each stopping at ~25k rows or 64
    // files), then the queue shared over two DuckDB connections; the one-transaction build streams
    // in another order, so its parts are batched differently
    const small = { financials: 97, filings: 97, statements: 97, segments: 97, disclosures: 97 };
    const two = await build(db.sql, small);
    const pool = connect(db.url, { max: 2 });
    try {
      const one = await build(pool, small);
      assert.ok(two.manifest.files.length > 1000, `${two.manifest.files.length} files`);
      assert.deepEqual(
        one.manifest.files.map((f) => [f.path, f.rows, f.sha256]),
        two.manifest.files.map((f) => [f.path, f.rows, f.sha256]),
      );
    } finally {
      await pool.end({ timeout: 5 });
    }
  });

  it('overwrites what a killed build left in the scratch files, however long, and leaves them empty', async () => {
    const scratch = path.join(dir, 'staging', SCRATCH);
    // longer than any part's CSV, with records DuckDB would read if they were left in place
    const junk = '2020,junk\n'.repeat(400_000);
    for (let i = 0; i < 120; i++) await writeFile(path.join(scratch, `rows-${i}.csv`), junk);
    const again = await build(db.sql);
    assert.deepEqual(
      again.manifest.files.map((f) => [f.path, f.rows, f.sha256]),
      files,
    );
    for (const name of await readdir(scratch)) {
      if (name.endsWith('.csv')) assert.equal((await stat(path.join(scratch, name))).size, 0, name);
    }
  });
});
