import type { StatementIdentity } from '../domain/statements/key.ts';
import type { Db } from './client.ts';
import type { StoredFigure } from './figure-storage.ts';
import { headerColumns, unpackVersion, type VersionHeader, type VersionRow, visible } from './statement-versions.ts';

/** Reads of one company's statement versions: one identity's lineage, a metric's series, the periods on record. */

/** Which versions a read may see: knowable by a date, and/or only as first reported. */
export interface Visibility {
  /** SEC filing date on or before this date */
  as_of_date: string | null;
  /** version 1 of each period only */
  as_reported: boolean;
}

export interface MetricPointRow extends Omit<VersionHeader, 'previous_version_id' | 'created_at' | 'accounting_standard'> {
  figure: StoredFigure;
  /** the filing the figure was read from (a version carries forward figures of earlier filings) */
  source_form: string | null;
  source_filing_date: string | null;
  source_accepted_at: string | null;
}

export interface SeriesFilter {
  cik: string;
  statement_type: string;
  metric: string;
  fiscal_periods: string[] | null;
  fiscal_year_from: number | null;
  fiscal_year_to: number | null;
}

/** The visibility rule `v` as a condition on `statement_versions v`. */
export function seen(sql: Db, v: Visibility) {
  return sql`${visible(sql, v.as_of_date)} ${v.as_reported ? sql`AND v.version_sequence = 1` : sql``}`;
}

/** Every version of one statement identity visible under `v`, oldest first. */
export async function statementVersions(
  sql: Db,
  id: StatementIdentity,
  v: Visibility,
): Promise<VersionRow[]> {
  const rows = await sql<VersionRow[]>`
    SELECT ${headerColumns(sql)}, v.figures, v.calculation_evidence, v.unavailable_figures FROM statement_versions v
    WHERE v.cik = ${id.cik} AND v.statement_type = ${id.statement_type}
      AND v.fiscal_year = ${id.fiscal_year} AND v.fiscal_period = ${id.fiscal_period}
      AND ${seen(sql, v)}
    ORDER BY v.version_sequence`;
  return rows.map(unpackVersion);
}

/** Periods a company has for a statement type (latest versions), to tell a caller what exists. */
export async function availablePeriods(sql: Db, cik: string, statementType: string): Promise<{ fiscal_year: number; fiscal_period: string }[]> {
  return sql<{ fiscal_year: number; fiscal_period: string }[]>`
    SELECT DISTINCT fiscal_year, fiscal_period FROM statement_versions
    WHERE cik = ${cik} AND statement_type = ${statementType}
    ORDER BY fiscal_year DESC, fiscal_period LIMIT 12`;
}