import type { Sql } from '../../db/client.ts';

/** Tables an ingestion run writes; their digests say whether two databases hold the same ingested data. */
export const INGESTED_TABLES = [
  'companies',
  'company_ingestion',
  'disclosures',
  'dq_issues',
  'dq_run_versions',
  'fact_revisions',
  'filings',
  'identity_mappings',
  'metric_population_stats',
  'reconciliation_results',
  'restatement_alert_events',
  'segment_facts',
  'split_recasts',
  'statement_versions',
  'stock_splits',
] as const;

/**
 * A column that differs between two runs over the same data without the data differing: when a
 * row was written (identity mappings open on the day of the load), which run wrote it, and
 * generated keys (random uuids, integers assigned in whatever order companies finished).
 */
function runDependent(column: string, type: string): boolean {
  if (column.endsWith('_at') || column === 'ms' || column.endsWith('_ms') || column === 'active_from' || column === 'active_to') return true;
  return /(^|_)id$/.test(column) && (type === 'uuid' || /int/.test(type));
}

/** generated keys inside JSON (evidence naming the versions compared) */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** md5 per table over its rows as text (run-dependent columns left out), in a stable order. */
export async function tableDigests(sql: Sql, tables: readonly string[] = INGESTED_TABLES): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tables) {
    const cols = await sql<{ column_name: string; data_type: string }[]>`
      SELECT column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = ${table} ORDER BY ordinal_position`;
    const kept = cols.filter((c) => !runDependent(c.column_name, c.data_type)).map((c) => c.column_name);
    const [row] = await sql<{ n: number; digest: string | null }[]>`
      SELECT count(*)::int AS n, md5(string_agg(r, E'\n' ORDER BY r)) AS digest
      FROM (SELECT regexp_replace(t::text, ${UUID}, 'uuid', 'g') AS r FROM (SELECT ${sql(kept)} FROM ${sql(table)}) t) rows`;
    out[table] = `${row!.n}:${row!.digest ?? ''}`;
  }
  return out;
}
