import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sql } from '../db/client.ts';
import { copyLine, copyRows } from '../db/copy.ts';
import type { Database } from '../db/database.ts';
import { createTestDatabase } from './helpers/database.ts';

describe('COPY FROM STDIN (db/copy.ts)', () => {
  let db: Database;
  before(async () => {
    db = await createTestDatabase();
    await db.sql`CREATE TABLE copied (id integer PRIMARY KEY, label text, amount numeric, day date, at timestamptz, flag boolean, doc jsonb)`;
  });
  after(async () => {
    await db?.close();
  });

  it('writes a line of the text format: tab-separated, backslash, tab, newline and carriage return escaped, null as \\N', () => {
    assert.equal(copyLine(['a\tb', 'c\nd\re\\f', null, undefined, 3, true, { k: 'v\\' }]), 'a\\tb\tc\\nd\\re\\\\f\t\\N\t\\N\t3\tt\t{"k":"v\\\\\\\\"}\n');
  });

  it('stores every value exactly as the column reads it from text: exact decimals, dates, awkward text, JSON with escapes', async () => {
    const awkward = 'tab\there, newline\nthere, CR\r, backslash \\ and \\N, quote " and unicode é€𝄞';
    const rows = [
      [1, awkward, '123456789012345678901234.000001', '2024-02-29', '2024-03-01T12:34:56.789Z', true, { text: awkward, value: '-0.10', list: [1, null, 'a\\b'] }],
      [2, '', '-0.000000000001', null, null, false, []],
      [3, null, null, null, null, null, null],
    ];
    await db.sql.begin(async (tx) => {
      assert.equal(await copyRows(tx as unknown as Sql, 'copied', ['id', 'label', 'amount', 'day', 'at', 'flag', 'doc'], rows), 3);
    });
    const stored = await db.sql<{ id: number; label: string | null; amount: string | null; day: string | null; at: string | null; flag: boolean | null; doc: unknown }[]>`
      SELECT id, label, amount::text AS amount, day, at, flag, doc FROM copied ORDER BY id`;
    assert.deepEqual(stored.map((r) => ({ ...r })), [
      { id: 1, label: awkward, amount: '123456789012345678901234.000001', day: '2024-02-29', at: '2024-03-01T12:34:56.789Z', flag: true, doc: { text: awkward, value: '-0.10', list: [1, null, 'a\\b'] } },
      { id: 2, label: '', amount: '-0.000000000001', day: null, at: null, flag: false, doc: [] },
      { id: 3, label: null, amount: null, day: null, at: null, flag: null, doc: null },
    ]);
  });

  it('rejects with the server error when a row breaks a constraint, rolls the transaction back, and leaves the pool usable', async () => {
    await assert.rejects(
      db.sql.begin(async (tx) => {
        await copyRows(tx as unknown as Sql, 'copied', ['id', 'label'], [[10, 'new'], [1, 'duplicate of an existing id']]);
      }),
      /duplicate key value violates unique constraint/,
    );
    const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM copied WHERE id = 10`;
    assert.equal(row!.n, 0);
  });

  it('stores nothing when the rows fail on our side midway (the COPY is abandoned), and the connection goes on', async () => {
    function* rows() {
      yield [20, 'first'];
      throw new Error('source broke');
    }
    await assert.rejects(
      db.sql.begin(async (tx) => {
        await copyRows(tx as unknown as Sql, 'copied', ['id', 'label'], rows());
      }),
      /source broke/,
    );
    await assert.rejects(
      db.sql.begin(async (tx) => {
        await copyRows(tx as unknown as Sql, 'copied', ['id', 'label'], [[21, 'one cell too many', 'x']]);
      }),
      /a row of 3 cells for 2 columns/,
    );
    const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM copied WHERE id IN (20, 21)`;
    assert.equal(row!.n, 0);
    const [one] = await db.sql<{ one: number }[]>`SELECT 1 AS one`;
    assert.equal(one!.one, 1);
  });

  it('streams many rows in chunks (more than one megabyte of text)', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [1000 + i, 'x'.repeat(300) + i, `${i}.${i}`]);
    await db.sql.begin(async (tx) => {
      await copyRows(tx as unknown as Sql, 'copied', ['id', 'label', 'amount'], rows);
    });
    const stored = await db.sql<{ id: number; label: string; amount: string }[]>`SELECT id, label, amount::text AS amount FROM copied WHERE id >= 1000 ORDER BY id`;
    assert.equal(stored.length, 5000);
    assert.deepEqual(stored.map((r) => [r.id, r.label, r.amount]), rows);
  });

  it('keeps multi-byte text whole across chunk boundaries, and sends a line longer than a chunk in one piece', async () => {
    // 2-, 3- and 4-byte UTF-8 characters, so lines end at every offset of a chunk's bytes
    const rows: [number, string][] = Array.from({ length: 3000 }, (_, i) => [10_000 + i, 'é€𝄞'.repeat(40 + (i % 7)) + i]);
    rows.push([20_000, '€'.repeat(700_000)]); // 2.1 MB as UTF-8
    await db.sql.begin(async (tx) => {
      assert.equal(await copyRows(tx as unknown as Sql, 'copied', ['id', 'label'], rows), rows.length);
    });
    const stored = await db.sql<{ id: number; label: string }[]>`SELECT id, label FROM copied WHERE id >= 10000 ORDER BY id`;
    assert.deepEqual(stored.map((r) => [r.id, r.label]), rows);
  });
});
