import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeZip } from '../bench/lib/archive-zips.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { enqueuePackageWindow, ingestPackageWindowJob, PACKAGE_WINDOW_TASK } from '../ingest/package-window.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { installQueue } from '../jobs/runner.ts';
import { createTestDatabase } from './helpers/database.ts';
import { SHARED_SEC } from './helpers/shared-data.ts';

const APPLE = '0000320193';
const NVIDIA = '0001045810';

/**
 * A stand-in for one SEC host: files of the mirror under <mirror>/<host>/, and for an Archives
 * folder without one, the `index.json` listing the live site publishes for every folder.
 */
function standIn(host: string, requests: string[]): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${host}${url.pathname}`);
    const file = path.join(SHARED_SEC, host, decodeURIComponent(url.pathname));
    void (async () => {
      const s = await stat(file).catch(() => null);
      if (s?.isFile()) {
        res.writeHead(200);
        createReadStream(file).pipe(res);
        return;
      }
      if (url.pathname.endsWith('/index.json')) {
        const dir = path.dirname(file);
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
        if (entries) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ directory: { item: entries.map((e) => ({ name: e.name, type: e.isDirectory() ? 'dir' : 'file' })) } }));
          return;
        }
      }
      res.writeHead(404).end();
    })();
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('filing packages for the market after a bulk load from the live site', () => {
  let dir: string;
  let db: Database;
  const requests: string[] = [];
  const servers: Server[] = [];
  let hostMap: Record<string, string>;
  let config: Config;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fds-package-window-'));
    const facts = path.join(SHARED_SEC, 'data.sec.gov/api/xbrl/companyfacts');
    const subs = path.join(SHARED_SEC, 'data.sec.gov/submissions');
    await writeZip(path.join(dir, 'companyfacts.zip'), await Promise.all([APPLE, NVIDIA].map(async (c) => ({ name: `CIK${c}.json`, data: await readFile(path.join(facts, `CIK${c}.json`)) }))));
    const subNames = (await readdir(subs)).filter((n) => n.startsWith(`CIK${APPLE}`) || n.startsWith(`CIK${NVIDIA}`));
    await writeZip(path.join(dir, 'submissions.zip'), await Promise.all(subNames.map(async (name) => ({ name, data: await readFile(path.join(subs, name)) }))));
    hostMap = {};
    for (const host of ['www.sec.gov', 'data.sec.gov']) {
      const s = standIn(host, requests);
      servers.push(s);
      hostMap[host] = await listen(s);
    }
    db = await createTestDatabase();
    await migrate(db.sql);
    await installQueue(db.url, () => {});
    config = { ...loadConfig({}), databaseUrl: db.url, secSource: 'https://www.sec.gov', secUserAgent: 'Package Window Test test@example.com' };
  });
  after(async () => {
    await db?.close();
    for (const s of servers) await new Promise((resolve) => s.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads statements from company facts without packages, then queues each company\'s recent periodic filings newest first and lands their packages', async () => {
    const load = await runIngestion(db.sql, config, { archives: dir, sourceOptions: { hostMap } });
    assert.equal(load.status, 'succeeded', JSON.stringify(load.errors));
    assert.deepEqual(load.companies.map((c) => [c.cik, c.status, c.packages]), [[APPLE, 'ingested', 0], [NVIDIA, 'ingested', 0]]);
    assert.ok(!requests.some((r) => r.includes('/Archives/edgar/data/')), 'no filing package is fetched during the bulk load');

    const queued = await enqueuePackageWindow(db.sql, config, { quarters: 8, now: () => new Date('2025-12-31T00:00:00Z') });
    assert.ok(queued && queued.companies === 2 && queued.filings >= 4, JSON.stringify(queued));
    const jobs = await db.sql<{ payload: { cik: string; accessions: string[] } }[]>`
      SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = ${PACKAGE_WINDOW_TASK} ORDER BY j.id`;
    assert.equal(jobs.length, 2);
    const latest = async (cik: string) =>
      (await db.sql<{ d: string }[]>`SELECT max(filing_date)::text AS d FROM filings WHERE cik = ${cik} AND is_periodic`)[0]!.d;
    const order = await Promise.all(jobs.map((j) => latest(j.payload.cik)));
    assert.deepEqual(order, [...order].sort().reverse(), 'the company with the newest filing goes first');
    for (const j of jobs) {
      const dates = await db.sql<{ d: string }[]>`
        SELECT filing_date::text AS d FROM filings WHERE accession IN ${db.sql(j.payload.accessions)} ORDER BY array_position(${j.payload.accessions}::text[], accession)`;
      assert.deepEqual(dates.map((r) => r.d), dates.map((r) => r.d).sort().reverse(), 'a company\'s filings newest first');
      assert.ok(dates.every((r) => r.d >= '2024-01-01'), 'only the last 8 quarters');
    }

    const before = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM statement_versions`;
    for (const j of jobs) await ingestPackageWindowJob(db.sql, config, j.payload, () => {}, { sourceOptions: { hostMap } });
    const [run] = await db.sql<{ status: string; companies_done: number; companies_total: number; versions_added: number }[]>`
      SELECT status, companies_done, companies_total, versions_added FROM ingestion_runs WHERE run_id = ${queued!.run_id}`;
    assert.deepEqual({ status: run!.status, done: run!.companies_done }, { status: 'succeeded', done: 2 });
    const [landed] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM segment_facts WHERE cik = ${APPLE}`;
    assert.ok(landed!.n > 0, 'the packages gave segments');
    // a version is added only where a statement's figures changed
    const [same] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM statement_versions v JOIN statement_versions p
        ON p.cik = v.cik AND p.statement_type = v.statement_type AND p.fiscal_year = v.fiscal_year
       AND p.fiscal_period = v.fiscal_period AND p.version_sequence = v.version_sequence - 1
      WHERE v.ingestion_run_id = ${queued!.run_id} AND p.content_hash = v.content_hash`;
    assert.equal(same!.n, 0);
    const after = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM statement_versions`;
    assert.equal(after[0]!.n - before[0]!.n, run!.versions_added);

    // the same job again: nothing changes
    const again = await enqueuePackageWindow(db.sql, config, { quarters: 8, now: () => new Date('2025-12-31T00:00:00Z') });
    const [job] = await db.sql<{ payload: { cik: string } }[]>`
      SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = ${PACKAGE_WINDOW_TASK} AND (j.payload->>'run_id')::int = ${again!.run_id} ORDER BY j.id LIMIT 1`;
    await ingestPackageWindowJob(db.sql, config, job!.payload, () => {}, { sourceOptions: { hostMap } });
    const [second] = await db.sql<{ companies_skipped: number; versions_added: number }[]>`SELECT companies_skipped, versions_added FROM ingestion_runs WHERE run_id = ${again!.run_id}`;
    assert.deepEqual(second, { companies_skipped: 1, versions_added: 0 });
  });
});
