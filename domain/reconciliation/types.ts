/**
 * Shapes of the reconciliation ledger: the statements a rule reads and the result it produces.
 * Pure: money only as decimal strings.
 */
import type { FiscalPeriod, Severity, StatementType } from '../statement-types.ts';

export const RULE_CATEGORIES = ['IDENTITY', 'ROLLFORWARD'] as const;
/**
 * IDENTITY: an accounting equality inside one statement (the Fundamental Accounting Concepts
 * relations). ROLLFORWARD: a relation across statements or periods (cash and retained earnings,
 * a fiscal year's quarters against the year).
 */
export type RuleCategory = (typeof RULE_CATEGORIES)[number];

export const LEDGER_STATUSES = ['PASS', 'WARNING', 'FAIL'] as const;
/** A ledger row is never SKIPPED: a rule that could not be evaluated writes no row. */
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

/** The part of a stored figure the rules read: its value and the tag(s) it came from. */
export interface ReconFigure {
  value: string;
  source_xbrl_concept: string | null;
  /** inputs of a derived figure (a discrete or fourth quarter), each with its own tag */
  calculation_steps?: readonly { source_xbrl_concept: string | null }[] | null;
}

/** One statement version as the rules see it. */
export interface StatementSnapshot {
  statement_version_id: string;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  version_sequence: number;
  period_start: string | null;
  period_end: string;
  /** SEC filing date: what a rule may see of other statements is what was filed by this date */
  filing_date: string;
  figures: Record<string, ReconFigure>;
  /**
   * metric -> value of every figure of the version, when the loader has it already (a frozen
   * record, shared with the data-quality rules, so identities are judged once per version)
   */
  values?: Readonly<Record<string, string>>;
}

/**
 * Other statements of the same company as they stood when the subject version was filed: for
 * each statement identity, its latest version with filing_date <= the subject's filing date.
 */
export interface RelatedStatements {
  /**
   * The statement of `type` whose period ends on `date`; when several identities end that day,
   * the one labelled `prefer` (fiscal year and period) wins, then the latest fiscal year.
   */
  endingOn(type: StatementType, date: string, prefer?: { fiscal_year: number; fiscal_period: FiscalPeriod }): StatementSnapshot | null;
  /** The statement identity (type, fiscal_year, fiscal_period). */
  labelled(type: StatementType, fiscal_year: number, fiscal_period: FiscalPeriod): StatementSnapshot | null;
  /** Every version of the statement identity the subject's filing date sees, oldest first (what was first told, and since when). */
  lineage(type: StatementType, fiscal_year: number, fiscal_period: FiscalPeriod): StatementSnapshot[];
}

/** notes.details: `reason` only when the rule declined to compare; the rest names its inputs. */
export interface ResultDetails {
  reason?: string;
  [key: string]: unknown;
}

/** What one rule concluded about one statement version. */
export interface RuleOutcome {
  status: LedgerStatus;
  severity: Severity;
  expected_value: string | null;
  actual_value: string | null;
  /** actual - expected; null exactly when the rule declined (status WARNING, severity NONE, a reason) */
  delta: string | null;
  notes: { details: ResultDetails };
}

export interface LedgerEntry extends RuleOutcome {
  rule_id: string;
  rule_category: RuleCategory;
}

export interface ReconciliationRule {
  /** stable, SCREAMING_SNAKE; never renamed once results are stored under it */
  rule_id: string;
  rule_category: RuleCategory;
  /** the statement type whose versions carry this rule's results */
  statement_type: StatementType;
  description: string;
  /** metrics the rule reads, on the subject or on related statements (what the loader must fetch) */
  metrics: readonly string[];
  /** null when the inputs are simply absent: no result, no ledger row */
  evaluate(subject: StatementSnapshot, related: RelatedStatements): RuleOutcome | null;
}
