import { z } from 'zod';
import { companyCompleteness, coverageCompanies, coverageCompany, type CoverageCompanyRow, coverageInputs, type CoverageInputs, metricCoverage, populationCohorts, populationStats } from './queries.ts';
import { canonicalMetric } from '../../domain/catalog/index.ts';
import { companyCoverage, CORE_METRICS } from '../../domain/coverage.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool } from '../../api/define-tool.ts';
import { Cik, CikOut, dataEnvelope, DecimalString, FiscalPeriodParam, PageParams, pageOf, paginated, StatementTypeParam, Timestamp } from '../../api/schemas.ts';
import type { Services } from '../../api/services.ts';
import { CanonicalMetricParam } from '../../api/params.ts';
import { FILED_FISCAL_PERIODS, STATEMENT_TYPES, type FiledFiscalPeriod, type StatementType } from '../../domain/statements/types.ts';

const coreList = STATEMENT_TYPES.map((t) => `${t}: ${CORE_METRICS[t].join(', ')}`).join('; ');

const Share = DecimalString.nullable();

const CompanyCoverage = z.object({
  cik: CikOut,
  company_id: z.string().nullable().describe('our company UUID; null when the filer is not in the company reference'),
  company_name: z.string().nullable(),
  status: z
    .enum(['COMPLETE', 'PARTIAL', 'NO_STATEMENTS', 'NO_PERIODIC_REPORTS'])
    .describe(
      'COMPLETE: every expected period holds a core metric; PARTIAL: some expected period holds none (see gaps); ' +
        'NO_STATEMENTS: periodic reports are on record but none carried XBRL facts we could read (filed before XBRL, or not in the source), so an empty read is a gap; ' +
        'NO_PERIODIC_REPORTS: the filer files no 10-K/10-Q/20-F/40-F, so nothing is expected',
    ),
  first_fiscal_year: z.number().int().nullable().describe('first fiscal year a periodic report with XBRL facts is for (start of the reporting life)'),
  last_fiscal_year: z.number().int().nullable().describe('last fiscal year a periodic report with XBRL facts is for'),
  fiscal_year_in_progress: z.number().int().nullable().describe('the last fiscal year when its annual report is not on record yet: its FY is not expected, its quarters are up to the latest reported'),
  transition_fiscal_years: z.array(z.number().int()).describe('fiscal years named only by transition reports (10-KT, 10-QT): the stub of a fiscal-year-end change; nothing is expected of them'),
  skipped_fiscal_years: z.array(z.number().int()).describe("labels the filer's own fiscal-year numbering skipped while its annual periods stayed a year apart; nothing is expected of them"),
  annual_periods_expected: z.number().int().describe('one FY per fiscal year of the reporting life, less transition and skipped years and the year in progress'),
  annual_periods_populated: z.number().int().describe('expected FY periods holding at least one core metric'),
  quarterly_periods_expected: z.number().int().describe('Q1-Q3 per fiscal year from the first to the last year a 10-Q names (Q4 is derived, never expected); 0 for filers with no quarterly reports'),
  quarterly_periods_populated: z.number().int().describe('expected quarters holding at least one core metric'),
  core_metric_completeness: Share.describe('share (0-1, six fraction digits) of expected periods holding at least one core metric: whether a period is there, not how many metrics it has; null when nothing is expected'),
  income_statement_completeness: Share.describe("share of expected periods whose income statement holds one of its core metrics; null when nothing is expected"),
  balance_sheet_completeness: Share.describe("share of expected periods whose balance sheet holds one of its core metrics; null when nothing is expected"),
  cash_flow_statement_completeness: Share.describe("share of expected periods whose cash-flow statement holds one of its core metrics; null when nothing is expected"),
  annual_reporting_continuous: z.boolean().describe('every annual period of the reporting life is present, tolerating the year in progress; false with no reporting life'),
  gaps: z
    .array(z.object({ fiscal_year: z.number().int(), fiscal_period: FiscalPeriodParam, missing_statement_types: z.array(StatementTypeParam) }))
    .describe('expected periods lacking a core metric on some statement type (all three: the period is missing), oldest first'),
  first_statement_fiscal_year: z.number().int().nullable().describe('earliest fiscal year with any statement; comparatives can reach before first_fiscal_year'),
  last_statement_fiscal_year: z.number().int().nullable(),
  latest_period_end: z.string().nullable().describe('latest period end of any statement'),
  statement_periods: z.number().int().describe('statement identities (type, fiscal year, period) on record, derived Q4s included'),
  statement_versions: z.number().int().describe('statement versions on record, restatements included'),
  restated_statement_periods: z.number().int().describe('statement identities with a restatement (a version that revised figures); a version that only added figures first told later does not count'),
  periodic_reports: z.number().int().describe('periodic reports on record (10-K, 10-Q, 20-F, 40-F, transition reports, amendments)'),
  periodic_reports_without_facts: z.number().int().describe('of those, reports with no XBRL facts in the source (e.g. filed before XBRL): counted, never expected'),
  latest_filing_date: z.string().nullable().describe('filing date of the latest periodic report on record'),
  last_ingested_at: Timestamp.nullable().describe("when ingestion last read the company's SEC data; null if never"),
});

function coverageOut(company: CoverageCompanyRow, inputs: CoverageInputs | undefined): z.input<typeof CompanyCoverage> {
  const c = companyCoverage(inputs?.reports ?? [], inputs?.statements ?? []);
  return { cik: company.cik, company_id: company.company_id, company_name: company.company_name, ...c, last_ingested_at: company.last_ingested_at };
}

async function knownCompany(services: Services, cik: string): Promise<CoverageCompanyRow> {
  const company = await coverageCompany(services.sql, cik);
  if (!company) {
    throw new ServiceError(
      'NOT_FOUND',
      `CIK ${cik} is unknown: not in the company reference, never ingested, no filing on record. Find CIKs with /v1/identity/search?query=... or /v1/edgar/companies:resolve?ticker=...`,
      { cik },
    );
  }
  return company;
}

const COVERAGE_RULES =
  'Expected periods come from the filer\'s own reporting life (first to last fiscal year its XBRL periodic reports are for): one FY per year and Q1-Q3 per year of quarterly reporting (Q4 is derived, never expected; 20-F filers expect no quarters); ' +
  `a period is populated when a latest statement version holds a core metric (${coreList}). Completeness figures are decimal strings with six fraction digits.`;

export const coverageCompaniesList = defineTool({
  name: 'coverage.companies',
  title: 'Coverage of every company',
  description:
    'Company coverage for every company we know (the company reference plus every ingested filer), ordered by CIK: what should exist against what does, so an empty read can be told apart from a gap. ' +
    COVERAGE_RULES +
    ' Paginated. On the Free plan the list shows only the companies this key holds (its coverage selection, /v1/coverage/selection); listing takes no slot. ' +
    'To learn whether we cover a company before taking a slot for it, resolve or search it (identity routes take no slot).',
  http: { method: 'GET', path: '/v1/coverage/companies' },
  tool: false,
  plan: 'free',
  input: z.object({ ...PageParams }),
  output: paginated(CompanyCoverage),
  handler: async (ctx, input) => {
    const { services } = ctx;
    const page = { limit: input.page_size, offset: (input.page - 1) * input.page_size };
    const { total, rows } = await coverageCompanies(services.sql, page, await ctx.visibleCompanies());
    const inputs = await coverageInputs(services.sql, rows.map((r) => r.cik));
    return pageOf(rows.map((r) => coverageOut(r, inputs.get(r.cik))), total, input.page, input.page_size);
  },
});

export const coverageCompanyOne = defineTool({
  name: 'coverage.company',
  title: 'Coverage of one company',
  description:
    'Is a missing statement a gap in our data or in the company\'s reporting? Coverage of one CIK (companies_resolve): reporting life, expected and populated annual and quarterly periods, completeness per statement type, continuity and the gaps by period. ' +
    COVERAGE_RULES +
    ' A known company with nothing on record answers with zero counts and a status saying why; NOT_FOUND only for a CIK we know nothing of.',
  http: { method: 'GET', path: '/v1/coverage/companies/{cik}' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({ cik: Cik }),
  output: dataEnvelope(CompanyCoverage),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const company = await knownCompany(services, input.cik);
    const inputs = await coverageInputs(services.sql, [input.cik]);
    return { data: coverageOut(company, inputs.get(input.cik)) };
  },
});

const Filing = z.object({
  accession: z.string(),
  form: z.string(),
  filing_date: z.string(),
  report_date: z.string().nullable().describe('end of the period reported, as the filing states it'),
});

const ByType = (what: string) =>
  z.object({
    INCOME_STATEMENT: z.number().int(),
    BALANCE_SHEET: z.number().int(),
    CASH_FLOW_STATEMENT: z.number().int(),
    total: z.number().int(),
  }).describe(what);

export const companyCompletenessSummary = defineTool({
  name: 'companies.completeness',
  title: 'Latest filing and statement counts of a company',
  description:
    'How current and how deep is our record of a company? Its latest filing (any form) and latest periodic report, with statement-version, statement-period and restated-period counts by statement type. ' +
    'Takes a CIK (companies_resolve). For expected-versus-present periods use coverage_company. NOT_FOUND only for a CIK we know nothing of.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}/completeness' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({ cik: Cik }),
  output: dataEnvelope(
    z.object({
      cik: CikOut,
      company_name: z.string().nullable(),
      latest_filing: Filing.nullable().describe('latest filing of any form on record; null when none'),
      latest_periodic_filing: Filing.nullable().describe('latest 10-K, 10-Q, 20-F, 40-F (or transition report, or amendment) on record; null when none'),
      statement_versions: ByType('statement versions on record by statement type (every version, restatements included)'),
      statement_periods: ByType('statement identities (fiscal year and period) by statement type, derived Q4s included'),
      restated_statement_periods: ByType('statement identities with a restatement (a version that revised figures), by statement type'),
      last_ingested_at: Timestamp.nullable(),
    }),
  ),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const company = await knownCompany(services, input.cik);
    const summary = await companyCompleteness(services.sql, input.cik);
    const count = (field: 'versions' | 'periods' | 'restated_periods') => {
      const of = (t: string) => summary.counts.find((c) => c.statement_type === t)?.[field] ?? 0;
      const byType = { INCOME_STATEMENT: of('INCOME_STATEMENT'), BALANCE_SHEET: of('BALANCE_SHEET'), CASH_FLOW_STATEMENT: of('CASH_FLOW_STATEMENT') };
      return { ...byType, total: byType.INCOME_STATEMENT + byType.BALANCE_SHEET + byType.CASH_FLOW_STATEMENT };
    };
    return {
      data: {
        cik: input.cik,
        company_name: company.company_name,
        latest_filing: summary.latest_filing,
        latest_periodic_filing: summary.latest_periodic_filing,
        statement_versions: count('versions'),
        statement_periods: count('periods'),
        restated_statement_periods: count('restated_periods'),
        last_ingested_at: company.last_ingested_at,
      },
    };
  },
});

export const coverageMetric = defineTool({
  name: 'coverage.metric',
  title: 'Coverage of one canonical metric',
  description:
    'How widely a canonical metric is carried across the corpus, on latest statement versions of its statement type: company_count (companies with at least one statement carrying it), ' +
    'years_covered (distinct fiscal years with it), statement_count (latest statement versions carrying it, derived Q4s included). A zero means the metric truly has no coverage. ' +
    'A name that is not canonical (a derived ratio such as GROSS_MARGIN, or a typo) is refused with 400 listing the accepted names.',
  http: { method: 'GET', path: '/v1/coverage/metrics/{metric}' },
  tool: false,
  plan: 'free',
  input: z.object({ metric: CanonicalMetricParam }),
  output: dataEnvelope(
    z.object({
      metric: z.string(),
      statement_type: StatementTypeParam,
      company_count: z.number().int(),
      years_covered: z.number().int().describe('distinct fiscal years in which a latest statement version carries the metric'),
      statement_count: z.number().int().describe('latest statement versions (one per company, fiscal year and period) carrying the metric'),
      statement_type_company_count: z.number().int().describe("companies with any statement of the metric's type: the base company_count is out of"),
    }),
  ),
  handler: async ({ services }, input) => {
    const metric = canonicalMetric(input.metric)!;
    const counts = await metricCoverage(services.sql, metric.metric, metric.statement_type);
    return { data: { metric: metric.metric, statement_type: metric.statement_type, ...counts } };
  },
});

const FormType = z
  .enum(['10-K', '10-Q'], { error: () => 'form_type is 10-K or 10-Q, the SEC spelling (FORM_10_K and the like are not accepted)' })
  .describe('10-K (annual statements, fiscal_period FY) or 10-Q (quarters Q1-Q3), the SEC spelling');

export const coverageMetrics = defineTool({
  name: 'coverage.metrics',
  title: 'Population statistics of canonical metrics',
  description:
    'How often statements carry each canonical metric, per statement type and fiscal period, for one cohort and form type: populated_rate (six fraction digits) = sampled statements carrying the metric / sample_size. ' +
    'Precomputed at the end of ingestion on a sampled cohort (computed_at says when; it can lag): ALL samples up to 200 companies with statements (a stable hash of the CIK), every fiscal year, latest versions; ' +
    '10-K rows are annual (FY) statements and 10-Q rows quarters Q1-Q3 (derived Q4s and 20-F/40-F statements are left out). ALL is the only cohort with statistics; another is refused with 400 naming the cohorts that have rows. ' +
    'Ordered by statement_type, fiscal_period, metric_name. Paginated.',
  http: { method: 'GET', path: '/v1/coverage/metrics' },
  tool: false,
  plan: 'free',
  input: z.object({
    cohort: z.string({ error: 'cohort is required: ALL is the only cohort with statistics' }).trim().min(1).max(64).transform((s) => s.toUpperCase()).describe('cohort of companies the statistics describe; ALL is the only one'),
    form_type: FormType,
    ...PageParams,
  }),
  output: paginated(
    z.object({
      metric_name: z.string(),
      statement_type: StatementTypeParam,
      form_type: z.enum(['10-K', '10-Q']),
      fiscal_period: z.enum(FILED_FISCAL_PERIODS),
      cohort: z.string(),
      populated_rate: DecimalString.describe('populated_count / sample_size, six fraction digits'),
      populated_count: z.number().int().describe('sampled statements carrying the metric'),
      sample_size: z.number().int().describe('sampled statements of this statement type, form type and fiscal period'),
      sample_companies: z.number().int().describe('companies in the cohort sample'),
      computed_at: Timestamp.describe('when the statistics were computed; they can lag the corpus'),
    }),
  ),
  handler: async ({ services }, input) => {
    const cohorts = await populationCohorts(services.sql);
    if (!cohorts.includes(input.cohort)) {
      throw new ServiceError(
        'VALIDATION_ERROR',
        cohorts.length > 0
          ? `No statistics for cohort ${JSON.stringify(input.cohort)}. Cohorts with statistics: ${cohorts.join(', ')}.`
          : `No statistics for cohort ${JSON.stringify(input.cohort)}: no cohort has statistics yet. They are computed at the end of ingestion (npm run fds -- ingest).`,
        { cohort: input.cohort, cohorts_with_statistics: cohorts },
      );
    }
    const { total, rows } = await populationStats(services.sql, input.cohort, input.form_type, { limit: input.page_size, offset: (input.page - 1) * input.page_size });
    const items = rows.map((r) => ({
      ...r,
      statement_type: r.statement_type as StatementType,
      form_type: r.form_type as '10-K' | '10-Q',
      fiscal_period: r.fiscal_period as FiledFiscalPeriod,
      populated_rate: wireDecimal(r.populated_rate),
    }));
    return pageOf(items, total, input.page, input.page_size);
  },
});

export const COVERAGE_TOOLS = [coverageCompaniesList, coverageCompanyOne, coverageMetrics, coverageMetric, companyCompletenessSummary];
