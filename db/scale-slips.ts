import { readable, SCALE_SLIP_RULE, type QualityFinding } from '../domain/data-quality.ts';
import type { ScaleSlip } from '../domain/normalize/versions.ts';
import type { Sql } from './client.ts';
import { recordRun } from './data-quality.ts';

/**
 * Records the scale slips one company's history found (a later filing telling a figure 1,000 or
 * 1,000,000 times off) as data-quality findings, in the ingestion transaction: slips never make a
 * version, so this is where they become visible. Each finding sits on the stored version with the
 * slip's sequence (the latest one when the stored list is shorter); a finding already on record
 * (same version, rule, metric) is kept as it is, so a re-run adds nothing.
 */
export async function recordScaleSlips(tx: Sql, cik: string, runId: number, slips: readonly ScaleSlip[]): Promise<void> {
  if (slips.length === 0) return;
  const refs = slips.map((s) => ({ statement_type: s.statement_type, fiscal_year: s.fiscal_year, fiscal_period: s.fiscal_period, version_sequence: s.version_sequence }));
  const rows = await tx<{ i: number; statement_version_id: string; version_sequence: number }[]>`
    SELECT r.i, v.statement_version_id, v.version_sequence
    FROM jsonb_to_recordset(${tx.json(refs.map((r, i) => ({ ...r, i })) as never)}) AS r(i integer, statement_type text, fiscal_year integer, fiscal_period text, version_sequence integer)
    CROSS JOIN LATERAL (
      SELECT statement_version_id, version_sequence FROM statement_versions v
      WHERE v.cik = ${cik} AND v.statement_type = r.statement_type AND v.fiscal_year = r.fiscal_year AND v.fiscal_period = r.fiscal_period
        AND v.version_sequence <= r.version_sequence
      ORDER BY v.version_sequence DESC LIMIT 1) v`;
  const findings: QualityFinding[] = [];
  for (const row of rows) {
    const s = slips[row.i]!;
    findings.push({
      rule_code: SCALE_SLIP_RULE,
      severity: 'MEDIUM',
      cik,
      statement_type: s.statement_type,
      fiscal_year: s.fiscal_year,
      fiscal_period: s.fiscal_period,
      version_sequence: row.version_sequence,
      statement_version_id: row.statement_version_id,
      metric: s.metric,
      message:
        `${s.metric} ${s.fiscal_year} ${s.fiscal_period}: filing ${s.accession} tagged ${readable(s.filed.value)} (${s.filed.source_xbrl_concept ?? 'derived'}) ` +
        `where ${s.previous.source_accession} reported ${readable(s.previous.value)}: a scale slip, not a restatement; ` +
        (s.corrects ? 'the later value fits the statement and replaces the earlier slip.' : 'the previous value is kept.'),
      evidence: {
        compared: [],
        previous: { value: s.previous.value, accession: s.previous.source_accession, concept: s.previous.source_xbrl_concept },
        filed: { value: s.filed.value, accession: s.filed.source_accession, concept: s.filed.source_xbrl_concept },
        served: s.corrects ? 'filed' : 'previous',
      },
    });
  }
  // one finding per version and metric: the first slip found there is the one on record
  const first = new Map<string, QualityFinding>();
  for (const f of findings) if (!first.has(`${f.statement_version_id}|${f.metric}`)) first.set(`${f.statement_version_id}|${f.metric}`, f);
  const unique = [...first.values()];
  await recordRun(tx, cik, { kind: 'ingestion', ingestion_run_id: runId }, unique, new Set());
}
