/**
 * Inputs and answers of the screens area: metric names a screen accepts (per period kind), the
 * condition and period inputs, and the rows both routes answer with.
 */
import { z } from 'zod';
import { CANONICAL_METRIC_NAMES } from '../../domain/catalog/index.ts';
import { PERIOD_METRIC_NAMES, TTM_METRIC_NAMES } from '../../domain/screens/rows.ts';
import { ACCOUNTING_STANDARDS, FISCAL_PERIODS, STATEMENT_TYPES } from '../../domain/statements/types.ts';
import { dec } from '../../domain/decimal.ts';
import { CikOut, DecimalString } from '../../api/schemas.ts';

/** Every name a screen of a fiscal year or quarter accepts: canonical figures, then ratios, growth and derived metrics. */
export const YEAR_METRICS: readonly string[] = [...CANONICAL_METRIC_NAMES, ...PERIOD_METRIC_NAMES.filter((m) => !CANONICAL_METRIC_NAMES.includes(m))];
export const TTM_METRICS: readonly string[] = TTM_METRIC_NAMES;
const ALL_METRICS = new Set([...YEAR_METRICS, ...TTM_METRICS]);

/** a metric name, checked against the accepted names (undescribed: the tool schemas repeat it) */
export const MetricRef = z
  .string()
  .max(64)
  .transform((s) => s.trim().toUpperCase())
  .superRefine((name, ctx) => {
    if (!ALL_METRICS.has(name)) ctx.addIssue({ code: 'custom', message: `unknown or non-screenable metric ${JSON.stringify(name)}; accepted names: ${YEAR_METRICS.join(', ')}` });
  })
  ;
export const MetricName = MetricRef.describe('e.g. REVENUE, GROSS_MARGIN, ROE, REVENUE_GROWTH_YOY');

export const DecimalInput = z
  .string()
  .max(40)
  .regex(/^-?\d+(\.\d+)?$/, 'a decimal string such as "0.5", "20" or "-1200000.25" (no exponent, no float)');

export const OPS = ['gt', 'gte', 'lt', 'lte', 'eq', 'between'] as const;
export type Op = (typeof OPS)[number];

export const Condition = z
  .object({
    metric: MetricName,
    op: z.enum(OPS),
    value: z.union([DecimalInput, z.array(DecimalInput).max(2)]).describe('[low, high] for between'),
  })
  .superRefine((c, ctx) => {
    if (c.op === 'between') {
      if (!Array.isArray(c.value) || c.value.length !== 2) ctx.addIssue({ code: 'custom', path: ['value'], message: 'between takes two values: [low, high], e.g. ["0.2", "0.5"]' });
      else if (dec(c.value[0]!).gt(dec(c.value[1]!))) ctx.addIssue({ code: 'custom', path: ['value'], message: `between: low (${c.value[0]}) is above high (${c.value[1]})` });
    } else if (Array.isArray(c.value)) ctx.addIssue({ code: 'custom', path: ['value'], message: `${c.op} takes one decimal string; only between takes [low, high]` });
  });
export type ConditionIn = z.output<typeof Condition>;

export const PERIOD_KINDS = ['latest_annual', 'latest_quarter', 'ttm'] as const;
export const PeriodInput = z
  .union([z.enum(PERIOD_KINDS), z.object({ fiscal_year: z.number().int().min(1900).max(2200) }).strict()])
  .default('latest_annual')
  .describe('default latest_annual');

export const SicInput = z
  .array(z.string().regex(/^\d{2}(\d{2})?$/, 'a SIC code (4 digits, e.g. 3674) or a 2-digit prefix (e.g. 36)'))
  .min(1)
  .max(50)
  .describe('SIC codes or 2-digit prefixes');

export const UniverseFilters = {
  sic: SicInput.optional(),
  exchange: z.array(z.string().trim().min(1).max(16).transform((s) => s.toUpperCase())).min(1).max(20).optional().describe('e.g. Nasdaq, NYSE'),
  accounting_standard: z.enum(ACCOUNTING_STANDARDS).optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'a three-letter currency code, e.g. USD')
    .transform((s) => s.toUpperCase())
    .default('USD')
    .describe('of amount conditions, default USD'),
};

export const Source = z.object({
  statement_type: z.enum(STATEMENT_TYPES),
  fiscal_year: z.number().int(),
  fiscal_period: z.enum(FISCAL_PERIODS),
  statement_version_id: z.string().uuid(),
  version_sequence: z.number().int(),
  accession: z.string(),
  filing_date: z.string(),
});

const Head = {
  cik: CikOut,
  company_id: z.string().uuid(),
  ticker: z.string().nullable(),
  company_name: z.string(),
  sic: z.string().nullable(),
  fiscal_year: z.number().int(),
  fiscal_period: z.enum(FISCAL_PERIODS).describe('for ttm: the quarter the window ends with'),
  period_start: z.string().nullable(),
  period_end: z.string(),
  filing_date: z.string().describe('the latest filing date among the statement versions the values come from'),
  currency: z.string().nullable(),
  accounting_standard: z.enum(ACCOUNTING_STANDARDS),
  statement_version_ids: z.array(z.string().uuid()).describe('the statement versions every value of the row comes from'),
  sources: z.array(Source).describe('those versions with their filing (provenance: GET /v1/provenance/... or statements_version)'),
};

export const ScreenItem = z.object({
  ...Head,
  metrics: z.record(z.string(), DecimalString.nullable()).describe('every metric the screen names (conditions, sort, metrics), as decimal strings; null where the company has none'),
});

export const EXCLUSION_REASONS = ['NO_PERIOD_AT_DATE', 'METRIC_NOT_REPORTED', 'INPUT_MISSING', 'NOT_COMPUTABLE', 'OTHER_CURRENCY'] as const;
export const Excluded = z
  .object(Object.fromEntries(EXCLUSION_REASONS.map((r) => [r, z.number().int()])) as Record<(typeof EXCLUSION_REASONS)[number], z.ZodNumber>)
  .describe(
    'companies of the universe the screen could not judge, by reason (the first failing condition): NO_PERIOD_AT_DATE (no period of the kind known on as_of_date), METRIC_NOT_REPORTED, INPUT_MISSING (an input of a derived metric not reported), NOT_COMPUTABLE (zero divisor, no comparable prior period, incomplete trailing year, non-positive value), OTHER_CURRENCY (an amount condition on figures in another currency)',
  );

export const CompareValue = z.object({
  value: DecimalString.nullable(),
  unavailable: z.string().nullable().describe('why value is null: a modeling reason (NOT_REPORTED, MISSING_INPUT, DENOMINATOR_ZERO, NO_COMPARABLE_PERIOD, ...)'),
  rank: z.number().int().nullable().describe('1 = the highest value among the compared companies (ties share a rank); null without a value'),
  industry_median: DecimalString.nullable().describe("median of the metric over the companies of the company's SIC 2-digit prefix (the same period kind and date; amounts only in the company's currency)"),
  industry_companies: z.number().int().describe('how many values the median is taken over'),
});

export const CompareItem = z.object({
  requested: z.string().describe('the CIK or ticker as given'),
  cik: Head.cik,
  company_id: Head.company_id,
  ticker: Head.ticker,
  company_name: Head.company_name,
  sic: Head.sic,
  fiscal_year: Head.fiscal_year.nullable(),
  fiscal_period: Head.fiscal_period.nullable(),
  period_start: Head.period_start,
  period_end: Head.period_end.nullable(),
  filing_date: Head.filing_date.nullable(),
  currency: Head.currency,
  accounting_standard: Head.accounting_standard.nullable(),
  statement_version_ids: Head.statement_version_ids,
  sources: Head.sources,
  metrics: z.record(z.string(), CompareValue).describe('each requested metric; every value null when no period of the kind is known at as_of_date'),
});
