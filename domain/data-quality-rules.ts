/**
 * The data-quality rule catalogue and the shapes rules work on: severities, the published rules
 * (`DQ_RULES`), a version as the rules see it and a finding with its evidence. The checks are in
 * domain/data-quality.ts.
 */
import type { VersionKey } from './statements/version-ref.ts';
import type { CalculationStep, Severity, StatementType, ValueOrigin } from './statement-types.ts';
import { NON_NEGATIVE_METRICS, QUALITY_REQUIRED_METRICS, SCALE_CHECKED_METRICS } from './catalog/traits.ts';
import { IDENTITY_RULES } from './identity-checks.ts';

export type IssueSeverity = Exclude<Severity, 'NONE'>;
/** Ascending; the issues list orders by the reverse. */
export const ISSUE_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const satisfies readonly IssueSeverity[];

/** 1 (LOW) .. 4 (CRITICAL); NONE is 0, so `rank >= severityRank(min)` filters "at or above". */
export function severityRank(s: Severity): number {
  return s === 'NONE' ? 0 : ISSUE_SEVERITIES.indexOf(s) + 1;
}

export interface QualityRule {
  rule_code: string;
  description: string;
  /** how the severity of a finding is chosen */
  severity: string;
  /** the public rule it follows, e.g. XBRL US DQC_0015; null for our own */
  reference: string | null;
}

/** Read from the catalog entries' traits (domain/catalog/traits.ts); re-exported for the rules' tests. */
export { NON_NEGATIVE_METRICS, SCALE_CHECKED_METRICS };

/** Metrics every statement of a type should carry, with the severity of their absence (catalog trait quality_required). */
export const CORE_METRICS: Readonly<Record<StatementType, readonly { metric: string; severity: IssueSeverity }[]>> = QUALITY_REQUIRED_METRICS;

/** Scale factors a mis-keyed figure shows: thousands and millions. */
export const SCALE_FACTORS = ['1000', '1000000'] as const;
/** A ratio within [factor / 1.25, factor * 1.25] (or its inverse) is "about" the factor. */
export const SCALE_BREAK_SLACK = '1.25';

export const IDENTITY_RULE_PREFIX = 'DQ_IDENTITY_';

/** A later filing's value 1,000 or 1,000,000 times the figure on record (recorded at ingestion, see db/scale-slips.ts). */
export const SCALE_SLIP_RULE = 'DQ_SCALE_SLIP_FILED';
/** A later filing's value with the opposite sign of the figure on record, a witness telling which is right (db/scale-slips.ts). */
export const SIGN_SLIP_RULE = 'DQ_SIGN_SLIP_FILED';
/** A later filing's derived quarter against one the company reported, decided by the reported quarter's own filing (db/scale-slips.ts, version rule 10). */
export const DERIVED_QUARTER_RULE = 'DQ_DERIVED_QUARTER_CONFLICT';
export const CONCEPT_MOVED_RULE = 'DQ_CONCEPT_MOVED';

export const DQ_RULES: readonly QualityRule[] = [
  {
    rule_code: 'DQ_NEGATIVE_VALUE',
    description:
      'A metric that is never negative under its sign convention (revenue, assets, share counts, expenses, payments such as capital expenditures) is negative. ' +
      'On a derived figure (a Q4 or a discrete cash-flow quarter) it means the figures subtracted disagree.',
    severity: 'HIGH for statement totals and share counts, MEDIUM for other line items',
    reference: 'XBRL US DQC_0015 (negative values)',
  },
  {
    rule_code: 'DQ_SCALE_BREAK',
    description:
      'A steady metric (revenue, operating costs, statement totals, receivables, inventory, payables, PP&E, D&A, share counts) is about 1,000 or 1,000,000 times (or 1/1,000 or 1/1,000,000 of) the same metric in the prior period of the same length ' +
      '(the previous fiscal year for FY, the previous quarter for a quarter, the previous balance-sheet date), as known when the version was filed: ' +
      'typically a figure keyed in thousands or millions among figures in units, or the reverse. Ratios within a factor of 1.25 of 1,000 or 1,000,000 count.',
    severity: 'HIGH for statement totals and share counts, MEDIUM for other line items',
    reference: null,
  },
  {
    rule_code: SCALE_SLIP_RULE,
    description:
      'A later filing told a figure of a period on record 1,000 or 1,000,000 times off (or 1/1,000, 1/1,000,000): e.g. shares in millions tagged with unit "shares". ' +
      'Not a restatement: no version or restatement alert is made; where a version is made for other reasons the figure keeps the previous value under the SCALE_SLIP_PREVIOUS_VALUE_KEPT override. ' +
      'The evidence names both values and both accessions; the finding sits on the version on record when the slip was filed.',
    severity: 'MEDIUM',
    reference: null,
  },
  {
    rule_code: SIGN_SLIP_RULE,
    description:
      'A later filing told a figure of a period on record with the opposite sign and the same digits (a net loss tagged as income), and a figure whose sign must agree, ' +
      'which that filing did not flip too, tells which filing tagged the sign wrong: earnings per share for net income (where no preferred dividends come between them), the income available to common shareholders for EPS; ' +
      'for a working-capital line of the cash-flow statement (receivables, inventories, prepaid and other assets, payables, accrued liabilities), the movement of its balance-sheet line over the period, where that moved by half to twice the amount; ' +
      'for pretax income and the income tax, the statement\'s arithmetic (pretax income less the tax is the income from continuing operations, to a quarter of the figure); ' +
      'for a second, third or fourth quarter that filing tells with the year-to-date through it, that year-to-date less the earlier quarters on record from other filings (witness YEAR_TO_DATE = EARLIER_QUARTERS + QUARTER); ' +
      'where none of these speaks, for a metric the catalog declares never negative (revenue, interest expense, capital expenditures, proceeds and payments...), the positive side (witness NON_NEGATIVE_METRIC). ' +
      'Not a restatement: the agreeing value is served, in a version that revises nothing, or kept under the SIGN_SLIP_PREVIOUS_VALUE_KEPT override. ' +
      'Without such a witness the change stays a revision. The evidence names both values, both accessions and the witness.',
    severity: 'HIGH',
    reference: null,
  },
  {
    rule_code: DERIVED_QUARTER_RULE,
    description:
      'A later filing tells a quarter only through year-to-date figures (six months minus three, the year minus nine months), and what they net to differs from the quarter the company reported. ' +
      "The reported quarter's own filing decides: where its year-to-date netted to the reported figure, the later year-to-date is on another basis (re-classified or restated without the quarter told again, a mis-dated context) and the reported quarter is kept; " +
      'where it netted to what the later filing nets to, nothing was restated and the three-month tag was the odd one out: the derived quarter replaces it in a version that revises nothing. ' +
      'Not a restatement either way: no revision, no alert. The evidence names the reported and the derived value, both accessions, what the reported figure\'s own filing derived (implied) and which was served.',
    severity: 'MEDIUM',
    reference: null,
  },
  {
    rule_code: CONCEPT_MOVED_RULE,
    description:
      'A later filing no longer reports the concept a figure on record was mapped to, and the metric moves to another of its candidate concepts (concept continuity), ' +
      'whose figure the filing on record told beside it for the same period as another line (another value, under that concept or another candidate concept of the metric). ' +
      'Not a restatement: both lines are told as before, only the one the metric can read changed. The later line is served, in a version that revises nothing; no alert. ' +
      'The evidence names both values, both accessions and both concepts.',
    severity: 'LOW',
    reference: null,
  },
  {
    rule_code: 'DQ_QUARTER_EXCEEDS_YEAR',
    description:
      "A reported quarter (Q1-Q3) of a non-negative flow such as revenue is larger in magnitude than the same fiscal year's figure. " +
      'Checked on the quarter when the year was on record at its filing, and on the year (listing every larger quarter) otherwise.',
    severity: 'HIGH',
    reference: 'XBRL US DQC_0108 (fiscal period values)',
  },
  {
    rule_code: 'DQ_MISSING_CORE_METRIC',
    description:
      'A statement lacks a core metric: REVENUE or NET_INCOME on an income statement, TOTAL_ASSETS on a balance sheet, OPERATING_CASH_FLOW on a cash-flow statement. ' +
      'The metric of the finding is the missing one.',
    severity: 'HIGH, except MEDIUM for REVENUE (banks and insurers report no revenue total)',
    reference: null,
  },
  ...IDENTITY_RULES.map((r) => ({
    rule_code: `${IDENTITY_RULE_PREFIX}${r.rule_id}`,
    description: `Accounting identity ${r.rule_id} fails (normalized_payload._meta.identity status FAIL): ${r.description}`,
    severity: 'from |delta| / max(|actual|, |expected|): under 0.1% LOW, under 1% MEDIUM, under 10% HIGH, else CRITICAL',
    reference: null,
  })),
];

export const DQ_RULE_CODES: readonly string[] = DQ_RULES.map((r) => r.rule_code);

/** A figure's provenance as the evidence names it; db's stored figures satisfy it. */
export interface QualityFigure {
  value: string;
  period_start: string | null;
  period_end: string;
  source_accession: string;
  value_origin: ValueOrigin;
  mapping_type: string | null;
  calculation_steps: CalculationStep[] | null;
}

export interface QualityVersion {
  statement_version_id: string;
  cik: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  version_sequence: number;
  filing_date: string;
  /** metric -> decimal string: all the rules read (provenance is added to findings afterwards, see completeEvidence) */
  values: Readonly<Record<string, string>>;
}

/** One value a finding compared: which version, period and filing it came from. */
export interface EvidencePoint extends VersionKey {
  /** subject (the version the finding is on), prior_period, fiscal_year, quarter, identity_term */
  role: string;
  metric: string;
  value: string;
  fiscal_year: number;
  fiscal_period: string;
  // provenance, filled by completeEvidence
  period_start?: string | null;
  period_end?: string;
  source_accession?: string;
  value_origin?: ValueOrigin;
  mapping_type?: string | null;
  /** inputs of a derived figure, so the accessions behind it are named too */
  calculation_steps?: CalculationStep[];
}

export interface QualityFinding extends VersionKey {
  rule_code: string;
  severity: IssueSeverity;
  cik: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  /** the metric the finding is about (for a missing core metric, the missing one); null for the statement as a whole */
  metric: string | null;
  message: string;
  evidence: { compared: EvidencePoint[] } & Record<string, unknown>;
}
