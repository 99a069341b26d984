import type { CalculationStep, SelectionRule, StatementFigure } from '../statement-types.ts';
import type { Candidate } from './candidates.ts';

/**
 * How a source figure was mapped: null only for the metric's first tag served exactly as tagged.
 * A later candidate is FALLBACK_CONCEPT; a sign served opposite to the tag by the catalog's
 * convention says so (SIGN_FLIPPED_BY_CONVENTION, or FALLBACK_CONCEPT_SIGN_FLIPPED for both), so
 * null never hides a change of sign.
 */
export function mappingTypeOf(c: Pick<Candidate, 'rank' | 'value' | 'tagged_value'>): string | null {
  const flipped = c.value !== c.tagged_value;
  if (c.rank === 0) return flipped ? 'SIGN_FLIPPED_BY_CONVENTION' : null;
  return flipped ? 'FALLBACK_CONCEPT_SIGN_FLIPPED' : 'FALLBACK_CONCEPT';
}

/** A figure exactly as tagged (or in the metric's sign when the candidate list says to negate). */
export function sourceFigure(c: Candidate, unit: string, rule: SelectionRule = 'CANDIDATE_ORDER'): StatementFigure {
  return {
    metric: c.metric,
    value: c.value,
    unit,
    period_start: c.fact.start,
    period_end: c.fact.end,
    source_accession: c.fact.accession,
    source_xbrl_concept: c.concept,
    mapping_type: mappingTypeOf(c),
    selection_rule: rule,
    value_origin: 'SOURCE',
    correction_rule: null,
    as_filed_value: null,
    as_filed_concept: null,
    calculation_steps: null,
    decimals: c.fact.decimals ?? null,
  };
}

export function derivedFigure(
  metric: string,
  value: string,
  unit: string,
  period: { start: string | null; end: string },
  accession: string,
  mappingType: 'DERIVED_DISCRETE_QUARTER' | 'DERIVED_Q4' | 'DERIVED_IDENTITY',
  steps: CalculationStep[],
): StatementFigure {
  return {
    metric,
    value,
    unit,
    period_start: period.start,
    period_end: period.end,
    source_accession: accession,
    source_xbrl_concept: null,
    mapping_type: mappingType,
    selection_rule: null,
    value_origin: 'DERIVED',
    correction_rule: null,
    as_filed_value: null,
    as_filed_concept: null,
    calculation_steps: steps,
    // as on a source figure: every figure has the same fields, so the functions reading them see one shape
    decimals: null,
  };
}

/**
 * A figure with every field in the order sourceFigure writes them: use it for a changed copy
 * (`statementFigure({ ...f, value })`). A spread copy alone gets a map of its own (sized to its
 * source, not to the literal), and each new figure map deoptimized the functions comparing and
 * storing figures.
 */
export function statementFigure(f: StatementFigure): StatementFigure {
  return {
    metric: f.metric,
    value: f.value,
    unit: f.unit,
    period_start: f.period_start,
    period_end: f.period_end,
    source_accession: f.source_accession,
    source_xbrl_concept: f.source_xbrl_concept,
    mapping_type: f.mapping_type,
    selection_rule: f.selection_rule,
    value_origin: f.value_origin,
    correction_rule: f.correction_rule,
    as_filed_value: f.as_filed_value,
    as_filed_concept: f.as_filed_concept,
    calculation_steps: f.calculation_steps,
    decimals: f.decimals ?? null,
  };
}

export function stepOf(operation: CalculationStep['operation'], f: StatementFigure | KnownFlow): CalculationStep {
  return {
    operation,
    metric: f.metric,
    value: f.value,
    period_start: f.period_start,
    period_end: f.period_end,
    source_accession: f.source_accession,
    source_xbrl_concept: f.source_xbrl_concept,
  };
}

/** What the flow store keeps of a chosen candidate: the fields of its source figure that derivations read. */
export function knownFlow(c: Candidate, unit: string, filed: string): KnownFlow {
  return {
    metric: c.metric,
    value: c.value,
    unit,
    period_start: c.fact.start,
    period_end: c.fact.end,
    source_accession: c.fact.accession,
    source_xbrl_concept: c.concept,
    filed,
    since: filed,
    prevSince: null,
  };
}

/**
 * A year-to-date (or full-year) flow value known from the latest filing that presented it, and that
 * filing's date; `since`, the date a filing first told the flow's current figure (FlowStore keeps
 * it through later tellings of the same figure), and `prevSince`, that of the figure before it
 * (null while the flow was never told as another figure): what tells a restated year from one told
 * as first reported (quarter-derivation.ts basisOf).
 */
export type KnownFlow = Pick<
  StatementFigure,
  'metric' | 'value' | 'unit' | 'period_start' | 'period_end' | 'source_accession' | 'source_xbrl_concept'
> & { filed?: string; since?: string; prevSince?: string | null };
