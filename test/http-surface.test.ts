import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { z } from 'zod';
import { createApiKey } from '../db/keys.ts';
import { ALL_TOOLS } from '../tools/index.ts';
import { openApiPath } from '../routes/openapi.ts';
import { defineTool } from '../api/define-tool.ts';
import { Cik, IsoDate, PageParams } from '../api/schemas.ts';
import { get, post } from './helpers/http.ts';
import { listenWithFixtures, startTestService, type TestService } from './helpers/service.ts';
import { LISTED_TOOL_NAMES } from './helpers/tool-names.ts';
import { startOfBudgetWindow } from './helpers/budget-window.ts';
import { RATE_LIMITS } from '../domain/plans.ts';

/**
 * Test-only definitions, mounted on a second server built from ALL_TOOLS plus these: they let the
 * generated surface be checked for a Growth-gated route and a POST route before the issues that
 * bring real ones. They never enter the registry.
 */
const echoParams = defineTool({
  name: 'test.echo_params',
  title: 'Echo parsed parameters',
  description: 'Test fixture: returns the parameters as the generated HTTP parsing produced them.',
  http: { method: 'GET', path: '/v1/test/echo/{cik}' },
  tool: false,
  plan: 'free',
  input: z.object({
    cik: Cik,
    ciks: z.array(Cik).max(3).optional(),
    flag: z.boolean().optional(),
    year: z.number().int().optional(),
    day: IsoDate.optional(),
    ...PageParams,
  }),
  output: z.object({ input: z.record(z.string(), z.unknown()) }),
  handler: async (_ctx, input) => ({ input }),
});

const growthOnly = defineTool({
  name: 'test.growth_only',
  title: 'Growth-gated fixture',
  description: 'Test fixture: answers only to Growth keys and above, to pin the plan gate.',
  http: { method: 'GET', path: '/v1/test/growth' },
  tool: false,
  plan: 'growth',
  input: z.object({}),
  output: z.object({ ok: z.boolean() }),
  handler: async () => ({ ok: true }),
});

const postEcho = defineTool({
  name: 'test.post_echo',
  title: 'POST fixture',
  description: 'Test fixture: echoes the JSON body fields it declares, to pin body parsing and the 1 MiB limit.',
  http: { method: 'POST', path: '/v1/test/post' },
  tool: false,
  plan: 'free',
  input: z.object({ cik: Cik, note: z.string().max(2_000_000) }),
  output: z.object({ cik: z.string(), length: z.number() }),
  handler: async (_ctx, input) => ({ cik: input.cik, length: input.note.length }),
});

describe('the generated HTTP surface', () => {
  let svc: TestService;
  let fixtureServer: { baseUrl: string; close(): Promise<void> };
  let fixtures: string;

  before(async () => {
    svc = await startTestService();
    fixtureServer = await listenWithFixtures(svc.running.services, [echoParams, growthOnly, postEcho]);
    fixtures = fixtureServer.baseUrl;
  });
  after(async () => {
    await fixtureServer.close();
    await svc.close();
  });

  it('puts X-Trace-Id on a successful response and mints an X-Request-ID when none is sent', async () => {
    const r = await get(`${svc.baseUrl}/health/z`);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ok');
    assert.match(r.headers.get('x-trace-id') ?? '', /^[0-9a-f]{32}$/);
    assert.match(r.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('answers HEAD on a GET route like GET, without a body', async () => {
    const res = await fetch(`${svc.baseUrl}/health/z`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
    assert.ok(res.headers.get('x-trace-id'));
  });

  it("echoes the caller's X-Request-ID", async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies:resolve?ticker=AAPL`, svc.keys.free, { 'x-request-id': 'req-42.abc' });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-request-id'), 'req-42.abc');
  });

  it('answers an unknown route 404 in the error envelope whose trace_id equals X-Trace-Id', async () => {
    const r = await get(`${svc.baseUrl}/v1/no/such/route`, svc.keys.free);
    assert.equal(r.status, 404);
    assert.deepEqual(Object.keys(r.body.error).sort(), ['code', 'details', 'http_status', 'message', 'trace_id']);
    assert.equal(r.body.error.code, 'NOT_FOUND');
    assert.equal(r.body.error.http_status, 404);
    assert.equal(r.body.error.trace_id, r.headers.get('x-trace-id'));
  });

  it('answers a wrong method 405 with an Allow header', async () => {
    const r = await post(`${svc.baseUrl}/v1/identity/search`, '{}', svc.keys.free);
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'GET, HEAD');
    assert.equal(r.body.error.code, 'METHOD_NOT_ALLOWED');
  });

  it('refuses a missing key with 401 UNAUTHORIZED', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies:resolve?ticker=AAPL`);
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'UNAUTHORIZED');
    assert.match(r.body.error.message, /X-Api-Key/);
  });

  it('refuses a well-formed but unknown key and a malformed key with 401', async () => {
    const unknown = `fds_sk_${'A'.repeat(43)}`;
    for (const key of [unknown, 'not-a-key']) {
      const r = await get(`${svc.baseUrl}/v1/edgar/companies:resolve?ticker=AAPL`, key);
      assert.equal(r.status, 401, key);
      assert.equal(r.body.error.code, 'UNAUTHORIZED');
    }
  });

  it('refuses a plan that is too low with 403 FEATURE_NOT_AVAILABLE naming the plan required', async () => {
    const r = await get(`${fixtures}/v1/test/growth`, svc.keys.free);
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, 'FEATURE_NOT_AVAILABLE');
    assert.equal(r.body.error.details.required_plan, 'growth');
    assert.match(r.body.error.message, /Growth/);
    const ok = await get(`${fixtures}/v1/test/growth`, svc.keys.growth);
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { ok: true });
  });

  it('parses repeatable parameters, booleans, integers, dates and unpadded CIKs from the query string', async () => {
    const r = await get(`${fixtures}/v1/test/echo/320193?ciks=789019&ciks=0001318605,1045810&flag=true&year=2024&day=2024-02-29`, svc.keys.free);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.input, {
      cik: '0000320193',
      ciks: ['0000789019', '0001318605', '0001045810'],
      flag: true,
      year: 2024,
      day: '2024-02-29',
      page: 1,
      page_size: 50,
    });
  });

  it('refuses bad parameters with 400 VALIDATION_ERROR listing each failure', async () => {
    const r = await get(`${fixtures}/v1/test/echo/12345678901?flag=maybe&year=twenty&day=2023-02-29`, svc.keys.free);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    const paths = r.body.error.details.issues.map((i: { path: string }) => i.path).sort();
    assert.deepEqual(paths, ['cik', 'day', 'flag', 'year']);
  });

  it('reports one issue, not two, for a date that is not YYYY-MM-DD', async () => {
    const r = await get(`${fixtures}/v1/test/echo/320193?day=2024-13-45x`, svc.keys.free);
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.error.details.issues.map((i: { path: string; message: string }) => [i.path, i.message]), [
      ['day', 'dates are YYYY-MM-DD'],
    ]);
  });

  it('refuses a single-valued parameter given twice, and more repeated values than allowed', async () => {
    const twice = await get(`${fixtures}/v1/test/echo/320193?year=2023&year=2024`, svc.keys.free);
    assert.equal(twice.status, 400);
    assert.match(twice.body.error.message, /year was given 2 times/);
    const many = await get(`${fixtures}/v1/test/echo/320193?ciks=1,2,3,4`, svc.keys.free);
    assert.equal(many.status, 400);
    assert.equal(many.body.error.details.issues[0].path, 'ciks');
  });

  it('bounds page_size at 200 and defaults to page 1 of 50', async () => {
    const r = await get(`${svc.baseUrl}/v1/identity/search?query=inc`, svc.keys.free);
    assert.equal(r.status, 200);
    assert.equal(r.body.page, 1);
    assert.equal(r.body.page_size, 50);
    assert.equal(r.body.items.length, 50);
    assert.ok(r.body.total > 50);
    const big = await get(`${svc.baseUrl}/v1/identity/search?query=inc&page_size=201`, svc.keys.free);
    assert.equal(big.status, 400);
    assert.equal(big.body.error.details.issues[0].path, 'page_size');
  });

  it('answers a page past the end with no items and the true total', async () => {
    const first = await get(`${svc.baseUrl}/v1/identity/search?query=apple&page_size=2`, svc.keys.free);
    const far = await get(`${svc.baseUrl}/v1/identity/search?query=apple&page_size=2&page=999`, svc.keys.free);
    assert.equal(far.status, 200);
    assert.deepEqual(far.body.items, []);
    assert.equal(far.body.total, first.body.total);
  });

  it('reads a JSON body on POST routes, path parameters overriding it', async () => {
    const r = await post(`${fixtures}/v1/test/post`, JSON.stringify({ cik: '320193', note: 'abc' }), svc.keys.free);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { cik: '0000320193', length: 3 });
    const bad = await post(`${fixtures}/v1/test/post`, '{"cik":', svc.keys.free);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  });

  it('refuses a body over 1 MiB with 413 in the error envelope', async () => {
    const note = 'x'.repeat(1024 * 1024 + 10);
    const r = await post(`${fixtures}/v1/test/post`, JSON.stringify({ cik: '1', note }), svc.keys.free);
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.equal(r.body.error.trace_id, r.headers.get('x-trace-id'));
  });

  it('sends RateLimit headers and answers 429 RATE_LIMITED with Retry-After once the budget is spent', async () => {
    const { key } = await createApiKey(svc.sql, 'budget-org', 'free');
    await startOfBudgetWindow(RATE_LIMITS.free.standard.window_s);
    const url = `${svc.baseUrl}/v1/edgar/companies:resolve?ticker=MSFT`;
    const firstReply = await get(url, key);
    assert.equal(firstReply.headers.get('ratelimit-policy'), '"standard";q=60;w=60');
    assert.match(firstReply.headers.get('ratelimit') ?? '', /^"standard";r=59;t=\d+$/);
    for (let i = 1; i < 60; i++) assert.equal((await get(url, key)).status, 200);
    const r = await get(url, key);
    assert.equal(r.status, 429);
    assert.equal(r.body.error.code, 'RATE_LIMITED');
    const retryAfter = Number(r.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.match(r.headers.get('ratelimit') ?? '', /^"standard";r=0;t=\d+$/);
    // another key of the same plan has its own budget
    assert.equal((await get(url, svc.keys.free)).status, 200);
  });

  it('serves an OpenAPI 3.1 document that covers every registered route', async () => {
    const r = await get(`${svc.baseUrl}/openapi.json`);
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, '3.1.0');
    for (const def of ALL_TOOLS) {
      const op = r.body.paths[openApiPath(def.http.path)]?.[def.http.method.toLowerCase()];
      assert.ok(op, `${def.http.method} ${def.http.path} missing`);
      assert.equal(op.operationId, def.name);
      assert.equal(op['x-required-plan'], def.plan);
    }
    const resolve = r.body.paths['/v1/edgar/companies:resolve'].get;
    assert.deepEqual(resolve.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required]), [
      ['ticker', 'query', true],
      ['as_of', 'query', false],
    ]);
  });

  it('documents the non-200 successes in OpenAPI: 202 while a snapshot build computes, 503 while not ready', async () => {
    const r = await get(`${svc.baseUrl}/openapi.json`);
    const withOther = ALL_TOOLS.filter((d) => d.httpStatus);
    assert.ok(withOther.length >= 2);
    for (const def of withOther) {
      const op = r.body.paths[openApiPath(def.http.path)][def.http.method.toLowerCase()];
      for (const status of Object.keys(def.httpStatus!.documented)) {
        assert.ok(op.responses[status], `${def.name}: ${status} missing`);
        // the same body as the 200 answer, not the error envelope
        assert.deepEqual(op.responses[status].content['application/json'].schema, op.responses['200'].content['application/json'].schema, `${def.name} ${status}`);
      }
    }
    const build = withOther.find((d) => d.httpStatus!.of({ status: 'computing' } as never) === 202);
    assert.ok(build, 'a definition answers 202 while computing');
    assert.ok(r.body.paths[openApiPath(build.http.path)][build.http.method.toLowerCase()].responses['202']);
    assert.ok(r.body.paths['/health/readiness'].get.responses['503'].description.startsWith('Not ready'));
  });

  it('serves a browsable reference page listing every route', async () => {
    const r = await get(`${svc.baseUrl}/docs`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
    for (const def of ALL_TOOLS) assert.ok(r.text.includes(openApiPath(def.http.path)), def.http.path);
  });

  it('serves the tool-server manifest without a key, with plans and rate limits', async () => {
    const r = await get(`${svc.baseUrl}/mcp/manifest`);
    assert.equal(r.status, 200);
    const names = r.body.tools.map((t: { name: string }) => t.name);
    assert.deepEqual([...names].sort(), [...LISTED_TOOL_NAMES]);
    for (const t of r.body.tools) {
      assert.equal(t.input_schema.type, 'object');
      assert.equal(t.required_plan, ALL_TOOLS.find((d) => d.name.replace(/\./g, '_') === t.name)!.plan, t.name);
    }
    assert.deepEqual(r.body.rate_limits.free.tool_server, { requests: 60, window_seconds: 60 });
    assert.deepEqual(Object.keys(r.body.rate_limits), ['free', 'growth', 'scale', 'enterprise']);
  });

  it('reports readiness with the database and migrations checked, without a key', async () => {
    const r = await get(`${svc.baseUrl}/health/readiness`);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ready');
    assert.equal(r.body.checks.database.ok, true);
    assert.equal(r.body.checks.migrations.applied, r.body.checks.migrations.expected);
  });

  it("reports the caller's plan, budgets and coverage mode in system metadata", async () => {
    const free = await get(`${svc.baseUrl}/v1/system/metadata`, svc.keys.free);
    assert.equal(free.status, 200);
    assert.equal(free.body.data.plan, 'free');
    assert.deepEqual(free.body.data.coverage, { mode: 'selected', limit: 25, window_days: 30 });
    // 46 issuers with submissions, 18 known only from their company facts, 4 only from filing packages
    assert.equal(free.body.data.corpus.companies, 68);
    const scale = await get(`${svc.baseUrl}/v1/system/metadata`, svc.keys.scale);
    assert.deepEqual(scale.body.data.coverage, { mode: 'full', limit: null, window_days: null });
    assert.deepEqual(scale.body.data.rate_limits.bulk, { requests: 120, window_seconds: 60 });
  });

  it('answers data routes 503 with Retry-After and readiness 503 "loading" while data is loading, ingestion status 200', async () => {
    const status = svc.running.services.status;
    status.phase = 'loading';
    status.progress = 'reading submissions 3/46';
    try {
      const ready = await get(`${svc.baseUrl}/health/readiness`);
      assert.equal(ready.status, 503);
      assert.equal(ready.body.status, 'loading');
      assert.equal(ready.body.checks.data.progress, 'reading submissions 3/46');
      const data = await get(`${svc.baseUrl}/v1/edgar/companies:resolve?ticker=AAPL`, svc.keys.free);
      assert.equal(data.status, 503);
      assert.equal(data.body.error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(data.headers.get('retry-after'), '10');
      assert.equal((await get(`${svc.baseUrl}/health/z`)).status, 200, 'liveness is unaffected');
      const progress = await get(`${svc.baseUrl}/v1/system/ingestion/status`, svc.keys.free);
      assert.equal(progress.status, 200, 'ingestion progress stays readable while loading');
      assert.equal(progress.body.data.phase, 'loading');
      assert.equal(progress.body.data.progress, 'reading submissions 3/46');
    } finally {
      status.phase = 'ready';
      status.progress = null;
    }
  });

  it('logs one structured JSON line per request (pino) with route, status, org, plan, error code, latency and trace id when LOG_REQUESTS is on', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const services = { ...svc.running.services, logger, config: { ...svc.running.services.config, logRequests: true } };
    const logged = await listenWithFixtures(services, []);
    try {
      const r = await get(`${logged.baseUrl}/v1/no/such/route?secret=x`, svc.keys.free);
      const ok = await get(`${logged.baseUrl}/v1/edgar/companies:resolve?ticker=AAPL`, svc.keys.free);
      await new Promise((resolve) => setImmediate(resolve));
      const entries = lines.map((l) => JSON.parse(l));
      const missing = entries.find((e) => e.path === '/v1/no/such/route')!;
      assert.equal(missing.status, 404);
      assert.equal(missing.level, 40, '4xx log at warn');
      assert.ok(!lines.some((l) => l.includes('secret=x')), 'query strings are not logged');
      assert.equal(missing.trace_id, r.headers.get('x-trace-id'));
      assert.equal(typeof missing.latency_ms, 'number');
      const served = entries.find((e) => e.route === 'companies.resolve')!;
      assert.deepEqual([served.status, served.level, served.org, served.plan, served.error_code], [200, 30, 'test-org', 'free', null]);
      assert.equal(served.trace_id, ok.headers.get('x-trace-id'));
    } finally {
      await logged.close();
    }
  });
});
