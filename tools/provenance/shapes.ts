import { z } from 'zod';
import { VersionKeyOut } from '../../api/version-ref.ts';
import { CikOut, DecimalString, FiscalPeriodParam, StatementTypeParam, Timestamp } from '../../api/schemas.ts';
import { SplitRecastOut } from '../../api/restatement-shapes.ts';
import { CalculationStepOut, FigureProvenance } from '../../api/statement-shapes.ts';
import { CORRECTION_RULES } from '../../domain/statement-types.ts';

/** Output shapes of the provenance area: a figure's source, its audit chain across versions, and the override trace of a version. */

export const SourceContext = z
  .object({
    entity_cik: CikOut,
    period_type: z.enum(['duration', 'instant']).describe('duration for income and cash-flow figures, instant (a balance at period_end) for balance-sheet figures'),
    period_start: z.string().nullable().describe('start of the duration; null for an instant'),
    period_end: z.string(),
    unit: z.string().describe('XBRL unit: USD, TWD, USD/shares, shares ...'),
    dimensions: z.array(z.string()).describe('always empty: statement figures come from non-dimensional (consolidated) facts; segment figures are on /v1/metrics/segments'),
  })
  .describe(
    'the XBRL context of the value (entity, period, unit, dimensions), described rather than named: context ids are per-filing labels and are not stored. For a derived figure, the period it was computed for; its inputs\' periods are in calculation_steps',
  );

export const ProvenanceOut = z.object({
  statement_version_id: z.string(),
  cik: CikOut,
  metric: z.string(),
  value: DecimalString.describe('the value as served on the statement version'),
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  period_start: z.string().nullable().describe('start of the figure\'s period; null for a balance (instant)'),
  period_end: z.string(),
  source_accession: z.string().describe('accession of the filing the value was read from (for a derived figure, the filing whose presentation completed it); can be an earlier filing than the version\'s own when a later filing did not present the metric'),
  filing_type: z.string().describe('form of the source filing, e.g. 10-K, 10-Q, 10-K/A'),
  filing_date: z.string().describe('SEC filing date of the source filing'),
  accepted_at: Timestamp.nullable().describe('EDGAR acceptance time of the source filing; null when the source did not give it'),
  source_line_item: z
    .string()
    .nullable()
    .describe("the tag of the statement line the value belongs to (taxonomy-qualified, e.g. us-gaap:Revenues): the field to read for the concept. For a derived figure, its base input's tag"),
  source_xbrl_concept: z
    .string()
    .nullable()
    .describe('the tag of the fact the value was read from directly; equals source_line_item for a tagged figure, null for a derived figure (computed, not read)'),
  mapping_type: FigureProvenance.mapping_type,
  selection_rule: FigureProvenance.selection_rule,
  override_applied: z.boolean().describe('true when the value is not the one the filer tagged: a correction (correction rules in the override trace) changed it'),
  override_reason: z.string().nullable().describe('why the value differs from the tagged one, naming the correction; null when override_applied is false'),
  calculation_steps: FigureProvenance.calculation_steps.describe('inputs of a derived figure (Q4 = FY minus the first three quarters; a discrete quarter = year-to-date minus the previous year-to-date); null for a tagged figure'),
  source_context: SourceContext,
  source_hash: z.string().describe("sha-256 (hex) of the statement version's content: its period, filing, and every figure's value and provenance. Equal hashes mean identical content"),
});

export const OverrideOut = z.object({
  rule: FigureProvenance.correction_rule.unwrap().describe('the correction rule that changed the value'),
  reason: z.string(),
  as_filed_value: FigureProvenance.as_filed_value,
  as_filed_concept: FigureProvenance.as_filed_concept,
  served_value: DecimalString.describe('the value after the correction'),
  served_concept: z.string().nullable().describe('the tag the served value comes from'),
});

export const ChainVersion = z.object({
  ...VersionKeyOut.shape,
  is_requested: z.boolean().describe('the version this audit chain was asked for'),
  version_accession: z.string().describe('filing whose presentation created the version'),
  filing_type: z.string(),
  filing_date: z.string(),
  value: DecimalString.nullable().describe('the metric on that version; null when the version does not carry it'),
  source_accession: z.string().nullable().describe('filing the value was read from; differs from version_accession when the figure was carried over from an earlier filing'),
  xbrl_concept: z.string().nullable(),
  mapping_type: z.string().nullable(),
  correction_rule: FigureProvenance.correction_rule,
  revision: z
    .object({ old_value: DecimalString, new_value: DecimalString, difference: DecimalString, old_accession: z.string(), new_accession: z.string(), old_concept: z.string().nullable(), new_concept: z.string().nullable() })
    .nullable()
    .describe('the fact revision this version recorded for the metric (new minus old); null when it did not change the value, or recast it for a stock split (split_recast)'),
  split_recast: SplitRecastOut.omit({ metric: true })
    .nullable()
    .describe("the value told again on a stock split's new share basis (the filer's tagged ratio, new shares per old, and its date): not a revision; null otherwise"),
});

export const AuditChainOut = z.object({
  metric_name: z.string(),
  statement_version_id: z.string(),
  cik: CikOut,
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  version_sequence: z.number().int(),
  value: DecimalString,
  filing_accession: z.string().describe('accession of the filing the value was read from'),
  xbrl_concept: z.string().nullable().describe('tag the value was read from; null for a derived figure (its inputs\' tags are in calculation_steps)'),
  mapping_type: FigureProvenance.mapping_type,
  selection_rule: FigureProvenance.selection_rule,
  concept_rank: z.number().int().nullable().describe("position of the tag (for a derived figure, its base input's tag) in the metric's candidate list, 0 = first; null when the catalog does not list it"),
  candidate_concepts: z
    .array(z.object({ concept: z.string(), negated: z.boolean().describe('the tag\'s sign is flipped to the metric\'s convention') }))
    .describe('the metric\'s catalog candidates in the order they are tried (totals first)'),
  overrides: z.array(OverrideOut).describe('corrections applied to this figure, with what was filed; empty when the value is exactly as tagged'),
  calculation_steps: z.array(CalculationStepOut).nullable().describe('inputs of a derived figure; null for a tagged one'),
  versions: z.array(ChainVersion).describe('the metric on every version of the statement, oldest first, with the revision each recorded'),
  links: z
    .object({
      provenance: z.string(),
      override_trace: z.string(),
      statement: z.string().describe('the statement identity (latest version, with version history)'),
      metric_time_series: z.string(),
    })
    .describe('related reads (paths relative to the service base address)'),
});

export const RuleMetric = z.object({
  metric: z.string(),
  value: DecimalString.describe('the value as served'),
  xbrl_concept: z.string().nullable().describe('tag the value comes from (for a derived figure, its base input\'s tag)'),
  first_candidate_concept: z.string().nullable().describe("the metric's first catalog tag, which the filing did not supply for this figure"),
  selection_rule: FigureProvenance.selection_rule,
  value_origin: FigureProvenance.value_origin,
  as_filed_value: FigureProvenance.as_filed_value,
  as_filed_concept: FigureProvenance.as_filed_concept,
});

export const TraceRule = z.object({
  rule_id: z.enum([...CORRECTION_RULES, 'FALLBACK_CONCEPT']),
  rule_kind: z.enum(['CORRECTION', 'MAPPING']).describe('CORRECTION changes the value the filer tagged; MAPPING only chose which tag supplies it'),
  description: z.string(),
  facts_count: z.number().int(),
  metrics: z.array(RuleMetric).describe('the figures the rule touched, in metric name order'),
});

export const OverrideTraceOut = z.object({
  cik: CikOut,
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  version_sequence: z.number().int(),
  statement_version_id: z.string(),
  total_facts_evaluated: z.number().int().describe('figures on the version (one per metric it carries)'),
  total_facts_remapped: z
    .number()
    .int()
    .describe("figures whose value comes from a tag other than the metric's first catalog candidate (for a derived figure: its inputs' tag), or that a correction replaced; each counted once"),
  total_facts_suppressed: z.number().int().describe('figures dropped by a rule: always 0, no rule of ours drops a tagged figure (a replaced one is counted as remapped)'),
  rules: z.array(TraceRule).describe('each rule that fired, with the figures it touched; empty (with zero remapped) when every figure is its metric\'s first tag, exactly as filed'),
});
