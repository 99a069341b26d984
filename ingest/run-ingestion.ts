import type { Config } from '../config.ts';
import type { Db, Sql } from '../db/client.ts';
import { populationStatsMissing, refreshPopulationStats } from '../db/coverage.ts';
import { resolveTicker } from '../db/identity.ts';
import { sameDatabaseOverLocalSocket } from '../db/local-socket.ts';
import { finishRun, recordProgress, startRun, type RunCounters } from '../db/ingestion-runs.ts';
import { refreshStaleStatistics } from '../db/table-statistics.ts';
import { catalogView } from '../domain/normalize/catalog-view.ts';
import { padCik } from '../domain/cik.ts';
import { listCompanyFactsCiks, listPackageCiks } from './cik-folder.ts';
import { ingestCompany, type CompanyResult } from './ingest-company.ts';
import { openSecSource, type SecSource, type SecSourceOptions } from './source.ts';
import { listSubmissionCiks } from './submissions.ts';
import { SEC_MAX_RPS } from './request-pacer.ts';
import { companyArchiveBytes, companyMembers, withArchives } from './archive-source.ts';
import { openArchives, type Archives, type OpenArchivesOptions } from './archives.ts';
import { startWorkerPool, type WorkerPool, type WorkerStats } from './worker-pool.ts';

export interface IngestProgress extends RunCounters {
  run_id: number;
  elapsed_s: number;
  facts_per_s: number;
  /** null until one company is done */
  eta_s: number | null;
  current: string | null;
  /** a run over the bulk archives: how far through them (compressed bytes), their rate and ETA; null otherwise */
  archive: { bytes_done: number; bytes_total: number; bytes_per_s: number; eta_s: number | null } | null;
}

export interface IngestOptions {
  ciks?: string[];
  tickers?: string[];
  /** overrides SEC_SOURCE for this run */
  source?: string;
  /** the clock of the run record and of what this process writes; worker processes (workers > 1) read their own */
  now?: () => Date;
  onProgress?: (p: IngestProgress) => void;
  onCompany?: (r: CompanyResult) => void;
  /** companies in flight at once (per worker process with `workers` > 1): one parses while others wait on the database */
  concurrency?: number;
  /**
   * Worker processes (default 1: ingest in this process). With more, each company is ingested
   * whole by one child process (ingest/worker-pool.ts); the run record, counters and progress
   * stay here and come out the same. Workers need `databaseUrl` (or config.databaseUrl).
   */
  workers?: number;
  /** the database `sql` is connected to, for worker processes to connect to */
  databaseUrl?: string;
  /**
   * Company facts and submissions from SEC's bulk archives: a directory holding companyfacts.zip
   * and submissions.zip, or an https:// sec.gov base they are downloaded from. Ticker files and
   * filing packages still come from the source.
   */
  archives?: string | Archives;
  /** how the archives are opened (downloads: User-Agent, a stand-in origin; the member bound) */
  archiveOptions?: OpenArchivesOptions;
  /** how a live source is reached (a stand-in origin in tests); a mirror needs none */
  sourceOptions?: SecSourceOptions;
}

export interface IngestSummary {
  run_id: number;
  source: string;
  status: 'succeeded' | 'failed';
  counters: RunCounters;
  companies: CompanyResult[];
  errors: { cik: string; message: string }[];
  elapsed_s: number;
  /** the worker processes of a run with `workers` > 1 (empty otherwise), with their peak memory */
  workers: WorkerStats[];
}

export class IngestRequestError extends Error {}

/**
 * Ingest companies from SEC_SOURCE (or `source`): every company the source holds by default, or
 * the CIKs and tickers asked for. Each company is its own transaction, so a run killed midway
 * leaves whole companies behind and the next run finishes the rest; unchanged companies are skipped.
 */
export async function runIngestion(sql: Sql, config: Config, options: IngestOptions = {}): Promise<IngestSummary> {
  const base = openSecSource(options.source ?? config.secSource, { userAgent: config.secUserAgent, ...options.sourceOptions });
  const given = typeof options.archives === 'object' ? options.archives : null;
  const archives = given ?? (typeof options.archives === 'string' ? await openArchives(options.archives, { userAgent: config.secUserAgent, maxMemberBytes: config.archiveMemberMaxBytes, ...options.archiveOptions }) : null);
  try {
    return await runOver(sql, config, options, archives ? withArchives(base, archives) : base, archives);
  } finally {
    // archives the caller opened are the caller's to close
    if (!given) await archives?.close();
  }
}

async function runOver(sql: Sql, config: Config, options: IngestOptions, source: SecSource, archives: Archives | null): Promise<IngestSummary> {
  const workerCount = options.workers ?? 1;
  if (!Number.isInteger(workerCount) || workerCount < 1) throw new IngestRequestError(`workers must be a positive integer, got ${workerCount}`);
  const databaseUrl = options.databaseUrl ?? config.databaseUrl;
  if (workerCount > 1 && !databaseUrl) throw new IngestRequestError('worker processes need the database URL (databaseUrl)');
  // started first, so the workers load their code while the company list is read
  const pool =
    workerCount > 1
      ? startWorkerPool(workerCount, {
          databaseUrl: databaseUrl!,
          source: options.source ?? config.secSource,
          userAgent: config.secUserAgent,
          maxRps: source.kind === 'live' ? SEC_MAX_RPS / workerCount : null,
          connections: 2,
          archives: archives?.files ?? null,
          maxMemberBytes: options.archiveOptions?.maxMemberBytes ?? config.archiveMemberMaxBytes,
        })
      : null;
  // in this process, the companies' reads and write transactions go over the server's Unix socket
  // when it is on this machine and provably the same database (db/local-socket.ts): their COPY over
  // loopback TCP cost ~0.4 s of Node CPU per whole-mirror run. The run record stays on `sql`.
  const local = pool === null ? await sameDatabaseOverLocalSocket(sql, databaseUrl, { max: Math.max(1, options.concurrency ?? COMPANIES_IN_FLIGHT) + 1 }) : null;
  try {
    return await ingestAll(sql, local ?? sql, source, options, pool, archives);
  } finally {
    await pool?.close();
    await local?.end({ timeout: 5 });
  }
}

/**
 * Companies in flight per process by default: one is normalized while the other's transaction runs.
 * A third (the default before) bought no speed once the write side got cheaper (ingest bench,
 * quiet machine: 0.051-0.053 of JSON.parse either way) and raised the peak RSS from 430-472 to
 * 439-548 MiB, against the 512 MiB goal.
 */
const COMPANIES_IN_FLIGHT = 2;

/** `sql` holds the run record and its progress; `companySql` (the same database) ingests the companies in this process. */
async function ingestAll(sql: Sql, companySql: Sql, source: SecSource, options: IngestOptions, pool: WorkerPool | null, archives: Archives | null): Promise<IngestSummary> {
  const now = options.now ?? (() => new Date());
  const requested = [...(options.ciks ?? []).map((c) => padCik(c))];
  for (const t of options.tickers ?? []) {
    const row = await resolveTicker(sql, t.toUpperCase(), null);
    if (!row) throw new IngestRequestError(`unknown ticker ${t}: load identity first (npm run fds -- identity load) or pass --cik`);
    requested.push(row.cik);
  }
  const ciks = requested.length > 0 ? [...new Set(requested)] : await everyCompany(sql, source);

  const runId = await startRun(sql, source.describe(), requested, now());
  const counters: RunCounters = {
    companies_total: ciks.length,
    companies_done: 0,
    companies_skipped: 0,
    companies_without_data: 0,
    companies_failed: 0,
    facts_read: 0,
    bytes_read: 0,
    versions_added: 0,
    restatements_added: 0,
    archive_bytes_total: archives ? ciks.reduce((n, cik) => n + companyArchiveBytes(archives, cik), 0) : null,
    archive_bytes_done: archives ? 0 : null,
  };
  const started = performance.now();
  const companies: CompanyResult[] = [];
  const errors: { cik: string; message: string }[] = [];
  const catalog = catalogView();
  const report = (current: string | null) => {
    const elapsed = (performance.now() - started) / 1000;
    const finished = counters.companies_done + counters.companies_failed;
    options.onProgress?.({
      ...counters,
      run_id: runId,
      elapsed_s: elapsed,
      facts_per_s: elapsed > 0 ? counters.facts_read / elapsed : 0,
      eta_s: finished > 0 ? (elapsed / finished) * (counters.companies_total - finished) : null,
      current,
      archive: archives ? archiveProgress(counters.archive_bytes_done ?? 0, counters.archive_bytes_total ?? 0, elapsed) : null,
    });
  };
  report(null);

  // from the live site a bulk load leaves filing packages to the package window's jobs (ingest/package-window.ts)
  const strict = { requireFacts: archives !== null, ...(archives && source.kind === 'live' ? { packageAccessions: [] } : {}) };
  const ingestOne = pool ? (cik: string) => pool.ingest(cik, runId) : (cik: string) => ingestCompany(companySql, source, cik, runId, catalog, now, strict);
  const perWorker = Math.max(1, options.concurrency ?? COMPANIES_IN_FLIGHT);

  // The run's progress row is written after each company in order, one write after the other,
  // without holding up the worker: its commit (a WAL flush) and its answer are a wait the next
  // company's reading and parsing need not sit behind. A failed write stops the run as before,
  // from the next company on.
  let progress: Promise<void> = Promise.resolve();
  let progressFailed: { error: unknown } | null = null;
  const recordProgressInOrder = (snapshot: RunCounters, at: Date) => {
    progress = progress.then(() => recordProgress(sql, runId, snapshot, at)).catch((error: unknown) => {
      progressFailed ??= { error };
    });
  };

  let next = 0;
  const worker = async () => {
    while (next < ciks.length) {
      if (progressFailed) throw progressFailed.error;
      const cik = ciks[next++]!;
      try {
        const r = await ingestOne(cik);
        companies.push(r);
        options.onCompany?.(r);
        counters.companies_done++;
        if (r.status === 'unchanged') counters.companies_skipped++;
        else if (r.status === 'no_data') counters.companies_without_data++;
        counters.facts_read += r.facts;
        if (r.status === 'ingested') counters.bytes_read += r.bytes;
        counters.versions_added += r.versions_added;
        counters.restatements_added += r.restatements_added;
      } catch (err) {
        counters.companies_failed++;
        errors.push({ cik, message: archives ? inMembers(archives, cik, (err as Error).message) : (err as Error).message });
      }
      if (archives) counters.archive_bytes_done = (counters.archive_bytes_done ?? 0) + companyArchiveBytes(archives, cik);
      recordProgressInOrder({ ...counters }, now());
      report(cik);
    }
  };
  await Promise.all(Array.from({ length: perWorker * (pool?.size ?? 1) }, worker));
  await progress;
  if (progressFailed) throw (progressFailed as { error: unknown }).error;
  const workers: WorkerStats[] = pool ? await pool.close() : [];
  // metric population statistics (GET /v1/coverage/metrics) follow the corpus: recomputed when it changed or never computed
  if (counters.versions_added > 0 || (await populationStatsMissing(sql))) {
    await refreshPopulationStats(sql, now()).catch((err: Error) => errors.push({ cik: '', message: `population statistics: ${err.message}` }));
  }
  // reads plan on the statistics of the corpus just written, not of the one before the run (db/table-statistics.ts)
  if (counters.versions_added > 0) {
    await refreshStaleStatistics(sql).catch((err: Error) => errors.push({ cik: '', message: `planner statistics: ${err.message}` }));
  }

  const status = errors.length > 0 ? 'failed' : 'succeeded';
  await finishRun(sql, runId, status, counters, errors, now());
  companies.sort((a, b) => a.cik.localeCompare(b.cik));
  return { run_id: runId, source: source.describe(), status, counters, companies, errors, elapsed_s: (performance.now() - started) / 1000, workers };
}

/** Progress through the archives by compressed bytes, with the rate so far and the time left at it. */
export function archiveProgress(done: number, total: number, elapsedS: number): NonNullable<IngestProgress['archive']> {
  const rate = elapsedS > 0 ? done / elapsedS : 0;
  return { bytes_done: done, bytes_total: total, bytes_per_s: rate, eta_s: done > 0 && rate > 0 ? (total - done) / rate : null };
}

/** A company's error, naming the archive members it came from (unless the message names one already). */
function inMembers(archives: Archives, cik: string, message: string): string {
  if (/\.zip member /.test(message)) return message;
  const members = companyMembers(archives, cik).map((m) => `${m.archive.name} member ${m.member}`);
  return members.length > 0 ? `${members.slice(0, 2).join(', ')}: ${message}` : message;
}

/** A mirror lists its folders; the live site cannot be listed, so there the known companies are used. */
export async function everyCompany(sql: Db, source: SecSource): Promise<string[]> {
  const [facts, submissions, packages] = await Promise.all([listCompanyFactsCiks(source), listSubmissionCiks(source), listPackageCiks(source)]);
  if (facts !== null || submissions !== null || packages !== null) {
    return [...new Set([...(facts ?? []), ...(submissions ?? []), ...(packages ?? [])])].sort();
  }
  const rows = await sql<{ cik: string }[]>`SELECT cik FROM companies ORDER BY cik`;
  return rows.map((r) => r.cik);
}
