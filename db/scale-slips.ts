import { CONCEPT_MOVED_RULE, DERIVED_QUARTER_RULE, readable, SCALE_SLIP_RULE, SIGN_SLIP_RULE, type QualityFinding } from '../domain/data-quality.ts';
import type { ScaleSlip } from '../domain/normalize/versions.ts';
import { statementKey } from '../domain/statements/key.ts';
import type { Db } from './client.ts';
import { recordRun } from './data-quality.ts';
import type { StoredVersionRef } from './statement-write.ts';

/** A version a scale slip's finding can sit on: one of the company's versions, stored or just written. */
type SlipTarget = Pick<StoredVersionRef, 'statement_version_id' | 'statement_type' | 'fiscal_year' | 'fiscal_period' | 'version_sequence'>;

/**
 * Records the scale slips one company's history found (a later filing telling a figure 1,000 or
 * 1,000,000 times off, or with the opposite sign where a witness told which side is right) as
 * data-quality findings, in the ingestion transaction: slips never make a revision, so this is
 * where they become visible. Each finding sits on the version with the slip's
 * sequence (the latest one when the statement has fewer versions); a finding already on record
 * (same version, rule, metric) is kept as it is, so a re-run adds nothing.
 *
 * `versions` are every version the company has in this transaction (those stored before and those
 * it just wrote): the transaction knows them all, so the version a finding sits on is looked up
 * here rather than read back, and the one statement that records the findings goes out without
 * waiting for another.
 */
export async function recordScaleSlips(tx: Db, cik: string, runId: number, slips: readonly ScaleSlip[], versions: readonly SlipTarget[]): Promise<void> {
  if (slips.length === 0) return;
  const byStatement = new Map<string, SlipTarget[]>();
  for (const v of versions) {
    const key = statementKey(v);
    const list = byStatement.get(key);
    if (list) list.push(v);
    else byStatement.set(key, [v]);
  }
  for (const list of byStatement.values()) list.sort((a, b) => a.version_sequence - b.version_sequence);
  const rows: { slip: ScaleSlip; on: SlipTarget }[] = [];
  for (const slip of slips) {
    let on: SlipTarget | null = null;
    for (const v of byStatement.get(statementKey(slip)) ?? []) {
      if (v.version_sequence > slip.version_sequence) break;
      on = v;
    }
    // a slip of a statement without a version has nothing to sit on
    if (on) rows.push({ slip, on });
  }
  const findings: QualityFinding[] = [];
  for (const { slip: s, on } of rows) {
    const sign = s.kind === 'SIGN';
    findings.push({
      rule_code: sign ? SIGN_SLIP_RULE : s.kind === 'DERIVED' ? DERIVED_QUARTER_RULE : s.kind === 'CONCEPT' ? CONCEPT_MOVED_RULE : SCALE_SLIP_RULE,
      severity: sign ? 'HIGH' : s.kind === 'CONCEPT' ? 'LOW' : 'MEDIUM',
      cik,
      statement_type: s.statement_type,
      fiscal_year: s.fiscal_year,
      fiscal_period: s.fiscal_period,
      version_sequence: on.version_sequence,
      statement_version_id: on.statement_version_id,
      metric: s.metric,
      message: slipMessage(s),
      evidence: {
        compared: [],
        previous: { value: s.previous.value, accession: s.previous.source_accession, concept: s.previous.source_xbrl_concept },
        filed: { value: s.filed.value, accession: s.filed.source_accession, concept: s.filed.source_xbrl_concept },
        served: s.corrects ? 'filed' : 'previous',
        ...(sign ? { witness: s.witness } : {}),
        ...(s.kind === 'DERIVED' ? { implied: s.implied } : {}),
      },
    });
  }
  // one finding per version and metric: the first slip found there is the one on record
  const first = new Map<string, QualityFinding>();
  for (const f of findings) if (!first.has(`${f.statement_version_id}|${f.metric}`)) first.set(`${f.statement_version_id}|${f.metric}`, f);
  const unique = [...first.values()];
  await recordRun(tx, cik, { kind: 'ingestion', ingestion_run_id: runId }, unique, new Set());
}

function slipMessage(s: ScaleSlip): string {
  const at = `${s.metric} ${s.fiscal_year} ${s.fiscal_period}: `;
  if (s.kind === 'DERIVED') {
    return (
      at +
      `filing ${s.accession} tells the quarter only through year-to-date figures, which net to ${readable(s.filed.value)}, where ${s.previous.source_accession} reported ${readable(s.previous.value)} ` +
      `and its own year-to-date netted to ${readable(s.implied ?? '')}: not a restatement; ` +
      (s.corrects
        ? 'the year-to-date was told again unchanged and its quarter replaces the three-month tag.'
        : 'the later year-to-date is on another basis and the reported quarter is kept.')
    );
  }
  if (s.kind === 'CONCEPT') {
    return (
      at +
      `filing ${s.accession} no longer reports ${s.previous.source_xbrl_concept ?? ''} (${readable(s.previous.value)} in ${s.previous.source_accession}) and tells ${s.filed.source_xbrl_concept ?? ''} at ${readable(s.filed.value)}, ` +
      `as ${s.previous.source_accession} told that line beside the first: the metric moved to another line, not a restatement; the later line is served.`
    );
  }
  return (
    at +
    `filing ${s.accession} tagged ${readable(s.filed.value)} (${s.filed.source_xbrl_concept ?? 'derived'}) where ${s.previous.source_accession} reported ${readable(s.previous.value)}: ` +
    (s.kind === 'SIGN'
      ? `a sign slip, not a restatement; ${s.witness} has the sign of the ${s.corrects ? 'later value, which replaces the earlier one' : 'previous value, which is kept'}.`
      : `a scale slip, not a restatement; ${s.corrects ? 'the later value fits the statement and replaces the earlier slip.' : 'the previous value is kept.'}`)
  );
}
