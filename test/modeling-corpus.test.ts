import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { startJobWorker, type JobWorker } from '../jobs/runner.ts';
import { canonicalMetric } from '../domain/catalog/index.ts';
import { GROWTH_NAMES } from '../domain/modeling/growth.ts';
import { VALUATION_INPUT_NAMES } from '../domain/modeling/multi-year.ts';
import { RATIO_NAMES } from '../domain/modeling/ratios.ts';
import { TTM_NAMES } from '../domain/modeling/ttm.ts';
import { UNAVAILABLE_REASONS } from '../domain/modeling/types.ts';
import { get, post } from './helpers/http.ts';
import { allRows, buildSnapshot, filedAsOf, filedKey, snapshotBody, type Filed } from './helpers/modeling.ts';
import { emptyMeasure, measureCompany } from './helpers/split-basis-measures.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { stockSplitsOfCompanies } from '../db/stock-splits.ts';

const APPLE = '0000320193';
const MICROSOFT = '0000789019';
const NVIDIA = '0001045810';
const AS_OF = '2026-11-01';
const ROUTES = { ratios: RATIO_NAMES as readonly string[], growth: GROWTH_NAMES, ttm: TTM_NAMES, 'multi-year': VALUATION_INPUT_NAMES };

let svc: TestService;
let worker: JobWorker;
let universe: string[];
let filed: Map<string, Filed>;
const ids = new Map<string, string>();
/** route -> cik -> rows of the universe snapshot at AS_OF */
const rows: Record<string, Map<string, any[]>> = {};

const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const ratio = (a: string, b: string) => new D(a).dividedBy(b).toFixed(12);
const growth = (cur: string, prior: string) => new D(cur).minus(prior).dividedBy(new D(prior).abs()).toFixed(12);
const days = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000) + 1;

describe('modeling snapshots on the real corpus', () => {
  before(async () => {
    svc = await startTestService({ jobsWorker: false, exportSchedule: false });
    worker = await startJobWorker({
      databaseUrl: svc.running.database.url, sql: svc.sql, bulkStore: svc.running.services.bulkStore, bulkDir: svc.running.services.config.bulkDir,
      concurrency: 2, buildStaleSeconds: 30, exportSchedule: false, now: () => new Date(), log: () => {},
    });
    universe = (await svc.sql<{ cik: string }[]>`SELECT DISTINCT cik FROM statement_versions ORDER BY cik`).map((r) => r.cik);
    for (const r of await svc.sql<{ cik: string; company_id: string }[]>`SELECT cik, company_id FROM companies`) ids.set(r.cik, r.company_id);
    const { reply } = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: universe, as_of_date: AS_OF });
    assert.equal(reply.status, 200, reply.text);
    filed = await filedAsOf(svc.sql, AS_OF);
    for (const route of Object.keys(ROUTES)) {
      rows[route] = new Map();
      for (const cik of universe) rows[route]!.set(cik, await allRows(svc.baseUrl, svc.keys.growth, ids.get(cik)!, route, AS_OF));
    }
  });
  after(async () => {
    await worker?.stop();
    await svc?.close();
  });

  it('builds one snapshot over every company of the mirror (at most 50) with rows for each', () => {
    assert.ok(universe.length >= 20 && universe.length <= 50, `universe of ${universe.length}`);
    for (const cik of universe) assert.ok(rows.ratios!.get(cik)!.length > 0, `${cik} has ratio rows`);
  });

  it('lists every metric of each route on every row exactly once, in metrics or in unavailable_metrics with one of the nine reasons', () => {
    for (const [route, names] of Object.entries(ROUTES)) {
      for (const list of rows[route]!.values()) {
        for (const row of list) {
          const values = route === 'multi-year' ? Object.keys(row.valuation_inputs).filter((m) => row.valuation_inputs[m] !== null) : Object.keys(row.metrics);
          const missing = row.unavailable_metrics.map((u: any) => u.metric);
          assert.deepEqual([...values, ...missing].sort(), [...names].sort(), `${route} ${row.cik} ${row.fiscal_year} ${row.fiscal_period}`);
          for (const u of row.unavailable_metrics) {
            assert.ok((UNAVAILABLE_REASONS as readonly string[]).includes(u.reason));
            if (u.reason === 'MISSING_INPUT') assert.ok(u.missing_inputs.length > 0, 'MISSING_INPUT names its inputs');
          }
        }
      }
    }
  });

  it('ratios of every company equal the catalog formulas computed here from the filings\' own figures (averaged equity, period-end balances)', () => {
    const checked = new Map<string, number>();
    for (const [cik, list] of rows.ratios!) {
      for (const row of list) {
        const own = filed.get(filedKey(cik, row.statement_type, row.fiscal_year, row.fiscal_period))!;
        assert.equal(own.version_sequence, row.version_sequence, 'the latest version knowable at as_of');
        const is = filed.get(filedKey(cik, 'INCOME_STATEMENT', row.fiscal_year, row.fiscal_period))?.values ?? {};
        const bs = filed.get(filedKey(cik, 'BALANCE_SHEET', row.fiscal_year, row.fiscal_period))?.values ?? {};
        const expect: Record<string, string> = {};
        if (row.statement_type === 'INCOME_STATEMENT') {
          if (is.GROSS_PROFIT && is.REVENUE && !new D(is.REVENUE).isZero()) expect.GROSS_MARGIN = ratio(is.GROSS_PROFIT, is.REVENUE);
          if (is.NET_INCOME && is.REVENUE && !new D(is.REVENUE).isZero()) expect.NET_MARGIN = ratio(is.NET_INCOME, is.REVENUE);
          if (row.fiscal_period === 'FY' && is.NET_INCOME && bs.STOCKHOLDERS_EQUITY) {
            const prior = filed.get(filedKey(cik, 'BALANCE_SHEET', row.fiscal_year - 1, 'FY'));
            const gap = prior && row.period_start ? days(prior.period_end, row.period_start) : 99;
            const open = prior && gap >= 1 && gap <= 15 ? prior.values.STOCKHOLDERS_EQUITY : undefined;
            const equity = open ? new D(bs.STOCKHOLDERS_EQUITY).plus(open).dividedBy(2) : new D(bs.STOCKHOLDERS_EQUITY);
            if (!equity.isZero()) expect.ROE = new D(is.NET_INCOME).dividedBy(equity).toFixed(12);
          }
        } else if (bs.TOTAL_CURRENT_ASSETS && bs.TOTAL_CURRENT_LIABILITIES && !new D(bs.TOTAL_CURRENT_LIABILITIES).isZero()) {
          expect.CURRENT_RATIO = ratio(bs.TOTAL_CURRENT_ASSETS, bs.TOTAL_CURRENT_LIABILITIES);
        }
        for (const [m, v] of Object.entries(expect)) {
          assert.equal(row.metrics[m], v, `${m} of ${cik} ${row.statement_type} ${row.fiscal_year} ${row.fiscal_period}`);
          assert.match(v, /^-?\d+\.\d{12}$/, 'twelve fraction digits');
          checked.set(cik, (checked.get(cik) ?? 0) + 1);
        }
      }
    }
    assert.ok((checked.get(APPLE) ?? 0) > 20 && (checked.get(MICROSOFT) ?? 0) > 20, `Apple ${checked.get(APPLE)}, Microsoft ${checked.get(MICROSOFT)} values checked`);
    assert.ok(checked.size >= universe.length - 3, `${checked.size} companies checked`);
  });

  it('growth of every company equals (current - prior) / |prior| computed here from the filings\' own figures; QoQ is not applicable to years', () => {
    const checked = new Map<string, number>();
    for (const [cik, list] of rows.growth!) {
      for (const row of list.filter((r) => r.statement_type === 'INCOME_STATEMENT')) {
        const cur = filed.get(filedKey(cik, 'INCOME_STATEMENT', row.fiscal_year, row.fiscal_period))!;
        const yearAgo = filed.get(filedKey(cik, 'INCOME_STATEMENT', row.fiscal_year - 1, row.fiscal_period));
        const comparable = yearAgo && cur.period_start && yearAgo.period_start && Math.abs(days(cur.period_start, cur.period_end) - days(yearAgo.period_start, yearAgo.period_end)) <= 10;
        for (const [metric, line] of [['REVENUE_GROWTH_YOY', 'REVENUE'], ['NET_INCOME_GROWTH_YOY', 'NET_INCOME']] as const) {
          if (!yearAgo) {
            assert.ok(row.unavailable_metrics.some((u: any) => u.metric === metric && u.reason === 'NO_COMPARABLE_PERIOD'), `${metric} of the first ${row.fiscal_period}`);
            continue;
          }
          const a = cur.values[line];
          const b = yearAgo.values[line];
          if (!comparable || !a || !b || new D(b).isZero()) continue;
          assert.equal(row.metrics[metric], growth(a, b), `${metric} of ${cik} ${row.fiscal_year} ${row.fiscal_period}`);
          checked.set(cik, (checked.get(cik) ?? 0) + 1);
        }
        if (row.fiscal_period === 'FY') {
          assert.ok(row.unavailable_metrics.some((u: any) => u.metric === 'REVENUE_GROWTH_QOQ' && u.reason === 'NOT_APPLICABLE_TO_PERIOD'));
          assert.equal(row.cagr_years, 3);
        }
      }
    }
    assert.ok((checked.get(APPLE) ?? 0) > 20 && (checked.get(MICROSOFT) ?? 0) > 20, `Apple ${checked.get(APPLE)}, Microsoft ${checked.get(MICROSOFT)} values checked`);
  });

  it('a TTM whose window holds a derived Q4 sums the four quarters (the Q4 being the year minus three quarters); EPS is net income over mean shares, never a sum', () => {
    let seen = 0;
    for (const cik of [APPLE, MICROSOFT]) {
      for (const row of rows.ttm!.get(cik)!) {
        const q4 = row.window_quarters.find((q: any) => q.fiscal_period === 'Q4');
        if (!q4 || !q4.derived_figures.includes('REVENUE') || row.metrics.REVENUE === undefined) continue;
        const quarters = row.window_quarters.map((q: any) => filed.get(filedKey(cik, 'INCOME_STATEMENT', q.fiscal_year, q.fiscal_period))!);
        assert.equal(row.metrics.REVENUE, new D(quarters.reduce((s: Decimal, q: Filed) => s.plus(q.values.REVENUE!), new D(0))).toFixed(6));
        const fy = filed.get(filedKey(cik, 'INCOME_STATEMENT', q4.fiscal_year, 'FY'))!;
        const q = (p: string) => filed.get(filedKey(cik, 'INCOME_STATEMENT', q4.fiscal_year, p))?.values.REVENUE;
        const q4Filed = filed.get(filedKey(cik, 'INCOME_STATEMENT', q4.fiscal_year, 'Q4'))!;
        assert.ok(q4Filed.derived.has('REVENUE'));
        if (q('Q1') && q('Q2') && q('Q3')) assert.equal(new D(q4Filed.values.REVENUE!).toFixed(0), new D(fy.values.REVENUE!).minus(q('Q1')!).minus(q('Q2')!).minus(q('Q3')!).toFixed(0));
        assert.equal(row.ttm_window_end, row.statement_date);
        assert.equal(row.ttm_window_start, row.window_quarters[0].period_start);
        if (row.metrics.EPS_DILUTED) {
          const ni = quarters.reduce((s: Decimal, x: Filed) => s.plus(x.values.NET_INCOME!), new D(0));
          // each count on the row's split basis: as filed, or as the row says it restated it
          const count = (x: Filed, i: number) => {
            const a = row.split_adjustments?.EPS_DILUTED?.find((r: any) => r.fiscal_year === row.window_quarters[i].fiscal_year && r.fiscal_period === row.window_quarters[i].fiscal_period);
            if (a) assert.equal(new D(a.as_filed_value).toFixed(6), new D(x.values.WEIGHTED_AVERAGE_SHARES_DILUTED!).toFixed(6));
            return a ? a.value : x.values.WEIGHTED_AVERAGE_SHARES_DILUTED!;
          };
          const shares = quarters.reduce((s: Decimal, x: Filed, i: number) => s.plus(count(x, i)), new D(0)).dividedBy(4);
          assert.equal(row.metrics.EPS_DILUTED, ni.dividedBy(shares).toFixed(12));
        }
        seen++;
      }
    }
    assert.ok(seen >= 4, `${seen} TTM rows with a derived Q4 checked`);
    const incomplete = [...rows.ttm!.values()].flat().filter((r) => r.unavailable_metrics.some((u: any) => u.reason === 'INCOMPLETE_TRAILING_YEAR'));
    assert.ok(incomplete.length > 0, 'a window with a quarter lacking a line is INCOMPLETE_TRAILING_YEAR, not a partial sum');
  });

  it("NVIDIA's fiscal 2023 diluted EPS growth compares 0.17 with fiscal 2022's 3.85 restated for the 10-for-1 split of 2024 (0.385): -55.8%, not -96%", () => {
    const row = rows.growth!.get(NVIDIA)!.find((r) => r.statement_type === 'INCOME_STATEMENT' && r.fiscal_year === 2023 && r.fiscal_period === 'FY')!;
    assert.equal(filed.get(filedKey(NVIDIA, 'INCOME_STATEMENT', 2023, 'FY'))!.values.EPS_DILUTED, '0.17');
    assert.equal(filed.get(filedKey(NVIDIA, 'INCOME_STATEMENT', 2022, 'FY'))!.values.EPS_DILUTED, '3.85');
    assert.equal(row.metrics.EPS_DILUTED_GROWTH_YOY, growth('0.17', '0.385'));
    assert.equal(row.metrics.EPS_DILUTED_GROWTH_YOY, '-0.558441558442');
    const [a, ...more] = row.split_adjustments.EPS_DILUTED_GROWTH_YOY;
    assert.equal(more.length, 0);
    assert.deepEqual(
      { input: a.input, fiscal_year: a.fiscal_year, fiscal_period: a.fiscal_period, value: a.value, as_filed_value: a.as_filed_value, factor: a.factor, operation: a.operation, splits: a.splits.map((s: any) => [s.numerator, s.denominator]) },
      { input: 'EPS_DILUTED', fiscal_year: 2022, fiscal_period: 'FY', value: '0.385000', as_filed_value: '3.850000', factor: '10/1', operation: 'DIVIDED', splits: [[10, 1]] },
    );
    // money lines of the same row are compared as filed
    assert.equal(row.split_adjustments.NET_INCOME_GROWTH_YOY, undefined);
  });

  it("a snapshot before NVIDIA told its 2024 split compares fiscal 2023's 1.74 with fiscal 2022's 3.85 as filed (one basis then), and restates fiscal 2019's 6.63 for the 4-for-1 split of 2021 against fiscal 2020's 1.13 (re-told after it)", async () => {
    const asOf = '2024-03-01';
    const { reply } = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: [NVIDIA], as_of_date: asOf, statement_types: ['INCOME_STATEMENT'] });
    assert.equal(reply.status, 200, reply.text);
    const growthRows = await allRows(svc.baseUrl, svc.keys.growth, ids.get(NVIDIA)!, 'growth', asOf);
    const fy = (year: number) => growthRows.find((r) => r.fiscal_year === year && r.fiscal_period === 'FY')!;
    assert.equal(fy(2023).metrics.EPS_DILUTED_GROWTH_YOY, growth('1.74', '3.85'));
    assert.equal(fy(2023).split_adjustments, undefined);
    assert.equal(fy(2020).metrics.EPS_DILUTED_GROWTH_YOY, growth('1.13', '1.6575'));
    assert.deepEqual(fy(2020).split_adjustments.EPS_DILUTED_GROWTH_YOY.map((a: any) => [a.fiscal_year, a.as_filed_value, a.factor]), [[2019, '6.630000', '4/1']]);
  });

  it('no growth or TTM value of the whole corpus compares or combines per-share figures or share counts of two split bases', async () => {
    const splits = await stockSplitsOfCompanies(svc.sql, universe);
    const statements = [...filed.values()].map((f) => ({ ...f, share_bases: f.bases }));
    const m = emptyMeasure();
    for (const cik of universe) {
      measureCompany(m, { growth: rows.growth!.get(cik)!, ttm: rows.ttm!.get(cik)!, ratios: rows.ratios!.get(cik)! }, statements.filter((s) => s.cik === cik), splits.get(cik) ?? [], AS_OF);
    }
    assert.deepEqual(m.cases, []);
    assert.equal(m.growth_mixed + m.ttm_mixed + m.ratio_mixed + m.unknown_basis, 0);
    // the corpus has such comparisons to make (NVIDIA, Apple, Alphabet, Walmart, SunAtion...): each restated
    assert.ok(m.growth_across_splits >= 50 && m.ttm_across_splits >= 1, JSON.stringify(m));
  });

  it('multi-year rows carry valuation inputs with every null explained and market inputs never persisted', () => {
    for (const row of rows['multi-year']!.get(APPLE)!) {
      assert.equal(row.fiscal_period, 'FY');
      assert.equal(row.market_data.persisted, false);
      for (const m of ['PRICE', 'MARKET_CAPITALIZATION', 'ENTERPRISE_VALUE']) assert.equal(row.valuation_inputs[m], null);
      for (const [m, v] of Object.entries(row.valuation_inputs)) if (v === null) assert.ok(row.unavailable_metrics.some((u: any) => u.metric === m), `${m} explained`);
      const is = filed.get(filedKey(APPLE, 'INCOME_STATEMENT', row.fiscal_year, 'FY'))?.values ?? {};
      if (is.REVENUE) assert.equal(row.valuation_inputs.REVENUE, new D(is.REVENUE).toFixed(6));
    }
  });

  it('a snapshot before the 10-K/A of 2010-01-25 shows Apple FY2008 net income as first filed (4,834M), one on that date the restated 6,119M', async () => {
    const id = ids.get(APPLE)!;
    const seen: Record<string, { ni: string; seq: number; margin: string }> = {};
    for (const asOf of ['2010-01-22', '2010-01-25']) {
      await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: [APPLE], as_of_date: asOf });
      const period = (await allRows(svc.baseUrl, svc.keys.growth, id, 'periods', asOf)).find((r) => r.statement_type === 'INCOME_STATEMENT' && r.fiscal_year === 2008 && r.fiscal_period === 'FY');
      const ratios = (await allRows(svc.baseUrl, svc.keys.growth, id, 'ratios', asOf)).find((r) => r.statement_type === 'INCOME_STATEMENT' && r.fiscal_year === 2008 && r.fiscal_period === 'FY');
      assert.equal(ratios.metrics.NET_MARGIN, ratio(period.statement.NET_INCOME, period.statement.REVENUE));
      seen[asOf] = { ni: period.statement.NET_INCOME, seq: period.version_sequence, margin: ratios.metrics.NET_MARGIN };
    }
    assert.equal(seen['2010-01-22']!.ni, '4834000000.000000');
    assert.equal(seen['2010-01-22']!.seq, 1);
    assert.equal(seen['2010-01-25']!.ni, '6119000000.000000');
    assert.equal(seen['2010-01-25']!.seq, 2);
    assert.notEqual(seen['2010-01-22']!.margin, seen['2010-01-25']!.margin);
  });

  it('statement_types narrow the served rows; a tier1 snapshot reads only figures exactly as tagged, so a derived Q4 leaves its TTM incomplete', async () => {
    const asOf = '2025-06-30';
    const { reply } = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: [APPLE], as_of_date: asOf, statement_types: ['BALANCE_SHEET'], metrics_bundle: 'tier1' });
    assert.equal(reply.status, 200);
    assert.ok(reply.body.items.every((r: any) => r.statement_type === 'BALANCE_SHEET' && r._meta.strategy_id.endsWith('tier1')));
    const periods = await allRows(svc.baseUrl, svc.keys.growth, ids.get(APPLE)!, 'periods', asOf);
    assert.ok(periods.length > 0 && periods.every((r) => r.statement_type === 'BALANCE_SHEET' && r.derived_figures.length === 0));
    const ttm = await allRows(svc.baseUrl, svc.keys.growth, ids.get(APPLE)!, 'ttm', asOf);
    // Apple's 10-Ks told its fourth quarters (selected quarterly data) through fiscal 2020, served as
    // SOURCE; from fiscal 2021 on the Q4 is derived, so a window over it lacks revenue
    const overQ4 = ttm.filter((r) => r.window_quarters.some((q: any) => q.fiscal_period === 'Q4' && q.fiscal_year >= 2021));
    assert.ok(overQ4.length > 0);
    for (const r of overQ4) assert.ok(r.unavailable_metrics.some((u: any) => u.metric === 'REVENUE' && u.reason === 'INCOMPLETE_TRAILING_YEAR'), `${r.fiscal_year} ${r.fiscal_period}`);
    const overReportedQ4 = ttm.filter((r) => r.window_quarters.some((q: any) => q.fiscal_period === 'Q4' && q.fiscal_year === 2015) && r.window_quarters.every((q: any) => q.fiscal_year >= 2015 && q.fiscal_year <= 2016));
    assert.ok(overReportedQ4.some((r) => !r.unavailable_metrics.some((u: any) => u.metric === 'REVENUE')), 'a window over a reported Q4 has its revenue');
  });

  it('company reads: a CIK is refused naming the identity route, an as_of without a built snapshot is 404, a snapshot without the company is an empty page', async () => {
    const cik = await get(`${svc.baseUrl}/v1/modeling/companies/320193/ratios?as_of=${AS_OF}`, svc.keys.growth);
    assert.equal(cik.status, 400);
    assert.equal(cik.body.error.code, 'VALIDATION_ERROR');
    assert.match(cik.body.error.message, /\/v1\/identity\/companies\/\{cik\}/);
    const none = await get(`${svc.baseUrl}/v1/modeling/companies/${ids.get(APPLE)}/ratios?as_of=2001-01-01`, svc.keys.growth);
    assert.equal(none.status, 404);
    assert.equal(none.body.error.code, 'NOT_FOUND');
    const missingAsOf = await get(`${svc.baseUrl}/v1/modeling/companies/${ids.get(APPLE)}/ratios`, svc.keys.growth);
    assert.equal(missingAsOf.status, 400);
    // 2010-01-25 was built for Apple alone: Microsoft reads an empty page there
    const empty = await get(`${svc.baseUrl}/v1/modeling/companies/${ids.get(MICROSOFT)}/growth?as_of=2010-01-25`, svc.keys.growth);
    assert.equal(empty.status, 200);
    assert.deepEqual([empty.body.items, empty.body.total], [[], 0]);
  });

  it('the build refuses a body without all four fields or with more than 50 CIKs', async () => {
    const url = `${svc.baseUrl}/v1/modeling/universe/pit-snapshot`;
    const noBundle = await post(url, JSON.stringify({ ciks: [APPLE], as_of_date: AS_OF, statement_types: ['BALANCE_SHEET'] }), svc.keys.growth);
    assert.equal(noBundle.status, 400);
    const tooMany = await post(url, snapshotBody({ ciks: Array.from({ length: 51 }, (_, i) => String(i + 1)), as_of_date: AS_OF }), svc.keys.growth);
    assert.equal(tooMany.status, 400);
  });

  it('the build refuses an as_of_date after today, which filings still to come would contradict, and builds nothing for it', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const date of [tomorrow, '9999-12-31']) {
      const r = await post(`${svc.baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody({ ciks: [APPLE], as_of_date: date }), svc.keys.growth);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.match(r.body.error.message, /in the future/);
      const [kept] = await svc.sql`SELECT count(*)::int AS n FROM modeling_snapshots WHERE as_of_date = ${date}`;
      assert.equal(kept!.n, 0, `no snapshot requested for ${date}`);
    }
  });

  it('a Free key gets 403 FEATURE_NOT_AVAILABLE on the build, the company routes and the tools', async () => {
    const build = await post(`${svc.baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody({ ciks: [APPLE], as_of_date: AS_OF }), svc.keys.free);
    assert.equal(build.status, 403);
    assert.equal(build.body.error.code, 'FEATURE_NOT_AVAILABLE');
    const read = await get(`${svc.baseUrl}/v1/modeling/companies/${ids.get(APPLE)}/periods?as_of=${AS_OF}`, svc.keys.free);
    assert.equal(read.body.error.code, 'FEATURE_NOT_AVAILABLE');
    const rpc = await post(`${svc.baseUrl}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'modeling_ratios', arguments: { company_id: ids.get(APPLE), as_of: AS_OF } } }), svc.keys.free);
    assert.equal(rpc.body.result.isError, true);
    assert.equal(JSON.parse(rpc.body.result.content[0].text).http_code, 'FEATURE_NOT_AVAILABLE');
  });

  it('the five modeling tools answer over the tool server with the rows the routes serve', async () => {
    const routeOf: Record<string, string> = { modeling_periods: 'periods', modeling_ttm: 'ttm', modeling_growth: 'growth', modeling_ratios: 'ratios', modeling_valuation_inputs: 'multi-year' };
    for (const [tool, route] of Object.entries(routeOf)) {
      const args = { company_id: ids.get(MICROSOFT), as_of: AS_OF, page_size: 5 };
      const rpc = await post(`${svc.baseUrl}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }), svc.keys.growth);
      assert.equal(rpc.body.result.isError, false, rpc.text.slice(0, 300));
      const http = await get(`${svc.baseUrl}/v1/modeling/companies/${ids.get(MICROSOFT)}/${route}?as_of=${AS_OF}&page_size=5`, svc.keys.growth);
      assert.deepEqual(rpc.body.result.structuredContent, http.body, tool);
    }
  });

  it('every reason code is reached; a version knowable at the date that arrived after the build turns MISSING_INPUT into PENDING_REBUILD until the next request builds the next generation', async () => {
    const target = [...rows.ratios!.values()].flat().find((r) => r.statement_type === 'INCOME_STATEMENT' && r.unavailable_metrics.some((u: any) => u.reason === 'MISSING_INPUT' && u.missing_inputs.every((m: string) => canonicalMetric(m)?.statement_type === 'BALANCE_SHEET')));
    assert.ok(target, 'an income-statement ratio lacking a balance-sheet input');
    const entry = target.unavailable_metrics.find((u: any) => u.reason === 'MISSING_INPUT' && u.missing_inputs.every((m: string) => canonicalMetric(m)?.statement_type === 'BALANCE_SHEET'));
    const supplied = Object.fromEntries(entry.missing_inputs.map((m: string) => [m, { value: '1000000' }]));
    // a balance sheet of that period filed by the as-of date, ingested only now (after the build)
    await svc.sql`
      INSERT INTO statement_versions (cik, statement_type, fiscal_year, fiscal_period, version_sequence, period_start, period_end, accession, form, filing_date, currency, accounting_standard, figures, content_hash)
      SELECT i.cik, 'BALANCE_SHEET', i.fiscal_year, i.fiscal_period,
        coalesce((SELECT max(b.version_sequence) FROM statement_versions b WHERE b.cik = i.cik AND b.statement_type = 'BALANCE_SHEET' AND b.fiscal_year = i.fiscal_year AND b.fiscal_period = i.fiscal_period), 0) + 1,
        NULL, i.period_end, i.accession, i.form, i.filing_date, i.currency, i.accounting_standard, ${svc.sql.json(supplied)}, 'arrived-after-build'
      FROM statement_versions i WHERE i.statement_version_id = ${target.statement_version_id}`;
    const after = await allRows(svc.baseUrl, svc.keys.growth, ids.get(target.cik)!, 'ratios', AS_OF);
    const row = after.find((r) => r.model_ratio_id === target.model_ratio_id);
    const now = row.unavailable_metrics.find((u: any) => u.metric === entry.metric);
    assert.deepEqual(now, { ...entry, reason: 'PENDING_REBUILD' });
    assert.deepEqual(row.metrics, target.metrics, 'the stored values are untouched: reads never compute');
    // the next request of the same snapshot builds its next generation, which fills the value
    const first = await post(`${svc.baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody({ ciks: universe, as_of_date: AS_OF, page_size: 1 }), svc.keys.growth);
    assert.equal(first.status, 202, 'a rebuild is computing');
    const { reply } = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: universe, as_of_date: AS_OF, page_size: 1 });
    assert.equal(reply.body.snapshot_id, first.body.snapshot_id);
    assert.notEqual(reply.body.as_of_snapshot_id, target.as_of_snapshot_id);
    assert.notEqual(reply.body.snapshot_hash, target.snapshot_hash);
    const rebuilt = (await allRows(svc.baseUrl, svc.keys.growth, ids.get(target.cik)!, 'ratios', AS_OF)).find((r) => r.model_ratio_id === target.model_ratio_id);
    assert.equal(rebuilt.as_of_snapshot_id, reply.body.as_of_snapshot_id);
    assert.ok(!rebuilt.unavailable_metrics.some((u: any) => u.metric === entry.metric && ['MISSING_INPUT', 'PENDING_REBUILD'].includes(u.reason)), 'the rebuilt row has the input');
    const again = await post(`${svc.baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody({ ciks: universe, as_of_date: AS_OF, page_size: 1 }), svc.keys.growth);
    assert.equal(again.status, 200, 'nothing arrived since: no further build');
    const reasons = new Set<string>(['PENDING_REBUILD']);
    for (const route of Object.keys(ROUTES)) for (const list of rows[route]!.values()) for (const r of list) for (const u of r.unavailable_metrics) reasons.add(u.reason);
    assert.deepEqual([...reasons].sort(), [...UNAVAILABLE_REASONS].sort());
  });
});
