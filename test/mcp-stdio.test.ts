import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { FDS_BIN, spawnStdio, stdioEnv } from './helpers/stdio.ts';

/**
 * `fds mcp` (what `npx fds mcp` runs) driven by the SDK's StdioClientTransport, each answer held
 * to the same call over POST /mcp on the same database and key; then the raw pipe: bad input,
 * stdout holding nothing but JSON-RPC lines, start-up refusals, end of input and SIGTERM.
 */

const APPLE = '0000320193';
let svc: TestService;
let overStdio: Client;
let overHttp: Client;
const stdioErrors: Error[] = [];
let stdioTransport: StdioClientTransport;
let stderr = '';

before(async () => {
  svc = await startTestService();
  stdioTransport = new StdioClientTransport({
    command: process.execPath,
    args: [FDS_BIN, 'mcp'],
    env: stdioEnv(svc.running.database.url, svc.keys.free),
    stderr: 'pipe',
  });
  stdioTransport.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  overStdio = new Client({ name: 'fds-stdio-test', version: '1.0.0' });
  overStdio.onerror = (err) => stdioErrors.push(err);
  await overStdio.connect(stdioTransport);
  overHttp = new Client({ name: 'fds-http-test', version: '1.0.0' });
  await overHttp.connect(new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), { requestInit: { headers: { 'X-Api-Key': svc.keys.free } } }));
});

after(async () => {
  await overStdio?.close();
  await overHttp?.close();
  await svc?.close();
});

/** A tool error's JSON text without its trace id, which differs per call. */
function errorBody(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  const content = result.content as { type: string; text: string }[];
  const { trace_id, ...rest } = JSON.parse(content[0]!.text) as Record<string, unknown>;
  assert.match(String(trace_id), /^[0-9a-f]{32}$/);
  return rest;
}

/** Until start-up loading is over, data tools answer SERVICE_UNAVAILABLE (retryable); the corpus here is loaded, so that ends quickly. */
async function callWhenReady(client: Client, name: string, args: Record<string, unknown>) {
  for (let attempt = 0; ; attempt++) {
    const r = await client.callTool({ name, arguments: args });
    const text = (r.content as { text: string }[])[0]?.text ?? '';
    if (!(r.isError && text.includes('SERVICE_UNAVAILABLE')) || attempt > 100) return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the stdio tool server, driven by the SDK client, answers as POST /mcp does', () => {
  it('initializes at 2025-06-18 with the same serverInfo and capabilities as over HTTP', () => {
    assert.equal(stdioTransport.pid !== null, true);
    assert.deepEqual(overStdio.getServerVersion(), overHttp.getServerVersion());
    assert.deepEqual(overStdio.getServerCapabilities(), overHttp.getServerCapabilities());
    assert.match(overStdio.getInstructions() ?? '', /FDS_API_KEY/);
  });

  it('lists the same tools, with the same schemas, as tools/list over HTTP', async () => {
    const [a, b] = await Promise.all([overStdio.listTools(), overHttp.listTools()]);
    assert.ok(a.tools.length > 20);
    assert.deepEqual(a, b);
  });

  it('a Free tool (companies_resolve AAPL) returns the identical structuredContent on both transports', async () => {
    const viaStdio = await callWhenReady(overStdio, 'companies_resolve', { ticker: 'AAPL' });
    const viaHttp = await overHttp.callTool({ name: 'companies_resolve', arguments: { ticker: 'AAPL' } });
    assert.equal(viaStdio.isError, false);
    assert.equal((viaStdio.structuredContent as { cik: string }).cik, APPLE);
    assert.deepEqual(viaStdio.structuredContent, viaHttp.structuredContent);
    assert.deepEqual(viaStdio.content, viaHttp.content);
  });

  it('a Growth tool with a Free key is the same isError FEATURE_NOT_AVAILABLE on both transports', async () => {
    const viaStdio = await callWhenReady(overStdio, 'reconciliation_summary', { cik: APPLE });
    const viaHttp = await overHttp.callTool({ name: 'reconciliation_summary', arguments: { cik: APPLE } });
    assert.equal(viaStdio.isError, true);
    assert.equal(viaStdio.structuredContent, undefined);
    const body = errorBody(viaStdio);
    assert.equal(body.http_code, 'FEATURE_NOT_AVAILABLE');
    assert.equal(body.http_status, 403);
    assert.deepEqual(body.details, { required_plan: 'growth', current_plan: 'free' });
    assert.deepEqual(body, errorBody(viaHttp));
  });

  it('a statement read (statements_normalized) gives the identical structuredContent on both transports', async () => {
    const args = { cik: APPLE, statement_type: 'INCOME_STATEMENT', fiscal_year: 2008, fiscal_period: 'FY', metrics: ['REVENUE', 'NET_INCOME'] };
    const viaStdio = await callWhenReady(overStdio, 'statements_normalized', args);
    const viaHttp = await overHttp.callTool({ name: 'statements_normalized', arguments: args });
    assert.equal(viaStdio.isError, false);
    assert.deepEqual(viaStdio.structuredContent, viaHttp.structuredContent);
  });

  it('bad arguments are the same -32602 with the same issues on both transports', async () => {
    const refusal = async (client: Client) => {
      try {
        await client.callTool({ name: 'companies_resolve', arguments: { ticker: 'A$PL', as_of: '2020-02-30' } });
      } catch (err) {
        assert.ok(err instanceof McpError);
        return { code: err.code, data: err.data };
      }
      assert.fail('expected a JSON-RPC error');
    };
    const viaStdio = await refusal(overStdio);
    assert.equal(viaStdio.code, -32602);
    assert.deepEqual(
      (viaStdio.data as { issues: { path: string }[] }).issues.map((i) => i.path).sort(),
      ['as_of', 'ticker'],
    );
    assert.deepEqual(viaStdio, await refusal(overHttp));
  });

  it('an unknown tool is the same -32602 listing the tools on both transports', async () => {
    const refusal = (client: Client) => client.callTool({ name: 'no_such_tool', arguments: {} }).then(() => null, (err: McpError) => ({ code: err.code, data: err.data }));
    const viaStdio = await refusal(overStdio);
    assert.equal(viaStdio?.code, -32602);
    assert.deepEqual(viaStdio, await refusal(overHttp));
  });

  it('wrote nothing but JSON-RPC to stdout (the SDK reports any other line as a transport error), and its log to stderr', () => {
    assert.deepEqual(stdioErrors, []);
    assert.match(stderr, /tool server on stdio for org "test-org", Free plan/);
  });
});

describe('the stdio tool server on its raw pipe', () => {
  it('answers a non-JSON line, a line over 1 MiB and a partial line at end of input as HTTP does, keeps serving between them, and writes only JSON-RPC lines', async () => {
    const p = spawnStdio(stdioEnv(svc.running.database.url, svc.keys.free));
    p.send('{"jsonrpc":"2.0","id":"list-1","method":"tools/list"}\n');
    await p.answer('list-1');
    p.send('this is not json\n');
    await p.answer(null, 0);
    p.send(`{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"companies_resolve","arguments":{"ticker":"${'A'.repeat(1024 * 1024)}"}}}\n`);
    await p.answer(null, 1);
    p.send('{"jsonrpc":"2.0","id":"list-2","method":"tools/list"}\n');
    p.send('\n\r\n');
    p.send('{"jsonrpc":"2.0","id":"notify-only"');
    await p.answer('list-2');
    p.child.stdin.end();
    const exit = await p.exited;
    assert.deepEqual(exit, { code: 0, signal: null });

    const out = p.stdout();
    assert.ok(out.endsWith('\n'));
    const messages = out
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as { jsonrpc: string; id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } });
    for (const m of messages) {
      assert.equal(m.jsonrpc, '2.0');
      assert.ok(('result' in m) !== ('error' in m), JSON.stringify(m).slice(0, 200));
    }
    assert.deepEqual(
      messages.map((m) => m.id ?? m.error?.code),
      ['list-1', -32700, -32600, 'list-2', -32700],
      'each answer awaited before the next line was sent',
    );

    // the same errors POST /mcp gives the same bytes
    const post = async (body: string) => {
      const res = await fetch(`${svc.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: res.status, body: (await res.json()) as { id: unknown; error: { code: number; data?: unknown } } };
    };
    const notJson = await post('this is not json');
    assert.equal(notJson.status, 200);
    assert.deepEqual(messages[1], notJson.body);
    const oversized = await post(`{"pad":"${'A'.repeat(1024 * 1024)}"}`);
    assert.equal(oversized.status, 413);
    assert.equal(messages[2]!.id, null);
    assert.equal(messages[2]!.error!.code, oversized.body.error.code);
    assert.deepEqual(messages[2]!.error!.data, oversized.body.error.data);
    assert.equal(messages[4]!.error!.code, -32700);
    assert.match(messages[4]!.error!.message, /newline/);
  });

  it('once stdout is claimed, console output and direct writes to process.stdout go to stderr; only the protocol writes to stdout', async () => {
    const script = [
      `import { claimStdout } from ${JSON.stringify(new URL('../api/stdio.ts', import.meta.url).href)};`,
      'const protocol = claimStdout();',
      "console.log('a library says hello'); console.info('info'); console.warn('warn');",
      "process.stdout.write('written to process.stdout\\n');",
      'protocol.write(\'{"jsonrpc":"2.0","id":1,"result":{}}\\n\');',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('..', import.meta.url)) });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const [code] = (await once(child, 'close')) as [number];
    assert.equal(code, 0, err);
    assert.equal(out, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    for (const noise of ['a library says hello', 'info', 'warn', 'written to process.stdout']) assert.ok(err.includes(noise), noise);
  });

  it('exits 0 on SIGTERM after answering what it had read', async () => {
    const p = spawnStdio(stdioEnv(svc.running.database.url, svc.keys.free));
    p.send('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await p.answer(1);
    p.child.kill('SIGTERM');
    assert.deepEqual(await p.exited, { code: 0, signal: null });
    assert.deepEqual(JSON.parse(p.stdout()), { jsonrpc: '2.0', id: 1, result: {} });
  });

  it('refuses to start without FDS_API_KEY: a message on stderr naming it, exit 2, nothing on stdout', async () => {
    const p = spawnStdio(stdioEnv(svc.running.database.url, undefined));
    assert.deepEqual(await p.exited, { code: 2, signal: null });
    assert.match(p.stderr(), /FDS_API_KEY is not set.*keys create/);
    assert.equal(p.stdout(), '');
  });

  it('refuses to start with a malformed key and with a well-formed key the database does not hold (exit 2)', async () => {
    const malformed = spawnStdio(stdioEnv(svc.running.database.url, 'not-a-key'));
    assert.deepEqual(await malformed.exited, { code: 2, signal: null });
    assert.match(malformed.stderr(), /FDS_API_KEY is not an API key/);
    const unknown = spawnStdio(stdioEnv(svc.running.database.url, `fds_sk_${'x'.repeat(43)}`));
    assert.deepEqual(await unknown.exited, { code: 2, signal: null });
    assert.match(unknown.stderr(), /FDS_API_KEY is not a key of this database/);
    assert.equal(malformed.stdout() + unknown.stdout(), '');
  });
});
