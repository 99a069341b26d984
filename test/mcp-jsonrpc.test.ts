import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request as httpRequest } from 'node:http';
import { createApiKey } from '../db/keys.ts';
import { API_KEY_PREFIX } from '../domain/api-key.ts';
import { RATE_LIMITS } from '../domain/plans.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { LISTED_TOOL_NAMES, WRITING_TOOL_NAMES } from './helpers/tool-names.ts';
import { startOfBudgetWindow } from './helpers/budget-window.ts';

/**
 * The tool server's JSON-RPC 2.0 framing at POST /mcp, over raw HTTP: what the wire looks like for
 * every outcome an MCP client can meet, so a change to tools/jsonrpc.ts or routes/server.ts that
 * alters it fails here.
 */

let svc: TestService;

before(async () => {
  svc = await startTestService();
});

after(async () => {
  await svc?.close();
});

type Json = Record<string, unknown>;

interface RawReply {
  status: number;
  headers: Headers;
  text: string;
}

async function postRaw(body: string, headers: Record<string, string> = {}): Promise<RawReply> {
  const res = await fetch(`${svc.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** POST one JSON value; expects HTTP 200 with a JSON body and returns it parsed. */
async function rpc(payload: unknown, headers: Record<string, string> = {}): Promise<any> {
  const r = await postRaw(JSON.stringify(payload), headers);
  assert.equal(r.status, 200, `expected HTTP 200, got ${r.status}: ${r.text}`);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  return JSON.parse(r.text);
}

let nextId = 1;
function call(method: string, params?: Json, id: string | number = nextId++): Json {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

function toolsCall(name: string, args?: Json, id?: string | number): Json {
  return call('tools/call', args === undefined ? { name } : { name, arguments: args }, id);
}

const FAILURE_KEYS = ['http_code', 'http_status', 'message', 'retry_after_s', 'retryable', 'trace_id', 'type'];

/** A tool that ran and failed: isError, no structuredContent, one text item holding the failure JSON. */
function failureOf(response: any): Json {
  assert.equal(response.jsonrpc, '2.0');
  assert.equal(response.error, undefined, `expected a result, got error ${JSON.stringify(response.error)}`);
  const result = response.result;
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent, undefined);
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  const body = JSON.parse(result.content[0].text) as Json;
  assert.deepEqual(
    Object.keys(body).filter((k) => k !== 'details').sort(),
    FAILURE_KEYS,
    `failure keys: ${Object.keys(body).join(', ')}`,
  );
  assert.equal(typeof body.type, 'string');
  assert.equal(typeof body.message, 'string');
  assert.ok((body.message as string).length > 0);
  assert.equal(typeof body.retryable, 'boolean');
  assert.equal(typeof body.http_status, 'number');
  assert.equal(typeof body.http_code, 'string');
  assert.equal(typeof body.trace_id, 'string');
  assert.ok((body.trace_id as string).length > 0, 'trace_id is non-empty');
  assert.ok(body.retry_after_s === null || typeof body.retry_after_s === 'number');
  return body;
}

describe('initialize, ping and tools/list', () => {
  for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
    it(`initialize with protocolVersion ${version} is answered with ${version}`, async () => {
      const res = await rpc(
        call('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'test', version: '0' } }, 'init-1'),
      );
      assert.equal(res.jsonrpc, '2.0');
      assert.equal(res.id, 'init-1');
      assert.equal(res.result.protocolVersion, version);
    });
  }

  it('initialize with an unsupported protocolVersion (1999-01-01) is answered with 2025-06-18', async () => {
    const res = await rpc(call('initialize', { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 't', version: '0' } }, 7));
    assert.equal(res.id, 7);
    assert.equal(res.result.protocolVersion, '2025-06-18');
  });

  it('initialize without a key returns serverInfo with name and version and a tools capability', async () => {
    const res = await rpc(call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } }));
    const { serverInfo, capabilities } = res.result;
    assert.equal(typeof serverInfo.name, 'string');
    assert.ok(serverInfo.name.length > 0);
    assert.equal(typeof serverInfo.version, 'string');
    assert.ok(serverInfo.version.length > 0);
    assert.equal(typeof capabilities, 'object');
    assert.equal(typeof capabilities.tools, 'object');
    assert.notEqual(capabilities.tools, null);
  });

  it('ping without a key is answered with an empty result object', async () => {
    const res = await rpc(call('ping', undefined, 'p-1'));
    assert.deepEqual(res, { jsonrpc: '2.0', id: 'p-1', result: {} });
  });

  it('tools/list without a key lists every tool with name, title, description, object inputSchema, outputSchema and readOnlyHint', async () => {
    const res = await rpc(call('tools/list'));
    const tools = res.result.tools as any[];
    assert.deepEqual(tools.map((t) => t.name).sort(), [...LISTED_TOOL_NAMES]);
    for (const t of tools) {
      assert.equal(typeof t.title, 'string', `${t.name}.title`);
      assert.ok(t.title.length > 0);
      assert.equal(typeof t.description, 'string', `${t.name}.description`);
      assert.ok(t.description.length > 0);
      assert.equal(t.inputSchema.type, 'object', `${t.name}.inputSchema.type`);
      assert.equal(typeof t.outputSchema, 'object', `${t.name}.outputSchema`);
      assert.equal(t.outputSchema.type, 'object', `${t.name}.outputSchema.type`);
      assert.equal(t.annotations.readOnlyHint, !WRITING_TOOL_NAMES.includes(t.name), `${t.name}.annotations.readOnlyHint`);
    }
    const resolve = tools.find((t) => t.name === 'companies_resolve');
    assert.ok(resolve.inputSchema.properties.ticker, 'companies_resolve takes a ticker');
    assert.ok(resolve.inputSchema.properties.as_of, 'companies_resolve takes as_of');
    assert.deepEqual(resolve.inputSchema.required, ['ticker']);
  });
});

describe('tools/call results', () => {
  it('a successful companies_resolve returns text content whose JSON equals structuredContent, with isError false', async () => {
    const res = await rpc(toolsCall('companies_resolve', { ticker: 'AAPL' }, 'c-1'), { 'X-Api-Key': svc.keys.free });
    assert.equal(res.id, 'c-1');
    const result = res.result;
    assert.deepEqual(Object.keys(result).sort(), ['content', 'isError', 'structuredContent']);
    assert.equal(result.isError, false);
    assert.equal(result.content.length, 1);
    assert.equal(result.content[0].type, 'text');
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
    assert.equal(result.structuredContent.cik, '0000320193');
    assert.equal(result.structuredContent.ticker, 'AAPL');
    assert.match(result.structuredContent.as_of, /^\d{4}-\d{2}-\d{2}$/);
  });

  it('system_health is callable without a key and reports ready', async () => {
    const res = await rpc(toolsCall('system_health', {}));
    assert.equal(res.result.isError, false);
    assert.equal(res.result.structuredContent.status, 'ready');
    assert.deepEqual(JSON.parse(res.result.content[0].text), res.result.structuredContent);
  });

  it('system_metadata with a key reports the plan and the tool_server budget of that plan', async () => {
    const res = await rpc(toolsCall('system_metadata'), { 'X-Api-Key': svc.keys.growth });
    assert.equal(res.result.isError, false);
    const data = res.result.structuredContent.data;
    assert.equal(data.plan, 'growth');
    assert.deepEqual(data.rate_limits.tool_server, {
      requests: RATE_LIMITS.growth.tool_server.limit,
      window_seconds: RATE_LIMITS.growth.tool_server.window_s,
    });
  });

  it('a tools/call without a key is isError with http_status 401 and http_code UNAUTHORIZED', async () => {
    const body = failureOf(await rpc(toolsCall('companies_resolve', { ticker: 'AAPL' })));
    assert.equal(body.http_status, 401);
    assert.equal(body.http_code, 'UNAUTHORIZED');
    assert.equal(body.type, 'authentication');
    assert.equal(body.retryable, false);
  });

  it('a tools/call with a malformed key is isError with http_status 401 and http_code UNAUTHORIZED', async () => {
    const body = failureOf(await rpc(toolsCall('companies_resolve', { ticker: 'AAPL' }), { 'X-Api-Key': 'not-a-key' }));
    assert.equal(body.http_status, 401);
    assert.equal(body.http_code, 'UNAUTHORIZED');
    assert.equal(body.retryable, false);
  });

  it('a tools/call with a well-formed but unknown key is isError with http_status 401 and http_code UNAUTHORIZED', async () => {
    const unknown = `${API_KEY_PREFIX}${'A'.repeat(43)}`;
    const body = failureOf(await rpc(toolsCall('companies_resolve', { ticker: 'AAPL' }), { 'X-Api-Key': unknown }));
    assert.equal(body.http_status, 401);
    assert.equal(body.http_code, 'UNAUTHORIZED');
    assert.equal(body.retryable, false);
  });

  it('an unknown ticker (ZZZZZQ) is isError with 404 NOT_FOUND, not retryable, and a non-empty trace_id', async () => {
    const r = await postRaw(JSON.stringify(toolsCall('companies_resolve', { ticker: 'ZZZZZQ' })), { 'X-Api-Key': svc.keys.free });
    assert.equal(r.status, 200);
    const body = failureOf(JSON.parse(r.text));
    assert.equal(body.http_status, 404);
    assert.equal(body.http_code, 'NOT_FOUND');
    assert.equal(body.type, 'not_found');
    assert.equal(body.retryable, false);
    assert.equal(body.retry_after_s, null);
    assert.match(body.message as string, /ZZZZZQ/);
    assert.equal(body.trace_id, r.headers.get('x-trace-id'), 'trace_id is the one of the HTTP exchange');
  });

  it('the 61st tools/call in a minute on a fresh Free key is isError RATE_LIMITED, retryable, with a positive retry_after_s', async () => {
    const budget = RATE_LIMITS.free.tool_server;
    assert.equal(budget.limit, 60);
    const { key } = await createApiKey(svc.sql, 'rl-org', 'free');
    await startOfBudgetWindow(RATE_LIMITS.free.tool_server.window_s);
    for (let i = 1; i <= budget.limit; i++) {
      const res = await rpc(toolsCall('system_metadata', {}, `rl-${i}`), { 'X-Api-Key': key });
      assert.equal(res.result.isError, false, `call ${i} of ${budget.limit} should succeed: ${res.result.content[0].text}`);
    }
    const res = await rpc(toolsCall('companies_resolve', { ticker: 'AAPL' }, 'rl-61'), { 'X-Api-Key': key });
    assert.equal(res.id, 'rl-61');
    const body = failureOf(res);
    assert.equal(body.http_code, 'RATE_LIMITED');
    assert.equal(body.http_status, 429);
    assert.equal(body.type, 'rate_limit');
    assert.equal(body.retryable, true);
    assert.equal(typeof body.retry_after_s, 'number');
    assert.ok((body.retry_after_s as number) > 0, `retry_after_s ${body.retry_after_s}`);
    assert.ok((body.retry_after_s as number) <= budget.window_s);
  });
});

describe('JSON-RPC errors', () => {
  it('invalid JSON is answered -32700 with HTTP 200 and id null', async () => {
    const r = await postRaw('{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(r.status, 200);
    const res = JSON.parse(r.text);
    assert.equal(res.jsonrpc, '2.0');
    assert.equal(res.id, null);
    assert.equal(res.error.code, -32700);
    assert.equal(typeof res.error.message, 'string');
    assert.equal(res.result, undefined);
  });

  it('an object without jsonrpc "2.0" is answered -32600', async () => {
    const res = await rpc({ id: 3, method: 'ping' });
    assert.equal(res.error.code, -32600);
    assert.equal(res.id, 3);
    const wrong = await rpc({ jsonrpc: '1.0', id: 4, method: 'ping' });
    assert.equal(wrong.error.code, -32600);
    assert.equal(wrong.id, 4);
  });

  it('an object without a method is answered -32600 with its id echoed', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 'no-method' });
    assert.deepEqual(Object.keys(res).sort(), ['error', 'id', 'jsonrpc']);
    assert.equal(res.id, 'no-method');
    assert.equal(res.error.code, -32600);
  });

  it('a JSON value that is not an object (a number) is answered -32600 with id null', async () => {
    const res = await rpc(42);
    assert.equal(res.id, null);
    assert.equal(res.error.code, -32600);
  });

  it('an empty batch is answered -32600 with HTTP 200', async () => {
    const r = await postRaw('[]');
    assert.equal(r.status, 200);
    const res = JSON.parse(r.text);
    assert.ok(!Array.isArray(res), 'a single error object, not an array');
    assert.equal(res.id, null);
    assert.equal(res.error.code, -32600);
  });

  it('an unknown method is answered -32601 with the request id echoed', async () => {
    const res = await rpc(call('resources/list', {}, 'unknown-1'));
    assert.equal(res.id, 'unknown-1');
    assert.equal(res.error.code, -32601);
    assert.match(res.error.message, /resources\/list/);
    const numeric = await rpc(call('no/such/method', undefined, 99));
    assert.equal(numeric.id, 99);
    assert.equal(numeric.error.code, -32601);
  });

  it('an unknown tool is answered -32602 listing the available tools', async () => {
    const res = await rpc(toolsCall('no_such_tool', {}, 'ut-1'), { 'X-Api-Key': svc.keys.free });
    assert.equal(res.id, 'ut-1');
    assert.equal(res.result, undefined);
    assert.equal(res.error.code, -32602);
    assert.match(res.error.message, /no_such_tool/);
    assert.deepEqual([...res.error.data.available].sort(), [...LISTED_TOOL_NAMES]);
  });

  it('arguments failing validation (bad ticker chars, impossible as_of date) are answered -32602 with two issues and their paths', async () => {
    const res = await rpc(toolsCall('companies_resolve', { ticker: 'AA$PL!', as_of: '2024-02-30' }, 'v-1'), { 'X-Api-Key': svc.keys.free });
    assert.equal(res.id, 'v-1');
    assert.equal(res.result, undefined);
    assert.equal(res.error.code, -32602);
    assert.match(res.error.message, /companies_resolve/);
    const issues = res.error.data.issues as { path: string; message: string; code: string }[];
    assert.equal(issues.length, 2, JSON.stringify(issues));
    assert.deepEqual(issues.map((i) => i.path).sort(), ['as_of', 'ticker']);
    for (const i of issues) {
      assert.equal(typeof i.message, 'string');
      assert.ok(i.message.length > 0);
      assert.equal(typeof i.code, 'string');
    }
    assert.match(issues.find((i) => i.path === 'ticker')!.message, /ticker/);
    assert.match(issues.find((i) => i.path === 'as_of')!.message, /calendar date/);
  });

  it('a malformed as_of (not YYYY-MM-DD) next to a bad ticker is answered -32602 with issues on exactly those two paths', async () => {
    const res = await rpc(toolsCall('companies_resolve', { ticker: 'AA$PL!', as_of: '13/45/2024' }), { 'X-Api-Key': svc.keys.free });
    assert.equal(res.error.code, -32602);
    const issues = res.error.data.issues as { path: string; message: string }[];
    assert.deepEqual([...new Set(issues.map((i) => i.path))].sort(), ['as_of', 'ticker']);
    assert.ok(issues.some((i) => i.path === 'as_of' && /YYYY-MM-DD/.test(i.message)), JSON.stringify(issues));
  });

  it('a missing required argument is answered -32602 naming the missing path', async () => {
    const res = await rpc(toolsCall('companies_resolve', {}), { 'X-Api-Key': svc.keys.free });
    assert.equal(res.error.code, -32602);
    assert.deepEqual(
      (res.error.data.issues as { path: string }[]).map((i) => i.path),
      ['ticker'],
    );
  });

  it('a tools/call without a name is answered -32602', async () => {
    const res = await rpc(call('tools/call', { arguments: {} }, 'nn-1'));
    assert.equal(res.id, 'nn-1');
    assert.equal(res.error.code, -32602);
  });
});

describe('notifications and batches', () => {
  it('a notification (notifications/initialized, no id) is answered HTTP 202 with an empty body', async () => {
    const r = await postRaw(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    assert.equal(r.status, 202);
    assert.equal(r.text, '');
  });

  it('a batch of only notifications is answered HTTP 202 with an empty body', async () => {
    const r = await postRaw(
      JSON.stringify([
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'test' } },
      ]),
    );
    assert.equal(r.status, 202);
    assert.equal(r.text, '');
  });

  it('a non-empty batch is answered with an array of responses matched by id, with no entry for notifications', async () => {
    const res = await rpc(
      [
        call('ping', undefined, 'b-ping'),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        toolsCall('companies_resolve', { ticker: 'AAPL' }, 'b-call'),
        call('bogus/method', undefined, 17),
        call('tools/list', undefined, 'b-list'),
      ],
      { 'X-Api-Key': svc.keys.free },
    );
    assert.ok(Array.isArray(res));
    assert.equal(res.length, 4);
    const byId = new Map<unknown, any>((res as any[]).map((r) => [r.id, r]));
    assert.deepEqual([...byId.keys()].sort((a, b) => String(a).localeCompare(String(b))), [17, 'b-call', 'b-list', 'b-ping']);
    assert.deepEqual(byId.get('b-ping').result, {});
    assert.equal(byId.get('b-call').result.isError, false);
    assert.equal(byId.get('b-call').result.structuredContent.cik, '0000320193');
    assert.equal(byId.get(17).error.code, -32601);
    assert.equal(byId.get('b-list').result.tools.length, LISTED_TOOL_NAMES.length);
  });

  it('a batch holding an invalid member answers that member -32600 and the others normally', async () => {
    const res = await rpc([call('ping', undefined, 'ok'), { id: 'bad', method: 'ping' }]);
    assert.ok(Array.isArray(res));
    assert.equal(res.length, 2);
    const bad = (res as any[]).find((r) => r.id === 'bad');
    const ok = (res as any[]).find((r) => r.id === 'ok');
    assert.equal(bad.error.code, -32600);
    assert.deepEqual(ok.result, {});
  });
});

describe('HTTP transport', () => {
  it('GET /mcp is answered 405 with Allow: POST', async () => {
    const res = await fetch(`${svc.baseUrl}/mcp`, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    await res.arrayBuffer();
  });

  it('DELETE /mcp is answered 405', async () => {
    const res = await fetch(`${svc.baseUrl}/mcp`, { method: 'DELETE' });
    assert.equal(res.status, 405);
    await res.arrayBuffer();
  });

  it('a body that does not declare Content-Type application/json is refused 415 with a JSON-RPC error, and runs nothing', async () => {
    const body = JSON.stringify(call('ping'));
    for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'application/json-seq']) {
      const r = await postRaw(body, { 'content-type': type });
      assert.equal(r.status, 415, type);
      const res = JSON.parse(r.text);
      assert.equal(res.jsonrpc, '2.0');
      assert.equal(res.id, null);
      assert.equal(res.error.code, -32600);
      assert.match(res.error.message, /Content-Type: application\/json/);
    }
    // no Content-Type at all (node's own client sends none for a string body)
    const bare = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${svc.baseUrl}/mcp`, { method: 'POST' }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(bare.status, 415);
    assert.equal(JSON.parse(bare.text).error.code, -32600);
    // the type with parameters, in any case, is JSON
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      const r = await postRaw(body, { 'content-type': type });
      assert.equal(r.status, 200, type);
      assert.deepEqual(JSON.parse(r.text).result, {});
    }
  });

  it('a body over 1 MiB is answered HTTP 413', async () => {
    const big = JSON.stringify(toolsCall('companies_resolve', { ticker: 'AAPL', padding: 'x'.repeat(1024 * 1024 + 16) }));
    const r = await postRaw(big, { 'X-Api-Key': svc.keys.free });
    assert.equal(r.status, 413);
    const res = JSON.parse(r.text);
    assert.equal(res.jsonrpc, '2.0');
    assert.equal(res.id, null);
    assert.equal(res.error.code, -32600);
  });

  it('the service still answers after refusing an oversized body', async () => {
    const res = await rpc(call('ping', undefined, 'after-413'));
    assert.deepEqual(res.result, {});
  });

  it('a browser Origin that is not allowed is refused 403 (DNS-rebinding defence)', async () => {
    const r = await postRaw(JSON.stringify(call('ping', undefined, 'evil')), { origin: 'http://evil.example.com' });
    assert.equal(r.status, 403);
    assert.match(JSON.parse(r.text).error.message, /not allowed/);
  });

  it('a loopback Origin and a request without Origin are served', async () => {
    const local = await rpc(call('ping', undefined, 'local'), { origin: 'http://localhost:3000' });
    assert.deepEqual(local.result, {});
    const none = await rpc(call('ping', undefined, 'none'));
    assert.deepEqual(none.result, {});
  });
});
