import { z } from 'zod';
import { canonicalMetric } from '../../domain/catalog/index.ts';
import { ServiceError } from '../../domain/service-error.ts';
import type { ToolContext } from '../../api/define-tool.ts';
import { CanonicalMetricParam } from '../../api/params.ts';
import { Cik, FiscalPeriodParam, FiscalYear, PAGE_SIZE_MAX, PageParams, StatementTypeParam } from '../../api/schemas.ts';

/**
 * The four deterministic query types. Each one reads through registered route definitions
 * (ctx.invoke), so plan, validation and coverage are those of the routes, and passes as_of_date
 * down as the visibility boundary of those routes: only statement versions filed on or before it
 * (and restatements filed on or before it) can reach the result.
 */
interface QueryTypeOf<P extends z.ZodObject> {
  parameters: P;
  description: string;
  /** companies the query reaches, claimed all at once before anything is read */
  companies(params: z.output<P>): string[];
  run(ctx: ToolContext, params: z.output<P>, asOf: string): Promise<Record<string, unknown>>;
}

/** A query type as the table holds it: its functions take what its own `parameters` parsed. */
export interface QueryType {
  parameters: z.ZodObject;
  description: string;
  companies(params: unknown): string[];
  run(ctx: ToolContext, params: unknown, asOf: string): Promise<Record<string, unknown>>;
}

function define<P extends z.ZodObject>(q: QueryTypeOf<P>): QueryType {
  // the caller passes only what q.parameters parsed
  const parsed = (params: unknown) => params as z.output<P>;
  return {
    parameters: q.parameters,
    description: q.description,
    companies: (params) => q.companies(parsed(params)),
    run: (ctx, params, asOf) => q.run(ctx, parsed(params), asOf),
  };
}

const MAX_PANEL_COMPANIES = 25;
const MAX_PANEL_METRICS = 20;
const MAX_PANEL_YEARS = 50;

function checkYears(from: number | undefined, to: number | undefined): void {
  if (from !== undefined && to !== undefined && from > to) {
    throw new ServiceError('VALIDATION_ERROR', `parameters.fiscal_year_from (${from}) is after parameters.fiscal_year_to (${to}).`, { fiscal_year_from: from, fiscal_year_to: to });
  }
}

const financialStateTimeSeries = define({
  description: 'one row per fiscal year of a company with the full canonical metric set (the financial-state route): cik, fiscal_year_from, fiscal_year_to, period_type (annual), page, page_size',
  parameters: z.strictObject({
    cik: Cik,
    fiscal_year_from: FiscalYear.optional(),
    fiscal_year_to: FiscalYear.optional(),
    period_type: z.literal('annual').default('annual').describe('annual (the only period type of this query)'),
    ...PageParams,
  }),
  companies: (p) => [p.cik],
  run: async (ctx, p, asOf) => {
    checkYears(p.fiscal_year_from, p.fiscal_year_to);
    return (await ctx.invoke('edgar.financial_state_time_series', { ...p, as_of_date: asOf })) as Record<string, unknown>;
  },
});

interface StateRow {
  cik: string;
  fiscal_year: number;
  fiscal_period: string;
  period_end: string;
  statements: { statement_type: string; statement_version_id: string }[];
  metrics: Record<string, string | null>;
}

const metricPanel = define({
  description: `companies x canonical metrics x fiscal periods: ciks (1-${MAX_PANEL_COMPANIES}), metrics (1-${MAX_PANEL_METRICS}), fiscal_year_from, fiscal_year_to (required), period_type annual or quarterly`,
  parameters: z.strictObject({
    ciks: z.array(Cik).min(1).max(MAX_PANEL_COMPANIES).transform((a) => [...new Set(a)].sort()),
    metrics: z.array(CanonicalMetricParam).min(1).max(MAX_PANEL_METRICS).transform((a) => [...new Set(a)].sort()),
    fiscal_year_from: FiscalYear,
    fiscal_year_to: FiscalYear,
    period_type: z.enum(['annual', 'quarterly']).default('annual'),
  }),
  companies: (p) => p.ciks,
  run: async (ctx, p, asOf) => {
    checkYears(p.fiscal_year_from, p.fiscal_year_to);
    if (p.fiscal_year_to - p.fiscal_year_from + 1 > MAX_PANEL_YEARS) {
      throw new ServiceError('VALIDATION_ERROR', `A metric panel spans at most ${MAX_PANEL_YEARS} fiscal years.`, { fiscal_year_from: p.fiscal_year_from, fiscal_year_to: p.fiscal_year_to });
    }
    const types = new Set(p.metrics.map((m) => canonicalMetric(m)!.statement_type as string));
    const rows = [];
    for (const cik of p.ciks) {
      for (let page = 1; ; page++) {
        const res = (await ctx.invoke('edgar.financial_state_time_series', {
          cik,
          period_type: p.period_type,
          fiscal_year_from: p.fiscal_year_from,
          fiscal_year_to: p.fiscal_year_to,
          as_of_date: asOf,
          page,
          page_size: PAGE_SIZE_MAX,
        })) as { total: number; items: StateRow[] };
        for (const r of res.items) {
          const statements = r.statements.filter((s) => types.has(s.statement_type));
          if (statements.length === 0) continue;
          rows.push({
            cik: r.cik,
            fiscal_year: r.fiscal_year,
            fiscal_period: r.fiscal_period,
            period_end: r.period_end,
            metrics: Object.fromEntries(p.metrics.map((m) => [m, r.metrics[m] ?? null])),
            statement_version_ids: statements.map((s) => s.statement_version_id),
          });
        }
        if (page * PAGE_SIZE_MAX >= res.total) break;
      }
    }
    return { ciks: p.ciks, metrics: p.metrics, period_type: p.period_type, fiscal_year_from: p.fiscal_year_from, fiscal_year_to: p.fiscal_year_to, rows };
  },
});

const statementAsOf = define({
  description: 'one normalized statement as it stood on as_of_date (the normalized-statement route): cik, statement_type, fiscal_year, fiscal_period, include_version_history (default true)',
  parameters: z.strictObject({
    cik: Cik,
    statement_type: StatementTypeParam,
    fiscal_year: FiscalYear,
    fiscal_period: FiscalPeriodParam,
    include_version_history: z.boolean().default(true),
  }),
  companies: (p) => [p.cik],
  run: async (ctx, p, asOf) => (await ctx.invoke('statements.normalized', { ...p, as_of_date: asOf })) as Record<string, unknown>,
});

const restatementHistory = define({
  description: 'restatements of a company filed on or before as_of_date, newest first (the restatement-alert route): cik, optional statement_type, fiscal_year, fiscal_period, metric, page, page_size',
  parameters: z.strictObject({
    cik: Cik,
    statement_type: StatementTypeParam.optional(),
    fiscal_year: FiscalYear.optional(),
    fiscal_period: FiscalPeriodParam.optional(),
    metric: CanonicalMetricParam.optional(),
    ...PageParams,
  }),
  companies: (p) => [p.cik],
  run: async (ctx, p, asOf) => (await ctx.invoke('edgar.restatement_alerts', { ...p, filed_to: asOf })) as Record<string, unknown>,
});

export const QUERY_TYPES: Readonly<Record<string, QueryType>> = Object.freeze({
  financial_state_time_series: financialStateTimeSeries,
  metric_panel: metricPanel,
  statement_as_of: statementAsOf,
  restatement_history: restatementHistory,
});

export const QUERY_TYPE_NAMES: readonly string[] = Object.freeze(Object.keys(QUERY_TYPES));

