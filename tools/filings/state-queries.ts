import type { Db } from '../../db/client.ts';
import { headerColumns, latestPerPeriod, unpackVersion, visible, type VersionHeader, type VersionRow } from '../../db/statement-versions.ts';
import type { FiscalPeriod, StatementType } from '../../domain/statements/types.ts';

/**
 * Reads across a company's statement types: the financial state per fiscal period (latest
 * version of each statement merged) and the point-in-time view of the as-of route.
 * Visibility is the one rule of the service: a version is seen from its SEC filing date on.
 */

const TYPE_RANK = (sql: Db) => sql`CASE v.statement_type WHEN 'INCOME_STATEMENT' THEN 1 WHEN 'BALANCE_SHEET' THEN 2 ELSE 3 END`;

export interface StateFilter {
  cik: string;
  fiscal_periods: string[] | null;
  fiscal_year_from: number | null;
  fiscal_year_to: number | null;
  as_of_date: string | null;
}

export interface StatePeriod {
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  period_end: string;
  /** latest visible version of each statement type the period has, income statement first */
  versions: VersionRow[];
}

/**
 * One entry per fiscal period holding any statement (after the filters), oldest period end first
 * (quarters before the year ending the same day), with the latest visible version of each type.
 */
export async function financialState(sql: Db, f: StateFilter, page: { limit: number; offset: number }): Promise<{ total: number; periods: StatePeriod[] }> {
  const latest = latestPerPeriod(
    sql,
    sql`v.*`,
    sql`v.cik = ${f.cik}
      ${f.fiscal_periods ? sql`AND v.fiscal_period IN ${sql(f.fiscal_periods)}` : sql``}
      ${f.fiscal_year_from !== null ? sql`AND v.fiscal_year >= ${f.fiscal_year_from}` : sql``}
      ${f.fiscal_year_to !== null ? sql`AND v.fiscal_year <= ${f.fiscal_year_to}` : sql``}
      AND ${visible(sql, f.as_of_date)}`,
  );
  const periods = await sql<{ fiscal_year: number; fiscal_period: FiscalPeriod; period_end: string; total: number }[]>`
    SELECT fiscal_year, fiscal_period, max(period_end) AS period_end, count(*) OVER ()::int AS total
    FROM (${latest}) v
    GROUP BY fiscal_year, fiscal_period
    ORDER BY max(period_end), fiscal_year, CASE fiscal_period WHEN 'FY' THEN 1 ELSE 0 END, fiscal_period
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  if (periods.length === 0) {
    if (page.offset === 0) return { total: 0, periods: [] };
    // a page past the end still reports the total
    const [count] = await sql<{ total: number }[]>`
      SELECT count(*)::int AS total FROM (SELECT DISTINCT fiscal_year, fiscal_period FROM (${latest}) v) p`;
    return { total: count?.total ?? 0, periods: [] };
  }
  const rows = await sql<VersionRow[]>`
    SELECT ${headerColumns(sql)}, v.figures, v.calculation_evidence, v.unavailable_figures FROM (${latest}) v
    WHERE (v.fiscal_year, v.fiscal_period) IN (
      SELECT * FROM unnest(${periods.map((p) => p.fiscal_year)}::int[], ${periods.map((p) => p.fiscal_period)}::text[])
    )
    ORDER BY ${TYPE_RANK(sql)}`;
  const out = periods.map((p) => ({
    fiscal_year: p.fiscal_year,
    fiscal_period: p.fiscal_period,
    period_end: p.period_end,
    versions: [] as VersionRow[],
  }));
  const byKey = new Map(out.map((p) => [`${p.fiscal_year} ${p.fiscal_period}`, p]));
  for (const r of rows) byKey.get(`${r.fiscal_year} ${r.fiscal_period}`)?.versions.push(unpackVersion(r));
  return { total: periods[0]!.total, periods: out };
}

export interface VisiblePeriod {
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  period_end: string;
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
 * Only the named periods of a company, as a condition over `statement_versions v`: one equality
 * pair per period (an as-of read names one or two), so the statement keeps one plan for every
 * company and date instead of being planned again for each (as it is with the periods in arrays).
 */
function inPeriods(sql: Db, cik: string, asOf: string, periods: readonly { fiscal_year: number; fiscal_period: string }[]) {
  const each = periods.map((p) => sql`(v.fiscal_year = ${p.fiscal_year} AND v.fiscal_period = ${p.fiscal_period})`);
  return sql`v.cik = ${cik} AND ${visible(sql, asOf)} AND (${each.reduce((a, b) => sql`${a} OR ${b}`)})`;
}

/**
 * The latest version of each statement type of the named periods visible on `asOf`, without its
 * figures (a reader that keeps prepared payloads per version needs only the ids): annual first,
 * then income statement, balance sheet, cash flow.
 */
export async function latestHeadersAsOf(sql: Db, cik: string, asOf: string, periods: readonly { fiscal_year: number; fiscal_period: string }[]): Promise<VersionHeader[]> {
  if (periods.length === 0) return [];
  return sql<VersionHeader[]>`
    SELECT * FROM (${latestPerPeriod(sql, headerColumns(sql), inPeriods(sql, cik, asOf, periods))}) v
    ORDER BY v.period_end DESC, CASE v.fiscal_period WHEN 'FY' THEN 0 ELSE 1 END, ${TYPE_RANK(sql)}`;
}

/** Versions with their figures, by id (in no particular order). */
export async function versionsByIds(sql: Db, ids: readonly string[]): Promise<VersionRow[]> {
  if (ids.length === 0) return [];
  const rows = await sql<VersionRow[]>`
    SELECT ${headerColumns(sql)}, v.figures, v.calculation_evidence, v.unavailable_figures FROM statement_versions v
    WHERE v.statement_version_id IN ${sql([...new Set(ids)])}`;
  return rows.map(unpackVersion);
}

export interface LedgerCounts {
  statement_version_id: string;
  rule_id: string;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  version_sequence: number;
  rule_category: string;
  status: 'PASS' | 'WARNING' | 'FAIL';
  severity: string;
  declined: boolean;
  delta: string | null;
}

/**
 * The reconciliation ledger rows of the versions latestHeadersAsOf picks (written when each version
 * was added, from the statements as they stood on its filing date, so they are themselves
 * point-in-time), read beside it rather than after it. The picked versions drive a nested loop over
 * the ledger's key, a few rows per version however large the ledger is (an id array or a semi-join
 * here leaves the planner guessing its size, and on a large ledger it plans a parallel scan).
 */
export async function ledgerOfLatestAsOf(sql: Db, cik: string, asOf: string, periods: readonly { fiscal_year: number; fiscal_period: string }[]): Promise<LedgerCounts[]> {
  if (periods.length === 0) return [];
  return sql<LedgerCounts[]>`
    SELECT ${LEDGER_COLUMNS(sql)}
    FROM (${latestPerPeriod(sql, sql`v.statement_version_id`, inPeriods(sql, cik, asOf, periods))}) l
    JOIN reconciliation_results r ON r.statement_version_id = l.statement_version_id
    ORDER BY r.fiscal_year, r.fiscal_period, r.statement_type, r.rule_category, r.rule_id`;
}

/** The same rows for versions already picked (from the company's headers in memory), by their ids: a lookup of the ledger's key per id. */
export async function ledgerOfVersions(sql: Db, ids: readonly string[]): Promise<LedgerCounts[]> {
  if (ids.length === 0) return [];
  return sql<LedgerCounts[]>`
    SELECT ${LEDGER_COLUMNS(sql)}
    FROM reconciliation_results r
    WHERE r.statement_version_id = ANY (${[...ids]}::uuid[])
    ORDER BY r.fiscal_year, r.fiscal_period, r.statement_type, r.rule_category, r.rule_id`;
}

export const LEDGER_COLUMNS = (sql: Db) => sql`r.statement_version_id, r.rule_id, r.statement_type, r.fiscal_year, r.fiscal_period, r.version_sequence, r.rule_category,
      r.status, r.severity, r.delta IS NULL AS declined, r.delta::text`;
