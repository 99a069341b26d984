/**
 * Data-quality rules over normalized statement versions: findings with stable rule codes and
 * severities, persisted by db/data-quality.ts and never used to change a figure. Pure: versions in,
 * findings out; money only as decimal strings, compared with decimal.js.
 *
 * Rules (`DQ_RULES` is the published catalog):
 * - DQ_NEGATIVE_VALUE (after XBRL US DQC_0015): a metric that is never negative (revenue, assets,
 *   share counts, payments such as capital expenditures, ...) is negative.
 * - DQ_SCALE_BREAK: a metric is about 1,000 or 1,000,000 times (or 1/1,000 or 1/1,000,000 of) the
 *   same metric in the prior period of the same length (a figure keyed in thousands or millions
 *   among units, or the reverse).
 * - DQ_SCALE_SLIP_FILED: a later filing re-told a figure on record 1,000 or 1,000,000 times off
 *   (found while folding filings into versions; never a version, never a restatement).
 * - DQ_SIGN_SLIP_FILED, DQ_DERIVED_QUARTER_CONFLICT, DQ_CONCEPT_MOVED: a later filing's sign slip,
 *   its derived quarter against a reported one, or a metric moved to another line told as before
 *   (found while folding, like scale slips: db/scale-slips.ts).
 * - DQ_QUARTER_EXCEEDS_YEAR (after DQC_0108): a reported quarter of a non-negative flow is larger
 *   than its fiscal year.
 * - DQ_MISSING_CORE_METRIC: a statement lacks a metric every statement of its type should carry.
 * - DQ_IDENTITY_<rule_id>: an accounting identity of domain/identity-checks.ts FAILs.
 *
 * Cross-period rules compare a version with its neighbours as known when it was filed: the latest
 * version of the neighbouring period whose filing date is on or before the version's own. A finding
 * therefore depends only on what was public when its version appeared, so checking a company in
 * one ingestion or across many incremental ones gives the same findings, and re-checking is a no-op.
 */
import { wireDecimal } from './decimal.ts';
import { DQ_RULE_CODES, type EvidencePoint, type QualityFigure, type QualityFinding, type QualityVersion } from './data-quality-rules.ts';
import { PeriodIndex, quarterExceedsYear, scaleBreaks } from './data-quality-period-rules.ts';
import { identityFailures, missingCore, negativeValues } from './data-quality-version-rules.ts';

export * from './data-quality-rules.ts';
export { readable } from './data-quality-findings.ts';

const RULE_ORDER = new Map(DQ_RULE_CODES.map((c, i) => [c, i]));

/**
 * Findings for the versions named by `subjects`, using `versions` (which must include the
 * subjects and may include their neighbours: the same and the prior fiscal year of each statement
 * type) for the cross-period rules. At most one finding per (version, rule, metric); ordered by
 * version, then rule catalog order, then metric.
 */
export function detectQualityIssues(versions: readonly QualityVersion[], subjects: ReadonlySet<string>): QualityFinding[] {
  const index = new PeriodIndex(versions);
  const out: QualityFinding[] = [];
  for (const v of versions) {
    if (!subjects.has(v.statement_version_id)) continue;
    const found = [...negativeValues(v), ...scaleBreaks(v, index), ...quarterExceedsYear(v, index), ...missingCore(v), ...identityFailures(v)];
    found.sort((a, b) => RULE_ORDER.get(a.rule_code)! - RULE_ORDER.get(b.rule_code)! || (a.metric ?? '').localeCompare(b.metric ?? ''));
    out.push(...found);
  }
  return out;
}

/** The figures findings compare, once each: what `completeEvidence` needs the provenance of. */
export function evidenceFigures(findings: readonly QualityFinding[]): { statement_version_id: string; metric: string }[] {
  const seen = new Map<string, { statement_version_id: string; metric: string }>();
  for (const f of findings) {
    for (const p of f.evidence.compared) seen.set(`${p.statement_version_id}|${p.metric}`, { statement_version_id: p.statement_version_id, metric: p.metric });
  }
  return [...seen.values()];
}

/**
 * Adds each compared figure's provenance (period, accession, origin, calculation steps) to the
 * evidence, and to a negative value's message what its origin implies. The rules read values only,
 * so a check loads provenance just for the figures its findings name.
 */
export function completeEvidence(
  findings: readonly QualityFinding[],
  provenance: (statementVersionId: string, metric: string) => QualityFigure | undefined,
): QualityFinding[] {
  return findings.map((f) => {
    const compared = f.evidence.compared.map((p): EvidencePoint => {
      const fig = provenance(p.statement_version_id, p.metric);
      if (!fig) return p;
      return {
        ...p,
        period_start: fig.period_start,
        period_end: fig.period_end,
        source_accession: fig.source_accession,
        value_origin: fig.value_origin,
        mapping_type: fig.mapping_type,
        ...(fig.calculation_steps ? { calculation_steps: fig.calculation_steps.map((s) => ({ ...s, value: wireDecimal(s.value) })) } : {}),
      };
    });
    let message = f.message;
    if (f.rule_code === 'DQ_NEGATIVE_VALUE') {
      const subject = compared[0];
      message +=
        subject?.mapping_type === 'DERIVED_IDENTITY'
          ? " It is the filing's own gross profit plus its cost of revenue for the period (DERIVED_IDENTITY), the total the filer's statement shows: see calculation_steps in the evidence."
          : subject?.value_origin === 'DERIVED'
          ? ` It is derived (${subject.mapping_type ?? 'DERIVED'}), so the figures it subtracts disagree: see calculation_steps in the evidence.`
          : ' The filer likely tagged it with the wrong sign.';
    }
    return { ...f, message, evidence: { ...f.evidence, compared } };
  });
}
