import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { Decimal } from 'decimal.js';
import { parquetMetadataAsync } from 'hyparquet';
import { DAILY_BYTE_CAP } from '../domain/bulk-budget.ts';
import type { Sql } from '../db/client.ts';
import { buildSnapshot, type BuildOptions, type BuildResult } from '../export/build.ts';
import { exportParts } from '../export/dataset-queries.ts';
import { DATASETS } from '../domain/bulk/datasets.ts';
import { snapshotIdOf, type Manifest } from '../domain/bulk/manifest.ts';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const APPLE = '0000320193';
const PATH_SHAPE = /^(companies\/part-\d{4}\.parquet|(filings\/filing_year|statements\/fiscal_year|financials\/fiscal_year|segments\/fiscal_year|disclosures\/report_year)_\d{4}\/part-\d{4}\.parquet)$/;

describe('bulk export on the real corpus (local store, service routes)', () => {
  let svc: TestService;
  let dir: string;
  let clock = Date.UTC(2026, 10, 2, 4, 30, 0);
  const now = () => new Date(clock);
  const published: Manifest[] = [];

  const build = async (full = false, rowsPerFile?: BuildOptions['rowsPerFile']): Promise<BuildResult> => {
    const r = await buildSnapshot(
      { sql: svc.sql, store: svc.running.services.bulkStore, stagingDir: path.join(dir, 'staging'), now },
      { full, rowsPerFile },
    );
    published.push(r.manifest);
    return r;
  };
  const api = (p: string, key = svc.keys.scale) => get(`${svc.baseUrl}${p}`, key);
  const storeFile = (snapshotId: string, p: string) => path.join(dir, 'store', snapshotId, p);
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fds-export-'));
    svc = await startTestService({ bulkDir: dir, exportSchedule: false }, now);
  });
  after(async () => {
    await svc?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers BULK_SNAPSHOT_NOT_FOUND for latest before anything is published, and refuses plans below Scale', async () => {
    const none = await api('/v1/bulk/snapshots/latest');
    assert.equal(none.status, 404);
    assert.equal(none.body.error.code, 'BULK_SNAPSHOT_NOT_FOUND');
    const list = await api('/v1/bulk/snapshots');
    assert.deepEqual([list.status, list.body.total, list.body.items], [200, 0, []]);
    for (const key of [svc.keys.free, svc.keys.growth]) {
      const r = await api('/v1/bulk/datasets', key);
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'FEATURE_NOT_AVAILABLE');
      assert.equal(r.body.error.details.required_tier, 'scale');
    }
    assert.equal((await api('/v1/bulk/datasets', svc.keys.enterprise)).status, 200);
  });

  it('describes the six datasets with keys, partition column and columns in file order', async () => {
    const r = await api('/v1/bulk/datasets');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.map((d: any) => [d.dataset, d.partition_column]), [
      ['companies', null],
      ['filings', 'filing_year'],
      ['statements', 'fiscal_year'],
      ['financials', 'fiscal_year'],
      ['segments', 'fiscal_year'],
      ['disclosures', 'report_year'],
    ]);
    const financials = r.body.data.find((d: any) => d.dataset === 'financials');
    assert.deepEqual(financials.key, ['statement_version_id', 'metric']);
    assert.deepEqual(financials.columns.find((c: any) => c.name === 'value'), { ...financials.columns.find((c: any) => c.name === 'value'), type: 'DECIMAL(38,12)', nullable: false });
    assert.ok(financials.columns.every((c: any) => c.name && c.type && typeof c.nullable === 'boolean' && c.description), 'every column has name, type, nullable, description');
  });

  it('publishes a full build whose manifest counts every row of the corpus, served statements once each', async () => {
    const r = await build(true);
    const m = r.manifest;
    assert.equal(m.snapshot_id, snapshotIdOf(now()));
    assert.equal(m.snapshot_id, '20261102T043000Z');
    assert.deepEqual([m.build_kind, m.format_version, m.previous_snapshot_id], ['full', 1, null]);
    const [counts] = await svc.sql<Record<string, string>[]>`
      SELECT (SELECT count(*) FROM companies)::text AS companies, (SELECT count(*) FROM filings)::text AS filings,
             (SELECT count(DISTINCT (cik, statement_type, fiscal_year, fiscal_period)) FROM statement_versions)::text AS statements,
             (SELECT sum(n) FROM (SELECT DISTINCT ON (cik, statement_type, fiscal_year, fiscal_period) (SELECT count(*) FROM jsonb_object_keys(figures)) AS n
                FROM statement_versions ORDER BY cik, statement_type, fiscal_year, fiscal_period, version_sequence DESC) s)::text AS financials,
             (SELECT count(*) FROM segment_facts)::text AS segments, (SELECT count(*) FROM disclosures)::text AS disclosures`;
    for (const d of m.datasets) assert.equal(String(d.rows), counts![d.dataset], `${d.dataset} rows`);
    assert.ok(Number(counts!.statements) < (await svc.sql`SELECT count(*)::int AS n FROM statement_versions`)[0]!.n, 'the corpus has restated versions, exported once each');
    assert.equal(m.rows, m.datasets.reduce((n, d) => n + d.rows, 0));
    assert.equal(m.bytes, m.files.reduce((n, f) => n + f.bytes, 0));
    for (const f of m.files) {
      assert.match(f.path, PATH_SHAPE);
      assert.equal(f.changed, true);
      assert.equal(f.partition === null, f.dataset === 'companies', `${f.path} partition`);
      if (f.partition) assert.ok(f.path.startsWith(`${f.dataset}/${f.partition.column}_${f.partition.value}/`), `${f.path} sits in its partition directory`);
    }
    assert.equal(new Set(m.files.map((f) => f.path)).size, m.files.length, 'paths are unique');
    const served = await api('/v1/bulk/snapshots/latest');
    assert.deepEqual(served.body.data, m);
    assert.deepEqual((await api(`/v1/bulk/snapshots/${m.snapshot_id}`)).body.data, m);
  });

  it('grants a keyless URL whose bytes match sha256, and DuckDB reads exact decimals, zstd and UTC timestamps back', async () => {
    const m = published[0]!;
    const file = m.files.find((f) => f.path === 'financials/fiscal_year_2023/part-0000.parquet')!;
    assert.ok(file, 'a FY2023 financials file');
    const g = await api(`/v1/bulk/snapshots/${m.snapshot_id}/files/${file.path}`);
    assert.equal(g.status, 200, g.text);
    assert.deepEqual({ ...g.body.data, url: undefined, expires_at: undefined }, { snapshot_id: m.snapshot_id, file_path: file.path, url: undefined, expires_at: undefined, bytes: file.bytes, sha256: file.sha256 });
    assert.equal(new Date(g.body.data.expires_at).getTime(), clock + 10 * 60_000);
    const res = await fetch(g.body.data.url);
    assert.equal(res.status, 200);
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(bytes.length, file.bytes);
    assert.equal(sha(bytes), file.sha256);

    const local = path.join(dir, 'downloaded.parquet');
    await writeFile(local, bytes);
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    try {
      const [version] = await svc.sql<{ id: string; figures: Record<string, { value: string }> }[]>`
        SELECT statement_version_id::text AS id, figures FROM statement_versions
        WHERE cik = ${APPLE} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2023 AND fiscal_period = 'FY'
        ORDER BY version_sequence DESC LIMIT 1`;
      const rows = (await conn.runAndReadAll(`SELECT metric, value::VARCHAR AS v FROM read_parquet('${local}') WHERE statement_version_id = '${version!.id}'`)).getRowObjects();
      assert.equal(rows.length, Object.keys(version!.figures).length);
      for (const r of rows) assert.ok(new Decimal(String(r.v)).equals(new Decimal(version!.figures[String(r.metric)]!.value)), `${r.metric}: ${r.v}`);
      // every value of the file, fractions and negatives included, equals the served figure exactly
      const all = (await conn.runAndReadAll(`SELECT statement_version_id AS id, metric, value::VARCHAR AS v, as_filed_value::VARCHAR AS f FROM read_parquet('${local}')`)).getRowObjects();
      const servedFigures = await svc.sql<{ id: string; metric: string; v: string; f: string | null }[]>`
        SELECT v.statement_version_id::text AS id, e.key AS metric, e.value->>'value' AS v, e.value->>'as_filed_value' AS f
        FROM (SELECT DISTINCT ON (cik, statement_type, fiscal_year, fiscal_period) * FROM statement_versions
              WHERE fiscal_year = 2023 ORDER BY cik, statement_type, fiscal_year, fiscal_period, version_sequence DESC) v,
             jsonb_each(v.figures) e`;
      const want = new Map(servedFigures.map((x) => [`${x.id} ${x.metric}`, x]));
      assert.equal(all.length, want.size);
      const wrong = all.filter((r) => {
        const w = want.get(`${r.id} ${r.metric}`);
        return !w || !new Decimal(String(r.v)).equals(new Decimal(w.v)) || (w.f === null ? r.f !== null : !new Decimal(String(r.f)).equals(new Decimal(w.f)));
      });
      assert.deepEqual(wrong.slice(0, 3), [], `${wrong.length} values differ`);
      assert.ok(all.some((r) => String(r.v).startsWith('-')) && all.some((r) => !String(r.v).endsWith('.000000000000')), 'the file holds negative and fractional values');
      const revenue = rows.find((r) => r.metric === 'REVENUE');
      assert.equal(String(revenue?.v), '383285000000.000000000000');
      const codecs = (await conn.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${local}')`)).getRowObjects();
      assert.deepEqual(codecs.map((c) => c.compression), ['ZSTD']);
      const schema = (await conn.runAndReadAll(`SELECT name, logical_type, converted_type FROM parquet_schema('${local}')`)).getRowObjects();
      const of = (n: string) => schema.find((s) => s.name === n)!;
      assert.match(String(of('value').logical_type), /DecimalType\(scale=12, precision=38\)/);
      assert.match(String(of('period_end').converted_type ?? of('period_end').logical_type), /DATE/);
      // the companies file has the one timestamp column besides lists
      const companies = storeFile(m.snapshot_id, 'companies/part-0000.parquet');
      const cs = (await conn.runAndReadAll(`SELECT name, logical_type FROM parquet_schema('${companies}')`)).getRowObjects();
      assert.match(String(cs.find((s) => s.name === 'source_loaded_at')!.logical_type), /TimestampType\(isAdjustedToUTC=1/);
    } finally {
      conn.closeSync();
      duck.closeSync();
    }

    // a second, independent reader (hyparquet, pure JS) agrees on codec and logical types
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const meta = await parquetMetadataAsync({ byteLength: buf.byteLength, slice: async (s: number, e?: number) => buf.slice(s, e) });
    const value = meta.schema.find((s: any) => s.name === 'value') as any;
    assert.deepEqual([value.logical_type?.type, value.precision, value.scale], ['DECIMAL', 38, 12]);
    assert.ok(meta.row_groups.every((rg: any) => rg.columns.every((c: any) => c.meta_data.codec === 'ZSTD')), 'every column chunk is zstd');
    assert.equal(Number(meta.num_rows), file.rows);
  });

  it('writes every row in file order: partitions in order, each file a run of its partition in key order', async () => {
    const m = published[0]!;
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    // each dataset's keys as its files hold them, file after file in manifest order
    const keysIn = async (dataset: string, key: string) => {
      const out: string[] = [];
      for (const f of m.files.filter((x) => x.dataset === dataset)) {
        const rows = (await conn.runAndReadAll(`SELECT ${key} AS k FROM read_parquet('${storeFile(m.snapshot_id, f.path)}')`)).getRowObjects();
        assert.equal(rows.length, f.rows, `${f.path} rows`);
        out.push(...rows.map((r) => String(r.k)));
      }
      return out;
    };
    try {
      const financials = await svc.sql<{ k: string }[]>`
        SELECT v.statement_version_id::text || ' ' || e.key AS k
        FROM (SELECT DISTINCT ON (cik, statement_type, fiscal_year, fiscal_period) * FROM statement_versions
              ORDER BY cik, statement_type, fiscal_year, fiscal_period, version_sequence DESC) v, jsonb_each(v.figures) e
        ORDER BY v.fiscal_year, v.statement_version_id, e.key`;
      assert.deepEqual(await keysIn('financials', `statement_version_id || ' ' || metric`), financials.map((r) => r.k));
      const filings = await svc.sql<{ k: string }[]>`SELECT accession AS k FROM filings ORDER BY filing_date, accession`;
      assert.deepEqual(await keysIn('filings', 'accession_id'), filings.map((r) => r.k));
      const statements = await svc.sql<{ k: string }[]>`
        SELECT statement_version_id::text AS k FROM (SELECT DISTINCT ON (cik, statement_type, fiscal_year, fiscal_period) * FROM statement_versions
          ORDER BY cik, statement_type, fiscal_year, fiscal_period, version_sequence DESC) v ORDER BY fiscal_year, statement_version_id`;
      assert.deepEqual(await keysIn('statements', 'statement_version_id'), statements.map((r) => r.k));
    } finally {
      conn.closeSync();
      duck.closeSync();
    }
  });

  it("exports each served version's metric_count as its number of figures, stored when the version was written, and counts a version stored without it", async () => {
    // every version ingestion stored carries its count
    const [stored] = await svc.sql<{ n: number; wrong: number }[]>`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE metric_count IS DISTINCT FROM (SELECT count(*) FROM jsonb_object_keys(figures)))::int AS wrong
      FROM statement_versions`;
    assert.ok(stored!.n > 0);
    assert.equal(stored!.wrong, 0);
    const m = published[0]!;
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    try {
      const files = m.files.filter((f) => f.dataset === 'statements').map((f) => `'${storeFile(m.snapshot_id, f.path)}'`);
      const rows = (await conn.runAndReadAll(`SELECT statement_version_id AS id, metric_count AS n FROM read_parquet([${files.join(', ')}])`)).getRowObjects();
      const want = new Map(
        (await svc.sql<{ id: string; n: number }[]>`
          SELECT statement_version_id::text AS id, (SELECT count(*) FROM jsonb_object_keys(figures))::int AS n FROM statement_versions`).map((r) => [r.id, r.n]),
      );
      assert.equal(rows.length, m.datasets.find((d) => d.dataset === 'statements')!.rows);
      assert.deepEqual(rows.filter((r) => Number(r.n) !== want.get(String(r.id))).slice(0, 3), []);
    } finally {
      conn.closeSync();
      duck.closeSync();
    }
    // a row stored without the count (written by hand, say) exports the same bytes: the count is taken from its figures
    const csv = async (tx: Sql) => {
      const chunks: Buffer[] = [];
      await exportParts(tx, 'statements', 1_000_000, { open() {}, write: (b) => chunks.push(Buffer.from(b)), close() {} });
      return Buffer.concat(chunks);
    };
    const rolledBack = new Error('rolled back');
    await assert.rejects(
      svc.sql.begin(async (tx) => {
        const before = await csv(tx as unknown as Sql);
        const cleared = await tx`UPDATE statement_versions SET metric_count = NULL WHERE statement_version_id IN (SELECT statement_version_id FROM statement_versions LIMIT 50)`;
        assert.equal(cleared.count, 50);
        const after = await csv(tx as unknown as Sql);
        assert.ok(before.length > 0 && after.equals(before), 'the same statements rows without the stored counts');
        throw rolledBack;
      }),
      (err) => err === rolledBack,
    );
  });

  it('carries every file forward byte-identical when an incremental build finds nothing changed', async () => {
    clock += 24 * 3600_000;
    const before = published.at(-1)!;
    const r = await build();
    const m = r.manifest;
    assert.deepEqual([m.build_kind, m.previous_snapshot_id], ['incremental', before.snapshot_id]);
    assert.equal(r.carried_forward, m.files.length);
    assert.deepEqual(m.files, before.files.map((f) => ({ ...f, changed: false })));
    assert.ok(m.datasets.every((d) => d.changed_files === 0), 'no dataset reports changed files');
    for (const f of m.files.slice(0, 12)) {
      const [a, b] = await Promise.all([readFile(storeFile(before.snapshot_id, f.path)), readFile(storeFile(m.snapshot_id, f.path))]);
      assert.ok(a.equals(b), `${f.path} is byte-identical`);
      assert.equal(sha(b), f.sha256);
    }
  });

  it('rewrites only the file whose rows changed', async () => {
    const [d] = await svc.sql<{ id: string; y: number }[]>`
      SELECT disclosure_id::text AS id, extract(year FROM coalesce(period_of_report, context_end))::int AS y FROM disclosures WHERE cik = ${APPLE} LIMIT 1`;
    await svc.sql`UPDATE disclosures SET title = title || ' (amended)' WHERE disclosure_id = ${d!.id}`;
    clock += 24 * 3600_000;
    const m = (await build()).manifest;
    const changed = m.files.filter((f) => f.changed).map((f) => f.path);
    assert.deepEqual(changed, [`disclosures/report_year_${d!.y}/part-0000.parquet`]);
    assert.equal(m.datasets.find((x) => x.dataset === 'disclosures')!.changed_files, 1);
  });

  it('publishes nothing when a build fails midway; the previous snapshot stays latest and its partial files are gone', async () => {
    const latest = published.at(-1)!;
    clock += 24 * 3600_000;
    const doomed = snapshotIdOf(now());
    // a plain file where the financials directory must go: the store's put fails after three datasets
    await mkdir(path.join(dir, 'store', doomed), { recursive: true });
    await writeFile(path.join(dir, 'store', doomed, 'financials'), 'in the way');
    await assert.rejects(build(), /financials|ENOTDIR|EEXIST/);
    const [row] = await svc.sql`SELECT status, error FROM bulk_snapshots WHERE snapshot_id = ${doomed}`;
    assert.equal(row!.status, 'failed');
    assert.deepEqual(await svc.running.services.bulkStore.list(`${doomed}/`), []);
    assert.equal((await api('/v1/bulk/snapshots/latest')).body.data.snapshot_id, latest.snapshot_id);
    const r = await api(`/v1/bulk/snapshots/${doomed}`);
    assert.deepEqual([r.status, r.body.error.code], [404, 'BULK_SNAPSHOT_NOT_FOUND']);
  });

  it('keeps the seven newest: the eighth publish expires the oldest, deletes its files and answers 410', async () => {
    while (published.length < 8) {
      clock += 24 * 3600_000;
      await build();
    }
    // the build a week after the last full one is full again; the others in between are incremental
    assert.deepEqual(
      published.map((m) => `${m.snapshot_id.slice(4, 8)} ${m.build_kind}`),
      ['1102 full', '1103 incremental', '1104 incremental', '1106 incremental', '1107 incremental', '1108 incremental', '1109 full', '1110 incremental'],
    );
    const oldest = published[0]!;
    const list = await api('/v1/bulk/snapshots?page_size=20');
    assert.deepEqual(list.body.items.map((s: any) => s.snapshot_id), published.slice(1).map((m) => m.snapshot_id).reverse());
    assert.equal(list.body.total, 7);
    assert.deepEqual(await svc.running.services.bulkStore.list(`${oldest.snapshot_id}/`), []);
    const gone = await api(`/v1/bulk/snapshots/${oldest.snapshot_id}`);
    assert.deepEqual([gone.status, gone.body.error.code], [410, 'BULK_SNAPSHOT_EXPIRED']);
    const file = await api(`/v1/bulk/snapshots/${oldest.snapshot_id}/files/companies/part-0000.parquet`);
    assert.deepEqual([file.status, file.body.error.code], [410, 'BULK_SNAPSHOT_EXPIRED']);
    // files carried forward from the expired snapshot still download from the newer ones
    const latest = published.at(-1)!;
    const g = await api(`/v1/bulk/snapshots/latest/files/companies/part-0000.parquet`);
    const bytes = Buffer.from(await (await fetch(g.body.data.url)).arrayBuffer());
    assert.equal(sha(bytes), latest.files.find((f) => f.path === 'companies/part-0000.parquet')!.sha256);
  });

  it('reads only the partitions written since the previous snapshot, and its files equal a full build of the same rows byte for byte', async () => {
    const [v] = await svc.sql<{ id: string; y: number }[]>`
      SELECT statement_version_id::text AS id, fiscal_year AS y FROM statement_versions WHERE cik = ${APPLE} ORDER BY fiscal_year DESC, version_sequence DESC LIMIT 1`;
    // an update that changes no value is no change; one that does changes its fiscal year's partitions
    await svc.sql`UPDATE filings SET form = form WHERE cik = ${APPLE}`;
    await svc.sql`UPDATE statement_versions SET accounting_standard = accounting_standard WHERE cik = ${APPLE}`;
    await svc.sql`UPDATE statement_versions SET created_at = created_at + interval '1 second' WHERE statement_version_id = ${v!.id}`;
    clock += 24 * 3600_000;
    const inc = await build();
    assert.deepEqual(inc.read, { companies: [], filings: [], statements: [String(v!.y)], financials: [String(v!.y)], segments: [], disclosures: [] });
    assert.deepEqual(inc.manifest.files.filter((f) => f.changed).map((f) => f.path), [`statements/fiscal_year_${v!.y}/part-0000.parquet`]);
    clock += 24 * 3600_000;
    const full = await build(true);
    assert.equal(Object.values(full.read).every((r) => r === null), true, 'a full build reads every partition');
    const files = (m: Manifest) => m.files.map((f) => ({ path: f.path, rows: f.rows, bytes: f.bytes, sha256: f.sha256 }));
    assert.deepEqual(files(inc.manifest), files(full.manifest));
    assert.deepEqual(inc.manifest.datasets.map((d) => [d.dataset, d.rows, d.bytes, d.files]), full.manifest.datasets.map((d) => [d.dataset, d.rows, d.bytes, d.files]));
    // after the full build, nothing written since: nothing read
    clock += 24 * 3600_000;
    const none = await build();
    assert.deepEqual(Object.values(none.read), DATASETS.map(() => []));
    assert.equal(none.carried_forward, none.manifest.files.length);
  });

  it('refuses paths outside the manifest, traversal and malformed ids', async () => {
    const id = published.at(-1)!.snapshot_id;
    const missing = await api(`/v1/bulk/snapshots/${id}/files/financials/fiscal_year_1850/part-0000.parquet`);
    assert.deepEqual([missing.status, missing.body.error.code], [404, 'BULK_FILE_NOT_FOUND']);
    const traversal = await api(`/v1/bulk/snapshots/${id}/files/financials/..%2F..%2Fsecret`);
    assert.deepEqual([traversal.status, traversal.body.error.code], [400, 'VALIDATION_ERROR']);
    const badId = await api('/v1/bulk/snapshots/yesterday');
    assert.deepEqual([badId.status, badId.body.error.code], [400, 'VALIDATION_ERROR']);
    const unknown = await api('/v1/bulk/snapshots/19990101T000000Z');
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'BULK_SNAPSHOT_NOT_FOUND']);
  });

  it("refuses a grant past the organization's 24-hour allowance with 429 and Retry-After, while a still-valid URL costs nothing", async () => {
    const m = published.at(-1)!;
    const [org] = await svc.sql<{ org_id: string }[]>`SELECT org_id::text FROM organizations WHERE name = 'test-org'`;
    const first = await api(`/v1/bulk/snapshots/${m.snapshot_id}/files/companies/part-0000.parquet`);
    assert.equal(first.status, 200, first.text);
    // the rest of the allowance was spent an hour ago on other files
    const issued = DAILY_BYTE_CAP - 1000;
    await svc.sql`
      INSERT INTO bulk_grants (org_id, snapshot_id, file_path, bytes, url, issued_at, expires_at)
      VALUES (${org!.org_id}, ${m.snapshot_id}, 'filings/filing_year_2020/part-0000.parquet', ${issued}, 'https://example.invalid/earlier',
              ${new Date(clock - 3600_000)}, ${new Date(clock - 3000_000)})`;
    const big = m.files.find((f) => f.bytes > 1000 && f.dataset !== 'companies')!;
    const refused = await api(`/v1/bulk/snapshots/${m.snapshot_id}/files/${big.path}`);
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.error.code, 'BULK_DOWNLOAD_BUDGET_EXCEEDED');
    assert.equal(refused.body.error.details.daily_byte_cap, DAILY_BYTE_CAP);
    assert.equal(refused.body.error.details.requested_bytes, big.bytes);
    assert.ok(refused.body.error.details.issued_bytes >= issued, `issued ${refused.body.error.details.issued_bytes}`);
    assert.equal(Number(refused.headers.get('retry-after')), 23 * 3600, 'enough frees up when the hour-old grant turns 24 hours old');
    const again = await api(`/v1/bulk/snapshots/${m.snapshot_id}/files/companies/part-0000.parquet`);
    assert.equal(again.status, 200, 'the still-valid URL is returned again at no cost');
    assert.equal(again.body.data.url, first.body.data.url);
  });

  it('splits a partition into parts of rows_per_file rows, numbered in row order, and carries each forward unchanged', async () => {
    clock += 24 * 3600_000;
    const split = (await build(true, { financials: 700 })).manifest;
    const whole = published.at(-2)!;
    const parts = split.files.filter((f) => f.dataset === 'financials');
    assert.equal(parts.reduce((n, f) => n + f.rows, 0), whole.datasets.find((d) => d.dataset === 'financials')!.rows);
    assert.ok(parts.length > whole.files.filter((f) => f.dataset === 'financials').length, 'more files than one per partition');
    const byPartition = new Map<string, typeof parts>();
    for (const f of parts) byPartition.set(f.partition!.value, [...(byPartition.get(f.partition!.value) ?? []), f]);
    for (const [year, files] of byPartition) {
      assert.deepEqual(files.map((f) => f.path), files.map((_, i) => `financials/fiscal_year_${year}/part-${String(i).padStart(4, '0')}.parquet`));
      assert.ok(files.slice(0, -1).every((f) => f.rows === 700) && files.at(-1)!.rows <= 700, `${year}: full parts, then the rest`);
    }
    // the parts of a partition hold its rows in key order, one after another
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    try {
      const year = [...byPartition.entries()].find(([, files]) => files.length > 2)![0];
      const list = byPartition.get(year)!.map((f) => `'${storeFile(split.snapshot_id, f.path)}'`).join(', ');
      const rows = (await conn.runAndReadAll(`SELECT statement_version_id || ' ' || metric AS k FROM read_parquet([${list}], filename = true) ORDER BY filename, file_row_number`)).getRowObjects();
      const keys = rows.map((r) => String(r.k));
      assert.deepEqual(keys, [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    } finally {
      conn.closeSync();
      duck.closeSync();
    }
    clock += 24 * 3600_000;
    const again = await build(false, { financials: 700 });
    assert.equal(again.carried_forward, split.files.length);
    assert.deepEqual(again.manifest.files, split.files.map((f) => ({ ...f, changed: false })));
  });

  it('a download URL issued before its snapshot expired, still inside its ten minutes, answers 410 BULK_SNAPSHOT_EXPIRED, not 404', async () => {
    const oldest = published.at(-7)!;
    const listed = await api('/v1/bulk/snapshots?page_size=20');
    assert.equal(listed.body.items.at(-1).snapshot_id, oldest.snapshot_id, 'the oldest of the seven kept');
    const g = await api(`/v1/bulk/snapshots/${oldest.snapshot_id}/files/companies/part-0000.parquet`);
    assert.equal(g.status, 200, g.text);
    const valid = await fetch(g.body.data.url);
    assert.equal(valid.status, 200);
    await valid.arrayBuffer();
    // a minute later the next publish expires it (and deletes its files); the URL has nine minutes left
    clock += 60_000;
    await build();
    assert.ok(new Date(g.body.data.expires_at).getTime() > clock);
    for (const method of ['GET', 'HEAD']) {
      const r = await fetch(g.body.data.url, { method });
      assert.equal(r.status, 410, `${method} ${r.status}`);
      if (method === 'GET') {
        const body = (await r.json()) as any;
        assert.equal(body.error.code, 'BULK_SNAPSHOT_EXPIRED');
        assert.equal(body.error.details.snapshot_id, oldest.snapshot_id);
        assert.equal(body.error.details.latest_snapshot_id, published.at(-1)!.snapshot_id);
      }
    }
    // as the snapshot routes answer
    const gone = await api(`/v1/bulk/snapshots/${oldest.snapshot_id}`);
    assert.deepEqual([gone.status, gone.body.error.code], [410, 'BULK_SNAPSHOT_EXPIRED']);
  });
});
