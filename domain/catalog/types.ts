/**
 * Shapes of the metric catalog. A canonical metric is mapped straight from filer tags (ordered
 * candidate concepts); a derived metric is a formula over canonical ones and is served by the
 * modeling and derived-metric routes, never stored on a statement.
 */
import type { StatementType } from '../statements/types.ts';

export type { StatementType };

/** currency: a money amount; per_share: money per share; shares: a share count; the rest are pure numbers */
export type UnitType = 'currency' | 'per_share' | 'shares' | 'ratio' | 'days' | 'times';

/** duration metrics sum over a period (income, cash flow); instant metrics are balances at period end */
export type PeriodKind = 'duration' | 'instant';

export type Taxonomy = 'us-gaap' | 'ifrs-full' | 'dei' | 'srt';

/**
 * One candidate tag for a canonical metric. Candidates are tried in order and the first one the
 * filing tagged for the period wins, so totals come before narrower tags and a line item never
 * stands in for a total. `negate` flips a tag whose sign convention is opposite to the metric's.
 */
export interface ConceptSource {
  taxonomy: Taxonomy;
  concept: string;
  negate?: boolean;
}

export interface MetricDefinition {
  metric: string;
  display_name: string;
  /** e.g. REVENUE, EXPENSES, PROFITABILITY, ASSETS, LIABILITIES, EQUITY, CASH_FLOW, PER_SHARE, SHARES, RATIOS */
  category: string;
  statement_type: StatementType;
  is_canonical: boolean;
  is_derived: boolean;
  unit_type: UnitType;
  /** null for canonical metrics; an arithmetic expression over canonical metric names for derived ones */
  formula: string | null;
  /** canonical metric names a derived metric reads; [] for canonical metrics */
  dependencies: string[];
  /** what a derived metric yields when its divisor is zero, e.g. 'null'; null for canonical metrics */
  denominator_zero_behavior: string | null;
  /** always 'null_if_metric_not_available': a missing input gives null, never zero */
  missing_input_behavior: string;
  market_data_required: boolean;
  /** how the metric is sourced and what sign it carries, written for an analyst */
  source_notes: string;
}

export interface CanonicalMetric extends MetricDefinition {
  is_canonical: true;
  is_derived: false;
  period_kind: PeriodKind;
  /** ordered candidates; the first tagged for the period wins */
  concepts: ConceptSource[];
  /** one sentence: the sign the served value carries, e.g. 'positive payment' */
  sign_convention: string;
}

export interface DerivedMetric extends MetricDefinition {
  is_canonical: false;
  is_derived: true;
}

export interface MetricBundle {
  code: string;
  label: string;
  description: string;
  metrics: string[];
}
