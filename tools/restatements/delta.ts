import { z } from 'zod';
import { splitRecastsOfVersions } from '../../db/restatement-read.ts';
import { alertEventsOfVersions, revisionsOfVersions } from './queries.ts';
import type { VersionRow } from '../../db/statement-versions.ts';
import { compareValues } from '../../domain/restatement-analysis.ts';
import { defineTool, type ToolContext } from '../../api/define-tool.ts';
import { Cik, dataEnvelope, DecimalString, Ticker, Timestamp, Uuid } from '../../api/schemas.ts';
import {
  byCatalogOrder,
  ChangeStatusOut,
  checkMetricStatement,
  FiledMetricParam,
  IdentityOut,
  IdentityParams,
  lineageOf,
  revisionOut,
  RevisionOut,
  splitRecastOut,
  SplitRecastOut,
  valueOn,
  versionRef,
  VersionRefOut,
  type Identity,
} from '../../api/restatement-shapes.ts';
import { versionNotFound } from '../../api/version-ref.ts';
import { companyOf } from '../../api/params.ts';
import { CANONICAL_METRICS } from '../../domain/catalog/index.ts';

/**
 * Comparisons across the versions of one statement: the per-metric delta between two chosen
 * versions, the timeline of every metric across the lineage, and the ledger of restatements.
 */

const AccessionParam = z.string().regex(/^\d{10}-\d{2}-\d{6}$/, 'an accession number is written 0001193125-10-012091');

const PAIR_RULE =
  'Give exactly one selector pair: from_accession + to_accession (the filings that created the two versions), or from_statement_version_id + to_statement_version_id.';

interface Selectors {
  from_accession?: string | undefined;
  to_accession?: string | undefined;
  from_statement_version_id?: string | undefined;
  to_statement_version_id?: string | undefined;
}

/** Exactly one complete pair; anything else is a caller error with the rule restated. */
function checkPairs(v: Selectors, ctx: z.RefinementCtx): void {
  const byAccession = [v.from_accession, v.to_accession].filter((x) => x !== undefined).length;
  const byId = [v.from_statement_version_id, v.to_statement_version_id].filter((x) => x !== undefined).length;
  if (byAccession > 0 && byId > 0) {
    ctx.addIssue({ code: 'custom', path: ['from_accession'], message: `accession and statement_version_id selectors cannot be mixed. ${PAIR_RULE}` });
  } else if (byAccession === 0 && byId === 0) {
    ctx.addIssue({ code: 'custom', path: ['from_accession'], message: `no versions selected. ${PAIR_RULE}` });
  } else if (byAccession === 1) {
    const missing = v.from_accession === undefined ? 'from_accession' : 'to_accession';
    ctx.addIssue({ code: 'custom', path: [missing], message: `${missing} is missing: a half pair selects nothing. ${PAIR_RULE}` });
  } else if (byId === 1) {
    const missing = v.from_statement_version_id === undefined ? 'from_statement_version_id' : 'to_statement_version_id';
    ctx.addIssue({ code: 'custom', path: [missing], message: `${missing} is missing: a half pair selects nothing. ${PAIR_RULE}` });
  }
}

const DeltaFields = {
  cik: Cik.optional(),
  ticker: Ticker.optional(),
  ...IdentityParams,
  from_accession: AccessionParam.optional().describe('accession of the filing that created the older side, e.g. 0001193125-09-214859'),
  to_accession: AccessionParam.optional().describe('accession of the filing that created the newer side, e.g. 0001193125-10-012091'),
  from_statement_version_id: Uuid.optional().describe('statement_version_id of the older side'),
  to_statement_version_id: Uuid.optional().describe('statement_version_id of the newer side'),
  changed_only: z.boolean().default(false).describe('list only metrics whose value differs (CHANGED, ADDED, REMOVED)'),
};

const DeltaMetric = z.object({
  metric: z.string(),
  unit: z.string().nullable().describe('USD, USD/shares, shares ...; null when neither side reports the metric'),
  status: ChangeStatusOut,
  old_value: DecimalString.nullable().describe('value on the from version; null when it does not report the metric'),
  new_value: DecimalString.nullable().describe('value on the to version; null when it does not report the metric'),
  difference: DecimalString.nullable().describe('new_value - old_value; null unless both sides report the metric'),
  relative_change: DecimalString.nullable().describe('difference / |old_value|, six fraction digits; null when a side is missing or old_value is zero'),
  old_source_accession: z.string().nullable().describe('filing the old value was read from (an older version can carry a figure forward from an earlier filing)'),
  new_source_accession: z.string().nullable(),
});

const DeltaOut = z.object({
  ...IdentityOut,
  from_version: VersionRefOut,
  to_version: VersionRefOut,
  metrics_compared: z.number().int().describe('metrics reported on either side (or requested)'),
  metrics_changed: z.number().int().describe('metrics CHANGED, ADDED or REMOVED'),
  metrics: z.array(DeltaMetric).describe('in catalog order'),
});

function pick(versions: VersionRow[], id: Identity, by: 'accession' | 'id', value: string, side: 'from' | 'to'): VersionRow {
  const row = versions.find((v) => (by === 'accession' ? v.accession === value : v.statement_version_id === value));
  if (row) return row;
  throw versionNotFound(id, versions, { field: `${side}_${by === 'accession' ? 'accession' : 'statement_version_id'}`, value, side });
}

async function deltaOf(ctx: ToolContext, input: z.output<z.ZodObject<typeof DeltaFields>> & Selectors, metrics: string[] | undefined): Promise<{ data: z.input<typeof DeltaOut> }> {
  for (const m of metrics ?? []) checkMetricStatement(m, input.statement_type);
  const cik = await companyOf(ctx, input);
  const id = { cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
  const versions = await lineageOf(ctx, id);
  const [from, to] = input.from_accession
    ? [pick(versions, id, 'accession', input.from_accession, 'from'), pick(versions, id, 'accession', input.to_accession!, 'to')]
    : [pick(versions, id, 'id', input.from_statement_version_id!, 'from'), pick(versions, id, 'id', input.to_statement_version_id!, 'to')];
  const names = metrics ? [...new Set(metrics)] : [...new Set([...Object.keys(from.figures), ...Object.keys(to.figures)])];
  const rows = names.sort(byCatalogOrder).map((metric) => {
    const a = from.figures[metric];
    const b = to.figures[metric];
    const change = compareValues(valueOn(from, metric), valueOn(to, metric));
    return {
      metric,
      unit: b?.unit ?? a?.unit ?? null,
      status: change.status,
      old_value: valueOn(from, metric),
      new_value: valueOn(to, metric),
      difference: change.difference,
      relative_change: change.relative_change,
      old_source_accession: a?.source_accession ?? null,
      new_source_accession: b?.source_accession ?? null,
    };
  });
  const moved = (s: string) => s === 'CHANGED' || s === 'ADDED' || s === 'REMOVED';
  return {
    data: {
      ...id,
      statement_type: id.statement_type,
      fiscal_period: id.fiscal_period,
      from_version: versionRef(from, versions),
      to_version: versionRef(to, versions),
      metrics_compared: rows.length,
      metrics_changed: rows.filter((r) => moved(r.status)).length,
      metrics: input.changed_only ? rows.filter((r) => moved(r.status)) : rows,
    },
  };
}

const DELTA_DESCRIPTION =
  'Per-metric comparison of two versions of one statement (cik or ticker + statement_type + fiscal_year + fiscal_period): old value, new value, difference (new - old) and relative change, ' +
  'with both versions\' headers. Select the two versions with exactly one pair: from_accession + to_accession (filings that created them) or from_statement_version_id + to_statement_version_id; ' +
  'mixing the pairs, half a pair or no pair is refused. A metric reported on one side only has status ADDED or REMOVED and null difference. ' +
  'Restatement events (edgar_restatement_alerts) name both versions of each restatement.';

export const restatementDelta = defineTool({
  name: 'edgar.restatement_delta',
  title: 'Restatement delta between two statement versions',
  description: DELTA_DESCRIPTION,
  http: { method: 'GET', path: '/v1/edgar/statements/restatements/delta' },
  tool: false,
  plan: 'free',
  input: z.object(DeltaFields).superRefine(checkPairs),
  output: dataEnvelope(DeltaOut),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: (ctx, input) => deltaOf(ctx, input, undefined),
});

export const fundamentalsRestatementDelta = defineTool({
  name: 'fundamentals.restatement_delta',
  title: 'Restatement delta (fundamentals namespace)',
  description:
    'What exactly did a restatement change? ' +
    DELTA_DESCRIPTION +
    ' metrics (repeatable, canonical names of this statement type) narrows the comparison to those metrics, each listed even when neither side reports it (status NOT_REPORTED); market-dependent names are refused.',
  http: { method: 'GET', path: '/v1/fundamentals/restatement-delta' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z
    .object({ ...DeltaFields, metrics: z.array(FiledMetricParam).min(1).max(CANONICAL_METRICS.length).optional().describe('canonical metrics to compare (repeatable, or comma-separated); all reported ones when omitted') })
    .superRefine(checkPairs),
  output: dataEnvelope(DeltaOut),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: (ctx, input) => deltaOf(ctx, input, input.metrics),
});

const TimelineVersion = VersionRefOut.extend({
  restatement_alert_event_id: z.string().nullable().describe('the alert event this version raised; null for version 1'),
  revised_metrics_count: z.number().int().describe('metrics this version changed; 0 for version 1'),
});

const TimelinePoint = z.object({
  version_sequence: z.number().int(),
  statement_version_id: z.string(),
  value: DecimalString.nullable().describe('null when this version does not report the metric'),
  status: ChangeStatusOut.describe('against the previous version; UNCHANGED for version 1 when it reports the metric'),
  change_from_previous: DecimalString.nullable().describe('value - previous version value; null for version 1 or when a side is missing'),
  source_accession: z.string().nullable().describe('filing the value was read from (a version carries forward figures a later filing did not present)'),
});

const TimelineMetric = z.object({
  metric: z.string(),
  unit: z.string(),
  revised: z.boolean().describe('the value differs on some version'),
  revisions_count: z.number().int().describe('versions on which the value changed'),
  original_value: DecimalString.nullable().describe('on version 1'),
  latest_value: DecimalString.nullable().describe('on the latest version'),
  net_change: DecimalString.nullable().describe('latest_value - original_value'),
  relative_net_change: DecimalString.nullable().describe('net_change / |original_value|, six fraction digits'),
  values: z.array(TimelinePoint).describe('one point per version, oldest first'),
});

export const restatementTimeline = defineTool({
  name: 'edgar.restatement_timeline',
  title: 'Restatement timeline of a statement',
  description:
    'Every version of one statement (statement_type + fiscal_year + fiscal_period) in order with the filing that created it, and for each metric its value on every version with the change from the version before. ' +
    'A statement never restated has one version and no revised metric. changed_only=true keeps only revised metrics; metrics (repeatable) narrows to named ones. An unknown statement answers 404 naming the periods on record.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/statements/restatement-timeline' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik,
    ...IdentityParams,
    metrics: z.array(FiledMetricParam).min(1).max(CANONICAL_METRICS.length).optional().describe('canonical metrics to list (repeatable); all reported ones when omitted'),
    changed_only: z.boolean().default(false).describe('list only metrics whose value changed on some version'),
  }),
  output: dataEnvelope(
    z.object({
      ...IdentityOut,
      period_start: z.string().nullable(),
      period_end: z.string(),
      versions_count: z.number().int(),
      restatements_count: z.number().int().describe('versions that revised figures (each with an alert event); a version that only added figures first told later is not one'),
      versions: z.array(TimelineVersion),
      metrics: z.array(TimelineMetric).describe('in catalog order'),
    }),
  ),
  companies: (input) => [input.cik],
  handler: async (ctx, input) => {
    for (const m of input.metrics ?? []) checkMetricStatement(m, input.statement_type);
    const id = { cik: input.cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
    const versions = await lineageOf(ctx, id);
    const events = await alertEventsOfVersions(ctx.services.sql, versions.map((v) => v.statement_version_id));
    const latest = versions[versions.length - 1]!;
    const reported = [...new Set(versions.flatMap((v) => Object.keys(v.figures)))];
    const names = (input.metrics ? [...new Set(input.metrics)].filter((m) => reported.includes(m)) : reported).sort(byCatalogOrder);
    const metrics = names.map((metric) => {
      const values = versions.map((v, i) => {
        const prev = i === 0 ? null : versions[i - 1]!;
        const change = prev ? compareValues(valueOn(prev, metric), valueOn(v, metric)) : compareValues(valueOn(v, metric), valueOn(v, metric));
        return {
          version_sequence: v.version_sequence,
          statement_version_id: v.statement_version_id,
          value: valueOn(v, metric),
          status: change.status,
          change_from_previous: prev ? change.difference : null,
          source_accession: v.figures[metric]?.source_accession ?? null,
        };
      });
      // a figure first told by a later version (ADDED) revises nothing
      const revisions = values.filter((p, i) => i > 0 && (p.status === 'CHANGED' || p.status === 'REMOVED')).length;
      const net = compareValues(valueOn(versions[0]!, metric), valueOn(latest, metric));
      return {
        metric,
        unit: versions.map((v) => v.figures[metric]?.unit).find((u) => u !== undefined) ?? '',
        revised: revisions > 0,
        revisions_count: revisions,
        original_value: valueOn(versions[0]!, metric),
        latest_value: valueOn(latest, metric),
        net_change: net.difference,
        relative_net_change: net.relative_change,
        values,
      };
    });
    return {
      data: {
        ...id,
        statement_type: id.statement_type,
        fiscal_period: id.fiscal_period,
        period_start: latest.period_start,
        period_end: latest.period_end,
        versions_count: versions.length,
        restatements_count: versions.filter((v) => events.some((x) => x.statement_version_id === v.statement_version_id)).length,
        versions: versions.map((v) => {
          const e = events.find((x) => x.statement_version_id === v.statement_version_id);
          return { ...versionRef(v, versions), restatement_alert_event_id: e?.restatement_alert_event_id ?? null, revised_metrics_count: e?.revised_metrics ?? 0 };
        }),
        metrics: input.changed_only ? metrics.filter((m) => m.revised) : metrics,
      },
    };
  },
});

const LedgerEntry = VersionRefOut.extend({
  entry_type: z
    .enum(['ORIGINAL', 'RESTATEMENT', 'STOCK_SPLIT_RECAST', 'LATER_FIGURES'])
    .describe(
      'ORIGINAL for version 1 (as first reported); RESTATEMENT for a later version that revised figures (with its alert event); ' +
        "STOCK_SPLIT_RECAST for one that revised nothing but told per-share figures or share counts again on a stock split's new share basis (no alert; see split_recasts); " +
        'LATER_FIGURES for one that only added figures first told later (no alert, nothing revised)',
    ),
  previous_version_id: z.string().nullable(),
  restatement_alert_event_id: z.string().nullable().describe('null for the original'),
  is_amendment: z.boolean().describe('the filing is an amendment (10-K/A, 10-Q/A) rather than a later periodic report re-presenting the period'),
  detected_at: Timestamp.nullable().describe('when ingestion recorded the restatement; null for the original'),
  revised_metrics_count: z.number().int(),
  revisions: z.array(RevisionOut).describe('what this version changed against the one before, by metric name; empty for the original'),
  split_recasts: z
    .array(SplitRecastOut)
    .describe("per-share figures and share counts this version told again on a split's new share basis (the filer tagged the split between the two filings): not revisions, by metric name"),
});

export const restatementLedger = defineTool({
  name: 'edgar.restatement_ledger',
  title: 'Restatement ledger of a statement',
  description:
    'The full restatement record of one statement (cik or ticker + statement_type + fiscal_year + fiscal_period): every version oldest first, the original then each restatement with its alert event, ' +
    'the filing that made it and the fact revisions it recorded (old value, new value, difference, both accessions and tags), and any per-share figures or share counts a version recast for a stock split (not revisions). Use the statement_version_id or accession values with the delta routes. ' +
    'A statement never restated answers one ORIGINAL entry; an unknown statement answers 404 naming the periods on record.',
  http: { method: 'GET', path: '/v1/edgar/statements/restatements/ledger' },
  tool: false,
  plan: 'free',
  input: z.object({ cik: Cik.optional(), ticker: Ticker.optional(), ...IdentityParams }),
  output: dataEnvelope(
    z.object({
      ...IdentityOut,
      versions_count: z.number().int(),
      restatements_count: z.number().int().describe('entries of type RESTATEMENT'),
      latest_statement_version_id: z.string().describe('the served version'),
      entries: z.array(LedgerEntry),
    }),
  ),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const cik = await companyOf(ctx, input);
    const id = { cik, statement_type: input.statement_type, fiscal_year: input.fiscal_year, fiscal_period: input.fiscal_period };
    const versions = await lineageOf(ctx, id);
    const ids = versions.map((v) => v.statement_version_id);
    const [events, revisions, recasts] = await Promise.all([
      alertEventsOfVersions(ctx.services.sql, ids),
      revisionsOfVersions(ctx.services.sql, ids),
      splitRecastsOfVersions(ctx.services.sql, ids),
    ]);
    const entries = versions.map((v) => {
      const e = events.find((x) => x.statement_version_id === v.statement_version_id);
      const mine = revisions.filter((r) => r.statement_version_id === v.statement_version_id);
      const recast = recasts.filter((r) => r.statement_version_id === v.statement_version_id);
      return {
        ...versionRef(v, versions),
        entry_type:
          v.version_sequence === 1
            ? ('ORIGINAL' as const)
            : mine.length > 0
              ? ('RESTATEMENT' as const)
              : recast.length > 0
                ? ('STOCK_SPLIT_RECAST' as const)
                : ('LATER_FIGURES' as const),
        previous_version_id: v.previous_version_id,
        restatement_alert_event_id: e?.restatement_alert_event_id ?? null,
        is_amendment: v.form.endsWith('/A'),
        detected_at: e?.detected_at ?? null,
        revised_metrics_count: mine.length,
        revisions: mine.map(revisionOut),
        split_recasts: recast.map(splitRecastOut),
      };
    });
    return {
      data: {
        ...id,
        statement_type: id.statement_type,
        fiscal_period: id.fiscal_period,
        versions_count: versions.length,
        restatements_count: entries.filter((e) => e.entry_type === 'RESTATEMENT').length,
        latest_statement_version_id: versions[versions.length - 1]!.statement_version_id,
        entries,
      },
    };
  },
});

export const RESTATEMENT_DELTA_TOOLS = [restatementDelta, fundamentalsRestatementDelta, restatementTimeline, restatementLedger];
