/**
 * The "export" suite: rows/s of the whole bulk build (read the six datasets from PostgreSQL, hash,
 * write Parquet through DuckDB, checksum, put into the local store, publish) against DuckDB's own
 * `COPY ... (FORMAT parquet, COMPRESSION zstd)` of the same rows, in the same run. Goal: the build
 * reaches at least 25% of the baseline's rows/s.
 *   1. a throwaway database cloned from the ingested ../shared/sec corpus (the test template;
 *      DATABASE_URL, else the machine's PostgreSQL, else the embedded one)
 *   2. BENCH_EXPORT_REPS (default 3) full builds, timed end to end (and the CPU time of this
 *      process, DuckDB included, PostgreSQL not); then one incremental build with nothing changed
 *      (every file carried forward), timed apart
 *   3. baseline: the last build's files loaded into DuckDB tables (untimed; same rows, same
 *      types), then each table COPYed to Parquet with zstd, timed, BENCH_EXPORT_REPS times
 * Medians are reported; a build error is an error exit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildSnapshot } from '../../export/build.ts';
import { DATASETS } from '../../domain/bulk/datasets.ts';
import { LocalStore } from '../../export/local-store.ts';
import { createTestDatabase } from '../../test/helpers/database.ts';
import { onCleanup } from '../lib/cleanup.ts';
import { ensureBenchDir } from '../lib/paths.ts';
import { postgresReachable } from '../lib/postgres-reachable.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';

/** goal: build rows/s at least a quarter of bare DuckDB COPY of the same rows */
const GOAL = 0.25;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) throw new Error(`export: unknown argument(s) ${args.join(' ')} (none taken)`);
  const reps = Number(process.env.BENCH_EXPORT_REPS || 3);
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`BENCH_EXPORT_REPS must be a positive integer, got "${process.env.BENCH_EXPORT_REPS}"`);
  const startedAt = new Date();
  const m = machine();
  console.log(`bench suite "export" (${startedAt.toISOString()})`);
  console.log(describeMachine(m));
  if (!process.env.DATABASE_URL && (await postgresReachable('postgres://postgres@127.0.0.1:5432/postgres'))) {
    process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
  }
  console.log('database: a clone of the ingested corpus (built once if missing)');
  const db = await createTestDatabase({ corpus: true });
  // under the repository's .bench/, like the service's own staging and store (BULK_DIR, default
  // .data/bulk in the repository), not the system's temporary folder: on this machine creating a
  // file or folder in /tmp measured ~3x slower than elsewhere on the same disk (200 folders with a
  // file each: 30 ms against 10 ms), and a build creates ~180 of them where the COPY creates six
  const dir = await mkdtemp(path.join(ensureBenchDir(), 'export-'));
  const cleanup = onCleanup('drop the export bench database and files', async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
  try {
    const store = new LocalStore({ root: path.join(dir, 'store'), secret: Buffer.from('bench'), baseUrl: () => 'http://127.0.0.1' });
    // one second apart: snapshot ids are build-start seconds
    let clock = Date.UTC(2026, 0, 5, 4, 30);
    const now = () => new Date(clock);
    const deps = { sql: db.sql, store, stagingDir: path.join(dir, 'staging'), now };
    const build = async (full: boolean) => {
      clock += 1000;
      const t = performance.now();
      const cpu = process.cpuUsage();
      const r = await buildSnapshot(deps, { full });
      const used = process.cpuUsage(cpu);
      return { s: (performance.now() - t) / 1000, cpu_s: (used.user + used.system) / 1e6, manifest: r.manifest, carried: r.carried_forward };
    };

    const fulls: number[] = [];
    const fullCpus: number[] = [];
    let last = await build(true); // warm-up: first DuckDB load, cold caches
    for (let i = 0; i < reps; i++) {
      last = await build(true);
      fulls.push(last.s);
      fullCpus.push(last.cpu_s);
    }
    const rows = last.manifest.rows;
    const incremental = await build(false);
    console.log(`build: ${rows} rows in ${last.manifest.files.length} files, ${fixed(last.manifest.bytes / 1e6, 2)} MB`);

    // the baseline gets the same rows, already typed, in DuckDB tables
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    for (const d of DATASETS) {
      const files = last.manifest.files.filter((f) => f.dataset === d.dataset).map((f) => `'${path.join(dir, 'store', last.manifest.snapshot_id, f.path)}'`);
      await conn.run(`CREATE TABLE ${d.dataset} AS SELECT * FROM read_parquet([${files.join(', ')}])`);
    }
    const copies: number[] = [];
    for (let i = 0; i < reps; i++) {
      const t = performance.now();
      for (const d of DATASETS) await conn.run(`COPY ${d.dataset} TO '${path.join(dir, `copy-${d.dataset}.parquet`)}' (FORMAT parquet, COMPRESSION zstd)`);
      copies.push((performance.now() - t) / 1000);
    }
    conn.closeSync();
    duck.closeSync();

    const buildRps = rows / median(fulls);
    const copyRps = rows / median(copies);
    const ratio = buildRps / copyRps;
    console.log('');
    console.log(
      table(
        [
          ['measure', 'value', 'note'],
          [`DuckDB COPY, zstd (median of ${reps})`, `${fixed(copyRps, 0)} rows/s`, `${fixed(median(copies), 3)} s for the six datasets`],
          [`full build (median of ${reps})`, `${fixed(buildRps, 0)} rows/s`, `${fixed(median(fulls), 3)} s end to end`],
          ['build / COPY', fixed(ratio, 3), `goal >= ${GOAL}: ${ratio >= GOAL ? 'PASS' : 'MISS'}`],
          // on a shared machine wall time follows the load; CPU time much less so
          ['full build CPU, this process (median)', `${fixed(median(fullCpus), 3)} s`, 'node and DuckDB threads; PostgreSQL not counted'],
          ['incremental, nothing changed', `${fixed(incremental.s, 3)} s`, `${incremental.carried} of ${incremental.manifest.files.length} files carried forward`],
          ['peak RSS (bench process)', `${fixed(process.resourceUsage().maxRSS / 1024, 0)} MiB`, ''],
        ],
        ['left', 'right', 'left'],
      ),
    );
    const file = writeResults(
      'export',
      {
        suite: 'export',
        started_at: startedAt.toISOString(),
        finished_at: new Date().toISOString(),
        machine: m,
        reps,
        rows,
        files: last.manifest.files.length,
        bytes: last.manifest.bytes,
        datasets: last.manifest.datasets,
        baseline: { kind: 'duckdb COPY (FORMAT parquet, COMPRESSION zstd)', seconds: copies, rows_per_s_median: copyRps },
        build: { kind: 'full', seconds: fulls, cpu_seconds: fullCpus, rows_per_s_median: buildRps },
        incremental: { seconds: incremental.s, carried_forward: incremental.carried },
        ratio: { build_over_copy: ratio, goal: GOAL },
        peak_rss_kib: process.resourceUsage().maxRSS,
      },
      startedAt,
    );
    console.log(`\nresults: ${file}`);
    return 0;
  } finally {
    await cleanup();
  }
}
