/**
 * `npm run bench [-- <suite> [args...]]`: runs one benchmark suite (default: http). Each suite is a
 * file under bench/suites/ exporting `run(args)`; add one by adding it to SUITES.
 */
import { isShuttingDown, markShuttingDown, runCleanups } from './lib/cleanup.ts';
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
  modeling: {
    description: 'a point-in-time snapshot build over every company of the mirror (job and request to 200) against a plain read of the same versions; ratios page latency',
    load: () => import('./suites/modeling.ts'),
  },
  export: {
    description: 'bulk build rows/s (PostgreSQL to published Parquet snapshot) against DuckDB COPY of the same rows; goal >= 25%',
    load: () => import('./suites/export.ts'),
  },
  scale: {
    description: 'the mirror against a synthetic corpus N times it (BENCH_SCALE_FACTOR, default 10): ingest s/MB and read latency at 1x and Nx, sequential scans; goals within 1.2x',
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

async function main(argv: string[]): Promise<number> {
  const [name = DEFAULT_SUITE, ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    console.log(`Usage: npm run bench [-- <suite>]\n\nSuites:\n${listSuites()}`);
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
