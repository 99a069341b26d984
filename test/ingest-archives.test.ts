import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { writeArchives } from '../bench/lib/archive-zips.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { loadIdentity } from '../ingest/load-identity.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { withArchives } from '../ingest/archive-source.ts';
import { openArchives } from '../ingest/archives.ts';
import { openSecSource } from '../ingest/source.ts';
import { createTestDatabase } from './helpers/database.ts';
import { SHARED_SEC } from './helpers/shared-data.ts';
import { tableDigests } from './helpers/table-digests.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `npm run fds -- ingest ...` as a child process; resolves with its exit code and output. */
function cli(args: string[], env: NodeJS.ProcessEnv): { child: ReturnType<typeof spawn>; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  return { child, done };
}

describe('ingestion from the bulk archives', () => {
  let dir: string;
  let reference: Database;
  let referenceDigests: Record<string, string>;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fds-archives-test-'));
    await writeArchives(SHARED_SEC, dir);
    reference = await createTestDatabase({ corpus: true });
    referenceDigests = await tableDigests(reference.sql);
  });
  after(async () => {
    await reference?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes exactly what a folder run over the same files writes, table by table', async () => {
    const db = await createTestDatabase();
    try {
      await migrate(db.sql);
      const config = { ...loadConfig({}), databaseUrl: db.url, secSource: SHARED_SEC };
      const archives = await openArchives(dir);
      try {
        // identity from the archives' submissions too, as `fds ingest --archives` loads it
        await loadIdentity(db.sql, config, { source: withArchives(openSecSource(SHARED_SEC), archives) });
        const summary = await runIngestion(db.sql, config, { archives });
        assert.equal(summary.status, 'succeeded', JSON.stringify(summary.errors));
        assert.equal(summary.counters.archive_bytes_done, summary.counters.archive_bytes_total);
        assert.ok((summary.counters.archive_bytes_total ?? 0) > 1e6, 'progress counts the archives by their compressed bytes');
      } finally {
        await archives.close();
      }
      assert.deepEqual(await tableDigests(db.sql), referenceDigests);
    } finally {
      await db.close();
    }
  });

  it('killed with SIGKILL mid-archive leaves whole companies, and the next run completes the same database as a clean run', async () => {
    const db = await createTestDatabase();
    try {
      await migrate(db.sql);
      const env = { DATABASE_URL: db.url, SEC_SOURCE: SHARED_SEC };
      const first = cli(['ingest', '--archives', dir], env);
      let done = 0;
      for (let i = 0; i < 1200 && done < 8; i++) {
        await sleep(50);
        const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company_ingestion`;
        done = row!.n;
      }
      first.child.kill('SIGKILL');
      await first.done;
      assert.ok(done >= 8, 'the run got some companies in before it was killed');
      const [state] = await db.sql<{ ingested: number; orphans: number; partial: number }[]>`
        SELECT (SELECT count(*)::int FROM company_ingestion) AS ingested,
               (SELECT count(DISTINCT cik)::int FROM statement_versions WHERE cik NOT IN (SELECT cik FROM company_ingestion)) AS orphans,
               (SELECT count(*)::int FROM company_ingestion c
                 WHERE c.versions <> (SELECT count(*) FROM statement_versions v WHERE v.cik = c.cik)) AS partial`;
      assert.ok(state!.ingested < 68, 'killed before the end');
      assert.equal(state!.orphans, 0, 'no company has versions without its ingestion record');
      assert.equal(state!.partial, 0, 'every recorded company has all its versions');

      const second = await cli(['ingest', '--archives', dir], env).done;
      assert.equal(second.code, 0, second.stderr.slice(-2000));
      const runs = await db.sql<{ status: string; companies_skipped: number; archive_bytes_total: string; archive_bytes_done: string }[]>`
        SELECT status, companies_skipped, archive_bytes_total::text, archive_bytes_done::text FROM ingestion_runs ORDER BY run_id`;
      assert.deepEqual(runs.map((r) => r.status), ['interrupted', 'succeeded']);
      assert.ok(runs[1]!.companies_skipped >= state!.ingested, 'the companies finished before the kill are not redone');
      assert.equal(runs[1]!.archive_bytes_done, runs[1]!.archive_bytes_total);
      assert.deepEqual(await tableDigests(db.sql), referenceDigests);
    } finally {
      await db.close();
    }
  });

  it('shares a run between two worker processes through the job queue, each company ingested once', async () => {
    const db = await createTestDatabase();
    const workers: ReturnType<typeof spawn>[] = [];
    try {
      await migrate(db.sql);
      const env = { ...process.env, DATABASE_URL: db.url, SEC_SOURCE: SHARED_SEC, JOB_CONCURRENCY: '1', EXPORT_SCHEDULE: 'off' };
      const outputs = ['', ''];
      for (const i of [0, 1]) {
        const w = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', 'worker'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
        w.stdout!.on('data', (c: Buffer) => (outputs[i] += c.toString('utf8')));
        workers.push(w);
      }
      const enqueued = await cli(['ingest', '--archives', dir, '--queue', '--batch', '4'], env).done;
      assert.equal(enqueued.code, 0, enqueued.stderr.slice(-2000));
      let run: { status: string; companies_total: number; companies_done: number; companies_skipped: number } | undefined;
      for (let i = 0; i < 3000; i++) {
        [run] = await db.sql<NonNullable<typeof run>[]>`SELECT status, companies_total, companies_done, companies_skipped FROM ingestion_runs`;
        if (run && run.status !== 'running') break;
        await sleep(100);
      }
      assert.equal(run?.status, 'succeeded');
      assert.equal(run!.companies_done, run!.companies_total);
      assert.equal(run!.companies_skipped, 0, 'no company was ingested a second time');
      const batches = outputs.map((o) => [...o.matchAll(/batch (\d+)\/(\d+)/g)].map((m) => Number(m[1])));
      assert.ok(batches[0]!.length > 0 && batches[1]!.length > 0, `both workers took batches: ${JSON.stringify(batches)}`);
      const all = [...batches[0]!, ...batches[1]!].sort((a, b) => a - b);
      assert.deepEqual(all, Array.from({ length: all.length }, (_, i) => i + 1), 'every batch once, none twice');
      assert.deepEqual(await tableDigests(db.sql), referenceDigests);
    } finally {
      for (const w of workers) w.kill('SIGTERM');
      await Promise.all(workers.map((w) => new Promise((resolve) => (w.exitCode !== null ? resolve(null) : w.once('exit', resolve)))));
      await db.close();
    }
  });
});
