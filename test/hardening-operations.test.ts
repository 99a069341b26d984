import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { z } from 'zod';
import type { AddressInfo } from 'node:net';
import { ALL_TOOLS } from '../tools/index.ts';
import { defineTool } from '../api/define-tool.ts';
import { drainServer } from '../routes/lifecycle.ts';
import { createHttpServer } from '../routes/server.ts';
import { SERVER_INFO } from '../service.ts';
import { get, post } from './helpers/http.ts';
import { listenWithFixtures, startTestService, type TestService } from './helpers/service.ts';

/** node's client: no automatic decompression, any method, raw headers and bytes. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let headRuns = 0;
const countedTool = defineTool({
  name: 'test.counted',
  title: 'Counts its runs',
  description: 'Test fixture: counts how often its handler runs, to pin that HEAD runs it once.',
  http: { method: 'GET', path: '/v1/test/counted' },
  tool: false,
  plan: 'free',
  input: z.object({}),
  output: z.object({ runs: z.number().int() }),
  handler: async () => ({ runs: ++headRuns }),
});

describe('operations: HTTP hygiene, observability', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc?.close();
  });

  it('compresses with br or gzip over the threshold, identical once decompressed, and leaves small bodies alone', async () => {
    const plain = await raw(`${svc.baseUrl}/openapi.json`);
    assert.equal(plain.headers['content-encoding'], undefined);
    const gz = await raw(`${svc.baseUrl}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gz.body.length * 5 < plain.body.length, `gzip ${gz.body.length} vs ${plain.body.length} bytes`);
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    const br = await raw(`${svc.baseUrl}/v1/edgar/companies/320193/statements?page_size=50`, { headers: { 'x-api-key': svc.keys.free, 'accept-encoding': 'gzip, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /accept-encoding/);
    assert.equal(JSON.parse(brotliDecompressSync(br.body).toString()).page, 1);
    const small = await raw(`${svc.baseUrl}/health/z`, { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(small.headers['content-encoding'], undefined, 'a body under the threshold is sent as is');
  });

  it('serves a kept (prepared) statement payload br, gzip and plain with one ETag, each identical once decompressed, again and again', async () => {
    const url = `${svc.baseUrl}/v1/fundamentals/normalized-statements?cik=320193&statement_type=INCOME_STATEMENT&fiscal_year=2022&fiscal_period=FY`;
    const headers = (enc?: string) => ({ 'x-api-key': svc.keys.free, ...(enc ? { 'accept-encoding': enc } : {}) });
    const plain = await raw(url, { headers: headers() });
    assert.equal(plain.status, 200);
    for (let round = 0; round < 2; round++) {
      const br = await raw(url, { headers: headers('br') });
      const gz = await raw(url, { headers: headers('gzip') });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.deepEqual(brotliDecompressSync(br.body), plain.body);
      assert.deepEqual(gunzipSync(gz.body), plain.body);
      assert.equal(br.headers.etag, plain.headers.etag);
      assert.equal(gz.headers.etag, plain.headers.etag);
      assert.equal(Number(br.headers['content-length']), br.body.length);
    }
    const again = await raw(url, { headers: { ...headers('br'), 'if-none-match': String(plain.headers.etag) } });
    assert.equal(again.status, 304);
  });

  it('serves reads keyed by a statement version id with ETag and Cache-Control immutable, and 304 on If-None-Match', async () => {
    const statement = await get(`${svc.baseUrl}/v1/fundamentals/normalized-statements?cik=320193&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`, svc.keys.free);
    const id = statement.body.data.statement_version_id;
    const url = `${svc.baseUrl}/v1/edgar/statements/${id}/metrics/REVENUE/provenance`;
    const first = await get(url, svc.keys.free);
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^W\/"[\w-]+"$/);
    assert.equal(first.headers.get('cache-control'), 'private, max-age=31536000, immutable');
    const again = await raw(url, { headers: { 'x-api-key': svc.keys.free, 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, etag);
    const changed = await get(url, svc.keys.free, { 'if-none-match': 'W/"other"' });
    assert.equal(changed.status, 200, 'a different tag gets the body');
    const revisions = await get(`${svc.baseUrl}/v1/edgar/statements/${id}/fact-revisions`, svc.keys.free);
    assert.equal(revisions.headers.get('cache-control'), 'private, max-age=31536000, immutable');
    const listing = await get(`${svc.baseUrl}/v1/edgar/restatement-alerts`, svc.keys.growth);
    assert.equal(listing.headers.get('cache-control'), 'private, no-cache', 'lists that grow are revalidated');
    assert.ok(listing.headers.get('etag'));
  });

  it('answers CORS preflights and reads for the origins of CORS_ORIGINS only', async () => {
    const services = { ...svc.running.services, config: { ...svc.running.services.config, corsOrigins: ['https://app.example'] } };
    const server = await listenWithFixtures(services, []);
    try {
      const preflight = await raw(`${server.baseUrl}/v1/identity/search?query=apple`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example');
      assert.match(String(preflight.headers['access-control-allow-headers']), /x-api-key/);
      assert.match(String(preflight.headers['access-control-allow-methods']), /GET/);
      const read = await get(`${server.baseUrl}/v1/identity/search?query=apple`, svc.keys.free, { origin: 'https://app.example' });
      assert.equal(read.headers.get('access-control-allow-origin'), 'https://app.example');
      assert.match(read.headers.get('access-control-expose-headers')!, /x-trace-id/);
      const foreign = await raw(`${server.baseUrl}/v1/identity/search?query=apple`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      assert.equal(foreign.status, 204);
      assert.equal(foreign.headers['access-control-allow-origin'], undefined, 'an origin not listed gets no CORS grant');
    } finally {
      await server.close();
    }
  });

  it('answers HEAD on every GET (documents included) with the GET headers and no body, running the handler once and spending no budget', async () => {
    for (const p of ['/docs', '/openapi.json', '/mcp/manifest', '/health/z']) {
      const g = await raw(`${svc.baseUrl}${p}`);
      const h = await raw(`${svc.baseUrl}${p}`, { method: 'HEAD' });
      assert.equal(h.status, 200, p);
      assert.equal(h.body.length, 0, p);
      assert.equal(h.headers['content-length'], g.headers['content-length'], p);
      assert.equal(h.headers['content-type'], g.headers['content-type'], p);
    }
    const server = await listenWithFixtures(svc.running.services, [countedTool]);
    try {
      const key = (await import('../db/keys.ts')).createApiKey;
      const fresh = (await key(svc.sql, 'head-probe', 'free')).key;
      const g1 = await get(`${server.baseUrl}/v1/test/counted`, fresh);
      const before = headRuns;
      const h = await raw(`${server.baseUrl}/v1/test/counted`, { method: 'HEAD', headers: { 'x-api-key': fresh } });
      assert.equal(headRuns - before, 1, 'HEAD runs the handler exactly once');
      assert.equal(h.headers.ratelimit, g1.headers.get('ratelimit'), 'HEAD counts nothing: the same budget is left');
      const g2 = await get(`${server.baseUrl}/v1/test/counted`, fresh);
      assert.match(g2.headers.get('ratelimit')!, /r=58;/, 'the next GET is the second one counted');
      const unauthorized = await raw(`${server.baseUrl}/v1/test/counted`, { method: 'HEAD' });
      assert.equal(unauthorized.status, 401, 'HEAD needs the key GET needs');
    } finally {
      await server.close();
    }
  });

  it('sends WWW-Authenticate with a 401', async () => {
    const r = await get(`${svc.baseUrl}/v1/system/metadata`);
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), 'ApiKey realm="fds", header="X-Api-Key"');
  });

  it('refuses an unknown query parameter with 400 naming the accepted ones (a typo no longer widens the answer)', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies/320193/financial-state/time-series?fiscal_yr_from=2020`, svc.keys.free);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.match(r.body.error.message, /Unknown query parameter "fiscal_yr_from"; this route accepts .*fiscal_year_from/);
    assert.deepEqual(r.body.error.details.unknown_parameters, ['fiscal_yr_from']);
    assert.ok(!r.body.error.details.accepted_parameters.includes('cik'), 'path parameters are not offered as query parameters');
  });

  it('takes the trace id from a W3C traceparent and makes a new one when it is malformed', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const r = await get(`${svc.baseUrl}/v1/no/such/route`, svc.keys.free, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    assert.equal(r.headers.get('x-trace-id'), traceId);
    assert.equal(r.body.error.trace_id, traceId);
    for (const bad of ['00-00000000000000000000000000000000-00f067aa0ba902b7-01', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'garbage']) {
      const other = await get(`${svc.baseUrl}/health/z`, undefined, { traceparent: bad });
      assert.match(other.headers.get('x-trace-id')!, /^[0-9a-f]{32}$/);
      assert.notEqual(other.headers.get('x-trace-id'), traceId);
    }
  });

  it('exposes Prometheus metrics: requests by route and status, latency histograms, tool calls, the database pool, ingestion and export runs', async () => {
    await get(`${svc.baseUrl}/v1/edgar/companies:resolve?ticker=AAPL`, svc.keys.free);
    await post(`${svc.baseUrl}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'companies_resolve', arguments: { ticker: 'MSFT' } } }), svc.keys.free);
    const m = await get(`${svc.baseUrl}/metrics`);
    assert.equal(m.status, 200);
    assert.match(m.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    assert.match(m.text, /fds_http_requests_total\{route="companies\.resolve",method="GET",status="200"\} \d+/);
    assert.match(m.text, /fds_http_request_duration_seconds_bucket\{le="0\.1",route="companies\.resolve",method="GET"\} \d+/);
    assert.match(m.text, /fds_tool_calls_total\{tool="companies_resolve",outcome="ok"\} 1/);
    assert.match(m.text, /fds_db_pool_max \d+/);
    assert.match(m.text, /fds_db_up 1/);
    assert.match(m.text, /fds_db_connections\{state="\w+"\} \d+/);
    assert.match(m.text, /fds_ingestion_runs\{status="succeeded"\} \d+/);
    assert.match(m.text, /# TYPE fds_export_snapshots gauge/);
    assert.match(m.text, /fds_http_requests_in_flight \d+/);
  });

  it('with METRICS_TOKEN set, /metrics answers 401 without the bearer token or with a wrong one, and 200 with it', async () => {
    const config = svc.running.services.config as { metricsToken: string | null };
    config.metricsToken = 's3cret-scrape-token';
    try {
      const none = await get(`${svc.baseUrl}/metrics`);
      assert.equal(none.status, 401);
      assert.equal(none.body.error.code, 'UNAUTHORIZED');
      assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer /);
      assert.doesNotMatch(none.text, /fds_http_requests_total/);
      const wrong = await get(`${svc.baseUrl}/metrics`, undefined, { authorization: 'Bearer s3cret-scrape-tokeN' });
      assert.equal(wrong.status, 401);
      const prefix = await get(`${svc.baseUrl}/metrics`, undefined, { authorization: 'Bearer s3cret' });
      assert.equal(prefix.status, 401);
      const right = await get(`${svc.baseUrl}/metrics`, undefined, { authorization: 'Bearer s3cret-scrape-token' });
      assert.equal(right.status, 200);
      assert.match(right.text, /fds_http_requests_total/);
    } finally {
      config.metricsToken = null;
    }
    assert.equal((await get(`${svc.baseUrl}/metrics`)).status, 200);
  });
});

let releaseGate: () => void = () => {};
const gate = new Promise<void>((resolve) => (releaseGate = resolve));
const slowTool = defineTool({
  name: 'test.slow',
  title: 'Waits for the test',
  description: 'Test fixture: answers once the test opens the gate, so requests are surely in flight.',
  http: { method: 'GET', path: '/v1/test/slow' },
  tool: false,
  plan: 'free',
  input: z.object({}),
  output: z.object({ ok: z.boolean() }),
  handler: async () => {
    await gate;
    return { ok: true };
  },
});

describe('operations: graceful shutdown', () => {
  it('on shutdown turns readiness 503, finishes 200 requests in flight, then refuses new connections', async () => {
    const svc = await startTestService({ rateLimits: false });
    const services = { ...svc.running.services, status: { ...svc.running.services.status } };
    const server = createHttpServer(services, [...ALL_TOOLS, slowTool], SERVER_INFO);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const inFlight = Array.from({ length: 200 }, () => get(`${base}/v1/test/slow`, svc.keys.enterprise));
      while (server.inFlight() < 200) await new Promise((resolve) => setTimeout(resolve, 5));
      const draining = drainServer(server, services.status, { delayMs: 300, timeoutMs: 30_000 });
      const readiness = await get(`${base}/health/readiness`);
      assert.deepEqual([readiness.status, readiness.body.status], [503, 'draining'], 'readiness turns 503 at once');
      releaseGate();
      const { forced } = await draining;
      assert.equal(forced, false, 'everything finished within the timeout');
      const answers = await Promise.all(inFlight);
      assert.deepEqual([...new Set(answers.map((a) => a.status))], [200], 'all 200 requests in flight were answered');
      await assert.rejects(get(`${base}/health/z`), 'the listener is closed');
    } finally {
      releaseGate();
      server.closeAllConnections();
      await svc.close();
    }
  });

  it('closes the database only after the drain (the whole stop sequence of SIGTERM)', async () => {
    const svc = await startTestService();
    const { forced } = await svc.running.close({ delayMs: 0, timeoutMs: 5000 });
    assert.equal(forced, false);
    await assert.rejects(get(`${svc.baseUrl}/health/z`), 'the listener is closed');
    await assert.rejects(svc.running.services.sql`SELECT 1`, 'the database is closed');
  });
});
