import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolName } from '../../../api/define-tool.ts';
import { JsonRpcDispatcher, LATEST_PROTOCOL_VERSION, MAX_BATCH, RPC, SUPPORTED_PROTOCOL_VERSIONS, type RpcReply } from '../../../api/jsonrpc.ts';
import type { Services } from '../../../api/services.ts';
import { missingKeyError } from '../../../api/auth.ts';
import { ALL_TOOLS } from '../../../tools/index.ts';

/**
 * The tool server's JSON-RPC 2.0 framing (api/jsonrpc.ts) on the dispatcher itself: every answer
 * below is given before a call reaches the seam, so the dispatcher is built over services that
 * fail the test on any use. The same framing over HTTP, and the calls that run a tool, are pinned
 * in test/mcp-jsonrpc.test.ts against the running service.
 */
const UNREACHED = new Proxy({} as Services, {
  get(_target, key) {
    throw new Error(`the JSON-RPC framing reached services.${String(key)}; only a tool call that passed validation may`);
  },
});
const SERVER = { name: 'fds-unit', title: 'Unit test server', version: '0.0.0' };
const META = { apiKey: undefined, traceId: 'trace-unit', requestId: 'request-unit' };
const LISTED = ALL_TOOLS.filter((t) => t.tool).map(toolName);

const dispatcher = new JsonRpcDispatcher(UNREACHED, ALL_TOOLS, SERVER);

/** Services whose only reachable part is an authenticator that knows one key: the key is checked first. */
const GOOD_KEY = 'fds_sk_unit';
const AUTH_ONLY = new Proxy({} as Services, {
  get(_target, key) {
    if (key === 'authenticator') {
      return {
        authenticate: async (raw: string | undefined) => {
          if (raw === GOOD_KEY) return { keyId: 'k', keyPrefix: 'fds_sk_u', orgId: 'o', orgName: 'unit', plan: 'free' };
          throw missingKeyError();
        },
      };
    }
    throw new Error(`the JSON-RPC framing reached services.${String(key)}; only a tool call that passed authentication and validation may`);
  },
});
const keyed = new JsonRpcDispatcher(AUTH_ONLY, ALL_TOOLS, SERVER);
const send = (body: unknown, rpc = dispatcher): Promise<RpcReply> => rpc.handle(typeof body === 'string' ? body : JSON.stringify(body), META);

/** One answer with HTTP 200; returns it for its fields to be checked. */
async function answer(body: unknown, rpc = dispatcher): Promise<any> {
  const reply = await send(body, rpc);
  assert.equal(reply.status, 200);
  assert.ok(reply.body !== null && !Array.isArray(reply.body), `one answer: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

describe('JSON-RPC framing', () => {
  it('answers a body that is not JSON -32700 with id null', async () => {
    const res = await answer('{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.deepEqual([res.jsonrpc, res.id, res.error.code, res.result], ['2.0', null, RPC.PARSE_ERROR, undefined]);
  });

  it('answers -32600 to a message that is not JSON-RPC 2.0, echoing its id only when the id is a string or a number', async () => {
    assert.deepEqual(Object.keys(await answer({ jsonrpc: '2.0', id: 'no-method' })).sort(), ['error', 'id', 'jsonrpc']);
    for (const [message, id] of [
      [{ id: 3, method: 'ping' }, 3],
      [{ jsonrpc: '1.0', id: 'v1', method: 'ping' }, 'v1'],
      [42, null],
      [{ jsonrpc: '2.0', id: true, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: 'no-method' }, 'no-method'],
      [{ jsonrpc: '2.0', id: 5, method: 7 }, 5],
      [{ jsonrpc: '2.0', id: 6, method: 'ping', params: 'text' }, 6],
    ] as const) {
      const res = await answer(message);
      assert.equal(res.error.code, RPC.INVALID_REQUEST, JSON.stringify(message));
      assert.equal(res.id, id, JSON.stringify(message));
    }
  });

  it('answers notifications and a client response with 202 and no body, alone or as a whole batch', async () => {
    for (const body of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 9, result: {} },
      { jsonrpc: '2.0', id: 10, error: { code: -1, message: 'refused by the client' } },
      [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }],
    ]) {
      assert.deepEqual(await send(body), { status: 202, body: null }, JSON.stringify(body));
    }
  });

  it('answers a batch member by member, with no entry for a notification, an invalid member refused alone', async () => {
    const reply = await send([
      { jsonrpc: '2.0', id: 'b-ping', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { id: 'bad', method: 'ping' },
      { jsonrpc: '2.0', id: 17, method: 'bogus/method' },
    ]);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, [
      { jsonrpc: '2.0', id: 'b-ping', result: {} },
      { jsonrpc: '2.0', id: 'bad', error: { code: RPC.INVALID_REQUEST, message: 'Invalid Request: expected a JSON-RPC 2.0 object with "jsonrpc": "2.0"' } },
      { jsonrpc: '2.0', id: 17, error: { code: RPC.METHOD_NOT_FOUND, message: 'Method not found: bogus/method. Supported: initialize, ping, tools/list, tools/call (and, with 2026-07-28 _meta, server/discover)' } },
    ]);
  });

  it(`refuses an empty batch and one over ${MAX_BATCH} messages with one small -32600 error, and answers a batch at the cap in full`, async () => {
    const empty = await answer([]);
    assert.deepEqual([empty.id, empty.error.code], [null, RPC.INVALID_REQUEST]);
    const pings = (n: number) => Array.from({ length: n }, (_v, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    const over = await answer(pings(MAX_BATCH + 1));
    assert.deepEqual([over.id, over.error.code, over.error.data], [null, RPC.INVALID_REQUEST, { max_batch: MAX_BATCH, received: MAX_BATCH + 1 }]);
    const full = await send(pings(MAX_BATCH));
    assert.deepEqual(full.body, pings(MAX_BATCH).map(({ id }) => ({ jsonrpc: '2.0', id, result: {} })));
  });

  it('refuses a batch whose answers would exceed the reply cap with one JSON-RPC error instead of building it', async () => {
    const listing = await send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const oneListing = Buffer.byteLength(JSON.stringify(listing.body));
    const small = new JsonRpcDispatcher(UNREACHED, ALL_TOOLS, SERVER, { maxReplyBytes: oneListing * 2 });
    const three = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const reply = await answer(three, small);
    assert.equal(reply.error.code, RPC.INVALID_REQUEST);
    assert.equal(reply.error.data.max_reply_bytes, oneListing * 2);
    assert.ok(Array.isArray((await send(three.slice(0, 2), small)).body), 'two listings fit the cap');
  });

  it('answers initialize with the protocol version asked when supported, else the latest, the server named and a tools capability', async () => {
    for (const asked of [...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01', 20250618, undefined]) {
      const res = await answer({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 't', version: '0' } } });
      const expected = (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      assert.equal(res.result.protocolVersion, expected, String(asked));
      assert.deepEqual(res.result.serverInfo, SERVER);
      assert.deepEqual(res.result.capabilities, { tools: { listChanged: false } });
    }
    assert.ok((SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(LATEST_PROTOCOL_VERSION));
  });

  it('answers ping with an empty object and an unknown method -32601 naming it, the id echoed', async () => {
    assert.deepEqual(await answer({ jsonrpc: '2.0', id: 'p-1', method: 'ping' }), { jsonrpc: '2.0', id: 'p-1', result: {} });
    const unknown = await answer({ jsonrpc: '2.0', id: 'u-1', method: 'resources/list', params: {} });
    assert.deepEqual([unknown.id, unknown.error.code], ['u-1', RPC.METHOD_NOT_FOUND]);
    assert.match(unknown.error.message, /resources\/list/);
  });

  it('lists every tool of the registry once, in registry order, with its schemas, annotations, plan and route', async () => {
    const { result } = await answer({ jsonrpc: '2.0', id: 'l', method: 'tools/list' });
    assert.deepEqual(result.tools.map((t: { name: string }) => t.name), LISTED);
    const defs = ALL_TOOLS.filter((t) => t.tool);
    for (const [i, t] of (result.tools as any[]).entries()) {
      const def = defs[i]!;
      assert.deepEqual(Object.keys(t), ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'], t.name);
      assert.deepEqual([t.title, t.description, t.inputSchema.type], [def.title, def.description, 'object'], t.name);
      assert.equal(t.annotations.title, def.title, t.name);
      assert.deepEqual(t._meta, { required_plan: def.plan, http: def.http }, t.name);
    }
  });

  it('refuses a tools/call without a string name, with arguments that are not an object, or naming no tool, -32602 listing the tools', async () => {
    const call = (params: unknown) => answer({ jsonrpc: '2.0', id: 'c', method: 'tools/call', params });
    for (const params of [{ arguments: {} }, { name: 7 }, { name: 'companies_resolve', arguments: ['AAPL'] }, { name: 'companies_resolve', arguments: 'AAPL' }]) {
      assert.equal((await call(params)).error.code, RPC.INVALID_PARAMS, JSON.stringify(params));
    }
    const unknown = await call({ name: 'no_such_tool', arguments: {} });
    assert.equal(unknown.error.code, RPC.INVALID_PARAMS);
    assert.match(unknown.error.message, /no_such_tool/);
    assert.deepEqual(unknown.error.data.available, LISTED);
  });

  it("refuses arguments failing the tool's own schema -32602 with one issue per failing path, once the key is accepted and before any other service is consulted", async () => {
    const call = (args: unknown) =>
      keyed.handle(JSON.stringify({ jsonrpc: '2.0', id: 'v', method: 'tools/call', params: { name: 'companies_resolve', arguments: args } }), { ...META, apiKey: GOOD_KEY }).then((r) => r.body as any);
    const bad = await call({ ticker: 'AA$PL!', as_of: '2024-02-30' });
    assert.equal(bad.error.code, RPC.INVALID_PARAMS);
    assert.match(bad.error.message, /companies_resolve/);
    assert.deepEqual(bad.error.data.issues.map((i: { path: string }) => i.path).sort(), ['as_of', 'ticker']);
    assert.match(bad.error.data.issues.find((i: { path: string }) => i.path === 'as_of').message, /calendar date/);
    const missing = await call({});
    assert.deepEqual(missing.error.data.issues.map((i: { path: string }) => i.path), ['ticker']);
  });

  it('answers the same call without a key as the UNAUTHORIZED tool error, telling nothing of the input rules', async () => {
    const reply = await keyed.handle(JSON.stringify({ jsonrpc: '2.0', id: 'v', method: 'tools/call', params: { name: 'companies_resolve', arguments: { ticker: 'AA$PL!' } } }), META);
    const body = reply.body as any;
    assert.equal(body.error, undefined);
    assert.equal(body.result.isError, true);
    assert.equal(JSON.parse(body.result.content[0].text).http_code, 'UNAUTHORIZED');
    assert.doesNotMatch(body.result.content[0].text, /ticker/);
  });
});
