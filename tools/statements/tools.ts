import { z } from 'zod';
import { VersionKeyOut } from '../../api/version-ref.ts';
import { splitRecastsOfVersions } from '../../db/restatement-read.ts';
import { availablePeriods, metricSeries, statementVersions } from '../../db/statement-read.ts';
import { latestVersionId, metricSeriesOf, revisionsOf, versionById } from './queries.ts';
import { byCatalogOrder, canonicalMetric } from '../../domain/catalog/index.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool } from '../../api/define-tool.ts';
import {
  AsOfDate,
  Cik,
  CikOut,
  dataEnvelope,
  DecimalString,
  FiscalPeriodParam,
  FiscalYear,
  PageParams,
  pageOf,
  paginated,
  StatementTypeParam,
  Ticker,
} from '../../api/schemas.ts';
import { SplitRecastOut, splitRecastOut } from '../../api/restatement-shapes.ts';
import { FigureProvenance, StatementVersionOut, versionOut, viewOf } from '../../api/statement-shapes.ts';
import { CanonicalMetricParam, companyOf, FactViewParams, factViewOf } from '../../api/params.ts';
import { QUARTERS } from '../../domain/statements/types.ts';
import { versionPayloadsOf } from '../../api/version-payloads.ts';
import { companyVersionsOf } from '../../api/company-versions.ts';
import { CoherenceOut, coherenceMarks, coherenceOf, marksDigest } from '../../api/coherence.ts';
import { adjustFigure, SplitAdjustedParam, SplitAdjustmentOut, stockSplitsOf } from '../../api/split-adjustment.ts';
import { isAdditiveFlow } from '../../domain/statements/coherence.ts';
import { annotateVersion, splitContextOf } from '../../api/statement-annotations.ts';
import type { VersionRow } from '../../db/statement-versions.ts';

/** No version of the statement (filed by the date): 404 naming the most recent periods on record. */
function noStatement(identity: { cik: string; statement_type: string; fiscal_year: number; fiscal_period: string }, asOf: string | undefined, have: { fiscal_year: number; fiscal_period: string }[]): ServiceError {
  const listed = have.map((p) => `${p.fiscal_year} ${p.fiscal_period}`).join(', ');
  return new ServiceError(
    'NOT_FOUND',
    `No ${identity.statement_type} for CIK ${identity.cik} fiscal ${identity.fiscal_year} ${identity.fiscal_period}${asOf ? ` filed by ${asOf}` : ''}. ` +
      (listed ? `Most recent periods on record: ${listed}.` : 'No statements of this type are on record for the company; coverage_company (HTTP: /v1/coverage/companies/{cik}) tells whether that is a gap.'),
    { ...identity, as_of_date: asOf ?? null },
  );
}

const Point = z.object({
  cik: CikOut,
  metric: z.string(),
  value: DecimalString,
  unit: z.string(),
  period_start: z.string().nullable(),
  period_end: z.string(),
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  statement_type: StatementTypeParam,
  ...VersionKeyOut.shape,
  value_origin: z.enum(['SOURCE', 'DERIVED']),
  filing_date: z.string().describe('SEC filing date of the version the value comes from'),
  coherence: CoherenceOut.nullable()
    .optional()
    .describe("on a money flow's quarter or year: null where the fiscal year's four served quarters add up to its served year (or not all five are served), else why not; absent for other metrics"),
  split_adjustment: SplitAdjustmentOut.optional().describe('with split_adjusted=true, on a per-share value or share count restated to the latest split basis (value is the restated one)'),
  provenance: z
    .object({
      ...FigureProvenance,
      filing_type: z.string().describe('form of the source filing (source_accession)'),
      filing_date: z.string().describe('SEC filing date of the source filing (source_accession), which may precede the version carrying the value'),
      accepted_at: z.string().nullable(),
    })
    .optional()
    .describe('present with include_provenance=true'),
});

export const metricTimeSeries = defineTool({
  name: 'edgar.metric_time_series',
  title: 'Time series of one canonical metric',
  description:
    'How did one figure of a company move over time? One point per fiscal period for a canonical metric (REVENUE, NET_INCOME, TOTAL_ASSETS ...; names from metrics_definitions), oldest first, from the latest statement versions. ' +
    'as_of_date gives the values known on that date, as_reported=true the values as first reported (they combine). period_type annual (FY) or quarterly (Q1-Q4; Q4 and cash-flow quarters are derived, value_origin DERIVED); both when omitted. ' +
    'include_provenance=true adds the source accession and XBRL tag of each point. Takes a CIK: call companies_resolve first.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/metrics/{metric}/time-series' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    cik: Cik,
    metric: CanonicalMetricParam,
    period_type: z.enum(['annual', 'quarterly']).optional().describe('annual (FY) or quarterly (Q1-Q4); both when omitted'),
    fiscal_year_from: FiscalYear.optional(),
    fiscal_year_to: FiscalYear.optional(),
    fiscal_period: FiscalPeriodParam.optional(),
    statement_type: StatementTypeParam.optional().describe("must be the metric's own statement type when given"),
    include_provenance: z.boolean().default(false).describe('add accession, tag, mapping and correction detail to each point'),
    as_of_date: AsOfDate.optional(),
    as_reported: z.boolean().default(false).describe('values as first reported (version 1 of each period)'),
    split_adjusted: SplitAdjustedParam,
    ...PageParams,
  }),
  output: paginated(Point),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const metric = canonicalMetric(input.metric)!;
    if (input.statement_type && input.statement_type !== metric.statement_type) {
      throw new ServiceError('VALIDATION_ERROR', `${metric.metric} is a ${metric.statement_type} metric; drop statement_type or pass ${metric.statement_type}.`, {
        metric: metric.metric,
        statement_type: metric.statement_type,
      });
    }
    checkYearRange(input.fiscal_year_from, input.fiscal_year_to);
    const periods = periodFilter(input.period_type, input.fiscal_period);
    const filter = {
      cik: input.cik,
      statement_type: metric.statement_type,
      metric: metric.metric,
      fiscal_periods: periods,
      fiscal_year_from: input.fiscal_year_from ?? null,
      fiscal_year_to: input.fiscal_year_to ?? null,
    };
    const visibility = { as_of_date: input.as_of_date ?? null, as_reported: input.as_reported };
    const page = { limit: input.page_size, offset: (input.page - 1) * input.page_size };
    // the company's versions in memory when the read caches are on (api/company-versions.ts)
    const index = await companyVersionsOf(services, input.cik);
    const { total, rows } = index
      ? await metricSeriesOf(services.sql, index, filter, visibility, page, input.include_provenance || input.split_adjusted)
      : await metricSeries(services.sql, filter, visibility, page);
    const [marks, splits] = await Promise.all([
      isAdditiveFlow(metric.metric) ? coherenceMarks(services.sql, input.cik, metric.statement_type, rows.map((r) => r.fiscal_year), visibility, index) : null,
      input.split_adjusted ? stockSplitsOf(services.sql, input.cik) : null,
    ]);
    const items = rows.map((r) => {
      const adjusted = splits === null ? null : adjustFigure(r.figure.value, r.figure.unit, r.source_filing_date ?? r.filing_date, splits, visibility.as_of_date);
      return {
      cik: r.cik,
      metric: metric.metric,
      value: wireDecimal(adjusted?.value ?? r.figure.value),
      unit: r.figure.unit,
      period_start: r.figure.period_start,
      period_end: r.figure.period_end,
      fiscal_year: r.fiscal_year,
      fiscal_period: r.fiscal_period,
      statement_type: r.statement_type,
      statement_version_id: r.statement_version_id,
      version_sequence: r.version_sequence,
      value_origin: r.figure.value_origin,
      filing_date: r.filing_date,
      ...(marks !== null ? { coherence: coherenceOf(marks, r.fiscal_year, r.fiscal_period, metric.metric) ?? null } : {}),
      ...(adjusted !== null ? { split_adjustment: adjusted.adjustment } : {}),
      ...(input.include_provenance
        ? {
            provenance: {
              source_accession: r.figure.source_accession,
              source_xbrl_concept: r.figure.source_xbrl_concept,
              mapping_type: r.figure.mapping_type,
              selection_rule: r.figure.selection_rule,
              value_origin: r.figure.value_origin,
              correction_rule: r.figure.correction_rule,
              as_filed_value: r.figure.as_filed_value === null ? null : wireDecimal(r.figure.as_filed_value),
              as_filed_concept: r.figure.as_filed_concept,
              calculation_steps: r.figure.calculation_steps?.map((s) => ({ ...s, value: wireDecimal(s.value) })) ?? null,
              // the filing the value was read from, which may be older than the version carrying it
              filing_type: r.source_form ?? r.form,
              filing_date: r.source_filing_date ?? r.filing_date,
              accepted_at: r.source_filing_date === null ? r.accepted_at : r.source_accepted_at,
            },
          }
        : {}),
      };
    });
    return pageOf(items, total, input.page, input.page_size);
  },
});

function checkYearRange(from: number | undefined, to: number | undefined): void {
  if (from !== undefined && to !== undefined && from > to) {
    throw new ServiceError('VALIDATION_ERROR', `fiscal_year_from (${from}) is after fiscal_year_to (${to}).`, { fiscal_year_from: from, fiscal_year_to: to });
  }
}

function periodFilter(type: 'annual' | 'quarterly' | undefined, period: string | undefined): string[] | null {
  const ofType = type === 'annual' ? ['FY'] : type === 'quarterly' ? [...QUARTERS] : null;
  if (!period) return ofType;
  if (ofType && !ofType.includes(period)) {
    throw new ServiceError('VALIDATION_ERROR', `fiscal_period ${period} is not a ${type} period.`, { period_type: type, fiscal_period: period });
  }
  return [period];
}

const HistoryEntry = z.object({
  ...VersionKeyOut.shape,
  source_accession: z.string(),
  filing_type: z.string(),
  filing_date: z.string(),
  revised_metrics: z.array(
    z.object({ metric: z.string(), old_value: DecimalString, new_value: DecimalString, difference: DecimalString }),
  ).describe('metrics whose value this version revised; empty for version 1'),
  split_recast_metrics: z
    .array(SplitRecastOut.pick({ metric: true, old_value: true, new_value: true, split_ratio: true }))
    .describe("per-share figures and share counts this version told again on a stock split's new share basis (split_ratio: new shares per old, as the filer tagged it): not revisions"),
});

export const statementsNormalized = defineTool({
  name: 'statements.normalized',
  title: 'Normalized statement (latest version)',
  description:
    'What does one statement of a company say? The latest version of one statement (cik or ticker + statement_type + fiscal_year + fiscal_period, the filer\'s own fiscal labels) with its figures and the accounting-identity checks ' +
    '(normalized_payload._meta.identity, e.g. assets = liabilities + equity). metrics keeps only the named figures. Figures are compact on the tool server (value, unit, period); compact=false adds each one\'s provenance (source accession, XBRL tag, corrections). ' +
    'as_of_date gives the version known on that date; include_version_history=true adds every earlier version and what each changed. For one metric over many years use edgar_metric_time_series.',
  http: { method: 'GET', path: '/v1/fundamentals/normalized-statements' },
  tool: true,
  listedAs: 'spec',
  plan: 'free',
  input: z.object({
    cik: Cik.optional(),
    ticker: Ticker.optional(),
    statement_type: StatementTypeParam,
    fiscal_year: FiscalYear,
    fiscal_period: FiscalPeriodParam,
    include_version_history: z.boolean().default(false),
    as_of_date: AsOfDate.optional(),
    split_adjusted: SplitAdjustedParam,
    ...FactViewParams,
  }),
  output: dataEnvelope(StatementVersionOut.extend({ version_history: z.array(HistoryEntry).optional() })),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    for (const m of input.metrics ?? []) {
      const own = canonicalMetric(m)!.statement_type;
      if (own !== input.statement_type) throw new ServiceError('VALIDATION_ERROR', `${m} is a ${own} metric; statement_type is ${input.statement_type}.`, { metric: m, statement_type: own });
    }
    const cik = await companyOf(ctx, input);
    const identity = { cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
    const visibility = { as_of_date: input.as_of_date ?? null, as_reported: false };
    const view = factViewOf(ctx, input);
    // the company's versions in memory when the read caches are on (api/company-versions.ts), and
    // the fiscal year's quarters against its year as this read sees them (judged once per index)
    const index = await companyVersionsOf(ctx.services, cik);
    const coherence = await coherenceMarks(ctx.services.sql, cik, input.statement_type, [input.fiscal_year], visibility, index);
    const shaped = async (row: VersionRow) =>
      viewOf(annotateVersion(versionOut(row, true, byCatalogOrder), coherence, input.split_adjusted ? await splitContextOf(ctx.services.sql, cik, Object.values(row.figures), visibility.as_of_date) : null), view);
    if (!input.include_version_history) {
      // the hot read: the latest id (from the company's versions in memory), then its answer
      // prepared once per view (versions never change)
      const id = index ? (index.latestOf(identity, visibility.as_of_date)?.statement_version_id ?? null) : await latestVersionId(ctx.services.sql, identity, visibility);
      if (id !== null) {
        const payloads = versionPayloadsOf<{ data: ReturnType<typeof versionOut> }>(ctx.services);
        // a metrics selection or split-adjusted figures are built per request; the two whole views
        // (compact or full) are kept, per the fiscal year's coherence marks they carry
        const key = view.metrics || input.split_adjusted ? null : `${id}|${view.compact ? 'compact' : 'full'}|${marksDigest(coherence, input.fiscal_year)}`;
        const hit = key === null ? undefined : payloads.get(key);
        if (hit) return hit;
        const fresh = await versionById(ctx.services.sql, id);
        if (fresh) {
          const answer = { data: await shaped(fresh) };
          return key === null ? answer : payloads.set(key, answer);
        }
      } else if (index) throw noStatement(identity, input.as_of_date, index.periodsOf(input.statement_type, 12));
    }
    // with history, or nothing visible: the full read (it also says what exists when nothing does)
    const versions = await statementVersions(ctx.services.sql, identity, visibility);
    const latest = versions[versions.length - 1];
    if (!latest) throw noStatement(identity, input.as_of_date, index ? index.periodsOf(input.statement_type, 12) : await availablePeriods(ctx.services.sql, cik, input.statement_type));
    const out = await shaped(latest);
    if (!input.include_version_history) return { data: out };
    const ids = versions.map((v) => v.statement_version_id);
    const [revisions, recasts] = await Promise.all([revisionsOf(ctx.services.sql, ids), splitRecastsOfVersions(ctx.services.sql, ids)]);
    const history = versions.map((v) => ({
      statement_version_id: v.statement_version_id,
      version_sequence: v.version_sequence,
      source_accession: v.accession,
      filing_type: v.form,
      filing_date: v.filing_date,
      revised_metrics: revisions
        .filter((r) => r.statement_version_id === v.statement_version_id)
        .map((r) => ({ metric: r.metric, old_value: wireDecimal(r.old_value), new_value: wireDecimal(r.new_value), difference: wireDecimal(r.difference) })),
      split_recast_metrics: recasts
        .filter((r) => r.statement_version_id === v.statement_version_id)
        .map(splitRecastOut)
        .map(({ metric, old_value, new_value, split_ratio }) => ({ metric, old_value, new_value, split_ratio })),
    }));
    return { data: { ...out, version_history: history } };
  },
});

export const STATEMENT_TOOLS = [statementsNormalized, metricTimeSeries];
