import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { CANONICAL_METRICS } from '../domain/catalog/index.ts';

/**
 * Coverage reads over the ingested ../shared/sec corpus through the real routes. The expected
 * figures were worked out by hand from the filings and statement rows (see each comment) and
 * checked with an independent script before being written down here.
 */
const APPLE = '0000320193';
const TSMC = '0001046179';
const SNOWFLAKE = '0001640147';
const WALMART = '0000104169';
/** submissions but neither company facts nor filing packages in the mirror */
const IMUNON = '0000749647';
const BUFFETT = '0000315090';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

async function call(path: string, expectStatus = 200) {
  const r = await get(`${svc.baseUrl}${path}`, svc.keys.enterprise);
  assert.equal(r.status, expectStatus, r.text);
  return r.body;
}

const coverage = async (cik: string) => (await call(`/v1/coverage/companies/${cik}`)).data;

describe('company coverage', () => {
  it('Apple: every expected period populated from fiscal 2009 (first XBRL 10-Q) to fiscal 2026 in progress', async () => {
    const c = await coverage('320193');
    assert.equal(c.cik, APPLE);
    assert.equal(c.company_name, 'Apple Inc.');
    assert.equal(c.status, 'COMPLETE');
    assert.equal(c.first_fiscal_year, 2009);
    assert.equal(c.last_fiscal_year, 2026);
    assert.equal(c.fiscal_year_in_progress, 2026, 'only the fiscal 2026 Q1 10-Q (filed 2026-01-30) is on record');
    // FY 2009-2025
    assert.equal(c.annual_periods_expected, 17);
    assert.equal(c.annual_periods_populated, 17);
    // Q1-Q3 of 2009-2025, and Q1 of 2026
    assert.equal(c.quarterly_periods_expected, 52);
    assert.equal(c.quarterly_periods_populated, 52);
    assert.equal(c.core_metric_completeness, '1.000000');
    assert.equal(c.income_statement_completeness, '1.000000');
    assert.equal(c.cash_flow_statement_completeness, '1.000000');
    // the balance sheets of fiscal 2009 Q1 and Q2 were filed before XBRL and never re-presented: 67 of 69
    assert.equal(c.balance_sheet_completeness, '0.971014');
    assert.deepEqual(c.gaps, [
      { fiscal_year: 2009, fiscal_period: 'Q1', missing_statement_types: ['BALANCE_SHEET'] },
      { fiscal_year: 2009, fiscal_period: 'Q2', missing_statement_types: ['BALANCE_SHEET'] },
    ]);
    assert.equal(c.annual_reporting_continuous, true);
    assert.equal(c.first_statement_fiscal_year, 2007, 'the fiscal 2009 10-K carries three years of income statement');
    // versions also come from figures first told later (no alert), from quarters its 10-Ks tell, and
    // from fourth-quarter figures withdrawn where a 10-K told their year again without nine months
    assert.equal(c.statement_versions, 399);
    assert.equal(c.statement_periods, 247);
    assert.equal(c.periodic_reports, 68);
    assert.equal(c.periodic_reports_without_facts, 0);
    assert.equal(c.latest_filing_date, '2026-01-30');
    assert.match(c.last_ingested_at, /^\d{4}-\d{2}-\d{2}T/);
  });

  it('Apple: restated periods are those a version revised (51, as the completeness route counts them), not every period with a later version', async () => {
    const c = await coverage('320193');
    const { data } = await call(`/v1/edgar/companies/${APPLE}/completeness`);
    assert.equal(c.restated_statement_periods, data.restated_statement_periods.total);
    assert.equal(c.restated_statement_periods, 51);
    const [several] = await svc.sql`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM statement_versions WHERE cik = ${APPLE}
        GROUP BY statement_type, fiscal_year, fiscal_period HAVING count(*) > 1) p`;
    assert.ok(several!.n > 100, 'periods with more than one version, restated or not');
  });

  it("Apple: the fiscal 2021 balance sheet is not restated: its second version (the 10-Q of 2022-01-28) only added long-term debt including current", async () => {
    const versions = await svc.sql<{ statement_version_id: string; accession: string; figures: Record<string, { value: string }> }[]>`
      SELECT statement_version_id, accession, figures FROM statement_versions
      WHERE cik = ${APPLE} AND statement_type = 'BALANCE_SHEET' AND fiscal_year = 2021 AND fiscal_period = 'FY' ORDER BY version_sequence`;
    assert.deepEqual(versions.map((v) => v.accession), ['0000320193-21-000105', '0000320193-22-000007']);
    const [v1, v2] = versions;
    const added = Object.keys(v2!.figures).filter((m) => !(m in v1!.figures));
    assert.deepEqual(added, ['LONG_TERM_DEBT_INCLUDING_CURRENT']);
    assert.equal(v2!.figures.LONG_TERM_DEBT_INCLUDING_CURRENT!.value, '118700000000');
    for (const m of Object.keys(v1!.figures)) assert.equal(v2!.figures[m]?.value, v1!.figures[m]!.value, `${m} unchanged`);
    const alerts = await call(`/v1/edgar/restatement-alerts?cik=320193&statement_type=BALANCE_SHEET&fiscal_year=2021&fiscal_period=FY`);
    assert.equal(alerts.total, 0);
    const revisions = await call(`/v1/edgar/statements/${v2!.statement_version_id}/fact-revisions`);
    assert.equal(revisions.total, 0);
    // coverage counts the periods with an alert event, and this one has none
    const [restated] = await svc.sql`
      SELECT count(DISTINCT (statement_type, fiscal_year, fiscal_period))::int AS n FROM restatement_alert_events WHERE cik = ${APPLE}`;
    assert.equal((await coverage('320193')).restated_statement_periods, restated!.n);
  });

  it('TSMC, a 20-F filer: annual periods only, no quarter expected, pre-XBRL 20-Fs counted but not expected', async () => {
    const c = await coverage(TSMC);
    assert.equal(c.status, 'COMPLETE');
    assert.equal(c.quarterly_periods_expected, 0);
    assert.equal(c.quarterly_periods_populated, 0);
    // 20-Fs for fiscal 2017-2024 carry XBRL; the nine filed 2009-2017 for fiscal 2008-2016 do not
    assert.equal(c.first_fiscal_year, 2017);
    assert.equal(c.last_fiscal_year, 2024);
    assert.equal(c.fiscal_year_in_progress, null);
    assert.equal(c.annual_periods_expected, 8);
    assert.equal(c.annual_periods_populated, 8);
    assert.equal(c.periodic_reports, 17);
    assert.equal(c.periodic_reports_without_facts, 9);
    assert.equal(c.first_statement_fiscal_year, 2015, 'the fiscal 2017 20-F carries 2015 and 2016 as comparatives');
    assert.equal(c.core_metric_completeness, '1.000000');
    assert.equal(c.annual_reporting_continuous, true);
    assert.equal(c.latest_filing_date, '2025-04-17');
  });

  it('Snowflake: listed in fiscal 2021 Q3, so the quarters before show as per-statement gaps', async () => {
    const c = await coverage(SNOWFLAKE);
    assert.equal(c.first_fiscal_year, 2021);
    assert.equal(c.fiscal_year_in_progress, 2026);
    assert.equal(c.annual_periods_expected, 5);
    assert.equal(c.annual_periods_populated, 5);
    // Q1-Q3 of 2021-2025 and Q1 of 2026; its fiscal 2023 Q1 10-Q tags its period focus FY, and still counts as a quarter
    assert.equal(c.quarterly_periods_expected, 16);
    assert.equal(c.quarterly_periods_populated, 16);
    assert.equal(c.core_metric_completeness, '1.000000');
    assert.equal(c.income_statement_completeness, '1.000000');
    assert.equal(c.balance_sheet_completeness, '0.904762'); // 19 of 21
    // the first 10-Q reported nine months of cash flow with no six-month figure to subtract; the
    // next year's Q2 10-Q told the six months, so the quarter became derivable (a later figure)
    assert.equal(c.cash_flow_statement_completeness, '1.000000');
    assert.deepEqual(c.gaps, [
      { fiscal_year: 2021, fiscal_period: 'Q1', missing_statement_types: ['BALANCE_SHEET'] },
      { fiscal_year: 2021, fiscal_period: 'Q2', missing_statement_types: ['BALANCE_SHEET'] },
    ]);
    // two of them withdraw fourth-quarter figures whose years later 10-Ks told again without nine months
    assert.equal(c.statement_versions, 123);
  });

  it("Walmart's years run without a gap although its old reports tagged the fiscal year focus off by one", async () => {
    const c = await coverage(WALMART);
    assert.deepEqual(c.skipped_fiscal_years, []);
    assert.equal(c.annual_reporting_continuous, true);
    assert.equal(c.status, 'COMPLETE');
  });

  it('a company whose periodic reports built no statement answers NO_STATEMENTS with zero counts', async () => {
    const c = await coverage(IMUNON);
    assert.equal(c.status, 'NO_STATEMENTS');
    assert.equal(c.annual_periods_expected, 0);
    assert.equal(c.quarterly_periods_expected, 0);
    assert.equal(c.statement_versions, 0);
    assert.equal(c.core_metric_completeness, null);
    assert.equal(c.annual_reporting_continuous, false);
    assert.ok(c.periodic_reports > 0);
    assert.equal(c.periodic_reports_without_facts, c.periodic_reports);
  });

  it('a filer of no periodic report answers NO_PERIODIC_REPORTS; an unknown CIK is 404', async () => {
    const c = await coverage(BUFFETT);
    assert.equal(c.status, 'NO_PERIODIC_REPORTS');
    assert.equal(c.periodic_reports, 0);
    const missing = await call('/v1/coverage/companies/9999999999', 404);
    assert.equal(missing.error.code, 'NOT_FOUND');
    assert.match(missing.error.message, /identity\/search/);
  });

  it('lists coverage by CIK ascending in the paginated envelope', async () => {
    const [row] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM (SELECT cik FROM companies UNION SELECT cik FROM company_ingestion) u`;
    const n = row!.n;
    const all = await call('/v1/coverage/companies?page_size=200');
    assert.deepEqual(Object.keys(all).sort(), ['items', 'page', 'page_size', 'total']);
    assert.equal(all.total, n);
    assert.equal(all.items.length, n);
    const ciks = all.items.map((i: any) => i.cik);
    assert.deepEqual(ciks, [...ciks].sort());
    assert.equal(new Set(ciks).size, ciks.length);
    assert.deepEqual(
      all.items.find((i: any) => i.cik === APPLE),
      await coverage(APPLE),
      'the list and the single read agree',
    );

    const page2 = await call('/v1/coverage/companies?page=2&page_size=5');
    assert.equal(page2.page, 2);
    assert.equal(page2.page_size, 5);
    assert.equal(page2.total, n);
    assert.deepEqual(page2.items.map((i: any) => i.cik), ciks.slice(5, 10));
    const past = await call('/v1/coverage/companies?page=99&page_size=50');
    assert.deepEqual(past.items, []);
    assert.equal(past.total, n);
    const tooBig = await call('/v1/coverage/companies?page_size=201', 400);
    assert.equal(tooBig.error.code, 'VALIDATION_ERROR');
  });
});

describe('company completeness summary', () => {
  it("Apple: latest filing, latest periodic report and version counts by statement type", async () => {
    const { data } = await call(`/v1/edgar/companies/${APPLE}/completeness`);
    // three Form 4s were filed on 2026-04-03; the last accepted (22:30:45) is the latest
    assert.deepEqual(data.latest_filing, { accession: '0001140361-26-013192', form: '4', filing_date: '2026-04-03', report_date: '2026-04-01' });
    assert.deepEqual(data.latest_periodic_filing, { accession: '0000320193-26-000006', form: '10-Q', filing_date: '2026-01-30', report_date: '2025-12-27' });
    assert.deepEqual(data.statement_versions, { INCOME_STATEMENT: 143, BALANCE_SHEET: 89, CASH_FLOW_STATEMENT: 167, total: 399 });
    assert.deepEqual(data.statement_periods, { INCOME_STATEMENT: 90, BALANCE_SHEET: 68, CASH_FLOW_STATEMENT: 89, total: 247 });
    // periods a filing revised (alert events): neither figures re-told at another precision nor
    // per-share figures and share counts recast for the 7-for-1 (2014) and 4-for-1 (2020) splits
    // (those were 17 more income statements and 2 more balance sheets), nor fourth quarters derived
    // from a restated year and nine months as first told (fiscal 2008's income statement and cash flow)
    assert.deepEqual(data.restated_statement_periods, { INCOME_STATEMENT: 6, BALANCE_SHEET: 6, CASH_FLOW_STATEMENT: 39, total: 51 });
    assert.equal(data.company_name, 'Apple Inc.');
  });

  it('TSMC: the latest filing is a 6-K, the latest periodic report its 2024 20-F', async () => {
    const { data } = await call(`/v1/edgar/companies/${TSMC}/completeness`);
    assert.equal(data.latest_filing.form, '6-K');
    assert.deepEqual(data.latest_periodic_filing, { accession: '0001193125-25-083423', form: '20-F', filing_date: '2025-04-17', report_date: data.latest_periodic_filing.report_date });
    assert.equal(data.statement_versions.total, 41);
  });

  it('a company with no statements answers zeros; an unknown CIK is 404', async () => {
    const { data } = await call(`/v1/edgar/companies/${BUFFETT}/completeness`);
    assert.deepEqual(data.statement_versions, { INCOME_STATEMENT: 0, BALANCE_SHEET: 0, CASH_FLOW_STATEMENT: 0, total: 0 });
    assert.equal(data.latest_periodic_filing, null);
    assert.notEqual(data.latest_filing, null);
    assert.equal((await call('/v1/edgar/companies/9999999999/completeness', 404)).error.code, 'NOT_FOUND');
  });
});

describe('metric coverage', () => {
  it('REVENUE is carried widely; the counts agree with the latest versions on record', async () => {
    const { data } = await call('/v1/coverage/metrics/REVENUE');
    assert.equal(data.metric, 'REVENUE');
    assert.equal(data.statement_type, 'INCOME_STATEMENT');
    assert.ok(data.company_count > 0 && data.company_count <= data.statement_type_company_count);
    assert.ok(data.years_covered > 0 && data.statement_count >= data.years_covered);
    // the same counts read another way: a latest version is one no later version of its identity follows
    const [expected] = await svc.sql<{ companies: number; years: number; statements: number }[]>`
      SELECT count(DISTINCT cik)::int AS companies, count(DISTINCT fiscal_year)::int AS years, count(*)::int AS statements
      FROM statement_versions s
      WHERE statement_type = 'INCOME_STATEMENT' AND figures ? 'REVENUE'
        AND NOT EXISTS (SELECT 1 FROM statement_versions n WHERE (n.cik, n.statement_type, n.fiscal_year, n.fiscal_period) = (s.cik, s.statement_type, s.fiscal_year, s.fiscal_period) AND n.version_sequence > s.version_sequence)`;
    assert.deepEqual([data.company_count, data.years_covered, data.statement_count], [expected!.companies, expected!.years, expected!.statements]);
    assert.equal((await call('/v1/coverage/metrics/revenue')).data.statement_count, data.statement_count, 'names are case-insensitive');
  });

  it('refuses a derived ratio and a typo with 400 listing the accepted names', async () => {
    for (const name of ['GROSS_MARGIN', 'REVENEU']) {
      const r = await call(`/v1/coverage/metrics/${name}`, 400);
      assert.equal(r.error.code, 'VALIDATION_ERROR');
      assert.match(r.error.message, /accepted names: REVENUE, /);
      assert.match(r.error.message, /TOTAL_ASSETS/);
    }
    assert.match((await call('/v1/coverage/metrics/GROSS_MARGIN', 400)).error.message, /derived metric/);
  });
});

describe('metric population statistics', () => {
  it('serves the ALL cohort for 10-K ordered by statement type, fiscal period and metric', async () => {
    const page = await call('/v1/coverage/metrics?cohort=ALL&form_type=10-K&page_size=200');
    assert.equal(page.total, CANONICAL_METRICS.length, 'every canonical metric once, on the annual statement of its type');
    const rows = page.items;
    const key = (r: any) => [r.statement_type, r.fiscal_period, r.metric_name].join(' ');
    assert.deepEqual(rows.map(key), [...rows.map(key)].sort());
    for (const r of rows) {
      assert.equal(r.cohort, 'ALL');
      assert.equal(r.form_type, '10-K');
      assert.equal(r.fiscal_period, 'FY');
      assert.match(r.populated_rate, /^[01]\.\d{6}$/);
      assert.ok(r.sample_size > 0 && r.populated_count <= r.sample_size);
      assert.match(r.computed_at, /^\d{4}-\d{2}-\d{2}T/);
    }
    // TOTAL_ASSETS on annual balance sheets, counted again from the latest versions (20-F statements left out)
    const assets = rows.find((r: any) => r.metric_name === 'TOTAL_ASSETS');
    const [expected] = await svc.sql<{ n: number; carried: number }[]>`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE figures ? 'TOTAL_ASSETS')::int AS carried FROM (
        SELECT DISTINCT ON (cik, fiscal_year) form, figures FROM statement_versions
        WHERE statement_type = 'BALANCE_SHEET' AND fiscal_period = 'FY'
        ORDER BY cik, fiscal_year, version_sequence DESC) l
      WHERE form NOT IN ('20-F', '20-F/A', '40-F', '40-F/A')`;
    assert.equal(assets.sample_size, expected!.n);
    assert.equal(assets.populated_count, expected!.carried);
    assert.equal(assets.populated_rate, (expected!.carried / expected!.n).toFixed(6));
  });

  it('serves 10-Q rows for the three filed quarters, paginated', async () => {
    const first = await call('/v1/coverage/metrics?cohort=ALL&form_type=10-Q&page_size=200');
    assert.equal(first.total, 3 * CANONICAL_METRICS.length);
    const rest = await call('/v1/coverage/metrics?cohort=ALL&form_type=10-Q&page=2&page_size=200');
    const last = await call('/v1/coverage/metrics?cohort=ALL&form_type=10-Q&page=3&page_size=200');
    const rows = [...first.items, ...rest.items, ...last.items];
    assert.equal(rows.length, 3 * CANONICAL_METRICS.length);
    assert.deepEqual([...new Set(rows.map((r: any) => r.fiscal_period))].sort(), ['Q1', 'Q2', 'Q3']);
    const key = (r: any) => [r.statement_type, r.fiscal_period, r.metric_name].join(' ');
    assert.deepEqual(rows.map(key), [...rows.map(key)].sort());
  });

  it('refuses a form type not spelled as the SEC does, and a missing one', async () => {
    for (const q of ['cohort=ALL&form_type=FORM_10_K', 'cohort=ALL&form_type=10K', 'cohort=ALL&form_type=20-F', 'cohort=ALL']) {
      const r = await call(`/v1/coverage/metrics?${q}`, 400);
      assert.equal(r.error.code, 'VALIDATION_ERROR', q);
      assert.match(r.error.message, /form_type/, q);
    }
  });

  it('refuses a cohort without statistics, naming the cohorts that have rows; cohort is required', async () => {
    const r = await call('/v1/coverage/metrics?cohort=SP500&form_type=10-K', 400);
    assert.equal(r.error.code, 'VALIDATION_ERROR');
    assert.match(r.error.message, /Cohorts with statistics: ALL/);
    assert.deepEqual(r.error.details.cohorts_with_statistics, ['ALL']);
    const missing = await call('/v1/coverage/metrics?form_type=10-K', 400);
    assert.match(missing.error.message, /cohort/);
  });
});
