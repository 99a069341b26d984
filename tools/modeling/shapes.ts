/**
 * Output shapes of the modeling routes (spec "Modeling rows"). Row bodies are stored by the build
 * and served as stored, plus the snapshot's own fields; these schemas are what agents are shown.
 */
import { z } from 'zod';
import { CikOut, DecimalString, FiscalPeriodParam, IsoDate, StatementTypeParam } from '../../api/schemas.ts';
import { UNAVAILABLE_DETAILS, UNAVAILABLE_REASONS } from '../../domain/modeling/types.ts';
import { CoherenceOut } from '../../api/coherence.ts';
import { OperandSplitAdjustmentOut, SplitAdjustmentOut } from '../../api/split-adjustment.ts';

export const UnavailableShape = z.object({
  metric: z.string(),
  reason: z
    .enum(UNAVAILABLE_REASONS)
    .describe(
      'NOT_REPORTED: the filing does not report the line for the period; NOT_ON_STATEMENT: the metric belongs to another statement type of the same period (read that row); ' +
        'MISSING_INPUT: an input is not reported (missing_inputs names it); DENOMINATOR_ZERO: the divisor is zero; NON_POSITIVE_VALUE: a CAGR end or a share count is zero or negative; ' +
        'NO_COMPARABLE_PERIOD: no earlier period of the same length; NOT_APPLICABLE_TO_PERIOD: undefined for this period kind (QoQ on a year, CAGR on a quarter); ' +
        'INCOMPLETE_TRAILING_YEAR: not every quarter of the TTM window reports the line; PENDING_REBUILD: a version that arrived after the build supplies the input; the next build fills it',
    ),
  missing_inputs: z.array(z.string()).optional(),
  detail: z
    .enum(UNAVAILABLE_DETAILS)
    .optional()
    .describe(
      "why, where the reason alone does not say it: SPLIT_BASIS_UNDETERMINED (with NO_COMPARABLE_PERIOD): the per-share figures or share counts compared are of filings whose split bases cannot be brought to one, so no figure is served rather than one mixing two bases",
    ),
});

const OperandSplitAdjustments = z
  .record(z.string(), z.array(OperandSplitAdjustmentOut))
  .describe(
    "each metric computed from per-share figures or share counts of several filings -> its operands of an older share basis, restated to the row's basis (the newest operand's filing) before the metric was computed; left out where no operand needed it",
  );

const SplitAdjustments = z
  .record(z.string(), SplitAdjustmentOut)
  .describe('with split_adjusted=true: each per-share figure or share count restated to the latest split basis (the map holds the restated value) -> how');

export const SnapshotFields = {
  snapshot_id: z.string().describe('identity of the snapshot request (same inputs, same id)'),
  as_of_snapshot_id: z.string().uuid().describe('the built snapshot these rows were read from'),
  as_of_timestamp: z.string().describe('the point in time the snapshot sees: the end of its as_of_date (UTC)'),
  snapshot_hash: z.string().describe('SHA-256 over the request, every version read and every row; same inputs over the same corpus give the same hash'),
};

const Head = {
  company_id: z.string().nullable(),
  cik: CikOut,
  statement_type: StatementTypeParam,
  accounting_standard: z.string(),
  statement_date: IsoDate.describe('period end'),
  period_start: z.string().nullable(),
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  currency: z.string().nullable(),
  version_sequence: z.number().int(),
  statement_version_id: z.string().uuid().describe('the version the row was computed from (latest knowable at as_of_timestamp)'),
};

const FractionDigits = z.number().int().describe('fraction digits of every value in metrics (rounded half-up)');
const MetricMap = z.record(z.string(), DecimalString);

export const PeriodRow = z.object({
  model_period_id: z.string().uuid(),
  ...Head,
  ...SnapshotFields,
  source_accession: z.string(),
  filing_date: IsoDate,
  normalization_provenance_id: z.string().uuid().describe('names the normalization of this version (its figures and their provenance); equal content, equal id'),
  statement: MetricMap.describe('the statement as reported in this version: canonical metric -> value'),
  derived_figures: z.array(z.string()).describe('figures of the statement that are derived (a Q4, a discrete cash-flow quarter), not tagged'),
  coherence: z
    .record(z.string(), CoherenceOut)
    .optional()
    .describe("on a quarter or year of an income or cash-flow statement: each money flow of statement whose fiscal year's four quarters do not add up to its year as the snapshot sees them -> why; a money flow absent here adds up (or its year is not whole in the snapshot); left out where none is marked"),
  split_adjustments: SplitAdjustments.optional(),
});

export const RatioRow = z.object({
  model_ratio_id: z.string().uuid(),
  ...Head,
  ...SnapshotFields,
  fraction_digits: FractionDigits,
  metrics: MetricMap,
  unavailable_metrics: z.array(UnavailableShape),
});

export const GrowthRow = z.object({
  model_growth_id: z.string().uuid(),
  ...Head,
  ...SnapshotFields,
  cagr_years: z.number().int().nullable().describe('fiscal years the *_CAGR metrics span; null on quarter rows'),
  fraction_digits: FractionDigits,
  metrics: MetricMap,
  unavailable_metrics: z.array(UnavailableShape),
  split_adjustments: OperandSplitAdjustments.optional(),
});

const TtmQuarter = z.object({
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  period_start: z.string().nullable(),
  period_end: z.string(),
  derived_figures: z.array(z.string()).describe('summed flows of this quarter that are derived (a Q4 = fiscal year minus three quarters)'),
});

export const TtmRow = z.object({
  model_ttm_id: z.string().uuid(),
  company_id: z.string().nullable(),
  cik: CikOut,
  accounting_standard: z.string(),
  currency: z.string().nullable(),
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam.describe('the quarter ending the window'),
  statement_date: IsoDate,
  ...SnapshotFields,
  ttm_window_start: IsoDate,
  ttm_window_end: IsoDate,
  window_quarters: z.array(TtmQuarter),
  metrics: MetricMap.describe('flows summed over the four quarters; balances at the window end; EPS = TTM net income / mean weighted-average shares, the four counts on the newest count\'s split basis'),
  unavailable_metrics: z.array(UnavailableShape),
  split_adjustments: OperandSplitAdjustments.optional(),
  coherence: z
    .record(z.string(), z.array(CoherenceOut))
    .optional()
    .describe("each summed flow whose window's quarters belong to a fiscal year whose quarters do not add up to its year -> those years' marks (the sum is on the quarters' basis); left out where none"),
});

export const MultiYearRow = z.object({
  model_multi_year_id: z.string().uuid(),
  company_id: z.string().nullable(),
  cik: CikOut,
  accounting_standard: z.string(),
  currency: z.string().nullable(),
  fiscal_year: z.number().int(),
  fiscal_period: z.literal('FY'),
  period_start: z.string().nullable(),
  statement_date: IsoDate,
  ...SnapshotFields,
  statement_versions: z.array(z.object({ statement_type: StatementTypeParam, statement_version_id: z.string().uuid(), version_sequence: z.number().int() })),
  valuation_inputs: z.record(z.string(), DecimalString.nullable()).describe('every input; null ones have an unavailable_metrics entry'),
  unavailable_metrics: z.array(UnavailableShape),
  split_adjustments: SplitAdjustments.optional(),
  market_data: z.object({ persisted: z.literal(false), note: z.string() }).describe('market inputs (price, market cap, EV) are never persisted'),
});

export const BuildRow = z.object({
  cik: CikOut,
  statement_type: StatementTypeParam,
  metric_name: z.string(),
  metric_value: DecimalString,
  statement_date: IsoDate,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  _meta: z.object({
    snapshot_id: z.string(),
    as_of_snapshot_id: z.string().uuid(),
    snapshot_hash: z.string(),
    statement_version_id: z.string().uuid(),
    strategy_id: z.string().describe('how the values were computed: model version and metrics bundle'),
  }),
});
