import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from '../db/client.ts';
import { RATE_LIMITS } from '../domain/plans.ts';
import { startService, type RunningService } from '../service.ts';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * Two instances of the service on one database: the request budget is one, not two, because it is
 * counted in PostgreSQL. Both clocks are pinned inside one window so the count cannot split.
 */
describe('request budgets shared by every instance', () => {
  const at = new Date(Date.UTC(2026, 10, 24, 1, 0, 10));
  const now = () => at;
  let a: TestService;
  let b: RunningService;
  before(async () => {
    a = await startTestService({}, now);
    const sql = connect(a.running.database.url, { max: 4 });
    b = await startService(a.running.services.config, { log: () => {}, now, database: { sql, url: a.running.database.url, embedded: false, close: () => sql.end({ timeout: 5 }) } });
    await b.ready;
  });
  after(async () => {
    await b?.close({ delayMs: 0, timeoutMs: 2000 });
    await a?.close();
  });

  it('lets a Free key spend its budget once across two instances, with the same RateLimit headers on both', async () => {
    const limit = RATE_LIMITS.free.standard.limit;
    const urls = [a.baseUrl, `http://127.0.0.1:${b.port}`];
    const answers = await Promise.all(
      Array.from({ length: limit + 20 }, (_v, i) => get(`${urls[i % 2]}/v1/edgar/companies:resolve?ticker=AAPL`, a.keys.free)),
    );
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 429);
    assert.equal(ok.length, limit, `exactly ${limit} served across both instances`);
    assert.equal(refused.length, 20);
    assert.equal(refused[0]!.body.error.code, 'RATE_LIMITED');
    assert.equal(refused[0]!.headers.get('retry-after'), '50', 'the window ends on the minute for every instance');
    const remaining = ok.map((r) => Number(/r=(\d+)/.exec(r.headers.get('ratelimit')!)![1])).sort((x, y) => x - y);
    assert.deepEqual(remaining, Array.from({ length: limit }, (_v, i) => i), 'each unit counted once: remaining runs limit-1 .. 0 across both');
    const fromB = await get(`${urls[1]}/v1/edgar/companies:resolve?ticker=AAPL`, a.keys.free);
    assert.equal(fromB.status, 429);
    assert.equal(fromB.headers.get('ratelimit-policy'), `"standard";q=${limit};w=60`);
  });
});
