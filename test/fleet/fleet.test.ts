import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { connect, type Sql } from '../../db/client.ts';
import { createApiKey } from '../../db/keys.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { insertNextVersion } from '../helpers/next-version.ts';
import {
  call,
  corpusDatabase,
  latencies,
  mixedTargets,
  runLoad,
  sleep,
  startBalancer,
  startCluster,
  startInstance,
  startReplica,
  stopProcess,
  summarize,
  waitReady,
  type Answer,
  type Balancer,
  type Cluster,
  type Instance,
  type Target,
} from '../helpers/fleet.ts';

/**
 * Two API instances (`serve`, no job worker) and one `worker` over one PostgreSQL with a streaming
 * replica, behind HAProxy (deploy/haproxy.cfg), under 200 concurrent readers of both surfaces,
 * while one instance is killed, one is stopped, the database restarts and the replica goes away.
 * Each fault prints its figures (answers by status and code).
 */
const READERS = 200;
const APPLE = '0000320193';

describe('a fleet of instances behind a load balancer', () => {
  let primary: Cluster;
  let replica: Cluster;
  let sql: Sql;
  let dbUrl: string;
  let readUrl: string;
  const instances: Instance[] = [];
  const started: Instance[] = [];
  let worker: Instance;
  let lb: Balancer;
  const keys: string[] = [];
  const ports: number[] = [];

  const apiEnv = (): Record<string, string> => ({
    DATABASE_URL: dbUrl,
    DATABASE_READ_URL: readUrl,
    JOBS: 'off',
    EXPORT_SCHEDULE: 'off',
    SHUTDOWN_DELAY_S: '2',
    SHUTDOWN_TIMEOUT_S: '20',
  });
  const startApi = async (i: number) => {
    const inst = await startInstance(`api${i + 1}`, 'serve', { ...apiEnv(), PORT: String(ports[i]) }, ports[i]);
    await waitReady(`http://127.0.0.1:${inst.port}/health/readiness`, inst);
    instances[i] = inst;
    started.push(inst);
    return inst;
  };
  const key = (n: number) => keys[n % keys.length]!;
  const load = (stop: Promise<unknown>) => runLoad(lb.url, keys, READERS, stop);
  const report = (name: string, answers: Answer[]) => console.log(`# ${name}: ${answers.length} answers ${JSON.stringify(summarize(answers))}`);

  before(async () => {
    const source = await createTestDatabase({ corpus: true });
    try {
      primary = await startCluster();
      dbUrl = await corpusDatabase(primary, 'fds', source.url);
    } finally {
      await source.close();
    }
    replica = await startReplica(primary);
    readUrl = replica.url('fds');
    sql = connect(dbUrl, { max: 4 });
    for (let i = 0; i < 20; i++) keys.push((await createApiKey(sql, `fleet-${i}`, 'enterprise')).key);
    const { freePort } = await import('../helpers/fleet.ts');
    ports.push(await freePort(), await freePort());
    await Promise.all([startApi(0), startApi(1)]);
    worker = await startInstance('worker', 'worker', { DATABASE_URL: dbUrl, EXPORT_SCHEDULE: 'off' });
    lb = await startBalancer(ports);
  });

  after(async () => {
    for (const p of [...instances, worker]) if (p) console.log(`# ${p.name} (exit ${p.child.exitCode}) output:\n${p.output().split('\n').slice(-15).map((l) => `#   ${l.slice(0, 400)}`).join('\n')}`);
    await lb?.stop();
    for (const p of [...started, worker]) {
      if (!p) continue;
      await stopProcess(p.child, 'SIGKILL');
      rmSync(p.dataDir, { recursive: true, force: true });
    }
    await sql?.end({ timeout: 2 });
    replica?.destroy();
    primary?.destroy();
  });

  it('answers mixed reads on both surfaces from both instances through the balancer', async () => {
    const answers = await Promise.all(mixedTargets().flatMap((t) => [0, 1, 2, 3].map((n) => call(lb.url, t, key(n)))));
    assert.deepEqual(Object.keys(summarize(answers)), ['200']);
    assert.deepEqual([...new Set(answers.map((a) => a.instance))].sort(), ['fds1', 'fds2']);
  });

  it('counts one request budget per key for the whole fleet: 70 Free requests over two instances, exactly 60 answered', async () => {
    const free = (await createApiKey(sql, 'fleet-budget', 'free')).key;
    const t = mixedTargets()[0]!;
    const answers = await Promise.all(Array.from({ length: 70 }, (_, n) => call(`http://127.0.0.1:${ports[n % 2]}`, t, free)));
    report('budget over two instances', answers);
    assert.equal(answers.filter((a) => a.status === 200).length, 60);
    assert.equal(answers.filter((a) => a.status === 429 && a.code === 'RATE_LIMITED').length, 10);
  });

  it('holds the Free plan to 25 companies when 26 claims race over two instances', async () => {
    const issued = await createApiKey(sql, 'fleet-slots', 'free');
    const ciks = Array.from({ length: 26 }, (_, n) => String(2_000_000 + n).padStart(10, '0'));
    const answers = await Promise.all(
      ciks.map((cik, n) => call(`http://127.0.0.1:${ports[n % 2]}`, { route: 'identity company', method: 'GET', path: `/v1/identity/companies/${cik}` }, issued.key)),
    );
    report('26 claims over two instances', answers);
    assert.equal(answers.filter((a) => a.status === 200).length, 25);
    assert.deepEqual(
      answers.filter((a) => a.status !== 200).map((a) => a.code),
      ['COVERAGE_SELECTION_FULL'],
    );
    const [held] = await sql<{ n: string }[]>`SELECT count(*)::text AS n FROM coverage_slots WHERE key_id = ${issued.key_id}`;
    assert.equal(held!.n, '25');
  });

  it('shows a new version on every instance within a second of its commit, and never the older one after', async () => {
    const path = `/v1/fundamentals/normalized-statements?cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`;
    const versionOf = async (port: number) => {
      const r = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-api-key': key(0) } });
      const body = (await r.json()) as { data: { statement_version_id: string; version_sequence: number } };
      assert.equal(r.status, 200);
      return body.data;
    };
    const before = await versionOf(ports[0]!);
    await versionOf(ports[1]!); // both caches hold the current version
    await insertNextVersion(sql, before.statement_version_id, { tag: 'fleet' });
    const committed = performance.now();
    const seenAfter: number[] = [];
    for (const port of ports) {
      for (;;) {
        const v = await versionOf(port);
        if (v.version_sequence > before.version_sequence) break;
        assert.ok(performance.now() - committed < 5_000, 'the new version did not show within 5 s');
      }
      seenAfter.push(performance.now() - committed);
    }
    console.log(`# new version visible on both instances after ${seenAfter.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
    assert.ok(Math.max(...seenAfter) < 1_000, `visible after ${seenAfter} ms`);
    for (let n = 0; n < 20; n++) assert.ok((await versionOf(ports[n % 2]!)).version_sequence > before.version_sequence, 'an older version came back');
  });

  it('reads from the replica, and when the replica goes away reads fall back to the primary without an error', async () => {
    const replicaSql = connect(replica.url('fds'), { max: 1 });
    const commits = async () => Number((await replicaSql<{ n: string }[]>`SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = 'fds'`)[0]!.n);
    const before = await commits();
    // a company's filings are read from PostgreSQL on every request (statement reads are answered
    // from what an instance holds once it has read the company's versions)
    const filings: Target = { route: 'filings', method: 'GET', path: `/v1/edgar/companies/${APPLE}/filings` };
    const warm = await runLoad(lb.url, keys, 20, sleep(1_000), [filings]);
    const during = await commits();
    await replicaSql.end({ timeout: 1 });
    assert.deepEqual(Object.keys(summarize(warm)), ['200']);
    assert.ok(during - before > warm.length / 4, `the replica served ${during - before} transactions for ${warm.length} reads`);

    const stopped = load(sleep(4_000));
    await sleep(1_000);
    await replica.stop();
    const answers = await stopped;
    await replica.start();
    report('replica stopped under load', answers);
    assert.deepEqual(Object.keys(summarize(answers)), ['200']);
  });

  it('loses only requests in flight on an instance killed with SIGKILL, and none answered by the survivor fails', async () => {
    const victim = instances[1]!;
    const running = load(sleep(4_000));
    await sleep(1_500);
    process.kill(victim.child.pid!, 'SIGKILL');
    const answers = await running;
    report('kill -9 of one instance', answers);
    const failed = answers.filter((a) => a.status !== 200);
    assert.ok(failed.length <= READERS, `${failed.length} failed, more than could be in flight`);
    assert.equal(answers.filter((a) => a.instance === 'fds1' && a.status !== 200).length, 0, 'the survivor answered something other than 200');
    assert.equal(answers.filter((a) => a.status === 500).length, 0);
    await victim.exited;
    await startApi(1);
    await sleep(1_200); // HAProxy's next health check
  });

  it('fails no request while one instance stops on SIGTERM under load', async () => {
    const leaving = instances[0]!;
    const running = load(sleep(5_000));
    await sleep(1_000);
    process.kill(leaving.child.pid!, 'SIGTERM');
    const code = await leaving.exited;
    const answers = await running;
    report('SIGTERM of one instance', answers);
    assert.equal(code, 0);
    assert.deepEqual(Object.keys(summarize(answers)), ['200']);
    await startApi(0);
    await sleep(1_200);
  });

  it('answers 503 with Retry-After at once while PostgreSQL restarts, never a 500, and serves fully soon after it returns', async () => {
    const direct = `http://127.0.0.1:${ports[0]}`;
    const running = load(sleep(9_000));
    await sleep(1_000);
    await primary.stop();
    const downAt = performance.now();
    // while it is down: an instance answers at once, 503 with Retry-After; readiness names the database
    await sleep(300);
    const t0 = performance.now();
    const data = await call(direct, mixedTargets()[1]!, key(0));
    const dataMs = performance.now() - t0;
    const ready = await fetch(`${direct}/health/readiness`);
    const readyBody = (await ready.json()) as { status: string; checks: { database: { ok: boolean; error: string } } };
    await sleep(Math.max(0, 3_000 - (performance.now() - downAt)));
    await primary.start();
    const upAt = performance.now();
    let recoveredMs = 0;
    for (const port of ports) {
      for (;;) {
        const a = await call(`http://127.0.0.1:${port}`, mixedTargets()[1]!, key(1));
        if (a.status === 200) break;
        assert.ok(performance.now() - upAt < 30_000, `instance on ${port} still answers ${a.status} ${a.code}`);
        await sleep(50);
      }
      recoveredMs = Math.max(recoveredMs, performance.now() - upAt);
    }
    const answers = await running;
    report('PostgreSQL restart under load', answers);
    console.log(`# while down: data route ${data.status} ${data.code} Retry-After ${data.retryAfter} in ${dataMs.toFixed(0)} ms; readiness ${ready.status} ${JSON.stringify(readyBody.checks.database)}; full service ${recoveredMs.toFixed(0)} ms after the database returned`);
    const refusals = answers.filter((a) => a.status === 503);
    console.log(`# 503 answers under load while down: ${JSON.stringify(latencies(refusals))} ms (instances' own: ${JSON.stringify(latencies(refusals.filter((a) => a.instance !== null)))})`);
    assert.equal(data.status, 503);
    assert.equal(data.code, 'SERVICE_UNAVAILABLE');
    assert.ok(data.retryAfter !== null);
    // "at once": under 200 readers on a small machine an answer waits its turn, but never hangs
    assert.ok(dataMs < 5_000, `the refusal took ${dataMs} ms`);
    assert.ok(latencies(refusals).max < 5_000, 'a 503 under load took more than 5 s');
    assert.equal(ready.status, 503);
    assert.equal(readyBody.checks.database.ok, false);
    assert.match(readyBody.checks.database.error, /database/);
    assert.ok(recoveredMs < 10_000, `full service ${recoveredMs} ms after the database returned`);
    const bad = answers.filter((a) => a.status !== 200 && !(a.status === 503 && a.retryAfter !== null));
    assert.deepEqual(summarize(bad), {}, 'every answer is 200 or 503 with Retry-After');
    for (const p of [...instances, worker]) assert.equal(p.child.exitCode, null, `${p.name} exited: ${p.output()}`);
  });
});
