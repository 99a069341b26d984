/**
 * The "modeling" suite, against a server in its own process (bench/lib/server.ts: throwaway
 * database, the whole ../shared/sec corpus loaded at start-up, its own job-queue worker):
 *   1. build: a point-in-time snapshot over every company of the mirror (at most 50), requested
 *      through POST /v1/modeling/universe/pit-snapshot and built by the server's worker; timed by
 *      the snapshot's own started_at -> built_at (the build job) and by the client (request to the
 *      200 answer, queue pick-up included), BENCH_MODELING_REPS times (default 3, each a fresh
 *      as-of date that sees the same versions);
 *   2. baseline, same run: a plain read of the same statement versions (latest knowable per
 *      statement, every column, the same knowable-at fragments) from this process, same repetitions;
 *      the ratio build / read says what computing and storing every row costs over reading its inputs;
 *   3. a ratios page (Apple, page_size 50) read at 4 connections (latency p50/p99), with /health/z
 *      at 4 connections in the same run for reference.
 * Medians are reported. There is no stated goal; the figures are the product.
 */
import postgres from 'postgres';
import type { Sql } from '../../db/client.ts';
import { latestPerPeriod, visible } from '../../db/statement-versions.ts';
import { checkTarget, measure, type Target } from '../lib/load.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';
import { startBenchServer } from '../lib/server.ts';
import { secondsFromEnv } from '../lib/suite.ts';

const APPLE = '0000320193';
const CONNECTIONS = 4;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function post(baseUrl: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/v1/modeling/universe/pit-snapshot`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) throw new Error(`modeling: unknown argument(s) ${args.join(' ')} (none taken)`);
  const reps = Number(process.env.BENCH_MODELING_REPS || 3);
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`BENCH_MODELING_REPS must be a positive integer, got "${process.env.BENCH_MODELING_REPS}"`);
  const durationS = secondsFromEnv('BENCH_DURATION_S', 10);
  const warmupS = secondsFromEnv('BENCH_WARMUP_S', 2);
  const startedAt = new Date();
  const m = machine();
  console.log(`bench suite "modeling" (${startedAt.toISOString()})`);
  console.log(describeMachine(m));
  const server = await startBenchServer('modeling');
  if (!server.database.env.DATABASE_URL) throw new Error("modeling: needs a PostgreSQL server (DATABASE_URL or one on 127.0.0.1:5432); the embedded one admits a single process");
  const sql: Sql = postgres(server.database.env.DATABASE_URL, { max: 2, onnotice: () => {} });
  try {
    const ciks = (await sql<{ cik: string }[]>`SELECT DISTINCT cik FROM statement_versions ORDER BY cik LIMIT 50`).map((r) => r.cik);
    console.log(`universe: ${ciks.length} companies`);
    const builds: { job_s: number; client_s: number; rows: number; as_of: string }[] = [];
    const readsS: number[] = [];
    let versionsRead = 0;
    for (let i = 0; i <= reps; i++) {
      const asOf = `2026-10-${String(i + 1).padStart(2, '0')}`; // later than every filing: each sees the same versions
      const body = { ciks, as_of_date: asOf, statement_types: ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'], metrics_bundle: 'all', page_size: 1 };
      const t = performance.now();
      let r = await post(server.baseUrl, server.apiKey, body);
      while (r.status === 202) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        r = await post(server.baseUrl, server.apiKey, body);
      }
      const clientS = (performance.now() - t) / 1000;
      if (r.status !== 200) throw new Error(`build answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
      const [s] = await sql<{ job_s: number; row_count: number }[]>`
        SELECT extract(epoch FROM built_at - started_at)::float8 AS job_s, row_count FROM modeling_snapshots WHERE as_of_snapshot_id = ${r.body.as_of_snapshot_id}`;
      const rt = performance.now();
      const rows = await sql`${latestPerPeriod(sql, sql`v.*`, sql`v.cik IN ${sql(ciks)} AND ${visible(sql, asOf)}`)}`;
      const readS = (performance.now() - rt) / 1000;
      versionsRead = rows.length;
      if (i === 0) continue; // warm-up: cold caches, first plans
      builds.push({ job_s: s!.job_s, client_s: clientS, rows: s!.row_count, as_of: asOf });
      readsS.push(readS);
      console.log(`  build ${i}: job ${fixed(s!.job_s, 3)} s, request to 200 ${fixed(clientS, 3)} s, ${s!.row_count} build rows; plain read ${fixed(readS, 3)} s (${rows.length} versions)`);
    }
    const jobS = median(builds.map((b) => b.job_s));
    const clientS = median(builds.map((b) => b.client_s));
    const readS = median(readsS);

    const [company] = await sql<{ company_id: string }[]>`SELECT company_id FROM companies WHERE cik = ${APPLE}`;
    const asOf = builds[0]!.as_of;
    const ratios: Target = {
      name: 'ratios page (Apple, 50 rows)',
      method: 'GET',
      path: `/v1/modeling/companies/${company!.company_id}/ratios?as_of=${asOf}&page_size=50`,
      headers: { 'x-api-key': server.apiKey },
      check: (status, b: any) => (status === 200 && Array.isArray(b?.items) && b.items.length === 50 && b.items[0].metrics ? null : 'expected 200 with 50 ratio rows'),
    };
    const health: Target = { name: 'GET /health/z', method: 'GET', path: '/health/z', check: (status) => (status === 200 ? null : 'expected 200') };
    const wrong = await checkTarget(server.baseUrl, ratios);
    if (wrong) throw new Error(`ratios page pre-check failed: ${wrong}`);
    const healthM = await measure(server.baseUrl, health, { connections: CONNECTIONS, durationS, warmupS });
    const ratiosM = await measure(server.baseUrl, ratios, { connections: CONNECTIONS, durationS, warmupS });
    await server.stop();

    console.log('');
    console.log(
      table(
        [
          ['measure', 'median', 'note'],
          ['snapshot build (job)', `${fixed(jobS, 3)} s`, `${ciks.length} companies, ${builds[0]!.rows} build rows`],
          ['snapshot build (request to 200)', `${fixed(clientS, 3)} s`, 'queue pick-up and polling included'],
          ['plain read of the same versions', `${fixed(readS, 3)} s`, `${versionsRead} statement versions`],
          ['build / read', fixed(jobS / readS, 1), 'times the read'],
          [`ratios page p50 @${CONNECTIONS}`, `${fixed(ratiosM.latency_ms.p50, 2)} ms`, `${fixed(ratiosM.rps_mean, 0)} req/s`],
          [`ratios page p99 @${CONNECTIONS}`, `${fixed(ratiosM.latency_ms.p99, 2)} ms`, ''],
          [`/health/z p50 @${CONNECTIONS}`, `${fixed(healthM.latency_ms.p50, 2)} ms`, `${fixed(healthM.rps_mean, 0)} req/s`],
        ],
        ['left', 'right', 'left'],
      ),
    );
    const file = writeResults('modeling', {
      suite: 'modeling',
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      machine: m,
      database: { mode: server.database.mode, description: server.database.description },
      universe: ciks.length,
      builds,
      plain_read_s: readsS,
      versions_read: versionsRead,
      median: { build_job_s: jobS, build_request_s: clientS, plain_read_s: readS, build_over_read: jobS / readS },
      ratios_page: ratiosM,
      health: healthM,
    });
    console.log(`\nresults: ${file}`);
    return ratiosM.non2xx > 0 || ratiosM.errors > 0 ? 1 : 0;
  } finally {
    await sql.end({ timeout: 5 });
    await server.stop();
  }
}
