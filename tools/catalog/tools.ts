import { z } from 'zod';
import {
  CANONICAL_METRICS,
  CANONICAL_METRIC_NAMES,
  definitionOf,
  DERIVED_METRICS,
  derivedMetric,
  METRIC_BUNDLES,
  METRIC_VIEWS,
  publicDefinition,
} from '../../domain/catalog/index.ts';
import { conventionsOf, DERIVED_SCALE } from '../../domain/derived-eval.ts';
import { defineTool, type ToolDefinition } from '../../api/define-tool.ts';
import { dataEnvelope, StatementTypeParam } from '../../api/schemas.ts';

/**
 * The metric catalog as data: canonical definitions, derived metrics with their formulas and
 * period conventions, bundles and views. Static reads; no company is reached.
 */

const DERIVED_NAMES: readonly string[] = DERIVED_METRICS.map((m) => m.metric);

/** Fields of a metric definition, exactly as the spec lists them. */
export const MetricDefinitionOut = z.object({
  metric: z.string().describe('metric name, e.g. REVENUE'),
  display_name: z.string(),
  category: z.string().describe('e.g. REVENUE, EXPENSES, ASSETS, LIABILITIES, EQUITY, OPERATING_ACTIVITIES, PROFITABILITY, LIQUIDITY'),
  statement_type: StatementTypeParam.describe('the statement the metric sits on (for a derived metric, the statement it is classed with)'),
  is_canonical: z.boolean().describe('mapped straight from filer tags'),
  is_derived: z.boolean().describe('computed from canonical metrics by formula'),
  unit_type: z.enum(['currency', 'per_share', 'shares', 'ratio', 'days', 'times']).describe('currency, per_share, shares, ratio (a fraction: 0.45 = 45%), days or times'),
  formula: z.string().nullable().describe('arithmetic over canonical metric names; null for a canonical metric'),
  dependencies: z.array(z.string()).describe('canonical metrics the formula reads; [] for a canonical metric'),
  denominator_zero_behavior: z.string().nullable().describe("'null' when a zero divisor makes the result null; null when the formula divides nothing"),
  missing_input_behavior: z.string().describe('null_if_metric_not_available: a missing input gives null, never zero'),
  market_data_required: z.boolean().describe('needs prices or market capitalization (the service holds no market data)'),
  source_notes: z.string().describe('how the figure is sourced and the sign it carries'),
});

export const metricDefinitions = defineTool({
  name: 'metrics.definitions',
  title: 'Canonical metric definitions',
  description:
    `Which metric names can I ask for? The ${CANONICAL_METRICS.length} canonical metrics in catalog order (income statement, balance sheet, cash flow): name, display name, category, statement and unit. ` +
    'These are the names every statement, panel and metric time series uses; statement_type narrows the list. On the tool server rows are compact unless compact=false (adds formula fields and sourcing notes); ' +
    `metrics_definition explains one metric, canonical or derived (derived names: ${DERIVED_NAMES.join(', ')}).`,
  http: { method: 'GET', path: '/v1/metrics/definitions' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    statement_type: StatementTypeParam.optional().describe('only metrics of this statement'),
    compact: z.boolean().optional().describe('true: metric, display_name, category, statement_type and unit_type only; default true on the tool server, false over HTTP'),
  }),
  output: dataEnvelope(
    z.array(
      MetricDefinitionOut.partial({
        is_canonical: true,
        is_derived: true,
        formula: true,
        dependencies: true,
        denominator_zero_behavior: true,
        missing_input_behavior: true,
        market_data_required: true,
        source_notes: true,
      }),
    ).describe('compact rows leave out is_canonical, is_derived, formula, dependencies, the null rules, market_data_required and source_notes'),
  ),
  handler: async (ctx, input) => {
    const defs = CANONICAL_METRICS.filter((m) => !input.statement_type || m.statement_type === input.statement_type).map(publicDefinition);
    if (!(input.compact ?? ctx.surface === 'mcp')) return { data: defs };
    return { data: defs.map((m) => ({ metric: m.metric, display_name: m.display_name, category: m.category, statement_type: m.statement_type, unit_type: m.unit_type })) };
  },
});

const AnyMetricParam = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .superRefine((name, ctx) => {
    if (definitionOf(name)) return;
    ctx.addIssue({
      code: 'custom',
      message: `unknown metric ${JSON.stringify(name)}; accepted canonical names: ${CANONICAL_METRIC_NAMES.join(', ')}; accepted derived names: ${DERIVED_NAMES.join(', ')}`,
    });
  })
  .describe('canonical or derived metric name, e.g. REVENUE or GROSS_MARGIN (case-insensitive)');

export const metricDefinition = defineTool({
  name: 'metrics.definition',
  title: 'One metric definition',
  description:
    'What does a metric mean and how is it computed? The definition of one metric, canonical (e.g. REVENUE: category, statement, unit, sourcing notes) or derived (e.g. GROSS_MARGIN: formula, dependencies, null rules). ' +
    'An unknown name is refused listing the accepted names.',
  http: { method: 'GET', path: '/v1/metrics/definitions/{metric}' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({ metric: AnyMetricParam }),
  output: dataEnvelope(MetricDefinitionOut),
  handler: async (_ctx, input) => ({ data: definitionOf(input.metric)! }),
});

const DerivedCatalogEntry = MetricDefinitionOut.extend({
  input_statement_types: z.array(StatementTypeParam).describe('statements the inputs come from; a derived value reads every one of them for the same fiscal period'),
  balance_inputs_averaged: z
    .array(z.string())
    .describe('balance-sheet inputs read as the average of opening (previous period end) and closing balance when the opening one is on record, else the closing one; [] when the formula uses period-end balances or flows only'),
  uses_day_count: z.boolean().describe('the formula\'s 365 is the period length: 365 for a fiscal year, the period\'s days for a quarter'),
  result_scale: z.number().int().describe('fraction digits of a served value (divisions are rounded half-up to this)'),
});

export const derivedCatalog = defineTool({
  name: 'derived_metrics.catalog',
  title: 'Derived metrics and their formulas',
  description:
    'Every derived metric (margins, returns, liquidity, leverage, efficiency, cash-flow ratios) with its formula over canonical metrics, dependencies, ' +
    'null rules (missing input or zero divisor gives null, never zero), whether it needs market data, and how it reads a period: which balances are averaged and whether it counts days. ' +
    'Values are computed on read by /v1/edgar/derived-metrics/time-series, /v1/fundamentals/derived/time-series and /v1/views/metrics/{bundle_code}.',
  http: { method: 'GET', path: '/v1/edgar/derived-metrics/catalog' },
  tool: false,
  plan: 'free',
  input: z.object({}),
  output: dataEnvelope(z.array(DerivedCatalogEntry)),
  handler: async () => ({
    data: DERIVED_METRICS.map((m) => ({ ...publicDefinition(m), ...conventionsOf(m), result_scale: DERIVED_SCALE })),
  }),
});

const BundleOut = z.object({
  code: z.string().describe('bundle code, e.g. core_balance_sheet'),
  label: z.string(),
  description: z.string(),
  metrics: z.array(z.string()).describe('canonical metric names, in display order'),
});

export const metricBundles = defineTool({
  name: 'edgar.metric_bundles',
  title: 'Metric bundles',
  description:
    'The eight named groups of canonical metrics (code, label, description, metrics). Read one as a time series with /v1/edgar/companies/{cik}/metric-bundles/{bundle_code}/time-series.',
  http: { method: 'GET', path: '/v1/edgar/metric-bundles' },
  tool: false,
  plan: 'free',
  input: z.object({}),
  output: dataEnvelope(z.array(BundleOut)),
  handler: async () => ({ data: METRIC_BUNDLES.map((b) => ({ ...b, metrics: [...b.metrics] })) }),
});

const ViewOut = BundleOut.extend({
  metrics: z.array(z.string()).describe('canonical and derived metric names, in display order'),
  derived_metrics: z.array(z.string()).describe('the metrics of the view computed on read from canonical ones'),
});

export const metricViews = defineTool({
  name: 'views.metrics',
  title: 'Registered metric views',
  description:
    'Views are wider bundles mixing canonical and derived metrics (e.g. core_fundamentals). Read one for companies with /v1/views/metrics/{bundle_code}?ciks=...',
  http: { method: 'GET', path: '/v1/views/metrics' },
  tool: false,
  plan: 'free',
  input: z.object({}),
  output: dataEnvelope(z.array(ViewOut)),
  handler: async () => ({
    data: METRIC_VIEWS.map((v) => ({ ...v, metrics: [...v.metrics], derived_metrics: v.metrics.filter((m) => derivedMetric(m) !== undefined) })),
  }),
});

export const CATALOG_TOOLS: ToolDefinition[] = [metricDefinitions, metricDefinition, derivedCatalog, metricBundles, metricViews];
