import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { DATASETS } from '../domain/bulk/datasets.ts';
import { exactDecimal, ParquetWriter } from '../export/parquet-writer.ts';

const FINANCIALS = DATASETS.find((d) => d.dataset === 'financials')!;

/** CSV text as PostgreSQL's COPY writes it: quoted when a value holds a comma, quote or newline. */
function field(v: string | null): string {
  if (v === null) return '';
  return /[",\n\r]/.test(v) || v === '' ? `"${v.replaceAll('"', '""')}"` : v;
}

/** `rows` financials records of fiscal year `year` (the part column first), with awkward values. */
function financialsCsv(year: number, rows: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const n = (i * 7919 + seed * 104729) % 1_000_003;
    const value = `${n % 3 === 0 ? '-' : ''}${n}${n % 5 === 0 ? '' : `.${String(n).padStart(14, '0').slice(0, 13)}`}`;
    const concept = n % 11 === 0 ? `us-gaap:"Odd", name\nwith é ${n}` : `us-gaap:Concept${n % 97}`;
    out.push(
      [
        String(year),
        `00000000-0000-4000-8000-${String(seed).padStart(4, '0')}${String(Math.floor(i / 20)).padStart(8, '0')}`,
        '0000320193',
        'INCOME_STATEMENT',
        String(year),
        'FY',
        `METRIC_${String(i % 20).padStart(2, '0')}`,
        value,
        'USD',
        n % 4 === 0 ? null : `${year}-01-01`,
        `${year}-12-31`,
        '0000320193-21-000105',
        n % 13 === 0 ? null : concept,
        null,
        'CANDIDATE_ORDER',
        'SOURCE',
        null,
        n % 17 === 0 ? '12.5' : null,
        `${year + 1}-02-01`,
      ]
        .map(field)
        .join(',') + '\n',
    );
  }
  return out.join('');
}

describe('Parquet writer: parts batched into one statement', () => {
  let dir: string;
  const sha = async (p: string) => createHash('sha256').update(await readFile(p)).digest('hex');

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fds-pq-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each part byte for byte as a COPY of that part alone, whatever batch it went in', async () => {
    const parts = [
      { year: 2019, rows: 1 },
      { year: 2020, rows: 2500 },
      { year: 2021, rows: 40 },
      { year: 2022, rows: 9000 },
      { year: 2023, rows: 777 },
    ];
    await mkdir(path.join(dir, 'csv'));
    const csvs = await Promise.all(
      parts.map(async (p, i) => {
        const csv = path.join(dir, 'csv', `rows-${i}.csv`);
        await writeFile(csv, financialsCsv(p.year, p.rows, i + 1));
        return csv;
      }),
    );
    const writeAll = async (name: string, batchRows: number | undefined, oneAtATime: boolean, connections = 1, tailConnections?: number) => {
      const work = path.join(dir, name);
      await mkdir(work);
      const writer = await ParquetWriter.open(path.join(work, 'spill'), work, { batchRows, connections, tailConnections });
      try {
        // twice: the second round's batches go through the directories the first one left
        const outs: string[] = [];
        for (const round of [0, 1]) {
          const mine = parts.map((_, i) => path.join(work, `part-${i}-${round}.parquet`));
          if (oneAtATime) for (const [i, p] of parts.entries()) await writer.write(FINANCIALS, csvs[i]!, mine[i]!, p.rows);
          else {
            const written = Promise.all(parts.map((p, i) => writer.write(FINANCIALS, csvs[i]!, mine[i]!, p.rows)));
            // the tail connections join in before the queued parts go out (a no-op without them)
            if (round === 0) writer.streamsDone();
            await written;
          }
          outs.push(...mine);
        }
        statements.set(name, writer.statementsPerConnection());
        return outs;
      } finally {
        writer.close();
      }
    };
    const statements = new Map<string, number[]>();
    // batchRows 0: every part alone through a plain COPY to its file (the writer before batching)
    const alone = await writeAll('alone', 0, true);
    // one connection: all five in one statement; two: batches of about half the rows side by side
    // (four parts and one); one while rows stream and a second joining for the tail: the same halves
    const batched = await writeAll('batched', undefined, false);
    const halves = await writeAll('halves', undefined, false, 2);
    const tail = await writeAll('tail', undefined, false, 1, 2);
    const single = await writeAll('single', undefined, true);
    // the tail connection took its share: round 0 over both, round 1 (after streamsDone) too
    assert.deepEqual(statements.get('batched'), [2]);
    assert.deepEqual(statements.get('tail'), [2, 2]);
    assert.deepEqual(statements.get('halves'), [2, 2]);
    assert.deepEqual(statements.get('alone'), [10]);
    for (let i = 0; i < parts.length * 2; i++) {
      assert.equal(await sha(batched[i]!), await sha(alone[i % parts.length]!), `part ${i % parts.length} batched, round ${Math.floor(i / parts.length)}`);
      assert.equal(await sha(halves[i]!), await sha(alone[i % parts.length]!), `part ${i % parts.length} in halves, round ${Math.floor(i / parts.length)}`);
      assert.equal(await sha(tail[i]!), await sha(alone[i % parts.length]!), `part ${i % parts.length} with a tail connection, round ${Math.floor(i / parts.length)}`);
      assert.equal(await sha(single[i]!), await sha(alone[i]!), `part ${i} in a batch of one`);
    }

    // and what is in them: each part's rows, in order, exact decimals
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      for (const [i, p] of parts.entries()) {
        const r = await conn.runAndReadAll(`SELECT count(*)::INTEGER, min(fiscal_year), max(fiscal_year), bool_and(typeof(value) = 'DECIMAL(38,12)') FROM read_parquet('${batched[i]}')`);
        assert.deepEqual(r.getRows()[0], [p.rows, p.year, p.year, true]);
      }
      // rows in the CSV's order, awkward text intact
      const r = await conn.runAndReadAll(`SELECT metric, source_xbrl_concept FROM read_parquet('${batched[3]}')`);
      const got = r.getRows();
      assert.equal(got.length, 9000);
      assert.deepEqual(
        got.slice(0, 45).map((row) => row[0]),
        Array.from({ length: 45 }, (_, i) => `METRIC_${String(i % 20).padStart(2, '0')}`),
      );
      assert.ok(got.some((row) => typeof row[1] === 'string' && row[1].startsWith('us-gaap:"Odd", name\nwith é')));
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });

  it('turns decimal text into DECIMAL(38,12) exactly as the direct cast does, whole numbers and fractions', async () => {
    const values = [
      '0', '-0', '7', '-7', '44256000', '-285637', '383285000000', '999999999999999999', '1000000000000000000', '-1000000000000000001',
      '12345678901234567890123456', '-12345678901234567890123456', '0.5', '-0.5', '1.25', '-1.000000000001', '0.0000000000005',
      '0.0000000000004999', '-0.0000000000005', '123.4567890123456789', '-99999999999999999999999999.999999999999', '2.50', '10.', '00012', '-00012.10',
    ];
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      await conn.run(`CREATE TABLE t AS SELECT unnest([${values.map((v) => `'${v}'`).join(', ')}, NULL]) AS x`);
      const rows = (await conn.runAndReadAll(`SELECT x, (${exactDecimal('x')})::VARCHAR AS fast, CAST(x AS DECIMAL(38,12))::VARCHAR AS direct, typeof(${exactDecimal('x')}) AS t FROM t`)).getRowObjects();
      assert.equal(rows.length, values.length + 1);
      for (const r of rows) {
        assert.equal(r.fast, r.direct, `${r.x}`);
        assert.equal(r.t, 'DECIMAL(38,12)');
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });

  it('fails every part of a batch whose statement fails, and the writer goes on with the next', async () => {
    const work = path.join(dir, 'failing');
    await mkdir(work);
    const good = path.join(work, 'good.csv');
    const bad = path.join(work, 'bad.csv');
    await writeFile(good, financialsCsv(2020, 3, 9));
    await writeFile(bad, '2020,not-a-decimal-row\n');
    // one connection (the default): both parts wait for it and go in one statement
    const writer = await ParquetWriter.open(path.join(work, 'spill'), work);
    try {
      const results = await Promise.allSettled([
        writer.write(FINANCIALS, good, path.join(work, 'a.parquet'), 3),
        writer.write(FINANCIALS, bad, path.join(work, 'b.parquet'), 1),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['rejected', 'rejected'],
      );
      await writer.write(FINANCIALS, good, path.join(work, 'c.parquet'), 3);
      assert.ok((await readFile(path.join(work, 'c.parquet'))).length > 0);
    } finally {
      writer.close();
    }
  });
});
