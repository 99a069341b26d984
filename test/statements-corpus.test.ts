import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../config.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { get, post } from './helpers/http.ts';
import { SHARED_SEC, startTestService, type TestService } from './helpers/service.ts';
import { compactJson } from '../api/mcp-envelope.ts';

/**
 * Reads of the ingested ../shared/sec corpus through the real routes. Expected figures are the
 * companies' own published numbers, read from their filings (accession named at each assertion).
 */
const APPLE = '0000320193';
const WALMART = '0000104169';
const HOME_DEPOT = '0000354950';
const NVIDIA = '0001045810';
const TSMC = '0001046179';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

async function series(cik: string, metric: string, query: string) {
  const r = await get(`${svc.baseUrl}/v1/edgar/companies/${cik}/metrics/${metric}/time-series?${query}`, svc.keys.enterprise);
  assert.equal(r.status, 200, r.text);
  return r.body as { total: number; items: any[] };
}

async function statement(query: string) {
  const r = await get(`${svc.baseUrl}/v1/fundamentals/normalized-statements?${query}`, svc.keys.enterprise);
  return r;
}

function fact(body: any, metric: string) {
  return body.data.normalized_payload.facts.find((f: any) => f.metric === metric);
}

describe('published figures', () => {
  it("Apple FY2023 income statement, balance sheet and cash flow match its 10-K (0000320193-23-000106)", async () => {
    const is = await statement(`cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`);
    assert.equal(is.status, 200, is.text);
    assert.equal(fact(is.body, 'REVENUE').value, '383285000000.000000');
    assert.equal(fact(is.body, 'NET_INCOME').value, '96995000000.000000');
    assert.equal(fact(is.body, 'EPS_DILUTED').value, '6.130000');
    assert.equal(fact(is.body, 'EPS_DILUTED').unit, 'USD/shares');
    // the latest version comes from the fiscal 2025 10-K, which told two figures of fiscal 2023 first;
    // every figure the 10-K told keeps its source filing
    assert.equal(is.body.data.source_accession, '0000320193-25-000079');
    assert.equal(fact(is.body, 'REVENUE').source_accession, '0000320193-23-000106');
    assert.equal(fact(is.body, 'SELLING_AND_MARKETING').source_accession, '0000320193-25-000079');
    assert.equal(is.body.data.period_start, '2022-09-25');
    assert.equal(is.body.data.period_end, '2023-09-30');

    const bs = await statement(`ticker=AAPL&statement_type=BALANCE_SHEET&fiscal_year=2023&fiscal_period=FY`);
    assert.equal(fact(bs.body, 'TOTAL_ASSETS').value, '352583000000.000000');
    assert.equal(bs.body.data.period_start, null);
    const identity = bs.body.data.normalized_payload._meta.identity;
    const assetsRule = identity.checks.find((c: any) => c.rule_id === 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY');
    assert.equal(assetsRule.status, 'PASS');
    assert.equal(assetsRule.delta, '0.000000');
    assert.equal(assetsRule.expected_value, '352583000000.000000', 'identity amounts are wire decimals with six fraction digits, like every figure');

    const cf = await statement(`cik=${APPLE}&statement_type=CASH_FLOW_STATEMENT&fiscal_year=2023&fiscal_period=FY`);
    assert.equal(fact(cf.body, 'OPERATING_CASH_FLOW').value, '110543000000.000000');
    assert.equal(fact(cf.body, 'CAPITAL_EXPENDITURES').value, '10959000000.000000', 'capital expenditures are the positive payment');
  });

  it("Apple's fiscal 2023 second quarter uses its three-month figures (10-Q 0000320193-23-000064)", async () => {
    const is = await statement(`cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=Q2`);
    assert.equal(fact(is.body, 'REVENUE').value, '94836000000.000000');
    assert.equal(fact(is.body, 'REVENUE').period_start, '2023-01-01');
    assert.equal(fact(is.body, 'REVENUE').value_origin, 'SOURCE');
    assert.equal(fact(is.body, 'NET_INCOME').value, '24160000000.000000');
    const bs = await statement(`cik=${APPLE}&statement_type=BALANCE_SHEET&fiscal_year=2023&fiscal_period=Q2`);
    assert.equal(fact(bs.body, 'TOTAL_ASSETS').value, '332160000000.000000');
  });

  it('a discrete cash-flow quarter is derived from year-to-date figures and says so', async () => {
    // 10-Q 0000320193-23-000064 reports six months of operating cash flow (62,565M); the Q1 10-Q reported 34,005M
    const cf = await statement(`cik=${APPLE}&statement_type=CASH_FLOW_STATEMENT&fiscal_year=2023&fiscal_period=Q2`);
    const ocf = fact(cf.body, 'OPERATING_CASH_FLOW');
    assert.equal(ocf.value, '28560000000.000000');
    assert.equal(ocf.value_origin, 'DERIVED');
    assert.equal(ocf.mapping_type, 'DERIVED_DISCRETE_QUARTER');
    assert.deepEqual(
      ocf.calculation_steps.map((s: any) => [s.operation, s.value, s.period_start, s.period_end]),
      [
        ['base', '62565000000.000000', '2022-09-25', '2023-04-01'],
        ['subtract', '34005000000.000000', '2022-09-25', '2022-12-31'],
      ],
    );
  });

  it("a derived fourth quarter is the year minus nine months: Apple's fiscal 2024 Q4 revenue", async () => {
    // 10-K 0000320193-24-000123: 391,035M for the year; 10-Q 0000320193-24-000081: 296,105M for nine months
    const page = await series(APPLE, 'REVENUE', 'period_type=quarterly&fiscal_year_from=2024&fiscal_year_to=2024&include_provenance=true');
    assert.deepEqual(page.items.map((p) => p.fiscal_period), ['Q1', 'Q2', 'Q3', 'Q4']);
    const q4 = page.items[3];
    assert.equal(q4.value, '94930000000.000000');
    assert.equal(q4.value_origin, 'DERIVED');
    assert.equal(q4.provenance.mapping_type, 'DERIVED_Q4');
    assert.equal(q4.period_start, '2024-06-30');
    assert.equal(q4.period_end, '2024-09-28');
    assert.deepEqual(q4.provenance.calculation_steps.map((s: any) => s.source_accession), ['0000320193-24-000123', '0000320193-24-000081']);
    const eps = await series(APPLE, 'EPS_DILUTED', 'fiscal_year_from=2024&fiscal_year_to=2024&fiscal_period=Q4');
    assert.equal(eps.total, 0, 'per-share figures are not additive, so no Q4 EPS is derived');
  });

  it('a series point reads the same plain, after a read with provenance and after a split-adjusted one: each asks for exactly its own fields', async () => {
    const query = 'period_type=quarterly&fiscal_year_from=2019&fiscal_year_to=2020&as_reported=true';
    const plain = await series(APPLE, 'EPS_DILUTED', query);
    const withProvenance = await series(APPLE, 'EPS_DILUTED', `${query}&include_provenance=true`);
    const adjusted = await series(APPLE, 'EPS_DILUTED', `${query}&split_adjusted=true`);
    const again = await series(APPLE, 'EPS_DILUTED', query);
    assert.ok(plain.items.length >= 4);
    assert.deepEqual(again, plain, 'read again: the same points');
    assert.ok(withProvenance.items.every((p) => p.provenance !== undefined && p.split_adjustment === undefined));
    assert.ok(adjusted.items.some((p) => p.split_adjustment !== undefined && p.value !== plain.items.find((q) => q.statement_version_id === p.statement_version_id)!.value), 'the 4-for-1 split of 2020 shows');
    assert.ok(plain.items.every((p) => p.provenance === undefined && p.split_adjustment === undefined));
    const strip = (p: any) => Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'provenance'));
    assert.deepEqual(withProvenance.items.map(strip), plain.items, 'provenance adds a field and changes none');
  });

  it("a 16-week fourth quarter is derived too: Costco's fiscal 2024 Q4 revenue", async () => {
    // 10-K 0000909832-24-000049: 254,453M for the 52 weeks; the Q3 10-Q: 174,756M for 36 weeks
    const page = await series('0000909832', 'REVENUE', 'fiscal_year_from=2024&fiscal_year_to=2024&fiscal_period=Q4');
    assert.equal(page.items[0].value, '79697000000.000000');
    assert.equal(page.items[0].period_end, '2024-09-01');
  });

  it("fiscal years carry the filer's own label: Walmart's year to 2025-01-31 is 2025, Home Depot's to 2025-02-02 is 2024", async () => {
    const wmt = await series(WALMART, 'REVENUE', 'period_type=annual&fiscal_year_from=2025&fiscal_year_to=2025');
    assert.equal(wmt.items[0].period_end, '2025-01-31');
    assert.equal(wmt.items[0].value, '680985000000.000000');
    const hd = await series(HOME_DEPOT, 'REVENUE', 'period_type=annual&fiscal_year_from=2024&fiscal_year_to=2024');
    assert.equal(hd.items[0].period_end, '2025-02-02');
    assert.equal(hd.items[0].value, '159514000000.000000');
    const nvda = await series(NVIDIA, 'REVENUE', 'period_type=annual&fiscal_year_from=2025&fiscal_year_to=2025');
    assert.equal(nvda.items[0].period_end, '2025-01-26');
    assert.equal(nvda.items[0].value, '130497000000.000000');
  });

  it("labels run in sequence even where old reports tagged the focus off by one: Walmart's year to 2013-01-31 is fiscal 2013", async () => {
    // Walmart's 10-K 0000104169-13-000011 tags fiscal year focus 2012; its text, and its later reports, say fiscal 2013
    const wmt = await series(WALMART, 'REVENUE', 'period_type=annual&fiscal_year_from=2012&fiscal_year_to=2016');
    assert.deepEqual(wmt.items.map((p) => [p.fiscal_year, p.period_end]), [
      [2012, '2012-01-31'],
      [2013, '2013-01-31'],
      [2014, '2014-01-31'],
      [2015, '2015-01-31'],
      [2016, '2016-01-31'],
    ]);
    const nvda = await series(NVIDIA, 'REVENUE', 'period_type=annual&fiscal_year_from=2011&fiscal_year_to=2013');
    assert.deepEqual(nvda.items.map((p) => [p.fiscal_year, p.period_end]), [
      [2011, '2011-01-30'],
      [2012, '2012-01-29'],
      [2013, '2013-01-27'],
    ]);
  });

  it('an IFRS filer keeps its reporting currency: TSMC 2024 revenue in TWD from its 20-F', async () => {
    const r = await statement(`cik=${TSMC}&statement_type=INCOME_STATEMENT&fiscal_year=2024&fiscal_period=FY`);
    assert.equal(r.body.data.accounting_standard, 'IFRS');
    assert.equal(r.body.data.currency, 'TWD');
    assert.equal(fact(r.body, 'REVENUE').value, '2894307700000.000000');
    assert.equal(fact(r.body, 'REVENUE').unit, 'TWD');
    assert.equal(fact(r.body, 'REVENUE').source_xbrl_concept, 'ifrs-full:Revenue');
  });
});

describe('a restatement: Apple restated fiscal 2008 in its 10-K/A of 2010-01-25', () => {
  // 10-K 0001193125-09-214859 (filed 2009-10-27) reported net income of 4,834M for fiscal 2008;
  // 10-K/A 0001193125-10-012091 (filed 2010-01-25) restated it to 6,119M.
  const q = `period_type=annual&fiscal_year_from=2008&fiscal_year_to=2008`;

  it('reads the restated value by default', async () => {
    const page = await series(APPLE, 'NET_INCOME', q);
    assert.equal(page.items[0].value, '6119000000.000000');
    // version 3 (the fiscal 2010 10-K) only added a figure; net income is still the amendment's
    assert.equal(page.items[0].version_sequence, 3);
  });

  it('reads the original value with as_reported=true', async () => {
    const page = await series(APPLE, 'NET_INCOME', `${q}&as_reported=true`);
    assert.equal(page.items[0].value, '4834000000.000000');
    assert.equal(page.items[0].version_sequence, 1);
  });

  it('reads what was knowable on a date: the original before the amendment, the restatement from its filing date, nothing before the first filing', async () => {
    assert.equal((await series(APPLE, 'NET_INCOME', `${q}&as_of_date=2010-01-24`)).items[0].value, '4834000000.000000');
    assert.equal((await series(APPLE, 'NET_INCOME', `${q}&as_of_date=2010-01-25`)).items[0].value, '6119000000.000000');
    const early = await series(APPLE, 'NET_INCOME', `${q}&as_of_date=2009-10-26`);
    assert.equal(early.total, 0);
    assert.deepEqual(early.items, []);
    assert.equal((await series(APPLE, 'NET_INCOME', `${q}&as_of_date=2010-06-30&as_reported=true`)).items[0].value, '4834000000.000000');
  });

  it('keeps version 1 and lists both versions with what the restatement changed', async () => {
    const r = await statement(`cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2008&fiscal_period=FY&include_version_history=true`);
    assert.equal(r.status, 200, r.text);
    const history = r.body.data.version_history;
    assert.deepEqual(history.map((h: any) => [h.version_sequence, h.source_accession, h.filing_type, h.filing_date]), [
      [1, '0001193125-09-214859', '10-K', '2009-10-27'],
      [2, '0001193125-10-012091', '10-K/A', '2010-01-25'],
      [3, '0001193125-10-238044', '10-K', '2010-10-27'],
    ]);
    assert.deepEqual(history[0].revised_metrics, []);
    assert.deepEqual(history[2].revised_metrics, [], 'a version that only adds a later figure revises nothing');
    const ni = history[1].revised_metrics.find((m: any) => m.metric === 'NET_INCOME');
    assert.deepEqual(ni, { metric: 'NET_INCOME', old_value: '4834000000.000000', new_value: '6119000000.000000', difference: '1285000000.000000' });
    const before = await statement(`cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2008&fiscal_period=FY&as_of_date=2010-01-01`);
    assert.equal(before.body.data.version_sequence, 1);
    assert.equal(fact(before.body, 'NET_INCOME').value, '4834000000.000000');
    assert.ok(history.every((h: any) => h.split_recast_metrics.length === 0), 'no split in between');
  });

  it("lists a version that recast per-share figures for a stock split apart from revisions: Apple's fiscal 2019 after the 4-for-1 split", async () => {
    const r = await statement(`cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2019&fiscal_period=FY&include_version_history=true`);
    assert.equal(r.status, 200, r.text);
    const [v1, v2] = r.body.data.version_history;
    assert.deepEqual([v1.split_recast_metrics, v2.revised_metrics], [[], []]);
    assert.deepEqual(v2.split_recast_metrics.find((m: any) => m.metric === 'EPS_BASIC'), { metric: 'EPS_BASIC', old_value: '11.970000', new_value: '2.990000', split_ratio: '4.000000' });
    assert.equal(fact(r.body, 'EPS_BASIC').value, '2.990000', 'served on the new share basis');
  });

  it('records a restatement alert event and fact revisions for the new version', async () => {
    const [event] = await svc.sql<{ accession: string; form: string; revised_metrics: number }[]>`
      SELECT accession, form, revised_metrics FROM restatement_alert_events
      WHERE cik = ${APPLE} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2008 AND fiscal_period = 'FY'`;
    assert.equal(event?.accession, '0001193125-10-012091');
    assert.equal(event?.form, '10-K/A');
    const [rev] = await svc.sql<{ old_value: string; new_value: string; difference: string; old_accession: string; new_accession: string }[]>`
      SELECT r.old_value::text, r.new_value::text, r.difference::text, r.old_accession, r.new_accession
      FROM fact_revisions r JOIN statement_versions v USING (statement_version_id)
      WHERE v.cik = ${APPLE} AND v.fiscal_year = 2008 AND v.statement_type = 'INCOME_STATEMENT' AND v.fiscal_period = 'FY' AND r.metric = 'NET_INCOME'`;
    assert.deepEqual(rev, {
      old_value: '4834000000',
      new_value: '6119000000',
      difference: '1285000000',
      old_accession: '0001193125-09-214859',
      new_accession: '0001193125-10-012091',
    });
  });
});

describe('which filings make statements', () => {
  it('proxy statements, 8-Ks and registration statements never create a version', async () => {
    const [row] = await svc.sql<{ versions: number; from_non_periodic: number; non_periodic_filings: number }[]>`
      SELECT (SELECT count(*)::int FROM statement_versions) AS versions,
             (SELECT count(*)::int FROM statement_versions v JOIN filings f USING (accession) WHERE NOT f.is_periodic) AS from_non_periodic,
             (SELECT count(*)::int FROM filings WHERE NOT is_periodic AND facts_count > 0) AS non_periodic_filings`;
    assert.ok(row!.versions > 1000);
    assert.ok(row!.non_periodic_filings > 10, 'the corpus holds 8-K, DEF 14A and 424B filings with facts');
    assert.equal(row!.from_non_periodic, 0);
    const forms = await svc.sql<{ form: string }[]>`SELECT DISTINCT form FROM statement_versions ORDER BY form`;
    for (const { form } of forms) assert.match(form, /^(10-K|10-Q|10-KT|10-QT|20-F|40-F)(\/A)?$/);
  });

  it('companies with company facts but no submissions file are ingested from the accessions their facts carry', async () => {
    const [alphabet] = await svc.sql<{ name: string; source: string; versions: number }[]>`
      SELECT c.name, c.source, (SELECT count(*)::int FROM statement_versions v WHERE v.cik = c.cik) AS versions
      FROM companies c WHERE c.cik = '0001652044'`;
    assert.equal(alphabet?.source, 'sec_companyfacts');
    assert.ok(alphabet!.versions > 100);
  });
});

describe('reads refuse what they cannot answer', () => {
  it('refuses a metric name that is not canonical with 400 listing the accepted names', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies/${APPLE}/metrics/REVENUES/time-series`, svc.keys.free);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.match(r.body.error.message, /accepted names: REVENUE, COST_OF_REVENUE, GROSS_PROFIT/);
    const derived = await get(`${svc.baseUrl}/v1/edgar/companies/${APPLE}/metrics/GROSS_MARGIN/time-series`, svc.keys.free);
    assert.equal(derived.status, 400);
    assert.match(derived.body.error.message, /GROSS_MARGIN is a derived metric/);
  });

  it("refuses a statement_type that is not the metric's own, and a year range that runs backwards", async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies/${APPLE}/metrics/REVENUE/time-series?statement_type=BALANCE_SHEET`, svc.keys.free);
    assert.equal(r.status, 400);
    assert.match(r.body.error.message, /REVENUE is a INCOME_STATEMENT metric/);
    const back = await get(`${svc.baseUrl}/v1/edgar/companies/${APPLE}/metrics/REVENUE/time-series?fiscal_year_from=2024&fiscal_year_to=2020`, svc.keys.free);
    assert.equal(back.status, 400);
  });

  it('answers an unknown statement identity 404 naming periods that exist', async () => {
    const r = await statement(`cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=1990&fiscal_period=FY`);
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'NOT_FOUND');
    assert.match(r.body.error.message, /Most recent periods on record: 20\d\d/);
  });

  it('answers a company with no statements with an empty page, not an error', async () => {
    const page = await series('0000000001', 'REVENUE', '');
    assert.deepEqual(page, { page: 1, page_size: 50, total: 0, items: [] });
  });
});

describe('the statements_normalized tool', () => {
  it('returns the same statement as the HTTP route, with identity checks, over JSON-RPC', async () => {
    const res = await post(
      `${svc.baseUrl}/mcp`,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'statements_normalized', arguments: { ticker: 'AAPL', statement_type: 'INCOME_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY' } },
      }),
      svc.keys.free,
    );
    assert.equal(res.status, 200);
    const result = res.body.result;
    assert.equal(result.isError, false);
    const data = result.structuredContent.data;
    assert.equal(data.cik, APPLE);
    assert.equal(fact({ data }, 'REVENUE').value, '383285000000.000000');
    const identity = data.normalized_payload._meta.identity;
    assert.equal(identity.checks.find((c: any) => c.rule_id === 'IS_GROSS_PROFIT').status, 'PASS');
    assert.ok(identity.skipped_rules_count > 0, 'balance-sheet and cash-flow rules are skipped on an income statement');
    assert.equal(result.content[0].text, compactJson(result.structuredContent), 'the text is the compact rendering of structuredContent');
    assert.equal(data.normalized_payload.facts.find((f: any) => f.metric === 'REVENUE').source_accession, undefined, 'compact by default on the tool server');
  });
});

describe('re-ingestion and status', () => {
  it('a second run over the same source changes nothing: versions, segment rows and disclosures stay as they were', async () => {
    const fingerprint = async () =>
      (
        await svc.sql<{ n: number; digest: string; segments: string; disclosures: string }[]>`
          SELECT count(*)::int AS n, md5(string_agg(statement_version_id::text || content_hash, ',' ORDER BY statement_version_id)) AS digest,
            (SELECT count(*) || ':' || md5(string_agg(concat_ws('|', metric_dimension_id, statement_version_id, value, extracted_at), ',' ORDER BY metric_dimension_id))
               FROM segment_facts) AS segments,
            (SELECT count(*) || ':' || md5(string_agg(concat_ws('|', disclosure_id, char_count, extracted_at), ',' ORDER BY disclosure_id))
               FROM disclosures) AS disclosures
          FROM statement_versions`
      )[0];
    const before = await fingerprint();
    assert.ok(Number(before!.segments.split(':')[0]) > 500 && Number(before!.disclosures.split(':')[0]) > 500, JSON.stringify(before));
    const summary = await runIngestion(svc.sql, { ...loadConfig({}), secSource: SHARED_SEC });
    assert.equal(summary.status, 'succeeded');
    assert.equal(summary.counters.versions_added, 0);
    // every company is unchanged except the one the mirror has nothing usable for (CIK 34088: its one
    // package folder is not named by an accession number), which is counted apart, not as unchanged
    assert.deepEqual(summary.companies.filter((c) => c.status === 'no_data').map((c) => c.cik), ['0000034088']);
    assert.equal(summary.counters.companies_without_data, 1);
    assert.equal(summary.counters.companies_skipped, summary.counters.companies_done - 1);
    assert.deepEqual(await fingerprint(), before);
  });

  it('reports runs and corpus counts on the ingestion status route', async () => {
    const r = await get(`${svc.baseUrl}/v1/system/ingestion/status`, svc.keys.free);
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.equal(d.last_finished_run.status, 'succeeded');
    assert.equal(d.last_finished_run.companies_without_data, 1, 'CIK 34088 has nothing usable in the mirror');
    assert.ok(d.last_finished_run.companies_unchanged < d.last_finished_run.companies_done, 'and is not counted as unchanged');
    assert.equal(d.current_run, null);
    assert.ok(d.corpus.statement_versions > 1000);
    assert.ok(d.corpus.restatements > 0);
    // 64 with company facts or submissions, plus Amazon, Netflix, P&G and UnitedHealth known only from filing packages
    assert.equal(d.corpus.companies_ingested, 68);
  });
});

describe('time-series pages', () => {
  it('pages through a series and still reports the total past the last page', async () => {
    const all = await series(APPLE, 'REVENUE', 'period_type=annual&page_size=200');
    assert.ok(all.total >= 15, `Apple has ${all.total} annual revenue points`);
    const second = await series(APPLE, 'REVENUE', 'period_type=annual&page_size=5&page=2');
    assert.deepEqual(second.items.map((p) => p.fiscal_year), all.items.slice(5, 10).map((p) => p.fiscal_year));
    const past = await series(APPLE, 'REVENUE', `period_type=annual&page_size=5&page=${Math.ceil(all.total / 5) + 1}`);
    assert.deepEqual(past.items, []);
    assert.equal(past.total, all.total);
  });
});
