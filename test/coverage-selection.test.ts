import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { createApiKey, type IssuedKey } from '../db/keys.ts';
import { defineTool } from '../api/define-tool.ts';
import { Cik } from '../api/schemas.ts';
import { get, post, type Reply } from './helpers/http.ts';
import { listenWithFixtures, startTestService, type TestService } from './helpers/service.ts';

const DAY_MS = 86_400_000;
const APPLE = '0000320193';
const MICROSOFT = '0000789019';

/** Test-only: a route reaching several companies at once, to pin the all-or-nothing rule. */
const manyCompanies = defineTool({
  name: 'test.many_companies',
  title: 'Multi-company fixture',
  description: 'Test fixture: reaches every CIK it is given, to pin how one request claims several slots.',
  http: { method: 'GET', path: '/v1/test/many' },
  tool: false,
  plan: 'free',
  input: z.object({ ciks: z.array(Cik).max(10) }),
  output: z.object({ ciks: z.array(z.string()) }),
  companies: (input) => input.ciks,
  handler: async (_ctx, input) => ({ ciks: input.ciks }),
});

/** `n` distinct made-up CIKs from `start`, descending so claim order and CIK order differ. */
function ciks(start: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => String(start + n - 1 - i).padStart(10, '0'));
}

describe('Free-plan coverage slots', () => {
  let svc: TestService;
  let fixtures: { baseUrl: string; close(): Promise<void> };
  // The service's clock: every test moves it forward only.
  let clock = new Date();
  const tick = (ms = 1000) => (clock = new Date(clock.getTime() + ms));

  before(async () => {
    svc = await startTestService({}, () => clock);
    fixtures = await listenWithFixtures(svc.running.services, [manyCompanies]);
  });
  after(async () => {
    await fixtures.close();
    await svc.close();
  });

  let keyCount = 0;
  /** A fresh Free key per test: slots and request budgets are per key. */
  const freeKey = (): Promise<IssuedKey> => createApiKey(svc.sql, `coverage-${++keyCount}`, 'free');
  const reach = (key: string, cik: string): Promise<Reply> => get(`${svc.baseUrl}/v1/identity/companies/${cik}`, key);
  const selection = async (key: string) => {
    const r = await get(`${svc.baseUrl}/v1/coverage/selection`, key);
    assert.equal(r.status, 200, r.text);
    return r.body.data;
  };
  const release = (key: string, cik: string): Promise<Reply> =>
    post(`${svc.baseUrl}/v1/coverage/selection/release`, JSON.stringify({ cik }), key);
  const toolCall = async (key: string, name: string, args: Record<string, unknown>) => {
    const r = await post(`${svc.baseUrl}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }), key);
    assert.equal(r.status, 200, r.text);
    return r.body.result as { isError: boolean; content: { text: string }[] };
  };
  /** Claims each CIK in order, one second apart, so the selection's oldest-first order is the claim order. */
  const fill = async (key: string, list: string[]) => {
    for (const cik of list) {
      tick();
      const r = await reach(key, cik);
      assert.equal(r.status, 200, r.text);
    }
  };
  const rowsOf = async (keyId: string) =>
    (await svc.sql<{ cik: string }[]>`SELECT cik FROM coverage_slots WHERE key_id = ${keyId} ORDER BY cik`).map((r) => r.cik);

  it('claims a slot on the first request reaching a company, stamped now and expiring 30 days on', async () => {
    const { key } = await freeKey();
    tick();
    const r = await get(`${svc.baseUrl}/v1/edgar/companies/320193/metrics/REVENUE/time-series?period_type=annual`, key);
    assert.equal(r.status, 200, r.text);
    const s = await selection(key);
    assert.deepEqual(s, {
      mode: 'selected',
      limit: 25,
      window_days: 30,
      slots_used: 1,
      slots_available: 24,
      companies: [
        {
          cik: APPLE,
          claimed_at: clock.toISOString(),
          last_queried_at: clock.toISOString(),
          expires_at: new Date(clock.getTime() + 30 * DAY_MS).toISOString(),
        },
      ],
    });
  });

  it('refreshes a held slot: last_queried_at and expires_at move on, claimed_at stays', async () => {
    const { key } = await freeKey();
    tick();
    const claimedAt = clock.toISOString();
    assert.equal((await reach(key, '320193')).status, 200);
    tick(3 * DAY_MS);
    assert.equal((await get(`${svc.baseUrl}/v1/edgar/companies/320193`, key)).status, 200);
    const s = await selection(key);
    assert.equal(s.slots_used, 1);
    assert.deepEqual(s.companies[0], {
      cik: APPLE,
      claimed_at: claimedAt,
      last_queried_at: clock.toISOString(),
      expires_at: new Date(clock.getTime() + 30 * DAY_MS).toISOString(),
    });
  });

  it('claims over the tool server for a cik or a ticker, and resolving a ticker claims nothing', async () => {
    const { key } = await freeKey();
    tick();
    const args = { statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY' };
    await toolCall(key, 'statements_normalized', { ...args, cik: '789019' });
    await toolCall(key, 'statements_normalized', { ...args, ticker: 'AAPL' });
    const resolved = await toolCall(key, 'companies_resolve', { ticker: 'NVDA' });
    assert.equal(resolved.isError, false, resolved.content[0]!.text);
    const s = await selection(key);
    assert.deepEqual(s.companies.map((c: { cik: string }) => c.cik).sort(), [APPLE, MICROSOFT]);
  });

  it('refuses the 26th company with 403 COVERAGE_SELECTION_FULL naming refused and held CIKs and the release endpoint', async () => {
    const { key } = await freeKey();
    const held = ciks(1_000_000, 25);
    await fill(key, held);
    tick();
    const r = await reach(key, '320193');
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, 'COVERAGE_SELECTION_FULL');
    assert.equal(r.body.error.http_status, 403);
    assert.equal(r.body.error.trace_id, r.headers.get('x-trace-id'));
    assert.deepEqual(r.body.error.details.refused_ciks, [APPLE]);
    assert.deepEqual(r.body.error.details.held_ciks, held, 'held oldest first');
    assert.equal(r.body.error.details.release_endpoint, 'POST /v1/coverage/selection/release');
    assert.match(r.body.error.message, /POST \/v1\/coverage\/selection\/release/);
    const s = await selection(key);
    assert.equal(s.slots_used, 25);
    assert.equal(s.slots_available, 0);
    assert.ok(!s.companies.some((c: { cik: string }) => c.cik === APPLE));
    // companies already held are still served
    assert.equal((await reach(key, held[0]!)).status, 200);
  });

  it('answers the 26th company over the tool server with isError and http_code COVERAGE_SELECTION_FULL', async () => {
    const { key } = await freeKey();
    const held = ciks(2_000_000, 25);
    await fill(key, held);
    tick();
    const result = await toolCall(key, 'statements_normalized', {
      cik: '320193',
      statement_type: 'INCOME_STATEMENT',
      fiscal_year: 2024,
      fiscal_period: 'FY',
    });
    assert.equal(result.isError, true);
    const payload = JSON.parse(result.content[0]!.text);
    assert.equal(payload.http_code, 'COVERAGE_SELECTION_FULL');
    assert.equal(payload.http_status, 403);
    assert.equal(payload.retryable, false);
    assert.deepEqual(payload.details.refused_ciks, [APPLE]);
    assert.deepEqual(payload.details.held_ciks, held);
    assert.equal(payload.details.release_endpoint, 'POST /v1/coverage/selection/release');
  });

  it('frees a slot at once on release, so a new company fits', async () => {
    const { key } = await freeKey();
    const held = ciks(3_000_000, 25);
    await fill(key, held);
    tick();
    assert.equal((await reach(key, '320193')).status, 403);
    const r = await release(key, held[3]!);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { data: { cik: held[3], released: true, slots_used: 24, slots_available: 1 } });
    assert.equal((await reach(key, '320193')).status, 200);
    const s = await selection(key);
    assert.equal(s.slots_used, 25);
    assert.equal(s.companies.at(-1).cik, APPLE);
  });

  it('answers a release of a company not held with released false and changes nothing', async () => {
    const { key } = await freeKey();
    await fill(key, [APPLE, MICROSOFT]);
    const before = await selection(key);
    const r = await release(key, '1045810');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { data: { cik: '0001045810', released: false, slots_used: 2, slots_available: 23 } });
    assert.deepEqual(await selection(key), before);
  });

  it('accepts an unpadded cik on release and answers it padded', async () => {
    const { key } = await freeKey();
    await fill(key, [APPLE]);
    const r = await release(key, '320193');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data, { cik: APPLE, released: true, slots_used: 0, slots_available: 25 });
    assert.deepEqual((await selection(key)).companies, []);
  });

  it('refuses a release body without a valid cik with 400 VALIDATION_ERROR', async () => {
    const { key } = await freeKey();
    const r = await release(key, 'AAPL');
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
  });

  it('frees a slot by itself 30 days after its last query, and a refreshed one stays', async () => {
    const { key } = await freeKey();
    tick();
    const t0 = clock.getTime();
    assert.equal((await reach(key, '320193')).status, 200);
    assert.equal((await reach(key, '789019')).status, 200);
    clock = new Date(t0 + 20 * DAY_MS);
    assert.equal((await reach(key, '789019')).status, 200);
    clock = new Date(t0 + 30 * DAY_MS - 1);
    assert.deepEqual((await selection(key)).companies.map((c: { cik: string }) => c.cik), [APPLE, MICROSOFT]);
    clock = new Date(t0 + 30 * DAY_MS);
    const s = await selection(key);
    assert.equal(s.slots_used, 1);
    assert.deepEqual(s.companies.map((c: { cik: string }) => c.cik), [MICROSOFT]);
    assert.equal(s.companies[0].expires_at, new Date(t0 + 50 * DAY_MS).toISOString());
  });

  it('does not count expired slots toward the 25 and deletes them at the next claim', async () => {
    const { key, key_id } = await freeKey();
    tick();
    const t0 = clock.getTime();
    const first = ciks(4_000_000, 25);
    for (const cik of first) assert.equal((await reach(key, cik)).status, 200);
    clock = new Date(t0 + 30 * DAY_MS - 1);
    assert.equal((await reach(key, '320193')).status, 403, 'one millisecond before expiry all 25 are still held');
    clock = new Date(t0 + 30 * DAY_MS);
    assert.equal((await reach(key, '320193')).status, 200);
    assert.deepEqual(await rowsOf(key_id), [APPLE]);
  });

  it('lets a mistyped cik take a slot like any other, even when the read finds nothing', async () => {
    const { key } = await freeKey();
    tick();
    const r = await get(`${svc.baseUrl}/v1/edgar/companies/9999999999`, key);
    assert.equal(r.status, 404);
    const s = await selection(key);
    assert.deepEqual(s.companies.map((c: { cik: string }) => c.cik), ['9999999999']);
    assert.equal(s.slots_available, 24);
  });

  it('claims all new companies of one request or none, and a refused request refreshes nothing', async () => {
    const { key } = await freeKey();
    const held = ciks(5_000_000, 23);
    await fill(key, held);
    const before = await selection(key);
    tick();
    const many = (list: string[]) => get(`${fixtures.baseUrl}/v1/test/many?ciks=${list.join(',')}`, key);
    const refused = await many([held[0]!, '1', '2', '3']);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body.error.details.refused_ciks, ['0000000001', '0000000002', '0000000003']);
    assert.equal(refused.body.error.details.slots_available, 2);
    assert.match(refused.body.error.message, /all its companies or none/);
    assert.deepEqual(await selection(key), before, 'nothing claimed, the held company not refreshed');
    const fits = await many([held[0]!, '1', '2']);
    assert.equal(fits.status, 200, fits.text);
    const s = await selection(key);
    assert.equal(s.slots_used, 25);
    assert.equal(s.companies.find((c: { cik: string }) => c.cik === held[0]).last_queried_at, clock.toISOString());
  });

  it('gives a Growth key mode full: never refused, no slots held, release changes nothing', async () => {
    const { key, key_id } = await createApiKey(svc.sql, 'coverage-growth', 'growth');
    for (const cik of ciks(6_000_000, 30)) assert.equal((await reach(key, cik)).status, 200);
    assert.deepEqual(await selection(key), {
      mode: 'full',
      limit: null,
      window_days: null,
      slots_used: 0,
      slots_available: null,
      companies: [],
    });
    const r = await release(key, '6000000');
    assert.deepEqual(r.body, { data: { cik: '0006000000', released: false, slots_used: 0, slots_available: null } });
    assert.deepEqual(await rowsOf(key_id), []);
  });

  it('grants exactly one of 26 simultaneous requests for new companies when 24 slots are held', async () => {
    const { key, key_id } = await freeKey();
    await fill(key, ciks(7_000_000, 24));
    tick();
    const fresh = ciks(8_000_000, 26);
    const replies = await Promise.all(fresh.map((cik) => reach(key, cik)));
    const statuses = replies.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 403).length, 25, JSON.stringify(statuses));
    const winner = fresh[statuses.indexOf(200)]!;
    const rows = await rowsOf(key_id);
    assert.equal(rows.length, 25);
    assert.ok(rows.includes(winner));
    for (const r of replies.filter((x) => x.status === 403)) assert.equal(r.body.error.details.held_ciks.length, 25);
  });
});
