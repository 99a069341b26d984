import { z } from 'zod';
import type { Config } from '../config.ts';
import { json, type Sql } from '../db/client.ts';
import { refreshPopulationStats } from '../db/coverage.ts';
import { addBatchResult, recordProgress, startRun } from '../db/ingestion-runs.ts';
import { catalogView } from '../domain/normalize/catalog-view.ts';
import { PERIODIC_FORMS } from '../domain/normalize/history.ts';
import { ingestCompany } from './ingest-company.ts';
import { openSecSource, type SecSourceOptions } from './source.ts';

/**
 * Filing packages for the whole market from the live site. Packages (segments, disclosures,
 * presentation-based concept choice) come one filing at a time under SEC's fair access, so a bulk
 * load from the archives serves statements from company facts first and leaves packages to these
 * jobs: each company's periodic filings (10-K, 10-Q, 20-F, 40-F and their amendments) of the last
 * PACKAGE_WINDOW_QUARTERS quarters, one job per company, the companies with the newest filings
 * first. A job re-ingests its company with those packages; statements whose figures change get a
 * new version, the others none (the version rules hold). The jobs form one run, with its progress
 * and ETA in the ingestion status.
 */
export const PACKAGE_WINDOW_TASK = 'ingest_package_window';

export const PackageWindowPayload = z.object({
  run_id: z.number().int().positive(),
  source: z.string().min(1),
  cik: z.string().regex(/^\d{10}$/),
  /** newest first */
  accessions: z.array(z.string().regex(/^\d{10}-\d{2}-\d{6}$/)).min(1),
});
export type PackageWindowPayload = z.infer<typeof PackageWindowPayload>;

/** The first day of the window: `quarters` quarters of three months before `now`. */
export function windowStart(now: Date, quarters: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3 * quarters, now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

/** Records the window's run and enqueues one job per company with periodic filings in it, newest first. Null when none has any. */
export async function enqueuePackageWindow(
  sql: Sql,
  config: Config,
  options: { quarters: number; now?: () => Date },
): Promise<{ run_id: number; companies: number; filings: number } | null> {
  const now = options.now ?? (() => new Date());
  const since = windowStart(now(), options.quarters);
  const rows = await sql<{ cik: string; accessions: string[] }[]>`
    SELECT cik, array_agg(accession ORDER BY filing_date DESC, accession DESC) AS accessions
    FROM filings WHERE form IN ${sql([...PERIODIC_FORMS])} AND filing_date >= ${since}
    GROUP BY cik ORDER BY max(filing_date) DESC, cik`;
  if (rows.length === 0) return null;
  const runId = await sql.begin(async (t) => {
    const tx = t;
    const id = await startRun(tx, `filing packages of the last ${options.quarters} quarters from ${config.secSource}`, [], now());
    await recordProgress(
      tx,
      id,
      {
        companies_total: rows.length, companies_done: 0, companies_skipped: 0, companies_without_data: 0, companies_failed: 0,
        facts_read: 0, bytes_read: 0, versions_added: 0, restatements_added: 0,
      },
      now(),
    );
    // inserted newest first: the queue takes jobs of one priority in the order they were added
    for (const r of rows) {
      const payload: PackageWindowPayload = { run_id: id, source: config.secSource, cik: r.cik, accessions: r.accessions };
      await tx`SELECT graphile_worker.add_job(${PACKAGE_WINDOW_TASK}, ${json(tx, payload)}::json, max_attempts := 5, job_key := ${`package-window-${id}-${r.cik}`})`;
    }
    return id;
  });
  return { run_id: runId, companies: rows.length, filings: rows.reduce((n, r) => n + r.accessions.length, 0) };
}

/** One company's packages of the window, in the worker that took its job. */
export async function ingestPackageWindowJob(
  sql: Sql,
  config: Config,
  raw: unknown,
  log: (m: string) => void,
  options: { now?: () => Date; sourceOptions?: SecSourceOptions } = {},
): Promise<void> {
  const p = PackageWindowPayload.parse(raw);
  const now = options.now ?? (() => new Date());
  const source = openSecSource(p.source, { userAgent: config.secUserAgent, ...options.sourceOptions });
  const c = { companies_done: 0, companies_skipped: 0, companies_without_data: 0, companies_failed: 0, facts_read: 0, bytes_read: 0, versions_added: 0, restatements_added: 0 };
  const errors: { cik: string; message: string }[] = [];
  try {
    const r = await ingestCompany(sql, source, p.cik, p.run_id, catalogView(), now, { packageAccessions: p.accessions });
    c.companies_done = 1;
    if (r.status === 'unchanged') c.companies_skipped = 1;
    else if (r.status === 'no_data') c.companies_without_data = 1;
    c.facts_read = r.facts;
    c.bytes_read = r.status === 'ingested' ? r.bytes : 0;
    c.versions_added = r.versions_added;
    c.restatements_added = r.restatements_added;
    log(`package window run ${p.run_id}: ${p.cik} ${r.packages} packages, ${r.versions_added} versions added`);
  } catch (err) {
    c.companies_failed = 1;
    errors.push({ cik: p.cik, message: (err as Error).message });
  }
  if (await addBatchResult(sql, p.run_id, c, errors, now())) await refreshPopulationStats(sql, now());
}
