import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.ts';
import type { Sql } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import { startRun } from '../db/ingestion-runs.ts';
import { migrate } from '../db/migrate.ts';
import { loadIdentity } from '../ingest/load-identity.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { startWorkerPool } from '../ingest/worker-pool.ts';
import { createTestDatabase } from './helpers/database.ts';
import { SHARED_SEC } from './helpers/service.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * What ingestion wrote, table by table, independent of generated ids and times: version ids are
 * replaced by what they identify (company, statement, period, sequence), any other uuid and every
 * timestamp of writing left out.
 */
async function contentDigests(sql: Sql): Promise<Record<string, string>> {
  const tables: Record<string, ReturnType<Sql>> = {
    statement_versions: sql`SELECT to_jsonb(t) - '{statement_version_id,previous_version_id,created_at,ingestion_run_id}'::text[] || jsonb_build_object('previous', p.nk) AS x
      FROM statement_versions t LEFT JOIN k p ON p.id = t.previous_version_id`,
    restatement_alert_events: sql`SELECT to_jsonb(t) - '{restatement_alert_event_id,statement_version_id,previous_version_id,detected_at}'::text[] || jsonb_build_object('version', a.nk, 'previous', p.nk) AS x
      FROM restatement_alert_events t JOIN k a ON a.id = t.statement_version_id JOIN k p ON p.id = t.previous_version_id`,
    fact_revisions: sql`SELECT to_jsonb(t) - '{fact_revision_id,statement_version_id,previous_version_id}'::text[] || jsonb_build_object('version', a.nk, 'previous', p.nk) AS x
      FROM fact_revisions t JOIN k a ON a.id = t.statement_version_id JOIN k p ON p.id = t.previous_version_id`,
    split_recasts: sql`SELECT to_jsonb(t) - '{split_recast_id,statement_version_id,previous_version_id}'::text[] || jsonb_build_object('version', a.nk, 'previous', p.nk) AS x
      FROM split_recasts t JOIN k a ON a.id = t.statement_version_id JOIN k p ON p.id = t.previous_version_id`,
    reconciliation_results: sql`SELECT to_jsonb(t) - '{statement_version_id,computed_at}'::text[] || jsonb_build_object('version', a.nk) AS x
      FROM reconciliation_results t JOIN k a ON a.id = t.statement_version_id`,
    dq_issues: sql`SELECT to_jsonb(t) - '{issue_id,dq_run_id,statement_version_id,detected_at}'::text[] || jsonb_build_object('version', a.nk) AS x
      FROM dq_issues t LEFT JOIN k a ON a.id = t.statement_version_id`,
    dq_runs: sql`SELECT to_jsonb(t) - '{dq_run_id,started_at,finished_at,ingestion_run_id}'::text[] AS x FROM dq_runs t`,
    filings: sql`SELECT to_jsonb(t) AS x FROM filings t`,
    companies: sql`SELECT to_jsonb(t) - '{company_id,source_loaded_at}'::text[] AS x FROM companies t`,
    company_ingestion: sql`SELECT to_jsonb(t) - '{ingested_at,run_id}'::text[] AS x FROM company_ingestion t`,
    segment_facts: sql`SELECT to_jsonb(t) - '{statement_version_id,extracted_at}'::text[] || jsonb_build_object('version', a.nk) AS x
      FROM segment_facts t LEFT JOIN k a ON a.id = t.statement_version_id`,
    disclosures: sql`SELECT to_jsonb(t) - 'extracted_at' AS x FROM disclosures t`,
    metric_population_stats: sql`SELECT to_jsonb(t) - 'computed_at' AS x FROM metric_population_stats t`,
  };
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql;
    await t`CREATE TEMP TABLE k ON COMMIT DROP AS
      SELECT statement_version_id AS id, concat_ws('|', cik, statement_type, fiscal_year, fiscal_period, version_sequence) AS nk FROM statement_versions`;
    const out: Record<string, string> = {};
    for (const [name, rows] of Object.entries(tables)) {
      const [row] = await t<{ n: number; digest: string | null }[]>`
        SELECT count(*)::int AS n, md5(string_agg(x, E'\\n' ORDER BY x)) AS digest
        FROM (SELECT regexp_replace(r.x::text, ${UUID}, 'uuid', 'g') AS x FROM (${rows}) r) s`;
      out[name] = `${row!.n} rows ${row!.digest}`;
    }
    return out;
  });
}

describe('the ingest command', () => {
  it('refuses a --workers that is not a positive number of processes, before touching the database', () => {
    for (const bad of ['0', '-1', 'two']) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli.ts', 'ingest', `--workers=${bad}`], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
        encoding: 'utf8',
      });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /--workers takes a positive number of processes/);
    }
  });
});

describe('ingestion with worker processes', () => {
  let reference: Database;
  before(async () => {
    reference = await createTestDatabase({ corpus: true });
  });
  after(async () => {
    await reference?.close();
  });

  it('writes with two workers exactly what in-process ingestion writes: versions, figures, restatements, revisions, checks, run counters', async () => {
    const db = await createTestDatabase();
    try {
      const config = { ...loadConfig({}), databaseUrl: db.url, secSource: SHARED_SEC };
      await migrate(db.sql);
      await loadIdentity(db.sql, config);
      const summary = await runIngestion(db.sql, config, { workers: 2, databaseUrl: db.url });
      assert.equal(summary.status, 'succeeded', JSON.stringify(summary.errors));
      assert.equal(summary.workers.length, 2);
      assert.ok(summary.workers.every((w) => w.companies > 0 && (w.max_rss_kib ?? 0) > 0 && (w.cpu_ms ?? 0) > 0), 'both workers took companies and reported their peak memory and CPU time');

      const digests = await contentDigests(db.sql);
      assert.deepEqual(digests, await contentDigests(reference.sql));
      const runCounters = (sql: Sql) =>
        sql`SELECT status, companies_total, companies_done, companies_skipped, companies_without_data, companies_failed, facts_read, bytes_read, versions_added, restatements_added, errors FROM ingestion_runs`;
      assert.deepEqual([...(await runCounters(db.sql))], [...(await runCounters(reference.sql))]);

      const again = await runIngestion(db.sql, config, { workers: 2, databaseUrl: db.url });
      assert.equal(again.counters.companies_skipped, summary.counters.companies_done - summary.counters.companies_without_data, 'an unchanged source is skipped by the workers too');
      assert.equal(again.counters.companies_without_data, 1, 'the company with nothing usable is counted apart, not as unchanged');
      assert.equal(again.counters.versions_added, 0);
    } finally {
      await db.close();
    }
  });

  it('reports a company that fails in a worker and keeps the companies the workers finished', async () => {
    const mirror = mkdtempSync(path.join(tmpdir(), 'fds-workers-'));
    const db = await createTestDatabase();
    try {
      const facts = path.join(mirror, 'data.sec.gov/api/xbrl/companyfacts');
      mkdirSync(facts, { recursive: true });
      // Microsoft as it is, and a company whose facts file is cut off mid-document
      copyFileSync(path.join(SHARED_SEC, 'data.sec.gov/api/xbrl/companyfacts/CIK0000789019.json'), path.join(facts, 'CIK0000789019.json'));
      writeFileSync(path.join(facts, 'CIK0000000042.json'), '{"cik": 42, "entityName": "Broken", "facts": {"us-gaap": {');
      await migrate(db.sql);
      const summary = await runIngestion(db.sql, { ...loadConfig({}), databaseUrl: db.url, secSource: mirror }, { workers: 2, databaseUrl: db.url });
      assert.equal(summary.status, 'failed');
      assert.deepEqual(summary.errors.map((e) => e.cik), ['0000000042']);
      assert.equal(summary.counters.companies_done, 1);
      assert.equal(summary.counters.companies_failed, 1);
      const stored = await db.sql<{ cik: string }[]>`SELECT cik FROM company_ingestion`;
      assert.deepEqual(stored.map((r) => r.cik), ['0000789019']);
      const [run] = await db.sql<{ status: string; companies_failed: number; errors: { cik: string }[] }[]>`SELECT status, companies_failed, errors FROM ingestion_runs`;
      assert.equal(run!.status, 'failed');
      assert.deepEqual(run!.errors.map((e) => e.cik), ['0000000042']);
    } finally {
      await db.close();
      rmSync(mirror, { recursive: true, force: true });
    }
  });

  it('fails only the company a killed worker had in flight, and goes on with a replacement worker', async () => {
    const db = await createTestDatabase();
    try {
      await migrate(db.sql);
      const runId = await startRun(db.sql, SHARED_SEC, [], new Date());
      const pool = startWorkerPool(1, { databaseUrl: db.url, source: SHARED_SEC, userAgent: null, maxRps: null, connections: 2 });
      try {
        const [first] = pool.processes();
        const lost = pool.ingest('0000320193', runId);
        process.kill(first!, 'SIGKILL');
        await assert.rejects(lost, /ingestion worker process \d+ exited \(SIGKILL\)/);
        const next = await pool.ingest('0000789019', runId);
        assert.equal(next.status, 'ingested');
        assert.notEqual(pool.processes()[0], first, 'a new process took over');
      } finally {
        const stats = await pool.close();
        assert.equal(stats.length, 2, 'the killed worker and its replacement');
      }
      const stored = await db.sql<{ cik: string }[]>`SELECT cik FROM company_ingestion ORDER BY cik`;
      assert.deepEqual(stored.map((r) => r.cik), ['0000789019'], 'nothing of the killed company, all of the other');
      const [orphans] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM statement_versions WHERE cik = '0000320193'`;
      assert.equal(orphans!.n, 0);
    } finally {
      await db.close();
    }
  });

  it('stops its workers when the ingesting process is killed, leaving whole companies that the next run completes exactly', async () => {
    const db = await createTestDatabase();
    try {
      await migrate(db.sql);
      await loadIdentity(db.sql, { ...loadConfig({}), databaseUrl: db.url, secSource: SHARED_SEC });
      const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', 'ingest', '--workers', '2'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url, SEC_SOURCE: SHARED_SEC },
        stdio: 'ignore',
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      let done = 0;
      for (let i = 0; i < 1200 && done < 6; i++) {
        await sleep(50);
        const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company_ingestion`;
        done = row!.n;
      }
      const workerPids = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)]).toString().split('\n')
        .filter((l) => l.includes('ingest-worker.ts'))
        .map((l) => Number(l.trim().split(/\s+/)[0]));
      assert.equal(workerPids.length, 2, 'two worker processes run under the CLI');
      child.kill('SIGKILL');
      await exited;
      assert.ok(done >= 6, 'companies got in before the kill');

      const alive = async () => workerPids.filter((pid) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      });
      for (let i = 0; i < 100 && (await alive()).length > 0; i++) await sleep(50);
      assert.deepEqual(await alive(), [], 'the workers exit with the process that started them');

      const [state] = await db.sql<{ ingested: number; orphans: number; partial: number }[]>`
        SELECT (SELECT count(*)::int FROM company_ingestion) AS ingested,
               (SELECT count(DISTINCT cik)::int FROM statement_versions WHERE cik NOT IN (SELECT cik FROM company_ingestion)) AS orphans,
               (SELECT count(*)::int FROM company_ingestion c
                 WHERE c.versions <> (SELECT count(*) FROM statement_versions v WHERE v.cik = c.cik)) AS partial`;
      assert.ok(state!.ingested < 68, 'killed before the end');
      assert.equal(state!.orphans, 0, 'no company has versions without its ingestion record');
      assert.equal(state!.partial, 0, 'every recorded company has all its versions');
      await sleep(500);
      const [later] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company_ingestion`;
      assert.equal(later!.n, state!.ingested, 'nothing is written after the kill');

      const summary = await runIngestion(db.sql, { ...loadConfig({}), databaseUrl: db.url, secSource: SHARED_SEC }, { workers: 2, databaseUrl: db.url });
      assert.equal(summary.status, 'succeeded');
      assert.equal(summary.companies.filter((c) => c.status === 'unchanged').length, state!.ingested, 'companies finished before the kill are not redone');
      const runs = await db.sql<{ status: string }[]>`SELECT status FROM ingestion_runs ORDER BY run_id`;
      assert.deepEqual(runs.map((r) => r.status), ['interrupted', 'succeeded']);
      const digests = await contentDigests(db.sql);
      const expected = await contentDigests(reference.sql);
      for (const table of ['statement_versions', 'restatement_alert_events', 'fact_revisions', 'split_recasts', 'reconciliation_results', 'filings', 'segment_facts', 'disclosures']) {
        assert.equal(digests[table], expected[table], table);
      }
    } finally {
      await db.close();
    }
  });
});
