import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { LISTED_TOOL_NAMES, WRITING_TOOL_NAMES } from './helpers/tool-names.ts';

/**
 * The official TypeScript SDK client against our own JSON-RPC framing: the handshake, listing,
 * calls (the SDK validates structuredContent against each tool's outputSchema) and ping.
 */

let svc: TestService;
let client: Client;
let clientTransport: StreamableHTTPClientTransport;
const transportErrors: Error[] = [];

function connectClient(key: string | null): { client: Client; transport: StreamableHTTPClientTransport } {
  const headers: Record<string, string> = key ? { 'X-Api-Key': key } : {};
  const transport = new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), { requestInit: { headers } });
  const c = new Client({ name: 'fds-test-client', version: '1.0.0' });
  c.onerror = (err) => transportErrors.push(err);
  return { client: c, transport };
}

before(async () => {
  svc = await startTestService();
  const { client: c, transport } = connectClient(svc.keys.free);
  client = c;
  clientTransport = transport;
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  await svc?.close();
});

describe('the MCP SDK client', () => {
  it('connects: the initialize handshake negotiates 2025-06-18 and reads our serverInfo and tools capability', () => {
    // The SDK asks for its newest version (2025-11-25 in 1.32); we answer with our newest, which it accepts.
    assert.equal(clientTransport.protocolVersion, '2025-06-18');
    const info = client.getServerVersion();
    assert.ok(info, 'serverInfo was received');
    assert.equal(typeof info.name, 'string');
    assert.ok(info.name.length > 0);
    assert.equal(typeof info.version, 'string');
    assert.ok(info.version.length > 0);
    assert.ok(client.getServerCapabilities()?.tools, 'tools capability');
    assert.equal(typeof client.getInstructions(), 'string');
  });

  it('listTools lists companies_resolve, system_health and system_metadata, each read-only with an outputSchema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...LISTED_TOOL_NAMES]);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.outputSchema?.type, 'object');
      assert.equal(t.annotations?.readOnlyHint, !WRITING_TOOL_NAMES.includes(t.name), t.name);
      assert.ok(t.title && t.title.length > 0);
      assert.ok(t.description && t.description.length > 0);
    }
  });

  it('callTool companies_resolve AAPL returns structuredContent.cik 0000320193 that passes the SDK outputSchema check', async () => {
    // The SDK validates structuredContent only for tools whose outputSchema it cached from tools/list.
    await client.listTools();
    const result = await client.callTool({ name: 'companies_resolve', arguments: { ticker: 'AAPL' } });
    assert.equal(result.isError, false);
    const structured = result.structuredContent as Record<string, unknown>;
    assert.equal(structured.cik, '0000320193');
    assert.equal(structured.ticker, 'AAPL');
    assert.equal(structured.exchange, null);
    const content = result.content as { type: string; text: string }[];
    assert.equal(content[0]?.type, 'text');
    assert.deepEqual(JSON.parse(content[0]!.text), structured);
  });

  it('callTool system_health and system_metadata pass the SDK outputSchema check', async () => {
    const health = await client.callTool({ name: 'system_health', arguments: {} });
    assert.equal(health.isError, false);
    assert.equal((health.structuredContent as { status: string }).status, 'ready');
    const meta = await client.callTool({ name: 'system_metadata', arguments: {} });
    assert.equal(meta.isError, false);
    assert.equal((meta.structuredContent as { data: { plan: string } }).data.plan, 'free');
  });

  it('a failing callTool (unknown ticker ZZZZZQ) resolves with isError true and the failure JSON, not a thrown error', async () => {
    const result = await client.callTool({ name: 'companies_resolve', arguments: { ticker: 'ZZZZZQ' } });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
    const content = result.content as { type: string; text: string }[];
    const body = JSON.parse(content[0]!.text) as Record<string, unknown>;
    assert.equal(body.http_status, 404);
    assert.equal(body.http_code, 'NOT_FOUND');
    assert.equal(body.retryable, false);
  });

  it('callTool with invalid arguments rejects with an McpError of code -32602', async () => {
    await assert.rejects(client.callTool({ name: 'companies_resolve', arguments: { ticker: 'bad ticker!' } }), (err: unknown) => {
      assert.equal((err as { code?: unknown }).code, -32602);
      return true;
    });
  });

  it('callTool of an unknown tool rejects with an McpError of code -32602', async () => {
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (err: unknown) => {
      assert.equal((err as { code?: unknown }).code, -32602);
      return true;
    });
  });

  it('ping resolves with an empty result', async () => {
    const res = await client.ping();
    assert.deepEqual(res, {});
  });

  it('a client without a key connects and lists tools, and its data call is isError 401 UNAUTHORIZED', async () => {
    const { client: anon, transport } = connectClient(null);
    try {
      await anon.connect(transport);
      const { tools } = await anon.listTools();
      assert.equal(tools.length, LISTED_TOOL_NAMES.length);
      const result = await anon.callTool({ name: 'companies_resolve', arguments: { ticker: 'AAPL' } });
      assert.equal(result.isError, true);
      const body = JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown>;
      assert.equal(body.http_status, 401);
      assert.equal(body.http_code, 'UNAUTHORIZED');
    } finally {
      await anon.close();
    }
  });

  it('the transport reported no errors (the 405 on the optional GET stream is accepted)', () => {
    assert.deepEqual(
      transportErrors.map((e) => e.message),
      [],
    );
  });
});
