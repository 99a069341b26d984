import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.ts';
import type { Sql } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { createTestDatabase } from './helpers/database.ts';
import { get } from './helpers/http.ts';
import { SHARED_SEC, startTestService } from './helpers/service.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What ingestion wrote, independent of generated ids. */
async function contentDigest(sql: Sql): Promise<{ versions: number; digest: string }> {
  const [row] = await sql<{ versions: number; digest: string }[]>`
    SELECT count(*)::int AS versions,
      md5(string_agg(concat_ws('|', cik, statement_type, fiscal_year, fiscal_period, version_sequence, content_hash), ','
        ORDER BY cik, statement_type, fiscal_year, fiscal_period, version_sequence)) AS digest
    FROM statement_versions`;
  return row!;
}

describe('a crash mid-ingestion', () => {
  let db: Database;
  let reference: Database;
  before(async () => {
    db = await createTestDatabase();
    reference = await createTestDatabase({ corpus: true });
    await migrate(db.sql);
  });
  after(async () => {
    await db?.close();
    await reference?.close();
  });

  it('leaves only whole companies, is recorded as interrupted, and the next run completes the corpus exactly', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', 'ingest'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: db.url, SEC_SOURCE: SHARED_SEC },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let done = 0;
    for (let i = 0; i < 600 && done < 8; i++) {
      await sleep(50);
      const [row] = await db.sql<{ n: number }[]>`
        SELECT CASE WHEN to_regclass('company_ingestion') IS NULL THEN 0 ELSE (SELECT count(*)::int FROM company_ingestion) END AS n`;
      done = row!.n;
    }
    child.kill('SIGKILL');
    await exited;
    assert.ok(done >= 8, 'the child got some companies in before it was killed');

    const [state] = await db.sql<{ ingested: number; total: number; orphans: number; partial: number }[]>`
      SELECT (SELECT count(*)::int FROM company_ingestion) AS ingested,
             (SELECT count(*)::int FROM ingestion_runs WHERE status = 'running') AS total,
             (SELECT count(DISTINCT cik)::int FROM statement_versions WHERE cik NOT IN (SELECT cik FROM company_ingestion)) AS orphans,
             (SELECT count(*)::int FROM company_ingestion c
               WHERE c.versions <> (SELECT count(*) FROM statement_versions v WHERE v.cik = c.cik)) AS partial`;
    assert.ok(state!.ingested < 68, 'killed before the end');
    assert.equal(state!.orphans, 0, 'no company has versions without its ingestion record');
    assert.equal(state!.partial, 0, 'every recorded company has all its versions');
    assert.equal(state!.total, 1, 'the killed run still says running until the next run closes it');

    const summary = await runIngestion(db.sql, { ...loadConfig({}), databaseUrl: db.url, secSource: SHARED_SEC });
    assert.equal(summary.status, 'succeeded');
    assert.equal(summary.companies.filter((c) => c.status === 'unchanged').length, state!.ingested, 'companies finished before the crash are not redone');
    const runs = await db.sql<{ status: string }[]>`SELECT status FROM ingestion_runs ORDER BY run_id`;
    assert.deepEqual(runs.map((r) => r.status), ['interrupted', 'succeeded']);
    assert.deepEqual(await contentDigest(db.sql), await contentDigest(reference.sql));
  });
});

describe('start-up on an empty database', () => {
  it('ingests the whole source before reporting ready, and serves statements then', async () => {
    const svc = await startTestService({}, undefined, { emptyDatabase: true });
    try {
      const ready = await get(`${svc.baseUrl}/health/readiness`);
      assert.equal(ready.body.status, 'ready');
      const [row] = await svc.sql<{ companies: number }[]>`SELECT count(*)::int AS companies FROM company_ingestion`;
      assert.equal(row!.companies, 68);
      const r = await get(`${svc.baseUrl}/v1/edgar/companies/320193/metrics/REVENUE/time-series?period_type=annual&fiscal_year_from=2023&fiscal_year_to=2023`, svc.keys.free);
      assert.equal(r.body.items[0].value, '383285000000.000000');
    } finally {
      await svc.close();
    }
  });
});
