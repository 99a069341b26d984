import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get, post } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * The reconciliation ledger as ingestion wrote it for the ../shared/sec corpus, read through the
 * real routes and the tool server. Each rule is shown passing, failing and declining on the
 * filers' own statements (the figures are in the assertions' comments).
 */
const APPLE = '0000320193';
const MCDONALDS = '0000063908';
const TEXAS_INSTRUMENTS = '0000097476';
const HOME_DEPOT = '0000354950';
const SUNATION = '0000022701';
const MICROSOFT = '0000789019';
const NVIDIA = '0001045810';
const HERC = '0001364479';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

interface Identity {
  cik: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  version_sequence?: number;
}

function ledgerQuery(id: Identity, extra = ''): string {
  return `cik=${id.cik}&statement_type=${id.statement_type}&fiscal_year=${id.fiscal_year}&fiscal_period=${id.fiscal_period}&version_sequence=${id.version_sequence ?? 1}${extra}`;
}

async function ledger(id: Identity, extra = '') {
  const r = await get(`${svc.baseUrl}/v1/edgar/reconciliation/ledger?${ledgerQuery(id, extra)}`, svc.keys.growth);
  assert.equal(r.status, 200, r.text);
  return r.body as { page: number; page_size: number; total: number; items: any[] };
}

async function result(id: Identity, ruleId: string) {
  const page = await ledger(id);
  const item = page.items.find((i) => i.rule_id === ruleId);
  assert.ok(item, `${ruleId} has a result for ${JSON.stringify(id)}: ${page.items.map((i) => i.rule_id).join(', ')}`);
  return item;
}

function assertDeclined(item: any, reason: string) {
  assert.equal(item.status, 'WARNING');
  assert.equal(item.severity, 'NONE');
  assert.equal(item.delta, null);
  assert.equal(item.notes.details.reason, reason);
}

const cf = (cik: string, fiscal_year: number, fiscal_period = 'FY'): Identity => ({ cik, statement_type: 'CASH_FLOW_STATEMENT', fiscal_year, fiscal_period });
const bs = (cik: string, fiscal_year: number, fiscal_period = 'FY'): Identity => ({ cik, statement_type: 'BALANCE_SHEET', fiscal_year, fiscal_period });

describe('ingestion writes the ledger', () => {
  it('one row per version and rule, only for rules that produced a result, each on its own version', async () => {
    const [counts] = await svc.sql<{ rows: number; versions: number; orphans: number; skipped: number }[]>`
      SELECT count(*)::int AS rows, count(DISTINCT r.statement_version_id)::int AS versions,
        count(*) FILTER (WHERE (v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence)
          IS DISTINCT FROM (r.cik, r.statement_type, r.fiscal_year, r.fiscal_period, r.version_sequence))::int AS orphans,
        count(*) FILTER (WHERE r.status NOT IN ('PASS', 'WARNING', 'FAIL'))::int AS skipped
      FROM reconciliation_results r JOIN statement_versions v USING (statement_version_id)`;
    assert.ok(counts!.rows > 5000, `rows: ${counts!.rows}`);
    assert.equal(counts!.orphans, 0);
    assert.equal(counts!.skipped, 0);
    const [declines] = await svc.sql<{ bad: number }[]>`
      SELECT count(*)::int AS bad FROM reconciliation_results
      WHERE delta IS NULL AND (status <> 'WARNING' OR severity <> 'NONE' OR notes -> 'details' ->> 'reason' IS NULL)`;
    assert.equal(declines!.bad, 0, 'every decline is WARNING, severity NONE, with a reason');
  });

  it("IDENTITY rows agree with the statement's served _meta.identity (Apple FY2023 balance sheet)", async () => {
    const r = await get(`${svc.baseUrl}/v1/fundamentals/normalized-statements?cik=${APPLE}&statement_type=BALANCE_SHEET&fiscal_year=2023&fiscal_period=FY`, svc.keys.growth);
    assert.equal(r.status, 200, r.text);
    const served = r.body.data.normalized_payload._meta.identity.checks.filter((c: any) => c.status !== 'SKIPPED');
    const page = await ledger({ ...bs(APPLE, 2023), version_sequence: r.body.data.version_sequence });
    for (const check of served) {
      const item = page.items.find((i) => i.rule_id === check.rule_id);
      assert.ok(item, check.rule_id);
      assert.equal(item.rule_category, 'IDENTITY');
      assert.equal(item.status, check.status);
      assert.equal(item.delta, check.delta, 'the same decimal, written alike (six fraction digits)');
      assert.equal(item.expected_value, check.expected_value);
      assert.equal(item.actual_value, check.actual_value);
    }
  });
});

describe('IDENTITY rules on real statements', () => {
  it("pass: Apple's FY2023 total assets equal liabilities and equity, 352,583M (10-K 0000320193-23-000106)", async () => {
    const item = await result(bs(APPLE, 2023), 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY');
    assert.equal(item.status, 'PASS');
    assert.equal(item.severity, 'NONE');
    assert.equal(item.actual_value, '352583000000.000000');
    assert.equal(item.delta, '0.000000');
    assert.equal(item.notes.details.inputs.TOTAL_ASSETS, '352583000000.000000');
  });

  it("fail: NVIDIA's FY2017 liabilities plus equity fall 31M short of its total (10-K 0001045810-17-000027)", async () => {
    const item = await result(bs(NVIDIA, 2017), 'BS_LIABILITIES_PLUS_EQUITY');
    assert.equal(item.status, 'FAIL');
    assert.equal(item.severity, 'MEDIUM');
    assert.equal(item.delta, '31000000.000000');
  });

  it('pass: Home Depot FY2014, whose change in cash it tagged before the exchange-rate effect (-100M), is served with the effect added (-206M)', async () => {
    const item = await result(cf(HOME_DEPOT, 2014), 'CF_NET_CHANGE_IN_CASH');
    assert.equal(item.status, 'PASS');
    assert.equal(item.expected_value, '-206000000.000000');
    assert.equal(item.actual_value, '-206000000.000000');
  });

  it("fail: SunAtion's FY2021 re-told without its exchange-rate line, beside which the 54,386 of its first telling is carried (version 2)", async () => {
    const item = await result({ ...cf(SUNATION, 2021), version_sequence: 2 }, 'CF_NET_CHANGE_IN_CASH');
    assert.equal(item.status, 'FAIL');
    assert.equal(item.severity, 'CRITICAL');
    assert.deepEqual([item.expected_value, item.actual_value, item.delta], ['73352.000000', '18966.000000', '-54386.000000']);
  });
});

describe('RF_CF_ENDING_CASH_EQUALS_BS_CASH on real statements', () => {
  const RULE = 'RF_CF_ENDING_CASH_EQUALS_BS_CASH';

  it("declines Apple FY2023: its cash flow ends on 30,737M including restricted cash, the balance sheet's cash line is 29,965M", async () => {
    const item = await result(cf(APPLE, 2023), RULE);
    assertDeclined(item, 'INCOMPARABLE_CASH_SCOPES');
    assert.equal(item.rule_category, 'ROLLFORWARD');
    assert.equal(item.expected_value, '30737000000.000000');
    assert.equal(item.actual_value, '29965000000.000000');
    assert.equal(item.notes.details.cash_flow_scope, 'CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH');
    assert.equal(item.notes.details.restricted_cash_implied, '772000000.000000');
  });

  it('passes Apple FY2024: no restricted cash, both are 29,943M (10-K 0000320193-24-000123)', async () => {
    const item = await result(cf(APPLE, 2024), RULE);
    assert.equal(item.status, 'PASS');
    assert.equal(item.delta, '0.000000');
  });

  it("fails McDonald's FY2021: the restricted-cash-inclusive balance was tagged 4.7 (billions) against 4,709.2M of cash (10-K 0000063908-22-000011)", async () => {
    const item = await result(cf(MCDONALDS, 2021), RULE);
    assert.equal(item.status, 'FAIL');
    assert.equal(item.severity, 'CRITICAL');
    assert.equal(item.expected_value, '4.700000');
    assert.equal(item.actual_value, '4709200000.000000');
  });
});

describe('RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END on real statements', () => {
  const RULE = 'RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END';

  it("passes Apple FY2023: 24,977M at 2022-09-24 plus 5,760M is 30,737M", async () => {
    const item = await result(cf(APPLE, 2023), RULE);
    assert.equal(item.status, 'PASS');
    assert.equal(item.notes.details.inputs.beginning_cash.value, '24977000000.000000');
    assert.equal(item.notes.details.inputs.beginning_cash.period_end, '2022-09-24');
    assert.equal(item.notes.details.inputs.ending_cash.value, '30737000000.000000');
  });

  it('passes Home Depot FY2014: 1,929M less the 206M change in cash served with its exchange-rate effect is the 1,723M ending cash (its tagged -100M missed by 106M)', async () => {
    const item = await result(cf(HOME_DEPOT, 2014), RULE);
    assert.equal(item.status, 'PASS');
    assert.equal(item.notes.details.inputs.net_change_in_cash.value, '-206000000.000000');
    assert.equal(item.notes.details.inputs.ending_cash.value, '1723000000.000000');
  });

  it("declines McDonald's FY2020: the net change includes restricted cash, the 2019 balance sheet only has cash (10-K 0000063908-21-000013)", async () => {
    const item = await result(cf(MCDONALDS, 2020), RULE);
    assertDeclined(item, 'INCOMPARABLE_CASH_SCOPES');
    assert.deepEqual(item.notes.details.balance_sheets_without_scope, ['2019-12-31']);
  });

  it('passes Texas Instruments FY2019 once a later 10-Q told the 2018 restricted-cash total the 10-K left out (a later figure, no restatement)', async () => {
    const item = await result(cf(TEXAS_INSTRUMENTS, 2019), RULE);
    assert.equal(item.status, 'PASS');
  });
});

describe('RF_RETAINED_EARNINGS_ROLLFORWARD on real statements', () => {
  const RULE = 'RF_RETAINED_EARNINGS_ROLLFORWARD';

  it('passes Home Depot FY2023: 76,896M + 15,143M - 8,383M = 83,656M (10-K 0000354950-24-000062)', async () => {
    const item = await result(bs(HOME_DEPOT, 2023), RULE);
    assert.equal(item.status, 'PASS');
    assert.equal(item.expected_value, '83656000000.000000');
    assert.equal(item.notes.details.inputs.net_income.value, '15143000000.000000');
    assert.equal(item.notes.details.inputs.dividends_paid.statement_type, 'CASH_FLOW_STATEMENT');
  });

  it('fails NVIDIA FY2017: 4,350M + 1,666M - 261M = 5,755M, but retained earnings are 6,108M', async () => {
    const item = await result(bs(NVIDIA, 2017), RULE);
    assert.equal(item.status, 'FAIL');
    assert.equal(item.delta, '353000000.000000');
  });

  it('declines Apple FY2024: repurchased shares charged to retained earnings (OTHER_EQUITY_MOVEMENTS)', async () => {
    const item = await result(bs(APPLE, 2024), RULE);
    assertDeclined(item, 'OTHER_EQUITY_MOVEMENTS');
    assert.equal(item.notes.details.explained_by, 'SHARE_REPURCHASES');
    assert.equal(item.actual_value, '-19154000000.000000');
  });

  it('declines Herc FY2015 with MISSING_INPUTS: no net income for the year', async () => {
    const item = await result(bs(HERC, 2015), RULE);
    assertDeclined(item, 'MISSING_INPUTS');
    assert.deepEqual(item.notes.details.missing, ['NET_INCOME']);
  });
});

describe('GET /v1/edgar/reconciliation/summary', () => {
  it('counts results per statement version and category, oldest period first', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/reconciliation/summary?cik=320193&fiscal_year_from=2023&fiscal_year_to=2024`, svc.keys.growth);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body), ['data']);
    const rows = r.body.data as any[];
    assert.ok(rows.every((x) => x.fiscal_year >= 2023 && x.fiscal_year <= 2024));
    assert.deepEqual(Object.keys(rows[0]).sort(), [
      'declined_count', 'fail_count', 'fiscal_period', 'fiscal_year', 'pass_count', 'rule_category', 'statement_type', 'version_sequence', 'warn_count',
    ]);
    const cashFlow = rows.find((x) => x.statement_type === 'CASH_FLOW_STATEMENT' && x.fiscal_year === 2023 && x.fiscal_period === 'FY' && x.version_sequence === 1 && x.rule_category === 'ROLLFORWARD');
    assert.deepEqual(
      { pass: cashFlow.pass_count, warn: cashFlow.warn_count, fail: cashFlow.fail_count, declined: cashFlow.declined_count },
      { pass: 4, warn: 1, fail: 0, declined: 1 },
      'the cash rules, and the three headline flows of its four quarters adding up to the year',
    );
    const identity = rows.find((x) => x.statement_type === 'BALANCE_SHEET' && x.fiscal_year === 2023 && x.fiscal_period === 'FY' && x.version_sequence === 1 && x.rule_category === 'IDENTITY');
    assert.equal(identity.pass_count, 5);
    const order = rows.map((x) => `${x.fiscal_year}-${['Q1', 'Q2', 'Q3', 'Q4', 'FY'].indexOf(x.fiscal_period)}`);
    assert.deepEqual(order, [...order].sort());
  });

  it('narrows to one statement type, and refuses a reversed year range', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/reconciliation/summary?cik=${APPLE}&statement_type=CASH_FLOW_STATEMENT&fiscal_year_from=2024&fiscal_year_to=2024`, svc.keys.growth);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.data.length > 0);
    assert.ok(r.body.data.every((x: any) => x.statement_type === 'CASH_FLOW_STATEMENT' && x.fiscal_year === 2024));
    const bad = await get(`${svc.baseUrl}/v1/edgar/reconciliation/summary?cik=${APPLE}&fiscal_year_from=2024&fiscal_year_to=2023`, svc.keys.growth);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  });

  it('answers an empty list for a company with no results', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/reconciliation/summary?cik=1`, svc.keys.growth);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { data: [] });
  });
});

describe('GET /v1/edgar/reconciliation/ledger', () => {
  it('pages the results of one version in the envelope of every list, with a true total past the end', async () => {
    const all = await ledger(bs(APPLE, 2023));
    assert.equal(all.page, 1);
    assert.equal(all.page_size, 50);
    assert.equal(all.total, 6);
    assert.deepEqual(
      all.items.map((i) => `${i.rule_category}:${i.rule_id}`),
      [...all.items.map((i) => `${i.rule_category}:${i.rule_id}`)].sort(),
    );
    const item = all.items[0];
    assert.deepEqual(Object.keys(item).sort(), [
      'actual_value', 'cik', 'computed_at', 'delta', 'expected_value', 'fiscal_period', 'fiscal_year', 'notes', 'rule_category', 'rule_id', 'severity', 'statement_type', 'status', 'version_sequence',
    ]);
    assert.equal(item.cik, APPLE);
    const second = await ledger(bs(APPLE, 2023), '&page=2&page_size=4');
    assert.equal(second.total, 6);
    assert.deepEqual(second.items.map((i) => i.rule_id), all.items.slice(4).map((i) => i.rule_id));
    const past = await ledger(bs(APPLE, 2023), '&page=9&page_size=4');
    assert.deepEqual([past.total, past.items], [6, []]);
  });

  it('answers an empty page, not 404, for an identity with no results', async () => {
    // Microsoft's fiscal 2012 Q1 income statement presents nothing an identity can be checked on
    const existing = await ledger({ cik: MICROSOFT, statement_type: 'INCOME_STATEMENT', fiscal_year: 2012, fiscal_period: 'Q1' });
    assert.deepEqual([existing.total, existing.items], [0, []]);
    const none = await ledger({ cik: APPLE, statement_type: 'BALANCE_SHEET', fiscal_year: 1990, fiscal_period: 'FY' });
    assert.deepEqual([none.total, none.items], [0, []]);
  });

  it('requires every part of the statement identity', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/reconciliation/ledger?cik=${APPLE}&statement_type=BALANCE_SHEET&fiscal_year=2023&fiscal_period=FY`, svc.keys.growth);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
  });
});

describe('the Growth plan gate', () => {
  const rpc = (key: string, name: string, args: Record<string, unknown>) =>
    post(`${svc.baseUrl}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }), key);
  const ledgerArgs = { cik: APPLE, statement_type: 'CASH_FLOW_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY', version_sequence: 1 };

  it('refuses a Free key with 403 FEATURE_NOT_AVAILABLE over HTTP', async () => {
    for (const path of [`summary?cik=${APPLE}`, `ledger?${ledgerQuery(cf(APPLE, 2023))}`]) {
      const r = await get(`${svc.baseUrl}/v1/edgar/reconciliation/${path}`, svc.keys.free);
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.error.code, 'FEATURE_NOT_AVAILABLE');
      assert.equal(r.body.error.details.required_plan, 'growth');
    }
  });

  it('refuses a Free key with an isError result naming FEATURE_NOT_AVAILABLE over tools/call', async () => {
    for (const [name, args] of [['reconciliation_summary', { cik: APPLE }], ['reconciliation_ledger', ledgerArgs]] as const) {
      const r = await rpc(svc.keys.free, name, args);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.result.isError, true, name);
      const failure = JSON.parse(r.body.result.content[0].text);
      assert.equal(failure.http_status, 403);
      assert.equal(failure.http_code, 'FEATURE_NOT_AVAILABLE');
    }
  });

  it('serves a Growth key on both surfaces with the same answer', async () => {
    const http = await ledger(cf(APPLE, 2023));
    const r = await rpc(svc.keys.growth, 'reconciliation_ledger', { ...ledgerArgs, page_size: 50 });
    assert.equal(r.body.result.isError, false, r.text);
    assert.deepEqual(r.body.result.structuredContent, http);
    const summary = await rpc(svc.keys.growth, 'reconciliation_summary', { cik: APPLE, fiscal_year_from: 2023, fiscal_year_to: 2023 });
    assert.equal(summary.body.result.isError, false, summary.text);
    assert.ok(summary.body.result.structuredContent.data.length > 0);
  });
});
