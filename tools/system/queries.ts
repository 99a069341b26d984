import type { Db } from '../../db/client.ts';
import type { RunRow } from '../../db/ingestion-runs.ts';
import { listMigrations } from '../../db/migrate.ts';

export async function corpusStatementCounts(sql: Db): Promise<{ companies_ingested: number; statement_versions: number; restatements: number; filings: number }> {
  const [row] = await sql<{ companies_ingested: number; statement_versions: number; restatements: number; filings: number }[]>`
    SELECT (SELECT count(*)::int FROM company_ingestion) AS companies_ingested,
           (SELECT count(*)::int FROM statement_versions) AS statement_versions,
           (SELECT count(*)::int FROM restatement_alert_events) AS restatements,
           (SELECT count(*)::int FROM filings) AS filings`;
  return row!;
}

export async function corpusCounts(sql: Db): Promise<{ companies: number; mappings: number; live_mappings: number; last_load: string | null }> {
  const [row] = await sql<{ companies: number; mappings: number; live_mappings: number; last_load: string | null }[]>`
    SELECT (SELECT count(*)::int FROM companies) AS companies,
           (SELECT count(*)::int FROM identity_mappings) AS mappings,
           (SELECT count(*)::int FROM identity_mappings WHERE is_active) AS live_mappings,
           (SELECT max(finished_at) FROM identity_loads) AS last_load`;
  return row!;
}

export async function recentRuns(sql: Db, limit: number): Promise<RunRow[]> {
  return sql<RunRow[]>`
    SELECT run_id::text, source, requested, status, started_at, finished_at, heartbeat_at,
      companies_total, companies_done, companies_skipped, companies_without_data, companies_failed, facts_read::text, bytes_read::text,
      versions_added, restatements_added, archive_bytes_total::text, archive_bytes_done::text, errors
    FROM ingestion_runs ORDER BY run_id DESC LIMIT ${limit}`;
}

/** For readiness: how many known migrations the database has recorded. */
export async function migrationState(sql: Db): Promise<{ applied: number; expected: number }> {
  const expected = (await listMigrations()).length;
  const [row] = await sql`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`;
  if (!row?.present) return { applied: 0, expected };
  const [count] = await sql`SELECT count(*)::int AS n FROM schema_migrations`;
  return { applied: Number(count?.n ?? 0), expected };
}
