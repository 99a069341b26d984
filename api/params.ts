import { z } from 'zod';
import { resolveTicker } from '../db/identity.ts';
import { CANONICAL_METRIC_NAMES, canonicalMetric, DERIVED_METRICS } from '../domain/catalog/index.ts';
import { ServiceError } from '../domain/service-error.ts';
import type { ToolContext } from './define-tool.ts';
import type { FactView } from './statement-shapes.ts';

const DERIVED_NAMES = new Set(DERIVED_METRICS.map((m) => m.metric));

/** A canonical metric name; anything else is refused with the accepted names. */
export const CanonicalMetricParam = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .superRefine((name, ctx) => {
    if (canonicalMetric(name)) return;
    const hint = DERIVED_NAMES.has(name) ? `${name} is a derived metric (served by the derived-metric and modeling routes), not a canonical one. ` : '';
    ctx.addIssue({
      code: 'custom',
      message: `${hint}unknown canonical metric ${JSON.stringify(name)}; accepted names: ${CANONICAL_METRIC_NAMES.join(', ')}`,
    });
  })
  .describe('canonical metric name, e.g. REVENUE, NET_INCOME, TOTAL_ASSETS (the metrics_definitions tool lists them)');

/**
 * A point-in-time boundary (`as_of_date` of a deterministic query or a modeling build), checked
 * against today (UTC): the result is kept and answered again for the same arguments, so a date
 * after today would keep what filings still to come contradict. Refused with 400.
 */
export function pastBoundary(asOfDate: string, now: Date): string {
  const today = now.toISOString().slice(0, 10);
  if (asOfDate > today) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `as_of_date ${asOfDate} is in the future (today is ${today} UTC); a point-in-time result sees only what was knowable by its date, and later filings would change it.`,
      { as_of_date: asOfDate },
    );
  }
  return asOfDate;
}

/** cik or ticker, exactly one; a ticker resolves to today's CIK and is reported to the coverage gate. */
export async function companyOf(ctx: ToolContext, input: { cik?: string | undefined; ticker?: string | undefined }): Promise<string> {
  if (input.cik && input.ticker) throw new ServiceError('VALIDATION_ERROR', 'Pass cik or ticker, not both.', {});
  if (input.cik) return input.cik;
  if (!input.ticker) throw new ServiceError('VALIDATION_ERROR', 'Pass cik (e.g. 0000320193) or ticker (e.g. AAPL).', {});
  const row = await resolveTicker(ctx.services.sql, input.ticker, null);
  if (!row) throw new ServiceError('NOT_FOUND', `No company has ticker ${input.ticker}. Search names with identity_search (HTTP: /v1/identity/search).`, { ticker: input.ticker });
  await ctx.reach([row.cik]);
  return row.cik;
}


/**
 * The `metrics` and `compact` parameters of statement reads. compact defaults to true on the tool
 * server (an agent's context is the scarce thing) and to false over HTTP, whose answers stay as
 * they were unless the parameter is passed.
 */
export const FactViewParams = {
  metrics: z
    .array(CanonicalMetricParam)
    .min(1)
    .max(CANONICAL_METRIC_NAMES.length)
    .optional()
    .describe('only these canonical metrics (repeatable), e.g. ["REVENUE","NET_INCOME"]; omitted: every figure'),
  compact: z
    .boolean()
    .optional()
    .describe('true: each figure as metric, value, unit and period, without provenance (source accession, tag, corrections); default true on the tool server, false over HTTP'),
};

export function factViewOf(ctx: Pick<ToolContext, 'surface'>, input: { metrics?: string[] | undefined; compact?: boolean | undefined }): FactView {
  return {
    metrics: input.metrics && input.metrics.length > 0 ? new Set(input.metrics) : null,
    compact: input.compact ?? ctx.surface === 'mcp',
  };
}
