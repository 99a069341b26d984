import { z } from 'zod';
import { cikOfCompanyId, disclosureById, listDisclosures, listSegments, type SegmentFilter } from './queries.ts';
import { wireDecimal, wireDecimalOrNull } from '../../domain/decimal.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool } from '../../api/define-tool.ts';
import { Cik, CikOut, dataEnvelope, DecimalString, FiscalPeriodParam, FiscalYear, IsoDate, PageParams, pageOf, paginated, StatementTypeParam, Timestamp, Uuid } from '../../api/schemas.ts';
import { DIMENSION_TYPES } from '../../domain/segments.ts';
import { CanonicalMetricParam } from '../../api/params.ts';

/**
 * What filing packages add beyond statements: narrative disclosures (TextBlock facts as plain
 * text) and segment rows (dimensional facts on segment, geographic, product and customer axes).
 */

/** Characters of a note one tool call returns by default: about 3,000 tokens, well inside a context window. */
const TOOL_TEXT_CHARS = 12_000;

const AccessionParam = z
  .string()
  .regex(/^\d{10}-\d{2}-\d{6}$/, 'an accession number is written 0000320193-23-000106')
  .describe('SEC accession number, e.g. 0000320193-23-000106');

const DisclosureListItem = z.object({
  disclosure_id: z.string().describe('stable id: the same filing, concept and context always give the same id'),
  accession_id: z.string(),
  cik: CikOut,
  period_of_report: z.string().nullable().describe('the period the filing reports on (YYYY-MM-DD)'),
  concept: z.string().describe("the filer's tag, e.g. us-gaap:IncomeTaxDisclosureTextBlock; src:<name> marks a filing-specific extension"),
  title: z.string().describe("the note's title: the filing's own label for the tag, else the note's heading in the filing, else the tag in words"),
  char_count: z.number().int().describe('characters of disclosure_text'),
});

const DisclosureDetail = DisclosureListItem.extend({
  disclosure_text: z.string().describe('the note as readable plain text: no markup, entities decoded, tables as aligned columns; with max_chars, the part from offset'),
  text_offset: z.number().int().optional().describe('with max_chars: where disclosure_text starts in the note'),
  next_offset: z.number().int().nullable().optional().describe('with max_chars: pass as offset to read on; null when the note ends in this part'),
  extracted_at: Timestamp.describe('when the text was extracted from the filing'),
  form: z.string().describe('form of the filing, e.g. 10-K'),
  filing_date: z.string().describe('SEC filing date (YYYY-MM-DD)'),
});

export const companyDisclosures = defineTool({
  name: 'edgar.company_disclosures',
  title: 'Narrative disclosures of a company',
  description:
    "Which notes did a company's filings carry (income taxes, leases, revenue recognition ...)? Lists the narrative disclosures (TextBlock facts), newest report first: id, filing, concept, title and length, without the text. " +
    'Narrow with search (text in the title), period_of_report or accession_id (filings_list gives accessions); read one note with edgar_disclosure. Takes a CIK (companies_resolve). An empty page means no filing package of the company was read.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/disclosures' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    cik: Cik,
    period_of_report: IsoDate.optional().describe('only disclosures of filings reporting on this period end (YYYY-MM-DD)'),
    accession_id: AccessionParam.optional().describe('only disclosures of this filing'),
    search: z.string().trim().min(2).max(100).optional().describe('only notes whose title or tag contains this text (case-insensitive), e.g. income tax'),
    ...PageParams,
  }),
  output: paginated(DisclosureListItem),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const { total, rows } = await listDisclosures(services.sql, {
      cik: input.cik,
      period_of_report: input.period_of_report,
      accession: input.accession_id,
      search: input.search,
      page: input.page,
      page_size: input.page_size,
    });
    return pageOf(rows, total, input.page, input.page_size);
  },
});

export const disclosureDetail = defineTool({
  name: 'edgar.disclosure',
  title: 'One narrative disclosure with its text',
  description:
    "What does a note say? One narrative disclosure of a filing with its text (plain text, tables as aligned columns); disclosure_id comes from edgar_company_disclosures. " +
    `Notes run to 60,000 characters: on the tool server the text comes in parts of max_chars (default ${TOOL_TEXT_CHARS}) from offset, and next_offset says where to read on.`,
  http: { method: 'GET', path: '/v1/edgar/disclosures/{disclosure_id}' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    disclosure_id: Uuid.describe('id from edgar_company_disclosures'),
    max_chars: z.number().int().min(1000).max(100_000).optional().describe(`return at most this many characters of the text; default ${TOOL_TEXT_CHARS} on the tool server, the whole note over HTTP`),
    offset: z.number().int().min(0).default(0).describe('first character to return (next_offset of the previous part)'),
  }),
  output: dataEnvelope(DisclosureDetail),
  handler: async (ctx, input) => {
    const row = await disclosureById(ctx.services.sql, input.disclosure_id);
    if (!row) throw new ServiceError('NOT_FOUND', `no disclosure ${input.disclosure_id}; list a company's disclosures with edgar_company_disclosures (HTTP: /v1/edgar/companies/{cik}/disclosures)`);
    await ctx.reach([row.cik]);
    const max = input.max_chars ?? (ctx.surface === 'mcp' ? TOOL_TEXT_CHARS : null);
    if (max === null && input.offset === 0) return { data: row };
    const end = Math.min(row.disclosure_text.length, input.offset + (max ?? row.disclosure_text.length));
    return {
      data: { ...row, disclosure_text: row.disclosure_text.slice(input.offset, end), text_offset: input.offset, next_offset: end < row.disclosure_text.length ? end : null },
    };
  },
});

const DimensionType = z.enum(DIMENSION_TYPES);

const PERIOD_FORMS = /^(\d{4})(?:-(FY|Q[1-4]))?$|^(\d{4}-\d{2}-\d{2})$/;

const SegmentRowOut = z.object({
  metric_dimension_id: z.string().describe('stable id of the row: company, filing, metric, axis, member and period'),
  statement_version_id: z
    .string()
    .nullable()
    .describe('the consolidated statement version the figure reconciles with (filed together, same period); compare segment figures with a consolidated figure only within one id. null when the filing presented no such statement'),
  cik: CikOut,
  company_id: z.string().nullable(),
  accession_id: z.string().describe('filing the figure was read from'),
  filing_date: z.string(),
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int().nullable(),
  fiscal_period: FiscalPeriodParam.nullable().describe('null for a period no statement has (e.g. nine months)'),
  metric: z.string().describe('canonical metric, e.g. REVENUE'),
  concept: z.string().describe('the tag, e.g. us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'),
  dimension_type: DimensionType,
  axis: z.string().describe('e.g. us-gaap:StatementBusinessSegmentsAxis'),
  member: z.string().describe('e.g. aapl:GreaterChinaSegmentMember'),
  member_label: z.string().describe("the filing's label for the member, e.g. Greater China"),
  value: DecimalString.describe('in the metric sign convention'),
  unit: z.string(),
  period_start: z.string().nullable(),
  period_end: z.string(),
  decimals: z.string().nullable().describe("reported precision: 'INF' or a power of ten, e.g. '-6' for millions"),
  consolidated_value: DecimalString.nullable().describe('the metric on the statement version statement_version_id, for reconciliation; null when absent'),
});

export const metricSegments = defineTool({
  name: 'metrics.segments',
  title: 'Segment and geographic breakdowns',
  description:
    'How does a company break down by segment, region, product or customer? Dimensional figures for canonical metrics (metric=REVENUE for segment revenue), newest period first. ' +
    'Give cik (companies_resolve) or company_id. period narrows to a period end (YYYY-MM-DD), a fiscal year (2023) or a fiscal period (2023-FY, 2023-Q2); dimension_type to BUSINESS_SEGMENT, GEOGRAPHIC, PRODUCT_SERVICE or MAJOR_CUSTOMER. ' +
    'Members of one axis need not add up to the total (subtotals such as Products sit beside iPhone and Mac); consolidated_value is the total to compare with.',
  http: { method: 'GET', path: '/v1/metrics/segments' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    cik: Cik.optional(),
    company_id: Uuid.optional().describe('company id (as in coverage and identity records); cik or company_id is required'),
    period: z
      .string()
      .regex(PERIOD_FORMS, { message: 'period is a period end (2023-09-30), a fiscal year (2023) or a fiscal year and period (2023-FY, 2023-Q2)', abort: true })
      // the shape alone let 2024-02-30 and 0000-00-00 through to PostgreSQL (a 500): the period end
      // passes the date rules and the year the fiscal-year rules of every other parameter
      .superRefine((period, ctx) => {
        const m = PERIOD_FORMS.exec(period)!;
        const r = m[3] ? IsoDate.safeParse(m[3]) : FiscalYear.safeParse(Number(m[1]));
        for (const issue of r.error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message });
      })
      .optional()
      .describe('period end YYYY-MM-DD, fiscal year YYYY, or YYYY-FY / YYYY-Q1..Q4'),
    dimension_type: DimensionType.optional().describe('BUSINESS_SEGMENT, GEOGRAPHIC, PRODUCT_SERVICE or MAJOR_CUSTOMER'),
    metric: CanonicalMetricParam.optional().describe('only rows of this canonical metric, e.g. REVENUE'),
    ...PageParams,
  }),
  output: paginated(SegmentRowOut),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    let cik = input.cik;
    if (input.company_id) {
      const found = await cikOfCompanyId(ctx.services.sql, input.company_id);
      if (!found) throw new ServiceError('NOT_FOUND', `no company ${input.company_id}`);
      if (cik && cik !== found) throw new ServiceError('VALIDATION_ERROR', `company_id ${input.company_id} is CIK ${found}, not ${cik}; pass one of them`, { cik, company_id: input.company_id });
      if (!cik) await ctx.reach([found]);
      cik = found;
    }
    if (!cik) throw new ServiceError('VALIDATION_ERROR', 'cik or company_id is required', { required: ['cik', 'company_id'] });
    const filter: SegmentFilter = { cik, dimension_type: input.dimension_type, page: input.page, page_size: input.page_size };
    if (input.metric) filter.metric = input.metric;
    const m = input.period ? PERIOD_FORMS.exec(input.period)! : null;
    if (m?.[3]) filter.period_end = m[3];
    else if (m?.[1]) {
      filter.fiscal_year = Number(m[1]);
      if (m[2]) filter.fiscal_period = m[2];
    }
    const { total, rows } = await listSegments(ctx.services.sql, filter);
    const items = rows.map((r) => ({
      ...r,
      statement_type: r.statement_type,
      fiscal_period: r.fiscal_period,
      dimension_type: r.dimension_type,
      value: wireDecimal(r.value),
      consolidated_value: wireDecimalOrNull(r.consolidated_value),
    }));
    return pageOf(items, total, input.page, input.page_size);
  },
});

export const PACKAGE_TOOLS = [companyDisclosures, disclosureDetail, metricSegments];
