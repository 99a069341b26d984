/**
 * The "ingest" suite: company-facts throughput of the whole ingestion pipeline, as a ratio against
 * plain JSON.parse of the same bytes measured in the same run (machine speed cancels out), and the
 * pipeline's peak RSS. Goals (issue): ratio >= 0.25, peak RSS < 1 GiB; a miss is reported, never
 * an error exit, because the figures are the product. A failed ingestion is an error exit.
 *   1. baseline: every CIK##########.json of the mirror's companyfacts folder read into memory,
 *      then JSON.parse over all of them BENCH_PARSE_REPS times (default 5), median
 *   2. pipeline: bench/lib/ingest-child.ts in its own process (so maxRSS is its own) on a throwaway
 *      database: runIngestion over the whole mirror, then an unchanged re-run
 * Options: --cpu-prof  profile the first ingestion run, write it to .bench/ and summarize it
 *          (profiling slows the run down: the ratio of such a run is not comparable).
 * SEC_SOURCE: the mirror (default ../shared/sec from the repository root).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { onCleanup } from '../lib/cleanup.ts';
import { summarizeProfile, type ProfileSummary } from '../lib/cpuprofile.ts';
import type { IngestChildResult } from '../lib/ingest-child.ts';
import { ensureBenchDir, fileTimestamp, REPO_ROOT } from '../lib/paths.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';

const RATIO_GOAL = 0.25;
const RSS_GOAL_MIB = 1024;
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
async function jsonParseBaseline(dir: string, reps: number): Promise<Baseline> {
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
  const seconds: number[] = [];
  let sink: unknown;
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    for (const text of texts) sink = JSON.parse(text);
    seconds.push((performance.now() - t) / 1000);
  }
  void sink;
  const mbps = (s: number) => bytes / 1e6 / s;
  return { files: names.length, bytes, reps, seconds, mb_per_s_median: mbps(median(seconds)), mb_per_s_best: mbps(Math.min(...seconds)) };
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

export async function run(args: string[]): Promise<number> {
  const unknown = args.filter((a) => a !== '--cpu-prof');
  if (unknown.length > 0) throw new Error(`ingest: unknown argument(s) ${unknown.join(' ')} (only --cpu-prof)`);
  const cpuProf = args.includes('--cpu-prof');
  const reps = Number(process.env.BENCH_PARSE_REPS || 5);
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`BENCH_PARSE_REPS must be a positive integer, got "${process.env.BENCH_PARSE_REPS}"`);
  const startedAt = new Date();
  const m = machine();
  const source = mirrorDir();
  console.log(`bench suite "ingest" (${startedAt.toISOString()})`);
  console.log(describeMachine(m));
  console.log(`source: ${source}`);

  const base = await jsonParseBaseline(source, reps);
  console.log(`baseline: JSON.parse of ${base.files} companyfacts files, ${fixed(base.bytes / 1e6, 1)} MB, ${reps} reps: ${fixed(base.mb_per_s_median, 1)} MB/s (median)`);

  const profileFile = cpuProf ? path.join(ensureBenchDir(), `ingest-${fileTimestamp(startedAt)}.cpuprofile`) : null;
  console.log('pipeline: runIngestion over the whole mirror in a child process on a throwaway database');
  const env: NodeJS.ProcessEnv = { ...process.env, SEC_SOURCE: source };
  if (profileFile) env.BENCH_CPU_PROF = profileFile;
  const child = await runChild(env);

  const pipelineMbps = child.bytes / 1e6 / child.elapsed_s;
  const ratio = pipelineMbps / base.mb_per_s_median;
  const rssMib = child.max_rss_kib / 1024;
  const ratioOk = ratio >= RATIO_GOAL;
  const rssOk = rssMib < RSS_GOAL_MIB;

  console.log('');
  console.log(
    table(
      [
        ['measure', 'value', 'goal', 'result'],
        [`JSON.parse (median of ${reps})`, `${fixed(base.mb_per_s_median, 1)} MB/s`, '', ''],
        ['pipeline (runIngestion)', `${fixed(pipelineMbps, 1)} MB/s`, '', ''],
        ['pipeline / JSON.parse', fixed(ratio, 3), `>= ${RATIO_GOAL}`, verdict(ratioOk) + (cpuProf ? ' (profiled)' : '')],
        ['peak RSS (child)', `${fixed(rssMib, 0)} MiB`, `< ${RSS_GOAL_MIB} MiB`, verdict(rssOk)],
        ['first run', `${fixed(child.elapsed_s, 2)} s`, '', child.status],
        ['re-run, unchanged source', `${fixed(child.rerun_s, 2)} s`, '', `${child.rerun_skipped} skipped, ${child.rerun_versions_added} new versions`],
        ['identity load (not in MB/s)', `${fixed(child.identity_s, 2)} s`, '', ''],
        ['company facts ingested', `${fixed(child.bytes / 1e6, 1)} MB`, '', `${child.companies} companies, ${child.companies_failed} failed`],
        ['statement versions', String(child.versions), '', `${child.restatements} restatements`],
        ['facts', String(child.facts), '', ''],
      ],
      ['left', 'right', 'left', 'left'],
    ),
  );
  console.log(`peak RSS after identity ${fixed(child.max_rss_after_identity_kib / 1024, 0)} MiB, after first run ${fixed(child.max_rss_after_ingest_kib / 1024, 0)} MiB; database: ${child.database}`);
  if (child.bytes !== base.bytes) {
    console.log(`WARNING: the pipeline ingested ${child.bytes} bytes of company facts, the baseline parsed ${base.bytes}`);
  }
  for (const e of child.errors) console.log(`WARNING: ${e.cik}: ${e.message}`);

  let profile: ProfileSummary | null = null;
  if (profileFile) {
    profile = summarizeProfile(profileFile);
    console.log(`\nCPU profile of the first run (${path.relative(REPO_ROOT, profileFile)}), self time:`);
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
      source,
      baseline: base,
      pipeline: { ...child, mb_per_s: pipelineMbps },
      ratio: { pipeline_over_json_parse: ratio, goal: RATIO_GOAL, met: ratioOk, profiled: cpuProf },
      peak_rss: { mib: rssMib, goal_mib: RSS_GOAL_MIB, met: rssOk },
      profile,
    },
    startedAt,
  );
  console.log(`\nresults: ${file}`);
  if (child.status !== 'succeeded') {
    console.log(`ingestion ${child.status} (exit code 1)`);
    return 1;
  }
  return 0;
}
