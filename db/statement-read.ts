import type { CalculationEvidence } from '../domain/calculation-evidence.ts';
import type { FactRevision } from '../domain/normalize/versions.ts';
import { unpackFigure, type StoredFigure } from './figure-storage.ts';

export type { StoredFigure };
import type { Sql } from './client.ts';


/** Which versions a read may see: knowable by a date, and/or only as first reported. */
export interface Visibility {
  /** SEC filing date on or before this date */
  as_of_date: string | null;
  /** version 1 of each period only */
  as_reported: boolean;
}

export interface VersionHeader {
  statement_version_id: string;
  cik: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  version_sequence: number;
  period_start: string | null;
  period_end: string;
  accession: string;
  form: string;
  filing_date: string;
  accepted_at: string | null;
  currency: string | null;
  accounting_standard: string;
  previous_version_id: string | null;
  created_at: string;
}

export interface VersionRow extends VersionHeader {
  figures: Record<string, StoredFigure>;
  /** the filer's calculation trees checked against the figures; null without a calculation linkbase */
  calculation_evidence: CalculationEvidence[] | null;
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

function visible(sql: Sql, v: Visibility) {
  return sql`
    ${v.as_of_date ? sql`AND filing_date <= ${v.as_of_date}` : sql``}
    ${v.as_reported ? sql`AND version_sequence = 1` : sql``}`;
}

/**
 * One point per period: the metric on the latest version visible under `v`. Periods whose
 * visible version lacks the metric give no point. Ordered by period end, quarters before the year.
 */
export async function metricSeries(sql: Sql, f: SeriesFilter, v: Visibility, page: { limit: number; offset: number }): Promise<{ total: number; rows: MetricPointRow[] }> {
  const periods = sql`
    FROM statement_versions
    WHERE cik = ${f.cik} AND statement_type = ${f.statement_type}
      ${f.fiscal_periods ? sql`AND fiscal_period IN ${sql(f.fiscal_periods)}` : sql``}
      ${f.fiscal_year_from !== null ? sql`AND fiscal_year >= ${f.fiscal_year_from}` : sql``}
      ${f.fiscal_year_to !== null ? sql`AND fiscal_year <= ${f.fiscal_year_to}` : sql``}
      ${visible(sql, v)}
    ORDER BY fiscal_year, fiscal_period, version_sequence DESC`;
  const raw = await sql<(MetricPointRow & { total: number })[]>`
    WITH latest AS (
      SELECT DISTINCT ON (fiscal_year, fiscal_period)
        statement_version_id, cik, statement_type, fiscal_year, fiscal_period, version_sequence,
        period_start, period_end, accession, form, filing_date, accepted_at, currency, figures -> ${f.metric} AS figure
      ${periods}
    )
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
    SELECT count(*)::int AS total FROM (
      SELECT DISTINCT ON (fiscal_year, fiscal_period) figures -> ${f.metric} AS figure ${periods}
    ) l WHERE figure IS NOT NULL`;
  return { total: count?.total ?? 0, rows };
}

const HEADER = [
  'statement_version_id', 'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'version_sequence', 'period_start',
  'period_end', 'accession', 'form', 'filing_date', 'accepted_at', 'currency', 'accounting_standard',
  'previous_version_id', 'created_at',
] as const;

/** Every version of one statement identity visible under `v`, oldest first. */
export async function statementVersions(
  sql: Sql,
  id: { cik: string; statement_type: string; fiscal_year: number; fiscal_period: string },
  v: Visibility,
): Promise<VersionRow[]> {
  const rows = await sql<VersionRow[]>`
    SELECT ${sql(HEADER)}, figures, calculation_evidence FROM statement_versions
    WHERE cik = ${id.cik} AND statement_type = ${id.statement_type}
      AND fiscal_year = ${id.fiscal_year} AND fiscal_period = ${id.fiscal_period}
      ${visible(sql, v)}
    ORDER BY version_sequence`;
  for (const row of rows) for (const m of Object.keys(row.figures)) row.figures[m] = unpackFigure(row.figures[m]!, row);
  return rows;
}

export interface RevisionRow extends Pick<FactRevision, 'metric' | 'old_value' | 'new_value' | 'difference' | 'old_accession' | 'new_accession'> {
  statement_version_id: string;
}

export async function revisionsOf(sql: Sql, versionIds: string[]): Promise<RevisionRow[]> {
  if (versionIds.length === 0) return [];
  return sql<RevisionRow[]>`
    SELECT statement_version_id, metric, old_value::text, new_value::text, difference::text, old_accession, new_accession
    FROM fact_revisions WHERE statement_version_id IN ${sql(versionIds)} ORDER BY metric`;
}

/** Periods a company has for a statement type (latest versions), to tell a caller what exists. */
export async function availablePeriods(sql: Sql, cik: string, statementType: string): Promise<{ fiscal_year: number; fiscal_period: string }[]> {
  return sql<{ fiscal_year: number; fiscal_period: string }[]>`
    SELECT DISTINCT fiscal_year, fiscal_period FROM statement_versions
    WHERE cik = ${cik} AND statement_type = ${statementType}
    ORDER BY fiscal_year DESC, fiscal_period LIMIT 12`;
}
