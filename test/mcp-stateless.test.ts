import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { FDS_BIN, spawnStdio, stdioEnv } from './helpers/stdio.ts';
import { LISTED_TOOL_NAMES } from './helpers/tool-names.ts';

/**
 * MCP 2026-07-28 beside the spec's handshake revisions, on both transports: the SDK v2 client
 * (`@modelcontextprotocol/client`) pinned to 2026-07-28 discovers, lists and calls over HTTP and
 * over stdio; the SDK 1.x client still initializes at 2025-06-18 on the same endpoint; the raw wire
 * shows the revision's errors (-32602, -32022, -32020 with HTTP 400; -32601 with 404) and its
 * 202/405 rules.
 */

const VERSION = '2026-07-28';
const APPLE = '0000320193';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };

let svc: TestService;
let modern: ClientV2;
let legacy: ClientV1;

function modernClient(): ClientV2 {
  return new ClientV2({ name: 'fds-modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: VERSION } } });
}

before(async () => {
  svc = await startTestService();
  modern = modernClient();
  await modern.connect(new HttpTransportV2(new URL(`${svc.baseUrl}/mcp`), { requestInit: { headers: { 'X-Api-Key': svc.keys.free } } }));
  legacy = new ClientV1({ name: 'fds-legacy-test', version: '1.0.0' });
  await legacy.connect(new HttpTransportV1(new URL(`${svc.baseUrl}/mcp`), { requestInit: { headers: { 'X-Api-Key': svc.keys.free } } }));
});

after(async () => {
  await modern?.close();
  await legacy?.close();
  await svc?.close();
});

/** One POST to /mcp with the given headers (content type added); status and parsed body. */
async function post(body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${svc.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null };
}

/** The headers a 2026-07-28 client sends for a method (and a tool name). */
const mirrored = (method: string, name?: string): Record<string, string> => ({
  'mcp-protocol-version': VERSION,
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});

describe('the SDK v2 client at 2026-07-28 over HTTP', () => {
  it('connects statelessly: server/discover offers 2026-07-28 and the handshake revisions, with the tools capability and serverInfo', () => {
    assert.equal(modern.getProtocolEra(), 'modern');
    assert.equal(modern.getNegotiatedProtocolVersion(), VERSION);
    const discovered = modern.getDiscoverResult();
    assert.ok(discovered);
    assert.deepEqual(discovered.supportedVersions, [VERSION, '2025-06-18', '2025-03-26', '2024-11-05']);
    assert.ok(discovered.capabilities.tools);
    assert.equal(modern.getServerVersion()?.name, 'fds');
    assert.match(modern.getInstructions() ?? '', /companies_resolve/);
  });

  it('lists every tool, as the 1.x client at 2025-06-18 sees them', async () => {
    const [now, before2026] = await Promise.all([modern.listTools(), legacy.listTools()]);
    assert.deepEqual(now.tools.map((t) => t.name).sort(), [...LISTED_TOOL_NAMES]);
    assert.deepEqual(
      now.tools.map((t) => [t.name, t.inputSchema, t.outputSchema]),
      before2026.tools.map((t) => [t.name, t.inputSchema, t.outputSchema]),
    );
  });

  it('calls companies_resolve: the same structuredContent as the 1.x client gets at 2025-06-18', async () => {
    const a = await modern.callTool({ name: 'companies_resolve', arguments: { ticker: 'AAPL' } });
    const b = await legacy.callTool({ name: 'companies_resolve', arguments: { ticker: 'AAPL' } });
    assert.equal(a.isError, false);
    assert.equal((a.structuredContent as { cik: string }).cik, APPLE);
    assert.deepEqual(a.structuredContent, b.structuredContent);
  });

  it('reports arguments that fail the schema as a tool error (isError VALIDATION_ERROR with the issues), as 2026-07-28 asks', async () => {
    const r = await modern.callTool({ name: 'companies_resolve', arguments: { ticker: 'A$PL' } });
    assert.equal(r.isError, true);
    const body = JSON.parse((r.content as { text: string }[])[0]!.text) as { http_code: string; http_status: number; details: { issues: { path: string }[] } };
    assert.equal(body.http_code, 'VALIDATION_ERROR');
    assert.equal(body.http_status, 400);
    assert.deepEqual(body.details.issues.map((i) => i.path), ['ticker']);
  });

  it('negotiates 2026-07-28 in auto mode too (the probe finds a modern server)', async () => {
    const auto = new ClientV2({ name: 'fds-auto-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await auto.connect(new HttpTransportV2(new URL(`${svc.baseUrl}/mcp`)));
    try {
      assert.equal(auto.getProtocolEra(), 'modern');
      assert.equal(auto.getNegotiatedProtocolVersion(), VERSION);
    } finally {
      await auto.close();
    }
  });

  it('leaves the 1.x client at 2025-06-18 (initialize asking for 2026-07-28 is answered 2025-06-18, the spec rule)', async () => {
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, {});
    assert.equal(r.status, 200);
    assert.equal(r.body.result.protocolVersion, '2025-06-18');
    assert.equal(r.body.result.resultType, undefined, 'handshake-era results are unchanged');
  });
});

describe('2026-07-28 on the wire (POST /mcp)', () => {
  it('tools/list and server/discover carry resultType complete, ttlMs, cacheScope public and serverInfo in _meta', async () => {
    const list = await post({ jsonrpc: '2.0', id: 'l', method: 'tools/list', params: { _meta: META } }, mirrored('tools/list'));
    assert.equal(list.status, 200);
    assert.equal(list.body.result.resultType, 'complete');
    assert.ok(Number.isInteger(list.body.result.ttlMs) && list.body.result.ttlMs > 0);
    assert.equal(list.body.result.cacheScope, 'public');
    assert.equal(list.body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'fds');
    const discover = await post({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: META } }, mirrored('server/discover'));
    assert.equal(discover.body.result.resultType, 'complete');
    assert.equal(discover.body.result.cacheScope, 'public');
    assert.deepEqual(discover.body.result.capabilities, { tools: {} });
  });

  it('a request whose _meta lacks the protocol version (or the client capabilities, or _meta itself) is -32602 with HTTP 400, its id echoed', async () => {
    const cases = [
      { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } },
      {},
    ];
    for (const [i, params] of cases.entries()) {
      const r = await post({ jsonrpc: '2.0', id: 100 + i, method: 'server/discover', params }, mirrored('server/discover'));
      assert.equal(r.status, 400, JSON.stringify(params));
      assert.equal(r.body.id, 100 + i);
      assert.equal(r.body.error.code, -32602);
    }
    // tools/list with the header but no _meta at all: the header alone does not make a request
    const bare = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, mirrored('tools/list'));
    assert.equal(bare.status, 400);
    assert.equal(bare.body.error.code, -32602);
  });

  it('an unsupported version is -32022 with HTTP 400, listing the served versions and echoing the one asked for', async () => {
    const asked = '2099-01-01';
    const r = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': asked } } },
      { 'mcp-protocol-version': asked, 'mcp-method': 'tools/list' },
    );
    assert.equal(r.status, 400);
    assert.equal(r.body.id, 3);
    assert.equal(r.body.error.code, -32022);
    assert.deepEqual(r.body.error.data, { supported: [VERSION, '2025-06-18', '2025-03-26', '2024-11-05'], requested: asked });
  });

  it('headers that contradict the body, or required headers left out, are -32020 (HeaderMismatch) with HTTP 400, never served', async () => {
    const call = (name: string) => ({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: { ticker: 'AAPL' }, _meta: META } });
    const cases: [string, unknown, Record<string, string>][] = [
      ['version header differs', call('companies_resolve'), { ...mirrored('tools/call', 'companies_resolve'), 'mcp-protocol-version': '2025-06-18' }],
      ['method header differs', call('companies_resolve'), mirrored('tools/list', 'companies_resolve')],
      ['method header differs in case', call('companies_resolve'), mirrored('TOOLS/CALL', 'companies_resolve')],
      ['name header differs', call('companies_resolve'), mirrored('tools/call', 'system_health')],
      ['name header missing', call('companies_resolve'), mirrored('tools/call')],
      ['method header missing', call('companies_resolve'), { 'mcp-protocol-version': VERSION, 'mcp-name': 'companies_resolve' }],
      ['version header missing', call('companies_resolve'), { 'mcp-method': 'tools/call', 'mcp-name': 'companies_resolve' }],
      ['name header is a broken Base64 value', call('companies_resolve'), mirrored('tools/call', '=?base64?not base64!?=')],
      ['initialize under a 2026-07-28 header', { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, mirrored('initialize')],
    ];
    for (const [what, body, headers] of cases) {
      const r = await post(body, { ...headers, 'x-api-key': svc.keys.free });
      assert.equal(r.status, 400, what);
      assert.equal(r.body.error.code, -32020, what);
      assert.equal(r.body.id, 9, what);
    }
  });

  it('Mcp-Name may be sent in the =?base64?...?= form, and surrounding whitespace is not part of the value', async () => {
    const body = { jsonrpc: '2.0', id: 'b64', method: 'tools/call', params: { name: 'companies_resolve', arguments: { ticker: 'AAPL' }, _meta: META } };
    const encoded = `=?base64?${Buffer.from('companies_resolve').toString('base64')}?=`;
    for (const name of [encoded, '  companies_resolve  ']) {
      const r = await post(body, { ...mirrored('tools/call', name), 'x-api-key': svc.keys.free });
      assert.equal(r.status, 200, name);
      assert.equal(r.body.result.structuredContent.cik, APPLE);
    }
  });

  it('methods 2026-07-28 does not define here (initialize, ping, resources/list) are -32601 with HTTP 404, the id echoed', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/list', 'subscriptions/listen']) {
      const r = await post({ jsonrpc: '2.0', id: method, method, params: { _meta: META } }, mirrored(method));
      assert.equal(r.status, 404, method);
      assert.equal(r.body.id, method);
      assert.equal(r.body.error.code, -32601, method);
    }
  });

  it('a notification is 202 with no body; GET and DELETE are 405; a batch holding a 2026-07-28 request is -32600 with HTTP 400', async () => {
    const note = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: META } }, mirrored('notifications/cancelled'));
    assert.equal(note.status, 202);
    assert.equal(note.text, '');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${svc.baseUrl}/mcp`, { method, headers: mirrored('tools/list') });
      await res.body?.cancel();
      assert.equal(res.status, 405, method);
    }
    const batch = await post([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }], {});
    assert.equal(batch.status, 400);
    assert.equal(batch.body.error.code, -32600);
  });

  it('a tool error is a result (isError) with resultType complete, and the key, plan and coverage rules of HTTP', async () => {
    const r = await post(
      { jsonrpc: '2.0', id: 'g', method: 'tools/call', params: { name: 'reconciliation_summary', arguments: { cik: APPLE }, _meta: META } },
      { ...mirrored('tools/call', 'reconciliation_summary'), 'x-api-key': svc.keys.free },
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.result.resultType, 'complete');
    assert.equal(r.body.result.isError, true);
    assert.equal(JSON.parse(r.body.result.content[0].text).http_code, 'FEATURE_NOT_AVAILABLE');
    const anonymous = await post(
      { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'companies_resolve', arguments: { ticker: 'AAPL' }, _meta: META } },
      mirrored('tools/call', 'companies_resolve'),
    );
    assert.equal(JSON.parse(anonymous.body.result.content[0].text).http_code, 'UNAUTHORIZED');
  });
});

describe('2026-07-28 over stdio', () => {
  it('the SDK v2 client pinned to 2026-07-28 discovers, lists and calls through fds mcp, with the structuredContent HTTP gives', async () => {
    const client = modernClient();
    await client.connect(new StdioTransportV2({ command: process.execPath, args: [FDS_BIN, 'mcp'], env: stdioEnv(svc.running.database.url, svc.keys.free), stderr: 'pipe' }));
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      assert.ok(client.getDiscoverResult()?.supportedVersions.includes(VERSION));
      const tools = await client.listTools();
      assert.deepEqual(tools.tools.map((t) => t.name).sort(), [...LISTED_TOOL_NAMES]);
      let viaStdio = await client.callTool({ name: 'companies_resolve', arguments: { ticker: 'AAPL' } });
      for (let i = 0; viaStdio.isError && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100)); // until its start-up check is done
        viaStdio = await client.callTool({ name: 'companies_resolve', arguments: { ticker: 'AAPL' } });
      }
      const viaHttp = await modern.callTool({ name: 'companies_resolve', arguments: { ticker: 'AAPL' } });
      assert.equal(viaStdio.isError, false);
      assert.deepEqual(viaStdio.structuredContent, viaHttp.structuredContent);
    } finally {
      await client.close();
    }
  });

  it('a 2026-07-28 line without its protocol version is -32602, an unsupported one -32022, with no HTTP headers to check', async () => {
    const p = spawnStdio(stdioEnv(svc.running.database.url, svc.keys.free));
    p.send(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } } })}\n`);
    p.send(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } } })}\n`);
    p.send(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { _meta: META } })}\n`);
    p.send(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: META } })}\n`);
    const [a, b, c, d] = (await Promise.all([1, 2, 3, 4].map((id) => p.answer(id)))) as any[];
    p.child.stdin.end();
    assert.equal(a.error.code, -32602);
    assert.equal(b.error.code, -32022);
    assert.equal(b.error.data.requested, '2030-01-01');
    assert.equal(c.error.code, -32601);
    assert.equal(d.result.resultType, 'complete');
    assert.deepEqual(await p.exited, { code: 0, signal: null });
  });
});
