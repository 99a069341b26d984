import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Sql } from '../db/client.ts';
import { MODELING_BUILD_TASK } from '../db/modeling-snapshots.ts';
import { BULK_EXPORT_TASK } from '../jobs/crontab.ts';
import { buildClaimed } from '../jobs/modeling-build.ts';
import type { ArtifactStep } from '../jobs/modeling-artifacts.ts';
import { claimBuild, requestSnapshot } from '../db/modeling-snapshots.ts';
import { normalizeRequest, snapshotIdOf } from '../domain/modeling/snapshot.ts';
import { startJobWorker, type JobWorker } from '../jobs/runner.ts';
import { post } from './helpers/http.ts';
import { buildSnapshot, snapshotBody } from './helpers/modeling.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const APPLE = '0000320193';
const MICROSOFT = '0000789019';
const STALE_S = 2;

let svc: TestService;
let bulkDir: string;
let worker: JobWorker | null = null;

async function startWorker(): Promise<JobWorker> {
  return startJobWorker({
    databaseUrl: svc.running.database.url, sql: svc.sql, bulkStore: svc.running.services.bulkStore, bulkDir,
    concurrency: 1, buildStaleSeconds: STALE_S, exportSchedule: false, now: () => new Date(), log: () => {},
  });
}

/** Holds an exclusive lock on the modeling row table, so a build blocks at its first write until released. */
async function blockBuilds(sql: Sql): Promise<() => Promise<void>> {
  const conn = await sql.reserve();
  await conn`BEGIN`;
  await conn`LOCK TABLE modeling_rows IN ACCESS EXCLUSIVE MODE`;
  return async () => {
    await conn`COMMIT`;
    conn.release();
  };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function snapshotRow(snapshotId: string) {
  const [row] = await svc.sql<{ status: string; attempts: number; worker_id: string | null; snapshot_hash: string | null; as_of_snapshot_id: string }[]>`
    SELECT status, attempts, worker_id, snapshot_hash, as_of_snapshot_id FROM modeling_snapshots WHERE snapshot_id = ${snapshotId} ORDER BY generation DESC LIMIT 1`;
  return row;
}

describe('snapshot builds on the job queue', () => {
  before(async () => {
    bulkDir = await mkdtemp(path.join(tmpdir(), 'fds-jobs-'));
    svc = await startTestService({ jobsWorker: false, exportSchedule: false, buildStaleSeconds: STALE_S, bulkDir });
    worker = await startWorker();
  });
  after(async () => {
    await worker?.stop();
    await svc?.close();
    await rm(bulkDir, { recursive: true, force: true });
  });

  it('answers 202 while the build runs, a second identical request (CIKs unpadded, reordered) never enqueues a second build, and the retried read answers 200', async () => {
    const release = await blockBuilds(svc.sql);
    let first;
    try {
      first = await post(`${svc.baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody({ ciks: [APPLE, MICROSOFT], as_of_date: '2024-06-30' }), svc.keys.growth);
      assert.equal(first.status, 202);
      assert.equal(first.body.status, 'computing');
      assert.equal(first.body.snapshot_hash, null);
      await waitFor('the build to start', async () => (await snapshotRow(first!.body.snapshot_id))?.status === 'building');
      const second = await post(`${svc.baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody({ ciks: ['789019', '320193'], as_of_date: '2024-06-30' }), svc.keys.growth);
      assert.equal(second.status, 202, 'still computing: the read is retried, not the build');
      assert.equal(second.body.snapshot_id, first.body.snapshot_id);
      assert.equal(second.body.as_of_snapshot_id, first.body.as_of_snapshot_id);
      const [jobs] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${first.body.snapshot_id}`;
      assert.equal(jobs!.n, 1, 'one build job');
    } finally {
      await release();
    }
    const { reply, statuses } = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: [APPLE, MICROSOFT], as_of_date: '2024-06-30' });
    assert.equal(reply.status, 200);
    assert.ok(reply.body.total > 1000 && reply.body.items.length === 50, `${reply.body.total} rows`);
    assert.equal(reply.body.items[0]._meta.snapshot_hash, reply.body.snapshot_hash);
    assert.ok(statuses.every((s) => s === 202 || s === 200));
    const row = await snapshotRow(first.body.snapshot_id);
    assert.deepEqual([row!.status, row!.attempts], ['ready', 1], 'built exactly once');
  });

  it('a build whose worker was killed is taken over and finished by another worker', async () => {
    await worker!.stop();
    worker = null;
    const release = await blockBuilds(svc.sql);
    let child: ChildProcess | null = null;
    let snapshotId = '';
    let deadWorker = '';
    try {
      const first = await post(`${svc.baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody({ ciks: [MICROSOFT], as_of_date: '2023-12-31' }), svc.keys.growth);
      assert.equal(first.status, 202);
      snapshotId = first.body.snapshot_id;
      child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', 'worker'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: svc.running.database.url, MODELING_BUILD_STALE_S: String(STALE_S), EXPORT_SCHEDULE: 'off', JOB_CONCURRENCY: '1', DATA_DIR: bulkDir },
        stdio: 'ignore',
      });
      const claimed = await waitFor('the child worker to claim the build', async () => {
        const r = await snapshotRow(snapshotId);
        return r?.status === 'building' && r.worker_id ? r : undefined;
      });
      deadWorker = claimed.worker_id!;
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await release();
    }
    worker = await startWorker();
    const { reply } = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: [MICROSOFT], as_of_date: '2023-12-31' }, 60_000);
    assert.equal(reply.status, 200);
    const row = await snapshotRow(snapshotId);
    assert.equal(row!.status, 'ready');
    assert.equal(row!.attempts, 2, 'the dead attempt and the one that finished');
    assert.notEqual(row!.worker_id, deadWorker);
  });

  it('the same request over the same corpus gives the same snapshot_hash; another as-of date gives another', async () => {
    const body = { ciks: [APPLE], as_of_date: '2022-12-31' };
    const first = (await buildSnapshot(svc.baseUrl, svc.keys.growth, body)).reply.body;
    await svc.sql`DELETE FROM modeling_snapshots WHERE snapshot_id = ${first.snapshot_id}`;
    const again = (await buildSnapshot(svc.baseUrl, svc.keys.growth, body)).reply.body;
    assert.notEqual(again.as_of_snapshot_id, first.as_of_snapshot_id, 'a second, independent build');
    assert.equal(again.snapshot_hash, first.snapshot_hash);
    assert.match(first.snapshot_hash, /^[0-9a-f]{64}$/);
    const other = (await buildSnapshot(svc.baseUrl, svc.keys.growth, { ...body, as_of_date: '2021-12-31' })).reply.body;
    assert.notEqual(other.snapshot_hash, first.snapshot_hash);
    const tier1 = (await buildSnapshot(svc.baseUrl, svc.keys.growth, { ...body, metrics_bundle: 'tier1' })).reply.body;
    assert.notEqual(tier1.snapshot_hash, first.snapshot_hash);
  });

  it('artifact steps run inside the build transaction over the snapshot\'s own rows; a failing step leaves nothing built', async () => {
    await worker!.stop();
    worker = null;
    try {
      const request = normalizeRequest({ ciks: [APPLE], as_of_date: '2020-12-31', statement_types: ['INCOME_STATEMENT'], metrics_bundle: 'all' });
      const { snapshot } = await requestSnapshot(svc.sql, snapshotIdOf(request), request);
      const seen: { companies: number; ratios: number; stored: number; hash: string }[] = [];
      const recorder: ArtifactStep = {
        name: 'test.recorder',
        run: async ({ tx, snapshot: s, companies, snapshot_hash }) => {
          const [stored] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM modeling_rows WHERE as_of_snapshot_id = ${s.as_of_snapshot_id} AND kind = 'ratios'`;
          seen.push({ companies: companies.length, ratios: companies[0]!.rows.ratios.length, stored: stored!.n, hash: snapshot_hash });
        },
      };
      const failing: ArtifactStep = { name: 'test.failing', run: async () => { throw new Error('narrative generator unavailable'); } };
      const claimed = await claimBuild(svc.sql, snapshot.as_of_snapshot_id, 'test-worker');
      await assert.rejects(buildClaimed(svc.sql, claimed!, 'test-worker', [recorder, failing]), /narrative generator unavailable/);
      const [rowsLeft] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM modeling_rows WHERE as_of_snapshot_id = ${snapshot.as_of_snapshot_id}`;
      assert.equal(rowsLeft!.n, 0, 'the failed step rolled the rows back');
      assert.equal((await snapshotRow(snapshot.snapshot_id))!.status, 'building');
      const r = await buildClaimed(svc.sql, claimed!, 'test-worker', [recorder]);
      assert.equal(r.status, 'built');
      assert.equal(seen.length, 2);
      assert.ok(seen[1]!.ratios > 0 && seen[1]!.stored === seen[1]!.ratios, 'the step sees the rows written in its transaction');
      assert.equal(seen[1]!.hash, r.snapshot_hash);
      assert.equal((await snapshotRow(snapshot.snapshot_id))!.status, 'ready');
    } finally {
      worker = await startWorker();
    }
  });

  it('the daily bulk export runs as a queue task on a worker and publishes a snapshot', async () => {
    await worker!.utils.addJob(BULK_EXPORT_TASK, {}, { maxAttempts: 1 });
    const published = await waitFor('a published bulk snapshot', async () => {
      const [row] = await svc.sql<{ snapshot_id: string }[]>`SELECT snapshot_id FROM bulk_snapshots WHERE status = 'published'`;
      return row;
    }, 240_000);
    assert.match(published.snapshot_id, /^\d{8}T\d{6}Z$/);
    // a finished job leaves the queue (it is deleted once its task returns)
    await waitFor('the finished jobs to leave the queue', async () => {
      const [left] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier IN (${BULK_EXPORT_TASK}, ${MODELING_BUILD_TASK})`;
      return left!.n === 0;
    });
  });
});
