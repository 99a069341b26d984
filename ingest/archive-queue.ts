import { z } from 'zod';
import type { Config } from '../config.ts';
import { json, type Sql } from '../db/client.ts';
import { refreshPopulationStats } from '../db/coverage.ts';
import { refreshStaleStatistics } from '../db/table-statistics.ts';
import { addBatchResult, recordProgress, startRun } from '../db/ingestion-runs.ts';
import { catalogView } from '../domain/normalize/catalog-view.ts';
import { companyArchiveBytes, withArchives } from './archive-source.ts';
import { openArchives, type Archives } from './archives.ts';
import { ingestCompany } from './ingest-company.ts';
import { identityIsEmpty, loadIdentity } from './load-identity.ts';
import { everyCompany } from './run-ingestion.ts';
import { openSecSource, type SecSource } from './source.ts';

/** The job-queue task that ingests one batch of a queued archive run. */
export const ARCHIVE_BATCH_TASK = 'ingest_archive_batch';
/** companies per job by default: small enough to spread, large enough that a job's overhead is nothing */
export const DEFAULT_BATCH_SIZE = 25;

export const ArchiveBatchPayload = z.object({
  run_id: z.number().int().positive(),
  /** the archives' location, as every worker reaches it: a shared directory or an https:// sec.gov base */
  archives: z.string().min(1),
  /** SEC_SOURCE of the run (ticker files, filing packages) */
  source: z.string().min(1),
  batch: z.number().int().positive(),
  batches: z.number().int().positive(),
  ciks: z.array(z.string().regex(/^\d{10}$/)).min(1),
});
export type ArchiveBatchPayload = z.infer<typeof ArchiveBatchPayload>;

/**
 * A run over the archives split into jobs on the queue: the run is recorded (its companies and
 * archive bytes counted), then one job per batch of companies is enqueued in the same transaction.
 * Any worker of any instance or machine on the same database takes a job; each job runs on one
 * worker at a time, so no company is ingested twice, and a job whose worker died is retried by
 * another, its finished companies then skipped as unchanged.
 */
export async function enqueueArchiveRun(
  sql: Sql,
  config: Config,
  options: { archives: string; batchSize?: number; now?: () => Date; maxAttempts?: number },
): Promise<{ run_id: number; companies: number; batches: number }> {
  const now = options.now ?? (() => new Date());
  const size = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const archives = await openArchives(options.archives, { userAgent: config.secUserAgent, maxMemberBytes: config.archiveMemberMaxBytes });
  try {
    const source = withArchives(openSecSource(config.secSource, { userAgent: config.secUserAgent }), archives);
    // identity from the archives' submissions first, as a run in one process loads it
    if (await identityIsEmpty(sql)) await loadIdentity(sql, config, { source });
    const ciks = await everyCompany(sql, source);
    const bytes = ciks.reduce((n, cik) => n + companyArchiveBytes(archives, cik), 0);
    const batches: string[][] = [];
    for (let i = 0; i < ciks.length; i += size) batches.push(ciks.slice(i, i + size));
    const runId = await sql.begin(async (t) => {
      const tx = t;
      const id = await startRun(tx, source.describe(), [], now());
      await recordProgress(
        tx,
        id,
        {
          companies_total: ciks.length, companies_done: 0, companies_skipped: 0, companies_without_data: 0, companies_failed: 0,
          facts_read: 0, bytes_read: 0, versions_added: 0, restatements_added: 0, archive_bytes_total: bytes, archive_bytes_done: 0,
        },
        now(),
      );
      for (const [i, batch] of batches.entries()) {
        const payload: ArchiveBatchPayload = { run_id: id, archives: options.archives, source: config.secSource, batch: i + 1, batches: batches.length, ciks: batch };
        await tx`SELECT graphile_worker.add_job(${ARCHIVE_BATCH_TASK}, ${json(tx, payload)}::json,
          max_attempts := ${options.maxAttempts ?? 5}, job_key := ${`archive-run-${id}-${i + 1}`})`;
      }
      return id;
    });
    return { run_id: runId, companies: ciks.length, batches: batches.length };
  } finally {
    await archives.close();
  }
}

/** Archives a worker process has opened, by location: a downloaded pair is fetched once per process. */
const opened = new Map<string, Promise<{ archives: Archives; source: SecSource }>>();

/** One batch, in the worker that took its job: each company whole in its own transaction, then the batch's counts added to the run. */
export async function ingestArchiveBatch(sql: Sql, config: Config, raw: unknown, log: (m: string) => void, now: () => Date = () => new Date()): Promise<void> {
  const p = ArchiveBatchPayload.parse(raw);
  const key = `${p.archives}\n${p.source}`;
  if (!opened.has(key)) {
    opened.set(
      key,
      openArchives(p.archives, { userAgent: config.secUserAgent, maxMemberBytes: config.archiveMemberMaxBytes }).then((archives) => ({
        archives,
        source: withArchives(openSecSource(p.source, { userAgent: config.secUserAgent }), archives),
      })),
    );
    opened.get(key)!.catch(() => opened.delete(key));
  }
  const { archives, source } = await opened.get(key)!;
  const catalog = catalogView();
  const c = {
    companies_done: 0, companies_skipped: 0, companies_without_data: 0, companies_failed: 0,
    facts_read: 0, bytes_read: 0, versions_added: 0, restatements_added: 0, archive_bytes_done: 0,
  };
  const errors: { cik: string; message: string }[] = [];
  for (const cik of p.ciks) {
    try {
      const r = await ingestCompany(sql, source, cik, p.run_id, catalog, now, { requireFacts: true });
      c.companies_done++;
      if (r.status === 'unchanged') c.companies_skipped++;
      else if (r.status === 'no_data') c.companies_without_data++;
      c.facts_read += r.facts;
      if (r.status === 'ingested') c.bytes_read += r.bytes;
      c.versions_added += r.versions_added;
      c.restatements_added += r.restatements_added;
    } catch (err) {
      c.companies_failed++;
      errors.push({ cik, message: (err as Error).message });
    }
    c.archive_bytes_done += companyArchiveBytes(archives, cik);
  }
  const closed = await addBatchResult(sql, p.run_id, c, errors, now());
  log(`archive run ${p.run_id}: batch ${p.batch}/${p.batches} (${p.ciks.length} companies, ${c.companies_failed} failed) in process ${process.pid}`);
  if (closed) {
    await refreshPopulationStats(sql, now());
    // the closing batch sees every worker's writes in the table counters (db/table-statistics.ts)
    await refreshStaleStatistics(sql).catch((err: Error) => log(`archive run ${p.run_id}: planner statistics: ${err.message}`));
  }
}
