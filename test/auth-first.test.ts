import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get, post } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/** A request without a valid key is refused 401 before its parameters or arguments are looked at. */
describe('authentication before anything else', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc.close();
  });

  const statement = '/v1/fundamentals/normalized-statements?cik=320193&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY';

  it('answers 401, not 400 with the accepted parameters, to a request without a key that has an unknown parameter', async () => {
    const r = await get(`${svc.baseUrl}${statement}&no_such_parameter=1`);
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'UNAUTHORIZED');
    assert.doesNotMatch(r.text, /no_such_parameter|fiscal_period|statement_type/);
  });

  it('answers 401 to an invalid key on a malformed request, and 400 to the same request with a valid key', async () => {
    const bad = await get(`${svc.baseUrl}${statement.replace('fiscal_year=2023', 'fiscal_year=last')}`, 'fds_sk_' + 'x'.repeat(43));
    assert.equal(bad.status, 401);
    const good = await get(`${svc.baseUrl}${statement.replace('fiscal_year=2023', 'fiscal_year=last')}`, svc.keys.enterprise);
    assert.equal(good.status, 400);
  });

  it('answers 401 to a POST without a key whose body is not JSON', async () => {
    const r = await post(`${svc.baseUrl}/v1/query/execute`, '{not json', undefined);
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'UNAUTHORIZED');
  });

  for (const [where, url, headers] of [
    ['an api_key query parameter', `${statement}&api_key=${'fds_sk_' + 'a'.repeat(43)}`, {}],
    ['a key query parameter', `${statement}&key=abc`, {}],
    ['a bearer token', statement, { authorization: `Bearer ${'fds_sk_' + 'a'.repeat(43)}` }],
    ['a cookie', statement, { cookie: 'api_key=abc' }],
  ] as const) {
    it(`never reads a key sent as ${where}: 401 with the hint to send X-Api-Key`, async () => {
      const r = await get(`${svc.baseUrl}${url}`, undefined, headers);
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, 'UNAUTHORIZED');
      assert.match(r.body.error.message, /X-Api-Key/);
      assert.ok(r.body.error.details.misplaced, 'names where the key was sent');
    });
  }

  it('answers a valid key sent as a query parameter too with 401: keys are read from X-Api-Key only', async () => {
    const r = await get(`${svc.baseUrl}${statement}&api_key=${svc.keys.enterprise}`);
    assert.equal(r.status, 401);
    assert.equal(r.body.error.details.misplaced, 'query');
  });

  it('answers a tool call without a key and with invalid arguments as UNAUTHORIZED, not with the tool\'s input rules', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'statements_normalized', arguments: { cik: 'x', bogus: true } } });
    const r = await post(`${svc.baseUrl}/mcp`, body, undefined, { authorization: 'Bearer abc' });
    assert.equal(r.status, 200);
    assert.equal(r.body.error, undefined, 'not a -32602 listing the input rules');
    assert.equal(r.body.result.isError, true);
    const payload = JSON.parse(r.body.result.content[0].text);
    assert.equal(payload.http_code, 'UNAUTHORIZED');
    assert.match(r.body.result.content[0].text, /X-Api-Key/);
    assert.doesNotMatch(r.body.result.content[0].text, /bogus|statement_type/);
  });
});
