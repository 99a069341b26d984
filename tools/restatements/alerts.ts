import { z } from 'zod';
import type { FactRevisionRow } from '../../db/restatement-read.ts';
import { alertEventById, type AlertEventRow, listAlertEvents, revisionPage, revisionsOfVersions, versionKeyById } from './queries.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool } from '../../api/define-tool.ts';
import { Cik, CikOut, dataEnvelope, FiscalPeriodParam, FiscalYear, IsoDate, PageParams, pageOf, paginated, StatementTypeParam, Timestamp, Uuid } from '../../api/schemas.ts';
import { FiledMetricParam, revisionOut, RevisionOut } from '../../api/restatement-shapes.ts';

/**
 * Restatement alert events (one per version > 1: a filing changed figures of a statement already
 * on record) and the fact revisions behind them.
 */

const AlertOut = z.object({
  restatement_alert_event_id: z.string(),
  cik: CikOut,
  company_name: z.string().nullable(),
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  period_start: z.string().nullable().describe('start of the restated period; null for a balance sheet'),
  period_end: z.string(),
  version_sequence: z.number().int().describe('the version this restatement created (2 or higher)'),
  statement_version_id: z.string().describe('the new version; read it with /v1/fundamentals/normalized-statements or its fact revisions with /v1/edgar/statements/{statement_version_id}/fact-revisions'),
  previous_version_id: z.string().describe('the version it superseded'),
  previous_version_sequence: z.number().int().nullable(),
  accession: z.string().describe('filing that restated the figures'),
  form: z.string().describe('its form, e.g. 10-K/A, or 10-K / 10-Q when a later report re-presented the period with different figures'),
  is_amendment: z.boolean().describe('true when the filing is an amendment (10-K/A, 10-Q/A); false when the comparative columns of a later periodic report changed the figures'),
  filing_date: z.string().describe('SEC filing date: from this date the restated figures are what as-of reads see'),
  accepted_at: Timestamp.nullable(),
  detected_at: Timestamp.describe('when ingestion recorded the event'),
  revised_metrics_count: z.number().int(),
  revised_metrics: z.array(RevisionOut).describe('every metric whose value the filing changed, by metric name'),
});

function alertOut(e: AlertEventRow, revisions: FactRevisionRow[]): z.input<typeof AlertOut> {
  return {
    restatement_alert_event_id: e.restatement_alert_event_id,
    cik: e.cik,
    company_name: e.company_name,
    statement_type: e.statement_type,
    fiscal_year: e.fiscal_year,
    fiscal_period: e.fiscal_period,
    period_start: e.period_start,
    period_end: e.period_end,
    version_sequence: e.version_sequence,
    statement_version_id: e.statement_version_id,
    previous_version_id: e.previous_version_id,
    previous_version_sequence: e.previous_version_sequence,
    accession: e.accession,
    form: e.form,
    is_amendment: e.form.endsWith('/A'),
    filing_date: e.filing_date,
    accepted_at: e.accepted_at,
    detected_at: e.detected_at,
    revised_metrics_count: e.revised_metrics,
    revised_metrics: revisions.filter((r) => r.statement_version_id === e.statement_version_id).map(revisionOut),
  };
}

export const restatementAlerts = defineTool({
  name: 'edgar.restatement_alerts',
  title: 'Restatement alert events',
  description:
    'Which figures were restated, when and by which filing? Restatement events, newest filing first: each time a filing changed figures of a statement already on record, with every revised metric (old value, new value, difference, both accessions and tags). ' +
    'Filters (optional, combined): cik (companies_resolve), statement_type, fiscal_year and fiscal_period of the restated period, filed_from / filed_to (filing date of the restating filing), metric. ' +
    'statement_version_id and previous_version_id of an event feed fundamentals_restatement_delta. An empty page means no restatement matched. ' +
    'On the Free plan the list shows only the companies this key holds (its coverage selection); passing cik claims a slot for that company as any company read does.',
  http: { method: 'GET', path: '/v1/edgar/restatement-alerts' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z
    .object({
      cik: Cik.optional(),
      statement_type: StatementTypeParam.optional(),
      fiscal_year: FiscalYear.optional().describe('fiscal year of the restated period'),
      fiscal_period: FiscalPeriodParam.optional().describe('fiscal period of the restated period'),
      filed_from: IsoDate.optional().describe('restating filings filed on or after this date (YYYY-MM-DD)'),
      filed_to: IsoDate.optional().describe('restating filings filed on or before this date (YYYY-MM-DD)'),
      metric: FiledMetricParam.optional().describe('only events that revised this canonical metric, e.g. NET_INCOME'),
      ...PageParams,
    })
    .superRefine((v, ctx) => {
      if (v.filed_from && v.filed_to && v.filed_from > v.filed_to) {
        ctx.addIssue({ code: 'custom', path: ['filed_from'], message: `filed_from (${v.filed_from}) is after filed_to (${v.filed_to})` });
      }
    }),
  output: paginated(AlertOut),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const { services } = ctx;
    const { total, rows } = await listAlertEvents(
      services.sql,
      {
        cik: input.cik ?? null,
        statement_type: input.statement_type ?? null,
        fiscal_year: input.fiscal_year ?? null,
        fiscal_period: input.fiscal_period ?? null,
        filed_from: input.filed_from ?? null,
        filed_to: input.filed_to ?? null,
        metric: input.metric ?? null,
        within_ciks: await ctx.visibleCompanies(),
      },
      { limit: input.page_size, offset: (input.page - 1) * input.page_size },
    );
    const revisions = await revisionsOfVersions(services.sql, rows.map((r) => r.statement_version_id));
    return pageOf(
      rows.map((r) => alertOut(r, revisions)),
      total,
      input.page,
      input.page_size,
    );
  },
});

export const restatementAlert = defineTool({
  name: 'edgar.restatement_alert',
  title: 'One restatement alert event',
  description:
    'One restatement alert event by id (from /v1/edgar/restatement-alerts): the statement and period restated, the filing that restated it, the new and superseded versions, ' +
    'and every revised metric with old value, new value and difference. An unknown id answers 404.',
  http: { method: 'GET', path: '/v1/edgar/restatement-alerts/{restatement_alert_event_id}' },
  tool: false,
  plan: 'free',
  input: z.object({ restatement_alert_event_id: Uuid.describe('id from the restatement alert listing') }),
  output: dataEnvelope(AlertOut),
  handler: async (ctx, input) => {
    const row = await alertEventById(ctx.services.sql, input.restatement_alert_event_id);
    if (!row) {
      throw new ServiceError('NOT_FOUND', `No restatement alert event ${input.restatement_alert_event_id}; list events with /v1/edgar/restatement-alerts.`, {
        restatement_alert_event_id: input.restatement_alert_event_id,
      });
    }
    await ctx.reach([row.cik]);
    const revisions = await revisionsOfVersions(ctx.services.sql, [row.statement_version_id]);
    return { data: alertOut(row, revisions) };
  },
});

const FactRevisionItem = RevisionOut.extend({
  fact_revision_id: z.string(),
  statement_version_id: z.string().describe('the revising version'),
  previous_version_id: z.string().describe('the version whose value it replaced'),
  version_sequence: z.number().int(),
});

export const factRevisions = defineTool({
  name: 'edgar.fact_revisions',
  title: 'Fact revisions of a statement version',
  description:
    'The metrics a statement version changed relative to the version before it: old value, new value, difference, relative change, both accessions and tags, by metric name. ' +
    'items is empty for version 1 and for any version whose facts were never revised (the ordinary case). An unknown statement_version_id answers 404.',
  http: { method: 'GET', path: '/v1/edgar/statements/{statement_version_id}/fact-revisions' },
  cache: 'immutable',
  tool: false,
  plan: 'free',
  input: z.object({ statement_version_id: Uuid.describe('UUID of one statement version (statements_normalized returns it)'), ...PageParams }),
  output: paginated(FactRevisionItem),
  handler: async (ctx, input) => {
    const key = await versionKeyById(ctx.services.sql, input.statement_version_id);
    if (!key) {
      throw new ServiceError('NOT_FOUND', `No statement version ${input.statement_version_id}; version ids come from /v1/fundamentals/normalized-statements (include_version_history=true lists every version).`, {
        statement_version_id: input.statement_version_id,
      });
    }
    await ctx.reach([key.cik]);
    const { total, rows } = await revisionPage(ctx.services.sql, key.statement_version_id, { limit: input.page_size, offset: (input.page - 1) * input.page_size });
    const items = rows.map((r) => ({
      fact_revision_id: r.fact_revision_id,
      statement_version_id: r.statement_version_id,
      previous_version_id: r.previous_version_id,
      version_sequence: key.version_sequence,
      ...revisionOut(r),
    }));
    return pageOf(items, total, input.page, input.page_size);
  },
});

export const RESTATEMENT_ALERT_TOOLS = [restatementAlerts, restatementAlert, factRevisions];
