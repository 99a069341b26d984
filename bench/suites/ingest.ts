/**
 * The "ingest" suite: company-facts throughput of the whole ingestion pipeline, as a ratio against
 * plain JSON.parse of the same bytes measured in the same run (machine speed cancels out), and the
 * pipeline's peak RSS. Goals (issue 19): ratio >= 0.12 (the best of the worker counts), peak RSS
 * < 512 MiB per process; a miss is reported, never an error exit, because the figures are the
 * product. A failed ingestion is an error exit.
 *   1. baseline: every CIK##########.json of the mirror's companyfacts folder read into memory,
 *      then JSON.parse over all of them BENCH_PARSE_REPS times (default 5), median; measured again
 *      right before each pipeline run, and each run's ratio is against the baseline next to it
 *   2. pipeline, once per worker count (default 1 and 2): bench/lib/ingest-child.ts in its own
 *      process (so maxRSS is its own) on a throwaway database: runIngestion over the whole mirror
 *      with that many worker processes (1 = in the child itself), then an unchanged re-run; with
 *      1 worker, then the whole ingestion once more in the same process on a second throwaway
 *      database ("warm", against the same baseline; no goal): the goal is the first, fresh-process
 *      run's, as `fds ingest` runs, and the difference is V8's warm-up, paid once per process
 * Options: --cpu-prof  profile the first ingestion run with 1 worker, write it to .bench/ and
 *          summarize it (profiling slows the run down: the ratio of such a run is not comparable).
 *          --workers 1,2  the worker counts to run (comma-separated).
 * SEC_SOURCE: the mirror (default ../shared/sec from the repository root).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from '../lib/cleanup.ts';
import { summarizeProfile, type ProfileSummary } from '../lib/cpuprofile.ts';
import type { IngestChildResult } from '../lib/ingest-child.ts';
import { ensureBenchDir, fileTimestamp, REPO_ROOT } from '../lib/paths.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';

const RATIO_GOAL = 0.12;
const RSS_GOAL_MIB = 512;
const FACTS_FOLDER = 'data.sec.gov/api/xbrl/companyfacts';
// the files runIngestion reads (ingest/cik-folder.ts); anything else in the folder is not a company
const MAIN_FILE = /^CIK\d{10}\.json$/;

function mirrorDir(): string {
  const raw = process.env.SEC_SOURCE;
  if (raw && /^https?:/i.test(raw)) throw new Error('the ingest bench needs a mirror directory in SEC_SOURCE, not the live site');
  return raw ? path.resolve(raw) : path.resolve(REPO_ROOT, '../shared/sec');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

interface Baseline {
  files: number;
  bytes: number;
  reps: number;
  seconds: number[];
  mb_per_s_median: number;
  mb_per_s_best: number;
}

/** Reading and UTF-8 decoding stay outside the timing: the baseline is the parse alone. */
async function readFactsFiles(dir: string): Promise<{ texts: string[]; bytes: number }> {
  const folder = path.join(dir, FACTS_FOLDER);
  const names = (await readdir(folder)).filter((n) => MAIN_FILE.test(n)).sort();
  if (names.length === 0) throw new Error(`no CIK##########.json files in ${folder}`);
  let bytes = 0;
  const texts: string[] = [];
  for (const n of names) {
    const buf = await readFile(path.join(folder, n));
    bytes += buf.length;
    texts.push(buf.toString('utf8'));
  }
  return { texts, bytes };
}

function jsonParseBaseline(files: { texts: string[]; bytes: number }, reps: number): Baseline {
  const seconds: number[] = [];
  let sink: unknown;
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    for (const text of files.texts) sink = JSON.parse(text);
    seconds.push((performance.now() - t) / 1000);
  }
  void sink;
  const mbps = (s: number) => files.bytes / 1e6 / s;
  return { files: files.texts.length, bytes: files.bytes, reps, seconds, mb_per_s_median: mbps(median(seconds)), mb_per_s_best: mbps(Math.min(...seconds)) };
}

/** Runs the child, stderr straight through (its progress), stdout kept for the result line. */
async function runChild(env: NodeJS.ProcessEnv): Promise<IngestChildResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/ingest-child.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // on interrupt the child drops its own database; give it time to
  const stop = onCleanup('stop ingest child', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const late = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exit;
    clearTimeout(late);
  });
  const code = await exit;
  await stop();
  const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  if (code !== 0 || !line) throw new Error(`ingest child exited with code ${code}${line ? '' : ' without a result line'}`);
  return JSON.parse(line) as IngestChildResult;
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

function parseArgs(args: string[]): { cpuProf: boolean; workers: number[] } {
  let cpuProf = false;
  let workers = [1, 2];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--cpu-prof') cpuProf = true;
    else if (a === '--workers' || a.startsWith('--workers=')) {
      const value = a === '--workers' ? args[++i] : a.slice('--workers='.length);
      if (!value || !/^[1-9]\d?(,[1-9]\d?)*$/.test(value)) throw new Error(`ingest: --workers takes worker counts such as 1,2, got ${JSON.stringify(value)}`);
      workers = [...new Set(value.split(',').map(Number))];
    } else throw new Error(`ingest: unknown argument ${a} (only --cpu-prof, --workers N[,N...])`);
  }
  return { cpuProf, workers };
}

interface Measured {
  workers: number;
  baseline: Baseline;
  child: IngestChildResult;
  mb_per_s: number;
  ratio: number;
  /** the largest peak RSS of any one process of the run (the child, or one of its workers) */
  rss_max_mib: number;
  /** the peaks of every process added up: an upper bound of what the run held at once */
  rss_sum_mib: number;
}

export async function run(args: string[]): Promise<number> {
  const { cpuProf, workers } = parseArgs(args);
  const reps = Number(process.env.BENCH_PARSE_REPS || 5);
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`BENCH_PARSE_REPS must be a positive integer, got "${process.env.BENCH_PARSE_REPS}"`);
  const startedAt = new Date();
  const m = machine();
  const source = mirrorDir();
  console.log(`bench suite "ingest" (${startedAt.toISOString()})`);
  console.log(describeMachine(m));
  console.log(`source: ${source}`);
  const load = () => os.loadavg().map((l) => fixed(l, 2)).join(' ');

  const files = await readFactsFiles(source);
  const profileFile = cpuProf ? path.join(ensureBenchDir(), `ingest-${fileTimestamp(startedAt)}.cpuprofile`) : null;
  const runs: Measured[] = [];
  for (const w of workers) {
    const base = jsonParseBaseline(files, reps);
    console.log(`baseline: JSON.parse of ${base.files} companyfacts files, ${fixed(base.bytes / 1e6, 1)} MB, ${reps} reps: ${fixed(base.mb_per_s_median, 1)} MB/s (median); load average ${load()}`);
    console.log(`pipeline: runIngestion over the whole mirror with ${w} worker${w === 1 ? ' (in process)' : ' processes'} in a child process on a throwaway database`);
    const env: NodeJS.ProcessEnv = { ...process.env, SEC_SOURCE: source, BENCH_INGEST_WORKERS: String(w), BENCH_INGEST_WARM: w === 1 ? '1' : '0' };
    if (profileFile && w === workers[0]) env.BENCH_CPU_PROF = profileFile;
    const child = await runChild(env);
    const mbps = child.bytes / 1e6 / child.elapsed_s;
    const peaks = [child.max_rss_kib, ...child.worker_max_rss_kib.map((k) => k ?? 0)].map((k) => k / 1024);
    runs.push({
      workers: w,
      baseline: base,
      child,
      mb_per_s: mbps,
      ratio: mbps / base.mb_per_s_median,
      rss_max_mib: Math.max(...peaks),
      rss_sum_mib: peaks.reduce((a, b) => a + b, 0),
    });
    if (child.bytes !== base.bytes) {
      console.log(`WARNING: the pipeline ingested ${child.bytes} bytes of company facts, the baseline parsed ${base.bytes}`);
    }
    for (const e of child.errors) console.log(`WARNING: ${e.cik}: ${e.message}`);
  }
  const best = runs.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const ratioOk = best.ratio >= RATIO_GOAL;
  const rssOk = runs.every((r) => r.rss_max_mib < RSS_GOAL_MIB);
  const label = (w: number) => `${w} worker${w === 1 ? '' : 's'}`;

  console.log('');
  console.log(
    table(
      [
        ['measure', 'value', 'goal', 'result'],
        ...runs.flatMap((r) => [
          [`JSON.parse before ${label(r.workers)} (median of ${reps})`, `${fixed(r.baseline.mb_per_s_median, 1)} MB/s`, '', ''],
          [`pipeline, ${label(r.workers)}`, `${fixed(r.mb_per_s, 1)} MB/s`, '', `${fixed(r.child.elapsed_s, 2)} s, ${r.child.status}`],
          [`pipeline / JSON.parse, ${label(r.workers)}`, fixed(r.ratio, 3), '', ''],
          ...(r.child.warm
            ? [
                [
                  `pipeline / JSON.parse, ${label(r.workers)}, warm (same process again)`,
                  fixed(r.child.warm.bytes / 1e6 / r.child.warm.elapsed_s / r.baseline.mb_per_s_median, 3),
                  '',
                  `${fixed(r.child.warm.elapsed_s, 2)} s, CPU ${fixed(r.child.warm.cpu_s, 1)} s, ${r.child.warm.status}, ${r.child.warm.versions} versions`,
                ],
              ]
            : []),
          [
            `CPU of the run, ${label(r.workers)}`,
            `${fixed(r.child.cpu_s + r.child.worker_cpu_s.reduce<number>((a, b) => a + (b ?? 0), 0), 1)} s`,
            '',
            r.workers > 1 ? `parent ${fixed(r.child.cpu_s, 1)} s, workers ${r.child.worker_cpu_s.map((c) => (c === null ? '?' : fixed(c, 1))).join(' + ')} s (PostgreSQL not counted)` : 'PostgreSQL not counted',
          ],
          [
            `peak RSS, ${label(r.workers)}`,
            `${fixed(r.rss_max_mib, 0)} MiB`,
            `< ${RSS_GOAL_MIB} MiB`,
            verdict(r.rss_max_mib < RSS_GOAL_MIB) + (r.workers > 1 ? ` (largest process; ${fixed(r.rss_sum_mib, 0)} MiB all ${r.workers + 1} together)` : ''),
          ],
        ]),
        [`pipeline / JSON.parse, best (${label(best.workers)})`, fixed(best.ratio, 3), `>= ${RATIO_GOAL}`, verdict(ratioOk) + (cpuProf && best.workers === workers[0] ? ' (profiled)' : '')],
        ['re-run, unchanged source', `${fixed(runs[0]!.child.rerun_s, 2)} s`, '', `${runs[0]!.child.rerun_skipped} skipped, ${runs[0]!.child.rerun_versions_added} new versions`],
        ['identity load (not in MB/s)', `${fixed(runs[0]!.child.identity_s, 2)} s`, '', ''],
        ['company facts ingested', `${fixed(runs[0]!.child.bytes / 1e6, 1)} MB`, '', `${runs[0]!.child.companies} companies, ${runs[0]!.child.companies_failed} failed`],
        ...runs.map((r) => [`statement versions, ${label(r.workers)}`, String(r.child.versions), '', `${r.child.restatements} restatements, ${r.child.facts} facts`]),
      ],
      ['left', 'right', 'left', 'left'],
    ),
  );
  console.log(`load average after the runs: ${load()}`);
  for (const r of runs) {
    console.log(`${label(r.workers)}: peak RSS after identity ${fixed(r.child.max_rss_after_identity_kib / 1024, 0)} MiB, after first run ${fixed(r.child.max_rss_after_ingest_kib / 1024, 0)} MiB` +
      (r.workers > 1 ? `, workers ${r.child.worker_max_rss_kib.map((k) => (k === null ? '?' : fixed(k / 1024, 0))).join(', ')} MiB` : '') + `; database: ${r.child.database}`);
  }

  let profile: ProfileSummary | null = null;
  if (profileFile) {
    profile = summarizeProfile(profileFile);
    console.log(`\nCPU profile of the first run (${label(workers[0]!)}; ${path.relative(REPO_ROOT, profileFile)}), self time:`);
    for (const list of [profile.modules, profile.functions]) {
      console.log(table([['self ms', 'share', 'where'], ...list.map((s) => [fixed(s.ms, 0), `${fixed(s.share * 100, 1)}%`, s.name])], ['right', 'right', 'left']));
      console.log('');
    }
  }

  const file = writeResults(
    'ingest',
    {
      suite: 'ingest',
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      machine: m,
      load_average_after: os.loadavg(),
      source,
      runs: runs.map((r) => ({ workers: r.workers, baseline: r.baseline, pipeline: { ...r.child, mb_per_s: r.mb_per_s }, ratio: r.ratio, rss_max_mib: r.rss_max_mib, rss_sum_mib: r.rss_sum_mib })),
      ratio: { pipeline_over_json_parse: best.ratio, workers: best.workers, goal: RATIO_GOAL, met: ratioOk, profiled: cpuProf },
      peak_rss: { mib: Math.max(...runs.map((r) => r.rss_max_mib)), goal_mib: RSS_GOAL_MIB, met: rssOk, per: 'process' },
      profile,
    },
    startedAt,
  );
  console.log(`\nresults: ${file}`);
  const failed = runs.filter((r) => r.child.status !== 'succeeded');
  if (failed.length > 0) {
    console.log(`ingestion ${failed.map((r) => `with ${label(r.workers)} ${r.child.status}`).join(', ')} (exit code 1)`);
    return 1;
  }
  return 0;
}
