import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../db/database.ts';
import { createApiKey } from '../db/keys.ts';
import { migrate } from '../db/migrate.ts';
import { createTestDatabase } from './helpers/database.ts';
import { SHARED_MACRO, SHARED_SEC } from './helpers/service.ts';
import { spawnStdio, stdioEnv, type RawStdio } from './helpers/stdio.ts';

/**
 * `fds mcp` over a database that holds nothing yet: it loads identity and the company facts in the
 * background with progress on stderr, answers the protocol at once and tool calls with a
 * retryable SERVICE_UNAVAILABLE, and serves the data once ready. The last start-up step reads the
 * macro series from a stand-in for FRED (a local server in FRED's download format) that holds its
 * answers until the test lets them go, so "still loading" is a state the test controls.
 */

let db: Database;
let key: string;
let fred: ReturnType<typeof createServer>;
let fredBase: string;
const held: { code: string; res: ServerResponse }[] = [];
let released = false;
let p: RawStdio;

function answerFred(code: string, res: ServerResponse): void {
  let text: string;
  try {
    text = readFileSync(path.join(SHARED_MACRO, 'fred', `${code}.csv`), 'utf8');
  } catch {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/csv' }).end(text.replace(/^date,value/, `observation_date,${code}`).replace(/,\n/g, ',.\n'));
}

before(async () => {
  fred = createServer((req, res) => {
    const code = new URL(req.url ?? '/', 'http://x').searchParams.get('id') ?? '';
    if (!/^[A-Z0-9]+$/.test(code)) return void res.writeHead(404).end();
    if (released) answerFred(code, res);
    else held.push({ code, res });
  });
  await new Promise<void>((resolve) => fred.listen(0, '127.0.0.1', resolve));
  fredBase = `http://127.0.0.1:${(fred.address() as AddressInfo).port}`;
  db = await createTestDatabase();
  await migrate(db.sql);
  key = (await createApiKey(db.sql, 'first-start', 'free')).key;
});

after(async () => {
  if (p && p.child.exitCode === null) {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  fred.closeAllConnections();
  await new Promise((resolve) => fred.close(resolve));
  await db?.close();
});

const call = (id: string) => `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"companies_resolve","arguments":{"ticker":"AAPL"}}}\n`;

async function until(what: string, check: () => boolean, timeoutMs = 240_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) assert.fail(`timed out waiting for ${what}; stderr:\n${p.stderr()}`);
    if (p.child.exitCode !== null) assert.fail(`fds mcp exited while waiting for ${what}; stderr:\n${p.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('fds mcp on an empty database', () => {
  it('loads the corpus in the background with progress on stderr, answers tool calls with a retryable SERVICE_UNAVAILABLE until ready, then serves them', async () => {
    p = spawnStdio(stdioEnv(db.url, key, { SEC_SOURCE: SHARED_SEC, MACRO_SOURCE: fredBase }));

    p.send('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n');
    const init = (await p.answer('init')) as { result: { protocolVersion: string } };
    assert.equal(init.result.protocolVersion, '2025-06-18', 'the protocol is served while loading');

    p.send(call('early'));
    const early = (await p.answer('early')) as { result: { isError: boolean; content: { text: string }[] } };
    assert.equal(early.result.isError, true);
    const refusal = JSON.parse(early.result.content[0]!.text) as Record<string, unknown>;
    assert.equal(refusal.http_code, 'SERVICE_UNAVAILABLE');
    assert.equal(refusal.retryable, true);
    assert.equal(refusal.retry_after_s, 10);

    // identity and company facts load, with progress lines, up to the held macro step
    await until('the macro step', () => held.length > 0);
    assert.match(p.stderr(), /identity loaded: \d+ companies/);
    assert.match(p.stderr(), /\] \d+\/\d+ companies/, 'an ingestion progress line');
    assert.match(p.stderr(), /run \d+ succeeded: \d+ companies/);

    p.send(call('still-loading'));
    const still = (await p.answer('still-loading')) as { result: { isError: boolean; content: { text: string }[] } };
    assert.equal(still.result.isError, true);
    assert.equal((JSON.parse(still.result.content[0]!.text) as { http_code: string }).http_code, 'SERVICE_UNAVAILABLE');

    released = true;
    for (const h of held.splice(0)) answerFred(h.code, h.res);
    await until('ready', () => /^ready$/m.test(p.stderr()));

    p.send(call('ready'));
    const ready = (await p.answer('ready')) as { result: { isError: boolean; structuredContent: { cik: string } } };
    assert.equal(ready.result.isError, false);
    assert.equal(ready.result.structuredContent.cik, '0000320193');

    p.child.stdin.end();
    assert.deepEqual(await p.exited, { code: 0, signal: null });
    for (const line of p.stdout().trimEnd().split('\n')) assert.equal((JSON.parse(line) as { jsonrpc: string }).jsonrpc, '2.0');
  });
});
