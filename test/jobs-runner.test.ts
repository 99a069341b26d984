import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { installQueue, QUEUE_APPLICATION_NAME, startJobWorker } from '../jobs/runner.ts';
import { startTestService, type TestService } from './helpers/service.ts';

let svc: TestService;
let bulkDir: string;

async function queueConnections(): Promise<number> {
  const [row] = await svc.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${QUEUE_APPLICATION_NAME}`;
  return row!.n;
}

/** The client side has ended when our calls return; the server reaps the backends a moment later. */
async function queueConnectionsAfterReaping(): Promise<number> {
  const until = Date.now() + 5000;
  while ((await queueConnections()) > 0 && Date.now() < until) await sleep(50);
  return queueConnections();
}

describe('job queue connections', () => {
  before(async () => {
    svc = await startTestService({ jobsWorker: false });
    bulkDir = await mkdtemp(path.join(tmpdir(), 'fds-jobs-runner-'));
  });
  after(async () => {
    await svc.close();
    await rm(bulkDir, { recursive: true, force: true });
  });

  it('a stopped worker closes every queue connection, so dropping its database cannot reach it', async () => {
    const worker = await startJobWorker({
      databaseUrl: svc.running.database.url, sql: svc.sql, bulkStore: svc.running.services.bulkStore, bulkDir,
      concurrency: 2, buildStaleSeconds: 60, exportSchedule: false, now: () => new Date(), log: () => {},
    });
    await sleep(300);
    assert.ok((await queueConnections()) > 0, 'the running worker is connected under its application name');
    await worker.stop();
    assert.equal(await queueConnectionsAfterReaping(), 0, 'every queue connection closed after stop()');
  });

  it('a queue connection the server terminates is logged, not thrown', async () => {
    const logged: string[] = [];
    const worker = await startJobWorker({
      databaseUrl: svc.running.database.url, sql: svc.sql, bulkStore: svc.running.services.bulkStore, bulkDir,
      concurrency: 1, buildStaleSeconds: 60, exportSchedule: false, now: () => new Date(), log: (m) => logged.push(m),
    });
    await sleep(300);
    await svc.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${QUEUE_APPLICATION_NAME}`;
    await sleep(300);
    await worker.stop();
    assert.ok(logged.some((m) => m.includes('queue connection failed')), `logged: ${logged.join(' | ')}`);
  });

  it('installing the queue schema leaves no connection behind', async () => {
    await installQueue(svc.running.database.url, () => {});
    assert.equal(await queueConnectionsAfterReaping(), 0);
  });
});
