/**
 * Small builders for the catalog files: they fill the fields every canonical or derived metric
 * shares, so each definition states only what is particular to it.
 */
import type {
  CanonicalMetric,
  ConceptSource,
  DerivedMetric,
  MetricTraits,
  PeriodKind,
  StatementType,
  UnitType,
} from './types.ts';

const MISSING_INPUT = 'null_if_metric_not_available';

function source(taxonomy: ConceptSource['taxonomy'], concept: string, negate: boolean): ConceptSource {
  return negate ? { taxonomy, concept, negate: true } : { taxonomy, concept };
}

/** us-gaap candidate; pass negate=true when the tag's sign is opposite to the metric's */
export const usgaap = (concept: string, negate = false): ConceptSource => source('us-gaap', concept, negate);
/** ifrs-full candidate */
export const ifrs = (concept: string, negate = false): ConceptSource => source('ifrs-full', concept, negate);
/** dei (cover page) candidate */
export const dei = (concept: string): ConceptSource => source('dei', concept, false);

export interface CanonicalSpec {
  metric: string;
  display_name: string;
  category: string;
  /** defaults to 'currency' */
  unit_type?: 'currency' | 'per_share' | 'shares';
  concepts: ConceptSource[];
  sign_convention: string;
  source_notes: string;
  /** only the traits that hold; every other trait is false (or null) */
  traits?: Partial<MetricTraits>;
}

const NO_TRAITS: MetricTraits = {
  non_negative: false, headline: false, quality_required: null, coverage_core: false, trust_requirement: null, scale_checked: false, ttm: null, valuation_input: null,
  margin_line: null,
};

function canonical(statement_type: StatementType, period_kind: PeriodKind, spec: CanonicalSpec): CanonicalMetric {
  return {
    metric: spec.metric,
    display_name: spec.display_name,
    category: spec.category,
    statement_type,
    is_canonical: true,
    is_derived: false,
    unit_type: spec.unit_type ?? 'currency',
    formula: null,
    dependencies: [],
    denominator_zero_behavior: null,
    missing_input_behavior: MISSING_INPUT,
    market_data_required: false,
    source_notes: spec.source_notes,
    period_kind,
    concepts: spec.concepts,
    sign_convention: spec.sign_convention,
    traits: { ...NO_TRAITS, ...spec.traits },
  };
}

/** an income-statement figure: sums over the period */
export const incomeMetric = (spec: CanonicalSpec): CanonicalMetric => canonical('INCOME_STATEMENT', 'duration', spec);
/** a balance-sheet figure: a balance at period end */
export const balanceMetric = (spec: CanonicalSpec): CanonicalMetric => canonical('BALANCE_SHEET', 'instant', spec);
/** a cash-flow-statement figure: sums over the period */
export const cashFlowMetric = (spec: CanonicalSpec): CanonicalMetric => canonical('CASH_FLOW_STATEMENT', 'duration', spec);

export interface DerivedSpec {
  metric: string;
  display_name: string;
  category: string;
  statement_type: StatementType;
  unit_type: UnitType;
  formula: string;
  source_notes: string;
}

/** Metric names a formula reads, in order of first appearance. */
export function formulaDependencies(formula: string): string[] {
  return [...new Set(formula.match(/\b[A-Z][A-Z0-9_]*\b/g) ?? [])];
}

/** A derived metric; dependencies are read off the formula, and a formula with a division yields null on a zero divisor. */
export function derived(spec: DerivedSpec): DerivedMetric {
  return {
    metric: spec.metric,
    display_name: spec.display_name,
    category: spec.category,
    statement_type: spec.statement_type,
    is_canonical: false,
    is_derived: true,
    unit_type: spec.unit_type,
    formula: spec.formula,
    dependencies: formulaDependencies(spec.formula),
    denominator_zero_behavior: spec.formula.includes('/') ? 'null' : null,
    missing_input_behavior: MISSING_INPUT,
    market_data_required: false,
    source_notes: spec.source_notes,
  };
}
