/**
 * The "screen" suite: point-in-time screens and comparisons over a large universe.
 *   1. a synthetic mirror BENCH_SCREEN_FACTOR times the source (default 10; bench/lib/synth-corpus.ts,
 *      the corpus `fds corpus synth` writes), ingested by the real pipeline in a child process
 *      (screen rows computed at ingestion, as in production);
 *   2. a second database BENCH_SCREEN_REPLICAS times that one (default 10, so 100x the mirror): a
 *      copy of the ingested database whose companies and screen rows are repeated under new CIKs
 *      (ingesting 100x the mirror takes longer than a bench run should; screens and comparisons
 *      read only companies and screen_rows, so the replicas are what a 100x ingestion would have
 *      written for them);
 *   3. a server over each (READ_CACHE=off: every read goes to PostgreSQL), and at 4 connections:
 *      a three-condition screen of the latest fiscal years as of a recent date, the same as of a
 *      date ten years back, a comparison of 10 companies, and /health/z as the same-run baseline;
 *      sequential scans of screen_rows counted around the largest scale's load.
 * Goals (at the largest scale): screen p50 <= 50 ms and p99 <= 200 ms, compare p50 <= 20 ms.
 * Everything made is dropped at the end, interrupts included.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { onCleanup } from '../lib/cleanup.ts';
import { checkTarget, measure, type Measurement, type Target } from '../lib/load.ts';
import { postgresReachable } from '../lib/postgres-reachable.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';
import { startBenchServer } from '../lib/server.ts';
import { secondsFromEnv } from '../lib/suite.ts';
import { synthesizeCorpus } from '../lib/synth-corpus.ts';
import { ingestKeeping, mirrorDir } from './scale.ts';

const CONNECTIONS = 4;
export const GOALS = { screen_p50_ms: 50, screen_p99_ms: 200, compare_p50_ms: 20 };

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const n = Number(process.env[name] || fallback);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got "${process.env[name]}"`);
  return n;
}

const SCREEN_BODY = (asOf: string) =>
  JSON.stringify({
    conditions: [
      { metric: 'GROSS_MARGIN', op: 'gt', value: '0.3' },
      { metric: 'REVENUE_GROWTH_YOY', op: 'gt', value: '0.05' },
      { metric: 'REVENUE', op: 'gt', value: '1000000000' },
    ],
    as_of_date: asOf,
    sort: { metric: 'GROSS_MARGIN', direction: 'desc' },
    page_size: 50,
  });

function targets(apiKey: string, compareCiks: string[]): Target[] {
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const screenCheck = (status: number, b: any) => (status === 200 && Array.isArray(b?.items) && b.items.length > 0 && b.excluded ? null : `expected 200 with rows, got ${status}`);
  return [
    { name: 'screen, 3 conditions, latest annual as of 2026-06-30', method: 'POST', path: '/v1/fundamentals/screen', headers, body: SCREEN_BODY('2026-06-30'), check: screenCheck },
    { name: 'screen, 3 conditions, latest annual as of 2016-06-30', method: 'POST', path: '/v1/fundamentals/screen', headers, body: SCREEN_BODY('2016-06-30'), check: screenCheck },
    {
      name: 'compare, 10 companies, 4 metrics',
      method: 'GET',
      path: `/v1/fundamentals/compare?${compareCiks.map((c) => `ciks=${c}`).join('&')}&metrics=GROSS_MARGIN&metrics=REVENUE&metrics=ROE&metrics=REVENUE_GROWTH_YOY&as_of_date=2026-06-30`,
      headers: { 'x-api-key': apiKey },
      check: (status, b: any) => (status === 200 && b?.companies?.length === 10 ? null : `expected 200 with 10 companies, got ${status}`),
    },
    { name: 'GET /health/z (baseline)', method: 'GET', path: '/health/z', check: (status) => (status === 200 ? null : 'expected 200') },
  ];
}

/** A copy of `fromUrl` whose companies and screen rows are repeated `replicas - 1` more times under new CIKs (8 + replica + the CIK's last 7 digits). */
async function replicate(admin: postgres.Sql, fromUrl: string, replicas: number): Promise<string> {
  const from = new URL(fromUrl);
  const name = `${from.pathname.slice(1)}_x${replicas}`;
  await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${from.pathname.slice(1)}"`);
  const url = new URL(fromUrl);
  url.pathname = `/${name}`;
  const sql = postgres(url.href, { max: 1, onnotice: () => {} });
  try {
    for (let r = 1; r < replicas; r++) {
      const prefix = `8${String(r).padStart(2, '0')}`;
      await sql`
        INSERT INTO companies (cik, name, entity_type, sic, sic_description, category, fiscal_year_end, tickers, exchanges, source, source_loaded_at)
        SELECT ${prefix} || right(c.cik, 7), c.name || ' ' || ${prefix}, c.entity_type, c.sic, c.sic_description, c.category, c.fiscal_year_end, '{}', c.exchanges, c.source, c.source_loaded_at
        FROM companies c WHERE EXISTS (SELECT 1 FROM screen_rows s WHERE s.cik = c.cik) AND c.cik NOT LIKE '8%'`;
      await sql`
        INSERT INTO screen_rows
        SELECT ${prefix} || right(s.cik, 7), s.kind, s.basis, s.fiscal_year, s.fiscal_period, s.period_start, s.period_end, s.currency, s.accounting_standard,
          s.filing_date, s.known_from, s.known_until, s.opens, s.sources, s.metrics, s.unavailable, s.vals
        FROM screen_rows s WHERE s.cik NOT LIKE '8%'`;
    }
    await sql`VACUUM ANALYZE screen_rows`;
    await sql`ANALYZE companies`;
  } finally {
    await sql.end({ timeout: 5 });
  }
  return url.href;
}

async function counts(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [c] = await sql<{ companies: number; rows: number; size: string }[]>`
      SELECT count(DISTINCT cik)::int AS companies, count(*)::int AS rows, pg_size_pretty(pg_total_relation_size('screen_rows')) AS size FROM screen_rows`;
    return c!;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function seqScans(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await new Promise((r) => setTimeout(r, 1500)); // the statistics views lag by up to a second
    const [r] = await sql<{ seq: string }[]>`SELECT seq_scan::text AS seq FROM pg_stat_user_tables WHERE relname = 'screen_rows'`;
    return Number(r?.seq ?? 0);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) throw new Error(`screen: unknown argument(s) ${args.join(' ')} (none taken; BENCH_SCREEN_FACTOR and BENCH_SCREEN_REPLICAS set the scales)`);
  const factor = intFromEnv('BENCH_SCREEN_FACTOR', 10, 1, 1000);
  const replicas = intFromEnv('BENCH_SCREEN_REPLICAS', 10, 1, 100);
  const durationS = secondsFromEnv('BENCH_DURATION_S', 5);
  const warmupS = secondsFromEnv('BENCH_WARMUP_S', 2);
  const startedAt = new Date();
  const m = machine();
  console.log(`bench suite "screen" (${startedAt.toISOString()}), ${factor}x ingested and ${factor * replicas}x replicated`);
  console.log(describeMachine(m));
  const adminUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!(await postgresReachable(adminUrl))) throw new Error(`the screen suite needs a PostgreSQL server; ${new URL(adminUrl).host} does not answer`);
  const dir = await mkdtemp(path.join(tmpdir(), 'fds-bench-screen-'));
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const databases: string[] = [];
  const cleanup = onCleanup('drop the screen bench databases and synthetic mirror', async () => {
    for (const url of databases.reverse()) await admin.unsafe(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
    await admin.end({ timeout: 5 });
    await rm(dir, { recursive: true, force: true });
  });
  try {
    const source = factor === 1 ? mirrorDir() : (await synthesizeCorpus({ source: mirrorDir(), out: path.join(dir, 'mirror'), factor })).out;
    console.log(`ingesting ${factor}x`);
    const ingested = await ingestKeeping(source, adminUrl);
    databases.push(ingested.database_url!);
    console.log(`ingested ${ingested.companies} companies, ${ingested.versions} versions in ${fixed(ingested.elapsed_s, 1)} s`);
    const scales: { label: string; url: string }[] = [{ label: `${factor}x`, url: ingested.database_url! }];
    if (replicas > 1) {
      const url = await replicate(admin, ingested.database_url!, replicas);
      databases.push(url);
      scales.push({ label: `${factor * replicas}x`, url });
    }
    const results: { label: string; companies: number; rows: number; size: string; reads: { name: string; m: Measurement }[]; seq_scans: number }[] = [];
    for (const s of scales) {
      const c = await counts(s.url);
      console.log(`${s.label}: ${c.companies} companies, ${c.rows} screen rows (${c.size})`);
      const server = await startBenchServer(`screen-${s.label}`, (x) => console.log(`  ${x}`), { databaseUrl: s.url, env: { READ_CACHE: 'off' } });
      try {
        const sql = postgres(s.url, { max: 1, onnotice: () => {} });
        const compareCiks = (await sql<{ cik: string }[]>`SELECT DISTINCT cik FROM screen_rows ORDER BY cik LIMIT 10`).map((r) => r.cik);
        await sql.end({ timeout: 5 });
        const ts = targets(server.apiKey, compareCiks);
        for (const t of ts) {
          const problem = await checkTarget(server.baseUrl, t);
          if (problem) throw new Error(`${t.name} at ${s.label} answers wrongly, not measuring: ${problem}`);
        }
        const before = await seqScans(s.url);
        const reads: { name: string; m: Measurement }[] = [];
        for (const t of ts) {
          process.stdout.write(`  ${s.label}: ${t.name} at ${CONNECTIONS} connections ... `);
          const got = await measure(server.baseUrl, t, { connections: CONNECTIONS, durationS, warmupS });
          console.log(`p50 ${fixed(got.latency_ms.p50, 2)} ms, p99 ${fixed(got.latency_ms.p99, 2)} ms, ${fixed(got.rps_mean, 0)} req/s`);
          reads.push({ name: t.name, m: got });
        }
        results.push({ ...c, label: s.label, reads, seq_scans: (await seqScans(s.url)) - before });
      } finally {
        await server.stop();
      }
    }
    const largest = results[results.length - 1]!;
    const p = (name: string, r = largest) => r.reads.find((x) => x.name.startsWith(name))!.m.latency_ms;
    const goals = {
      screen_p50: p('screen').p50 <= GOALS.screen_p50_ms,
      screen_p99: p('screen').p99 <= GOALS.screen_p99_ms,
      compare_p50: p('compare').p50 <= GOALS.compare_p50_ms,
    };
    const rows: string[][] = [['measure', ...results.map((r) => r.label), 'goal (largest)', 'result']];
    rows.push(['companies / screen rows', ...results.map((r) => `${r.companies} / ${r.rows}`), '', '']);
    for (const name of largest.reads.map((r) => r.name)) {
      const goal = name.startsWith('screen, 3 conditions, latest annual as of 2026') ? `p50 <= ${GOALS.screen_p50_ms}, p99 <= ${GOALS.screen_p99_ms}` : name.startsWith('compare') ? `p50 <= ${GOALS.compare_p50_ms}` : '';
      const ok = name.startsWith('screen, 3 conditions, latest annual as of 2026') ? goals.screen_p50 && goals.screen_p99 : name.startsWith('compare') ? goals.compare_p50 : null;
      rows.push([`${name}: p50 / p99`, ...results.map((r) => `${fixed(p(name, r).p50, 2)} / ${fixed(p(name, r).p99, 2)} ms`), goal, ok === null ? '' : ok ? 'PASS' : 'MISS']);
    }
    rows.push(['sequential scans of screen_rows during the reads', ...results.map((r) => String(r.seq_scans)), '', '']);
    console.log('');
    console.log(table(rows, ['left', ...results.map((): 'right' => 'right'), 'left', 'left']));
    const file = writeResults('screen', {
      suite: 'screen',
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      machine: m,
      factor,
      replicas,
      ingest: { elapsed_s: ingested.elapsed_s, companies: ingested.companies, versions: ingested.versions },
      scales: results.map((r) => ({ label: r.label, companies: r.companies, rows: r.rows, size: r.size, seq_scans: r.seq_scans, reads: r.reads.map((x) => ({ name: x.name, latency_ms: x.m.latency_ms, rps_mean: x.m.rps_mean, non2xx: x.m.non2xx, errors: x.m.errors })) })),
      goals: { ...GOALS, met: goals },
      load: { tool: 'autocannon', connections: CONNECTIONS, duration_s: durationS, warmup_s: warmupS },
    });
    console.log(`\nresults: ${file}`);
    return 0;
  } finally {
    await cleanup();
  }
}
