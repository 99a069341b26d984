import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { catalogView } from '../domain/normalize/catalog-view.ts';
import { parseCompanyFacts, companyFactsUrl } from '../ingest/companyfacts.ts';
import { ingestCompany } from '../ingest/ingest-company.ts';
import { startRun } from '../db/ingestion-runs.ts';
import { mergePackageFacts, factsFromInstance } from '../domain/package-facts.ts';
import { openSecSource } from '../ingest/source.ts';
import { listCompanyPackages, readCompanyPackages } from '../ingest/packages.ts';
import { get } from './helpers/http.ts';
import { SHARED_SEC, startTestService, type TestService } from './helpers/service.ts';

/**
 * What filing packages add on the ingested ../shared/sec corpus: statements for companies known
 * only from their packages, concept choice by presentation, calculation evidence, segment rows
 * and narrative disclosures, read through the real routes. Figures are the filers' own, from the
 * filing named at each assertion.
 */
const APPLE = '0000320193';
const AMAZON = '0001018724';
const TESLA = '0001318605';
const EXXON = '0000034088';
const APPLE_10K_2023 = '0000320193-23-000106';
const AMAZON_10K_2022 = '0001018724-23-000004';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

async function statement(query: string) {
  const r = await get(`${svc.baseUrl}/v1/fundamentals/normalized-statements?${query}`, svc.keys.enterprise);
  assert.equal(r.status, 200, r.text);
  return r.body.data;
}

const fact = (data: any, metric: string) => data.normalized_payload.facts.find((f: any) => f.metric === metric);

describe('filings known only from their package', () => {
  it("Amazon (no company facts, no submissions) gets its FY2022 statements from its 10-K package, with the filing date bounded by SEC's deadline", async () => {
    const is = await statement(`cik=${AMAZON}&statement_type=INCOME_STATEMENT&fiscal_year=2022&fiscal_period=FY`);
    assert.equal(fact(is, 'REVENUE').value, '513983000000.000000');
    assert.equal(fact(is, 'NET_INCOME').value, '-2722000000.000000');
    assert.equal(is.source_accession, AMAZON_10K_2022);
    assert.equal(is.period_start, '2022-01-01');
    assert.equal(is.period_end, '2022-12-31');
    const bs = await statement(`cik=${AMAZON}&statement_type=BALANCE_SHEET&fiscal_year=2022&fiscal_period=FY`);
    assert.equal(fact(bs, 'TOTAL_ASSETS').value, '462675000000.000000');
    // Amazon filed on 2023-02-03; unknown here, the filing is dated by the 90-day deadline and flagged
    assert.equal(is.filing_date, '2023-03-31');
    const [filing] = await svc.sql`SELECT source, filing_date_estimated, form, report_date::text, package FROM filings WHERE accession = ${AMAZON_10K_2022}`;
    assert.equal(filing!.source, 'package');
    assert.equal(filing!.filing_date_estimated, true);
    assert.equal(filing!.form, '10-K');
    assert.equal(filing!.report_date, '2022-12-31');
    assert.equal(filing!.package.facts_from, 'instance');
  });

  it('a point-in-time read before the estimated filing date does not see a package-only filing', async () => {
    const early = await get(
      `${svc.baseUrl}/v1/edgar/companies/${AMAZON}/metrics/REVENUE/time-series?period_type=annual&as_of_date=2023-03-30`,
      svc.keys.enterprise,
    );
    assert.equal(early.status, 200, early.text);
    assert.equal(early.body.total, 0);
    const onTime = await get(`${svc.baseUrl}/v1/edgar/companies/${AMAZON}/metrics/REVENUE/time-series?period_type=annual&as_of_date=2023-03-31`, svc.keys.enterprise);
    assert.deepEqual(onTime.body.items.map((p: any) => [p.fiscal_year, p.value]), [
      [2020, '386064000000.000000'],
      [2021, '469822000000.000000'],
      [2022, '513983000000.000000'],
    ]);
  });

  it("UnitedHealth's inline-only 10-K (no extracted instance, no linkbases) still yields statements", async () => {
    const is = await statement(`cik=0000731766&statement_type=INCOME_STATEMENT&fiscal_year=2024&fiscal_period=FY`);
    assert.equal(fact(is, 'REVENUE').value, '400278000000.000000');
    assert.equal(fact(is, 'NET_INCOME').value, '14405000000.000000');
    const [filing] = await svc.sql`SELECT package FROM filings WHERE accession = '0000731766-25-000063'`;
    assert.equal(filing!.package.facts_from, 'inline');
    assert.equal(filing!.package.linkbases, false);
  });

  it('a folder not named by an accession number is skipped with its reason, and nothing is invented for it', async () => {
    const run = await startRun(svc.sql, 'test', [EXXON], new Date());
    const result = await ingestCompany(svc.sql, openSecSource(SHARED_SEC), EXXON, run, catalogView(), () => new Date());
    assert.equal(result.status, 'no_data');
    assert.equal(result.skipped_folders.length, 1);
    assert.match(result.skipped_folders[0]!.folder, /unknown-10-Q-2025-06-30\/$/);
    assert.match(result.skipped_folders[0]!.reason, /accession/);
    const [row] = await svc.sql`SELECT count(*)::int AS n FROM filings WHERE cik = ${EXXON}`;
    assert.equal(row!.n, 0);
  });
});

describe('package facts merged with company facts', () => {
  it("Apple's 10-K package adds only facts company facts lack: none of the merged facts of that filing is told twice", async () => {
    const source = openSecSource(SHARED_SEC);
    const companyFacts = parseCompanyFacts((await source.readText(companyFactsUrl(APPLE)))!).facts;
    const listing = await listCompanyPackages(source, APPLE, []);
    const { packages } = await readCompanyPackages(source, listing.folders.filter((f) => f.accession === APPLE_10K_2023));
    const filing = { accession: APPLE_10K_2023, form: '10-K', filing_date: '2023-11-03', report_date: '2023-09-30', accepted_at: null, primary_document: null, fiscal_year_focus: 2023, fiscal_period_focus: 'FY', source: 'submissions' as const, filing_date_estimated: false };
    const fromPackage = factsFromInstance(packages[0]!.instance, filing);
    const merged = mergePackageFacts(companyFacts, new Map([[APPLE_10K_2023, fromPackage]]));
    const keys = merged.facts.filter((f) => f.accession === APPLE_10K_2023).map((f) => `${f.taxonomy}:${f.concept}|${f.unit}|${f.start}|${f.end}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(merged.added + merged.duplicates, fromPackage.length);
    assert.ok(merged.duplicates > 400, `${merged.duplicates} facts both sources tell`);
    // what the package adds: the filer's extension concepts, which company facts never carry
    const added = merged.facts.slice(companyFacts.length);
    assert.ok(added.length > 0 && added.every((f) => f.accession === APPLE_10K_2023), `${added.length} added facts, all of the package's filing`);
    assert.ok(added.some((f) => f.taxonomy === 'aapl'), 'extension facts are added');
  });
});

describe('concept choice by presentation', () => {
  it("Tesla's revenue is the concept its statement of operations presents (contract revenue), not the catalog's first candidate, and provenance says so", async () => {
    const is = await statement(`cik=${TESLA}&statement_type=INCOME_STATEMENT&fiscal_year=2024&fiscal_period=Q2`);
    const revenue = fact(is, 'REVENUE');
    assert.equal(revenue.value, '25500000000.000000');
    assert.equal(revenue.source_xbrl_concept, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    assert.equal(revenue.selection_rule, 'PRESENTATION_LINKBASE');
    // the filing also tags us-gaap:Revenues, the catalog's first candidate, for the same quarter
    const source = openSecSource(SHARED_SEC);
    const listing = await listCompanyPackages(source, TESLA, []);
    const { packages } = await readCompanyPackages(source, listing.folders.filter((f) => f.accession === '0001628280-24-032662'));
    const instance = packages[0]!.instance;
    const revenues = instance.facts.filter((f) => {
      const ctx = instance.contexts.get(f.contextRef)!;
      return f.concept === 'us-gaap:Revenues' && ctx.dimensions.length === 0 && ctx.start === '2024-04-01' && ctx.end === '2024-06-30';
    });
    assert.deepEqual(revenues.map((f) => f.value), ['25500000000']);
  });

  it("an inline-only filing next to one with linkbases takes the neighbour's face (Tesla's FY2024 10-K), and distant filings keep the catalog order", async () => {
    const fy2024 = await statement(`cik=${TESLA}&statement_type=INCOME_STATEMENT&fiscal_year=2024&fiscal_period=FY`);
    assert.equal(fact(fy2024, 'REVENUE').selection_rule, 'COMPANY_PRESENTATION');
    assert.equal(fact(fy2024, 'REVENUE').source_xbrl_concept, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    const apple2015 = await statement(`cik=${APPLE}&statement_type=CASH_FLOW_STATEMENT&fiscal_year=2015&fiscal_period=FY`);
    const da = fact(apple2015, 'DEPRECIATION_AND_AMORTIZATION');
    assert.equal(da.selection_rule, 'CANDIDATE_ORDER');
    assert.equal(da.value, '11257000000.000000', "Apple's FY2015 cash-flow statement shows depreciation and amortization of $11,257M");
  });
});

describe('calculation evidence', () => {
  it("Apple's FY2023 balance sheet as its 10-K filed it carries the filer's calculation of total assets, which holds", async () => {
    // version 1, from the 10-K with its calculation linkbase; later versions come from filings without one
    const bs = await statement(`cik=${APPLE}&statement_type=BALANCE_SHEET&fiscal_year=2023&fiscal_period=FY&as_of_date=2023-11-03`);
    assert.equal(bs.source_accession, APPLE_10K_2023);
    const evidence = bs.normalized_payload._meta.calculation_evidence;
    assert.ok(Array.isArray(evidence) && evidence.length > 0, JSON.stringify(evidence));
    const assets = evidence.find((e: any) => e.metric === 'TOTAL_ASSETS');
    assert.equal(assets.concept, 'us-gaap:Assets');
    assert.equal(assets.reported_value, '352583000000.000000');
    assert.equal(assets.computed_value, '352583000000.000000');
    assert.equal(assets.holds, true);
    assert.deepEqual(
      assets.children.map((c: any) => c.concept),
      ['us-gaap:AssetsCurrent', 'us-gaap:AssetsNoncurrent'],
    );
    const liabilitiesAndEquity = evidence.find((e: any) => e.metric === 'LIABILITIES_AND_EQUITY');
    assert.equal(liabilitiesAndEquity.holds, true);
    assert.deepEqual(liabilitiesAndEquity.identity_rules, ['BS_LIABILITIES_PLUS_EQUITY']);
    assert.deepEqual(assets.identity_rules, ['BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY', 'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY']);
    // later filings re-told fiscal 2023 only as the same figures (105.1B for 105,103M of debt): no later version
    const latest = await statement(`cik=${APPLE}&statement_type=BALANCE_SHEET&fiscal_year=2023&fiscal_period=FY`);
    assert.equal(latest.version_sequence, 1);
    assert.deepEqual(latest.normalized_payload._meta.calculation_evidence, evidence);
  });

  it('a version built from company facts alone has no calculation evidence (null, not an empty claim)', async () => {
    const old = await statement(`cik=${APPLE}&statement_type=BALANCE_SHEET&fiscal_year=2015&fiscal_period=FY`);
    assert.equal(old.normalized_payload._meta.calculation_evidence, null);
  });
});

describe('segment rows', () => {
  async function segments(query: string, key = svc.keys.enterprise) {
    const r = await get(`${svc.baseUrl}/v1/metrics/segments?${query}`, key);
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  it("Apple's five geographic segments' FY2023 net sales sum exactly to the consolidated figure of the statement version they name", async () => {
    const page = await segments(`cik=${APPLE}&period=2023-09-30&dimension_type=BUSINESS_SEGMENT&page_size=200`);
    const revenue = page.items.filter((r: any) => r.metric === 'REVENUE' && r.period_start === '2022-09-25' && r.accession_id === APPLE_10K_2023);
    assert.deepEqual(revenue.map((r: any) => r.member_label).sort(), ['Americas', 'Europe', 'Greater China', 'Japan', 'Rest of Asia Pacific']);
    const sum = revenue.reduce((acc: Decimal, r: any) => acc.plus(r.value), new Decimal(0));
    assert.equal(sum.toFixed(6), '383285000000.000000');
    const versionIds = new Set(revenue.map((r: any) => r.statement_version_id));
    assert.equal(versionIds.size, 1);
    assert.ok(revenue.every((r: any) => r.consolidated_value === '383285000000.000000'), 'each row carries the consolidated net sales');
    // the version the 10-K presented (a later 10-K added selling and G&A figures in version 2)
    const is = await statement(`cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY&as_of_date=2023-11-03`);
    assert.ok(versionIds.has(is.statement_version_id), 'the rows reconcile with the FY2023 income statement the 10-K presented');
    assert.ok(revenue.every((r: any) => r.fiscal_year === 2023 && r.fiscal_period === 'FY'), 'rows are labelled FY2023');
  });

  it('filters by fiscal period and dimension type, pages with a total, and keeps ids stable', async () => {
    const all = await segments(`cik=${APPLE}&period=2023-FY&page_size=200`);
    assert.ok(all.total > 0 && all.items.every((r: any) => r.fiscal_year === 2023 && r.fiscal_period === 'FY'), `${all.total} rows, all FY2023`);
    const products = await segments(`cik=${APPLE}&period=2023-FY&dimension_type=PRODUCT_SERVICE&page_size=200`);
    assert.ok(products.items.length > 0 && products.items.every((r: any) => r.dimension_type === 'PRODUCT_SERVICE'), 'only product and service rows');
    const paged = await segments(`cik=${APPLE}&period=2023-FY&page_size=3&page=2`);
    assert.equal(paged.total, all.total);
    assert.deepEqual(paged.items.map((r: any) => r.metric_dimension_id), all.items.slice(3, 6).map((r: any) => r.metric_dimension_id));
  });

  it('company_id reaches the same rows as cik; unknown periods give an empty page; bad input is a 400', async () => {
    const [company] = await svc.sql`SELECT company_id FROM companies WHERE cik = ${APPLE}`;
    const byId = await segments(`company_id=${company!.company_id}&period=2023-09-30&page_size=5`);
    const byCik = await segments(`cik=${APPLE}&period=2023-09-30&page_size=5`);
    assert.deepEqual(byId, byCik);
    const none = await segments(`cik=${APPLE}&period=1999-FY`);
    assert.deepEqual([none.total, none.items], [0, []]);
    for (const q of ['period=2023-FY', `cik=${APPLE}&period=FY2023`, `cik=${APPLE}&dimension_type=REGION`, `cik=${APPLE}&company_id=${company!.company_id.replace(/^./, (c: string) => (c === '0' ? '1' : '0'))}`]) {
      const r = await get(`${svc.baseUrl}/v1/metrics/segments?${q}`, svc.keys.enterprise);
      assert.ok([400, 404].includes(r.status), `${q}: ${r.status}`);
      assert.ok(['VALIDATION_ERROR', 'NOT_FOUND'].includes(r.body.error.code), r.text);
    }
    const missing = await get(`${svc.baseUrl}/v1/metrics/segments?period=2023-FY`, svc.keys.enterprise);
    assert.equal(missing.status, 400);
    assert.match(missing.body.error.message, /cik or company_id/);
  });
});

describe('narrative disclosures', () => {
  it("lists Apple's 10-K notes without text, filtered by filing, with titles from its label linkbase", async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies/${APPLE}/disclosures?accession_id=${APPLE_10K_2023}&page_size=200`, svc.keys.free);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.total > 20, `${r.body.total} notes`);
    for (const item of r.body.items) {
      assert.deepEqual(Object.keys(item).sort(), ['accession_id', 'char_count', 'cik', 'concept', 'disclosure_id', 'period_of_report', 'title']);
      assert.equal(item.accession_id, APPLE_10K_2023);
      assert.equal(item.period_of_report, '2023-09-30');
    }
    const tax = r.body.items.find((i: any) => i.concept === 'us-gaap:IncomeTaxDisclosureTextBlock');
    assert.equal(tax.title, 'Income Taxes');
    const extension = r.body.items.filter((i: any) => i.concept.startsWith('src:'));
    assert.ok(extension.length > 0, 'filer extensions carry the src: prefix');
    assert.ok(r.body.items.every((i: any) => /^(us-gaap|dei|srt|ecd|cyd|src):/.test(i.concept)), 'standard prefixes or src:');
  });

  it('serves one note as readable plain text: no tags, entities decoded, table rows legible', async () => {
    const list = await get(`${svc.baseUrl}/v1/edgar/companies/${APPLE}/disclosures?accession_id=${APPLE_10K_2023}&page_size=200`, svc.keys.free);
    const tax = list.body.items.find((i: any) => i.concept === 'us-gaap:IncomeTaxDisclosureTextBlock');
    const r = await get(`${svc.baseUrl}/v1/edgar/disclosures/${tax.disclosure_id}`, svc.keys.free);
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.equal(d.disclosure_id, tax.disclosure_id);
    assert.equal(d.char_count, [...d.disclosure_text].length);
    assert.doesNotMatch(d.disclosure_text, /<\/?[A-Za-z][^>]*>/);
    assert.doesNotMatch(d.disclosure_text, /&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);/);
    assert.match(d.disclosure_text, /^Income Taxes/);
    // Apple's provision for income taxes for 2023 was $16,741M: a table row keeps its label and figures on one line
    assert.match(d.disclosure_text, /Provision for income taxes[^\n]*\$\s?16,741/);
    assert.match(d.extracted_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  });

  it('filters by period of report, answers an empty page for a company without packages, 404 for an unknown id and 400 for a malformed one', async () => {
    const byPeriod = await get(`${svc.baseUrl}/v1/edgar/companies/${APPLE}/disclosures?period_of_report=2023-09-30&page_size=5`, svc.keys.free);
    assert.ok(byPeriod.body.total > 0 && byPeriod.body.items.every((i: any) => i.period_of_report === '2023-09-30'), 'only notes of reports on 2023-09-30');
    const none = await get(`${svc.baseUrl}/v1/edgar/companies/0000789019/disclosures`, svc.keys.enterprise);
    assert.equal(none.status, 200);
    assert.deepEqual([none.body.total, none.body.items], [0, []]);
    const unknown = await get(`${svc.baseUrl}/v1/edgar/disclosures/00000000-0000-5000-8000-000000000000`, svc.keys.free);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'NOT_FOUND');
    const bad = await get(`${svc.baseUrl}/v1/edgar/disclosures/not-a-uuid`, svc.keys.free);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
    const badAccession = await get(`${svc.baseUrl}/v1/edgar/companies/${APPLE}/disclosures?accession_id=320193-23-106`, svc.keys.free);
    assert.equal(badAccession.status, 400);
  });
});
