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

/** How severe the absence of a required metric is (the data-quality severities a catalog trait may name). */
export type RequiredSeverity = 'HIGH' | 'MEDIUM';

/**
 * What the service's rules need to know about a canonical metric, kept on its catalog entry so a
 * new metric is one entry: data quality, coverage and the trust score derive their lists from these.
 */
export interface MetricTraits {
  /** never negative under its sign convention (a negative value is a DQ_NEGATIVE_VALUE finding) */
  non_negative: boolean;
  /** a statement total or share count: a defect there moves every ratio built on it (HIGH severity findings) */
  headline: boolean;
  /** data-quality core role: a statement of its type lacking it is a finding of this severity; null when not required */
  quality_required: RequiredSeverity | null;
  /** coverage role: a headline total an analyst models from; a period holding one of its type is populated */
  coverage_core: boolean;
  /**
   * trust-score requirement this metric satisfies on its statement type's core completeness;
   * metrics naming the same requirement are alternatives (STOCKHOLDERS_EQUITY or TOTAL_EQUITY); null when not counted
   */
  trust_requirement: string | null;
  /**
   * steady from one period to the next (top lines, operating costs, statement totals, working
   * capital, fixed assets, share counts), so a move of about 1,000x is a scale error
   * (DQ_SCALE_BREAK); lumpy lines (debt, investments, buybacks, cash, goodwill) legitimately move so
   */
  scale_checked: boolean;
  /**
   * a line of the trailing-twelve-month row: a flow summed over the four quarters or a balance at the
   * window end, at `place` (from 1) among the row's flows or balances; null when not in the row
   */
  ttm: { as: 'flow' | 'balance'; place: number } | null;
  /** its place (from 1) among the reported valuation inputs of the multi-year row; null when not one */
  valuation_input: number | null;
  /**
   * a line whose share of revenue explains a margin move: cost of revenue for the gross margin, an
   * operating cost for the operating margin, a line between operating and net income for the net
   * margin (each margin also counts the lines above it); null for any other line
   */
  margin_line: 'gross' | 'operating' | 'below_operating' | null;
}

export interface CanonicalMetric extends MetricDefinition {
  is_canonical: true;
  is_derived: false;
  /** the rules' view of the metric (not published: /v1/metrics/definitions serves the spec fields) */
  traits: MetricTraits;
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
