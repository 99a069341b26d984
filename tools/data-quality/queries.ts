import { type IssueSeverity, severityRank } from '../../domain/data-quality.ts';
import type { Severity } from '../../domain/statement-types.ts';
import { type Db, json } from '../../db/client.ts';
import type { FiscalPeriod, StatementType } from '../../domain/statements/types.ts';
import { latestPerPeriod } from '../../db/statement-versions.ts';
import { reconcile } from '../../db/reconciliation.ts';

export interface IssueRow {
  issue_id: string;
  dq_run_id: string;
  rule_code: string;
  severity: IssueSeverity;
  cik: string;
  statement_type: StatementType | null;
  fiscal_year: number | null;
  fiscal_period: FiscalPeriod | null;
  version_sequence: number | null;
  statement_version_id: string | null;
  metric: string | null;
  message: string;
  evidence: Record<string, unknown>;
  detected_at: string;
}

export interface IssueFilter {
  cik: string | null;
  rule_codes: string[] | null;
  min_severity: Severity | null;
  statement_type: string | null;
  fiscal_year: number | null;
  fiscal_period: string | null;
  metric: string | null;
  statement_version_id: string | null;
  dq_run_id: string | null;
  /** only these companies (a Free-plan key's held ones); null: every company */
  within_ciks?: string[] | null;
}

const ISSUE_COLUMNS = [
  'issue_id', 'dq_run_id', 'rule_code', 'severity', 'cik', 'statement_type', 'fiscal_year', 'fiscal_period',
  'version_sequence', 'statement_version_id', 'metric', 'message', 'evidence', 'detected_at',
] as const;

/**
 * Issues ordered by severity descending, then cik, fiscal_year, fiscal_period, rule_code and
 * issue_id ascending, nulls last on the fiscal fields.
 */
export async function listIssues(sql: Db, f: IssueFilter, page: { limit: number; offset: number }): Promise<{ total: number; rows: IssueRow[] }> {
  const where = sql`
    WHERE true
      ${f.cik !== null ? sql`AND cik = ${f.cik}` : sql``}
      ${f.rule_codes !== null ? sql`AND rule_code IN ${sql(f.rule_codes)}` : sql``}
      ${f.min_severity !== null ? sql`AND severity_rank >= ${severityRank(f.min_severity)}` : sql``}
      ${f.statement_type !== null ? sql`AND statement_type = ${f.statement_type}` : sql``}
      ${f.fiscal_year !== null ? sql`AND fiscal_year = ${f.fiscal_year}` : sql``}
      ${f.fiscal_period !== null ? sql`AND fiscal_period = ${f.fiscal_period}` : sql``}
      ${f.metric !== null ? sql`AND metric = ${f.metric}` : sql``}
      ${f.statement_version_id !== null ? sql`AND statement_version_id = ${f.statement_version_id}` : sql``}
      ${f.dq_run_id !== null ? sql`AND dq_run_id = ${f.dq_run_id}` : sql``}
      ${f.within_ciks ? sql`AND cik IN (SELECT jsonb_array_elements_text(${json(sql, f.within_ciks)}::jsonb))` : sql``}`;
  const rows = await sql<(IssueRow & { total: number })[]>`
    SELECT ${sql(ISSUE_COLUMNS)}, count(*) OVER ()::int AS total FROM dq_issues ${where}
    ORDER BY severity_rank DESC, cik, fiscal_year NULLS LAST, fiscal_period NULLS LAST, rule_code, issue_id
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  // the window count is the page's total, not a field of the issue
  const items = rows.map(({ total: _total, ...row }) => row);
  if (rows.length > 0 || page.offset === 0) return { total: rows[0]?.total ?? 0, rows: items };
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM dq_issues ${where}`;
  return { total: count?.total ?? 0, rows: items };
}

export interface VersionQuality {
  issues: IssueRow[];
  /** the latest run that checked the version; null when none has */
  last_check: { dq_run_id: string; finished_at: string } | null;
}

/** Findings recorded on one version (most severe first) and the latest run that checked it. */
export async function versionQuality(sql: Db, statementVersionId: string): Promise<VersionQuality> {
  const [issues, checks] = await Promise.all([
    sql<IssueRow[]>`
      SELECT ${sql(ISSUE_COLUMNS)} FROM dq_issues WHERE statement_version_id = ${statementVersionId}
      ORDER BY severity_rank DESC, rule_code, metric NULLS FIRST, issue_id`,
    sql<{ dq_run_id: string; finished_at: string }[]>`
      SELECT r.dq_run_id, r.finished_at FROM dq_run_versions rv JOIN dq_runs r USING (dq_run_id)
      WHERE rv.statement_version_id = ${statementVersionId}
      ORDER BY r.finished_at DESC LIMIT 1`,
  ]);
  return { issues, last_check: checks[0] ?? null };
}

/**
 * Reconciles the latest version of each of a company's statements (or of those the filter names),
 * for the data-quality run route; rows already on record stay as they are.
 */
export async function reconcileLatestVersions(
  tx: Db,
  cik: string,
  f: { statement_type: string | null; fiscal_year: number | null; fiscal_period: string | null },
): Promise<number> {
  const ids = await tx<{ statement_version_id: string }[]>`${latestPerPeriod(
    tx,
    tx`v.statement_version_id`,
    tx`v.cik = ${cik}
      ${f.statement_type ? tx`AND v.statement_type = ${f.statement_type}` : tx``}
      ${f.fiscal_year !== null ? tx`AND v.fiscal_year = ${f.fiscal_year}` : tx``}
      ${f.fiscal_period ? tx`AND v.fiscal_period = ${f.fiscal_period}` : tx``}`,
  )}`;
  if (ids.length === 0) return 0;
  return reconcile(tx, cik, tx`statement_version_id IN ${tx(ids.map((r) => r.statement_version_id))}`);
}