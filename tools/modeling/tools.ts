/**
 * The modeling area: point-in-time snapshot builds (POST, answered 202 while the build job runs)
 * and the company reads of a built snapshot (periods, ratios, growth, TTM, multi-year valuation
 * inputs), keyed by company_id. Reads page stored rows; they never compute (PENDING_REBUILD is a
 * lookup of versions that arrived after the build).
 */
import { z } from 'zod';
import { defineTool, type ToolContext } from '../../api/define-tool.ts';
import { Cik, IsoDate, PageParams, pageOf, paginated, StatementTypeParam } from '../../api/schemas.ts';
import { CompanyIdParam, companySnapshot, snapshotFields } from '../../api/company-snapshot.ts';
import { pastBoundary } from '../../api/params.ts';
import { flatRowsPage, lateVersions, rowsPage } from './queries.ts';
import { requestSnapshot } from '../../db/modeling-snapshots.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import { withPendingRebuild } from '../../domain/modeling/pending.ts';
import { METRICS_BUNDLES, normalizeRequest, snapshotIdOf, strategyIdOf, type RowKind } from '../../domain/modeling/snapshot.ts';
import type { Unavailable } from '../../domain/modeling/types.ts';
import { STATEMENT_TYPES } from '../../domain/statements/types.ts';
import type { FiscalPeriod } from '../../domain/statement-types.ts';
import { BuildRow, GrowthRow, MultiYearRow, PeriodRow, RatioRow, TtmRow } from './shapes.ts';
import { annotateRows } from './row-annotations.ts';
import { SplitAdjustedParam } from '../../api/split-adjustment.ts';

const MAX_CIKS = 50;
const ReadInput = z.object({
  company_id: CompanyIdParam,
  as_of: IsoDate.describe('date (YYYY-MM-DD) of a built snapshot (modeling_pit_snapshot with this as_of_date); NOT_FOUND when none is built'),
  from: IsoDate.optional().describe('only rows whose statement_date is on or after this date (YYYY-MM-DD), e.g. the last year'),
  metrics: z
    .array(z.string().trim().toUpperCase())
    .min(1)
    .max(200)
    .optional()
    .describe('only these metrics in metrics and unavailable_metrics, e.g. ["NET_INCOME"]; omitted: every metric of the route'),
  split_adjusted: SplitAdjustedParam.describe(
    'true restates the per-share figures and share counts of period rows (statement) and multi-year rows (valuation_inputs) to the latest split basis known at the snapshot\'s date, each with split_adjustments; false (default): as filed. Ratio, growth and TTM rows are built on one split basis per row and served as built',
  ),
  ...PageParams,
});
type ReadInput = z.output<typeof ReadInput>;

/** A company's stored rows of one kind from the snapshot `as_of` names, with PENDING_REBUILD looked up. */
async function readRows(ctx: ToolContext, input: ReadInput, kind: RowKind) {
  const sql = ctx.services.sql;
  const { cik, snapshot, included } = await companySnapshot(ctx, input.company_id, input.as_of);
  // a snapshot of that date that did not include the company: an empty page, not an error
  if (!included) return pageOf([], 0, input.page, input.page_size);
  const [{ total, rows }, late] = await Promise.all([
    rowsPage(sql, snapshot.as_of_snapshot_id, kind, cik, { limit: input.page_size, offset: (input.page - 1) * input.page_size }, input.from ?? null),
    lateVersions(sql, snapshot, cik),
  ]);
  const fields = snapshotFields(snapshot);
  const annotated = await annotateRows(sql, kind, cik, snapshot.as_of_date, rows.map((r) => r.body as Record<string, unknown>), input.split_adjusted);
  const items = rows.map((r, i) => {
    const body: Record<string, unknown> = { ...annotated[i], ...fields };
    if (Array.isArray(body.unavailable_metrics)) body.unavailable_metrics = withPendingRebuild(body.unavailable_metrics as Unavailable[], r.reads, late);
    return input.metrics ? onlyMetrics(body, new Set(input.metrics)) : body;
  });
  return pageOf(items, total, input.page, input.page_size);
}

/** The `metrics` filter of a company read: the named keys of a row's metric maps and their unavailable entries. */
function onlyMetrics(body: Record<string, unknown>, keep: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const [k, v] of Object.entries(body)) {
    if (k === 'unavailable_metrics' && Array.isArray(v)) out[k] = v.filter((u: { metric?: string }) => u.metric !== undefined && keep.has(u.metric));
    else if ((k === 'metrics' || k === 'valuation_inputs' || k === 'statement' || k === 'coherence' || k === 'split_adjustments') && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).filter(([m]) => keep.has(m)));
    }
  }
  return out;
}

const READ_NOTE =
  'Needs as_of naming a built snapshot (build it with modeling_pit_snapshot for that date; NOT_FOUND otherwise) and company_id (a UUID: identity_search gives it for a ticker or CIK; a CIK is refused). ' +
  'from keeps recent rows, metrics the named metrics. An empty page means the snapshot of that date did not include the company. Every metric of the route is on every row, in metrics or in unavailable_metrics with its reason.';

function companyRead(o: { name: string; title: string; path: string; kind: RowKind; item: z.ZodType; what: string }) {
  return defineTool({
    name: o.name,
    title: o.title,
    description: `${o.what} ${READ_NOTE}`,
    http: { method: 'GET', path: `/v1/modeling/companies/{company_id}/${o.path}` },
    tool: true,
    listedAs: 'spec',
    plan: 'growth',
    input: ReadInput,
    output: paginated(o.item),
    handler: (ctx, input) => readRows(ctx, input, o.kind),
  });
}

export const modelingPeriods = companyRead({
  name: 'modeling.periods',
  title: 'Modeling periods (normalized statements of a snapshot)',
  path: 'periods',
  kind: 'periods',
  item: PeriodRow,
  what: 'One row per statement version a point-in-time snapshot read for the company (latest version knowable at the end of as_of): statement identity, version_sequence, statement_version_id, normalization_provenance_id and the statement as reported. Ordered by period end.',
});

export const modelingRatios = companyRead({
  name: 'modeling.ratios',
  title: 'Modeling ratios',
  path: 'ratios',
  kind: 'ratios',
  item: RatioRow,
  what: 'Fourteen ratios (GROSS_MARGIN, OPERATING_MARGIN, NET_MARGIN, ROE, ROA, ROIC, DEBT_TO_EQUITY, CURRENT_RATIO, QUICK_RATIO, BOOK_VALUE_PER_SHARE, DSO, DPO, INVENTORY_TURNOVER, CASH_CONVERSION_CYCLE) per income-statement and balance-sheet row, as decimal strings with 12 fraction digits. Flows over balances use averaged balances; quarters are not annualized; day counts use 365 for a year, the quarter\'s days otherwise. A ratio of the other statement is NOT_ON_STATEMENT.',
});

export const modelingGrowth = companyRead({
  name: 'modeling.growth',
  title: 'Modeling growth',
  path: 'growth',
  kind: 'growth',
  item: GrowthRow,
  what: 'Growth per statement row: *_YOY against the same fiscal period a year earlier, *_QOQ against the previous quarter (NOT_APPLICABLE_TO_PERIOD on years), REVENUE_CAGR / NET_INCOME_CAGR over cagr_years fiscal years (years only). (current - prior) / |prior|, 12 fraction digits.',
});

export const modelingTtm = companyRead({
  name: 'modeling.ttm',
  title: 'Modeling trailing twelve months',
  path: 'ttm',
  kind: 'ttm',
  item: TtmRow,
  what: 'One row per quarter with four consecutive quarters on record (ttm_window_start..ttm_window_end; derived Q4s named in window_quarters). A flow is summed only when every quarter reports it, else INCOMPLETE_TRAILING_YEAR; balances are the window-end balance sheet, never summed; EPS is TTM net income over the mean weighted-average share count, never a sum of quarterly EPS.',
});

export const modelingValuationInputs = companyRead({
  name: 'modeling.valuation_inputs',
  title: 'Modeling multi-year valuation inputs',
  path: 'multi-year',
  kind: 'multi_year',
  item: MultiYearRow,
  what: 'One row per fiscal year, oldest first, with valuation_inputs (revenue, EBITDA, free cash flow, debt, net debt, equity, share counts, EPS, ...). Every null input has an unavailable_metrics entry; market inputs (price, market cap, EV) are never persisted (see market_data).',
});

export const modelingPitSnapshot = defineTool({
  name: 'modeling.pit_snapshot',
  title: 'Build (or read) a point-in-time modeling snapshot',
  description:
    'Builds the point-in-time snapshot the modeling reads need (modeling_periods, modeling_ttm, modeling_growth, modeling_ratios, modeling_valuation_inputs): ciks (1 to 50), as_of_date, statement_types (array), metrics_bundle (all: every figure; tier1: only figures exactly as tagged), all required. ' +
    'The snapshot sees exactly the statement versions knowable at the end of as_of_date. Answers status ready with the paginated rows once built, or status computing (HTTP 202) while the build runs: wait a few seconds and call again with the same arguments (it never starts a second build), or go straight to the reads once built. ' +
    'The reads take as_of = as_of_date; an as_of_date after today (UTC) is refused with 400.',
  http: { method: 'POST', path: '/v1/modeling/universe/pit-snapshot' },
  tool: true,
  listedAs: 'extension',
  plan: 'growth',
  input: z.object({
    ciks: z.array(Cik).min(1).max(MAX_CIKS).describe(`CIKs of the universe, 1 to ${MAX_CIKS}`),
    as_of_date: IsoDate.describe('point in time: versions whose SEC filing date is on or before this date'),
    statement_types: z.array(StatementTypeParam).min(1).max(STATEMENT_TYPES.length).describe('statement types whose rows the snapshot serves (ratios and TTM read every type)'),
    metrics_bundle: z.enum(METRICS_BUNDLES).describe('all, or tier1 (figures exactly as tagged only)'),
    ...PageParams,
  }),
  output: paginated(BuildRow).extend({
    status: z.enum(['ready', 'computing']).describe('computing: the build is queued or running (HTTP 202); retry the same request'),
    snapshot_id: z.string(),
    as_of_snapshot_id: z.string().uuid(),
    snapshot_hash: z.string().nullable().describe('null while computing'),
  }),
  companies: (input) => input.ciks,
  httpStatus: {
    of: (out) => (out.status === 'ready' ? 200 : 202),
    documented: { '202': 'Accepted: the build is queued or running (status computing, no rows yet); retry the same request' },
  },
  annotations: { readOnlyHint: false, idempotentHint: true },
  handler: async (ctx, input) => {
    pastBoundary(input.as_of_date, ctx.services.now());
    const request = normalizeRequest({ ciks: input.ciks, as_of_date: input.as_of_date, statement_types: input.statement_types, metrics_bundle: input.metrics_bundle });
    const { snapshot } = await requestSnapshot(ctx.services.sql, snapshotIdOf(request), request);
    const head = { snapshot_id: snapshot.snapshot_id, as_of_snapshot_id: snapshot.as_of_snapshot_id };
    if (snapshot.status !== 'ready') return { ...pageOf([], 0, input.page, input.page_size), status: 'computing' as const, ...head, snapshot_hash: null };
    const { total, rows } = await flatRowsPage(ctx.services.sql, snapshot, { limit: input.page_size, offset: (input.page - 1) * input.page_size });
    const meta = { ...head, snapshot_hash: snapshot.snapshot_hash!, strategy_id: strategyIdOf(snapshot.metrics_bundle) };
    const items = rows.map(({ statement_version_id, metric_value, ...r }) => ({
      ...r,
      fiscal_period: r.fiscal_period as FiscalPeriod,
      metric_value: wireDecimal(metric_value),
      _meta: { ...meta, statement_version_id },
    }));
    return { ...pageOf(items, total, input.page, input.page_size), status: 'ready' as const, ...head, snapshot_hash: snapshot.snapshot_hash };
  },
});

export const MODELING_TOOLS = [modelingPitSnapshot, modelingPeriods, modelingTtm, modelingGrowth, modelingRatios, modelingValuationInputs];
