/**
 * `npm run bench [-- <suite> [args...]]`: runs one benchmark suite (default: http). Each suite is a
 * file under bench/suites/ exporting `run(args)`; add one by adding it to SUITES.
 * `npm run bench -- --docs [suite ...]`: runs the named suites (default: every suite of the table)
 * one after another, prints the performance table and rewrites those suites' rows of it in
 * docs/performance.md (bench/lib/perf-table.ts).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isShuttingDown, markShuttingDown, runCleanups } from './lib/cleanup.ts';
import { BENCH_DIR, REPO_ROOT } from './lib/paths.ts';
import { BLOCK, refreshDocument, rowsOf, TABLE_SUITES, type PerfRow } from './lib/perf-table.ts';
import { readBlock } from '../manifest/doc-blocks.ts';
import type { SuiteModule } from './lib/suite.ts';

const SUITES: Record<string, { description: string; load: () => Promise<SuiteModule> }> = {
  http: {
    description: 'request throughput and latency: /health/z, companies:resolve over HTTP, companies_resolve over MCP',
    load: () => import('./suites/http.ts'),
  },
  ingest: {
    description: 'company-facts MB/s of the whole ingestion against JSON.parse of the same bytes; peak RSS; unchanged re-run',
    load: () => import('./suites/ingest.ts'),
  },
  packages: {
    description: 'inline XBRL reader MB/s against the bare streaming parser over the same .htm bytes; peak RSS',
    load: () => import('./suites/packages.ts'),
  },
  reads: {
    description: 'statement reads (normalized statement, 5-year panel): latency at 4 connections, throughput at 50 against /health/z; goals PASS/MISS',
    load: () => import('./suites/reads.ts'),
  },
  mix: {
    description: 'a fixed-seed random mix of reads (statements, metric series, panels, as-of) over HTTP and tools/call, caches on and off: p50/p99 at 4, req/s at 50, against /health/z; goals PASS/MISS',
    load: () => import('./suites/mix.ts'),
  },
  modeling: {
    description: 'a point-in-time snapshot build over every company of the mirror (job and request to 200) against a plain read of the same versions; ratios page latency',
    load: () => import('./suites/modeling.ts'),
  },
  export: {
    description: 'bulk build rows/s (PostgreSQL to published Parquet snapshot) against DuckDB COPY of the same rows; goal >= 25%',
    load: () => import('./suites/export.ts'),
  },
  freshness: {
    description: 'seconds from a feed entry to the filing served (FEED_POLL_S=5) against a stand-in for SEC; peak requests in one second from two processes, own pacers vs the fleet budget; goals 30 s and <= 10',
    load: () => import('./suites/freshness.ts'),
  },
  screen: {
    description: 'point-in-time screens and 10-company comparisons over a synthetic corpus (BENCH_SCREEN_FACTOR, default 10, ingested; BENCH_SCREEN_REPLICAS times that, default 10): latency at 4 connections against /health/z; goals screen p50 <= 50 ms, p99 <= 200 ms, compare p50 <= 20 ms',
    load: () => import('./suites/screen.ts'),
  },
  scale: {
    description: 'ingestion from bulk archives at 1x and synthetic corpora N times the mirror (BENCH_SCALE_FACTORS, default 10,100): s/MB linearity, peak RSS, database size; a random read mix at 1x against the largest; bulk export full and incremental',
    load: () => import('./suites/scale.ts'),
  },
};

const DEFAULT_SUITE = 'http';

function listSuites(): string {
  const width = Math.max(...Object.keys(SUITES).map((n) => n.length));
  return Object.entries(SUITES)
    .map(([name, s]) => `  ${name.padEnd(width)}  ${s.description}${name === DEFAULT_SUITE ? ' (default)' : ''}`)
    .join('\n');
}

let interrupted = false;
async function onSignal(signal: NodeJS.Signals): Promise<void> {
  if (interrupted) {
    console.error(`${signal} again: exiting without finishing cleanup`);
    process.exit(130);
  }
  interrupted = true;
  markShuttingDown();
  console.error(`\n${signal}: stopping the server under test and cleaning up...`);
  await runCleanups();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}
process.on('SIGINT', (s) => void onSignal(s));
process.on('SIGTERM', (s) => void onSignal(s));

const PERFORMANCE_DOC = path.join(REPO_ROOT, 'docs/performance.md');

/** The results file a suite wrote since `since` (each suite writes .bench/<suite>-<time>.json). */
function resultsSince(suite: string, since: number): unknown {
  const files = readdirSync(BENCH_DIR)
    .filter((f) => f.startsWith(`${suite}-`) && f.endsWith('.json'))
    .map((f) => path.join(BENCH_DIR, f))
    .filter((f) => statSync(f).mtimeMs >= since)
    .sort();
  const last = files.at(-1);
  if (!last) throw new Error(`suite "${suite}" wrote no results file under .bench/`);
  return JSON.parse(readFileSync(last, 'utf8'));
}

/** `--docs`: run each suite, then print the table and rewrite those suites' rows in docs/performance.md. */
async function runForDocs(names: string[]): Promise<number> {
  const suites = names.length > 0 ? names : TABLE_SUITES;
  const unknown = suites.filter((n) => !SUITES[n] || !TABLE_SUITES.includes(n));
  if (unknown.length > 0) {
    console.error(`--docs takes suites of the performance table (${TABLE_SUITES.join(', ')}); not: ${unknown.join(', ')}`);
    return 2;
  }
  const done: string[] = [];
  const failed: string[] = [];
  for (const name of suites) {
    const since = Date.now() - 1000;
    const run = { date: new Date().toISOString().slice(0, 10), cpus: os.cpus().length, load1: os.loadavg()[0]! };
    console.log(`\n=== ${name} (load average ${run.load1.toFixed(1)})`);
    const code = await (await SUITES[name]!.load()).run([]);
    await runCleanups();
    if (code !== 0) {
      failed.push(name);
      console.log(`suite "${name}" exited ${code}: its rows of the table are left as they were`);
      continue;
    }
    // written after each suite, so a later suite's failure keeps what the earlier ones measured
    const rows: PerfRow[] = rowsOf(name, resultsSince(name, since), run);
    writeFileSync(PERFORMANCE_DOC, refreshDocument(readFileSync(PERFORMANCE_DOC, 'utf8'), rows));
    done.push(name);
  }
  console.log(`\n${readBlock(readFileSync(PERFORMANCE_DOC, 'utf8'), BLOCK)}\n`);
  console.log(`docs/performance.md: rows of ${done.join(', ') || 'no suite'} rewritten${failed.length ? `; ${failed.join(', ')} failed` : ''}`);
  return failed.length > 0 ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--docs') return runForDocs(argv.slice(1));
  const [name = DEFAULT_SUITE, ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    console.log(`Usage: npm run bench [-- <suite>]\n       npm run bench -- --docs [suite ...]   (run, then refresh the table of docs/performance.md)\n\nSuites:\n${listSuites()}`);
    return 0;
  }
  const suite = SUITES[name];
  if (!suite) {
    console.error(`Unknown benchmark suite "${name}". Suites:\n${listSuites()}`);
    return 2;
  }
  try {
    const mod = await suite.load();
    return await mod.run(rest);
  } finally {
    await runCleanups();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (err) => {
    if (isShuttingDown()) return; // the signal handler cleans up and exits
    console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    await runCleanups();
    process.exit(1);
  },
);
