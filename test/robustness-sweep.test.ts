import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_INPUT_DEPTH, MAX_REPORTED_ISSUES, MAX_TEXT_LENGTH } from '../api/seam.ts';
import { get, post, rawExchange } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * The findings of a robustness sweep (every route and tool sent malformed input against the
 * ingested corpus): each was a 500 or an outsized answer where a clear 4xx belongs.
 */

function rpcCall(name: string, args: string): string {
  return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
}

describe('robustness sweep: bad input gets a clear 4xx, never a 500', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ rateLimits: false });
  });
  after(async () => {
    await svc?.close();
  });

  it('refuses JSON nested thousands of levels deep with 400 / -32602 on both surfaces instead of overflowing the stack', async () => {
    const key = svc.keys.enterprise;
    for (const depth of [MAX_INPUT_DEPTH + 1, 10_000, 150_000]) {
      const arrays = '['.repeat(depth) + ']'.repeat(depth);
      const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      for (const body of [`{"query_type":"financial_state_time_series","parameters":${arrays}}`, objects]) {
        const r = await post(`${svc.baseUrl}/v1/query/execute`, body, key);
        assert.equal(r.status, 400, `depth ${depth}: ${r.text.slice(0, 200)}`);
        assert.equal(r.body.error.code, 'VALIDATION_ERROR');
        assert.match(r.body.error.message, /more than 32 levels deep/);
      }
      const tool = await post(`${svc.baseUrl}/mcp`, rpcCall('companies_resolve', `{"ticker":${arrays}}`), key);
      assert.equal(tool.status, 200, `depth ${depth}: ${tool.text.slice(0, 200)}`);
      assert.equal(tool.body.error.code, -32602);
      assert.equal(tool.body.error.data.issues[0].code, 'too_deep');
    }
    const shallow = await post(`${svc.baseUrl}/v1/query/execute`, '{"query_type":"financial_state_time_series","parameters":{"cik":"320193","fiscal_year_from":2022,"fiscal_year_to":2023}}', key);
    assert.equal(shallow.status, 200, 'an ordinary input still passes');
  });

  it('reports at most 20 issues: 100,000 bad array items no longer make a 10 MB error reply', async () => {
    const key = svc.keys.enterprise;
    const nuls = JSON.stringify(Array(100_000).fill('\u0000'));
    const tool = await post(`${svc.baseUrl}/mcp`, rpcCall('fundamentals_time_series', `{"statement_type":"INCOME_STATEMENT","ciks":${nuls}}`), key);
    assert.equal(tool.body.error.code, -32602);
    assert.equal(tool.body.error.data.issues.length, MAX_REPORTED_ISSUES);
    assert.ok(tool.text.length < 10_000, `${tool.text.length} bytes`);
    const query = `ciks=${Array(3000).fill('%00').join(',')}`;
    const http = await get(`${svc.baseUrl}/v1/fundamentals/time-series?statement_type=INCOME_STATEMENT&${query}`, key);
    assert.equal(http.status, 400);
    assert.ok(http.body.error.details.issues.length <= MAX_REPORTED_ISSUES);
    assert.ok(http.text.length < 10_000, `${http.text.length} bytes`);
  });

  it('refuses text longer than 4,096 characters before any lookup, so an unknown 900 KB metric name is not echoed back whole', async () => {
    const key = svc.keys.enterprise;
    const name = 'X'.repeat(900_000);
    const tool = await post(`${svc.baseUrl}/mcp`, rpcCall('metrics_definition', `{"metric":"${name}"}`), key);
    assert.equal(tool.body.error.code, -32602);
    assert.match(JSON.stringify(tool.body.error.data), new RegExp(`at most ${MAX_TEXT_LENGTH} characters`));
    assert.ok(tool.text.length < 10_000, `${tool.text.length} bytes`);
    const longKey = await post(`${svc.baseUrl}/v1/query/execute`, JSON.stringify({ query_type: 'statement_as_of', parameters: { ['k'.repeat(MAX_TEXT_LENGTH + 1)]: 1 } }), key);
    assert.equal(longKey.status, 400);
    assert.ok(longKey.text.length < 10_000, `${longKey.text.length} bytes`);
    const atLimit = await post(`${svc.baseUrl}/mcp`, rpcCall('metrics_definition', `{"metric":"${'X'.repeat(MAX_TEXT_LENGTH)}"}`), key);
    assert.equal(atLimit.body.error.code, -32602);
    assert.match(JSON.stringify(atLimit.body.error.data), /unknown metric/, "a name at the limit reaches the metric's own rule");
  });

  it('refuses query_type "__proto__", "constructor" and "toString" with 400 naming the query types, not a 500', async () => {
    const key = svc.keys.enterprise;
    for (const queryType of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const body = JSON.stringify({ query_type: queryType, parameters: { cik: '320193' } });
      const r = await post(`${svc.baseUrl}/v1/query/execute`, body, key);
      assert.equal(r.status, 400, `${queryType}: ${r.text.slice(0, 200)}`);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.match(r.body.error.message, /query types: financial_state_time_series/);
      const tool = await post(`${svc.baseUrl}/mcp`, rpcCall('query_execute', body), key);
      const failure = JSON.parse(tool.body.result.content[0].text);
      assert.equal(tool.body.result.isError, true);
      assert.equal(failure.http_status, 400, `${queryType}: ${failure.message}`);
    }
  });

  it('refuses a segments period that is no calendar date or fiscal year (2024-02-30, 0000-00-00, 1899) with 400, not a PostgreSQL 500', async () => {
    const key = svc.keys.enterprise;
    for (const period of ['2024-02-30', '0000-00-00', '0000-01-01', '2024-13-01', '1900-02-29', '1899', '0000-FY']) {
      const r = await get(`${svc.baseUrl}/v1/metrics/segments?cik=320193&period=${period}`, key);
      assert.equal(r.status, 400, `${period}: ${r.text.slice(0, 200)}`);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.match(r.body.error.message, /^Invalid input: period: (not a calendar date|dates run from|Too small|period is a)/);
      const tool = await post(`${svc.baseUrl}/mcp`, rpcCall('metrics_segments', JSON.stringify({ cik: '320193', period })), key);
      assert.equal(tool.body.error?.code, -32602, `${period}: ${tool.text.slice(0, 200)}`);
    }
    for (const period of ['2023-09-30', '2023', '2023-FY', '2024-02-29']) {
      const r = await get(`${svc.baseUrl}/v1/metrics/segments?cik=320193&period=${period}`, key);
      assert.equal(r.status, 200, `${period}: ${r.text.slice(0, 200)}`);
    }
  });

  it('refuses a filings list naming 70,000 form types with -32602 before postgres.js runs out of query parameters (was a 500)', async () => {
    const forms = JSON.stringify(Array(70_000).fill('10-K'));
    const tool = await post(`${svc.baseUrl}/mcp`, rpcCall('filings_list', `{"cik":"320193","form":${forms}}`), svc.keys.enterprise);
    assert.equal(tool.body.error?.code, -32602, tool.text.slice(0, 300));
    assert.equal(tool.body.error.data.issues[0].code, 'too_big');
    const http = await get(`${svc.baseUrl}/v1/edgar/companies/320193/filings?form=${Array(51).fill('10-K').join(',')}`, svc.keys.enterprise);
    assert.equal(http.status, 400);
  });

  it('reads a POST body key "__proto__" as a key, not as the prototype of the input: its values are not taken, as on the tool server', async () => {
    const key = svc.keys.enterprise;
    const inner = { query_type: 'financial_state_time_series', parameters: { cik: '320193', fiscal_year_from: 2023, fiscal_year_to: 2023 } };
    const body = `{"__proto__":${JSON.stringify(inner)}}`;
    const r = await post(`${svc.baseUrl}/v1/query/execute`, body, key);
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match(r.body.error.message, /query_type/);
    const tool = await post(`${svc.baseUrl}/mcp`, rpcCall('query_execute', body), key);
    assert.equal(tool.body.error?.code, -32602, tool.text.slice(0, 300));
    const nul = await post(`${svc.baseUrl}/v1/coverage/selection/release`, '{"cik":"320193","__proto__":{"x":"a\\u0000b"}}', key);
    assert.equal(nul.status, 400, 'the shared NUL rule sees the values under the key');
    assert.match(nul.body.error.message, /NUL/);
  });

  it('answers CONNECT with a 405 envelope and an X-Trace-Id instead of dropping the connection unanswered', async () => {
    const answer = await rawExchange(svc.running.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 405 /);
    assert.match(head!, /\r\nx-trace-id: [0-9a-f]{32}\r\n/);
    assert.match(head!, /\r\nallow: GET, HEAD, POST, OPTIONS\r\n/);
    const error = JSON.parse(body!).error;
    assert.equal(error.code, 'METHOD_NOT_ALLOWED');
    assert.equal(error.http_status, 405);
  });
});
