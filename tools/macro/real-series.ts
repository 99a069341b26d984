import { z } from 'zod';
import { observationsBetween } from './queries.ts';
import { metricSeries } from '../../db/statement-read.ts';
import { canonicalMetric } from '../../domain/catalog/index.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import { baseYearMonths, cpiMean, indexText, INDEX_SCALE, periodMonths, REAL_SCALE, realValue } from '../../domain/macro/deflate.ts';
import { CPI_SERIES_CODES, macroSeries } from '../../domain/macro/series-registry.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool, type ToolDefinition } from '../../api/define-tool.ts';
import { CanonicalMetricParam } from '../../api/params.ts';
import { AsOfDate, Cik, CikOut, dataEnvelope, DecimalString, FiscalPeriodParam, FiscalYear, StatementTypeParam } from '../../api/schemas.ts';

/**
 * Nominal and CPI-adjusted (real) values of a currency metric per fiscal period, computed on read
 * from the statement versions and the CPI observations (domain/macro/deflate.ts has the rule).
 * Only US-dollar figures are deflated by a US CPI; any other currency gets a null real value.
 */

/** Periods one request may span; a company's whole XBRL history fits several times over. */
const MAX_POINTS = 1000;

const Point = z.object({
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  period_start: z.string().nullable().describe('null for a balance (deflated by the CPI of the month it falls in)'),
  period_end: z.string(),
  unit: z.string(),
  nominal_value: DecimalString.describe('as served by the metric time series (latest version, or the one knowable on as_of_date)'),
  real_value: DecimalString.nullable().describe(`nominal x base_index / deflator, ${REAL_SCALE} fraction digits (half to even); null with real_value_reason when it cannot be computed`),
  deflator: DecimalString.nullable().describe(`mean CPI over cpi_months, ${INDEX_SCALE} fraction digits (the computation uses the unrounded mean)`),
  cpi_months: z.array(z.string()).describe('months (YYYY-MM) whose CPI observations are averaged: start month through end month'),
  missing_cpi_months: z.array(z.string()).describe('months of cpi_months without a CPI value (a published gap, or not yet knowable)'),
  real_value_reason: z.enum(['CPI_MONTH_MISSING', 'NOT_US_DOLLARS']).nullable(),
  statement_version_id: z.string(),
  filing_date: z.string(),
});

export const realTimeSeries = defineTool({
  name: 'fundamentals.real_time_series',
  title: 'Nominal and CPI-adjusted series of a currency metric',
  description:
    'Per fiscal period of a company, a currency metric (REVENUE, NET_INCOME, TOTAL_ASSETS, ...) nominal and in constant base_year dollars: real = nominal x base / deflator, ' +
    'deflator = mean of the CPI over the months the period spans (start month through end month), base = mean over calendar base_year. cpi_series: CPIAUCSL (default) or CPILFESL. ' +
    'A period with a CPI month missing (e.g. 2025-10) gets real_value null and a reason. Ratios, per-share values and share counts are refused (400).',
  http: { method: 'GET', path: '/v1/fundamentals/companies/{cik}/metrics/{metric}/time-series/real' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik,
    metric: CanonicalMetricParam,
    base_year: z.number().int().min(1900).max(2200).describe('calendar year whose dollars the real values are expressed in, e.g. 2017 (every month must have a CPI value)'),
    fiscal_year_from: FiscalYear.optional(),
    fiscal_year_to: FiscalYear.optional(),
    period_type: z.enum(['annual', 'quarterly']).optional().describe('annual (FY) or quarterly (Q1-Q4); both when omitted'),
    cpi_series: z.string().transform((s) => s.trim().toUpperCase()).default('CPIAUCSL').describe(`registered CPI series: ${CPI_SERIES_CODES.join(' or ')} (default CPIAUCSL)`),
    as_of_date: AsOfDate.optional().describe('point in time: the statement version and the CPI values knowable on that date'),
  }),
  output: dataEnvelope(
    z.object({
      cik: CikOut,
      metric: z.string(),
      statement_type: StatementTypeParam,
      cpi_series: z.string(),
      base_year: z.number().int(),
      base_index: DecimalString.describe(`mean CPI over the twelve months of base_year, ${INDEX_SCALE} fraction digits`),
      as_of_date: z.string().nullable(),
      points: z.array(Point).describe('oldest period end first'),
    }),
  ),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const metric = canonicalMetric(input.metric)!;
    if (metric.unit_type !== 'currency') {
      throw new ServiceError(
        'VALIDATION_ERROR',
        `${metric.metric} is measured in ${metric.unit_type}, not currency; only currency metrics can be CPI-adjusted (e.g. REVENUE, NET_INCOME, TOTAL_ASSETS).`,
        { metric: metric.metric, unit_type: metric.unit_type },
      );
    }
    const cpi = macroSeries(input.cpi_series);
    if (!cpi?.is_cpi) {
      throw new ServiceError('VALIDATION_ERROR', `cpi_series ${JSON.stringify(input.cpi_series)} is not a registered CPI series; use ${CPI_SERIES_CODES.join(' or ')}.`, {
        cpi_series: input.cpi_series,
        accepted: CPI_SERIES_CODES,
      });
    }
    const { fiscal_year_from: from, fiscal_year_to: to } = input;
    if (from !== undefined && to !== undefined && from > to) {
      throw new ServiceError('VALIDATION_ERROR', `fiscal_year_from (${from}) is after fiscal_year_to (${to}).`, { fiscal_year_from: from, fiscal_year_to: to });
    }
    const asOf = input.as_of_date ?? null;
    const { rows } = await metricSeries(
      services.sql,
      {
        cik: input.cik,
        statement_type: metric.statement_type,
        metric: metric.metric,
        fiscal_periods: input.period_type === 'annual' ? ['FY'] : input.period_type === 'quarterly' ? ['Q1', 'Q2', 'Q3', 'Q4'] : null,
        fiscal_year_from: from ?? null,
        fiscal_year_to: to ?? null,
      },
      { as_of_date: asOf, as_reported: false },
      { limit: MAX_POINTS, offset: 0 },
    );
    const baseMonths = baseYearMonths(input.base_year);
    const spans = rows.map((r) => periodMonths(r.figure.period_start, r.figure.period_end));
    const allMonths = [...baseMonths, ...spans.flat()].sort();
    const observations = await observationsBetween(services.sql, cpi.series_code, `${allMonths[0]}-01`, `${allMonths[allMonths.length - 1]}-01`, asOf);
    const byMonth = new Map(observations.map((o) => [o.observation_date.slice(0, 7), o.value]));
    const base = cpiMean(baseMonths, byMonth);
    if (!base.mean) {
      throw new ServiceError(
        'VALIDATION_ERROR',
        `base_year ${input.base_year} lacks ${cpi.series_code} values for ${base.missing_months.join(', ')}${asOf ? ` as knowable on ${asOf}` : ''}; choose a year with all twelve months.`,
        { base_year: input.base_year, missing_months: base.missing_months },
      );
    }
    const points = rows.map((r, i) => {
      const d = cpiMean(spans[i]!, byMonth);
      const usd = r.figure.unit === 'USD';
      return {
        fiscal_year: r.fiscal_year,
        fiscal_period: r.fiscal_period,
        period_start: r.figure.period_start,
        period_end: r.figure.period_end,
        unit: r.figure.unit,
        nominal_value: wireDecimal(r.figure.value),
        real_value: usd && d.mean ? realValue(r.figure.value, base.mean!, d.mean) : null,
        deflator: d.mean ? indexText(d.mean) : null,
        cpi_months: d.months,
        missing_cpi_months: d.missing_months,
        real_value_reason: !usd ? ('NOT_US_DOLLARS' as const) : d.mean ? null : ('CPI_MONTH_MISSING' as const),
        statement_version_id: r.statement_version_id,
        filing_date: r.filing_date,
      };
    });
    return {
      data: {
        cik: input.cik,
        metric: metric.metric,
        statement_type: metric.statement_type,
        cpi_series: cpi.series_code,
        base_year: input.base_year,
        base_index: indexText(base.mean),
        as_of_date: asOf,
        points,
      },
    };
  },
});

export const REAL_SERIES_TOOLS: ToolDefinition[] = [realTimeSeries];
