import type { StatementIdentity } from '../domain/statements/key.ts';
import type { Db } from './client.ts';
import { type StoredFigure, unpackFigure } from './figure-storage.ts';
import { headerColumns, latestPerPeriod, unpackVersion, type VersionHeader, type VersionRow, visible } from './statement-versions.ts';

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

/**
 * One point per period: the metric on the latest version visible under `v`. Periods whose
 * visible version lacks the metric give no point. Ordered by period end, quarters before the year.
 */
export async function metricSeries(sql: Db, f: SeriesFilter, v: Visibility, page: { limit: number; offset: number }): Promise<{ total: number; rows: MetricPointRow[] }> {
  const where = sql`
    v.cik = ${f.cik} AND v.statement_type = ${f.statement_type}
      ${f.fiscal_periods ? sql`AND v.fiscal_period IN ${sql(f.fiscal_periods)}` : sql``}
      ${f.fiscal_year_from !== null ? sql`AND v.fiscal_year >= ${f.fiscal_year_from}` : sql``}
      ${f.fiscal_year_to !== null ? sql`AND v.fiscal_year <= ${f.fiscal_year_to}` : sql``}
      AND ${seen(sql, v)}`;
  const raw = await sql<(MetricPointRow & { total: number })[]>`
    WITH latest AS (${latestPerPeriod(
      sql,
      sql`v.statement_version_id, v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence,
        v.period_start, v.period_end, v.accession, v.form, v.filing_date, v.accepted_at, v.currency, v.figures -> ${f.metric} AS figure`,
      where,
    )})
    SELECT latest.*, s.form AS source_form, s.filing_date AS source_filing_date, s.accepted_at AS source_accepted_at,
      count(*) OVER ()::int AS total
    FROM latest LEFT JOIN filings s ON s.accession = coalesce(latest.figure ->> 'source_accession', latest.accession)
    WHERE figure IS NOT NULL
    ORDER BY period_end, fiscal_year, CASE fiscal_period WHEN 'FY' THEN 1 ELSE 0 END, fiscal_period
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  const rows = raw.map((r) => ({ ...r, figure: unpackFigure(r.figure, r) }));
  if (rows.length > 0 || page.offset === 0) return { total: rows[0]?.total ?? 0, rows };
  // a page past the end still reports the total
  const [count] = await sql<{ total: number }[]>`
    SELECT count(*)::int AS total FROM (${latestPerPeriod(sql, sql`v.figures -> ${f.metric} AS figure`, where)}) l WHERE figure IS NOT NULL`;
  return { total: count?.total ?? 0, rows };
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