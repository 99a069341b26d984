import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sql } from '../db/client.ts';
import postgres from 'postgres';
import { copyRows, copyRowsBinary, type BinaryType } from '../db/copy.ts';
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

describe('binary COPY (db/copy.ts copyRowsBinary)', () => {
  let db: Database;
  /** the statements sent, to tell which format a COPY went out in */
  const sent: string[] = [];
  let sql: Sql;
  const COLUMNS: { name: string; type: BinaryType }[] = [
    { name: 'id', type: 'uuid' }, { name: 'code', type: 'text' }, { name: 'label', type: 'text' }, { name: 'n', type: 'int4' },
    { name: 'big', type: 'int8' }, { name: 'day', type: 'date' }, { name: 'at', type: 'timestamptz' }, { name: 'doc', type: 'jsonb' },
  ];
  const TABLE = `(id uuid PRIMARY KEY, code char(10), label text, n integer, big bigint, day date, at timestamptz, doc jsonb)`;
  const stored = (table: string) =>
    db.sql<Record<string, unknown>[]>`SELECT id::text, code, label, n, big::text, day, at::text, doc FROM ${db.sql(table)} ORDER BY id`.then((rows) => rows.map((r) => ({ ...r })));
  before(async () => {
    db = await createTestDatabase();
    await db.sql.unsafe(`CREATE TABLE as_binary ${TABLE}; CREATE TABLE as_text ${TABLE}`);
    sql = postgres(db.url, { max: 1, onnotice: () => {}, debug: (_connection, query) => sent.push(query) }) as unknown as Sql;
  });
  after(async () => {
    await sql?.end();
    await db?.close();
  });

  it('stores every value exactly as the text format does: uuids, char(n), awkward and multi-byte text, integers, dates, timestamps to the microsecond, JSON with escapes, nulls', async () => {
    const awkward = 'tab\there, newline\nthere, CR\r, backslash \\ and \\N, quote " and unicode é€𝄞';
    const rows = [
      ['0b6e2f4c-3a1d-4e5f-8a9b-0c1d2e3f4a5b', '0000320193', awkward, -2_147_483_648, 9_007_199_254_740_991, '2024-02-29', '2024-11-01T18:01:36.000Z', { text: awkward, value: '-0.10', list: [1, null, 'a\\b'] }],
      ['FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF', '42', '', 2_147_483_647, -1, '1999-12-31', '1970-01-01T00:00:00.123456Z', []],
      ['00000000-0000-0000-0000-000000000000', null, null, null, null, '0001-01-01', '2000-01-01T00:00:00Z', '{"as":"text"}'],
      ['12345678-90ab-cdef-1234-567890abcdef', null, null, null, null, null, null, null],
    ];
    sent.length = 0;
    await sql.begin(async (tx) => {
      assert.equal(await copyRowsBinary(tx as unknown as Sql, 'as_binary', COLUMNS, rows), rows.length);
    });
    assert.ok(sent.some((q) => q.includes('FORMAT binary')), sent.join('\n'));
    await db.sql.begin((tx) => copyRows(tx as unknown as Sql, 'as_text', COLUMNS.map((c) => c.name), rows));
    const binary = await stored('as_binary');
    assert.deepEqual(binary, await stored('as_text'));
    assert.equal(binary.length, rows.length);
  });

  it('sends rows as text when a value is not in the one form its binary encoding states (a timestamp with an offset, a uuid in braces, a date not zero-padded), and the server reads them as before', async () => {
    const rows = [
      ['{5b6e2f4c-3a1d-4e5f-8a9b-0c1d2e3f4a5b}', 'x', 'offset', 1, 1, '2024-2-9', '2024-11-01 18:01:36+02', { k: 1 }],
      ['6b6e2f4c-3a1d-4e5f-8a9b-0c1d2e3f4a5b', 'y', 'plain', 2, 2, '2024-02-09', '2024-11-01T18:01:36Z', { k: 2 }],
    ];
    sent.length = 0;
    await sql.begin((tx) => copyRowsBinary(tx as unknown as Sql, 'as_binary', COLUMNS, rows));
    assert.ok(sent.some((q) => q.startsWith('COPY') && !q.includes('FORMAT binary')), sent.join('\n'));
    await db.sql.begin((tx) => copyRows(tx as unknown as Sql, 'as_text', COLUMNS.map((c) => c.name), rows));
    assert.deepEqual(await stored('as_binary'), await stored('as_text'));
  });

  it('keeps rows whole across chunk boundaries in the binary format too, a row longer than a chunk included', async () => {
    await db.sql`CREATE TABLE long_binary (id uuid PRIMARY KEY, label text, doc jsonb)`;
    const id = (i: number) => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
    const rows: [string, string, object][] = Array.from({ length: 3000 }, (_, i) => [id(i), 'é€𝄞'.repeat(40 + (i % 7)) + i, { i, text: '€'.repeat(i % 50) }]);
    rows.push([id(99_999), '€'.repeat(700_000), { long: '𝄞'.repeat(200_000) }]); // 2.1 MB and 0.8 MB as UTF-8
    sent.length = 0;
    await sql.begin((tx) => copyRowsBinary(tx as unknown as Sql, 'long_binary', [{ name: 'id', type: 'uuid' }, { name: 'label', type: 'text' }, { name: 'doc', type: 'jsonb' }], rows));
    assert.ok(sent.some((q) => q.includes('FORMAT binary')));
    const back = await db.sql<{ id: string; label: string; doc: object }[]>`SELECT id::text, label, doc FROM long_binary ORDER BY id`;
    assert.deepEqual(back.map((r) => [r.id, r.label, r.doc]), rows);
  });

  it('rejects what the server rejects, as the text format does (a day that does not exist, a duplicate key), and stores none of the rows', async () => {
    await assert.rejects(
      sql.begin((tx) => copyRowsBinary(tx as unknown as Sql, 'as_binary', COLUMNS, [['7b6e2f4c-3a1d-4e5f-8a9b-0c1d2e3f4a5b', 'z', 'bad day', 3, 3, '2023-02-30', null, null]])),
      /date\/time field value out of range|out of range/,
    );
    await assert.rejects(
      sql.begin((tx) =>
        copyRowsBinary(tx as unknown as Sql, 'as_binary', COLUMNS, [
          ['8b6e2f4c-3a1d-4e5f-8a9b-0c1d2e3f4a5b', 'new', null, null, null, null, null, null],
          ['0b6e2f4c-3a1d-4e5f-8a9b-0c1d2e3f4a5b', 'duplicate', null, null, null, null, null, null],
        ]),
      ),
      /duplicate key value violates unique constraint/,
    );
    const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM as_binary WHERE id IN ('7b6e2f4c-3a1d-4e5f-8a9b-0c1d2e3f4a5b', '8b6e2f4c-3a1d-4e5f-8a9b-0c1d2e3f4a5b')`;
    assert.equal(row!.n, 0);
  });
});
