import { z } from 'zod';
import { statementVersions } from '../../db/statement-read.ts';
import type { VersionRow } from '../../db/statement-versions.ts';
import { derivedMetric } from '../../domain/catalog/index.ts';
import type { StatementIdentity, StatementLabel } from '../../domain/statements/key.ts';
import { STATEMENT_TYPES } from '../../domain/statements/types.ts';
import { dec, wireDecimal } from '../../domain/decimal.ts';
import {
  compareValues,
  derivedReading,
  evaluateFormula,
  isMarketDependent,
  multipleFactor,
  periodDays,
  VALUATION_MULTIPLES,
  wireRatio,
} from '../../domain/restatement-analysis.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool, type ToolContext } from '../../api/define-tool.ts';
import { Cik, dataEnvelope, DecimalString, StatementTypeParam, Ticker, VersionSequenceParam } from '../../api/schemas.ts';
import {
  byCatalogOrder,
  ChangeStatusOut,
  checkMetricStatement,
  FiledMetricParam,
  IdentityOut,
  IdentityParams,
  lineageOf,
  valueOn,
  versionRef,
  VersionRefOut,
} from '../../api/restatement-shapes.ts';
import { versionNotFound } from '../../api/version-ref.ts';
import { companyOf } from '../../api/params.ts';

/**
 * Version analytics for one metric (drift from the original, delta to a chosen version) and the
 * model impact of a restatement: derived ratios and price-free valuation sensitivity recomputed on
 * every version of a statement.
 */

const MetricInput = {
  cik: Cik.optional(),
  ticker: Ticker.optional(),
  ...IdentityParams,
  metric: FiledMetricParam,
};

const VersionValue = VersionRefOut.extend({ value: DecimalString.nullable().describe('the metric on this version; null when the version does not report it') });

const MetricComparison = {
  ...IdentityOut,
  metric: z.string(),
  unit: z.string().nullable().describe('null when no version reports the metric'),
  versions_count: z.number().int(),
  status: ChangeStatusOut,
  moved: z.boolean().describe('the value differs between the two versions compared (CHANGED, ADDED or REMOVED)'),
};

function valueOnVersion(v: VersionRow, versions: VersionRow[], metric: string) {
  return { ...versionRef(v, versions), value: valueOn(v, metric) };
}

const unitOf = (versions: VersionRow[], metric: string) => versions.map((v) => v.figures[metric]?.unit).find((u) => u !== undefined) ?? null;
const isMove = (s: string) => s === 'CHANGED' || s === 'ADDED' || s === 'REMOVED';

export const metricDrift = defineTool({
  name: 'analysis.metric_drift',
  title: 'Metric drift: original against latest',
  description:
    'How far one canonical metric of a statement (cik or ticker + statement_type + fiscal_year + fiscal_period) moved from its original value (version 1, as first reported) to the latest version, ' +
    'with the value on every version in between. A period never revised answers 200 with nothing moved (drift 0, versions_count 1). Market-dependent metrics (MARKET_CAP, ENTERPRISE_VALUE ...) are refused with 400.',
  http: { method: 'GET', path: '/v1/analysis/metric-drift' },
  tool: false,
  plan: 'free',
  input: z.object(MetricInput),
  output: dataEnvelope(
    z.object({
      ...MetricComparison,
      original: VersionValue.describe('version 1'),
      latest: VersionValue.describe('the latest version'),
      drift: DecimalString.nullable().describe('latest value - original value; "0.000000" when nothing moved; null when either side lacks the metric'),
      relative_drift: DecimalString.nullable().describe('drift / |original value|, six fraction digits; null when the original is zero or missing'),
      revisions_count: z.number().int().describe('versions on which the value changed'),
      path: z
        .array(z.object({ version_sequence: z.number().int(), statement_version_id: z.string(), source_accession: z.string(), filing_date: z.string(), value: DecimalString.nullable(), change_from_previous: DecimalString.nullable() }))
        .describe('the value on every version, oldest first'),
    }),
  ),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const { id, versions } = await metricLineage(ctx, input);
    const first = versions[0]!;
    const last = versions[versions.length - 1]!;
    const change = compareValues(valueOn(first, input.metric), valueOn(last, input.metric));
    const path = versions.map((v, i) => ({
      version_sequence: v.version_sequence,
      statement_version_id: v.statement_version_id,
      source_accession: v.accession,
      filing_date: v.filing_date,
      value: valueOn(v, input.metric),
      change_from_previous: i === 0 ? null : compareValues(valueOn(versions[i - 1]!, input.metric), valueOn(v, input.metric)).difference,
    }));
    const revisions = versions.filter((v, i) => i > 0 && isMove(compareValues(valueOn(versions[i - 1]!, input.metric), valueOn(v, input.metric)).status)).length;
    return {
      data: {
        ...comparisonHeader(id, versions, input.metric, change.status),
        original: valueOnVersion(first, versions, input.metric),
        latest: valueOnVersion(last, versions, input.metric),
        drift: change.difference,
        relative_drift: change.relative_change,
        revisions_count: revisions,
        path,
      },
    };
  },
});

/** The statement a drift or delta question names, checked against its metric, with every version. */
async function metricLineage(ctx: ToolContext, input: Parameters<typeof companyOf>[1] & { metric: string } & StatementLabel) {
  checkMetricStatement(input.metric, input.statement_type);
  const cik = await companyOf(ctx, input);
  const id = { cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
  return { id, versions: await lineageOf(ctx, id) };
}

/** What drift and version delta both say first: the statement, the metric and whether it moved. */
function comparisonHeader(
  id: StatementIdentity,
  versions: Parameters<typeof unitOf>[0],
  metric: string,
  status: ReturnType<typeof compareValues>['status'],
) {
  return {
    ...id,
    statement_type: id.statement_type,
    fiscal_period: id.fiscal_period,
    metric,
    unit: unitOf(versions, metric),
    versions_count: versions.length,
    status,
    moved: isMove(status),
  };
}

export const versionDelta = defineTool({
  name: 'analysis.version_delta',
  title: 'Version delta: original against a chosen version',
  description:
    'One canonical metric of a statement (cik or ticker + statement_type + fiscal_year + fiscal_period) on its original version (1) against a comparison version: compare_version_sequence, the latest when omitted. ' +
    'Gives both values, difference (comparison - original) and relative change. A sequence the statement does not have answers 404 listing its versions; market-dependent metrics are refused with 400.',
  http: { method: 'GET', path: '/v1/analysis/version-delta' },
  tool: false,
  plan: 'free',
  input: z.object({
    ...MetricInput,
    compare_version_sequence: VersionSequenceParam.optional().describe('version to compare with the original (1 compares the original with itself); the latest when omitted'),
  }),
  output: dataEnvelope(
    z.object({
      ...MetricComparison,
      compare_version_sequence: z.number().int(),
      original: VersionValue.describe('version 1'),
      comparison: VersionValue.describe('the version compared with the original'),
      difference: DecimalString.nullable().describe('comparison value - original value; null when either side lacks the metric'),
      relative_change: DecimalString.nullable().describe('difference / |original value|, six fraction digits; null when the original is zero or missing'),
    }),
  ),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const { id, versions } = await metricLineage(ctx, input);
    const first = versions[0]!;
    const target = input.compare_version_sequence === undefined ? versions[versions.length - 1]! : versions.find((v) => v.version_sequence === input.compare_version_sequence);
    if (!target) throw versionNotFound(id, versions, { field: 'compare_version_sequence', value: input.compare_version_sequence! });
    const change = compareValues(valueOn(first, input.metric), valueOn(target, input.metric));
    return {
      data: {
        ...comparisonHeader(id, versions, input.metric, change.status),
        compare_version_sequence: target.version_sequence,
        original: valueOnVersion(first, versions, input.metric),
        comparison: valueOnVersion(target, versions, input.metric),
        difference: change.difference,
        relative_change: change.relative_change,
      },
    };
  },
});

const Unavailable = z.enum(['MISSING_INPUT', 'DENOMINATOR_ZERO', 'NON_POSITIVE_VALUE', 'MARKET_DATA_NOT_PERSISTED']);

const DerivedOut = z.object({
  metric: z.string(),
  formula: z.string(),
  unit_type: z.string().describe('ratio (a fraction, 0.45 = 45%), times, days, currency or per_share'),
  value: DecimalString.nullable().describe('computed on this version; six fraction digits at most; null with a reason when it cannot be'),
  original_value: DecimalString.nullable().describe('the same metric computed on version 1'),
  change_from_original: DecimalString.nullable().describe('value - original_value'),
  reason: Unavailable.nullable().describe('why value is null: MISSING_INPUT (missing_inputs names it), DENOMINATOR_ZERO'),
  missing_inputs: z.array(z.string()),
});

const MultipleOut = z.object({
  multiple: z.string().describe('e.g. PRICE_TO_EARNINGS, EV_TO_EBITDA'),
  driver: z.string().describe('the filed (or derived) figure in the denominator of the multiple'),
  driver_value: DecimalString.nullable(),
  original_driver_value: DecimalString.nullable(),
  factor: DecimalString
    .nullable()
    .describe('original driver / this version\'s driver: at an unchanged share price or enterprise value, this version\'s multiple = the multiple on the original figures x factor (0.79 = the multiple is 21% lower)'),
  reason: Unavailable.nullable().describe('why factor is null: MISSING_INPUT, or NON_POSITIVE_VALUE when a driver is zero or negative'),
});

const MarketOut = z.object({
  metric: z.string(),
  value: z.null().describe('always null: the service persists no market data'),
  reason: z.literal('MARKET_DATA_NOT_PERSISTED'),
});

const ImpactVersion = VersionRefOut.extend({
  figures: z.record(z.string(), DecimalString).describe('every figure of this statement version, metric -> value'),
  changes_from_original: z
    .array(z.object({ metric: z.string(), original_value: DecimalString.nullable(), value: DecimalString.nullable(), status: ChangeStatusOut, difference: DecimalString.nullable(), relative_change: DecimalString.nullable() }))
    .describe('figures that differ from version 1 (empty for version 1)'),
  derived: z.array(DerivedOut).describe('derived catalog metrics that read a figure of this statement, recomputed on this version'),
  valuation_sensitivity: z.array(MultipleOut).describe('how valuation multiples move with the restated figures at an unchanged market price (needs no market data)'),
  market_dependent: z.array(MarketOut).optional().describe('present with allow_market_inputs=true: market-dependent outputs, each null because no market data is persisted'),
});

const MARKET_OUTPUTS = ['MARKET_CAP', 'ENTERPRISE_VALUE', ...VALUATION_MULTIPLES.map((m) => m.multiple)];

export const modelImpact = defineTool({
  name: 'analysis.model_impact',
  title: 'Model impact of restatements across the version lineage',
  description:
    'Valuation and sensitivity across every version of one statement (cik or ticker + statement_type + fiscal_year + fiscal_period): for each version its figures, the figures that differ from the original, ' +
    'the derived catalog metrics (margins, returns, leverage, cash conversion ...) recomputed on it with their change from the original, and price-free valuation sensitivity (the factor by which P/E, P/S, P/B, P/FCF, EV/EBITDA and EV/Revenue move at an unchanged market price). ' +
    'Inputs from the other statement types of the same period are held at their latest version (held_inputs), so only this statement\'s restatement moves the results; balances are period-end, not averaged. ' +
    'The service persists no market data: with allow_market_inputs=true, market-dependent outputs (MARKET_CAP, ENTERPRISE_VALUE and the multiples) are listed with value null and reason MARKET_DATA_NOT_PERSISTED; ' +
    'allow_market_inputs=true is required whenever a persisted market-dependent metric is in the lineage (400 otherwise).',
  http: { method: 'GET', path: '/v1/analysis/model-impact' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik.optional(),
    ticker: Ticker.optional(),
    ...IdentityParams,
    allow_market_inputs: z.boolean().default(false).describe('include market-dependent outputs (null: no market data is persisted); required when the lineage holds a market-dependent metric'),
  }),
  output: dataEnvelope(
    z.object({
      ...IdentityOut,
      versions_count: z.number().int(),
      restated: z.boolean().describe('a later version changed a figure of version 1 (a figure only added later is no restatement)'),
      held_inputs: z
        .array(z.object({ statement_type: StatementTypeParam, fiscal_period: z.string(), statement_version_id: z.string(), version_sequence: z.number().int(), source_accession: z.string() }))
        .describe('versions of the other statement types of the period whose figures feed cross-statement formulas, held fixed across the lineage'),
      market_inputs: z.object({
        allowed: z.boolean().describe('allow_market_inputs as asked'),
        persisted: z.boolean().describe('always false: no market data is stored, so market-dependent values are never computed'),
        note: z.string(),
      }),
      versions: z.array(ImpactVersion).describe('oldest first'),
    }),
  ),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const cik = await companyOf(ctx, input);
    const id = { cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
    const versions = await lineageOf(ctx, id);
    const marketInLineage = [...new Set(versions.flatMap((v) => Object.keys(v.figures)).filter(isMarketDependent))];
    if (marketInLineage.length > 0 && !input.allow_market_inputs) {
      throw new ServiceError('VALIDATION_ERROR', `The version lineage holds market-dependent metrics (${marketInLineage.join(', ')}); pass allow_market_inputs=true to include them.`, {
        market_dependent_metrics: marketInLineage,
      });
    }
    // the other statements of the period, at their latest version (a balance sheet has no Q4: the year-end one stands in)
    const held: VersionRow[] = [];
    for (const type of STATEMENT_TYPES.filter((t) => t !== id.statement_type)) {
      const period = type === 'BALANCE_SHEET' && id.fiscal_period === 'Q4' ? 'FY' : id.fiscal_period;
      const rows = await statementVersions(ctx.services.sql, { cik, statement_type: type, fiscal_year: id.fiscal_year, fiscal_period: period }, { as_of_date: null, as_reported: false });
      if (rows.length > 0) held.push(rows[rows.length - 1]!);
    }
    const heldValues: Record<string, string> = {};
    for (const h of held) for (const [m, f] of Object.entries(h.figures)) heldValues[m] ??= f.value;
    const own = new Set(versions.flatMap((v) => Object.keys(v.figures)));
    const formulas = derivedReading(own);
    const computed = versions.map((v) => {
      const values: Record<string, string> = { ...heldValues };
      for (const [m, f] of Object.entries(v.figures)) values[m] = f.value;
      const days = periodDays(v.fiscal_period, v.period_start, v.period_end);
      const derived = new Map(formulas.map((d) => [d.metric, evaluateFormula(d.formula!, values, days)]));
      const driver = (name: string): string | null => {
        if (values[name] !== undefined) return values[name]!;
        const r = derived.get(name) ?? (derivedMetric(name) ? evaluateFormula(derivedMetric(name)!.formula!, values, days) : null);
        return r?.value ? r.value.toFixed() : null;
      };
      return { v, derived, driver };
    });
    const base = computed[0]!;
    const out = computed.map(({ v, derived, driver }) => {
      const figures: Record<string, string> = {};
      for (const m of Object.keys(v.figures).sort(byCatalogOrder)) figures[m] = wireDecimal(v.figures[m]!.value);
      const names = [...new Set([...Object.keys(v.figures), ...Object.keys(base.v.figures)])].sort(byCatalogOrder);
      const changes = names
        .map((metric) => ({ metric, original_value: valueOn(base.v, metric), value: valueOn(v, metric), ...compareValues(valueOn(base.v, metric), valueOn(v, metric)) }))
        .filter((c) => isMove(c.status));
      return {
        ...versionRef(v, versions),
        figures,
        changes_from_original: changes,
        derived: formulas.map((d) => {
          const r = derived.get(d.metric)!;
          const o = base.derived.get(d.metric)!;
          const value = r.value ? wireRatio(r.value) : null;
          const original = o.value ? wireRatio(o.value) : null;
          return {
            metric: d.metric,
            formula: d.formula!,
            unit_type: d.unit_type,
            value,
            original_value: original,
            change_from_original: value !== null && original !== null ? wireRatio(r.value!.minus(o.value!)) : null,
            reason: r.reason,
            missing_inputs: r.missing_inputs,
          };
        }),
        valuation_sensitivity: VALUATION_MULTIPLES.map((m) => {
          const now = driver(m.driver);
          const then = base.driver(m.driver);
          const f = multipleFactor(then, now);
          return {
            multiple: m.multiple,
            driver: m.driver,
            driver_value: now === null ? null : wireRatio(dec(now)),
            original_driver_value: then === null ? null : wireRatio(dec(then)),
            factor: f.factor,
            reason: f.reason,
          };
        }),
        ...(input.allow_market_inputs ? { market_dependent: MARKET_OUTPUTS.map((metric) => ({ metric, value: null, reason: 'MARKET_DATA_NOT_PERSISTED' as const })) } : {}),
      };
    });
    return {
      data: {
        ...id,
        statement_type: id.statement_type,
        fiscal_period: id.fiscal_period,
        versions_count: versions.length,
        // a later version that only added figures told first later revises nothing
        restated: out.some((v) => v.changes_from_original.some((c) => c.status === 'CHANGED')),
        held_inputs: held.map((h) => ({
          statement_type: h.statement_type,
          fiscal_period: h.fiscal_period,
          statement_version_id: h.statement_version_id,
          version_sequence: h.version_sequence,
          source_accession: h.accession,
        })),
        market_inputs: {
          allowed: input.allow_market_inputs,
          persisted: false,
          note: input.allow_market_inputs
            ? 'No market data (share prices, market values) is persisted: market-dependent outputs are listed with value null. valuation_sensitivity gives how each multiple moves at an unchanged price without needing one.'
            : 'Market-dependent outputs are left out (allow_market_inputs=false); no market data is persisted in any case. valuation_sensitivity needs no price.',
        },
        versions: out,
      },
    };
  },
});

export const RESTATEMENT_ANALYSIS_TOOLS = [metricDrift, versionDelta, modelImpact];
