import { z } from 'zod';
import { VersionKeyOut } from '../../api/version-ref.ts';
import { filingOf, listFilings, listVersions, versionHeadersOfFiling, versionsOfFiling } from './queries.ts';
import { financialState } from './state-queries.ts';
import { CANONICAL_METRICS, CANONICAL_METRIC_NAMES } from '../../domain/catalog/index.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { AS_OF_TOOLS } from './as-of.ts';
import {
  AccessionParam,
  byCatalogOrder,
  FilingDetailOut,
  FilingOut,
  filingOut,
  FormParam,
  ListedVersionOut,
  versionHeaderOut,
  versionRef,
} from './shapes.ts';
import { defineTool, type ToolDefinition } from '../../api/define-tool.ts';
import { CoherenceOut, coherenceMarks, coherenceOf, type CoherenceWire } from '../../api/coherence.ts';
import {
  AsOfDate,
  Cik,
  CikOut,
  dataEnvelope,
  DecimalString,
  FiscalPeriodParam,
  FiscalYear,
  IsoDate,
  PageParams,
  pageOf,
  paginated,
  StatementTypeParam,
} from '../../api/schemas.ts';
import { StatementVersionOut, versionOut } from '../../api/statement-shapes.ts';
import { QUARTERS } from '../../domain/statements/types.ts';

/** Form types one filings read may name: SEC has a few dozen in use; each becomes one SQL parameter. */
const MAX_FORMS = 50;

/**
 * Filings of a company, the statement versions they created, a company's statement versions, and
 * its financial state per fiscal period. The point-in-time reads live in tools/filing-as-of.ts.
 */

function checkDateRange(fromName: string, from: string | undefined, toName: string, to: string | undefined): void {
  if (from && to && from > to) {
    throw new ServiceError('VALIDATION_ERROR', `${fromName} (${from}) is after ${toName} (${to}); swap them or drop one.`, { [fromName]: from, [toName]: to });
  }
}

function checkYearRange(from: number | undefined, to: number | undefined): void {
  if (from !== undefined && to !== undefined && from > to) {
    throw new ServiceError('VALIDATION_ERROR', `fiscal_year_from (${from}) is after fiscal_year_to (${to}).`, { fiscal_year_from: from, fiscal_year_to: to });
  }
}

export const filingsList = defineTool({
  name: 'filings.list',
  title: "A company's filings",
  description:
    "Lists a company's SEC filings, newest first: accession, form, filing and report dates, fiscal focus, whether it is a periodic report, " +
    'how many XBRL facts it carried and how many statement versions it created. Narrow with form (repeatable: 10-K, 10-Q, 10-K/A, 8-K ...) and filed_from/filed_to. ' +
    'Only periodic reports (10-K, 10-Q, amendments, 20-F, 40-F) create statements; read one with statements_normalized. Takes a CIK (companies_resolve gives it). An empty page means no filing matches.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/filings' },
  tool: true,
  listedAs: 'spec',
  plan: 'free',
  input: z.object({
    cik: Cik,
    form: z.array(FormParam).max(MAX_FORMS).optional().describe(`only these form types, at most ${MAX_FORMS}; repeat the parameter or separate with commas (form=10-K&form=10-Q)`),
    filed_from: IsoDate.optional().describe('only filings with a filing date on or after this date (YYYY-MM-DD)'),
    filed_to: IsoDate.optional().describe('only filings with a filing date on or before this date (YYYY-MM-DD)'),
    ...PageParams,
  }),
  output: paginated(FilingOut),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    checkDateRange('filed_from', input.filed_from, 'filed_to', input.filed_to);
    const { total, rows } = await listFilings(
      services.sql,
      { cik: input.cik, forms: input.form?.length ? input.form : null, filed_from: input.filed_from ?? null, filed_to: input.filed_to ?? null },
      { limit: input.page_size, offset: (input.page - 1) * input.page_size },
    );
    return pageOf(rows.map(filingOut), total, input.page, input.page_size);
  },
});

async function filingOrNotFound(sql: Parameters<typeof filingOf>[0], cik: string, accession: string) {
  const row = await filingOf(sql, cik, accession);
  if (!row) {
    throw new ServiceError('NOT_FOUND', `No filing ${accession} of CIK ${cik} is on record. List the company's filings with /v1/edgar/companies/${cik}/filings.`, {
      cik,
      accession_id: accession,
    });
  }
  return row;
}

export const filingDetail = defineTool({
  name: 'edgar.filing',
  title: 'One filing',
  description:
    'One filing of a company: the filing record (form, dates, fiscal focus, facts, package read) and the statement versions it created. ' +
    '404 when the company has no filing with that accession.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/filings/{accession_id}' },
  tool: false,
  plan: 'free',
  input: z.object({ cik: Cik, accession_id: AccessionParam }),
  output: dataEnvelope(FilingDetailOut),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const row = await filingOrNotFound(services.sql, input.cik, input.accession_id);
    const versions = await versionHeadersOfFiling(services.sql, row.accession_id);
    return { data: { ...filingOut(row), statement_versions: versions.map(versionRef) } };
  },
});

export const filingStatements = defineTool({
  name: 'edgar.filing_statements',
  title: 'Statement versions a filing created',
  description:
    'Every statement version a filing created (its own periods and any earlier period it restated), each in full: facts with provenance and the accounting identities in normalized_payload._meta.identity. ' +
    'is_latest is false where a later filing has since superseded the version. An empty list means the filing created no version (not a periodic report, or nothing changed); 404 for an unknown filing.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/filings/{accession_id}/statements' },
  tool: false,
  plan: 'free',
  input: z.object({ cik: Cik, accession_id: AccessionParam }),
  output: dataEnvelope(z.array(StatementVersionOut)),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    await filingOrNotFound(services.sql, input.cik, input.accession_id);
    const rows = await versionsOfFiling(services.sql, input.cik, input.accession_id);
    return { data: rows.map((r) => versionOut(r, r.is_latest, byCatalogOrder)) };
  },
});

export const companyStatements = defineTool({
  name: 'edgar.company_statements',
  title: "A company's statement versions",
  description:
    "Lists a company's statement versions, newest period first (then income statement, balance sheet, cash flow; newest version first). " +
    'Without include_normalized each item is the version record only (identity, filing, dates, metrics_count); include_normalized=true adds normalized_payload (facts with provenance, _meta.identity). ' +
    'latest_only=true keeps the newest version of each statement; as_of_date keeps versions filed by then. An empty page means no statement matches.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/statements' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik,
    statement_type: StatementTypeParam.optional(),
    fiscal_year: FiscalYear.optional(),
    fiscal_period: FiscalPeriodParam.optional(),
    include_normalized: z.boolean().default(false).describe('add normalized_payload (facts, _meta.identity) to each version; default false'),
    latest_only: z.boolean().default(false).describe('only the newest version of each statement (as of as_of_date when given); default false lists every version'),
    as_of_date: AsOfDate.optional(),
    ...PageParams,
  }),
  output: paginated(ListedVersionOut),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const { total, rows } = await listVersions(
      services.sql,
      {
        cik: input.cik,
        statement_type: input.statement_type ?? null,
        fiscal_year: input.fiscal_year ?? null,
        fiscal_period: input.fiscal_period ?? null,
        as_of_date: input.as_of_date ?? null,
        latest_only: input.latest_only,
      },
      input.include_normalized,
      { limit: input.page_size, offset: (input.page - 1) * input.page_size },
    );
    const items = rows.map((r) => {
      const header = versionHeaderOut(r);
      if (!input.include_normalized || !r.figures) return header;
      const full = versionOut({ ...r, figures: r.figures, calculation_evidence: r.calculation_evidence ?? null }, r.is_latest, byCatalogOrder);
      return { ...header, normalized_payload: full.normalized_payload };
    });
    return pageOf(items, total, input.page, input.page_size);
  },
});

const StateStatement = z.object({
  statement_type: StatementTypeParam,
  ...VersionKeyOut.shape,
  source_accession: z.string(),
  filing_type: z.string(),
  filing_date: z.string(),
});

const StateRow = z.object({
  cik: CikOut,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  period_start: z.string().nullable().describe('start of the period (from the income or cash-flow statement); null when the period has only a balance sheet'),
  period_end: z.string(),
  currency: z.string().nullable().describe('reporting currency of the statements'),
  statements: z
    .array(StateStatement)
    .describe('the version each statement type contributes: the latest one visible (on as_of_date when given); a statement type the period lacks is absent'),
  metrics_reported_count: z.number().int().describe('metrics with a value in this row'),
  metrics: z
    .record(z.string(), DecimalString.nullable())
    .describe(`every canonical metric (${CANONICAL_METRIC_NAMES.length}, in catalog order) as a decimal string, null where the period's statements do not report it`),
  coherence: z
    .record(z.string(), CoherenceOut)
    .optional()
    .describe("each reported money flow of the income and cash-flow statements whose fiscal year's four served quarters do not add up to its served year -> why; a money flow absent here adds up (or its year is not served whole); left out where none is marked"),
});

const METRIC_TYPE = new Map(CANONICAL_METRICS.map((m) => [m.metric, m.statement_type]));

export const financialStateTimeSeries = defineTool({
  name: 'edgar.financial_state_time_series',
  title: 'Financial state per fiscal period',
  description:
    'One row per fiscal period of a company, oldest first: the latest version of its income statement, balance sheet and cash-flow statement merged into the full canonical metric set ' +
    '(every canonical metric key; null where not reported), with the version each statement came from. period_type annual gives FY rows, quarterly gives Q1-Q4 (Q4 derived); both when omitted. ' +
    'as_of_date gives the state knowable on that date. The same query as the financial_state_time_series query type.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/financial-state/time-series' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik,
    period_type: z.enum(['annual', 'quarterly']).optional().describe('annual (FY) or quarterly (Q1-Q4); both when omitted'),
    fiscal_year_from: FiscalYear.optional(),
    fiscal_year_to: FiscalYear.optional(),
    as_of_date: AsOfDate.optional(),
    ...PageParams,
  }),
  output: paginated(StateRow),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    checkYearRange(input.fiscal_year_from, input.fiscal_year_to);
    const { total, periods } = await financialState(
      services.sql,
      {
        cik: input.cik,
        fiscal_periods: input.period_type === 'annual' ? ['FY'] : input.period_type === 'quarterly' ? [...QUARTERS] : null,
        fiscal_year_from: input.fiscal_year_from ?? null,
        fiscal_year_to: input.fiscal_year_to ?? null,
        as_of_date: input.as_of_date ?? null,
      },
      { limit: input.page_size, offset: (input.page - 1) * input.page_size },
    );
    const visibility = { as_of_date: input.as_of_date ?? null, as_reported: false };
    const years = periods.map((p) => p.fiscal_year);
    const [incomeMarks, cashMarks] = await Promise.all([
      coherenceMarks(services.sql, input.cik, 'INCOME_STATEMENT', years, visibility),
      coherenceMarks(services.sql, input.cik, 'CASH_FLOW_STATEMENT', years, visibility),
    ]);
    const items = periods.map((p) => {
      const byType = new Map(p.versions.map((v) => [v.statement_type, v]));
      const coherence: Record<string, CoherenceWire> = {};
      const metrics: Record<string, string | null> = {};
      let reported = 0;
      for (const name of CANONICAL_METRIC_NAMES) {
        const figure = byType.get(METRIC_TYPE.get(name)!)?.figures[name];
        metrics[name] = figure ? wireDecimal(figure.value) : null;
        if (!figure) continue;
        reported++;
        const mark = coherenceOf(METRIC_TYPE.get(name) === 'INCOME_STATEMENT' ? incomeMarks : cashMarks, p.fiscal_year, p.fiscal_period, name);
        if (mark) coherence[name] = mark;
      }
      const duration = p.versions.find((v) => v.statement_type !== 'BALANCE_SHEET');
      return {
        cik: input.cik,
        fiscal_year: p.fiscal_year,
        fiscal_period: p.fiscal_period,
        period_start: duration?.period_start ?? null,
        period_end: p.period_end,
        currency: p.versions.find((v) => v.currency)?.currency ?? null,
        statements: p.versions.map((v) => ({
          statement_type: v.statement_type,
          statement_version_id: v.statement_version_id,
          version_sequence: v.version_sequence,
          source_accession: v.accession,
          filing_type: v.form,
          filing_date: v.filing_date,
        })),
        metrics_reported_count: reported,
        metrics,
        ...(Object.keys(coherence).length > 0 ? { coherence } : {}),
      };
    });
    return pageOf(items, total, input.page, input.page_size);
  },
});

export const FILING_TOOLS: ToolDefinition[] = [
  filingsList,
  filingDetail,
  filingStatements,
  companyStatements,
  financialStateTimeSeries,
  ...AS_OF_TOOLS,
];
