import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dec } from '../domain/decimal.ts';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * Panel, bundle, view and derived-metric time series over the ingested corpus. Figures are Apple's
 * own (10-K 0000320193-23-000106 for fiscal 2023), Microsoft's for a second company; CIK
 * 0000749647 (Imunon) is a company on record with no statements.
 */
const APPLE = '0000320193';
const MICROSOFT = '0000789019';
const NO_STATEMENTS = '0000749647';

const ratio = (a: string, b: string) => dec(a).dividedBy(b).toFixed(12);

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

async function ok(path: string) {
  const r = await get(`${svc.baseUrl}${path}`, svc.keys.free);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function refused(path: string, status: number, code: string) {
  const r = await get(`${svc.baseUrl}${path}`, svc.keys.free);
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error.code, code, r.text);
  return r.body.error.message as string;
}

describe('GET /v1/fundamentals/time-series (panel)', () => {
  const PANEL = '/v1/fundamentals/time-series';

  it("serves Apple's FY2019-FY2023 revenue as filed in the latest statement versions", async () => {
    const body = await ok(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=320193&metrics=REVENUE&from=2019-01-01&to=2023-12-31`);
    assert.equal(body.total, 5);
    assert.deepEqual(body.items.map((p: any) => [p.fiscal_year, p.fiscal_period, p.metrics.REVENUE]), [
      [2019, 'FY', '260174000000.000000'],
      [2020, 'FY', '274515000000.000000'],
      [2021, 'FY', '365817000000.000000'],
      [2022, 'FY', '394328000000.000000'],
      [2023, 'FY', '383285000000.000000'],
    ]);
    const rows = await svc.sql<{ fiscal_year: number; value: string }[]>`
      SELECT DISTINCT ON (fiscal_year) fiscal_year, figures -> 'REVENUE' ->> 'value' AS value FROM statement_versions
      WHERE cik = ${APPLE} AND statement_type = 'INCOME_STATEMENT' AND fiscal_period = 'FY' AND fiscal_year BETWEEN 2019 AND 2023
      ORDER BY fiscal_year, version_sequence DESC`;
    assert.deepEqual(body.items.map((p: any) => p.metrics.REVENUE), rows.map((r) => `${r.value}.000000`), 'panel equals the latest versions in the database');
    const fy2023 = body.items[4];
    assert.equal(fy2023.statement_date, '2023-09-30');
    assert.equal(fy2023.accounting_standard, 'US_GAAP');
    assert.equal(fy2023.currency, 'USD');
    // the latest version: the fiscal 2025 10-K told selling and G&A expenses of fiscal 2023 first
    assert.equal(fy2023.source_accession, '0000320193-25-000079');
    assert.deepEqual(fy2023.derived_figures, []);
  });

  it('resolves tickers to the same points as ciks', async () => {
    const byTicker = await ok(`${PANEL}?statement_type=INCOME_STATEMENT&tickers=aapl&metrics=NET_INCOME&from=2023-01-01&to=2023-12-31`);
    assert.equal(byTicker.total, 1);
    assert.equal(byTicker.items[0].cik, APPLE);
    assert.equal(byTicker.items[0].metrics.NET_INCOME, '96995000000.000000');
  });

  it('returns every metric the statement reports when metrics is omitted', async () => {
    const body = await ok(`${PANEL}?statement_type=BALANCE_SHEET&ciks=${APPLE}&from=2023-09-30&to=2023-09-30`);
    assert.equal(body.total, 1);
    const [row] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM jsonb_object_keys((SELECT figures FROM statement_versions
        WHERE cik = ${APPLE} AND statement_type = 'BALANCE_SHEET' AND fiscal_year = 2023 AND fiscal_period = 'FY' ORDER BY version_sequence DESC LIMIT 1))`;
    assert.equal(Object.keys(body.items[0].metrics).length, row!.n);
    assert.equal(body.items[0].metrics.TOTAL_ASSETS, '352583000000.000000');
    assert.equal(Object.keys(body.items[0].metrics)[0], 'CASH_AND_EQUIVALENTS', 'metrics in catalog order');
  });

  it('gives quarterly points Q1-Q4 with derived cash-flow quarters named in derived_figures', async () => {
    const body = await ok(`${PANEL}?statement_type=CASH_FLOW_STATEMENT&ciks=${APPLE}&frequency=quarterly&metrics=OPERATING_CASH_FLOW&from=2022-10-01&to=2023-09-30`);
    assert.deepEqual(body.items.map((p: any) => [p.fiscal_period, p.metrics.OPERATING_CASH_FLOW, p.derived_figures]), [
      ['Q1', '34005000000.000000', []],
      ['Q2', '28560000000.000000', ['OPERATING_CASH_FLOW']],
      ['Q3', '26380000000.000000', ['OPERATING_CASH_FLOW']],
      ['Q4', '21598000000.000000', ['OPERATING_CASH_FLOW']],
    ]);
    const sum = body.items.reduce((s: any, p: any) => s.plus(p.metrics.OPERATING_CASH_FLOW), dec('0'));
    assert.equal(sum.toFixed(), '110543000000', 'the four quarters add up to the fiscal year');
  });

  it('use_tier1_only keeps only figures as tagged, dropping derived quarters', async () => {
    const body = await ok(`${PANEL}?statement_type=CASH_FLOW_STATEMENT&ciks=${APPLE}&frequency=quarterly&metrics=OPERATING_CASH_FLOW&from=2022-10-01&to=2023-09-30&use_tier1_only=true`);
    assert.deepEqual(body.items.map((p: any) => p.fiscal_period), ['Q1']);
    assert.equal(body.total, 1);
  });

  it('spans companies in cik order and gives nothing for a company without statements', async () => {
    const body = await ok(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${MICROSOFT},${APPLE},${NO_STATEMENTS}&metrics=REVENUE&from=2023-01-01&to=2023-12-31`);
    assert.deepEqual(body.items.map((p: any) => [p.cik, p.metrics.REVENUE]), [
      [APPLE, '383285000000.000000'],
      [MICROSOFT, '211915000000.000000'],
    ]);
    const empty = await ok(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${NO_STATEMENTS}`);
    assert.equal(empty.total, 0);
    assert.deepEqual(empty.items, []);
  });

  it('pages with page and page_size and reports the total past the end', async () => {
    const q = `${PANEL}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&metrics=REVENUE&from=2019-01-01&to=2023-12-31&page_size=2`;
    const p3 = await ok(`${q}&page=3`);
    assert.equal(p3.total, 5);
    assert.equal(p3.items.length, 1);
    assert.equal(p3.items[0].fiscal_year, 2023);
    const past = await ok(`${q}&page=9`);
    assert.equal(past.total, 5);
    assert.deepEqual(past.items, []);
  });

  it('refuses ciks with tickers, neither, unknown or foreign metrics, inverted dates and a missing statement_type', async () => {
    await refused(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&tickers=AAPL`, 400, 'VALIDATION_ERROR');
    await refused(`${PANEL}?statement_type=INCOME_STATEMENT`, 400, 'VALIDATION_ERROR');
    const unknown = await refused(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&metrics=SALES`, 400, 'VALIDATION_ERROR');
    assert.ok(unknown.includes('accepted names') && unknown.includes('REVENUE'), unknown);
    const derived = await refused(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&metrics=GROSS_MARGIN`, 400, 'VALIDATION_ERROR');
    assert.ok(derived.includes('derived metric'), derived);
    const foreign = await refused(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&metrics=TOTAL_ASSETS`, 400, 'VALIDATION_ERROR');
    assert.ok(foreign.includes('TOTAL_ASSETS is a BALANCE_SHEET metric'), foreign);
    await refused(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&from=2024-01-01&to=2023-01-01`, 400, 'VALIDATION_ERROR');
    await refused(`${PANEL}?ciks=${APPLE}`, 400, 'VALIDATION_ERROR');
    await refused(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&frequency=monthly`, 400, 'VALIDATION_ERROR');
    await refused(`${PANEL}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&from=2023-02-30`, 400, 'VALIDATION_ERROR');
    await refused(`${PANEL}?statement_type=INCOME_STATEMENT&tickers=NOSUCHCO`, 404, 'NOT_FOUND');
  });
});

describe('GET /v1/fundamentals/derived/time-series', () => {
  const DERIVED = '/v1/fundamentals/derived/time-series';

  it("computes Apple's FY2023 gross margin as 169148/383285 and ROE on average equity, without snapshot fields", async () => {
    const body = await ok(`${DERIVED}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&from=2023-09-30&to=2023-09-30&metrics=GROSS_MARGIN,ROE,EBITDA`);
    assert.equal(body.total, 1);
    const p = body.items[0];
    assert.equal(p.metrics.GROSS_MARGIN, ratio('169148', '383285'));
    assert.equal(p.metrics.GROSS_MARGIN, '0.441311295772');
    // net income 96,995M over the average of FY2022 (50,672M) and FY2023 (62,146M) equity
    assert.equal(p.metrics.ROE, ratio('96995', dec('50672').plus('62146').dividedBy(2).toFixed()));
    // operating income 114,301M + D&A 11,519M from the cash-flow statement
    assert.equal(p.metrics.EBITDA, '125820000000.000000');
    assert.ok(!('as_of_snapshot_id' in p), 'computed on read: no snapshot id');
    assert.deepEqual(p.unavailable_metrics, []);
    const opening = p.statement_versions.find((v: any) => v.role === 'opening_balance');
    assert.equal(opening.fiscal_year ?? 2022, 2022);
    // opening equity is the FY2022 balance sheet, latest version: the FY2023 10-K told figures of it first (deferred tax assets)
    assert.equal(opening.source_accession, '0000320193-23-000106', 'opening equity is the FY2022 balance sheet');
  });

  it('defaults to the derived metrics classed with the statement type', async () => {
    const body = await ok(`${DERIVED}?statement_type=BALANCE_SHEET&ciks=${APPLE}&from=2023-09-30&to=2023-09-30`);
    const p = body.items[0];
    assert.equal(p.statement_type, 'BALANCE_SHEET');
    assert.equal(p.metrics.CURRENT_RATIO, ratio('143566', '145308'), 'period-end balances, no averaging');
    assert.ok('DSO' in p.metrics && !('GROSS_MARGIN' in p.metrics), 'balance-sheet derived metrics only');
  });

  it('computes a Q4 from the derived Q4 figures and the fiscal-year-end balance sheet', async () => {
    const body = await ok(`${DERIVED}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&frequency=quarterly&from=2023-09-30&to=2023-09-30&metrics=GROSS_MARGIN,ROA`);
    const q4 = body.items.find((p: any) => p.fiscal_period === 'Q4');
    assert.ok(q4, 'a Q4 point');
    assert.deepEqual(q4.derived_figures.includes('REVENUE') && q4.derived_figures.includes('GROSS_PROFIT'), true, 'derived inputs named');
    const bs = q4.statement_versions.find((v: any) => v.statement_type === 'BALANCE_SHEET' && v.role === 'period');
    assert.equal(bs.fiscal_period, 'FY', 'the Q4 balance sheet is the fiscal-year-end one');
    const [fig] = await svc.sql<{ revenue: string; gross: string }[]>`
      SELECT figures -> 'REVENUE' ->> 'value' AS revenue, figures -> 'GROSS_PROFIT' ->> 'value' AS gross FROM statement_versions
      WHERE cik = ${APPLE} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2023 AND fiscal_period = 'Q4' ORDER BY version_sequence DESC LIMIT 1`;
    assert.equal(q4.metrics.GROSS_MARGIN, ratio(fig!.gross, fig!.revenue));
  });

  it('gives null with MISSING_INPUT, never zero, when tier 1 leaves an input out', async () => {
    const body = await ok(`${DERIVED}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&frequency=quarterly&from=2023-09-30&to=2023-09-30&metrics=GROSS_MARGIN&use_tier1_only=true`);
    const q4 = body.items.find((p: any) => p.fiscal_period === 'Q4');
    assert.equal(q4.metrics.GROSS_MARGIN, null);
    assert.deepEqual(q4.unavailable_metrics, [{ metric: 'GROSS_MARGIN', reason: 'MISSING_INPUT', missing_inputs: ['GROSS_PROFIT', 'REVENUE'] }]);
  });

  it('refuses unknown and canonical names, listing the derived ones', async () => {
    const unknown = await refused(`${DERIVED}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&metrics=MOAT_SCORE`, 400, 'VALIDATION_ERROR');
    assert.ok(unknown.includes('accepted names') && unknown.includes('FCF_CONVERSION'), unknown);
    const canonical = await refused(`${DERIVED}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&metrics=REVENUE`, 400, 'VALIDATION_ERROR');
    assert.ok(canonical.includes('canonical metric'), canonical);
    await refused(`${DERIVED}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&tickers=AAPL`, 400, 'VALIDATION_ERROR');
    await refused(`${DERIVED}?statement_type=INCOME_STATEMENT&ciks=${APPLE}&from=2023-02-01&to=2023-01-01`, 400, 'VALIDATION_ERROR');
  });
});

describe('GET /v1/edgar/derived-metrics/time-series', () => {
  const SERIES = '/v1/edgar/derived-metrics/time-series';

  it('answers the single derived-series object, with nothing for a company without statements', async () => {
    const body = await ok(`${SERIES}?ciks=${APPLE}&ciks=${NO_STATEMENTS}&metrics=GROSS_MARGIN&metrics=FREE_CASH_FLOW&statement_type=INCOME_STATEMENT&frequency=annual`);
    const d = body.data;
    assert.deepEqual(d.ciks, [APPLE, NO_STATEMENTS]);
    assert.equal(d.statement_type, 'INCOME_STATEMENT');
    assert.equal(d.frequency, 'annual');
    assert.ok(d.points.every((p: any) => p.cik === APPLE), 'only Apple has points');
    assert.equal(d.from_date, d.points[0].statement_date);
    assert.equal(d.to_date, d.points[d.points.length - 1].statement_date);
    const fy2023 = d.points.find((p: any) => p.fiscal_year === 2023);
    assert.deepEqual(Object.keys(fy2023).sort(), [
      'accounting_standard', 'cik', 'currency', 'derived_figures', 'fiscal_period', 'fiscal_year', 'metrics', 'period_start', 'statement_date',
      'statement_type', 'statement_versions', 'unavailable_metrics',
    ]);
    assert.equal(fy2023.metrics.GROSS_MARGIN, '0.441311295772');
    assert.equal(fy2023.metrics.FREE_CASH_FLOW, '99584000000.000000', '110,543M operating cash flow less 10,959M capital expenditures');
    const none = await ok(`${SERIES}?ciks=${NO_STATEMENTS}&statement_type=INCOME_STATEMENT`);
    assert.deepEqual(none.data.points, []);
    assert.equal(none.data.from_date, null);
  });

  it('refuses a request without ciks or statement_type', async () => {
    await refused(`${SERIES}?statement_type=INCOME_STATEMENT`, 400, 'VALIDATION_ERROR');
    await refused(`${SERIES}?ciks=${APPLE}`, 400, 'VALIDATION_ERROR');
  });
});

describe('GET /v1/edgar/companies/{cik}/metric-bundles/{bundle_code}/time-series', () => {
  it("serves a bundle's metrics per fiscal period across statements", async () => {
    const body = await ok(`/v1/edgar/companies/${APPLE}/metric-bundles/profitability_inputs/time-series?period_type=quarterly&fiscal_year_from=2023&fiscal_year_to=2023`);
    assert.deepEqual(body.items.map((p: any) => p.fiscal_period), ['Q1', 'Q2', 'Q3', 'Q4']);
    const q4 = body.items[3];
    assert.equal(q4.metrics.TOTAL_ASSETS, '352583000000.000000', 'Q4 reads the fiscal-year-end balance sheet');
    assert.equal(q4.metrics.REVENUE, '89498000000.000000');
    assert.ok(q4.derived_figures.includes('REVENUE'), 'Q4 revenue is derived');
    const annual = await ok(`/v1/edgar/companies/${APPLE}/metric-bundles/core_income_statement/time-series?period_type=annual&fiscal_year_from=2023&fiscal_year_to=2023`);
    assert.equal(annual.total, 1);
    assert.equal(annual.items[0].metrics.REVENUE, '383285000000.000000');
    assert.equal(annual.items[0].metrics.EPS_DILUTED, '6.130000');
  });

  it('gives an empty page for a company without statements and 404 listing codes for an unknown bundle', async () => {
    const empty = await ok(`/v1/edgar/companies/${NO_STATEMENTS}/metric-bundles/core_balance_sheet/time-series`);
    assert.equal(empty.total, 0);
    const message = await refused(`/v1/edgar/companies/${APPLE}/metric-bundles/everything/time-series`, 404, 'NOT_FOUND');
    assert.ok(message.includes('cash_flow_quality'), message);
    await refused(`/v1/edgar/companies/${APPLE}/metric-bundles/core_balance_sheet/time-series?fiscal_year_from=2024&fiscal_year_to=2020`, 400, 'VALIDATION_ERROR');
  });
});

describe('GET /v1/views/metrics/{bundle_code}', () => {
  it('serves a view with canonical metrics read and derived ones computed from the same versions', async () => {
    const body = await ok(`/v1/views/metrics/core_fundamentals?ciks=${APPLE}&from_date=2023-09-30&to_date=2023-09-30`);
    const d = body.data;
    assert.equal(d.view, 'core_fundamentals');
    assert.equal(d.points.length, 1);
    const p = d.points[0];
    assert.deepEqual(Object.keys(p.metrics), d.metrics, 'every view metric is listed');
    assert.equal(p.metrics.REVENUE, '383285000000.000000');
    assert.equal(p.metrics.GROSS_MARGIN, ratio('169148', '383285'));
    assert.equal(p.metrics.FREE_CASH_FLOW, '99584000000.000000');
    const empty = await ok(`/v1/views/metrics/core_fundamentals?ciks=${NO_STATEMENTS}`);
    assert.deepEqual(empty.data.points, []);
  });

  it('refuses an unknown view with 404 listing the codes, and a request without ciks', async () => {
    const message = await refused(`/v1/views/metrics/everything?ciks=${APPLE}`, 404, 'NOT_FOUND');
    assert.ok(message.includes('core_fundamentals'), message);
    await refused('/v1/views/metrics/core_fundamentals', 400, 'VALIDATION_ERROR');
  });
});
