/**
 * Anomaly explanations: for each data-quality finding (domain/data-quality.ts) and failed
 * reconciliation result (domain/reconciliation/) of a company, what rule failed, by how much
 * against its tolerance, the likely cause with its evidence (anomaly-causes.ts), and what the
 * service served as a result (the snapshot's version of the statement and whether the figure or
 * the equality differs there). A data-quality identity finding and the ledger FAIL of the same
 * rule on the same version are one anomaly, explained once with both sources.
 *
 * Deterministic and grounded: the text is assembled from the figures of the rows and the
 * evidence; every amount it prints is one of the explanation's structured fields.
 */
import { readable, severityRank } from '../data-quality.ts';
import { dec, plain } from '../decimal.ts';
import { evaluateIdentityRule, IDENTITY_RULES, type IdentityRule } from '../identity-checks.ts';
import { LEDGER_ONLY_IDENTITY_RULES } from '../reconciliation/identity-rules.ts';
import { stableUuid } from '../stable-id.ts';
import type { Severity, StatementType } from '../statement-types.ts';
import { isFiscalPeriod } from '../statements/types.ts';
import { diagnose, type CauseEvidence, type CauseFinding, type Equation, type EquationTerm, type FigureFacts, type LikelyCause } from './anomaly-causes.ts';

export { LIKELY_CAUSES, type LikelyCause, type FigureFacts } from './anomaly-causes.ts';

/** A stored data-quality finding (db/data-quality.ts IssueRow, the fields read here). */
export interface QualityFindingRow {
  issue_id: string;
  dq_run_id: string;
  rule_code: string;
  severity: Severity;
  statement_type: string | null;
  fiscal_year: number | null;
  fiscal_period: string | null;
  version_sequence: number | null;
  statement_version_id: string | null;
  metric: string | null;
  message: string;
  evidence: Record<string, unknown>;
}

/** A stored reconciliation result with status FAIL (db/reconciliation.ts). */
export interface LedgerFailureRow {
  statement_version_id: string;
  rule_id: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  version_sequence: number;
  severity: Severity;
  expected_value: string | null;
  actual_value: string | null;
  delta: string | null;
  notes: { details: Record<string, unknown> };
}

/** What the explainer may look up besides the rows. */
export interface ExplainContext {
  /** every figure of a stored version, with provenance; undefined when unknown */
  figures(statementVersionId: string): Readonly<Record<string, FigureFacts>> | undefined;
  /** the version of a statement the snapshot serves, or null when it holds none */
  served(statementType: string, fiscalYear: number, fiscalPeriod: string): { statement_version_id: string; version_sequence: number } | null;
}

export type AnomalySource =
  | { kind: 'DATA_QUALITY'; issue_id: string; dq_run_id: string; rule_code: string }
  | { kind: 'RECONCILIATION'; rule_id: string; status: 'FAIL' };

export interface ComparedFigure {
  name: string;
  metric: string;
  value: string | null;
  sign: 1 | -1 | null;
  statement_version_id: string | null;
  source_accession: string | null;
  value_origin: string | null;
}

export interface AnomalyExplanation {
  explanation_id: string;
  statement_type: string | null;
  fiscal_year: number | null;
  fiscal_period: string | null;
  version_sequence: number | null;
  statement_version_id: string | null;
  /** the identity or roll-forward rule id, or the data-quality rule code */
  rule: string;
  severity: Severity;
  metric: string | null;
  sources: AnomalySource[];
  /** for equalities: the comparison and how far outside its tolerance it fell */
  amount: { expected_value: string; actual_value: string; delta: string; tolerance: string; times_tolerance: string | null } | null;
  likely_cause: LikelyCause;
  evidence: CauseEvidence[];
  compared: ComparedFigure[];
  served: { statement_version_id: string | null; version_sequence: number | null; this_version: boolean; value: string | null; rule_status: string | null; text: string };
  text: string;
}

/** The generator of explanations (deterministic rules; no language model). */
export const EXPLANATION_GENERATOR = { generator_id: 'fds-rule-explanations', generator_version: '1' } as const;

const IDENTITY_BY_ID = new Map<string, IdentityRule>([...IDENTITY_RULES, ...LEDGER_ONLY_IDENTITY_RULES].map((r) => [r.rule_id, r]));

/** The roll-forward rules' equalities: actual input name = sum of sign x input (domain/reconciliation/rollforward-rules.ts). */
const ROLLFORWARDS: Record<string, { actual: string; terms: [string, 1 | -1][] }> = {
  RF_CF_ENDING_CASH_EQUALS_BS_CASH: { actual: 'balance_sheet_cash', terms: [['cash_flow_ending_cash', 1]] },
  RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END: { actual: 'ending_cash', terms: [['beginning_cash', 1], ['net_change_in_cash', 1]] },
  RF_RETAINED_EARNINGS_ROLLFORWARD: { actual: 'ending_retained_earnings', terms: [['beginning_retained_earnings', 1], ['net_income', 1], ['dividends_paid', -1]] },
};

const IDENTITY_PREFIX = 'DQ_IDENTITY_';
const ROLLFORWARD_METRIC: Record<string, string> = { dividends_paid: 'DIVIDENDS_PAID' };

interface Subject {
  statement_type: string | null;
  fiscal_year: number | null;
  fiscal_period: string | null;
  version_sequence: number | null;
  statement_version_id: string | null;
}

/** metric -> value of the subject version, from the stored figures, else from the row's own inputs */
function valuesOf(ctx: ExplainContext, svid: string | null): Record<string, string> {
  const figs = svid ? ctx.figures(svid) : undefined;
  const out: Record<string, string> = {};
  if (figs) for (const [m, f] of Object.entries(figs)) out[m] = f.value;
  return out;
}

function withFacts(ctx: ExplainContext, t: EquationTerm): EquationTerm {
  const facts = t.statement_version_id ? ctx.figures(t.statement_version_id)?.[t.metric] : undefined;
  return facts ? { ...t, facts } : t;
}

/** The equality an identity rule compared, from its inputs (metric -> value). */
function identityEquation(ctx: ExplainContext, rule: IdentityRule, subject: Subject, raw: Record<string, string>, amounts: { expected: string; actual: string; delta: string; tolerance: string }): Equation {
  const inputs = Object.fromEntries(Object.entries(raw).map(([m, v]) => [m, plain(dec(v))]));
  const has = (m: string) => inputs[m] !== undefined;
  const set = rule.expected.find((s) => s.some((t) => !t.optional) && s.every((t) => t.optional || has(t.metric))) ?? rule.expected[0]!;
  const term = (metric: string, sign: 1 | -1): EquationTerm =>
    withFacts(ctx, { name: metric, metric, value: inputs[metric] ?? null, sign, statement_version_id: subject.statement_version_id });
  return {
    actual: term(rule.actual, 1),
    terms: set.map((t) => term(t.metric, t.sign)),
    expected: plain(dec(amounts.expected)),
    actual_value: plain(dec(amounts.actual)),
    delta: plain(dec(amounts.delta)),
    tolerance: plain(dec(amounts.tolerance)),
    others: valuesOf(ctx, subject.statement_version_id),
  };
}

interface RollInput {
  value: string;
  metric: string;
  statement_version_id: string;
}

/** a fiscal year's quarters against the year (domain/reconciliation/quarter-rules.ts): year = Q1 + Q2 + Q3 + Q4 */
const QUARTERS_TO_YEAR: { actual: string; terms: [string, 1 | -1][] } = { actual: 'year', terms: [['q1', 1], ['q2', 1], ['q3', 1], ['q4', 1]] };

function rollforwardEquation(ctx: ExplainContext, row: LedgerFailureRow): Equation | null {
  const shape = ROLLFORWARDS[row.rule_id] ?? (row.rule_id.startsWith('RF_QUARTERS_SUM_TO_YEAR_') ? QUARTERS_TO_YEAR : undefined);
  const inputs = (row.notes.details.inputs ?? {}) as Record<string, RollInput | null>;
  if (!shape || row.expected_value === null || row.delta === null) return null;
  const term = (n: string, sign: 1 | -1): EquationTerm => {
    const i = inputs[n];
    return withFacts(ctx, { name: n, metric: i?.metric ?? ROLLFORWARD_METRIC[n] ?? n.toUpperCase(), value: i?.value ?? null, sign, statement_version_id: i?.statement_version_id ?? null });
  };
  return {
    actual: term(shape.actual, 1),
    terms: shape.terms.map(([n, s]) => term(n, s)),
    expected: plain(dec(row.expected_value)),
    actual_value: plain(dec(row.actual_value ?? '0')),
    delta: plain(dec(row.delta)),
    tolerance: plain(dec(String(row.notes.details.tolerance ?? '0'))),
    others: valuesOf(ctx, row.statement_version_id),
  };
}

function compared(eq: Equation): ComparedFigure[] {
  return [eq.actual, ...eq.terms].map((t, i) => ({
    name: t.name, metric: t.metric, value: t.value, sign: i === 0 ? null : t.sign, statement_version_id: t.statement_version_id,
    source_accession: t.facts?.source_accession ?? null, value_origin: t.facts?.value_origin ?? null,
  }));
}

function timesTolerance(delta: string, tolerance: string): string | null {
  const t = dec(tolerance);
  return t.isZero() ? null : dec(delta).abs().dividedBy(t).toDecimalPlaces(1).toFixed(1);
}

// ---- findings that are not equalities

interface Point {
  role: string;
  metric: string;
  value: string;
  statement_version_id: string;
  source_accession?: string;
  value_origin?: string;
  calculation_steps?: FigureFacts['calculation_steps'];
}

function nonEquation(row: QualityFindingRow): { cause: CauseFinding; compared: ComparedFigure[] } {
  const points = ((row.evidence.compared ?? []) as Point[]);
  const figures: ComparedFigure[] = points.map((p) => ({
    name: p.role, metric: p.metric, value: plain(dec(p.value)), sign: null, statement_version_id: p.statement_version_id,
    source_accession: p.source_accession ?? null, value_origin: p.value_origin ?? null,
  }));
  const subject = points.find((p) => p.role === 'subject');
  const ev = (test: string, detail: string, p?: Point): CauseEvidence => ({ test, detail, metric: p?.metric ?? row.metric, value: p?.value ?? null });
  const cause = (likely_cause: LikelyCause, ...evidence: CauseEvidence[]) => ({ cause: { likely_cause, evidence }, compared: figures });
  switch (row.rule_code) {
    case 'DQ_SCALE_BREAK':
      return cause('SCALE_SLIP', ev('PRIOR_PERIOD_SCALED', `The figure is ${String(row.evidence.ratio)} times the prior period's: a ${readable(String(row.evidence.scale_factor))}x unit slip.`, subject));
    case 'DQ_MISSING_CORE_METRIC':
      return cause('UNREPORTED_COMPONENT', ev('METRIC_NOT_REPORTED', `${row.metric} was not reported on this statement.`));
    case 'DQ_NEGATIVE_VALUE': {
      if (subject?.value_origin === 'DERIVED') {
        const steps = subject.calculation_steps ?? [];
        const concepts = [...new Set(steps.map((s) => s.source_xbrl_concept ?? 'none'))];
        const list = steps.map((s) => `${s.operation} ${s.source_xbrl_concept ?? 'an untagged figure'} ${readable(s.value)} (${s.source_accession})`).join(', ');
        return concepts.length > 1
          ? cause('MIXED_SCOPE_DERIVED_QUARTER', ev('DERIVED_FROM_MIXED_CONCEPTS', `The figure is derived: ${list}; the inputs carry different concepts, so the subtraction mixes scopes.`, subject))
          : cause('UNDETERMINED', ev('DERIVED_INPUTS_DISAGREE', `The figure is derived: ${list}; the inputs disagree, one of them is likely misstated.`, subject));
      }
      return cause('SIGN', ev('SOURCE_NEGATIVE', `The filer tagged ${row.metric} as ${readable(subject?.value ?? '0')}, a negative value for a metric that is never negative.`, subject));
    }
    case 'DQ_QUARTER_EXCEEDS_YEAR': {
      const [a, ...rest] = points;
      for (const b of rest) {
        if (dec(a!.value).isZero() || dec(b.value).isZero()) continue;
        const ratio = dec(a!.value).abs().dividedBy(dec(b.value).abs());
        const r = ratio.greaterThan(1) ? ratio : dec('1').dividedBy(ratio);
        for (const s of ['1000', '1000000']) {
          if (r.dividedBy(s).greaterThan('0.8') && r.dividedBy(s).lessThan('1.25')) {
            return cause('SCALE_SLIP', ev('QUARTER_YEAR_SCALED', `The ${a!.role} and ${b.role} figures are about ${readable(s)} times apart: one was keyed in a different unit.`, b));
          }
        }
      }
      return cause('UNDETERMINED', ev('NONE_MATCHED', 'No unit slip relates the quarter and the year; one of them is misstated.'));
    }
    default:
      return cause('UNDETERMINED', ev('NONE_MATCHED', 'No cause test applies to this rule.'));
  }
}

// ---- assembly

const CAUSE_WORDS: Record<LikelyCause, string> = {
  SCALE_SLIP: 'a scale slip',
  SIGN: 'a sign error',
  UNREPORTED_COMPONENT: 'an unreported component',
  MIXED_SCOPE_DERIVED_QUARTER: 'a derived quarter with mixed scopes',
  RESTATED_COMPARATIVE: 'a restated comparative',
  UNDETERMINED: 'undetermined',
};

function servedBlock(ctx: ExplainContext, subject: Subject, metric: string | null, identity: IdentityRule | null): AnomalyExplanation['served'] {
  const s = subject.statement_type && subject.fiscal_year !== null && subject.fiscal_period ? ctx.served(subject.statement_type, subject.fiscal_year, subject.fiscal_period) : null;
  if (!s) return { statement_version_id: null, version_sequence: null, this_version: false, value: null, rule_status: null, text: 'The snapshot holds no version of this statement.' };
  const values = valuesOf(ctx, s.statement_version_id);
  const value = metric ? (values[metric] ?? null) : null;
  const period = subject.fiscal_period !== null && isFiscalPeriod(subject.fiscal_period) ? subject.fiscal_period : null;
  const rule_status =
    identity && period
      ? evaluateIdentityRule(identity, { statement_type: subject.statement_type as StatementType, fiscal_year: subject.fiscal_year!, fiscal_period: period, values }).status
      : null;
  const shown = metric ? (value === null ? `, which has no ${metric}` : `, ${metric} ${readable(value)}`) : '';
  const status = rule_status ? `; the identity's status there is ${rule_status}` : '';
  const text =
    s.statement_version_id === subject.statement_version_id
      ? `The snapshot serves this version (v${s.version_sequence}) as filed${shown}: figures are never corrected silently, the finding is reported with the statement${status}.`
      : `The snapshot serves a later version (v${s.version_sequence})${shown}${status}.`;
  return { statement_version_id: s.statement_version_id, version_sequence: s.version_sequence, this_version: s.statement_version_id === subject.statement_version_id, value, rule_status, text };
}

function label(s: Subject): string {
  return s.statement_type ? `${s.statement_type} ${s.fiscal_year} ${s.fiscal_period} v${s.version_sequence}` : 'the company';
}

function assemble(
  ctx: ExplainContext, subject: Subject, rule: string, severity: Severity, metric: string | null, sources: AnomalySource[],
  eq: Equation | null, cause: CauseFinding, comparedFigures: ComparedFigure[], message: string | null,
): AnomalyExplanation {
  const identity = IDENTITY_BY_ID.get(rule) ?? null;
  const amount = eq
    ? { expected_value: eq.expected, actual_value: eq.actual_value, delta: eq.delta, tolerance: eq.tolerance, times_tolerance: timesTolerance(eq.delta, eq.tolerance) }
    : null;
  const served = servedBlock(ctx, subject, metric, identity);
  const what = amount
    ? `${rule} fails on ${label(subject)}: ${eq!.actual.name} is ${readable(amount.actual_value)} where the rule expects ${readable(amount.expected_value)} (delta ${readable(amount.delta)}${amount.times_tolerance ? `, ${amount.times_tolerance} times its tolerance of ${readable(amount.tolerance)}` : ''}).`
    : `${rule} on ${label(subject)}: ${message ?? ''}`.trim();
  const text = `${what} Likely cause: ${CAUSE_WORDS[cause.likely_cause]}. ${cause.evidence.map((e) => e.detail).join(' ')} ${served.text}`;
  return {
    explanation_id: stableUuid('ai-anomaly', [subject.statement_version_id, rule, metric]),
    ...subject, rule, severity, metric, sources, amount, likely_cause: cause.likely_cause, evidence: cause.evidence,
    compared: comparedFigures, served, text,
  };
}

/**
 * Explanations of a company's findings and failed ledger results, one per (version, rule,
 * metric), most severe first, then newest period. `minSeverity` keeps those at or above it.
 */
export function explainAnomalies(
  findings: readonly QualityFindingRow[],
  failures: readonly LedgerFailureRow[],
  ctx: ExplainContext,
  minSeverity: Severity = 'NONE',
): AnomalyExplanation[] {
  const out = new Map<string, AnomalyExplanation>();
  const ledgerByKey = new Map(failures.map((f) => [`${f.statement_version_id}|${f.rule_id}`, f]));
  const used = new Set<string>();
  for (const f of findings) {
    const subject: Subject = { statement_type: f.statement_type, fiscal_year: f.fiscal_year, fiscal_period: f.fiscal_period, version_sequence: f.version_sequence, statement_version_id: f.statement_version_id };
    const source: AnomalySource = { kind: 'DATA_QUALITY', issue_id: f.issue_id, dq_run_id: f.dq_run_id, rule_code: f.rule_code };
    const ruleId = f.rule_code.startsWith(IDENTITY_PREFIX) ? f.rule_code.slice(IDENTITY_PREFIX.length) : null;
    const identity = ruleId ? IDENTITY_BY_ID.get(ruleId) : undefined;
    if (identity && ruleId) {
      const ledger = ledgerByKey.get(`${f.statement_version_id}|${ruleId}`);
      const sources: AnomalySource[] = ledger ? [source, { kind: 'RECONCILIATION', rule_id: ruleId, status: 'FAIL' }] : [source];
      if (ledger) used.add(`${f.statement_version_id}|${ruleId}`);
      const inputs: Record<string, string> = {};
      for (const p of (f.evidence.compared ?? []) as Point[]) inputs[p.metric] = p.value;
      const e = f.evidence as Record<string, string>;
      const eq = identityEquation(ctx, identity, subject, inputs, { expected: e.expected_value!, actual: e.actual_value!, delta: e.delta!, tolerance: e.tolerance! });
      out.set(`${f.statement_version_id}|${ruleId}|${f.metric}`, assemble(ctx, subject, ruleId, f.severity, f.metric, sources, eq, diagnose(eq), compared(eq), null));
      continue;
    }
    const { cause, compared: figs } = nonEquation(f);
    out.set(`${f.statement_version_id}|${f.rule_code}|${f.metric}`, assemble(ctx, subject, f.rule_code, f.severity, f.metric, [source], null, cause, figs, f.message.split(/(?<=\.) /)[0] ?? f.message));
  }
  for (const r of failures) {
    if (used.has(`${r.statement_version_id}|${r.rule_id}`)) continue;
    const subject: Subject = { statement_type: r.statement_type, fiscal_year: r.fiscal_year, fiscal_period: r.fiscal_period, version_sequence: r.version_sequence, statement_version_id: r.statement_version_id };
    const identity = IDENTITY_BY_ID.get(r.rule_id);
    const amounts = { expected: r.expected_value ?? '0', actual: r.actual_value ?? '0', delta: r.delta ?? '0', tolerance: String(r.notes.details.tolerance ?? '0') };
    const eq = identity
      ? identityEquation(ctx, identity, subject, (r.notes.details.inputs ?? {}) as Record<string, string>, amounts)
      : rollforwardEquation(ctx, r);
    if (!eq) continue;
    const source: AnomalySource = { kind: 'RECONCILIATION', rule_id: r.rule_id, status: 'FAIL' };
    // a roll-forward's total may sit on another statement: name a metric only when it is the subject's
    const metric = eq.actual.statement_version_id === r.statement_version_id ? eq.actual.metric : null;
    out.set(`${r.statement_version_id}|${r.rule_id}|${metric}`, assemble(ctx, subject, r.rule_id, r.severity, metric, [source], eq, diagnose(eq), compared(eq), null));
  }
  const min = severityRank(minSeverity);
  return [...out.values()]
    .filter((x) => severityRank(x.severity) >= min)
    .sort((a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      (b.fiscal_year ?? 0) - (a.fiscal_year ?? 0) ||
      (a.fiscal_period ?? '').localeCompare(b.fiscal_period ?? '') ||
      (a.statement_type ?? '').localeCompare(b.statement_type ?? '') ||
      a.rule.localeCompare(b.rule) ||
      (a.metric ?? '').localeCompare(b.metric ?? '') ||
      (a.version_sequence ?? 0) - (b.version_sequence ?? 0),
    );
}
