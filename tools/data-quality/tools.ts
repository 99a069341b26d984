import { z } from 'zod';

import { type IssueRow, listIssues, versionQuality, reconcileLatestVersions } from './queries.ts';
import { checkQuality } from '../../db/data-quality.ts';
import { byCatalogOrder } from '../../domain/catalog/index.ts';
import { DQ_RULE_CODES, DQ_RULES, ISSUE_SEVERITIES, type IssueSeverity } from '../../domain/data-quality.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool, type ToolContext } from '../../api/define-tool.ts';
import {
  Cik,
  CikOut,
  dataEnvelope,
  FiscalPeriodParam,
  FiscalYear,
  PageParams,
  pageOf,
  paginated,
  StatementTypeParam,
  Ticker,
  Timestamp,
  Uuid,
  VersionSequenceParam,
} from '../../api/schemas.ts';
import { FactOut, StatementVersionOut, versionOut } from '../../api/statement-shapes.ts';
import { companyOf } from '../../api/params.ts';
import { lineageOf, type Identity } from '../../api/restatement-shapes.ts';
import { versionChoices, versionNotFound } from '../../api/version-ref.ts';
import type { VersionRow } from '../../db/statement-versions.ts';

/**
 * Data-quality routes: persisted findings (domain/data-quality.ts) listed, overlaid on a
 * normalized statement version, and re-checked on request.
 */


const RULE_LIST = DQ_RULES.map((r) => `${r.rule_code} (${r.severity}${r.reference ? `; ${r.reference}` : ''})`).join('; ');

const RuleCode = z.enum(DQ_RULE_CODES as [string, ...string[]]).describe('a data-quality rule code');
const SeverityOut = z.enum(ISSUE_SEVERITIES);
const Evidence = z
  .record(z.string(), z.unknown())
  .describe(
    'what was compared: compared[] (each with role, metric, value, statement_version_id, version_sequence, fiscal_year, fiscal_period, period_start, period_end, source_accession, value_origin, calculation_steps for a derived figure) plus rule detail (ratio, excess, expected_value/actual_value/delta/tolerance, missing_metric)',
  );

const IssueOut = z.object({
  issue_id: z.string(),
  dq_run_id: z.string().describe('the run that first recorded the finding'),
  rule_code: z.string(),
  severity: SeverityOut,
  cik: CikOut,
  statement_type: StatementTypeParam.nullable(),
  fiscal_year: z.number().int().nullable(),
  fiscal_period: FiscalPeriodParam.nullable(),
  version_sequence: z.number().int().nullable(),
  statement_version_id: z.string().nullable(),
  metric: z.string().nullable().describe('the metric the finding is about (for DQ_MISSING_CORE_METRIC the absent one); null for the statement as a whole'),
  message: z.string().describe('what looks wrong and what to do about it'),
  evidence: Evidence,
  detected_at: Timestamp,
});

const FindingOut = IssueOut.pick({ issue_id: true, dq_run_id: true, rule_code: true, severity: true, metric: true, message: true, evidence: true, detected_at: true });

function issueOut(r: IssueRow): z.input<typeof IssueOut> {
  return { ...r, statement_type: r.statement_type, fiscal_period: r.fiscal_period };
}

function findingOut(r: IssueRow): z.input<typeof FindingOut> {
  return { issue_id: r.issue_id, dq_run_id: r.dq_run_id, rule_code: r.rule_code, severity: r.severity, metric: r.metric, message: r.message, evidence: r.evidence, detected_at: r.detected_at };
}

const OverlayOut = StatementVersionOut.extend({
  normalized_payload: StatementVersionOut.shape.normalized_payload.extend({
    facts: z.array(FactOut.extend({ dq_findings: z.array(FindingOut).describe('findings about this figure, most severe first; empty when none') })),
  }),
  dq_overlay: z.object({
    checked: z.boolean().describe('false when no data-quality run has covered this version yet (then no finding means nothing, not "clean"): POST /v1/edgar/companies/{cik}/statements/dq/run checks it'),
    last_dq_run_id: z.string().nullable(),
    last_checked_at: Timestamp.nullable(),
    issues_count: z.number().int(),
    max_severity: SeverityOut.nullable().describe('null when the version has no finding'),
    counts_by_severity: z.object({ CRITICAL: z.number().int(), HIGH: z.number().int(), MEDIUM: z.number().int(), LOW: z.number().int() }),
    flagged_metrics: z.array(z.string()).describe('facts carrying at least one finding, in statement order'),
    statement_findings: z
      .array(FindingOut)
      .describe('findings not attached to a fact: about the statement as a whole, or about a metric it lacks (DQ_MISSING_CORE_METRIC)'),
  }),
});

const OVERLAY_SHAPE =
  'Same shape as the statements_normalized data (facts with provenance, normalized_payload._meta.identity), plus dq_findings on each fact and a dq_overlay summary ' +
  '(checked, issues_count, max_severity, counts_by_severity, flagged_metrics, statement_findings for findings about the statement or a metric it lacks).';

async function overlayOf(ctx: ToolContext, versions: VersionRow[], row: VersionRow): Promise<{ data: z.input<typeof OverlayOut> }> {
  const quality = await versionQuality(ctx.services.sql, row.statement_version_id);
  const base = versionOut(row, row === versions[versions.length - 1], byCatalogOrder);
  const onFacts = new Map<string, IssueRow[]>();
  const statementLevel: IssueRow[] = [];
  for (const issue of quality.issues) {
    if (issue.metric !== null && Object.hasOwn(row.figures, issue.metric)) onFacts.set(issue.metric, [...(onFacts.get(issue.metric) ?? []), issue]);
    else statementLevel.push(issue);
  }
  const counts = { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0 } satisfies Record<IssueSeverity, number>;
  for (const issue of quality.issues) counts[issue.severity]++;
  const facts = base.normalized_payload.facts.map((f) => ({ ...f, dq_findings: (onFacts.get(f.metric) ?? []).map(findingOut) }));
  return {
    data: {
      ...base,
      normalized_payload: { ...base.normalized_payload, facts },
      dq_overlay: {
        checked: quality.last_check !== null,
        last_dq_run_id: quality.last_check?.dq_run_id ?? null,
        last_checked_at: quality.last_check?.finished_at ?? null,
        issues_count: quality.issues.length,
        max_severity: [...ISSUE_SEVERITIES].reverse().find((s) => counts[s] > 0) ?? null,
        counts_by_severity: counts,
        flagged_metrics: facts.filter((f) => f.dq_findings.length > 0).map((f) => f.metric),
        statement_findings: statementLevel.map(findingOut),
      },
    },
  };
}



function bySequence(versions: VersionRow[], id: Identity, sequence: number): VersionRow {
  const row = versions.find((v) => v.version_sequence === sequence);
  if (row) return row;
  throw versionNotFound(id, versions, { field: 'version_sequence', value: sequence });
}

const IdentityInput = {
  statement_type: StatementTypeParam,
  fiscal_year: FiscalYear,
  fiscal_period: FiscalPeriodParam,
};

export const dataQualityIssues = defineTool({
  name: 'data_quality.issues',
  title: 'Data-quality issues',
  description:
    'Persisted data-quality findings, paginated, ordered by severity descending (CRITICAL first), then cik, fiscal_year, fiscal_period, rule_code and issue_id ascending, nulls last on the fiscal fields. ' +
    'Filters (all optional, combined with AND): cik; rule_code (repeatable: ?rule_code=A&rule_code=B or A,B); min_severity (LOW, MEDIUM, HIGH or CRITICAL: that severity and above; NONE means all); ' +
    'statement_type; fiscal_year; fiscal_period; metric; statement_version_id; dq_run_id (findings first recorded by that run). ' +
    'Findings are computed when ingestion adds a version and never change a figure. ' +
    'On the Free plan the list shows only the companies this key holds (its coverage selection); passing cik claims a slot for that company as any company read does. ' +
    `Rules: ${RULE_LIST}.`,
  http: { method: 'GET', path: '/v1/data-quality/issues' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik.optional(),
    rule_code: z.array(RuleCode).min(1).max(DQ_RULE_CODES.length).optional().describe('one or more rule codes'),
    min_severity: z.enum(['NONE', ...ISSUE_SEVERITIES]).optional().describe('lowest severity listed: LOW, MEDIUM, HIGH or CRITICAL (NONE lists all)'),
    statement_type: StatementTypeParam.optional(),
    fiscal_year: FiscalYear.optional(),
    fiscal_period: FiscalPeriodParam.optional(),
    metric: z.string().transform((s) => s.trim().toUpperCase()).optional().describe('canonical metric name the finding is about'),
    statement_version_id: Uuid.optional(),
    dq_run_id: Uuid.optional().describe('findings first recorded by this run'),
    ...PageParams,
  }),
  output: paginated(IssueOut),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const { services } = ctx;
    const { total, rows } = await listIssues(
      services.sql,
      {
        cik: input.cik ?? null,
        rule_codes: input.rule_code ?? null,
        min_severity: input.min_severity ?? null,
        statement_type: input.statement_type ?? null,
        fiscal_year: input.fiscal_year ?? null,
        fiscal_period: input.fiscal_period ?? null,
        metric: input.metric ?? null,
        statement_version_id: input.statement_version_id ?? null,
        dq_run_id: input.dq_run_id ?? null,
        within_ciks: await ctx.visibleCompanies(),
      },
      { limit: input.page_size, offset: (input.page - 1) * input.page_size },
    );
    return pageOf(rows.map(issueOut), total, input.page, input.page_size);
  },
});

export const edgarDqOverlay = defineTool({
  name: 'edgar.dq_overlay',
  title: 'Normalized statement with data-quality overlay (by version_sequence)',
  description:
    'One version of a normalized statement with its data-quality findings attached. ' +
    OVERLAY_SHAPE +
    ' The statement identity is cik + statement_type + fiscal_year + fiscal_period + version_sequence. Without version_sequence the identity is ambiguous when the statement has more than one version: ' +
    'that answers 409 EDGAR_STATEMENT_AMBIGUOUS with details.versions (version_sequence, statement_version_id, accession, filing date of each); narrow the identity with one of those version_sequence values rather than retrying. ' +
    'A statement with a single version is served without version_sequence.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/statements/dq/overlay' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik,
    ...IdentityInput,
    version_sequence: VersionSequenceParam.optional().describe('which version (1 = as first reported); required when the statement has several'),
  }),
  output: dataEnvelope(OverlayOut),
  companies: (input) => [input.cik],
  handler: async (ctx, input) => {
    const id = { cik: input.cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
    const versions = await lineageOf(ctx, id);
    if (input.version_sequence !== undefined) return overlayOf(ctx, versions, bySequence(versions, id, input.version_sequence));
    if (versions.length > 1) {
      const sequences = versions.map((v) => v.version_sequence);
      throw new ServiceError(
        'EDGAR_STATEMENT_AMBIGUOUS',
        `${id.statement_type} ${id.fiscal_year} ${id.fiscal_period} of CIK ${id.cik} has ${versions.length} versions (${sequences.join(', ')}); ` +
          `narrow the identity with version_sequence (the latest is ${sequences[sequences.length - 1]}) rather than retrying.`,
        { ...id, version_sequences: sequences, versions: versionChoices(versions) },
      );
    }
    return overlayOf(ctx, versions, versions[0]!);
  },
});

export const fundamentalsDqOverlay = defineTool({
  name: 'fundamentals.dq_overlay',
  title: 'Normalized statement with data-quality overlay (by statement_version_id)',
  description:
    'The data-quality overlay of one statement version named by statement_version_id, which must be a version of the identity (cik or ticker + statement_type + fiscal_year + fiscal_period); ' +
    'a version of another identity, or an unknown id, answers 404 listing the versions of the identity. ' +
    OVERLAY_SHAPE,
  http: { method: 'GET', path: '/v1/fundamentals/normalized-statements/dq-overlay' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik.optional(),
    ticker: Ticker.optional(),
    ...IdentityInput,
    statement_version_id: Uuid.describe('UUID of one version of the statement (statements_normalized returns it)'),
  }),
  output: dataEnvelope(OverlayOut),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const cik = await companyOf(ctx, input);
    const id = { cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
    const versions = await lineageOf(ctx, id);
    const row = versions.find((v) => v.statement_version_id === input.statement_version_id);
    if (!row) {
      throw new ServiceError(
        'NOT_FOUND',
        `statement_version_id ${input.statement_version_id} is not a version of ${id.statement_type} ${id.fiscal_year} ${id.fiscal_period} of CIK ${cik}; ` +
          `its versions: ${versions.map((v) => `${v.version_sequence} = ${v.statement_version_id}`).join(', ')}.`,
        { ...id, statement_version_id: input.statement_version_id, versions: versionChoices(versions) },
      );
    }
    return overlayOf(ctx, versions, row);
  },
});

export const dqAnomalies = defineTool({
  name: 'dq.anomalies',
  title: 'Data-quality anomalies of a normalized statement',
  description:
    'A normalized statement (cik or ticker + statement_type + fiscal_year + fiscal_period) with its data-quality findings overlaid: negative values that cannot be negative, 1,000x (or 1,000,000x) scale breaks against the prior period, quarters larger than their year, missing core metrics and failing accounting identities. ' +
    'The latest version by default; version_sequence picks an earlier one (1 = as first reported). ' +
    OVERLAY_SHAPE +
    ' Read dq_overlay first: checked=false means the version was never checked, not that it is clean.',
  http: { method: 'GET', path: '/v1/fundamentals/normalized-statements/dq-anomalies' },
  tool: true,
  listedAs: 'spec',
  plan: 'free',
  input: z.object({
    cik: Cik.optional(),
    ticker: Ticker.optional(),
    ...IdentityInput,
    version_sequence: VersionSequenceParam.optional().describe('which version; the latest when omitted'),
  }),
  output: dataEnvelope(OverlayOut),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const cik = await companyOf(ctx, input);
    const id = { cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
    const versions = await lineageOf(ctx, id);
    const row = input.version_sequence === undefined ? versions[versions.length - 1]! : bySequence(versions, id, input.version_sequence);
    return overlayOf(ctx, versions, row);
  },
});

export const edgarDqRun = defineTool({
  name: 'edgar.dq_run',
  title: 'Run data-quality checks',
  description:
    "Runs the data-quality checks on the latest version of each of a company's statements, or of those the body narrows to (statement_type, fiscal_year, fiscal_period, each optional), and records a run; it also records any reconciliation ledger rows those versions lack. " +
    'Returns { data: { dq_run_id, statements_checked, issues_found, issues_new } }: issues_found counts every finding the checks produced, issues_new those not on record before. ' +
    'Findings are keyed by (statement_version_id, rule_code, metric), so re-running records nothing twice (issues_new 0). ' +
    'Naming a full statement identity that does not exist answers 404 listing the periods on record; a narrower filter that matches nothing checks 0 statements.',
  http: { method: 'POST', path: '/v1/edgar/companies/{cik}/statements/dq/run' },
  tool: false,
  plan: 'free',
  annotations: { readOnlyHint: false, idempotentHint: true },
  input: z.object({
    cik: Cik,
    statement_type: StatementTypeParam.optional(),
    fiscal_year: FiscalYear.optional(),
    fiscal_period: FiscalPeriodParam.optional(),
  }),
  output: dataEnvelope(
    z.object({
      dq_run_id: z.string(),
      cik: CikOut,
      requested: z.object({ statement_type: StatementTypeParam.nullable(), fiscal_year: z.number().int().nullable(), fiscal_period: FiscalPeriodParam.nullable() }),
      statements_checked: z.number().int().describe('latest statement versions checked'),
      issues_found: z.number().int(),
      issues_new: z.number().int(),
      reconciliation_rows_new: z.number().int().describe('reconciliation ledger rows recorded by this run for the checked versions (0 when all were on record)'),
      started_at: Timestamp,
      finished_at: Timestamp,
    }),
  ),
  companies: (input) => [input.cik],
  handler: async (ctx, input) => {
    const requested = { statement_type: input.statement_type ?? null, fiscal_year: input.fiscal_year ?? null, fiscal_period: input.fiscal_period ?? null };
    const run = await ctx.services.sql.begin(async (tx) => {
      const r = await checkQuality(tx, input.cik, { kind: 'latest', ...requested });
      const ledger = await reconcileLatestVersions(tx, input.cik, requested);
      if (r.statements_checked === 0 && input.statement_type && input.fiscal_year !== undefined && input.fiscal_period) {
        // a named statement that is not there: 404 listing what is, and the empty run rolls back
        await lineageOf(ctx, { cik: input.cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period });
      }
      return { ...r, reconciliation_rows_new: ledger };
    });
    return { data: { dq_run_id: run.dq_run_id, cik: input.cik, requested, statements_checked: run.statements_checked, issues_found: run.issues_found, issues_new: run.issues_new, reconciliation_rows_new: run.reconciliation_rows_new, started_at: run.started_at, finished_at: run.finished_at } };
  },
});

export const DQ_TOOLS = [dqAnomalies, dataQualityIssues, edgarDqOverlay, fundamentalsDqOverlay, edgarDqRun];
