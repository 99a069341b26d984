import type { CalculationStep, SelectionRule, StatementFigure } from '../statement-types.ts';
import type { Candidate } from './candidates.ts';

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
    // the first candidate of the catalog list is the direct match; later ones are recorded as fallbacks
    mapping_type: c.rank === 0 ? null : 'FALLBACK_CONCEPT',
    selection_rule: rule,
    value_origin: 'SOURCE',
    correction_rule: null,
    as_filed_value: null,
    as_filed_concept: null,
    calculation_steps: null,
  };
}

export function derivedFigure(
  metric: string,
  value: string,
  unit: string,
  period: { start: string | null; end: string },
  accession: string,
  mappingType: 'DERIVED_DISCRETE_QUARTER' | 'DERIVED_Q4',
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

/** A year-to-date (or full-year) flow value known from the latest filing that presented it. */
export type KnownFlow = Pick<
  StatementFigure,
  'metric' | 'value' | 'unit' | 'period_start' | 'period_end' | 'source_accession' | 'source_xbrl_concept'
>;
