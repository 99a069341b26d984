import type { Db } from '../../db/client.ts';

/**
 * A restatement written straight into statement_versions (as another instance's ingestion would):
 * the next version of `versionId`'s statement period, filed 30 days later, with REVENUE set to
 * `revenue` when given (the figures unchanged otherwise). Tests of what reads serve after a new
 * version lands use it.
 */
export async function insertNextVersion(sql: Db, versionId: string, options: { revenue?: string; tag: string }): Promise<void> {
  const figures = options.revenue === undefined ? sql`figures` : sql`jsonb_set(figures, '{REVENUE,value}', to_jsonb(${options.revenue}::text))`;
  await sql`
    INSERT INTO statement_versions (cik, statement_type, fiscal_year, fiscal_period, version_sequence, period_start, period_end,
      accession, form, filing_date, accepted_at, currency, accounting_standard, figures, content_hash, previous_version_id)
    SELECT cik, statement_type, fiscal_year, fiscal_period, version_sequence + 1, period_start, period_end,
      accession, form, filing_date + 30, accepted_at, currency, accounting_standard,
      ${figures}, content_hash || ${'-' + options.tag}, statement_version_id
    FROM statement_versions WHERE statement_version_id = ${versionId}`;
}
