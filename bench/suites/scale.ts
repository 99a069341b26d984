/**
 * The "scale" suite: the same reads and the same ingestion at 1x and Nx of the mirror, in one run.
 *   1. a synthetic mirror N times the source (bench/lib/synth-corpus.ts: the mirror plus N-1 clones
 *      of every company, whole histories, perturbed values), N = BENCH_SCALE_FACTOR (default 10)
 *   2. ingestion of the 1x mirror, a 2x one and the Nx one, each in its own child process
 *      (bench/lib/ingest-child.ts) on its own throwaway database (1x and Nx kept for step 3).
 *      Clones carry no filing packages, which make most of the 1x time, so linearity compares
 *      like with like: the seconds per MB the clones add (t(k) - t(1)) / (bytes(k) - bytes(1)) at
 *      Nx against 2x. Goal: within 1.2x (time linear in bytes)
 *   3. a server over each database with READ_CACHE=off (every read goes to PostgreSQL: with the
 *      caches on both scales would answer from memory and the comparison would say nothing about
 *      the database); the reads suite's normalized statement and 5-company panel at 4
 *      connections, BENCH_SCALE_ROUNDS (default 3) rounds of BENCH_DURATION_S (default 5) alternating
 *      between 1x and Nx, medians compared; and the tables' sequential and index scans counted around the load
 *      (pg_stat_user_tables). Goal: p50 and mean at Nx within 1.2x of 1x, no sequential scan of
 *      the statement tables caused by the reads.
 * Needs a reachable PostgreSQL server (DATABASE_URL or the machine's): the databases outlive the
 * child that loaded them. Everything made is dropped at the end, interrupts included.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { onCleanup } from '../lib/cleanup.ts';
import type { IngestChildResult } from '../lib/ingest-child.ts';
import { measure, checkTarget, type Measurement, type Target } from '../lib/load.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { postgresReachable } from '../lib/postgres-reachable.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';
import { startBenchServer } from '../lib/server.ts';
import { secondsFromEnv } from '../lib/suite.ts';
import { synthesizeCorpus } from '../lib/synth-corpus.ts';
import { readTargets } from './reads.ts';

const GOAL_READ = 1.2;
const GOAL_INGEST = 1.2;
const CONNECTIONS = 4;
/** the tables a statement read touches; a sequential scan of one of them at scale is a missing index */
const READ_TABLES = ['statement_versions', 'filings', 'companies', 'identity_mappings', 'api_keys'];

export function mirrorDir(): string {
  const raw = process.env.SEC_SOURCE;
  if (raw && /^https?:/i.test(raw)) throw new Error('the scale bench needs a mirror directory in SEC_SOURCE, not the live site');
  return raw ? path.resolve(raw) : path.resolve(REPO_ROOT, '../shared/sec');
}

/** Runs the ingest child over `source`, keeping its database; the caller drops it. */
export async function ingestKeeping(source: string, adminUrl: string): Promise<IngestChildResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, SEC_SOURCE: source, DATABASE_URL: adminUrl, BENCH_KEEP_DATABASE: '1', BENCH_INGEST_RERUN: '0' };
  delete env.BENCH_CPU_PROF;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/ingest-child.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = onCleanup('stop ingest child', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exit;
  });
  const code = await exit;
  await stop();
  const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  if (code !== 0 || !line) throw new Error(`ingest child exited with code ${code}${line ? '' : ' without a result line'}`);
  const r = JSON.parse(line) as IngestChildResult;
  if (!r.database_url) throw new Error(`ingestion of ${source} ${r.status}; nothing to read from: ${JSON.stringify(r.errors)}`);
  return r;
}

type ScanCounts = Record<string, { seq: number; idx: number }>;

async function scanCounts(url: string): Promise<ScanCounts> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // counters reach the statistics views when a backend reports them (at most a second late)
    await new Promise((r) => setTimeout(r, 1500));
    const rows = await sql<{ relname: string; seq: string; idx: string | null }[]>`
      SELECT relname, seq_scan::text AS seq, idx_scan::text AS idx FROM pg_stat_user_tables WHERE relname IN ${sql(READ_TABLES)}`;
    return Object.fromEntries(rows.map((r) => [r.relname, { seq: Number(r.seq), idx: Number(r.idx ?? 0) }]));
  } finally {
    await sql.end({ timeout: 2 });
  }
}

function delta(before: ScanCounts, after: ScanCounts): ScanCounts {
  return Object.fromEntries(Object.entries(after).map(([t, a]) => [t, { seq: a.seq - (before[t]?.seq ?? 0), idx: a.idx - (before[t]?.idx ?? 0) }]));
}

interface ScaleRead {
  name: string;
  /** one measurement per round, 1x and Nx alternating so a change in machine load hits both */
  rounds: Measurement[];
  p50_ms_median: number;
  mean_ms_median: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Both servers up at once; each target measured `rounds` times on each, alternating. Table scans
 * are counted on the Nx database around its measurements.
 */
async function measureReads(urls: [string, string], labels: [string, string], rounds: number, durationS: number, warmupS: number) {
  const servers = [];
  try {
    for (const [i, url] of urls.entries()) servers.push(await startBenchServer(`scale-${labels[i]}`, (m) => console.log(`  ${m}`), { databaseUrl: url, env: { READ_CACHE: 'off' } }));
    const targets: Target[][] = servers.map((s) => readTargets(s.apiKey));
    for (const [i, s] of servers.entries()) {
      for (const t of targets[i]!) {
        const problem = await checkTarget(s.baseUrl, t);
        if (problem) throw new Error(`${t.name} at ${labels[i]} answers wrongly, not measuring: ${problem}`);
      }
    }
    const before = await scanCounts(urls[1]);
    const out: ScaleRead[][] = [[], []];
    for (const [ti, t0] of targets[0]!.entries()) {
      const got: Measurement[][] = [[], []];
      for (let r = 0; r < rounds; r++) {
        for (const i of [0, 1]) {
          const t = targets[i]![ti]!;
          process.stdout.write(`  round ${r + 1}/${rounds} ${labels[i]}: ${t.name} at ${CONNECTIONS} connections ... `);
          const m = await measure(servers[i]!.baseUrl, t, { connections: CONNECTIONS, durationS, warmupS });
          console.log(`p50 ${fixed(m.latency_ms.p50, 2)} ms, mean ${fixed(m.latency_ms.mean, 2)} ms, ${fixed(m.rps_mean, 0)} req/s`);
          got[i]!.push(m);
        }
      }
      for (const i of [0, 1]) {
        const ms = got[i]!;
        out[i]!.push({ name: t0.name, rounds: ms, p50_ms_median: median(ms.map((m) => m.latency_ms.p50)), mean_ms_median: median(ms.map((m) => m.latency_ms.mean)) });
      }
    }
    const scans = delta(before, await scanCounts(urls[1]));
    return { one: out[0]!, many: out[1]!, scans };
  } finally {
    for (const s of servers) await s.stop();
  }
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) throw new Error(`scale: unknown argument(s) ${args.join(' ')} (none taken; BENCH_SCALE_FACTOR sets N)`);
  const factor = Number(process.env.BENCH_SCALE_FACTOR || 10);
  if (!Number.isInteger(factor) || factor < 2 || factor > 1000) throw new Error(`BENCH_SCALE_FACTOR must be an integer from 2 to 1000, got "${process.env.BENCH_SCALE_FACTOR}"`);
  const durationS = secondsFromEnv('BENCH_DURATION_S', 5);
  const rounds = Number(process.env.BENCH_SCALE_ROUNDS || 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_SCALE_ROUNDS must be a positive integer, got "${process.env.BENCH_SCALE_ROUNDS}"`);
  const warmupS = secondsFromEnv('BENCH_WARMUP_S', 2);
  const startedAt = new Date();
  const m = machine();
  console.log(`bench suite "scale" (${startedAt.toISOString()}), 1x against ${factor}x`);
  console.log(describeMachine(m));
  const adminUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!(await postgresReachable(adminUrl))) throw new Error(`the scale suite needs a PostgreSQL server; ${new URL(adminUrl).host} does not answer`);

  const source = mirrorDir();
  const dir = await mkdtemp(path.join(tmpdir(), 'fds-bench-scale-'));
  const databases: string[] = [];
  const cleanup = onCleanup('drop the scale bench databases and synthetic mirror', async () => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      for (const url of databases) await admin.unsafe(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    await rm(dir, { recursive: true, force: true });
  });
  try {
    let t = performance.now();
    const synth = await synthesizeCorpus({ source, out: path.join(dir, 'mirror'), factor });
    const synth2 = await synthesizeCorpus({ source, out: path.join(dir, 'mirror-2x'), factor: 2 });
    const synthS = (performance.now() - t) / 1000;
    console.log(`synthetic mirror: ${synth.companies_total} companies, ${fixed(synth.companyfacts_bytes_total / 1e6, 1)} MB of company facts in ${fixed(synthS, 1)} s`);

    console.log('ingesting 1x');
    const one = await ingestKeeping(source, adminUrl);
    databases.push(one.database_url!);
    console.log('ingesting 2x');
    const two = await ingestKeeping(synth2.out, adminUrl);
    databases.push(two.database_url!);
    console.log(`ingesting ${factor}x`);
    const many = await ingestKeeping(synth.out, adminUrl);
    databases.push(many.database_url!);

    const reads = await measureReads([one.database_url!, many.database_url!], ['1x', `${factor}x`], rounds, durationS, warmupS);

    const sPerMb = (r: IngestChildResult) => r.elapsed_s / (r.bytes / 1e6);
    const marginal = (r: IngestChildResult) => (r.elapsed_s - one.elapsed_s) / ((r.bytes - one.bytes) / 1e6);
    const ingestRatio = marginal(many) / marginal(two);
    const rows: string[][] = [['measure', '1x', `${factor}x`, `${factor}x / 1x`, 'goal', 'result']];
    rows.push(['company facts ingested', `${fixed(one.bytes / 1e6, 1)} MB`, `${fixed(many.bytes / 1e6, 1)} MB`, fixed(many.bytes / one.bytes, 2), '', '']);
    rows.push(['statement versions', String(one.versions), String(many.versions), fixed(many.versions / one.versions, 2), '', '']);
    rows.push(['ingest time', `${fixed(one.elapsed_s, 1)} s`, `${fixed(many.elapsed_s, 1)} s`, fixed(many.elapsed_s / one.elapsed_s, 2), '', '']);
    rows.push(['ingest s per MB, whole corpus', fixed(sPerMb(one), 3), fixed(sPerMb(many), 3), fixed(sPerMb(many) / sPerMb(one), 3), '', '']);
    rows.push([`ingest s per clone MB (2x: ${fixed(marginal(two), 3)})`, '', fixed(marginal(many), 3), `${fixed(ingestRatio, 3)} of 2x`, `<= ${GOAL_INGEST}`, verdict(ingestRatio <= GOAL_INGEST)]);
    rows.push(['ingest peak RSS', `${fixed(one.max_rss_kib / 1024, 0)} MiB`, `${fixed(many.max_rss_kib / 1024, 0)} MiB`, fixed(many.max_rss_kib / one.max_rss_kib, 2), '', '']);
    const readRatios: { name: string; p50: number; mean: number }[] = [];
    for (const [i, r] of reads.one.entries()) {
      const big = reads.many[i]!;
      const p50 = big.p50_ms_median / r.p50_ms_median;
      const mean = big.mean_ms_median / r.mean_ms_median;
      readRatios.push({ name: r.name, p50, mean });
      rows.push([`${r.name} p50 @${CONNECTIONS}`, `${fixed(r.p50_ms_median, 2)} ms`, `${fixed(big.p50_ms_median, 2)} ms`, fixed(p50, 3), `<= ${GOAL_READ}`, verdict(p50 <= GOAL_READ)]);
      rows.push([`${r.name} mean @${CONNECTIONS}`, `${fixed(r.mean_ms_median, 2)} ms`, `${fixed(big.mean_ms_median, 2)} ms`, fixed(mean, 3), `<= ${GOAL_READ}`, verdict(mean <= GOAL_READ)]);
    }
    const seqScans = Object.values(reads.scans).reduce((n, c) => n + c.seq, 0);
    rows.push([`sequential scans, ${factor}x reads`, '', String(seqScans), '', '0', verdict(seqScans === 0)]);
    console.log('');
    console.log(`read latency: median over ${rounds} alternating rounds per scale`);
    console.log(table(rows, ['left', 'right', 'right', 'right', 'left', 'left']));
    console.log(`scans of ${READ_TABLES.join(', ')} during the ${factor}x reads: ${JSON.stringify(reads.scans)}`);

    const file = writeResults(
      'scale',
      {
        suite: 'scale',
        started_at: startedAt.toISOString(),
        finished_at: new Date().toISOString(),
        machine: m,
        factor,
        synth: { ...synth, seconds: synthS },
        ingest: { one, two, many, clone_s_per_mb: { two: marginal(two), many: marginal(many) }, ratio_many_over_two: ingestRatio, goal: GOAL_INGEST },
        reads: { ...reads, rounds, ratios: readRatios, goal: GOAL_READ },
        load: { tool: 'autocannon', connections: CONNECTIONS, duration_s: durationS, warmup_s: warmupS },
      },
      startedAt,
    );
    console.log(`\nresults: ${file}`);
    return 0;
  } finally {
    await cleanup();
  }
}
