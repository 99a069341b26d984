import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startJobWorker, type JobWorker } from '../jobs/runner.ts';
import { dec } from '../domain/decimal.ts';
import { get, post, type Reply } from './helpers/http.ts';
import { allRows, buildSnapshot } from './helpers/modeling.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const APPLE = '0000320193';
const MICROSOFT = '0000789019';
const AS_OF = '2020-06-30';

let svc: TestService;
let worker: JobWorker;
let universe: string[];
const ids = new Map<string, string>();

const same = (a: string | null | undefined, b: string | null | undefined) => (a == null || b == null ? a == b : dec(a).equals(dec(b)));

function screen(body: object, key = svc.keys.growth): Promise<Reply> {
  return post(`${svc.baseUrl}/v1/fundamentals/screen`, JSON.stringify(body), key);
}

/** Every company of a screen with one condition everything meets (all pages). */
async function everyRow(body: Record<string, unknown>): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await screen({ ...body, page, page_size: 200 });
    assert.equal(r.status, 200, r.text);
    out.push(...r.body.items);
    if (out.length >= r.body.total) return out;
  }
}

function mcpCall(name: string, args: object, key: string): Promise<Reply> {
  return post(`${svc.baseUrl}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }), key);
}

describe('point-in-time screens and comparisons on the real corpus', () => {
  before(async () => {
    svc = await startTestService({ jobsWorker: false, exportSchedule: false });
    worker = await startJobWorker({
      databaseUrl: svc.running.database.url, sql: svc.sql, bulkStore: svc.running.services.bulkStore, bulkDir: svc.running.services.config.bulkDir,
      concurrency: 2, buildStaleSeconds: 30, exportSchedule: false, now: () => new Date(), log: () => {},
    });
    universe = (await svc.sql<{ cik: string }[]>`SELECT DISTINCT cik FROM statement_versions ORDER BY cik`).map((r) => r.cik);
    for (const r of await svc.sql<{ cik: string; company_id: string }[]>`SELECT cik, company_id FROM companies`) ids.set(r.cik, r.company_id);
  });
  after(async () => {
    await worker?.stop();
    await svc?.close();
  });

  it('answers each company\'s latest fiscal year as known on the date with the ratios, growth and figures the modeling routes serve for the same versions', async () => {
    const { reply } = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: universe, as_of_date: AS_OF });
    assert.equal(reply.status, 200, reply.text);
    const metrics = ['GROSS_MARGIN', 'ROE', 'DEBT_TO_EQUITY', 'REVENUE_GROWTH_YOY', 'NET_INCOME_GROWTH_YOY', 'REVENUE'];
    const rows = await everyRow({ conditions: [{ metric: 'NET_INCOME', op: 'gte', value: '-1000000000000000' }], as_of_date: AS_OF, metrics, currency: 'USD' });
    const byCik = new Map(rows.map((r) => [r.cik, r]));
    let compared = 0;
    for (const cik of universe) {
      const periods = (await allRows(svc.baseUrl, svc.keys.growth, ids.get(cik)!, 'periods', AS_OF)).filter((p) => p.fiscal_period === 'FY' && p.statement_type === 'INCOME_STATEMENT');
      const latest = periods.sort((a, b) => a.statement_date.localeCompare(b.statement_date)).at(-1);
      const row = byCik.get(cik);
      if (!latest || latest.statement.NET_INCOME === undefined || latest.currency !== 'USD') continue;
      assert.ok(row, `${cik} is in the screen`);
      assert.equal(row.fiscal_year, latest.fiscal_year, cik);
      assert.ok(row.statement_version_ids.includes(latest.statement_version_id), `${cik} reads the snapshot's income statement`);
      const ratios = (await allRows(svc.baseUrl, svc.keys.growth, ids.get(cik)!, 'ratios', AS_OF)).filter((r) => r.statement_version_id === latest.statement_version_id);
      const growth = (await allRows(svc.baseUrl, svc.keys.growth, ids.get(cik)!, 'growth', AS_OF)).filter((r) => r.statement_version_id === latest.statement_version_id);
      assert.ok(same(row.metrics.GROSS_MARGIN, ratios[0]?.metrics.GROSS_MARGIN ?? null), `${cik} GROSS_MARGIN`);
      assert.ok(same(row.metrics.ROE, ratios[0]?.metrics.ROE ?? null), `${cik} ROE`);
      assert.ok(same(row.metrics.REVENUE_GROWTH_YOY, growth[0]?.metrics.REVENUE_GROWTH_YOY ?? null), `${cik} REVENUE_GROWTH_YOY`);
      assert.ok(same(row.metrics.NET_INCOME_GROWTH_YOY, growth[0]?.metrics.NET_INCOME_GROWTH_YOY ?? null), `${cik} NET_INCOME_GROWTH_YOY`);
      assert.ok(same(row.metrics.REVENUE, latest.statement.REVENUE ?? null), `${cik} REVENUE`);
      compared++;
    }
    assert.ok(compared >= 10, `compared ${compared} companies`);
  });

  it('serves the catalog derived metrics exactly as the derived time series computes them for the latest fiscal year', async () => {
    const rows = await everyRow({ conditions: [{ metric: 'REVENUE', op: 'gt', value: '0' }], metrics: ['EBITDA', 'FREE_CASH_FLOW', 'NET_MARGIN'] });
    assert.ok(rows.length >= 10);
    let checked = 0;
    for (const row of rows.slice(0, 8)) {
      const r = await get(`${svc.baseUrl}/v1/fundamentals/derived/time-series?ciks=${row.cik}&statement_type=INCOME_STATEMENT&metrics=EBITDA&metrics=NET_MARGIN&metrics=FREE_CASH_FLOW&page_size=200`, svc.keys.growth);
      assert.equal(r.status, 200, r.text);
      const point = r.body.items.find((p: any) => p.fiscal_year === row.fiscal_year && p.fiscal_period === 'FY');
      assert.ok(point, `${row.cik} ${row.fiscal_year}`);
      for (const m of ['EBITDA', 'FREE_CASH_FLOW', 'NET_MARGIN']) {
        assert.ok(same(row.metrics[m], point.metrics[m] ?? null), `${row.cik} ${m}: ${row.metrics[m]} vs ${point.metrics[m]}`);
        checked++;
      }
    }
    assert.ok(checked > 0);
  });

  it('keeps only companies meeting every condition, counts the others by reason, and orders by the sort metric then CIK', async () => {
    const body = {
      conditions: [{ metric: 'GROSS_MARGIN', op: 'gt', value: '0.3' }, { metric: 'REVENUE', op: 'between', value: ['1000000000', '100000000000000'] }],
      sort: { metric: 'GROSS_MARGIN', direction: 'desc' },
    };
    const rows = await everyRow(body);
    const first = await screen(body);
    for (const r of rows) {
      assert.ok(dec(r.metrics.GROSS_MARGIN).gt('0.3'));
      assert.ok(dec(r.metrics.REVENUE).gte('1000000000'));
      assert.equal(r.currency, 'USD');
      assert.ok(r.statement_version_ids.length > 0 && r.sources.every((s: any) => r.statement_version_ids.includes(s.statement_version_id)));
    }
    for (let i = 1; i < rows.length; i++) {
      const a = dec(rows[i - 1].metrics.GROSS_MARGIN);
      const b = dec(rows[i].metrics.GROSS_MARGIN);
      assert.ok(a.gt(b) || (a.equals(b) && rows[i - 1].cik < rows[i].cik), 'sorted by the metric, then CIK');
    }
    const all = await everyRow({ conditions: [{ metric: 'GROSS_MARGIN', op: 'gte', value: '-1000000' }] });
    const ex = first.body.excluded;
    assert.ok(ex.METRIC_NOT_REPORTED + ex.INPUT_MISSING > 0, 'some companies present no gross profit');
    assert.ok(rows.length < all.length + ex.METRIC_NOT_REPORTED + ex.INPUT_MISSING + ex.NOT_COMPUTABLE + ex.OTHER_CURRENCY);
    const noPeriod = await screen({ conditions: [{ metric: 'REVENUE', op: 'gt', value: '0' }], as_of_date: '1995-01-01' });
    assert.equal(noPeriod.status, 200, noPeriod.text);
    assert.equal(noPeriod.body.total, 0);
    assert.equal(noPeriod.body.excluded.NO_PERIOD_AT_DATE, universe.length);
  });

  it('sees no restatement before its filing date: as of the day before, a restated figure is the original value; as of the filing date, the restated one', async () => {
    const events = await svc.sql<{ cik: string; fiscal_year: number; metric: string; old_value: string; new_value: string; filing_date: string; day_before: string }[]>`
      SELECT v.cik, v.fiscal_year, r.metric, r.old_value, r.new_value, v.filing_date::text AS filing_date, (v.filing_date - 1)::text AS day_before
      FROM fact_revisions r
      JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      JOIN statement_versions p ON p.statement_version_id = r.previous_version_id
      WHERE v.fiscal_period = 'FY' AND v.statement_type = 'INCOME_STATEMENT' AND r.metric IN ('REVENUE', 'NET_INCOME') AND p.filing_date < v.filing_date
        AND NOT EXISTS (SELECT 1 FROM statement_versions o WHERE o.cik = v.cik AND o.statement_type = v.statement_type AND o.fiscal_year = v.fiscal_year
          AND o.fiscal_period = 'FY' AND o.filing_date = v.filing_date AND o.statement_version_id <> v.statement_version_id)
      ORDER BY v.cik, v.fiscal_year, r.metric`;
    assert.ok(events.length >= 5, `${events.length} restated figures`);
    for (const e of events) {
      const at = async (date: string) => {
        const rows = await everyRow({ conditions: [{ metric: e.metric, op: 'gte', value: '-1000000000000000000' }], period: { fiscal_year: e.fiscal_year }, as_of_date: date, currency: 'USD' });
        return rows.find((r) => r.cik === e.cik)?.metrics[e.metric] ?? null;
      };
      assert.ok(same(await at(e.day_before), e.old_value), `${e.cik} ${e.fiscal_year} ${e.metric} on ${e.day_before}`);
      assert.ok(same(await at(e.filing_date), e.new_value), `${e.cik} ${e.fiscal_year} ${e.metric} on ${e.filing_date}`);
    }
  });

  it('compares named companies with ranks and industry medians as known on the date', async () => {
    const r = await get(`${svc.baseUrl}/v1/fundamentals/compare?tickers=AAPL&tickers=MSFT&metrics=GROSS_MARGIN&metrics=REVENUE&as_of_date=${AS_OF}`, svc.keys.growth);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.companies.length, 2);
    const [a, m] = r.body.companies;
    assert.deepEqual([a.cik, m.cik], [APPLE, MICROSOFT]);
    for (const it of r.body.companies) {
      assert.ok(it.filing_date <= AS_OF);
      assert.ok(it.statement_version_ids.length > 0);
      assert.ok([1, 2].includes(it.metrics.REVENUE.rank));
      assert.ok(it.metrics.GROSS_MARGIN.industry_companies >= 1);
    }
    assert.notEqual(a.metrics.REVENUE.rank, m.metrics.REVENUE.rank);
    const screened = await everyRow({ conditions: [{ metric: 'GROSS_MARGIN', op: 'gte', value: '-100' }], as_of_date: AS_OF });
    const apple = screened.find((x) => x.cik === APPLE);
    assert.ok(same(apple.metrics.GROSS_MARGIN, a.metrics.GROSS_MARGIN.value));
    const industry = screened.filter((x) => x.sic?.slice(0, 2) === apple.sic.slice(0, 2)).map((x) => dec(x.metrics.GROSS_MARGIN)).sort((x, y) => x.comparedTo(y));
    const mid = Math.floor(industry.length / 2);
    const median = industry.length % 2 ? industry[mid]! : industry[mid - 1]!.plus(industry[mid]!).dividedBy(2);
    assert.ok(median.equals(dec(a.metrics.GROSS_MARGIN.industry_median)), 'median over the industry of the same date');
  });

  it('refuses a screen to a Free key on both surfaces (it reaches every company) and lets it compare within its coverage, medians over its own companies', async () => {
    const r = await screen({ conditions: [{ metric: 'REVENUE', op: 'gt', value: '0' }] }, svc.keys.free);
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, 'FEATURE_NOT_AVAILABLE');
    const tool = await mcpCall('fundamentals_screen', { conditions: [{ metric: 'REVENUE', op: 'gt', value: '0' }] }, svc.keys.free);
    assert.equal(tool.body.result.isError, true);
    assert.equal(JSON.parse(tool.body.result.content[0].text).http_code, 'FEATURE_NOT_AVAILABLE');
    const c = await get(`${svc.baseUrl}/v1/fundamentals/compare?ciks=${APPLE}&ciks=${MICROSOFT}&metrics=REVENUE`, svc.keys.free);
    assert.equal(c.status, 200, c.text);
    for (const it of c.body.companies) assert.ok(it.metrics.REVENUE.industry_companies <= 2, 'a Free key\'s median reads only the companies it holds');
    const viaTool = await mcpCall('fundamentals_compare', { ciks: [APPLE, MICROSOFT], metrics: ['REVENUE'] }, svc.keys.free);
    assert.equal(viaTool.body.result.isError, false, viaTool.text);
  });

  it('answers bad input with 400 naming the field, never a 500', async () => {
    const cases: [object, RegExp][] = [
      [{ conditions: [{ metric: 'SHOE_SIZE', op: 'gt', value: '1' }] }, /accepted names: .*GROSS_MARGIN/],
      [{ conditions: [{ metric: 'REVENUE', op: 'between', value: ['1'] }] }, /between takes two values/],
      [{ conditions: [{ metric: 'REVENUE', op: 'between', value: ['5', '1'] }] }, /low \(5\) is above high/],
      [{ conditions: [{ metric: 'REVENUE', op: 'gt', value: '1e9' }] }, /decimal string/],
      [{ conditions: [{ metric: 'REVENUE', op: 'gt', value: 5 }] }, /conditions/],
      [{ conditions: Array.from({ length: 11 }, () => ({ metric: 'REVENUE', op: 'gt', value: '1' })) }, /conditions/],
      [{ conditions: [] }, /conditions/],
      [{ conditions: [{ metric: 'GROSS_MARGIN', op: 'gt', value: '0.5' }], period: 'ttm' }, /conditions\.0\.metric: GROSS_MARGIN.*accepted names/],
      [{ conditions: [{ metric: 'REVENUE', op: 'gt', value: '1' }], as_of_date: '2999-01-01' }, /future/],
      [{ conditions: [{ metric: 'REVENUE', op: 'gt', value: '1' }], period: { fiscal_year: 'x' } }, /period/],
      [{ conditions: [{ metric: 'REVENUE', op: 'gt', value: '1' }], sic: ['3'] }, /sic/],
    ];
    for (const [body, message] of cases) {
      const r = await screen(body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.match(r.text, message, JSON.stringify(body));
    }
    const compares = [
      `ciks=${APPLE}&metrics=REVENUE`,
      `ciks=${APPLE}&ciks=${MICROSOFT}&metrics=NOPE`,
      `ciks=${APPLE}&ciks=${MICROSOFT}&metrics=REVENUE&period=ttm&fiscal_year=2020`,
      `ciks=${APPLE}&tickers=MSFT&metrics=REVENUE`,
      `ciks=${APPLE}&ciks=${MICROSOFT}`,
    ];
    for (const q of compares) {
      const r = await get(`${svc.baseUrl}/v1/fundamentals/compare?${q}`, svc.keys.growth);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    }
  });
});
