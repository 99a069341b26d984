import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ALL_TOOLS } from '../tools/index.ts';
import { MAX_BATCH } from '../api/jsonrpc.ts';
import { buildSnapshot, SCRATCH } from '../export/build.ts';
import { get, post, rawExchange } from './helpers/http.ts';
import { SHARED_SEC, startTestService, type TestService } from './helpers/service.ts';

/**
 * Streams `bytes` of body in 64 KiB writes over a plain socket and waits for both the answer and
 * the last write to be flushed: a server that hangs up early shows here as EPIPE or ECONNRESET on
 * the writes after its answer. (Not node's http client: once the answer has ended it detaches the
 * request from the socket and never emits the 'drain' a paused writer waits for.)
 */
function streamBody(port: number, pathname: string, bytes: number, key?: string): Promise<{ status: number | null; body: string; writeError: string | null }> {
  return new Promise((resolve) => {
    let writeError: string | null = null;
    let received = Buffer.alloc(0);
    let answer: { status: number; body: string } | null = null;
    let flushed = false;
    const socket = netConnect(port, '127.0.0.1');
    const finish = () => {
      if (!(flushed && answer) && writeError === null) return;
      socket.destroy();
      resolve({ status: answer?.status ?? null, body: answer?.body ?? '', writeError });
    };
    socket.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
      const head = received.indexOf('\r\n\r\n');
      if (head === -1) return;
      const headers = received.subarray(0, head).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headers)?.[1] ?? NaN);
      if (received.length - head - 4 < length) return;
      answer = { status: Number(headers.split(' ')[1]), body: received.subarray(head + 4, head + 4 + length).toString('utf8') };
      finish();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      writeError = err.code ?? err.message;
      finish();
    });
    socket.write(`POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${key ? `X-Api-Key: ${key}\r\n` : ''}Content-Length: ${bytes}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      // the callback runs once the last byte is handed to the kernel, or with the error that stopped it
      socket.write('', (err) => {
        if (err) writeError ??= (err as NodeJS.ErrnoException).code ?? err.message;
        flushed = true;
        finish();
      });
    };
    pump();
  });
}

describe('production hardening: shutdown, limits and error shapes as an operator meets them', () => {
  let svc: TestService;
  let port: number;
  before(async () => {
    svc = await startTestService({ rateLimits: false });
    port = svc.running.port;
  });
  after(async () => {
    await svc?.close();
  });

  it('refuses with 400 what the database cannot hold: year 0000/0001 dates, NUL in text, integers above 2^31-1', async () => {
    const key = svc.keys.enterprise;
    const cases = [
      '/v1/edgar/companies/320193/filings?filed_from=0000-01-01',
      '/v1/edgar/restatement-alerts?filed_to=0000-12-31',
      '/v1/edgar/derived-metrics/time-series?ciks=320193&statement_type=INCOME_STATEMENT&from_date=0001-01-01',
      '/v1/edgar/as-of/0000-01-01/financials/320193',
      '/v1/identity/search?query=%00',
      '/v1/data-quality/issues?metric=%00',
      '/v1/edgar/reconciliation/ledger?cik=320193&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY&version_sequence=2147483648',
      '/v1/edgar/companies/320193/statements?page=2147483648',
    ];
    for (const p of cases) {
      const r = await get(`${svc.baseUrl}${p}`, key);
      assert.equal(r.status, 400, `${p}: ${r.text.slice(0, 200)}`);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR', p);
    }
    const dated = await get(`${svc.baseUrl}/v1/edgar/companies/320193/filings?filed_from=0000-01-01`, key);
    assert.match(dated.body.error.message, /1900-01-01 to 9999-12-31/, 'the message says the accepted range');
    const tool = await post(
      `${svc.baseUrl}/mcp`,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'companies_resolve', arguments: { ticker: 'AAPL', as_of: '0000-01-01' } } }),
      key,
    );
    assert.equal(tool.body.error.code, -32602, 'tools refuse the same input through the same schema');
  });

  it('caps a JSON-RPC batch: 12,000 unauthenticated tools/list calls get one small -32600 error, and liveness answers meanwhile', async () => {
    const batch = JSON.stringify(Array.from({ length: 12_000 }, (_v, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })));
    const [r, live] = await Promise.all([post(`${svc.baseUrl}/mcp`, batch), get(`${svc.baseUrl}/health/z`)]);
    assert.equal(live.status, 200);
    assert.equal(r.status, 200);
    assert.equal(r.body.error.code, -32600);
    assert.deepEqual(r.body.error.data, { max_batch: MAX_BATCH, received: 12_000 });
    assert.ok(r.text.length < 1000, `the refusal is small (${r.text.length} bytes)`);
    const allowed = JSON.stringify(Array.from({ length: MAX_BATCH }, (_v, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    const ok = await post(`${svc.baseUrl}/mcp`, allowed);
    assert.equal(ok.body.length, MAX_BATCH, 'a batch at the cap is answered in full');
  });

  it('shows a Free key only the companies it holds on the cross-company lists (restatement alerts, data-quality issues, company coverage)', async () => {
    for (const list of ['/v1/edgar/restatement-alerts?page_size=200', '/v1/data-quality/issues?page_size=200', '/v1/coverage/companies?page_size=200']) {
      const all = await get(`${svc.baseUrl}${list}`, svc.keys.enterprise);
      const companies = [...new Set(all.body.items.map((i: { cik: string }) => i.cik))] as string[];
      assert.ok(companies.length >= 2, `${list}: the corpus has items of several companies (${companies.length})`);
      const freeKey = (await import('../db/keys.ts')).createApiKey;
      const key = (await freeKey(svc.sql, 'coverage-probe', 'free')).key;
      const none = await get(`${svc.baseUrl}${list}`, key);
      assert.deepEqual([none.status, none.body.total, none.body.items], [200, 0, []], `${list}: a Free key holding nothing sees nothing`);
      const held = companies[0]!;
      assert.equal((await get(`${svc.baseUrl}/v1/edgar/companies/${held}/filings`, key)).status, 200, 'reading a company claims its slot');
      const mine = await get(`${svc.baseUrl}${list}`, key);
      assert.ok(mine.body.total > 0, `${list}: the held company's items are listed`);
      assert.deepEqual([...new Set(mine.body.items.map((i: { cik: string }) => i.cik))], [held], `${list}: only the held company`);
      const paid = await get(`${svc.baseUrl}${list}`, svc.keys.growth);
      assert.equal(paid.body.total, all.body.total, 'paid plans see every company');
    }
    const described = ALL_TOOLS.filter((d) => ['/v1/edgar/restatement-alerts', '/v1/data-quality/issues', '/v1/coverage/companies'].includes(d.http.path));
    assert.equal(described.length, 3);
    for (const d of described) assert.match(d.description, /Free plan the list shows only the companies this key holds/);
  });

  it('names the SEC source kind, never a server path, in system metadata, ingestion status and the system_metadata tool', async () => {
    const meta = await get(`${svc.baseUrl}/v1/system/metadata`, svc.keys.free);
    assert.deepEqual(meta.body.data.source, { kind: 'directory' });
    const status = await get(`${svc.baseUrl}/v1/system/ingestion/status`, svc.keys.free);
    assert.ok(status.body.data.recent_runs.length > 0, 'the corpus has ingestion runs');
    for (const run of status.body.data.recent_runs) assert.equal(run.source, 'directory');
    const tool = await post(
      `${svc.baseUrl}/mcp`,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'system_metadata', arguments: {} } }),
      svc.keys.free,
    );
    for (const text of [meta.text, status.text, tool.text]) {
      assert.ok(!text.includes(SHARED_SEC), 'the mirror path is not shown');
      assert.doesNotMatch(text, /\/(work|home|root|tmp|var)\//, 'no absolute server path');
    }
  });

  it('cleans what killed export builds left in BULK_DIR/staging before the next build', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fds-staging-'));
    try {
      const staging = path.join(dir, 'staging');
      for (const id of ['20260101T000000Z', '20260102T000000Z']) {
        await mkdir(path.join(staging, id), { recursive: true });
        await writeFile(path.join(staging, id, 'build.duckdb'), 'left by a killed build');
      }
      await buildSnapshot({ sql: svc.sql, store: svc.running.services.bulkStore, stagingDir: staging, now: () => new Date() });
      assert.deepEqual(await readdir(staging), [SCRATCH], 'nothing is left in staging, neither the killed builds nor this one, but the shared scratch space');
      // which keeps its files for the next build, holding no rows
      const kept = await readdir(path.join(staging, SCRATCH), { recursive: true, withFileTypes: true });
      assert.ok(kept.some((e) => e.isFile() && e.name.endsWith('.csv')));
      for (const e of kept.filter((x) => x.isFile())) assert.equal((await stat(path.join(e.parentPath, e.name))).size, 0, e.name);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers a request line over 16 KB with our 431 envelope and an X-Trace-Id, not a bare status line', async () => {
    const answer = await rawExchange(port, `GET /v1/identity/search?query=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 431 /);
    const trace = /x-trace-id: ([0-9a-f]{32})/i.exec(head!)?.[1];
    assert.ok(trace, 'X-Trace-Id is set');
    const parsed = JSON.parse(body!);
    assert.equal(parsed.error.code, 'HEADERS_TOO_LARGE');
    assert.equal(parsed.error.http_status, 431);
    assert.equal(parsed.error.trace_id, trace);
  });

  it('answers 413 to a body over 1 MiB and keeps reading until the client has sent it all (no EPIPE or reset)', async () => {
    for (const p of ['/mcp', '/v1/coverage/selection/release']) {
      const r = await streamBody(port, p, 4 * 1024 * 1024, svc.keys.free);
      assert.equal(r.status, 413, p);
      assert.equal(r.writeError, null);
      assert.ok(r.body.includes('1 MiB'), r.body);
    }
  });

  it('answers 401 to a large body without a key before reading it, and still reads it to the end (no EPIPE or reset)', async () => {
    const r = await streamBody(port, '/v1/coverage/selection/release', 4 * 1024 * 1024);
    assert.equal(r.status, 401);
    assert.equal(r.writeError, null);
    assert.match(r.body, /X-Api-Key/);
  });
});
