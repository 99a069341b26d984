import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CANONICAL_METRIC_NAMES } from '../domain/catalog/index.ts';
import { get, post } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { compactJson } from '../api/mcp-envelope.ts';

/**
 * The filings, statements, financial-state and as-of routes over the ingested ../shared/sec corpus.
 * Pinned figures are Apple's own: 10-K 0000320193-23-000106 (fiscal 2023, filed 2023-11-03,
 * accepted 2023-11-02 18:08 ET, after the 17:30 cut-off) and the 10-K/A 0001193125-10-012091 of
 * 2010-01-25 that restated fiscal 2008 net income from 4,834M to 6,119M.
 */
const APPLE = '0000320193';
const TEN_K_2023 = '0000320193-23-000106';
const NOBODY = '0000000001';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

async function read(path: string, key = svc.keys.enterprise) {
  return get(`${svc.baseUrl}${path}`, key);
}

async function ok(path: string) {
  const r = await read(path);
  assert.equal(r.status, 200, r.text.slice(0, 500));
  return r.body;
}

async function refused(path: string, status = 400, code = 'VALIDATION_ERROR') {
  const r = await read(path);
  assert.equal(r.status, status, `${path}: ${r.text.slice(0, 300)}`);
  assert.equal(r.body.error.code, code, `${path} answers ${code}`);
  return r.body.error;
}

async function callTool(name: string, args: Record<string, unknown>) {
  const res = await post(
    `${svc.baseUrl}/mcp`,
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    svc.keys.free,
  );
  assert.equal(res.status, 200, res.text.slice(0, 300));
  assert.ok(res.body.result, `tools/call ${name} answers a result: ${res.text.slice(0, 300)}`);
  return res.body.result;
}

const fact = (statement: any, metric: string) => statement.normalized_payload.facts.find((f: any) => f.metric === metric);

describe('the filings list', () => {
  it("lists Apple's fiscal 2023 10-K with its dates, focus, facts, package and the versions it created", async () => {
    const page = await ok(`/v1/edgar/companies/${APPLE}/filings?form=10-K&filed_from=2023-01-01&filed_to=2023-12-31`);
    assert.equal(page.total, 1, 'one 10-K filed in 2023');
    const f = page.items[0];
    assert.equal(f.accession_id, TEN_K_2023);
    assert.equal(f.form, '10-K');
    assert.equal(f.filing_date, '2023-11-03');
    assert.equal(f.accepted_at, '2023-11-02T22:08:27.000Z', 'accepted after 17:30 ET, so filed the next business day');
    assert.equal(f.report_date, '2023-09-30');
    assert.equal(f.fiscal_year_focus, 2023);
    assert.equal(f.fiscal_period_focus, 'FY');
    assert.equal(f.is_periodic, true);
    assert.equal(f.filing_date_estimated, false);
    assert.equal(f.source, 'submissions');
    assert.equal(f.facts_count, 503);
    assert.equal(f.statement_versions_count, 10, 'fiscal 2023 statements plus restated 2022 and 2021 cash flows, and the 2021 fourth quarter the re-told year withdrew figures of');
    assert.equal(f.primary_document, 'aapl-20230930.htm');
    assert.equal(f.document_url, 'https://www.sec.gov/Archives/edgar/data/320193/000032019323000106/aapl-20230930.htm');
    assert.equal(f.package.facts_from, 'instance');
    assert.equal(f.package.linkbases, true);
    assert.ok(f.package.files.includes('aapl-20230930_cal.xml'), 'the calculation linkbase was read');
  });

  it('lists newest first, takes form repeated or comma-separated, and pages', async () => {
    const q = `filed_from=2020-01-01&filed_to=2023-12-31`;
    const repeated = await ok(`/v1/edgar/companies/${APPLE}/filings?form=10-K&form=10-Q&${q}&page_size=200`);
    assert.equal(repeated.total, 16, 'four 10-Ks and twelve 10-Qs over 2020-2023');
    const dates = repeated.items.map((f: any) => f.filing_date);
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first');
    assert.ok(repeated.items.every((f: any) => f.form === '10-K' || f.form === '10-Q'), 'only the forms asked for');
    const comma = await ok(`/v1/edgar/companies/${APPLE}/filings?form=10-k,10-q&${q}&page_size=5&page=2`);
    assert.equal(comma.total, 16, 'forms are case-insensitive and comma-separated');
    assert.deepEqual(
      comma.items.map((f: any) => f.accession_id),
      repeated.items.slice(5, 10).map((f: any) => f.accession_id),
    );
    const all = await ok(`/v1/edgar/companies/${APPLE}/filings?page_size=1`);
    assert.ok(all.total > 1000, `every filing of the submissions file is listed (${all.total})`);
    assert.equal(all.items[0].is_periodic, false, 'the newest filing is a Form 4, which makes no statement');
  });

  it('answers a company or a form with no filings with an empty page', async () => {
    assert.deepEqual(await ok(`/v1/edgar/companies/${NOBODY}/filings`), { page: 1, page_size: 50, total: 0, items: [] });
    const none = await ok(`/v1/edgar/companies/${APPLE}/filings?form=10-K&filed_to=2005-12-31`);
    assert.equal(none.total, 0, 'nothing filed before 2006 is on record');
  });

  it('refuses a date range that runs backwards, a malformed date and a malformed form', async () => {
    const e = await refused(`/v1/edgar/companies/${APPLE}/filings?filed_from=2024-01-01&filed_to=2023-01-01`);
    assert.match(e.message, /filed_from \(2024-01-01\) is after filed_to \(2023-01-01\)/);
    await refused(`/v1/edgar/companies/${APPLE}/filings?filed_from=2023-02-30`);
    await refused(`/v1/edgar/companies/${APPLE}/filings?form=10-K;DROP`);
    await refused(`/v1/edgar/companies/not-a-cik/filings`);
  });

  it('is the filings_list tool, with the same page as the HTTP route', async () => {
    const result = await callTool('filings_list', { cik: '320193', form: ['10-K'], filed_from: '2023-01-01', filed_to: '2023-12-31', page_size: 50 });
    assert.equal(result.isError, false, JSON.stringify(result).slice(0, 300));
    const http = await ok(`/v1/edgar/companies/${APPLE}/filings?form=10-K&filed_from=2023-01-01&filed_to=2023-12-31`);
    assert.deepEqual(result.structuredContent, http);
    assert.equal(result.content[0].text, compactJson(result.structuredContent), 'the text is the compact rendering of structuredContent');
    const bad = await callTool('filings_list', { cik: APPLE, filed_from: '2024-01-01', filed_to: '2023-01-01' });
    assert.equal(bad.isError, true, 'a backwards range fails the tool call');
    assert.equal(JSON.parse(bad.content[0].text).http_status, 400);
  });
});

describe('one filing and the statements it created', () => {
  it('gives the filing record with the versions it created', async () => {
    const { data } = await ok(`/v1/edgar/companies/${APPLE}/filings/${TEN_K_2023}`);
    assert.equal(data.form, '10-K');
    assert.equal(data.filing_index_url, `https://www.sec.gov/Archives/edgar/data/320193/000032019323000106/${TEN_K_2023}-index.htm`);
    assert.equal(data.statement_versions.length, 10);
    // later versions of earlier periods: revised figures, figures the 10-K told first (the fiscal
    // 2022 balance sheet's deferred tax assets), or fourth-quarter figures withdrawn because the 10-K
    // re-told their fiscal 2021 year without nine months on its basis; the last two revise nothing
    const later = data.statement_versions.filter((v: any) => v.version_sequence > 1).map((v: any) => [v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence]);
    assert.deepEqual(later, [
      ['BALANCE_SHEET', 2022, 'FY', 3],
      ['CASH_FLOW_STATEMENT', 2022, 'FY', 2],
      ['CASH_FLOW_STATEMENT', 2022, 'Q4', 2],
      ['CASH_FLOW_STATEMENT', 2021, 'FY', 3],
      ['CASH_FLOW_STATEMENT', 2021, 'Q4', 3],
    ]);
    const undashed = await ok(`/v1/edgar/companies/320193/filings/000032019323000106`);
    assert.equal(undashed.data.accession_id, TEN_K_2023, 'an accession without dashes is the same filing');
  });

  it("answers 404 for an accession the company does not have, and 400 for a malformed one", async () => {
    const e = await refused(`/v1/edgar/companies/${APPLE}/filings/0000320193-99-999999`, 404, 'NOT_FOUND');
    assert.match(e.message, /List the company's filings/);
    await refused(`/v1/edgar/companies/0000789019/filings/${TEN_K_2023}`, 404, 'NOT_FOUND');
    await refused(`/v1/edgar/companies/${APPLE}/filings/12345`);
    await refused(`/v1/edgar/companies/${APPLE}/filings/12345/statements`);
  });

  it("serves the versions a filing created in full, with identity checks and whether a later filing superseded them", async () => {
    const { data } = await ok(`/v1/edgar/companies/${APPLE}/filings/${TEN_K_2023}/statements`);
    assert.equal(data.length, 10);
    const withdrawn = data.find((v: any) => v.statement_type === 'CASH_FLOW_STATEMENT' && v.fiscal_year === 2021 && v.fiscal_period === 'Q4');
    assert.ok(withdrawn.normalized_payload._meta.unavailable_metrics.every((u: any) => u.reason === 'YEAR_RETOLD_WITHOUT_NINE_MONTHS' && u.withdrawn_value !== null), 'says which fourth-quarter figures it withdrew, and why');
    const is = data.find((v: any) => v.statement_type === 'INCOME_STATEMENT' && v.fiscal_period === 'FY');
    assert.equal(fact(is, 'REVENUE').value, '383285000000.000000');
    assert.equal(fact(is, 'NET_INCOME').value, '96995000000.000000');
    assert.equal(is.source_accession, TEN_K_2023);
    assert.equal(is.filing_date, '2023-11-03');
    assert.equal(is.normalized_payload._meta.identity.checks.find((c: any) => c.rule_id === 'IS_GROSS_PROFIT').status, 'PASS');
    const bs = data.find((v: any) => v.statement_type === 'BALANCE_SHEET');
    assert.equal(fact(bs, 'TOTAL_ASSETS').value, '352583000000.000000');
    // the 10-Q of 2024-02-02 re-told long-term debt of 105,103M as 105.1B: the same figure, no version
    assert.equal(bs.is_latest, true, 'no later filing changed the fiscal 2023 balance sheet');
    const is2023 = await ok(`/v1/edgar/companies/${APPLE}/statements?statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`);
    assert.equal(is.is_latest, false, 'the fiscal 2025 10-K told selling and G&A expenses for fiscal 2023 first: version 2, no restatement');
    assert.equal(is2023.total, 2);
  });

  it('answers a filing that created no statement with an empty list', async () => {
    const { data } = await ok(`/v1/edgar/companies/${APPLE}/filings/0000320193-23-000104/statements`);
    assert.deepEqual(data, [], 'an 8-K creates no statement version');
  });
});

describe("a company's statement versions", () => {
  const fy2008 = `/v1/edgar/companies/${APPLE}/statements?statement_type=INCOME_STATEMENT&fiscal_year=2008&fiscal_period=FY`;

  it('lists every version, newest first, as records without payload by default', async () => {
    const page = await ok(fy2008);
    assert.equal(page.total, 3);
    assert.deepEqual(page.items.map((v: any) => [v.version_sequence, v.source_accession, v.filing_type, v.filing_date, v.is_latest]), [
      // the fiscal 2010 10-K told a goodwill impairment of 0 for fiscal 2008 first: a version that revises nothing
      [3, '0001193125-10-238044', '10-K', '2010-10-27', true],
      [2, '0001193125-10-012091', '10-K/A', '2010-01-25', false],
      [1, '0001193125-09-214859', '10-K', '2009-10-27', false],
    ]);
    assert.equal(page.items[0].normalized_payload, undefined, 'no payload without include_normalized');
    assert.ok(page.items[0].metrics_count > 10, `the restated statement holds ${page.items[0].metrics_count} metrics`);
  });

  it('adds the normalized payload with include_normalized=true', async () => {
    const page = await ok(`${fy2008}&include_normalized=true`);
    assert.deepEqual(page.items.map((v: any) => fact(v, 'NET_INCOME').value), ['6119000000.000000', '6119000000.000000', '4834000000.000000']);
    assert.ok(page.items[0].normalized_payload._meta.identity.total_rules_count > 0, 'identity checks are served');
    assert.equal(page.items[0].normalized_payload.facts.length, page.items[0].metrics_count);
  });

  it('sees only what was filed by as_of_date, and only the newest versions with latest_only', async () => {
    const before = await ok(`${fy2008}&as_of_date=2010-01-24`);
    assert.deepEqual(before.items.map((v: any) => [v.version_sequence, v.is_latest]), [[1, true]]);
    const latest = await ok(`/v1/edgar/companies/${APPLE}/statements?fiscal_year=2023&fiscal_period=FY&latest_only=true`);
    assert.deepEqual(latest.items.map((v: any) => [v.statement_type, v.version_sequence]), [
      ['INCOME_STATEMENT', 2],
      ['BALANCE_SHEET', 1],
      ['CASH_FLOW_STATEMENT', 1],
    ]);
  });

  it('answers an identity with no versions with an empty page and refuses bad filters', async () => {
    const none = await ok(`/v1/edgar/companies/${APPLE}/statements?fiscal_year=1990`);
    assert.deepEqual(none, { page: 1, page_size: 50, total: 0, items: [] });
    await refused(`/v1/edgar/companies/${APPLE}/statements?statement_type=EQUITY_STATEMENT`);
    await refused(`/v1/edgar/companies/${APPLE}/statements?include_normalized=maybe`);
    await refused(`/v1/edgar/companies/${APPLE}/statements?page_size=500`);
  });
});

describe('the financial state per fiscal period', () => {
  const path = `/v1/edgar/companies/${APPLE}/financial-state/time-series`;

  it("merges Apple's fiscal 2023 statements into one row with every canonical metric", async () => {
    const page = await ok(`${path}?period_type=annual&fiscal_year_from=2023&fiscal_year_to=2023`);
    assert.equal(page.total, 1);
    const row = page.items[0];
    assert.equal(row.fiscal_period, 'FY');
    assert.equal(row.period_start, '2022-09-25');
    assert.equal(row.period_end, '2023-09-30');
    assert.equal(row.currency, 'USD');
    assert.deepEqual(Object.keys(row.metrics), [...CANONICAL_METRIC_NAMES], 'every canonical metric, in catalog order');
    assert.equal(row.metrics.REVENUE, '383285000000.000000');
    assert.equal(row.metrics.TOTAL_ASSETS, '352583000000.000000');
    assert.equal(row.metrics.OPERATING_CASH_FLOW, '110543000000.000000');
    assert.ok(Object.values(row.metrics).some((v) => v === null), 'metrics Apple does not report are null');
    assert.equal(row.metrics_reported_count, Object.values(row.metrics).filter((v) => v !== null).length);
    assert.deepEqual(row.statements.map((s: any) => [s.statement_type, s.version_sequence, s.source_accession]), [
      ['INCOME_STATEMENT', 2, '0000320193-25-000079'],
      ['BALANCE_SHEET', 1, TEN_K_2023],
      ['CASH_FLOW_STATEMENT', 1, TEN_K_2023],
    ]);
  });

  it('reads the state knowable on a date: fiscal 2008 net income before and after the restatement', async () => {
    const q = `${path}?period_type=annual&fiscal_year_from=2008&fiscal_year_to=2008`;
    assert.equal((await ok(`${q}&as_of_date=2010-01-24`)).items[0].metrics.NET_INCOME, '4834000000.000000');
    assert.equal((await ok(`${q}&as_of_date=2010-01-25`)).items[0].metrics.NET_INCOME, '6119000000.000000');
    assert.equal((await ok(q)).items[0].metrics.NET_INCOME, '6119000000.000000');
  });

  it('gives quarters oldest first, pages, and reports the total past the last page', async () => {
    const q = await ok(`${path}?period_type=quarterly&fiscal_year_from=2024&fiscal_year_to=2024`);
    assert.deepEqual(q.items.map((r: any) => r.fiscal_period), ['Q1', 'Q2', 'Q3', 'Q4']);
    assert.equal(q.items[3].metrics.REVENUE, '94930000000.000000', 'the derived fourth quarter');
    const both = await ok(`${path}?fiscal_year_from=2024&fiscal_year_to=2024&page_size=2&page=3`);
    assert.equal(both.total, 5, 'four quarters and the year');
    assert.deepEqual(both.items.map((r: any) => r.fiscal_period), ['FY'], 'the year follows the fourth quarter ending the same day');
    const past = await ok(`${path}?fiscal_year_from=2024&fiscal_year_to=2024&page_size=2&page=9`);
    assert.deepEqual([past.total, past.items], [5, []]);
  });

  it('answers a period range with nothing in it with an empty page and refuses bad filters', async () => {
    assert.deepEqual(await ok(`${path}?fiscal_year_from=1990&fiscal_year_to=1991`), { page: 1, page_size: 50, total: 0, items: [] });
    await refused(`${path}?fiscal_year_from=2024&fiscal_year_to=2020`);
    await refused(`${path}?period_type=monthly`);
    await refused(`${path}?as_of_date=yesterday`);
  });
});

describe('financials as known on a date', () => {
  const asOf = (date: string, query = '') => `/v1/edgar/as-of/${date}/financials/${APPLE}${query}`;

  it("sees Apple's fiscal 2023 10-K from its filing date, not the day before", async () => {
    const { data } = await ok(asOf('2023-11-03'));
    assert.deepEqual(data.periods.map((p: any) => [p.role, p.fiscal_year, p.fiscal_period]), [['ANNUAL', 2023, 'FY']]);
    assert.deepEqual(data.statements.map((s: any) => [s.statement_type, s.version_sequence, s.source_accession]), [
      ['INCOME_STATEMENT', 1, TEN_K_2023],
      ['BALANCE_SHEET', 1, TEN_K_2023],
      ['CASH_FLOW_STATEMENT', 1, TEN_K_2023],
    ]);
    assert.equal(fact(data.statements[0], 'NET_INCOME').value, '96995000000.000000');
    assert.equal(fact(data.statements[0], 'NET_INCOME').source_xbrl_concept, 'us-gaap:NetIncomeLoss', 'figures carry their provenance');
    assert.deepEqual(data.latest_filing, { accession_id: TEN_K_2023, form: '10-K', filing_date: '2023-11-03', report_date: '2023-09-30' });

    const dayBefore = (await ok(asOf('2023-11-02'))).data;
    assert.deepEqual(dayBefore.periods.map((p: any) => [p.role, p.fiscal_year, p.fiscal_period, p.period_end]), [
      ['ANNUAL', 2022, 'FY', '2022-09-24'],
      ['LATEST_QUARTER', 2023, 'Q3', '2023-07-01'],
    ]);
    assert.equal(dayBefore.statements.length, 6, 'three statements of the year and three of the quarter');
  });

  it('reads fiscal 2008 net income before and after the 10-K/A of 2010-01-25', async () => {
    const before = (await ok(asOf('2010-01-24', '?fiscal_year=2008'))).data;
    const is = before.statements.find((s: any) => s.statement_type === 'INCOME_STATEMENT');
    assert.equal(fact(is, 'NET_INCOME').value, '4834000000.000000');
    assert.equal(is.version_sequence, 1);
    const afterAmendment = (await ok(asOf('2010-01-25', '?fiscal_year=2008'))).data;
    const restated = afterAmendment.statements.find((s: any) => s.statement_type === 'INCOME_STATEMENT');
    assert.equal(fact(restated, 'NET_INCOME').value, '6119000000.000000');
    assert.equal(restated.source_accession, '0001193125-10-012091');
    assert.equal(afterAmendment.fiscal_year, 2008);
  });

  it('summarises the reconciliation ledger of the returned versions and scores them', async () => {
    const { data } = await ok(asOf('2023-11-03'));
    const rec = data._meta.reconciliation;
    // ledger of fiscal 2023 v1: IS 2 PASS + 3 quarters-to-year PASS; BS 5 PASS + retained-earnings decline;
    // CF 2 PASS + 3 quarters-to-year PASS + cash-scope decline
    assert.deepEqual([rec.rows_count, rec.pass_count, rec.warn_count, rec.fail_count, rec.declined_count], [17, 15, 2, 0, 2]);
    assert.deepEqual(rec.failing_rule_ids, []);
    const trust = data._meta.trust_score;
    assert.match(trust.score, /^0\.\d{6}$|^1\.000000$/, 'a 0..1 decimal string');
    assert.equal(trust.counts.statements, 3);
    assert.equal(trust.counts.core_metrics_expected, 10);
    assert.equal(trust.components.core_completeness, '1.000000', 'Apple reports every core metric in its 10-K');
    assert.equal(trust.components.identity_pass_rate, '1.000000', 'every evaluated identity holds');
    assert.match(trust.explanation, /10 of 10 core metrics are reported/);
    assert.equal(trust.weights.identity_pass_rate, '0.40');
  });

  it('answers a date before the first filing with no statements, not an error', async () => {
    const { data } = await ok(asOf('2009-01-01'));
    assert.deepEqual([data.periods, data.statements, data.latest_filing], [[], [], null]);
    assert.equal(data._meta.trust_score.score, null);
    assert.equal(data._meta.reconciliation.rows_count, 0);
    const { data: nobody } = await ok(`/v1/edgar/as-of/2024-01-01/financials/${NOBODY}`);
    assert.deepEqual(nobody.statements, []);
  });

  it('refuses a date that is not a calendar date and a malformed CIK', async () => {
    await refused(`/v1/edgar/as-of/2023-02-30/financials/${APPLE}`);
    await refused(`/v1/edgar/as-of/20231103/financials/${APPLE}`);
    await refused(`/v1/edgar/as-of/2023-11-03/financials/AAPL`);
    await refused(`/v1/financials/as-of-snapshot?date=2023-11-03`);
    await refused(`/v1/financials/as-of-snapshot?cik=${APPLE}&ticker=AAPL&date=2023-11-03`);
  });

  it('is the provenance_as_of tool, answering what the HTTP route answers when compact=false', async () => {
    const result = await callTool('provenance_as_of', { date: '2010-01-24', cik: APPLE, fiscal_year: 2008, compact: false });
    assert.equal(result.isError, false, JSON.stringify(result).slice(0, 300));
    const data = result.structuredContent.data;
    assert.equal(fact(data.statements.find((s: any) => s.statement_type === 'INCOME_STATEMENT'), 'NET_INCOME').value, '4834000000.000000');
    assert.deepEqual(result.structuredContent, await ok(asOf('2010-01-24', '?fiscal_year=2008')));
    const bad = await post(
      `${svc.baseUrl}/mcp`,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'provenance_as_of', arguments: { date: '2010-02-30', cik: APPLE } } }),
      svc.keys.free,
    );
    assert.equal(bad.body.error.code, -32602, 'a date that is not a calendar date fails validation');
    assert.deepEqual(bad.body.error.data.issues.map((i: any) => i.path), ['date']);
  });

  it('is the financials_get_as_of_snapshot tool too, which also takes a ticker, on its own HTTP path', async () => {
    const result = await callTool('financials_get_as_of_snapshot', { ticker: 'AAPL', date: '2010-01-25', fiscal_year: 2008, compact: false });
    assert.equal(result.isError, false, JSON.stringify(result).slice(0, 300));
    const data = result.structuredContent.data;
    assert.equal(data.cik, APPLE);
    assert.equal(fact(data.statements.find((s: any) => s.statement_type === 'INCOME_STATEMENT'), 'NET_INCOME').value, '6119000000.000000');
    const http = await ok(`/v1/financials/as-of-snapshot?cik=320193&date=2010-01-25&fiscal_year=2008`);
    assert.deepEqual(http, result.structuredContent, 'same answer on both surfaces and both names');
    assert.deepEqual(http, await ok(asOf('2010-01-25', '?fiscal_year=2008')));
  });
});
