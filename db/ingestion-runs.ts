import { type Db, json } from './client.ts';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'interrupted';

export interface RunCounters {
  companies_total: number;
  companies_done: number;
  /** unchanged since the company was last ingested (same source bytes, same normalizer): nothing read again */
  companies_skipped: number;
  /** nothing usable in the source for the company (status no_data): nothing stored, the next run looks again */
  companies_without_data: number;
  companies_failed: number;
  facts_read: number;
  bytes_read: number;
  versions_added: number;
  restatements_added: number;
  /** a run over the bulk archives: compressed bytes of the members of its companies, and of those finished; null otherwise */
  archive_bytes_total?: number | null;
  archive_bytes_done?: number | null;
}

export interface RunRow extends Omit<RunCounters, 'facts_read' | 'bytes_read' | 'archive_bytes_total' | 'archive_bytes_done'> {
  run_id: string;
  source: string;
  requested: string[];
  status: RunStatus;
  started_at: string;
  finished_at: string | null;
  heartbeat_at: string;
  facts_read: string;
  bytes_read: string;
  archive_bytes_total: string | null;
  archive_bytes_done: string | null;
  errors: { cik: string; message: string }[];
}

/**
 * A run that still says running but whose process is gone (killed mid-run) is closed as
 * interrupted when the next run starts; its finished companies stay, the next run completes the rest.
 */
export async function startRun(sql: Db, source: string, requested: string[], now: Date): Promise<number> {
  await sql`UPDATE ingestion_runs SET status = 'interrupted', finished_at = heartbeat_at WHERE status = 'running'`;
  const [row] = await sql<{ run_id: string }[]>`
    INSERT INTO ingestion_runs (source, requested, status, started_at, heartbeat_at)
    VALUES (${source}, ${json(sql, requested)}, 'running', ${now.toISOString()}, ${now.toISOString()})
    RETURNING run_id`;
  return Number(row!.run_id);
}

export async function recordProgress(sql: Db, runId: number, c: RunCounters, now: Date): Promise<void> {
  await sql`
    UPDATE ingestion_runs SET
      companies_total = ${c.companies_total}, companies_done = ${c.companies_done},
      companies_skipped = ${c.companies_skipped}, companies_without_data = ${c.companies_without_data},
      companies_failed = ${c.companies_failed},
      facts_read = ${c.facts_read}, bytes_read = ${c.bytes_read},
      versions_added = ${c.versions_added}, restatements_added = ${c.restatements_added},
      archive_bytes_total = ${c.archive_bytes_total ?? null}, archive_bytes_done = ${c.archive_bytes_done ?? null},
      heartbeat_at = ${now.toISOString()}
    WHERE run_id = ${runId}`;
}

export async function finishRun(
  sql: Db,
  runId: number,
  status: RunStatus,
  c: RunCounters,
  errors: { cik: string; message: string }[],
  now: Date,
): Promise<void> {
  await recordProgress(sql, runId, c, now);
  await sql`
    UPDATE ingestion_runs SET status = ${status}, finished_at = ${now.toISOString()}, errors = ${json(sql, errors)}
    WHERE run_id = ${runId}`;
}

export interface CompanyIngestionRow {
  cik: string;
  source_hash: string;
  normalizer_version: number;
}

export async function companyIngestionState(sql: Db, cik: string): Promise<CompanyIngestionRow | undefined> {
  const [row] = await sql<CompanyIngestionRow[]>`
    SELECT cik, source_hash, normalizer_version FROM company_ingestion WHERE cik = ${cik}`;
  return row;
}

export async function recordCompanyIngestion(
  sql: Db,
  row: CompanyIngestionRow & { run_id: number; facts: number; filings: number; versions: number },
  now: Date,
): Promise<void> {
  await sql`
    INSERT INTO company_ingestion (cik, source_hash, normalizer_version, run_id, ingested_at, facts, filings, versions)
    VALUES (${row.cik}, ${row.source_hash}, ${row.normalizer_version}, ${row.run_id}, ${now.toISOString()},
            ${row.facts}, ${row.filings}, ${row.versions})
    ON CONFLICT (cik) DO UPDATE SET source_hash = EXCLUDED.source_hash, normalizer_version = EXCLUDED.normalizer_version,
      run_id = EXCLUDED.run_id, ingested_at = EXCLUDED.ingested_at, facts = EXCLUDED.facts,
      filings = EXCLUDED.filings, versions = EXCLUDED.versions`;
}

/**
 * Issuers that file XBRL facts but have no submissions file still need a company row, and the
 * ticker mappings an identity load made for the CIK before that row existed (`npm start` and
 * `fds ingest` load identity first) take its company_id in the same statement: a mapping of a
 * company in the reference never shows `company_id: null`, whatever order the loads ran in.
 * One statement, so the company's transaction pipelines it as before.
 */
export async function ensureCompany(
  sql: Db,
  cik: string,
  name: string,
  fiscalYearEnd: string | null,
  now: Date,
  source: 'sec_companyfacts' | 'sec_filing_package' = 'sec_companyfacts',
): Promise<void> {
  // a data-modifying CTE's rows are not visible to the rest of the statement through the table,
  // only through RETURNING: the company_id is the inserted row's or the existing one's
  await sql`
    WITH inserted AS (
      INSERT INTO companies (cik, name, fiscal_year_end, source, source_loaded_at)
      VALUES (${cik}, ${name}, ${fiscalYearEnd}, ${source}, ${now.toISOString()})
      ON CONFLICT (cik) DO NOTHING
      RETURNING company_id
    ), company AS (
      SELECT company_id FROM inserted
      UNION ALL
      SELECT company_id FROM companies WHERE cik = ${cik}
    )
    UPDATE identity_mappings SET company_id = (SELECT company_id FROM company LIMIT 1)
    WHERE cik = ${cik} AND company_id IS NULL`;
}

/** No company has been ingested yet (a fresh database). */
export async function corpusIsEmpty(sql: Db): Promise<boolean> {
  const [row] = await sql<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM company_ingestion) AS any`;
  return !row!.any;
}

/**
 * One batch of a queued run (companies ingested by a job-queue worker) added to the run's
 * counters, in one statement so batches finishing at once on several workers add up. The batch
 * that finishes the run's last companies closes it: succeeded, or failed when any company failed.
 * Returns whether this batch closed the run.
 */
export async function addBatchResult(
  sql: Db,
  runId: number,
  c: Omit<RunCounters, 'companies_total' | 'archive_bytes_total'>,
  errors: { cik: string; message: string }[],
  now: Date,
): Promise<boolean> {
  const [row] = await sql<{ closed: boolean }[]>`
    UPDATE ingestion_runs SET
      companies_done = companies_done + ${c.companies_done}, companies_skipped = companies_skipped + ${c.companies_skipped},
      companies_without_data = companies_without_data + ${c.companies_without_data}, companies_failed = companies_failed + ${c.companies_failed},
      facts_read = facts_read + ${c.facts_read}, bytes_read = bytes_read + ${c.bytes_read},
      versions_added = versions_added + ${c.versions_added}, restatements_added = restatements_added + ${c.restatements_added},
      archive_bytes_done = coalesce(archive_bytes_done, 0) + ${c.archive_bytes_done ?? 0},
      errors = errors || ${json(sql, errors)}::jsonb,
      heartbeat_at = ${now.toISOString()},
      status = CASE WHEN status <> 'running' OR companies_done + companies_failed + ${c.companies_done + c.companies_failed} < companies_total THEN status
        WHEN companies_failed + ${c.companies_failed} > 0 THEN 'failed' ELSE 'succeeded' END,
      finished_at = CASE WHEN status = 'running' AND companies_done + companies_failed + ${c.companies_done + c.companies_failed} >= companies_total THEN ${now.toISOString()}::timestamptz ELSE finished_at END
    WHERE run_id = ${runId}
    RETURNING status <> 'running' AND finished_at = ${now.toISOString()}::timestamptz AS closed`;
  return row?.closed ?? false;
}
