import type { ExplainContext, FigureFacts, LedgerFailureRow, QualityFindingRow } from '../../domain/ai/anomalies.ts';
import { statementKey } from '../../domain/statements/key.ts';
import { latestPerStatement } from '../../domain/statements/visibility.ts';
import type { Db } from '../../db/client.ts';
import type { StoredFigure } from '../../db/figure-storage.ts';
import { unpackVersion, visible } from '../../db/statement-versions.ts';
import type { CompanyEmbedding } from '../../domain/ai/embedding.ts';
import type { Narrative } from '../../domain/ai/narratives.ts';

/**
 * What anomaly explanations read for one company as of a date: the data-quality findings and the
 * failed reconciliation results of every statement version knowable then (filing date on or
 * before it), the figures of those versions and of the versions the rules compared them with, and
 * which version of each statement is the latest knowable (the one a snapshot of that date serves).
 * Three reads, whatever the number of findings.
 */
export interface AnomalyInputs {
  findings: QualityFindingRow[];
  failures: LedgerFailureRow[];
  context: ExplainContext;
}

export async function loadAnomalyInputs(sql: Db, cik: string, asOf: string, dqRunId: string | null): Promise<AnomalyInputs> {
  const [findings, failures, versions] = await Promise.all([
    sql<QualityFindingRow[]>`
      SELECT i.issue_id, i.dq_run_id, i.rule_code, i.severity, i.statement_type, i.fiscal_year, i.fiscal_period,
        i.version_sequence, i.statement_version_id, i.metric, i.message, i.evidence
      FROM dq_issues i JOIN statement_versions v USING (statement_version_id)
      WHERE i.cik = ${cik} AND ${visible(sql, asOf)}
        ${dqRunId !== null ? sql`AND i.dq_run_id = ${dqRunId}` : sql``}
      ORDER BY i.issue_id`,
    dqRunId !== null
      ? Promise.resolve([] as LedgerFailureRow[])
      : sql<LedgerFailureRow[]>`
      SELECT r.statement_version_id, r.rule_id, r.statement_type, r.fiscal_year, r.fiscal_period, r.version_sequence, r.severity,
        r.expected_value::text, r.actual_value::text, r.delta::text, r.notes
      FROM reconciliation_results r JOIN statement_versions v USING (statement_version_id)
      WHERE r.cik = ${cik} AND r.status = 'FAIL' AND ${visible(sql, asOf)}
      ORDER BY r.statement_version_id, r.rule_id`,
    sql<{ statement_version_id: string; statement_type: string; fiscal_year: number; fiscal_period: string; version_sequence: number; period_start: string | null; period_end: string; accession: string; currency: string | null; figures: Record<string, StoredFigure> }[]>`
      SELECT v.statement_version_id, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence, v.period_start, v.period_end, v.accession, v.currency, v.figures
      FROM statement_versions v WHERE v.cik = ${cik} AND ${visible(sql, asOf)}`,
  ]);
  const figures = new Map<string, Record<string, FigureFacts>>();
  const unpacked = versions.map(unpackVersion);
  const latest = latestPerStatement(unpacked);
  for (const v of unpacked) {
    const out: Record<string, FigureFacts> = {};
    for (const [metric, f] of Object.entries(v.figures)) {
      out[metric] = { value: f.value, source_accession: f.source_accession, source_xbrl_concept: f.source_xbrl_concept, value_origin: f.value_origin, calculation_steps: f.calculation_steps };
    }
    figures.set(v.statement_version_id, out);
  }
  return {
    findings,
    failures,
    context: {
      figures: (id) => figures.get(id),
      served: (type, year, period) => {
        const v = latest.get(statementKey({ statement_type: type, fiscal_year: year, fiscal_period: period }));
        return v ? { statement_version_id: v.statement_version_id, version_sequence: v.version_sequence } : null;
      },
    },
  };
}

/** One page of a company's narratives of one type and statement type, newest period first. */
export async function narrativesPage(
  sql: Db,
  asOfSnapshotId: string,
  cik: string,
  narrativeType: string,
  statementType: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: Narrative[] }> {
  const where = sql`as_of_snapshot_id = ${asOfSnapshotId} AND cik = ${cik} AND narrative_type = ${narrativeType} AND statement_type = ${statementType}`;
  const [count] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ai_narratives WHERE ${where}`;
  const rows = await sql<{ body: Narrative }[]>`SELECT body FROM ai_narratives WHERE ${where} ORDER BY ord LIMIT ${page.limit} OFFSET ${page.offset}`;
  return { total: count?.n ?? 0, rows: rows.map((r) => r.body) };
}

export interface StoredEmbedding {
  embedding: CompanyEmbedding;
  model_id: string;
  model_version: string;
  company_id: string | null;
  sic: string | null;
}

/** Every embedding of a snapshot (its peer universe), with each company's id and SIC code, in CIK order. */
export async function snapshotEmbeddings(sql: Db, asOfSnapshotId: string): Promise<StoredEmbedding[]> {
  return sql<StoredEmbedding[]>`
    SELECT e.body AS embedding, e.model_id, e.model_version, c.company_id, c.sic
    FROM ai_embeddings e LEFT JOIN companies c ON c.cik = e.cik
    WHERE e.as_of_snapshot_id = ${asOfSnapshotId}
    ORDER BY e.cik`;
}
