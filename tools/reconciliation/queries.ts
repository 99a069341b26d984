import type { RuleCategory } from '../../domain/reconciliation/index.ts';
import type { FiscalPeriod, StatementType } from '../../domain/statement-types.ts';
import type { Db } from '../../db/client.ts';

export interface SummaryFilter {
  cik: string;
  statement_type: StatementType | null;
  fiscal_year_from: number | null;
  fiscal_year_to: number | null;
}

export interface SummaryRow {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  version_sequence: number;
  rule_category: RuleCategory;
  pass_count: number;
  warn_count: number;
  fail_count: number;
  declined_count: number;
}

const PERIOD_ORDER = (sql: Db) => sql`CASE fiscal_period WHEN 'Q1' THEN 1 WHEN 'Q2' THEN 2 WHEN 'Q3' THEN 3 WHEN 'Q4' THEN 4 ELSE 5 END`;

/** Counts by statement version and rule category, oldest period first. */
export async function reconciliationSummary(sql: Db, f: SummaryFilter): Promise<SummaryRow[]> {
  return sql<SummaryRow[]>`
    SELECT statement_type, fiscal_year, fiscal_period, version_sequence, rule_category,
      count(*) FILTER (WHERE status = 'PASS')::int AS pass_count,
      count(*) FILTER (WHERE status = 'WARNING')::int AS warn_count,
      count(*) FILTER (WHERE status = 'FAIL')::int AS fail_count,
      count(*) FILTER (WHERE delta IS NULL)::int AS declined_count
    FROM reconciliation_results
    WHERE cik = ${f.cik}
      ${f.statement_type ? sql`AND statement_type = ${f.statement_type}` : sql``}
      ${f.fiscal_year_from !== null ? sql`AND fiscal_year >= ${f.fiscal_year_from}` : sql``}
      ${f.fiscal_year_to !== null ? sql`AND fiscal_year <= ${f.fiscal_year_to}` : sql``}
    GROUP BY statement_type, fiscal_year, fiscal_period, version_sequence, rule_category
    ORDER BY fiscal_year, ${PERIOD_ORDER(sql)}, statement_type, version_sequence, rule_category`;
}

export interface LedgerIdentity {
  cik: string;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  version_sequence: number;
}

export interface LedgerRow extends LedgerIdentity {
  rule_id: string;
  rule_category: RuleCategory;
  status: 'PASS' | 'WARNING' | 'FAIL';
  severity: 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';
  expected_value: string | null;
  actual_value: string | null;
  delta: string | null;
  notes: { details: Record<string, unknown> };
  computed_at: string;
}

/** One statement version's ledger rows, by category then rule id. */
export async function reconciliationLedger(
  sql: Db,
  id: LedgerIdentity,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: LedgerRow[] }> {
  const where = sql`
    WHERE cik = ${id.cik} AND statement_type = ${id.statement_type} AND fiscal_year = ${id.fiscal_year}
      AND fiscal_period = ${id.fiscal_period} AND version_sequence = ${id.version_sequence}`;
  const rows = await sql<(LedgerRow & { total: number })[]>`
    SELECT cik, statement_type, fiscal_year, fiscal_period, version_sequence, rule_id, rule_category, status, severity,
      expected_value::text, actual_value::text, delta::text, notes, computed_at, count(*) OVER ()::int AS total
    FROM reconciliation_results ${where}
    ORDER BY rule_category, rule_id
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  const items = rows.map(({ total: _total, ...row }) => row);
  if (rows.length > 0 || page.offset === 0) return { total: rows[0]?.total ?? 0, rows: items };
  // a page past the end still reports the total
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM reconciliation_results ${where}`;
  return { total: count?.total ?? 0, rows: items };
}
