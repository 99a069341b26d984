import type { FiscalPeriod, StatementType } from './statements/types.ts';

/** The identity enumerations live in domain/statements/types.ts; re-exported for the figure types below. */
export type { FiscalPeriod, StatementType };

export type ValueOrigin = 'SOURCE' | 'DERIVED';
/**
 * SCALE_SLIP_PREVIOUS_VALUE_KEPT: a later filing told the figure 1,000 or 1,000,000 times off (a
 * scale slip, not a restatement); the version keeps the previous value, as_filed_value what was filed.
 * SIGN_SLIP_PREVIOUS_VALUE_KEPT: a later filing told the figure with the opposite sign and a witness
 * (EPS for net income, the balance sheet's movement for a working-capital line, a quarter's year-to-date,
 * domain/statements/sign-slips.ts)
 * agrees with the previous value: kept, as_filed_value what was filed.
 * NET_CHANGE_IN_CASH_FX_EFFECT_ADDED: the filing tagged the change in cash before the exchange-rate
 * effect (its operating, investing and financing totals exactly, with a non-zero exchange-rate
 * line beside them); served with the effect added, as_filed_value the tagged subtotal.
 * TOTAL_EQUITY_COMPONENT_REPLACED: the filing tagged total equity with the value of a line of its
 * equity section (not its stockholders' equity plus noncontrolling interest); served as that sum,
 * as_filed_value the tagged value.
 */
export const CORRECTION_RULES = [
  'COST_OF_REVENUE_CREDIT_SIGN',
  'REVENUE_RESIDUAL_TOP_LINE_REPLACED',
  'SCALE_SLIP_PREVIOUS_VALUE_KEPT',
  'SIGN_SLIP_PREVIOUS_VALUE_KEPT',
  'NET_CHANGE_IN_CASH_FX_EFFECT_ADDED',
  'TOTAL_EQUITY_COMPONENT_REPLACED',
] as const;
export type CorrectionRule = (typeof CORRECTION_RULES)[number];
/**
 * Which rule chose a source figure's concept among the metric's candidates:
 * - PRESENTATION_LINKBASE: the filing's own presentation linkbase places the concept on this statement;
 * - COMPANY_PRESENTATION: the filing has no presentation linkbase of its own (inline-only, or no
 *   package), and another filing of the company places the concept on this statement;
 * - CANDIDATE_ORDER: no presentation names a candidate, so the catalog order (totals first) decided;
 * - CONCEPT_CONTINUITY: an earlier version of the period had this concept and the filing still
 *   reports it, so the period keeps it (another candidate appearing later moves nothing);
 * - CONCEPT_RETAGGED: the filing no longer reports the period's concept and tells the same figure
 *   under this one: the line re-tagged, taken over the catalog's first choice (another line).
 */
export const SELECTION_RULES = ['PRESENTATION_LINKBASE', 'COMPANY_PRESENTATION', 'CANDIDATE_ORDER', 'CONCEPT_CONTINUITY', 'CONCEPT_RETAGGED'] as const;
export type SelectionRule = (typeof SELECTION_RULES)[number];

/** One input of a derived figure: which period and filing it came from. */
export interface CalculationStep {
  operation: 'add' | 'subtract' | 'base';
  metric: string;
  value: string;
  period_start: string | null;
  period_end: string;
  source_accession: string;
  source_xbrl_concept: string | null;
}

/** One metric on one statement version, with where it came from. Values are decimal strings. */
export interface StatementFigure {
  metric: string;
  value: string;
  unit: string;
  period_start: string | null;
  period_end: string;
  source_accession: string;
  /** taxonomy-qualified, e.g. us-gaap:Revenues; null only for derived figures */
  source_xbrl_concept: string | null;
  /** null for a direct concept match; FALLBACK_CONCEPT when a later candidate was used; DERIVED_* for derived figures */
  mapping_type: string | null;
  /** how the concept was chosen among the metric's candidates; null for derived figures */
  selection_rule: SelectionRule | null;
  value_origin: ValueOrigin;
  correction_rule: CorrectionRule | null;
  as_filed_value: string | null;
  as_filed_concept: string | null;
  calculation_steps: CalculationStep[] | null;
  /** the instance's decimals where a filing package told the value (used by the same-figure rule; not stored) */
  decimals?: string | null;
}

export type IdentityStatus = 'PASS' | 'FAIL' | 'WARNING' | 'SKIPPED';
export type Severity = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export interface IdentityCheck {
  rule_id: string;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  status: IdentityStatus;
  severity: Severity;
  expected_value: string | null;
  actual_value: string | null;
  delta: string | null;
  tolerance: string | null;
}

/** normalized_payload._meta.identity */
export interface IdentitySummary {
  /** PASS / supported rules, 6 fraction digits; null when no rule was evaluated */
  pass_rate: string | null;
  total_rules_count: number;
  supported_rules_count: number;
  skipped_rules_count: number;
  failed_rules_count: number;
  checks: IdentityCheck[];
}
