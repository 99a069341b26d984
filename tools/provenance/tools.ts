import { z } from 'zod';
import { splitRecastsOfVersions } from '../../db/restatement-read.ts';
import { filingsByAccession, metricAcrossVersions, metricRevisions, versionById, type VersionWithHash } from './queries.ts';
import type { StoredFigure } from '../../db/figure-storage.ts';
import { statementVersions } from '../../db/statement-read.ts';
import type { VersionRow } from '../../db/statement-versions.ts';
import { canonicalMetric, conceptIndex } from '../../domain/catalog/index.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { CORRECTION_RULES } from '../../domain/statement-types.ts';
import { defineTool, type ToolContext } from '../../api/define-tool.ts';
import { Cik, dataEnvelope, FiscalPeriodParam, FiscalYear, StatementTypeParam, Uuid, VersionSequenceParam } from '../../api/schemas.ts';
import { CanonicalMetricParam } from '../../api/params.ts';
import { splitRecastOut } from '../../api/restatement-shapes.ts';
import { versionChoices, versionNotFound } from '../../api/version-ref.ts';
import { AuditChainOut, OverrideTraceOut, ProvenanceOut, RuleMetric } from './shapes.ts';

/**
 * Provenance and tracing: where one figure of one statement version came from (filing, tag,
 * context, derivation), its audit chain across the statement's versions, and which mapping and
 * correction rules fired on a version. Everything is read from the stored figures; nothing is
 * recomputed, so these routes explain exactly what the statement routes serve.
 */

const CORRECTION_REASONS: Record<string, (f: StoredFigure) => string> = {
  COST_OF_REVENUE_CREDIT_SIGN: (f) =>
    `The filer tagged cost of revenue as a credit (${f.as_filed_value ?? 'a negative value'}); the sign was reversed because revenue minus the reversed cost equals the gross profit the same filing reports.`,
  REVENUE_RESIDUAL_TOP_LINE_REPLACED: (f) =>
    `The filer's top line ${f.as_filed_concept ?? ''} did not reconcile with its own gross profit (a residual line tagged as the total); it was replaced by ${f.source_xbrl_concept ?? 'the revenue'} reported in the same filing and period, which does (revenue - cost of revenue = gross profit).`,
  SCALE_SLIP_PREVIOUS_VALUE_KEPT: (f) =>
    `Filing ${f.source_accession} tagged ${f.as_filed_value ?? 'a value'} for ${f.source_xbrl_concept ?? 'this figure'}, 1,000 or 1,000,000 times the figure on record (a scale slip, recorded as a data-quality finding, not a restatement); the previous value ${f.value} is kept.`,
  SIGN_SLIP_PREVIOUS_VALUE_KEPT: (f) =>
    `Filing ${f.source_accession} tagged ${f.as_filed_value ?? 'a value'} for ${f.source_xbrl_concept ?? 'this figure'}, the figure on record with the opposite sign, while the statement's earnings per share (or income available to common shareholders) has the sign of the figure on record (a sign slip, recorded as a data-quality finding, not a restatement); the previous value ${f.value} is kept.`,
  NET_CHANGE_IN_CASH_FX_EFFECT_ADDED: (f) =>
    `The filer tagged ${f.as_filed_value ?? 'the change in cash'} for ${lineItemOf(f) ?? 'the change in cash'}, which includes the effect of exchange rates, but the value is its operating, investing and financing totals exactly (the subtotal before that effect) while the same filing tells a non-zero exchange-rate line for the period; the effect was added, so the figure is what cash moved by.`,
  TOTAL_EQUITY_COMPONENT_REPLACED: (f) =>
    `The filer tagged ${f.as_filed_value ?? 'a value'} for ${lineItemOf(f) ?? 'total equity'}, which is not its stockholders' equity plus noncontrolling interest but exactly a line of its own equity section at the same date (a component tagged as the total); the total is served as stockholders' equity plus noncontrolling interest from the same filing.`,
};

const RULE_DESCRIPTIONS: Record<string, string> = {
  COST_OF_REVENUE_CREDIT_SIGN: 'Correction: cost of revenue tagged as a credit; sign reversed, proven by the filing\'s own gross profit. as_filed_value keeps the tagged value.',
  REVENUE_RESIDUAL_TOP_LINE_REPLACED:
    'Correction: a residual top line tagged as revenue was replaced by the revenue that reconciles with gross profit in the same filing and period. as_filed_concept names the replaced tag.',
  SCALE_SLIP_PREVIOUS_VALUE_KEPT:
    'Override: a later filing told the figure 1,000 or 1,000,000 times off (millions tagged as units, or the reverse); the previous value is kept, as_filed_value holds what was filed.',
  SIGN_SLIP_PREVIOUS_VALUE_KEPT:
    'Override: a later filing told the figure with the opposite sign, and a figure whose sign must agree (EPS for net income) sides with the previous value, which is kept; as_filed_value holds what was filed.',
  NET_CHANGE_IN_CASH_FX_EFFECT_ADDED:
    'Correction: the change in cash was tagged before the effect of exchange rates (it equals the operating, investing and financing totals exactly, and the filing tells a non-zero exchange-rate line); served with the effect added. as_filed_value keeps the tagged subtotal.',
  TOTAL_EQUITY_COMPONENT_REPLACED:
    "Correction: total equity was tagged with the value of a line of the equity section (e.g. accumulated other comprehensive income); served as the same filing's stockholders' equity plus noncontrolling interest. as_filed_value keeps the tagged value.",
  FALLBACK_CONCEPT:
    "Mapping: the value comes from a later candidate tag of the metric's catalog list, not its first one (selection_rule says whether the filing's presentation or the catalog order chose it). For a derived figure, its inputs' tag.",
};

/** A split recast as the audit chain shows it on a version of the one metric it is about. */
function withoutMetric({ metric: _metric, ...rest }: ReturnType<typeof splitRecastOut>): Omit<ReturnType<typeof splitRecastOut>, 'metric'> {
  return rest;
}

const overrideReason = (f: StoredFigure) => (f.correction_rule ? (CORRECTION_REASONS[f.correction_rule]?.(f) ?? f.correction_rule) : null);

/** The tag a figure's line carries: its own, or for a derived figure the tag of its base input. */
function lineItemOf(f: StoredFigure): string | null {
  if (f.source_xbrl_concept) return f.source_xbrl_concept;
  const steps = f.calculation_steps ?? [];
  return (steps.find((s) => s.operation === 'base') ?? steps[0])?.source_xbrl_concept ?? null;
}

/** Position of a tag in the metric's candidate list (0 = first); null when the catalog does not list it. */
function rankOf(metric: string, concept: string | null): number | null {
  if (!concept) return null;
  return conceptIndex().get(concept)?.find((u) => u.metric === metric)?.rank ?? null;
}

const candidatesOf = (metric: string) => (canonicalMetric(metric)?.concepts ?? []).map((c) => ({ concept: `${c.taxonomy}:${c.concept}`, negated: c.negate === true }));

const stepsOut = (f: StoredFigure) => f.calculation_steps?.map((s) => ({ ...s, value: wireDecimal(s.value) })) ?? null;

/** The version named by id, with its company admitted through the coverage gate; 404 when unknown. */
async function versionOf(ctx: ToolContext, id: string): Promise<VersionWithHash> {
  const row = await versionById(ctx.services.sql, id);
  if (!row) {
    throw new ServiceError(
      'NOT_FOUND',
      `No statement version has id ${id}. Statement version ids come from /v1/fundamentals/normalized-statements (data.statement_version_id) or its version_history.`,
      { statement_version_id: id },
    );
  }
  await ctx.reach([row.cik]);
  return row;
}

function figureOf(row: VersionWithHash, metric: string): StoredFigure {
  const f = row.figures[metric];
  if (f) return f;
  const def = canonicalMetric(metric)!;
  const why =
    def.statement_type !== row.statement_type
      ? `${metric} is a ${def.statement_type} metric and this version is a ${row.statement_type}. `
      : `The filing did not report ${metric} for this period. `;
  throw new ServiceError(
    'NOT_FOUND',
    `${why}Statement version ${row.statement_version_id} (${row.statement_type} ${row.fiscal_year} ${row.fiscal_period} v${row.version_sequence} of CIK ${row.cik}) carries: ${Object.keys(row.figures).sort().join(', ')}.`,
    { statement_version_id: row.statement_version_id, metric_name: metric, metrics_on_version: Object.keys(row.figures).sort() },
  );
}

const PathInput = {
  statement_version_id: Uuid.describe('UUID of one statement version (data.statement_version_id of /v1/fundamentals/normalized-statements)'),
  metric_name: CanonicalMetricParam,
};

export const metricProvenance = defineTool({
  name: 'edgar.metric_provenance',
  title: 'Provenance of one figure of a statement version',
  description:
    'Where one canonical metric on one statement version came from: the source filing (accession, form, filing and acceptance dates), the tag (source_line_item), how it was mapped (mapping_type null for the first catalog tag), ' +
    'whether a correction changed it (override_applied, override_reason), the derivation for a derived quarter (calculation_steps), the XBRL context and the version\'s content hash. ' +
    '400 for an id that is not a UUID or a name that is not canonical (the message lists accepted names); 404 for an unknown version, or a metric the version does not carry (the message lists those it does).',
  http: { method: 'GET', path: '/v1/edgar/statements/{statement_version_id}/metrics/{metric_name}/provenance' },
  cache: 'immutable',
  tool: false,
  plan: 'free',
  input: z.object(PathInput),
  output: dataEnvelope(ProvenanceOut),
  handler: async (ctx, input) => {
    const row = await versionOf(ctx, input.statement_version_id);
    const f = figureOf(row, input.metric_name);
    const filing = (await filingsByAccession(ctx.services.sql, [f.source_accession])).get(f.source_accession);
    // ingestion records every filing a figure is read from; a missing one is a fault of ours (500)
    if (!filing) throw new Error(`filing ${f.source_accession} of statement version ${row.statement_version_id} is not on record`);
    return {
      data: {
        statement_version_id: row.statement_version_id,
        cik: row.cik,
        metric: input.metric_name,
        value: wireDecimal(f.value),
        fiscal_year: row.fiscal_year,
        fiscal_period: row.fiscal_period,
        period_start: f.period_start,
        period_end: f.period_end,
        source_accession: f.source_accession,
        filing_type: filing.form,
        filing_date: filing.filing_date,
        accepted_at: filing.accepted_at,
        source_line_item: lineItemOf(f),
        source_xbrl_concept: f.source_xbrl_concept,
        mapping_type: f.mapping_type,
        selection_rule: f.selection_rule,
        override_applied: f.correction_rule !== null,
        override_reason: overrideReason(f),
        calculation_steps: stepsOut(f),
        source_context: {
          entity_cik: row.cik,
          period_type: f.period_start === null ? ('instant' as const) : ('duration' as const),
          period_start: f.period_start,
          period_end: f.period_end,
          unit: f.unit,
          dimensions: [],
        },
        source_hash: row.content_hash,
      },
    };
  },
});

export const metricAuditChain = defineTool({
  name: 'edgar.metric_audit_chain',
  title: 'Audit chain of one figure of a statement version',
  description:
    'The chain from filing to served value for one canonical metric on one statement version: filing_accession, the tag and its rank among the metric\'s catalog candidates, mapping_type, ' +
    'overrides[] (each correction with rule, reason, as_filed_value and as_filed_concept), calculation_steps for a derived figure, and the metric on every version of the same statement with the revision each recorded, plus links to related reads. ' +
    'Errors as for the provenance route: 400 for a non-UUID id or non-canonical name, 404 for an unknown version or a metric it does not carry.',
  http: { method: 'GET', path: '/v1/edgar/statements/{statement_version_id}/metrics/{metric_name}/audit-chain' },
  tool: false,
  plan: 'free',
  input: z.object(PathInput),
  output: dataEnvelope(AuditChainOut),
  handler: async (ctx, input) => {
    const row = await versionOf(ctx, input.statement_version_id);
    const metric = input.metric_name;
    const f = figureOf(row, metric);
    const id = { cik: row.cik, statement_type: row.statement_type, fiscal_year: row.fiscal_year, fiscal_period: row.fiscal_period };
    const across = await metricAcrossVersions(ctx.services.sql, id, metric);
    const ids = across.map((v) => v.statement_version_id);
    const [revisions, allRecasts] = await Promise.all([metricRevisions(ctx.services.sql, ids, metric), splitRecastsOfVersions(ctx.services.sql, ids)]);
    const recasts = allRecasts.filter((r) => r.metric === metric);
    const identityQuery = `cik=${row.cik}&statement_type=${row.statement_type}&fiscal_year=${row.fiscal_year}&fiscal_period=${row.fiscal_period}`;
    const overrides = f.correction_rule
      ? [{ rule: f.correction_rule, reason: overrideReason(f)!, as_filed_value: f.as_filed_value === null ? null : wireDecimal(f.as_filed_value), as_filed_concept: f.as_filed_concept, served_value: wireDecimal(f.value), served_concept: f.source_xbrl_concept }]
      : [];
    return {
      data: {
        metric_name: metric,
        statement_version_id: row.statement_version_id,
        ...id,
        statement_type: row.statement_type,
        fiscal_period: row.fiscal_period,
        version_sequence: row.version_sequence,
        value: wireDecimal(f.value),
        filing_accession: f.source_accession,
        xbrl_concept: f.source_xbrl_concept,
        mapping_type: f.mapping_type,
        selection_rule: f.selection_rule,
        concept_rank: rankOf(metric, lineItemOf(f)),
        candidate_concepts: candidatesOf(metric),
        overrides,
        calculation_steps: stepsOut(f),
        versions: across.map((v) => {
          const r = revisions.find((x) => x.statement_version_id === v.statement_version_id);
          const recast = recasts.find((x) => x.statement_version_id === v.statement_version_id);
          return {
            statement_version_id: v.statement_version_id,
            version_sequence: v.version_sequence,
            is_requested: v.statement_version_id === row.statement_version_id,
            version_accession: v.accession,
            filing_type: v.form,
            filing_date: v.filing_date,
            value: v.figure ? wireDecimal(v.figure.value) : null,
            source_accession: v.figure?.source_accession ?? null,
            xbrl_concept: v.figure?.source_xbrl_concept ?? null,
            mapping_type: v.figure?.mapping_type ?? null,
            correction_rule: v.figure?.correction_rule ?? null,
            revision: r
              ? { ...r, old_value: wireDecimal(r.old_value), new_value: wireDecimal(r.new_value), difference: wireDecimal(r.difference) }
              : null,
            split_recast: recast ? withoutMetric(splitRecastOut(recast)) : null,
          };
        }),
        links: {
          provenance: `/v1/edgar/statements/${row.statement_version_id}/metrics/${metric}/provenance`,
          override_trace: `/v1/edgar/companies/${row.cik}/statements/overrides/trace?${identityQuery}&version_sequence=${row.version_sequence}`,
          statement: `/v1/fundamentals/normalized-statements?${identityQuery}&include_version_history=true`,
          metric_time_series: `/v1/edgar/companies/${row.cik}/metrics/${metric}/time-series?fiscal_period=${row.fiscal_period}`,
        },
      },
    };
  },
});

function traceOf(row: VersionRow) {
  const byRule = new Map<string, z.input<typeof RuleMetric>[]>();
  let remapped = 0;
  const metrics = Object.keys(row.figures).sort();
  for (const metric of metrics) {
    const f = row.figures[metric]!;
    const concept = lineItemOf(f);
    const rank = rankOf(metric, concept);
    const fallback = f.value_origin === 'SOURCE' ? (f.mapping_type?.startsWith('FALLBACK_CONCEPT') ?? false) : rank !== null && rank > 0;
    const entry = {
      metric,
      value: wireDecimal(f.value),
      xbrl_concept: concept,
      first_candidate_concept: candidatesOf(metric)[0]?.concept ?? null,
      selection_rule: f.selection_rule,
      value_origin: f.value_origin,
      as_filed_value: f.as_filed_value === null ? null : wireDecimal(f.as_filed_value),
      as_filed_concept: f.as_filed_concept,
    };
    if (f.correction_rule) byRule.set(f.correction_rule, [...(byRule.get(f.correction_rule) ?? []), entry]);
    else if (fallback) byRule.set('FALLBACK_CONCEPT', [...(byRule.get('FALLBACK_CONCEPT') ?? []), entry]);
    if (f.correction_rule || fallback) remapped++;
  }
  const rules = ([...CORRECTION_RULES, 'FALLBACK_CONCEPT'] as const)
    .filter((r) => byRule.has(r))
    .map((r) => ({ rule_id: r, rule_kind: r === 'FALLBACK_CONCEPT' ? ('MAPPING' as const) : ('CORRECTION' as const), description: RULE_DESCRIPTIONS[r]!, facts_count: byRule.get(r)!.length, metrics: byRule.get(r)! }));
  return { total_facts_evaluated: metrics.length, total_facts_remapped: remapped, total_facts_suppressed: 0, rules };
}


export const overrideTrace = defineTool({
  name: 'edgar.override_trace',
  title: 'Override trace of a statement version',
  description:
    'Which mapping and correction rules fired on one statement version (cik + statement_type + fiscal_year + fiscal_period + version_sequence): total_facts_evaluated (figures on the version), ' +
    "total_facts_remapped (figures not from the metric's first catalog tag, or replaced by a correction), total_facts_suppressed (always 0), and rules[] with the figures each touched. " +
    'Zero counts with empty rules mean no rule fired. version_sequence may be left out when the statement has a single version; with several, that answers 409 EDGAR_STATEMENT_AMBIGUOUS listing them in details.versions: narrow with one rather than retrying. ' +
    '404 when the statement or the version is not on record (the message lists what is).',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/statements/overrides/trace' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik,
    statement_type: StatementTypeParam,
    fiscal_year: FiscalYear,
    fiscal_period: FiscalPeriodParam,
    version_sequence: VersionSequenceParam.optional().describe('which version (1 = as first reported); required when the statement has several'),
  }),
  output: dataEnvelope(OverrideTraceOut),
  companies: (input) => [input.cik],
  handler: async (ctx, input) => {
    const id = { cik: input.cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
    const versions = await statementVersions(ctx.services.sql, id, { as_of_date: null, as_reported: false });
    const label = `${id.statement_type} ${id.fiscal_year} ${id.fiscal_period} of CIK ${id.cik}`;
    if (versions.length === 0) {
      throw new ServiceError('NOT_FOUND', `No ${label} is on record. The company's statements are listed by /v1/edgar/companies/{cik}/completeness and /v1/coverage/companies/{cik}.`, { ...id });
    }
    const sequences = versions.map((v) => v.version_sequence);
    let row: VersionRow | undefined;
    if (input.version_sequence !== undefined) {
      row = versions.find((v) => v.version_sequence === input.version_sequence);
      if (!row) throw versionNotFound(id, versions, { field: 'version_sequence', value: input.version_sequence });
    } else if (versions.length > 1) {
      throw new ServiceError(
        'EDGAR_STATEMENT_AMBIGUOUS',
        `${label} has ${versions.length} versions (${sequences.join(', ')}); narrow the identity with version_sequence (the latest is ${sequences[sequences.length - 1]}) rather than retrying.`,
        { ...id, version_sequences: sequences, versions: versionChoices(versions) },
      );
    } else row = versions[0]!;
    return {
      data: {
        ...id,
        statement_type: input.statement_type,
        version_sequence: row.version_sequence,
        statement_version_id: row.statement_version_id,
        ...traceOf(row),
      },
    };
  },
});

export const PROVENANCE_TOOLS = [metricProvenance, metricAuditChain, overrideTrace];
