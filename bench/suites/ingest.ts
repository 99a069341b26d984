/**
 * The "ingest" suite: company-facts throughput of the whole ingestion pipeline, as a ratio against
 * plain JSON.parse of the same bytes measured in the same run (machine speed cancels out), and the
 * pipeline's peak RSS. Goals: ratio >= 0.12 (the best of the worker counts), peak RSS
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
 *          --repeat N  measure each worker count N times (default 3), each a fresh child on a fresh
 *          database after its own baseline, the counts alternating; a count's ratio is the median of
 *          its runs, reported with their range (one run's ratio moves by 10% and more on a shared
 *          machine). The unchanged re-run and the warm run are the first repetition's.
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

function parseArgs(args: string[]): { cpuProf: boolean; workers: number[]; repeat: number } {
  let cpuProf = false;
  let workers = [1, 2];
  let repeat = 3;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--cpu-prof') cpuProf = true;
    else if (a === '--workers' || a.startsWith('--workers=')) {
      const value = a === '--workers' ? args[++i] : a.slice('--workers='.length);
      if (!value || !/^[1-9]\d?(,[1-9]\d?)*$/.test(value)) throw new Error(`ingest: --workers takes worker counts such as 1,2, got ${JSON.stringify(value)}`);
      workers = [...new Set(value.split(',').map(Number))];
    } else if (a === '--repeat' || a.startsWith('--repeat=')) {
      const value = a === '--repeat' ? args[++i] : a.slice('--repeat='.length);
      if (!value || !/^[1-9]\d?$/.test(value)) throw new Error(`ingest: --repeat takes a number of runs from 1 to 99, got ${JSON.stringify(value)}`);
      repeat = Number(value);
    } else throw new Error(`ingest: unknown argument ${a} (only --cpu-prof, --workers N[,N...], --repeat N)`);
  }
  return { cpuProf, workers, repeat };
}

interface Measured {
  workers: number;
  /** 0-based: which repetition of the worker count this run is */
  repetition: number;
  /** under --cpu-prof: profiling slows a run down, so it counts in the median only when it is the count's one run */
  profiled: boolean;
  baseline: Baseline;
  child: IngestChildResult;
  mb_per_s: number;
  ratio: number;
  /** the largest peak RSS of any one process of the run (the child, or one of its workers) */
  rss_max_mib: number;
  /** the peaks of every process added up: an upper bound of what the run held at once */
  rss_sum_mib: number;
}

/** Every run of one worker count, and what is reported of them. */
interface PerCount {
  workers: number;
  runs: Measured[];
  ratio_median: number;
  ratio_min: number;
  ratio_max: number;
  /** the run whose ratio is nearest the median: its time, CPU and baseline stand for the count */
  typical: Measured;
  /** the largest peak RSS of any process over every run of the count */
  rss_max_mib: number;
}

function perCount(workers: number, all: Measured[]): PerCount {
  const unprofiled = all.filter((r) => !r.profiled);
  const runs = unprofiled.length > 0 ? unprofiled : all;
  const ratios = runs.map((r) => r.ratio);
  const mid = median(ratios);
  const typical = runs.reduce((a, b) => (Math.abs(b.ratio - mid) < Math.abs(a.ratio - mid) ? b : a));
  return {
    workers,
    runs,
    ratio_median: mid,
    ratio_min: Math.min(...ratios),
    ratio_max: Math.max(...ratios),
    typical,
    rss_max_mib: Math.max(...all.map((r) => r.rss_max_mib)),
  };
}

export async function run(args: string[]): Promise<number> {
  const { cpuProf, workers, repeat } = parseArgs(args);
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
  for (let repetition = 0; repetition < repeat; repetition++) {
    // the counts alternate (1,2 then 2,1 ...), so a drift of the machine's speed hits them alike
    const order = repetition % 2 === 0 ? workers : [...workers].reverse();
    for (const w of order) {
      const base = jsonParseBaseline(files, reps);
      console.log(`baseline: JSON.parse of ${base.files} companyfacts files, ${fixed(base.bytes / 1e6, 1)} MB, ${reps} reps: ${fixed(base.mb_per_s_median, 1)} MB/s (median); load average ${load()}`);
      console.log(
        `pipeline${repeat > 1 ? ` (run ${repetition + 1} of ${repeat})` : ''}: runIngestion over the whole mirror with ${w} worker${w === 1 ? ' (in process)' : ' processes'} in a child process on a throwaway database`,
      );
      const first = repetition === 0;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        SEC_SOURCE: source,
        BENCH_INGEST_WORKERS: String(w),
        BENCH_INGEST_WARM: first && w === 1 ? '1' : '0',
        BENCH_INGEST_RERUN: first ? '1' : '0',
      };
      const profiled = profileFile !== null && first && w === workers[0];
      if (profiled) env.BENCH_CPU_PROF = profileFile;
      const child = await runChild(env);
      const mbps = child.bytes / 1e6 / child.elapsed_s;
      const peaks = [child.max_rss_kib, ...child.worker_max_rss_kib.map((k) => k ?? 0)].map((k) => k / 1024);
      runs.push({
        workers: w,
        repetition,
        profiled,
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
  }
  const counts = workers.map((w) => perCount(w, runs.filter((r) => r.workers === w)));
  const best = counts.reduce((a, b) => (b.ratio_median > a.ratio_median ? b : a));
  const ratioOk = best.ratio_median >= RATIO_GOAL;
  const rssOk = counts.every((c) => c.rss_max_mib < RSS_GOAL_MIB);
  const label = (w: number) => `${w} worker${w === 1 ? '' : 's'}`;
  const firstRun = (c: PerCount) => runs.find((r) => r.workers === c.workers && r.repetition === 0)!;
  const range = (c: PerCount) => {
    const all = runs.filter((r) => r.workers === c.workers);
    if (all.length === 1) return all[0]!.profiled ? '(profiled)' : '';
    return `runs ${all.map((r) => fixed(r.ratio, 3) + (r.profiled ? ' (profiled, not counted)' : '')).join(', ')}`;
  };
  const warmOf = firstRun(counts[0]!);

  console.log('');
  console.log(
    table(
      [
        ['measure', 'value', 'goal', 'result'],
        ...counts.flatMap((c) => {
          const t = c.typical;
          return [
            [`JSON.parse before ${label(c.workers)} (median of ${reps})`, `${fixed(t.baseline.mb_per_s_median, 1)} MB/s`, '', repeat > 1 ? 'the typical run\'s baseline' : ''],
            [`pipeline, ${label(c.workers)}`, `${fixed(t.mb_per_s, 1)} MB/s`, '', `${fixed(t.child.elapsed_s, 2)} s, ${t.child.status}${repeat > 1 ? ' (the run nearest the median)' : ''}`],
            [`pipeline / JSON.parse, ${label(c.workers)}${c.runs.length > 1 ? ` (median of ${c.runs.length} runs)` : ''}`, fixed(c.ratio_median, 3), '', range(c)],
            ...(c.workers === warmOf.workers && warmOf.child.warm
              ? [
                  [
                    `pipeline / JSON.parse, ${label(c.workers)}, warm (same process again)`,
                    fixed(warmOf.child.warm.bytes / 1e6 / warmOf.child.warm.elapsed_s / warmOf.baseline.mb_per_s_median, 3),
                    '',
                    `${fixed(warmOf.child.warm.elapsed_s, 2)} s, CPU ${fixed(warmOf.child.warm.cpu_s, 1)} s, ${warmOf.child.warm.status}, ${warmOf.child.warm.versions} versions`,
                  ],
                ]
              : []),
            [
              `CPU of the run, ${label(c.workers)}`,
              `${fixed(t.child.cpu_s + t.child.worker_cpu_s.reduce<number>((a, b) => a + (b ?? 0), 0), 1)} s`,
              '',
              c.workers > 1
                ? `parent ${fixed(t.child.cpu_s, 1)} s, workers ${t.child.worker_cpu_s.map((x) => (x === null ? '?' : fixed(x, 1))).join(' + ')} s (PostgreSQL not counted)`
                : 'PostgreSQL not counted',
            ],
            [
              `peak RSS, ${label(c.workers)}${repeat > 1 ? ', largest of the runs' : ''}`,
              `${fixed(c.rss_max_mib, 0)} MiB`,
              `< ${RSS_GOAL_MIB} MiB`,
              verdict(c.rss_max_mib < RSS_GOAL_MIB) + (c.workers > 1 ? ` (largest process; ${fixed(Math.max(...c.runs.map((r) => r.rss_sum_mib)), 0)} MiB all ${c.workers + 1} together)` : ''),
            ],
          ];
        }),
        [
          `pipeline / JSON.parse, best (${label(best.workers)})${best.runs.length > 1 ? ` (median of ${best.runs.length} runs)` : ''}`,
          fixed(best.ratio_median, 3),
          `>= ${RATIO_GOAL}`,
          verdict(ratioOk) + (best.runs.some((r) => r.profiled) ? ' (profiled)' : ''),
        ],
        ['re-run, unchanged source', `${fixed(runs[0]!.child.rerun_s, 2)} s`, '', `${runs[0]!.child.rerun_skipped} skipped, ${runs[0]!.child.rerun_versions_added} new versions`],
        ['identity load (not in MB/s)', `${fixed(runs[0]!.child.identity_s, 2)} s`, '', ''],
        ['company facts ingested', `${fixed(runs[0]!.child.bytes / 1e6, 1)} MB`, '', `${runs[0]!.child.companies} companies, ${runs[0]!.child.companies_failed} failed`],
        ...counts.map((c) => [`statement versions, ${label(c.workers)}`, String(c.typical.child.versions), '', `${c.typical.child.restatements} restatements, ${c.typical.child.facts} facts`]),
      ],
      ['left', 'right', 'left', 'left'],
    ),
  );
  console.log(`load average after the runs: ${load()}`);
  for (const c of counts) {
    const r = firstRun(c);
    console.log(`${label(c.workers)}: peak RSS after identity ${fixed(r.child.max_rss_after_identity_kib / 1024, 0)} MiB, after first run ${fixed(r.child.max_rss_after_ingest_kib / 1024, 0)} MiB` +
      (c.workers > 1 ? `, workers ${r.child.worker_max_rss_kib.map((k) => (k === null ? '?' : fixed(k / 1024, 0))).join(', ')} MiB` : '') + `; database: ${r.child.database}`);
  }
  const versions = new Set(runs.map((r) => r.child.versions));
  if (versions.size > 1) console.log(`WARNING: the runs wrote different numbers of statement versions: ${[...versions].join(', ')}`);

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
      repeat,
      runs: runs.map((r) => ({
        workers: r.workers,
        repetition: r.repetition,
        profiled: r.profiled,
        baseline: r.baseline,
        pipeline: { ...r.child, mb_per_s: r.mb_per_s },
        ratio: r.ratio,
        rss_max_mib: r.rss_max_mib,
        rss_sum_mib: r.rss_sum_mib,
      })),
      per_worker_count: counts.map((c) => ({
        workers: c.workers,
        runs_counted: c.runs.length,
        ratio_median: c.ratio_median,
        ratio_min: c.ratio_min,
        ratio_max: c.ratio_max,
        rss_max_mib: c.rss_max_mib,
      })),
      ratio: {
        pipeline_over_json_parse: best.ratio_median,
        of: best.runs.length > 1 ? `median of ${best.runs.length} runs` : 'one run',
        workers: best.workers,
        goal: RATIO_GOAL,
        met: ratioOk,
        profiled: best.runs.some((r) => r.profiled),
      },
      peak_rss: { mib: Math.max(...counts.map((c) => c.rss_max_mib)), goal_mib: RSS_GOAL_MIB, met: rssOk, per: 'process' },
      profile,
    },
    startedAt,
  );
  console.log(`\nresults: ${file}`);
  const failed = runs.filter((r) => r.child.status !== 'succeeded');
  if (failed.length > 0) {
    console.log(`ingestion ${failed.map((r) => `with ${label(r.workers)} (run ${r.repetition + 1}) ${r.child.status}`).join(', ')} (exit code 1)`);
    return 1;
  }
  return 0;
}
