import { z } from 'zod';
import { VersionKeyOut } from '../../api/version-ref.ts';
import { CikOut, DecimalString, FiscalPeriodParam, StatementTypeParam } from '../../api/schemas.ts';
import { CoherenceOut } from '../../api/coherence.ts';
import { SplitAdjustmentOut } from '../../api/split-adjustment.ts';

/** Output shapes of the series area: panel, derived, bundle and view points, and the statement versions each was read from. */

export const PointHead = {
  cik: CikOut,
  accounting_standard: z.string().describe('US_GAAP or IFRS'),
  statement_date: z.string().describe('period end (YYYY-MM-DD)'),
  fiscal_year: z.number().int().describe("the filer's fiscal-year label"),
  fiscal_period: FiscalPeriodParam,
  currency: z.string().nullable().describe('reporting currency, e.g. USD'),
  period_start: z.string().nullable().describe('start of the period for flows; null for a balance sheet'),
};

export const DerivedFigures = z
  .array(z.string())
  .describe('canonical figures of (or read by) this point that are derived rather than tagged: a Q4 (fiscal year minus three quarters) or a discrete cash-flow quarter (year-to-date minus the previous year-to-date)');

export const PanelPoint = z.object({
  ...PointHead,
  statement_type: StatementTypeParam,
  statement_version_id: z.string().describe('the latest version of the statement, whose figures these are'),
  version_sequence: z.number().int(),
  source_accession: z.string().describe('accession of the filing that made this version'),
  filing_date: z.string(),
  metrics: z.record(z.string(), DecimalString).describe('canonical metric -> value; only metrics the statement reports'),
  derived_figures: DerivedFigures,
  coherence: z
    .record(z.string(), CoherenceOut)
    .optional()
    .describe("on a quarter or year of an income or cash-flow statement: each money flow of metrics whose fiscal year's four served quarters do not add up to its served year -> why; a money flow absent here adds up (or its year is not served whole); left out where none is marked"),
  split_adjustments: z
    .record(z.string(), SplitAdjustmentOut)
    .optional()
    .describe('with split_adjusted=true: each per-share value or share count of metrics restated to the latest split basis (metrics holds the restated value) -> how'),
});

export const Unavailable = z.object({
  metric: z.string(),
  reason: z
    .enum(['NOT_REPORTED', 'MISSING_INPUT', 'DENOMINATOR_ZERO', 'NOT_APPLICABLE_TO_PERIOD', 'MARKET_DATA_UNAVAILABLE'])
    .describe('NOT_REPORTED: the period does not report the line; MISSING_INPUT: an input is not reported (missing_inputs names it); DENOMINATOR_ZERO: the divisor is zero; NOT_APPLICABLE_TO_PERIOD: the period has no length to count days over; MARKET_DATA_UNAVAILABLE: needs market data, which the service does not hold'),
  missing_inputs: z.array(z.string()).optional(),
});

export const SeriesVersionRef = z.object({
  statement_type: StatementTypeParam,
  ...VersionKeyOut.shape,
  fiscal_period: FiscalPeriodParam.describe('FY for the balance sheet of a Q4 (the fiscal-year-end balance)'),
  source_accession: z.string(),
  filing_date: z.string(),
  role: z.enum(['period', 'opening_balance']).describe('period: a statement of the point\'s period; opening_balance: the balance sheet at the previous period end, read for averaged balances'),
});

export const ComputedMetrics = {
  metrics: z.record(z.string(), DecimalString.nullable()).describe('every metric asked for -> value; null when unavailable (never zero), with the reason in unavailable_metrics'),
  unavailable_metrics: z.array(Unavailable),
  derived_figures: DerivedFigures,
  statement_versions: z.array(SeriesVersionRef).describe('the statement versions the values were read from (latest version of each)'),
};

export const DerivedPoint = z.object({ ...PointHead, statement_type: StatementTypeParam, ...ComputedMetrics });

export const BundlePoint = z.object({
  ...PointHead,
  metrics: z.record(z.string(), DecimalString).describe("bundle metric -> value, for the metrics the period's statements report"),
  missing_metrics: z.array(z.string()).describe('bundle metrics the period does not report'),
  derived_figures: DerivedFigures,
  statement_versions: z.array(SeriesVersionRef),
});

export const ViewPoint = z.object({ ...PointHead, ...ComputedMetrics });
