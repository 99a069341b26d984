import { SPLIT_EVIDENCE } from '../domain/statements/stock-splits.ts';
import { z } from 'zod';
import type { FactRevisionRow, SplitRecastRow } from '../db/restatement-read.ts';
import { availablePeriods, statementVersions } from '../db/statement-read.ts';
import type { VersionRow } from '../db/statement-versions.ts';
import { byCatalogOrder, CANONICAL_METRIC_NAMES, canonicalMetric, DERIVED_METRICS } from '../domain/catalog/index.ts';
import { wireDecimal } from '../domain/decimal.ts';
import { compareValues, isMarketDependent } from '../domain/restatement-analysis.ts';
import { ServiceError } from '../domain/service-error.ts';
import type { ToolContext } from './define-tool.ts';
import { versionRefOut, VersionRefOut } from './version-ref.ts';

export { VersionRefOut };

/** A version of a lineage as a reference; is_latest: it is the lineage's last (the served) version. */
export const versionRef = (v: VersionRow, versions: VersionRow[]) => versionRefOut(v, v === versions[versions.length - 1]);
import { DecimalString, FiscalPeriodParam, FiscalYear, StatementTypeParam } from './schemas.ts';
import type { StatementIdentity } from '../domain/statements/key.ts';

/** Shapes and helpers shared by the restatement and version-analytics routes. */

const DERIVED_NAMES = new Set(DERIVED_METRICS.map((m) => m.metric));
export { byCatalogOrder };

/**
 * A canonical statement metric for filed-figure comparisons. A market-dependent name (MARKET_CAP,
 * ENTERPRISE_VALUE, ...) is refused with its own reason: the service persists no market data, and
 * drift and deltas compare what filings said.
 */
export const FiledMetricParam = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .superRefine((name, ctx) => {
    if (isMarketDependent(name)) {
      ctx.addIssue({
        code: 'custom',
        message:
          `${name} is market-dependent (it needs a share price or market value, which no filing states and the service does not persist); ` +
          'drift and delta routes compare filed figures only. Ask for a canonical statement metric such as NET_INCOME, REVENUE or TOTAL_ASSETS.',
      });
      return;
    }
    if (canonicalMetric(name)) return;
    const hint = DERIVED_NAMES.has(name) ? `${name} is a derived metric (computed from canonical ones; see /v1/analysis/model-impact), not a canonical one. ` : '';
    ctx.addIssue({ code: 'custom', message: `${hint}unknown canonical metric ${JSON.stringify(name)}; accepted names: ${CANONICAL_METRIC_NAMES.join(', ')}` });
  })
  .describe('canonical statement metric, e.g. NET_INCOME, REVENUE, TOTAL_ASSETS (metrics_definitions lists them); market-dependent metrics such as MARKET_CAP are refused');

export const IdentityParams = {
  statement_type: StatementTypeParam,
  fiscal_year: FiscalYear,
  fiscal_period: FiscalPeriodParam,
};

export type Identity = StatementIdentity;

/** A metric of another statement type is refused: every version of this statement lacks it. */
export function checkMetricStatement(metric: string, statementType: string): void {
  const def = canonicalMetric(metric);
  if (def && def.statement_type !== statementType) {
    throw new ServiceError('VALIDATION_ERROR', `${metric} is a ${def.statement_type} metric, not on the ${statementType}; pass statement_type=${def.statement_type} or another metric.`, {
      metric,
      statement_type: def.statement_type,
    });
  }
}

/** Every version of the statement, oldest first; 404 naming the periods on record when there is none. */
export async function lineageOf(ctx: ToolContext, id: Identity): Promise<VersionRow[]> {
  const versions = await statementVersions(ctx.services.sql, id, { as_of_date: null, as_reported: false });
  if (versions.length > 0) return versions;
  const have = await availablePeriods(ctx.services.sql, id.cik, id.statement_type);
  const listed = have.map((p) => `${p.fiscal_year} ${p.fiscal_period}`).join(', ');
  throw new ServiceError(
    'NOT_FOUND',
    `No ${id.statement_type} for CIK ${id.cik} fiscal ${id.fiscal_year} ${id.fiscal_period}. ` +
      (listed ? `Most recent periods on record: ${listed}.` : 'No statements of this type are on record for the company; coverage_company (HTTP: /v1/coverage/companies/{cik}) tells whether that is a gap.'),
    { ...id },
  );
}

export const IdentityOut = {
  cik: z.string().describe('10-digit zero-padded CIK'),
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
};

export const ChangeStatusOut = z
  .enum(['CHANGED', 'UNCHANGED', 'ADDED', 'REMOVED', 'NOT_REPORTED'])
  .describe('CHANGED / UNCHANGED when both sides report the metric; ADDED: only the newer side reports it; REMOVED: only the older side; NOT_REPORTED: neither');

export const RevisionOut = z.object({
  metric: z.string(),
  old_value: DecimalString.describe('value on the previous version'),
  new_value: DecimalString.describe('value on this version'),
  difference: DecimalString.describe('new_value - old_value'),
  relative_change: DecimalString.nullable().describe('difference / |old_value|, six fraction digits (0.265825 = +26.58%); null when old_value is zero'),
  old_accession: z.string().describe('filing the old value was read from'),
  new_accession: z.string().describe('filing the new value was read from'),
  old_concept: z.string().nullable().describe('tag of the old value'),
  new_concept: z.string().nullable().describe('tag of the new value (differs from old_concept when the filer re-tagged the line)'),
});

export function revisionOut(r: FactRevisionRow): z.input<typeof RevisionOut> {
  return {
    metric: r.metric,
    old_value: wireDecimal(r.old_value),
    new_value: wireDecimal(r.new_value),
    difference: wireDecimal(r.difference),
    relative_change: compareValues(r.old_value, r.new_value).relative_change,
    old_accession: r.old_accession,
    new_accession: r.new_accession,
    old_concept: r.old_concept,
    new_concept: r.new_concept,
  };
}

export const SplitRecastOut = z.object({
  metric: z.string(),
  old_value: DecimalString.describe('value on the previous version, on the old share basis'),
  new_value: DecimalString.describe('value on this version, on the new share basis'),
  old_accession: z.string().describe('filing the old value was read from'),
  new_accession: z.string().describe('filing the new value was read from'),
  split_ratio: DecimalString.describe('the split ratio, new shares per old share (4 for 4-for-1, 0.0667 for 1-for-15), as split_evidence tells it'),
  split_date: z.string().describe('TAGGED_RATIO: date of the tagged split ratio; RESTATED_FIGURES: filing date of the first filing whose figures showed the split (YYYY-MM-DD)'),
  split_evidence: z
    .enum(SPLIT_EVIDENCE)
    .describe(
      "the filer's word for the split: TAGGED_RATIO, its split ratio fact; RESTATED_FIGURES, where it tagged none, one filing telling a period again with per-share figures divided and share counts multiplied by one whole ratio, net income the same",
    ),
});

export function splitRecastOut(r: SplitRecastRow): z.input<typeof SplitRecastOut> {
  return {
    metric: r.metric,
    old_value: wireDecimal(r.old_value),
    new_value: wireDecimal(r.new_value),
    old_accession: r.old_accession,
    new_accession: r.new_accession,
    split_ratio: wireDecimal(r.split_ratio),
    split_date: r.split_date,
    split_evidence: r.split_evidence,
  };
}

/** A figure's value as served, or null when the version does not report the metric. */
export function valueOn(v: VersionRow, metric: string): string | null {
  const f = v.figures[metric];
  return f ? wireDecimal(f.value) : null;
}
