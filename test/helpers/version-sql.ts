/**
 * The version selections the reads make over a company's versions in memory
 * (domain/statements/company-versions.ts), written as SQL over statement_versions with the rules of
 * db/statement-versions.ts: the reference test/company-versions-corpus.test.ts holds the index to.
 */
import type { Db } from '../../db/client.ts';
import { unpackFigure } from '../../db/figure-storage.ts';
import { seen, type MetricPointRow, type SeriesFilter, type Visibility } from '../../db/statement-read.ts';
import { headerColumns, latestPerPeriod, latestVersionOf, visible, type VersionHeader } from '../../db/statement-versions.ts';
import type { StatementIdentity } from '../../domain/statements/key.ts';
import type { VisiblePeriod } from '../../tools/filings/state-queries.ts';
import type { SeriesQuery } from '../../tools/series/queries.ts';

/** The id of the latest version of one statement visible under `v`, null when none is. */
export async function latestVersionId(sql: Db, id: StatementIdentity, v: Visibility): Promise<string | null> {
  const [row] = await sql<{ statement_version_id: string }[]>`${latestVersionOf(
    sql,
    sql`v.statement_version_id`,
    sql`v.cik = ${id.cik} AND v.statement_type = ${id.statement_type}
      AND v.fiscal_year = ${id.fiscal_year} AND v.fiscal_period = ${id.fiscal_period}
      AND ${seen(sql, v)}`,
  )}`;
  return row?.statement_version_id ?? null;
}

/** Every period of a company with a version filed on or before `asOf`, newest period end first. */
export async function visiblePeriods(sql: Db, cik: string, asOf: string): Promise<VisiblePeriod[]> {
  return sql<VisiblePeriod[]>`
    SELECT fiscal_year, fiscal_period, max(period_end) AS period_end
    FROM statement_versions v
    WHERE v.cik = ${cik} AND ${visible(sql, asOf)}
    GROUP BY fiscal_year, fiscal_period
    ORDER BY max(period_end) DESC, fiscal_year DESC`;
}

/**
 * The latest version of each statement type of the named periods visible on `asOf`: annual first,
 * then income statement, balance sheet, cash flow.
 */
export async function latestHeadersAsOf(sql: Db, cik: string, asOf: string, periods: readonly { fiscal_year: number; fiscal_period: string }[]): Promise<VersionHeader[]> {
  if (periods.length === 0) return [];
  const each = periods.map((p) => sql`(v.fiscal_year = ${p.fiscal_year} AND v.fiscal_period = ${p.fiscal_period})`);
  const where = sql`v.cik = ${cik} AND ${visible(sql, asOf)} AND (${each.reduce((a, b) => sql`${a} OR ${b}`)})`;
  return sql<VersionHeader[]>`
    SELECT * FROM (${latestPerPeriod(sql, headerColumns(sql), where)}) v
    ORDER BY v.period_end DESC, CASE v.fiscal_period WHEN 'FY' THEN 0 ELSE 1 END,
      CASE v.statement_type WHEN 'INCOME_STATEMENT' THEN 1 WHEN 'BALANCE_SHEET' THEN 2 ELSE 3 END`;
}

/** The latest version of each period a single-statement-type panel shows, by cik, then period end (quarters before the year ending the same day). */
export async function panelHeadersBySql(sql: Db, q: SeriesQuery): Promise<VersionHeader[]> {
  const where = sql`v.cik IN ${sql(q.ciks)} AND v.statement_type IN ${sql(q.statement_types)}
    ${q.fiscal_periods ? sql`AND v.fiscal_period IN ${sql(q.fiscal_periods)}` : sql``}
    ${q.fiscal_year_from !== null ? sql`AND v.fiscal_year >= ${q.fiscal_year_from}` : sql``}
    ${q.fiscal_year_to !== null ? sql`AND v.fiscal_year <= ${q.fiscal_year_to}` : sql``}
    ${q.period_end_from !== null ? sql`AND v.period_end >= ${q.period_end_from}` : sql``}
    ${q.period_end_to !== null ? sql`AND v.period_end <= ${q.period_end_to}` : sql``}`;
  return sql<VersionHeader[]>`
    SELECT * FROM (${latestPerPeriod(sql, headerColumns(sql), where)}) l
    ORDER BY l.cik, l.period_end, l.fiscal_year, CASE l.fiscal_period WHEN 'FY' THEN 1 ELSE 0 END, l.fiscal_period`;
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
