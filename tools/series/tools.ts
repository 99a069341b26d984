import { z } from 'zod';
import { companiesVersionsOf } from '../../api/company-versions.ts';
import { resolveTicker } from '../../db/identity.ts';
import { latestStatementRows, panelPage, type SeriesQuery } from './queries.ts';
import { CANONICAL_METRIC_NAMES, canonicalMetric, DERIVED_METRICS, derivedMetric, METRIC_BUNDLES, METRIC_VIEWS, type StatementType } from '../../domain/catalog/index.ts';
import { inputsOf } from '../../domain/derived-eval.ts';
import { groupPeriods } from '../../domain/series-periods.ts';
import { bundlePoint, derivedPoint, periodMetrics } from '../../domain/series-points.ts';
import { SplitAdjustedParam } from '../../api/split-adjustment.ts';
import { annotatePanelPoint, panelMarks, panelPointOf, panelSplits } from './panel-annotations.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool, type ToolContext, type ToolDefinition } from '../../api/define-tool.ts';
import { Cik, CikOut, dataEnvelope, FiscalYear, IsoDate, PageParams, pageOf, paginated, StatementTypeParam, Ticker } from '../../api/schemas.ts';
import { CanonicalMetricParam } from '../../api/params.ts';
import { FISCAL_PERIODS, QUARTERS, STATEMENT_TYPES } from '../../domain/statements/types.ts';
import { BundlePoint, DerivedPoint, PanelPoint, ViewPoint } from './shapes.ts';

/**
 * Time series over many periods (and companies) at once: the canonical panel, bundle series, and
 * derived metrics computed on read from the same statement versions. Each request reads the
 * latest version of every period in one query (db/series-read.ts); derived values follow the
 * catalog formulas exactly (domain/derived-eval.ts).
 */

const ALL_TYPES: StatementType[] = [...STATEMENT_TYPES];
const DERIVED_NAMES: readonly string[] = DERIVED_METRICS.map((m) => m.metric);
const isDerived = (m: string) => derivedMetric(m) !== undefined;
const MAX_COMPANIES = 50;


// ---------------------------------------------------------------- parameters

const CiksParam = z.array(Cik).max(MAX_COMPANIES).describe(`CIKs (repeatable: ?ciks=320193&ciks=789019, or comma-separated), at most ${MAX_COMPANIES}`);
const TickersParam = z.array(Ticker).max(MAX_COMPANIES).describe(`tickers instead of ciks (repeatable), at most ${MAX_COMPANIES}; resolved to today's CIK`);
const Frequency = z
  .enum(['annual', 'quarterly'])
  .default('annual')
  .describe(
    'annual (FY rows, the default) or quarterly (Q1-Q4; Q4 and discrete cash-flow quarters are derived and named in derived_figures; balance-sheet points are Q1-Q3, the year-end balance being the FY point)',
  );

const DerivedMetricParam = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .superRefine((name, ctx) => {
    if (isDerived(name)) return;
    const hint = canonicalMetric(name) ? `${name} is a canonical metric (served by the fundamentals panel, /v1/fundamentals/time-series or fundamentals_time_series), not a derived one. ` : '';
    ctx.addIssue({ code: 'custom', message: `${hint}unknown derived metric ${JSON.stringify(name)}; accepted names: ${DERIVED_NAMES.join(', ')}` });
  })
  .describe(`derived metric name: ${DERIVED_NAMES.join(', ')}`);

const PanelParams = {
  statement_type: StatementTypeParam.describe('statement whose periods make the points (required)'),
  ciks: CiksParam.optional(),
  tickers: TickersParam.optional(),
  use_tier1_only: z
    .boolean()
    .default(false)
    .describe('tier 1 = figures exactly as the filer tagged them for the period (value_origin SOURCE, no correction); drops derived Q4 and discrete cash-flow quarters and corrected values'),
  frequency: Frequency,
  from: IsoDate.optional().describe('earliest statement_date (period end), YYYY-MM-DD'),
  to: IsoDate.optional().describe('latest statement_date (period end), YYYY-MM-DD'),
  ...PageParams,
};

// ---------------------------------------------------------------- helpers

function checkDates(from: string | undefined, to: string | undefined, names: [string, string] = ['from', 'to']): void {
  if (from && to && from > to) throw new ServiceError('VALIDATION_ERROR', `${names[0]} (${from}) is after ${names[1]} (${to}).`, { [names[0]]: from, [names[1]]: to });
}

/** ciks or tickers, exactly one list; tickers resolve to today's CIK and are reported to the coverage gate. */
async function companiesOf(ctx: ToolContext, input: { ciks?: string[] | undefined; tickers?: string[] | undefined }): Promise<string[]> {
  const ciks = input.ciks ?? [];
  const tickers = input.tickers ?? [];
  if (ciks.length > 0 && tickers.length > 0) throw new ServiceError('VALIDATION_ERROR', 'Pass ciks or tickers, not both.', {});
  if (ciks.length > 0) return [...new Set(ciks)];
  if (tickers.length === 0) throw new ServiceError('VALIDATION_ERROR', 'Pass ciks (e.g. ciks=0000320193) or tickers (e.g. tickers=AAPL).', {});
  const out: string[] = [];
  const unknown: string[] = [];
  for (const t of new Set(tickers)) {
    const row = await resolveTicker(ctx.services.sql, t, null);
    if (row) out.push(row.cik);
    else unknown.push(t);
  }
  if (unknown.length > 0) throw new ServiceError('NOT_FOUND', `No company has ticker ${unknown.join(', ')}. Search names with identity_search (HTTP: /v1/identity/search).`, { tickers: unknown });
  await ctx.reach(out);
  return [...new Set(out)];
}

/** Earliest or latest statement_date of the points; null for none. */
function dateBound(points: { statement_date: string }[], which: 'min' | 'max'): string | null {
  const dates = points.map((p) => p.statement_date).sort();
  return (which === 'min' ? dates[0] : dates[dates.length - 1]) ?? null;
}

function periodsOf(frequency: 'annual' | 'quarterly'): string[] {
  return frequency === 'annual' ? ['FY'] : [...QUARTERS];
}

function shiftDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Periods of `ciks` with every statement type, projected to `canonical`, for derived reads:
 * quarterly reads take the FY balance sheets too (a Q4's closing and a Q1's opening balance), and
 * the lower date bound reaches back a year so the first period has its opening balance.
 */
async function periodGroups(
  ctx: ToolContext,
  q: { ciks: string[]; frequency: 'annual' | 'quarterly'; from?: string | undefined; to?: string | undefined; canonical: string[]; tier1: boolean; anchors: StatementType[] },
) {
  const rows = await latestStatementRows(ctx.services.sql, {
    ciks: q.ciks,
    statement_types: ALL_TYPES,
    fiscal_periods: q.frequency === 'annual' ? ['FY'] : null,
    fiscal_year_from: null,
    fiscal_year_to: null,
    period_end_from: q.from ? shiftDays(q.from, -400) : null,
    period_end_to: q.to ?? null,
    metrics: q.canonical,
    tier1: q.tier1,
  });
  const wanted = new Set(periodsOf(q.frequency));
  return groupPeriods(rows, q.anchors).filter((g) => wanted.has(g.fiscal_period) && (!q.from || g.period_end >= q.from));
}

function derivedNamesFor(statementType: StatementType, metrics: string[] | undefined): string[] {
  return metrics && metrics.length > 0 ? [...new Set(metrics)] : DERIVED_METRICS.filter((m) => m.statement_type === statementType).map((m) => m.metric);
}

// ---------------------------------------------------------------- routes

export const fundamentalsPanel = defineTool({
  name: 'fundamentals.time_series',
  title: 'Fundamentals panel (canonical metrics, many companies)',
  description:
    'How do several companies compare on filed figures? A panel of one statement type: one point per company and fiscal period (latest statement versions) with a map of canonical metric values. ' +
    'Give ciks or tickers (not both, up to 50) and name the metrics you need (omitted: every metric the statement reports). frequency annual (default) or quarterly; from/to bound the period end (YYYY-MM-DD). ' +
    'use_tier1_only keeps only figures exactly as tagged. Ordered by company, then period end. For margins and ratios use fundamentals_derived_time_series.',
  http: { method: 'GET', path: '/v1/fundamentals/time-series' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    ...PanelParams,
    metrics: z.array(CanonicalMetricParam).max(CANONICAL_METRIC_NAMES.length).optional().describe('canonical metric names (repeatable); omitted: every metric present'),
    split_adjusted: SplitAdjustedParam,
  }),
  output: paginated(PanelPoint),
  companies: (input) => input.ciks ?? [],
  handler: async (ctx, input) => {
    checkDates(input.from, input.to);
    const metrics = input.metrics && input.metrics.length > 0 ? [...new Set(input.metrics)] : null;
    const foreign = (metrics ?? []).filter((m) => canonicalMetric(m)!.statement_type !== input.statement_type);
    if (foreign.length > 0) {
      throw new ServiceError(
        'VALIDATION_ERROR',
        `${foreign.map((m) => `${m} is a ${canonicalMetric(m)!.statement_type} metric`).join('; ')}; statement_type is ${input.statement_type}. Ask for each statement type separately.`,
        { metrics: foreign, statement_type: input.statement_type },
      );
    }
    const ciks = await companiesOf(ctx, input);
    const q: SeriesQuery = {
      ciks,
      statement_types: [input.statement_type],
      fiscal_periods: periodsOf(input.frequency),
      fiscal_year_from: null,
      fiscal_year_to: null,
      period_end_from: input.from ?? null,
      period_end_to: input.to ?? null,
      metrics,
      tier1: input.use_tier1_only,
    };
    const page = { limit: input.page_size, offset: (input.page - 1) * input.page_size };
    // the page is made per request from what is kept per company and per version (its points are
    // prepared, so their JSON is written once); kept whole, pages asked once would churn the heap
    const indexes = await companiesVersionsOf(ctx.services, ciks);
    const { total, rows } = await panelPage(ctx.services.sql, q, page, indexes);
    const marks = await panelMarks(ctx.services.sql, input.statement_type, rows, indexes);
    const split = input.split_adjusted ? await panelSplits(ctx.services.sql, rows) : null;
    const filter = `${metrics?.join(',') ?? '*'}|${input.use_tier1_only}`;
    return pageOf(rows.map((r) => annotatePanelPoint(panelPointOf(r, filter), r, marks, split)), total, input.page, input.page_size);
  },
});

export const fundamentalsDerivedPanel = defineTool({
  name: 'fundamentals.derived_time_series',
  title: 'Derived-metric panel (computed on read)',
  description:
    'Margins, returns and ratios over time (a five-year margin trend, ROE of peers): derived metrics per company and fiscal period, computed from the latest statement versions of the period. ' +
    'Give ciks or tickers (not both) and the derived metric names (omitted: those classed with statement_type); statement_type picks whose periods make the points (INCOME_STATEMENT for margins). ' +
    'from/to bound the period end (YYYY-MM-DD). A value is null (never zero) when an input is missing or a divisor is zero, with the reason in unavailable_metrics. Formulas: metrics_definition.',
  http: { method: 'GET', path: '/v1/fundamentals/derived/time-series' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({ ...PanelParams, metrics: z.array(DerivedMetricParam).max(DERIVED_NAMES.length).optional().describe('derived metric names (repeatable); omitted: the derived metrics of statement_type') }),
  output: paginated(DerivedPoint),
  companies: (input) => input.ciks ?? [],
  handler: async (ctx, input) => {
    checkDates(input.from, input.to);
    const ciks = await companiesOf(ctx, input);
    const names = derivedNamesFor(input.statement_type, input.metrics);
    const groups = await periodGroups(ctx, { ciks, frequency: input.frequency, from: input.from, to: input.to, canonical: inputsOf(names), tier1: input.use_tier1_only, anchors: [input.statement_type] });
    const start = (input.page - 1) * input.page_size;
    const items = groups.slice(start, start + input.page_size).map((g) => derivedPoint(g, input.statement_type, names, isDerived));
    return pageOf(items, groups.length, input.page, input.page_size);
  },
});

export const derivedTimeSeries = defineTool({
  name: 'derived_metrics.time_series',
  title: 'Derived-metric series (single object)',
  description:
    'Derived metrics of one or more companies over their fiscal periods as one object { ciks, statement_type, frequency, from_date, to_date, points }, computed on read from the latest statement versions. ' +
    'metrics are derived names (omitted: those classed with statement_type). Each point maps every metric asked for to a decimal string or null (reason in unavailable_metrics).',
  http: { method: 'GET', path: '/v1/edgar/derived-metrics/time-series' },
  tool: false,
  plan: 'free',
  input: z.object({
    ciks: CiksParam.min(1, 'pass at least one cik'),
    metrics: z.array(DerivedMetricParam).max(DERIVED_NAMES.length).optional().describe('derived metric names (repeatable); omitted: the derived metrics of statement_type'),
    statement_type: StatementTypeParam.describe('statement whose periods make the points (required)'),
    frequency: Frequency,
    from_date: IsoDate.optional().describe('earliest statement_date (period end)'),
    to_date: IsoDate.optional().describe('latest statement_date (period end)'),
  }),
  output: dataEnvelope(
    z.object({
      ciks: z.array(CikOut),
      statement_type: StatementTypeParam,
      frequency: z.enum(['annual', 'quarterly']),
      from_date: z.string().nullable().describe('from_date asked for, else the earliest statement_date served; null when there is neither'),
      to_date: z.string().nullable().describe('to_date asked for, else the latest statement_date served; null when there is neither'),
      points: z.array(DerivedPoint).describe('ordered by cik, then statement date'),
    }),
  ),
  companies: (input) => input.ciks,
  handler: async (ctx, input) => {
    checkDates(input.from_date, input.to_date, ['from_date', 'to_date']);
    const ciks = [...new Set(input.ciks)];
    const names = derivedNamesFor(input.statement_type, input.metrics);
    const groups = await periodGroups(ctx, { ciks, frequency: input.frequency, from: input.from_date, to: input.to_date, canonical: inputsOf(names), tier1: false, anchors: [input.statement_type] });
    const points = groups.map((g) => derivedPoint(g, input.statement_type, names, isDerived));
    return {
      data: {
        ciks,
        statement_type: input.statement_type,
        frequency: input.frequency,
        from_date: input.from_date ?? dateBound(points, 'min'),
        to_date: input.to_date ?? dateBound(points, 'max'),
        points,
      },
    };
  },
});

function unknownCode(kind: string, code: string, codes: string[]): ServiceError {
  return new ServiceError('NOT_FOUND', `No ${kind} ${JSON.stringify(code)}; codes: ${codes.join(', ')}.`, { code, codes });
}

export const bundleTimeSeries = defineTool({
  name: 'edgar.metric_bundle_time_series',
  title: 'Time series of a metric bundle',
  description:
    "One point per fiscal period with the bundle's canonical metrics, read from the latest version of each statement of the period (a bundle may span statements; a Q4 reads the fiscal-year-end balance sheet). " +
    'period_type annual (FY) or quarterly (Q1-Q4); both when omitted. Bundles: /v1/edgar/metric-bundles; an unknown code is 404 listing the codes.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/metric-bundles/{bundle_code}/time-series' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik,
    bundle_code: z.string().describe('bundle code, e.g. core_balance_sheet'),
    period_type: z.enum(['annual', 'quarterly']).optional().describe('annual (FY) or quarterly (Q1-Q4); both when omitted'),
    fiscal_year_from: FiscalYear.optional(),
    fiscal_year_to: FiscalYear.optional(),
    ...PageParams,
  }),
  output: paginated(BundlePoint),
  companies: (input) => [input.cik],
  handler: async (ctx, input) => {
    const bundle = METRIC_BUNDLES.find((b) => b.code === input.bundle_code);
    if (!bundle) throw unknownCode('metric bundle', input.bundle_code, METRIC_BUNDLES.map((b) => b.code));
    const { fiscal_year_from: from, fiscal_year_to: to } = input;
    if (from !== undefined && to !== undefined && from > to) throw new ServiceError('VALIDATION_ERROR', `fiscal_year_from (${from}) is after fiscal_year_to (${to}).`, { fiscal_year_from: from, fiscal_year_to: to });
    const types = ALL_TYPES.filter((t) => bundle.metrics.some((m) => canonicalMetric(m)?.statement_type === t));
    const rows = await latestStatementRows(ctx.services.sql, {
      ciks: [input.cik],
      statement_types: types,
      fiscal_periods: null,
      fiscal_year_from: from ?? null,
      fiscal_year_to: to ?? null,
      period_end_from: null,
      period_end_to: null,
      metrics: [...bundle.metrics],
      tier1: false,
    });
    const wanted = new Set(input.period_type ? periodsOf(input.period_type) : FISCAL_PERIODS);
    const points = groupPeriods(rows)
      .filter((g) => wanted.has(g.fiscal_period))
      .map((g) => bundlePoint(g, bundle.metrics))
      .filter((p) => Object.keys(p.metrics).length > 0);
    const start = (input.page - 1) * input.page_size;
    return pageOf(points.slice(start, start + input.page_size), points.length, input.page, input.page_size);
  },
});

export const viewSeries = defineTool({
  name: 'views.metric_series',
  title: 'Series of a metric view (canonical and derived)',
  description:
    "A view's metrics for companies over their fiscal periods: canonical metrics read from the latest statement versions of the period, derived ones computed on read from the same versions. " +
    'Each point maps every view metric to a decimal string or null (reason in unavailable_metrics). Views: /v1/views/metrics; an unknown code is 404 listing the codes.',
  http: { method: 'GET', path: '/v1/views/metrics/{bundle_code}' },
  tool: false,
  plan: 'free',
  input: z.object({
    bundle_code: z.string().describe('view code, e.g. core_fundamentals'),
    ciks: CiksParam.min(1, 'pass at least one cik'),
    frequency: Frequency,
    from_date: IsoDate.optional().describe('earliest statement_date (period end)'),
    to_date: IsoDate.optional().describe('latest statement_date (period end)'),
  }),
  output: dataEnvelope(
    z.object({
      view: z.string().describe('the view code'),
      metrics: z.array(z.string()).describe("the view's metrics, in display order"),
      ciks: z.array(CikOut),
      frequency: z.enum(['annual', 'quarterly']),
      from_date: z.string().nullable(),
      to_date: z.string().nullable(),
      points: z.array(ViewPoint).describe('one per company and fiscal period, ordered by cik, then statement date'),
    }),
  ),
  companies: (input) => input.ciks,
  handler: async (ctx, input) => {
    const view = METRIC_VIEWS.find((v) => v.code === input.bundle_code);
    if (!view) throw unknownCode('metric view', input.bundle_code, METRIC_VIEWS.map((v) => v.code));
    checkDates(input.from_date, input.to_date, ['from_date', 'to_date']);
    const ciks = [...new Set(input.ciks)];
    const canonical = [...new Set([...view.metrics.filter((m) => !isDerived(m)), ...inputsOf(view.metrics.filter(isDerived))])];
    const groups = await periodGroups(ctx, { ciks, frequency: input.frequency, from: input.from_date, to: input.to_date, canonical, tier1: false, anchors: ALL_TYPES });
    const points = groups.map((g) => ({
      cik: g.cik,
      accounting_standard: g.accounting_standard,
      statement_date: g.period_end,
      fiscal_year: g.fiscal_year,
      fiscal_period: g.fiscal_period,
      currency: g.currency,
      period_start: g.period_start,
      ...periodMetrics(g, view.metrics, isDerived),
    }));
    return {
      data: {
        view: view.code,
        metrics: [...view.metrics],
        ciks,
        frequency: input.frequency,
        from_date: input.from_date ?? dateBound(points, 'min'),
        to_date: input.to_date ?? dateBound(points, 'max'),
        points,
      },
    };
  },
});

export const SERIES_TOOLS: ToolDefinition[] = [bundleTimeSeries, derivedTimeSeries, fundamentalsPanel, fundamentalsDerivedPanel, viewSeries];
