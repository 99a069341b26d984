/**
 * Reads behind the panel, bundle, view and derived-metric time series: the latest version of each
 * statement period, with its packed figures cut down in SQL to the metrics asked for (value and
 * whether it was derived), so a request is one query however many companies it spans.
 */
import type { StatementRow } from '../../domain/series-periods.ts';
import type { Db } from '../../db/client.ts';
import { latestPerPeriod } from '../../db/statement-versions.ts';

export interface SeriesQuery {
  ciks: string[];
  statement_types: string[];
  /** null: every period */
  fiscal_periods: string[] | null;
  fiscal_year_from: number | null;
  fiscal_year_to: number | null;
  /** statement date (period end) bounds, inclusive */
  period_end_from: string | null;
  period_end_to: string | null;
  /** null: every metric the version carries */
  metrics: string[] | null;
  /** only figures exactly as the filer tagged them for the period (no derived quarter, no correction) */
  tier1: boolean;
}

const COLUMNS = [
  'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'statement_version_id', 'version_sequence', 'period_start',
  'period_end', 'currency', 'accounting_standard', 'accession', 'filing_date',
] as const;

function latest(sql: Db, q: SeriesQuery) {
  return latestPerPeriod(
    sql,
    sql`${sql(COLUMNS.map((c) => `v.${c}`))}, v.figures`,
    sql`v.cik IN ${sql(q.ciks)} AND v.statement_type IN ${sql(q.statement_types)}
      ${q.fiscal_periods ? sql`AND v.fiscal_period IN ${sql(q.fiscal_periods)}` : sql``}
      ${q.fiscal_year_from !== null ? sql`AND v.fiscal_year >= ${q.fiscal_year_from}` : sql``}
      ${q.fiscal_year_to !== null ? sql`AND v.fiscal_year <= ${q.fiscal_year_to}` : sql``}
      ${q.period_end_from !== null ? sql`AND v.period_end >= ${q.period_end_from}` : sql``}
      ${q.period_end_to !== null ? sql`AND v.period_end <= ${q.period_end_to}` : sql``}`,
  );
}

/** metric -> { v: value, d: derived } of the version's figures, filtered; NULL when none is left */
function projected(sql: Db, q: SeriesQuery) {
  return sql`(
    SELECT jsonb_object_agg(e.key, jsonb_build_object('v', e.value ->> 'value', 'd', coalesce(e.value ->> 'value_origin', 'SOURCE') <> 'SOURCE'))
    FROM jsonb_each(l.figures) e
    WHERE true
      ${q.metrics ? sql`AND e.key IN ${sql(q.metrics)}` : sql``}
      ${q.tier1 ? sql`AND coalesce(e.value ->> 'value_origin', 'SOURCE') = 'SOURCE' AND e.value -> 'correction_rule' IS NULL` : sql``}
  )`;
}

/**
 * Latest version of every matching statement period, figures projected; periods whose projection
 * is empty still come back (with {}), since a bundle or derived read needs the period's dates.
 */
export async function latestStatementRows(sql: Db, q: SeriesQuery): Promise<StatementRow[]> {
  if (q.ciks.length === 0 || q.statement_types.length === 0 || q.metrics?.length === 0) return [];
  const rows = await sql<(Omit<StatementRow, 'figures'> & { figures: StatementRow['figures'] | null })[]>`
    SELECT ${sql(COLUMNS.map((c) => `l.${c}`))}, ${projected(sql, q)} AS figures
    FROM (${latest(sql, q)}) l
    ORDER BY l.cik, l.statement_type, l.period_end`;
  return rows.map((r) => ({ ...r, figures: r.figures ?? {} }));
}

/**
 * One page of a single-statement-type panel: the latest version of each period, ordered by cik,
 * period end (quarters before the year ending the same day); periods left with no metric after
 * the projection give no point.
 */
export async function panelPage(sql: Db, q: SeriesQuery, page: { limit: number; offset: number }): Promise<{ total: number; rows: StatementRow[] }> {
  if (q.ciks.length === 0 || q.metrics?.length === 0) return { total: 0, rows: [] };
  const kept = sql`
    SELECT ${sql(COLUMNS.map((c) => `l.${c}`))}, ${projected(sql, q)} AS figures
    FROM (${latest(sql, q)}) l`;
  const rows = await sql<(StatementRow & { total: number })[]>`
    SELECT k.*, count(*) OVER ()::int AS total FROM (${kept}) k
    WHERE k.figures IS NOT NULL
    ORDER BY k.cik, k.period_end, k.fiscal_year, CASE k.fiscal_period WHEN 'FY' THEN 1 ELSE 0 END, k.fiscal_period
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  if (rows.length > 0 || page.offset === 0) return { total: rows[0]?.total ?? 0, rows };
  // a page past the end still reports the total
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM (${kept}) k WHERE k.figures IS NOT NULL`;
  return { total: count?.total ?? 0, rows };
}
