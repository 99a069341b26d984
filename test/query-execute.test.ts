import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createApiKey } from '../db/keys.ts';
import { get, post } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * Deterministic queries over the ingested corpus: the four query types answer what the routes
 * they read answer with the same as_of_date, the manifest names what was read, replay returns the
 * recorded bytes, as_of_date is a hard boundary (Apple's FY2008 net income was 4,834M until the
 * 10-K/A filed 2010-01-25 restated it to 6,119M), bad inputs are clear 4xx, and a Free key's query
 * reaches only its coverage slots.
 */
const APPLE = '0000320193';
const MICROSOFT = '0000789019';
const RESTATED_ON = '2010-01-25';

let svc: TestService;
before(async () => {
  svc = await startTestService({ rateLimits: false });
});
after(async () => {
  await svc?.close();
});

async function execute(body: Record<string, unknown>, key = svc.keys.free) {
  return post(`${svc.baseUrl}/v1/query/execute`, JSON.stringify(body), key);
}

async function executed(body: Record<string, unknown>, key = svc.keys.free) {
  const r = await execute(body, key);
  assert.equal(r.status, 200, r.text);
  return r;
}

async function route(p: string) {
  const r = await get(`${svc.baseUrl}${p}`, svc.keys.enterprise);
  assert.equal(r.status, 200, r.text);
  return r;
}

const sha256 = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

describe('POST /v1/query/execute', () => {
  it('financial_state_time_series answers exactly what the financial-state route answers on as_of_date and records the manifest', async () => {
    const r = await executed({ query_type: 'financial_state_time_series', as_of_date: '2024-12-31', parameters: { cik: '320193', fiscal_year_from: 2021, fiscal_year_to: 2024 } });
    const { replay_token: token, manifest, result, result_included } = r.body.data;
    const direct = await route(`/v1/edgar/companies/${APPLE}/financial-state/time-series?period_type=annual&fiscal_year_from=2021&fiscal_year_to=2024&as_of_date=2024-12-31`);
    assert.equal(JSON.stringify(result), direct.text, 'the same bytes as the route');
    assert.equal(result_included, true);
    assert.deepEqual(result.items.map((i: any) => i.fiscal_year), [2021, 2022, 2023, 2024]);
    assert.match(token, /^qr_[A-Za-z0-9_-]{32}$/);
    assert.equal(manifest.replay_token, token);
    assert.equal(manifest.query_type, 'financial_state_time_series');
    assert.deepEqual(manifest.parameters, { cik: APPLE, fiscal_year_from: 2021, fiscal_year_to: 2024, period_type: 'annual', page: 1, page_size: 50 });
    assert.equal(manifest.as_of_date, '2024-12-31');
    assert.deepEqual(manifest.ciks, [APPLE]);
    const read = result.items.flatMap((i: any) => i.statements.map((s: any) => s.statement_version_id)).sort();
    assert.deepEqual(manifest.statement_version_ids, read);
    assert.equal(read.length, 12);
    assert.match(manifest.code_version, /^0\.1\.0\+/);
    assert.match(manifest.catalog_version, /^sha256:[0-9a-f]{16}$/);
    assert.equal(manifest.result_hash, sha256(JSON.stringify(result)));
    assert.equal(manifest.result_bytes, Buffer.byteLength(JSON.stringify(result)));
    const [row] = await svc.sql`SELECT query_type, as_of_date, statement_version_ids::text[] AS ids, response_text FROM query_manifests WHERE replay_token = ${token}`;
    assert.equal(row!.as_of_date, '2024-12-31');
    assert.deepEqual([...row!.ids].sort(), read);
    assert.equal(row!.response_text, r.text, 'the response recorded is the response sent');
  });

  it('replays the recorded response byte for byte', async () => {
    const r = await executed({ query_type: 'statement_as_of', as_of_date: '2023-12-31', parameters: { cik: APPLE, statement_type: 'BALANCE_SHEET', fiscal_year: 2023, fiscal_period: 'FY' } });
    const replay = await get(`${svc.baseUrl}/v1/query/replay/${r.body.data.replay_token}`, svc.keys.free);
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.text, r.text);
  });

  it('is a hard no-lookahead boundary: the restatement filed 2010-01-25 is invisible the day before, in all three point-in-time query types', async () => {
    const statement = (asOf: string) =>
      executed({ query_type: 'statement_as_of', as_of_date: asOf, parameters: { cik: APPLE, statement_type: 'INCOME_STATEMENT', fiscal_year: 2008, fiscal_period: 'FY' } });
    const netIncome = (data: any) => data.normalized_payload.facts.find((f: any) => f.metric === 'NET_INCOME').value;
    const before = (await statement('2010-01-24')).body.data;
    assert.equal(netIncome(before.result.data), '4834000000.000000');
    assert.deepEqual(before.result.data.version_history.map((v: any) => v.filing_type), ['10-K']);
    const on = (await statement(RESTATED_ON)).body.data;
    assert.equal(netIncome(on.result.data), '6119000000.000000');
    assert.deepEqual(on.result.data.version_history.map((v: any) => v.filing_type), ['10-K', '10-K/A']);
    // every version a manifest names was filed on or before its as_of_date
    for (const m of [before.manifest, on.manifest]) {
      const rows = await svc.sql<{ filing_date: string }[]>`SELECT filing_date FROM statement_versions WHERE statement_version_id IN ${svc.sql(m.statement_version_ids)}`;
      assert.equal(rows.length, m.statement_version_ids.length);
      assert.ok(rows.every((x) => x.filing_date <= m.as_of_date), `nothing after ${m.as_of_date}`);
    }

    const state = async (asOf: string) =>
      (await executed({ query_type: 'financial_state_time_series', as_of_date: asOf, parameters: { cik: APPLE, fiscal_year_from: 2008, fiscal_year_to: 2008 } })).body.data.result.items[0].metrics.NET_INCOME;
    assert.equal(await state('2010-01-24'), '4834000000.000000');
    assert.equal(await state(RESTATED_ON), '6119000000.000000');

    const history = async (asOf: string) =>
      (await executed({ query_type: 'restatement_history', as_of_date: asOf, parameters: { cik: APPLE, fiscal_year: 2008, statement_type: 'INCOME_STATEMENT', fiscal_period: 'FY' } })).body.data.result;
    assert.equal((await history('2010-01-24')).total, 0);
    const after = await history(RESTATED_ON);
    assert.equal(after.total, 1);
    const revision = after.items[0].revised_metrics.find((m: any) => m.metric === 'NET_INCOME');
    assert.equal(revision.old_value, '4834000000.000000');
    assert.equal(revision.new_value, '6119000000.000000');
  });

  it('holds the boundary on the whole corpus: the day before each restating filing, a statement_as_of query reads only versions filed by then', async () => {
    const events = await svc.sql<{ cik: string; statement_type: string; fiscal_year: number; fiscal_period: string; filing_date: string; statement_version_id: string }[]>`
      SELECT DISTINCT ON (cik, filing_date) cik, statement_type, fiscal_year, fiscal_period, filing_date::text, statement_version_id
      FROM restatement_alert_events ORDER BY cik, filing_date, statement_type, fiscal_year, fiscal_period`;
    assert.ok(events.length > 500, `${events.length} restating filings`);
    const filed = new Map((await svc.sql<{ id: string; filing_date: string }[]>`SELECT statement_version_id AS id, filing_date FROM statement_versions`).map((r) => [r.id, r.filing_date]));
    for (const e of events) {
      const dayBefore = new Date(Date.parse(`${e.filing_date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const params = { cik: e.cik, statement_type: e.statement_type, fiscal_year: e.fiscal_year, fiscal_period: e.fiscal_period };
      const r = await executed({ query_type: 'statement_as_of', as_of_date: dayBefore, include_result: false, parameters: params }, svc.keys.enterprise);
      const ids: string[] = r.body.data.manifest.statement_version_ids;
      assert.ok(ids.length > 0);
      assert.ok(!ids.includes(e.statement_version_id), `${e.cik} ${e.fiscal_year} ${e.fiscal_period}: the restating version is not read on ${dayBefore}`);
      for (const id of ids) assert.ok(filed.get(id)! <= dayBefore, `${e.cik}: version ${id} filed ${filed.get(id)} after ${dayBefore}`);
    }
  });

  it('metric_panel normalizes companies and metrics and equals the metric time series of each company on as_of_date', async () => {
    const r = await executed({
      query_type: 'metric_panel',
      as_of_date: '2024-06-30',
      parameters: { ciks: ['789019', '320193', '0000320193'], metrics: ['revenue', 'NET_INCOME', 'TOTAL_ASSETS'], fiscal_year_from: 2021, fiscal_year_to: 2023 },
    });
    const { manifest, result } = r.body.data;
    assert.deepEqual(manifest.parameters, { ciks: [APPLE, MICROSOFT], metrics: ['NET_INCOME', 'REVENUE', 'TOTAL_ASSETS'], fiscal_year_from: 2021, fiscal_year_to: 2023, period_type: 'annual' });
    assert.deepEqual(manifest.ciks, [APPLE, MICROSOFT]);
    assert.deepEqual(result.rows.map((x: any) => `${x.cik} ${x.fiscal_year}`), [`${APPLE} 2021`, `${APPLE} 2022`, `${APPLE} 2023`, `${MICROSOFT} 2021`, `${MICROSOFT} 2022`, `${MICROSOFT} 2023`]);
    for (const cik of [APPLE, MICROSOFT]) {
      for (const metric of ['NET_INCOME', 'REVENUE', 'TOTAL_ASSETS']) {
        const series = (await route(`/v1/edgar/companies/${cik}/metrics/${metric}/time-series?period_type=annual&fiscal_year_from=2021&fiscal_year_to=2023&as_of_date=2024-06-30`)).body;
        const cells = result.rows.filter((x: any) => x.cik === cik).map((x: any) => x.metrics[metric]);
        assert.deepEqual(cells, series.items.map((p: any) => p.value), `${cik} ${metric}`);
      }
    }
    assert.equal(manifest.statement_version_ids.length, 12, 'income statement and balance sheet of six company-years');
  });

  it('restatement_history equals the restatement alerts of the company filed on or before as_of_date', async () => {
    const r = await executed({ query_type: 'restatement_history', as_of_date: '2020-12-31', parameters: { cik: APPLE, page_size: 200 } });
    const direct = await route(`/v1/edgar/restatement-alerts?cik=${APPLE}&filed_to=2020-12-31&page_size=200`);
    assert.equal(JSON.stringify(r.body.data.result), direct.text);
    assert.ok(r.body.data.result.total > 0);
    assert.ok(r.body.data.result.items.every((i: any) => i.filing_date <= '2020-12-31'));
  });

  it('include_result=false records everything and answers with the manifest; replay returns the result', async () => {
    const r = await executed({ query_type: 'financial_state_time_series', as_of_date: '2022-12-31', include_result: false, parameters: { cik: APPLE, fiscal_year_from: 2020, fiscal_year_to: 2021 } });
    assert.equal(r.body.data.result_included, false);
    assert.equal('result' in r.body.data, false);
    const replay = await get(`${svc.baseUrl}/v1/query/replay/${r.body.data.replay_token}`, svc.keys.free);
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body.data.manifest, r.body.data.manifest);
    assert.equal(replay.body.data.result_included, true);
    assert.equal(replay.body.data.result.total, 2);
    assert.equal(sha256(JSON.stringify(replay.body.data.result)), r.body.data.manifest.result_hash);
  });

  it('defaults as_of_date to today (UTC) and records it', async () => {
    const r = await executed({ query_type: 'restatement_history', parameters: { cik: APPLE, page_size: 1 } });
    assert.equal(r.body.data.manifest.as_of_date, new Date().toISOString().slice(0, 10));
  });

  it('keeps manifests immutable: the database refuses to update or delete one, and replay refuses bytes that no longer match the result hash', async () => {
    const r = await executed({ query_type: 'restatement_history', as_of_date: '2015-01-01', parameters: { cik: APPLE, page_size: 1 } });
    const token = r.body.data.replay_token;
    await assert.rejects(svc.sql`UPDATE query_manifests SET response_text = '{}' WHERE replay_token = ${token}`, /immutable/);
    await assert.rejects(svc.sql`DELETE FROM query_manifests WHERE replay_token = ${token}`, /immutable/);
    // and if someone with the rights to switch the guard off alters the bytes, replay refuses to serve them
    await svc.sql.begin(async (tx) => {
      await tx`ALTER TABLE query_manifests DISABLE TRIGGER query_manifests_no_change`;
      await tx`UPDATE query_manifests SET response_text = replace(response_text, '"total":', '"total":1') WHERE replay_token = ${token}`;
      await tx`ALTER TABLE query_manifests ENABLE TRIGGER query_manifests_no_change`;
    });
    const tampered = await get(`${svc.baseUrl}/v1/query/replay/${token}`, svc.keys.free);
    assert.equal(tampered.status, 500);
    assert.equal(tampered.body.error.code, 'INTERNAL_ERROR');
    assert.doesNotMatch(tampered.text, /result_hash/, 'no internals in the body');
  });

  it('refuses bad inputs with clear 4xx: unknown query type naming the four, bad parameters, a future boundary, bad and unknown tokens', async () => {
    const unknown = await execute({ query_type: 'sql', parameters: {} });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'VALIDATION_ERROR');
    for (const t of ['financial_state_time_series', 'metric_panel', 'statement_as_of', 'restatement_history']) assert.match(unknown.body.error.message, new RegExp(t));
    const missing = await execute({ parameters: { cik: APPLE } });
    assert.equal(missing.status, 400);
    assert.match(missing.body.error.message, /query_type/);
    const noCik = await execute({ query_type: 'financial_state_time_series', parameters: { fiscal_year_from: 2020 } });
    assert.equal(noCik.status, 400);
    assert.match(noCik.body.error.message, /parameters\.cik/);
    const typo = await execute({ query_type: 'financial_state_time_series', parameters: { cik: APPLE, fiscal_year: 2020 } });
    assert.equal(typo.status, 400, 'an unknown parameter is refused, not silently dropped from the manifest');
    assert.match(typo.body.error.message, /fiscal_year/);
    const quarterly = await execute({ query_type: 'financial_state_time_series', parameters: { cik: APPLE, period_type: 'quarterly' } });
    assert.equal(quarterly.status, 400);
    assert.match(quarterly.body.error.message, /parameters\.period_type/);
    const years = await execute({ query_type: 'metric_panel', parameters: { ciks: [APPLE], metrics: ['REVENUE'], fiscal_year_from: 2024, fiscal_year_to: 2020 } });
    assert.equal(years.status, 400);
    assert.match(years.body.error.message, /after/);
    const derived = await execute({ query_type: 'metric_panel', parameters: { ciks: [APPLE], metrics: ['GROSS_MARGIN'], fiscal_year_from: 2020, fiscal_year_to: 2021 } });
    assert.equal(derived.status, 400);
    const future = await execute({ query_type: 'restatement_history', as_of_date: '2999-01-01', parameters: { cik: APPLE } });
    assert.equal(future.status, 400);
    assert.match(future.body.error.message, /future/);
    const none = await execute({ query_type: 'statement_as_of', as_of_date: '2001-01-01', parameters: { cik: APPLE, statement_type: 'INCOME_STATEMENT', fiscal_year: 2008, fiscal_period: 'FY' } });
    assert.equal(none.status, 404, 'a statement not yet filed on as_of_date is the route\'s 404');
    const [count] = await svc.sql`SELECT count(*)::int AS n FROM query_manifests WHERE as_of_date IN ('2999-01-01', '2001-01-01')`;
    assert.equal(count!.n, 0, 'a refused query records nothing');

    const unknownToken = await get(`${svc.baseUrl}/v1/query/replay/qr_${'A'.repeat(32)}`, svc.keys.free);
    assert.equal(unknownToken.status, 404);
    assert.equal(unknownToken.body.error.code, 'NOT_FOUND');
    const badToken = await get(`${svc.baseUrl}/v1/query/replay/not-a-token`, svc.keys.free);
    assert.equal(badToken.status, 400);
    assert.equal(badToken.body.error.code, 'VALIDATION_ERROR');
  });

  it("holds a Free key's query to its 25 coverage slots, on execute and on replay, and records nothing when refused", async () => {
    const key = (await createApiKey(svc.sql, 'query-coverage', 'free')).key;
    const fillers = Array.from({ length: 25 }, (_, i) => String(900000 + i));
    await executed({ query_type: 'metric_panel', as_of_date: '2020-01-01', parameters: { ciks: fillers, metrics: ['REVENUE'], fiscal_year_from: 2019, fiscal_year_to: 2019 } }, key);
    const [before] = await svc.sql`SELECT count(*)::int AS n FROM query_manifests`;
    const full = await execute({ query_type: 'financial_state_time_series', as_of_date: '2020-01-01', parameters: { cik: APPLE } }, key);
    assert.equal(full.status, 403);
    assert.equal(full.body.error.code, 'COVERAGE_SELECTION_FULL');
    assert.deepEqual(full.body.error.details.refused_ciks, [APPLE]);
    const [afterCount] = await svc.sql`SELECT count(*)::int AS n FROM query_manifests`;
    assert.equal(afterCount!.n, before!.n);

    const other = await executed({ query_type: 'financial_state_time_series', as_of_date: '2020-01-01', parameters: { cik: APPLE } }, svc.keys.growth);
    const refusedReplay = await get(`${svc.baseUrl}/v1/query/replay/${other.body.data.replay_token}`, key);
    assert.equal(refusedReplay.status, 403);
    assert.equal(refusedReplay.body.error.code, 'COVERAGE_SELECTION_FULL');
    const paid = await get(`${svc.baseUrl}/v1/query/replay/${other.body.data.replay_token}`, svc.keys.scale);
    assert.equal(paid.text, other.text);
  });

  it('runs on the tool server too: query_execute then query_replay give the same structured content', async () => {
    const rpc = async (name: string, args: Record<string, unknown>) => {
      const r = await post(`${svc.baseUrl}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }), svc.keys.free);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.result.isError, false, r.text);
      return r.body.result;
    };
    const ran = await rpc('query_execute', { query_type: 'statement_as_of', as_of_date: '2012-12-31', parameters: { cik: APPLE, statement_type: 'INCOME_STATEMENT', fiscal_year: 2008, fiscal_period: 'FY' } });
    const replayed = await rpc('query_replay', { replay_token: ran.structuredContent.data.replay_token });
    assert.equal(replayed.content[0].text, ran.content[0].text);
  });
});
