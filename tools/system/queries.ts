import type { Sql } from '../../db/client.ts';

export async function corpusStatementCounts(sql: Sql): Promise<{ companies_ingested: number; statement_versions: number; restatements: number; filings: number }> {
  const [row] = await sql<{ companies_ingested: number; statement_versions: number; restatements: number; filings: number }[]>`
    SELECT (SELECT count(*)::int FROM company_ingestion) AS companies_ingested,
           (SELECT count(*)::int FROM statement_versions) AS statement_versions,
           (SELECT count(*)::int FROM restatement_alert_events) AS restatements,
           (SELECT count(*)::int FROM filings) AS filings`;
  return row!;
}
