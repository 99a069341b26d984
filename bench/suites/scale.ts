/**
 * The "scale" suite: ingestion from SEC's bulk archives and reads over 1x and larger corpora, in one run.
 *   1. synthetic corpora N times the mirror for each N of BENCH_SCALE_FACTORS (default 10,100;
 *      bench/lib/synth-corpus.ts: the mirror plus N-1 clones of every company, whole histories,
 *      perturbed values), each written as companyfacts.zip and submissions.zip
 *      (bench/lib/archive-zips.ts) into a temporary directory, its folder form removed once zipped;
 *      the mirror's own files zipped as the 1x archives
 *   2. ingestion of each from its archives (`fds ingest --archives` as bench/lib/ingest-child.ts
 *      runs it), each in its own child process on its own throwaway database; the mirror stays
 *      SEC_SOURCE for ticker files and the originals' filing packages. Clones carry no packages,
 *      which make most of the 1x time, so linearity compares like with like: the seconds per MB
 *      of company facts the clones add, (t(N) - t(1)) / (MB(N) - MB(1)), at the largest N against
 *      the smallest. Goals: within 1.2x; peak RSS at the largest under 512 MiB. Database size in
 *      all and per company, reported
 *   3. a server over the 1x and the largest database with READ_CACHE=off (every read goes to
 *      PostgreSQL); a random mix of reads (bench/lib/scale-mix.ts: statements, time series, panels,
 *      as-of reads, provenance over random companies and periods) at 4 connections,
 *      BENCH_SCALE_ROUNDS (default 3) rounds of BENCH_DURATION_S (default 5) alternating between
 *      the two, medians compared. Goals: p50 and mean at the largest within 1.3x of 1x, p99 at most
 *      10 ms; no sequential scan of the statement tables caused by the reads
 *   4. a full bulk export build over the largest database (time, files, bytes), then one company
 *      changed and re-ingested and an incremental build (bench/lib/scale-export.ts). Goal: the
 *      incremental build at most 10% of the full build's time
 * Needs a reachable PostgreSQL server (DATABASE_URL or the machine's): the databases outlive the
 * child that loaded them. Everything made is dropped at the end, interrupts included.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { writeArchives } from '../lib/archive-zips.ts';
import { onCleanup } from '../lib/cleanup.ts';
import type { IngestChildResult } from '../lib/ingest-child.ts';
import { measure, type Measurement, type Target } from '../lib/load.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { postgresReachable } from '../lib/postgres-reachable.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';
import { exportAtScale } from '../lib/scale-export.ts';
import { randomMix } from '../lib/scale-mix.ts';
import { startBenchServer } from '../lib/server.ts';
import { secondsFromEnv } from '../lib/suite.ts';
import { synthesizeCorpus } from '../lib/synth-corpus.ts';

const GOAL_READ = 1.3;
const GOAL_P99_MS = 10;
const GOAL_INGEST = 1.2;
const GOAL_RSS_MIB = 512;
const GOAL_INCREMENTAL = 0.1;
const CONNECTIONS = 4;
/** the tables a statement read touches; a sequential scan of one of them at scale is a missing index */
const READ_TABLES = ['statement_versions', 'filings', 'companies', 'identity_mappings', 'api_keys'];

export function mirrorDir(): string {
  const raw = process.env.SEC_SOURCE;
  if (raw && /^https?:/i.test(raw)) throw new Error('the scale bench needs a mirror directory in SEC_SOURCE, not the live site');
  return raw ? path.resolve(raw) : path.resolve(REPO_ROOT, '../shared/sec');
}

function factorsFromEnv(): number[] {
  const raw = process.env.BENCH_SCALE_FACTORS || '10,100';
  const fs = raw.split(',').map((x) => Number(x.trim()));
  if (fs.length < 2 || fs.some((f, i) => !Number.isInteger(f) || f < 2 || f > 1000 || (i > 0 && f <= fs[i - 1]!))) {
    throw new Error(`BENCH_SCALE_FACTORS must be two or more ascending integers from 2 to 1000, got "${raw}"`);
  }
  return fs;
}

/**
 * Runs the ingest child over `source` (a mirror folder), or over `archives` with the mirror as
 * SEC_SOURCE when given, keeping its database; the caller drops it.
 */
export async function ingestKeeping(source: string, adminUrl: string, archives?: string): Promise<IngestChildResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, SEC_SOURCE: source, DATABASE_URL: adminUrl, BENCH_KEEP_DATABASE: '1', BENCH_INGEST_RERUN: '0' };
  if (archives) env.BENCH_INGEST_ARCHIVES = archives;
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
  if (!r.database_url) throw new Error(`ingestion of ${archives} ${r.status}; nothing to read from: ${JSON.stringify(r.errors)}`);
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
  /** one measurement per round, 1x and Nx alternating so a change in machine load hits both */
  rounds: Measurement[];
  paths: number;
  dropped: number;
  p50_ms_median: number;
  mean_ms_median: number;
  p99_ms_median: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Both servers up at once; each one's random mix measured `rounds` times, alternating. Table scans counted on the larger database. */
async function measureReads(urls: [string, string], labels: [string, string], rounds: number, durationS: number, warmupS: number) {
  const servers = [];
  try {
    for (const [i, url] of urls.entries()) servers.push(await startBenchServer(`scale-${labels[i]}`, (m) => console.log(`  ${m}`), { databaseUrl: url, env: { READ_CACHE: 'off' } }));
    const mixes: { target: Target; dropped: number }[] = [];
    for (const [i, s] of servers.entries()) mixes.push(await randomMix(urls[i]!, s.baseUrl, s.apiKey));
    const before = await scanCounts(urls[1]);
    const got: Measurement[][] = [[], []];
    for (let r = 0; r < rounds; r++) {
      for (const i of [0, 1]) {
        process.stdout.write(`  round ${r + 1}/${rounds} ${labels[i]}: random mix of ${mixes[i]!.target.paths!.length} reads at ${CONNECTIONS} connections ... `);
        const m = await measure(servers[i]!.baseUrl, mixes[i]!.target, { connections: CONNECTIONS, durationS, warmupS });
        console.log(`p50 ${fixed(m.latency_ms.p50, 2)} ms, mean ${fixed(m.latency_ms.mean, 2)} ms, p99 ${fixed(m.latency_ms.p99, 2)} ms, ${fixed(m.rps_mean, 0)} req/s, ${m.non2xx} non-2xx`);
        got[i]!.push(m);
      }
    }
    const scans = delta(before, await scanCounts(urls[1]));
    const out = [0, 1].map(
      (i): ScaleRead => ({
        rounds: got[i]!,
        paths: mixes[i]!.target.paths!.length,
        dropped: mixes[i]!.dropped,
        p50_ms_median: median(got[i]!.map((m) => m.latency_ms.p50)),
        mean_ms_median: median(got[i]!.map((m) => m.latency_ms.mean)),
        p99_ms_median: median(got[i]!.map((m) => m.latency_ms.p99)),
      }),
    );
    return { one: out[0]!, many: out[1]!, scans };
  } finally {
    for (const s of servers) await s.stop();
  }
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const mib = (kib: number) => `${fixed(kib / 1024, 0)} MiB`;

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) throw new Error(`scale: unknown argument(s) ${args.join(' ')} (none taken; BENCH_SCALE_FACTORS sets the scales)`);
  const factors = factorsFromEnv();
  const durationS = secondsFromEnv('BENCH_DURATION_S', 5);
  const rounds = Number(process.env.BENCH_SCALE_ROUNDS || 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_SCALE_ROUNDS must be a positive integer, got "${process.env.BENCH_SCALE_ROUNDS}"`);
  const warmupS = secondsFromEnv('BENCH_WARMUP_S', 2);
  const startedAt = new Date();
  const m = machine();
  const top = factors[factors.length - 1]!;
  console.log(`bench suite "scale" (${startedAt.toISOString()}), 1x, ${factors.map((f) => `${f}x`).join(', ')} from bulk archives`);
  console.log(describeMachine(m));
  const adminUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!(await postgresReachable(adminUrl))) throw new Error(`the scale suite needs a PostgreSQL server; ${new URL(adminUrl).host} does not answer`);

  const source = mirrorDir();
  const dir = await mkdtemp(path.join(tmpdir(), 'fds-bench-scale-'));
  const databases: string[] = [];
  const cleanup = onCleanup('drop the scale bench databases and synthetic corpora', async () => {
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
    const archives = new Map<number, string>([[1, path.join(dir, 'archives-1')]]);
    await writeArchives(source, await mkdirp(archives.get(1)!));
    const synth: Record<number, Awaited<ReturnType<typeof synthesizeCorpus>>> = {};
    for (const f of factors) {
      const mirror = path.join(dir, `mirror-${f}`);
      synth[f] = await synthesizeCorpus({ source, out: mirror, factor: f });
      archives.set(f, await mkdirp(path.join(dir, `archives-${f}`)));
      await writeArchives(mirror, archives.get(f)!);
      await rm(mirror, { recursive: true, force: true });
      console.log(`${f}x: ${synth[f]!.companies_total} companies, ${fixed(synth[f]!.companyfacts_bytes_total / 1e6, 1)} MB of company facts, zipped`);
    }
    const synthS = (performance.now() - t) / 1000;

    const ingested = new Map<number, IngestChildResult>();
    for (const f of [1, ...factors]) {
      console.log(`ingesting ${f}x from its archives`);
      const r = await ingestKeeping(source, adminUrl, archives.get(f)!);
      databases.push(r.database_url!);
      ingested.set(f, r);
      console.log(`  ${fixed(r.elapsed_s, 1)} s, ${fixed(r.bytes / 1e6, 1)} MB, ${r.companies} companies, peak RSS ${mib(r.max_rss_kib)}, database ${fixed(r.database_bytes / 1e6, 0)} MB`);
    }
    const one = ingested.get(1)!;
    const many = ingested.get(top)!;
    const marginal = (r: IngestChildResult) => (r.elapsed_s - one.elapsed_s) / ((r.bytes - one.bytes) / 1e6);
    const ingestRatio = marginal(many) / marginal(ingested.get(factors[0]!)!);

    const reads = await measureReads([one.database_url!, many.database_url!], ['1x', `${top}x`], rounds, durationS, warmupS);
    console.log(`bulk export over the ${top}x database`);
    const bulk = await exportAtScale(many.database_url!, archives.get(top)!, source, await mkdirp(path.join(dir, 'export'))).catch((err: Error) => {
      console.log(`  bulk export: ${err.message}`);
      return null;
    });
    const incrementalShare = bulk ? bulk.incremental_s / bulk.full_s : null;

    const rows: string[][] = [['measure', 'value', 'goal', 'result']];
    for (const f of [1, ...factors]) {
      const r = ingested.get(f)!;
      rows.push([`ingest ${f}x: time, company facts, companies`, `${fixed(r.elapsed_s, 1)} s, ${fixed(r.bytes / 1e6, 1)} MB, ${r.companies}`, '', '']);
      rows.push([`database ${f}x: in all, per company`, `${fixed(r.database_bytes / 1e6, 0)} MB, ${fixed(r.database_bytes / r.companies / 1e3, 0)} kB`, '', '']);
      if (f > 1) rows.push([`ingest s per added MB at ${f}x`, fixed(marginal(r), 4), '', '']);
    }
    rows.push([`ingest s per added MB, ${top}x / ${factors[0]}x`, fixed(ingestRatio, 3), `<= ${GOAL_INGEST}`, verdict(ingestRatio <= GOAL_INGEST)]);
    rows.push([`ingest peak RSS at ${top}x`, mib(many.max_rss_kib), `< ${GOAL_RSS_MIB} MiB`, verdict(many.max_rss_kib / 1024 < GOAL_RSS_MIB)]);
    const p50 = reads.many.p50_ms_median / reads.one.p50_ms_median;
    const mean = reads.many.mean_ms_median / reads.one.mean_ms_median;
    rows.push([`random mix p50 @${CONNECTIONS}, ${top}x / 1x`, `${fixed(reads.many.p50_ms_median, 2)} / ${fixed(reads.one.p50_ms_median, 2)} ms = ${fixed(p50, 3)}`, `<= ${GOAL_READ}`, verdict(p50 <= GOAL_READ)]);
    rows.push([`random mix mean @${CONNECTIONS}, ${top}x / 1x`, `${fixed(reads.many.mean_ms_median, 2)} / ${fixed(reads.one.mean_ms_median, 2)} ms = ${fixed(mean, 3)}`, `<= ${GOAL_READ}`, verdict(mean <= GOAL_READ)]);
    rows.push([`random mix p99 @${CONNECTIONS} at ${top}x (1x: ${fixed(reads.one.p99_ms_median, 2)} ms)`, `${fixed(reads.many.p99_ms_median, 2)} ms`, `<= ${GOAL_P99_MS} ms`, verdict(reads.many.p99_ms_median <= GOAL_P99_MS)]);
    const seqScans = Object.values(reads.scans).reduce((n, c) => n + c.seq, 0);
    rows.push([`sequential scans, ${top}x reads`, String(seqScans), '0', verdict(seqScans === 0)]);
    if (bulk && incrementalShare !== null) {
      rows.push([`bulk export, full build at ${top}x`, `${fixed(bulk.full_s, 1)} s, ${bulk.files} files, ${fixed(bulk.bytes / 1e6, 1)} MB, ${bulk.rows} rows`, '', '']);
      rows.push([`incremental build after one company changed / full`, `${fixed(bulk.incremental_s, 2)} s = ${fixed(incrementalShare, 3)}`, `<= ${GOAL_INCREMENTAL}`, verdict(incrementalShare <= GOAL_INCREMENTAL)]);
    } else {
      rows.push([`bulk export at ${top}x`, 'did not finish (see above)', `incremental <= ${GOAL_INCREMENTAL} of full`, 'MISS']);
    }
    console.log('');
    console.log(`read latency: median over ${rounds} alternating rounds per scale; READ_CACHE=off`);
    console.log(table(rows, ['left', 'right', 'left', 'left']));
    console.log(`scans of ${READ_TABLES.join(', ')} during the ${top}x reads: ${JSON.stringify(reads.scans)}`);

    const file = writeResults(
      'scale',
      {
        suite: 'scale',
        started_at: startedAt.toISOString(),
        finished_at: new Date().toISOString(),
        machine: m,
        factors,
        top,
        synth: { results: synth, seconds: synthS },
        ingest: {
          runs: Object.fromEntries(ingested),
          s_per_added_mb: Object.fromEntries(factors.map((f) => [f, marginal(ingested.get(f)!)])),
          ratio_top_over_first: ingestRatio,
          goal: GOAL_INGEST,
          rss_goal_mib: GOAL_RSS_MIB,
        },
        reads: { ...reads, rounds, ratios: { p50, mean }, goal: GOAL_READ, p99_goal_ms: GOAL_P99_MS },
        export: bulk ? { ...bulk, incremental_share: incrementalShare, goal: GOAL_INCREMENTAL } : { failed: true, goal: GOAL_INCREMENTAL },
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

async function mkdirp(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
