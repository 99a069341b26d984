/**
 * The screens area: point-in-time screens over every company and side-by-side comparisons of
 * named ones. Both read the precomputed rows of screen_rows (tools/screens/queries.ts): the
 * metrics each company's periods had as known on a date, computed at ingestion by the modeling
 * and derived-metric functions (domain/screens/rows.ts), so nothing filed after as_of_date is
 * seen and every value names the statement versions it comes from.
 */
import { z } from 'zod';
import { Decimal } from 'decimal.js';
import { defineTool, type ToolContext } from '../../api/define-tool.ts';
import { pastBoundary } from '../../api/params.ts';
import { Cik, FiscalYear, IsoDate, PageParams, pageOf, paginated, Ticker } from '../../api/schemas.ts';
import { resolveTicker } from '../../db/identity.ts';
import { dec, wireDecimal } from '../../domain/decimal.ts';
import { isAmountMetric } from '../../domain/screens/rows.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { comparison, screen, type ScreenHit, type Slot } from './queries.ts';
import {
  CompareItem, Condition, EXCLUSION_REASONS, Excluded, MetricRef, PERIOD_KINDS, PeriodInput, ScreenItem, TTM_METRICS, UniverseFilters, YEAR_METRICS,
} from './shapes.ts';

const MAX_CONDITIONS = 10;
const MAX_COLUMNS = 20;
const MAX_COMPARED = 10;

type PeriodIn = z.output<typeof PeriodInput>;

function slotOf(period: PeriodIn): Slot {
  if (typeof period === 'object') return { kind: 'period', fiscal_year: period.fiscal_year };
  return { kind: 'latest', basis: period === 'latest_annual' ? 'FY' : period === 'latest_quarter' ? 'Q' : 'TTM' };
}

/** Every named metric must be served for the period kind: the trailing-twelve-month names with ttm, the others otherwise. */
function checkNames(slot: Slot, named: readonly [field: string, metric: string][]): void {
  const ttm = slot.kind === 'latest' && slot.basis === 'TTM';
  const accepted = new Set(ttm ? TTM_METRICS : YEAR_METRICS);
  const wrong = named.filter(([, m]) => !accepted.has(m));
  if (wrong.length === 0) return;
  throw new ServiceError(
    'VALIDATION_ERROR',
    `${wrong.map(([f, m]) => `${f}: ${m}`).join('; ')} ${wrong.length === 1 ? 'is' : 'are'} not served for period ${ttm ? 'ttm' : 'of a fiscal year or quarter'}; accepted names: ${[...accepted].join(', ')}`,
    { fields: wrong.map(([f]) => f), metrics: wrong.map(([, m]) => m) },
  );
}

function asOfOf(ctx: ToolContext, date: string | undefined): string {
  const now = ctx.services.now();
  return date === undefined ? now.toISOString().slice(0, 10) : pastBoundary(date, now);
}

function headOf(r: ScreenHit) {
  return {
    cik: r.cik,
    company_id: r.company_id,
    ticker: r.ticker,
    company_name: r.company_name,
    sic: r.sic,
    fiscal_year: r.fiscal_year,
    fiscal_period: r.fiscal_period as 'FY',
    period_start: r.period_start,
    period_end: r.period_end,
    filing_date: r.filing_date,
    currency: r.currency,
    accounting_standard: r.accounting_standard as 'US_GAAP',
    statement_version_ids: r.sources.map((s) => s.statement_version_id),
    sources: r.sources.map((s) => ({ ...s, fiscal_period: s.fiscal_period as 'FY' })),
  };
}

const PERIOD_NOTE =
  'period: latest_annual (default), latest_quarter, ttm (TTM names only: REVENUE, NET_INCOME, FREE_CASH_FLOW, ...) or {"fiscal_year": 2023}. ' +
  'as_of_date (default today): only versions knowable that day.';

export const fundamentalsScreen = defineTool({
  name: 'fundamentals.screen',
  title: 'Point-in-time screen over every company',
  description:
    'Companies meeting every condition on a date, e.g. GROSS_MARGIN gt "0.5" and REVENUE_GROWTH_YOY gt "0.2" (fractions, decimal strings). ' +
    `${PERIOD_NOTE} Rows name their statement versions, ordered by sort then CIK; excluded counts companies not judged, by reason.`,
  http: { method: 'POST', path: '/v1/fundamentals/screen' },
  tool: true,
  listedAs: 'extension',
  plan: 'growth',
  input: z.object({
    conditions: z.array(Condition).min(1).max(MAX_CONDITIONS),
    period: PeriodInput,
    as_of_date: IsoDate.optional().describe('default today'),
    ...UniverseFilters,
    sort: z.object({ metric: MetricRef, direction: z.enum(['asc', 'desc']).default('desc') }).strict().optional(),
    metrics: z.array(MetricRef).max(MAX_COLUMNS).optional().describe('extra columns'),
    ...PageParams,
  }),
  output: paginated(ScreenItem).extend({
    as_of_date: IsoDate,
    excluded: Excluded,
  }),
  handler: async (ctx, input) => {
    const asOf = asOfOf(ctx, input.as_of_date);
    const slot = slotOf(input.period);
    checkNames(slot, [
      ...input.conditions.map((c, i): [string, string] => [`conditions.${i}.metric`, c.metric]),
      ...(input.sort ? [['sort.metric', input.sort.metric] as [string, string]] : []),
      ...(input.metrics ?? []).map((m, i): [string, string] => [`metrics.${i}`, m]),
    ]);
    const columns = [...new Set([...input.conditions.map((c) => c.metric), ...(input.sort ? [input.sort.metric] : []), ...(input.metrics ?? [])])];
    const q = {
      slot,
      as_of: asOf,
      universe: { sic: input.sic ?? null, exchange: input.exchange ?? null, accounting_standard: input.accounting_standard ?? null, ciks: await ctx.visibleCompanies() },
      currency: input.currency,
      conditions: input.conditions.map((c) => ({
        metric: c.metric,
        op: c.op,
        low: Array.isArray(c.value) ? c.value[0]! : c.value,
        high: Array.isArray(c.value) ? c.value[1]! : null,
        amount: isAmountMetric(c.metric),
      })),
      sort: input.sort ?? null,
      columns,
      page: { limit: input.page_size, offset: (input.page - 1) * input.page_size },
    };
    const counts = await screen(ctx.services.sql, q);
    const items = counts.items.map((r) => ({
      ...headOf(r),
      metrics: Object.fromEntries(columns.map((m) => [m, r.metrics[m] == null ? null : wireDecimal(r.metrics[m]!)])),
    }));
    const excluded = Object.fromEntries(EXCLUSION_REASONS.map((k) => [k, counts.excluded[k] ?? 0])) as Record<(typeof EXCLUSION_REASONS)[number], number>;
    return { ...pageOf(items, counts.total, input.page, input.page_size), as_of_date: asOf, excluded };
  },
});

/** The median of decimal strings (the mean of the two middle values for an even count); null for none. */
export function medianOf(values: readonly string[]): string | null {
  if (values.length === 0) return null;
  const sorted = values.map((v) => dec(v)).sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(sorted.length / 2);
  const m: Decimal = sorted.length % 2 === 1 ? sorted[mid]! : sorted[mid - 1]!.plus(sorted[mid]!).dividedBy(2);
  return wireDecimal(m.toFixed());
}

/** Competition ranks, highest first: 1 for the highest value, ties share a rank. */
function ranksOf(values: ReadonlyMap<string, string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of values) out.set(k, 1 + [...values.values()].filter((o) => dec(o).gt(dec(v))).length);
  return out;
}

/** ciks or tickers, exactly one list; tickers resolve to today's CIK and are reported to the coverage gate. */
async function namedCompanies(ctx: ToolContext, input: { ciks?: string[] | undefined; tickers?: string[] | undefined }): Promise<{ requested: string; cik: string }[]> {
  const ciks = input.ciks ?? [];
  const tickers = input.tickers ?? [];
  if (ciks.length > 0 && tickers.length > 0) throw new ServiceError('VALIDATION_ERROR', 'Pass ciks or tickers, not both.', { fields: ['ciks', 'tickers'] });
  const count = new Set(ciks.length > 0 ? ciks : tickers).size;
  if (count < 2 || count > MAX_COMPARED) {
    throw new ServiceError('VALIDATION_ERROR', `Compare 2 to ${MAX_COMPARED} different companies (ciks=320193&ciks=789019, or tickers=AAPL&tickers=MSFT); got ${count}.`, { fields: [ciks.length > 0 ? 'ciks' : 'tickers'] });
  }
  if (ciks.length > 0) return [...new Set(ciks)].map((c) => ({ requested: c, cik: c }));
  const out: { requested: string; cik: string }[] = [];
  const unknown: string[] = [];
  for (const t of new Set(tickers)) {
    const row = await resolveTicker(ctx.services.sql, t, null);
    if (row) out.push({ requested: t, cik: row.cik });
    else unknown.push(t);
  }
  if (unknown.length > 0) throw new ServiceError('NOT_FOUND', `No company has ticker ${unknown.join(', ')}. Search names with identity_search (HTTP: /v1/identity/search).`, { tickers: unknown });
  await ctx.reach(out.map((o) => o.cik));
  return out;
}

export const fundamentalsCompare = defineTool({
  name: 'fundamentals.compare',
  title: 'Side-by-side comparison of companies',
  description:
    `2 to ${MAX_COMPARED} companies (ciks or tickers) side by side on 1 to ${MAX_COLUMNS} metrics as known on as_of_date (default today), each value with its rank (1 = highest) and the median of the company's industry (SIC 2-digit prefix). ` +
    'period latest_annual (default), latest_quarter, ttm, or fiscal_year.',
  http: { method: 'GET', path: '/v1/fundamentals/compare' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    ciks: z.array(Cik).max(MAX_COMPARED).optional(),
    tickers: z.array(Ticker).max(MAX_COMPARED).optional(),
    metrics: z.array(MetricRef).min(1).max(MAX_COLUMNS),
    period: z.enum(PERIOD_KINDS).optional(),
    fiscal_year: FiscalYear.optional().describe('instead of period'),
    as_of_date: IsoDate.optional(),
  }),
  output: z.object({ as_of_date: IsoDate, companies: z.array(CompareItem) }),
  companies: (input) => input.ciks ?? [],
  handler: async (ctx, input) => {
    if (input.period !== undefined && input.fiscal_year !== undefined) {
      throw new ServiceError('VALIDATION_ERROR', 'Pass period or fiscal_year, not both.', { fields: ['period', 'fiscal_year'] });
    }
    const asOf = asOfOf(ctx, input.as_of_date);
    const slot = slotOf(input.fiscal_year !== undefined ? { fiscal_year: input.fiscal_year } : (input.period ?? 'latest_annual'));
    const names = [...new Set(input.metrics)];
    checkNames(slot, names.map((m, i): [string, string] => [`metrics.${i}`, m]));
    const named = await namedCompanies(ctx, input);
    const ciks = named.map((n) => n.cik);
    const { heads, rows, peers } = await comparison(ctx.services.sql, ciks, slot, asOf, names, await ctx.visibleCompanies());
    const headBy = new Map(heads.map((h) => [h.cik, h]));
    const missing = ciks.filter((c) => !headBy.has(c));
    if (missing.length > 0) throw new ServiceError('NOT_FOUND', `No company with CIK ${missing.join(', ')}. Search names with identity_search.`, { ciks: missing });
    const rowBy = new Map(rows.map((r) => [r.cik, r]));
    const items = named.map(({ requested, cik }) => {
      const head = headBy.get(cik)!;
      const row = rowBy.get(cik);
      const prefix = head.sic?.slice(0, 2) ?? null;
      const metrics: Record<string, z.input<typeof CompareItem>['metrics'][string]> = {};
      for (const m of names) {
        const value = row?.metrics[m] ?? null;
        const group = peers.filter((p) => p.prefix === prefix && p.metrics[m] !== undefined && (!isAmountMetric(m) || p.currency === row?.currency));
        const values = new Map(rows.filter((r) => r.metrics[m] !== undefined).map((r) => [r.cik, r.metrics[m]!]));
        metrics[m] = {
          value: value === null ? null : wireDecimal(value),
          unavailable: value !== null ? null : row ? (row.unavailable[m] ?? 'NOT_REPORTED') : 'NO_PERIOD_AT_DATE',
          rank: value === null ? null : ranksOf(values).get(cik)!,
          industry_median: row && prefix ? medianOf(group.map((p) => p.metrics[m]!)) : null,
          industry_companies: row && prefix ? group.length : 0,
        };
      }
      const period = row ? headOf(row) : null;
      return {
        requested,
        ...head,
        fiscal_year: period?.fiscal_year ?? null,
        fiscal_period: period?.fiscal_period ?? null,
        period_start: period?.period_start ?? null,
        period_end: period?.period_end ?? null,
        filing_date: period?.filing_date ?? null,
        currency: period?.currency ?? null,
        accounting_standard: period?.accounting_standard ?? null,
        statement_version_ids: period?.statement_version_ids ?? [],
        sources: period?.sources ?? [],
        metrics,
      };
    });
    return { as_of_date: asOf, companies: items };
  },
});

export const SCREEN_TOOLS = [fundamentalsScreen, fundamentalsCompare];

