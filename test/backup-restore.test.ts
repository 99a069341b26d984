import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../config.ts';
import { startService, type RunningService } from '../service.ts';
import { createTestDatabase } from './helpers/database.ts';
import { get, post } from './helpers/http.ts';
import { startTestService, SHARED_MACRO, SHARED_SEC, type TestService } from './helpers/service.ts';
import type { Database } from '../db/database.ts';

const run = promisify(execFile);
const REPO = path.resolve(new URL('..', import.meta.url).pathname);

/** `fds backup` and `fds restore` through the CLI, as an operator runs them. */
async function fds(databaseUrl: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'cli.ts', ...args], { cwd: REPO, env: { ...process.env, DATABASE_URL: databaseUrl } });
  return stdout;
}

describe('backup and restore of what cannot be re-derived from SEC', () => {
  let source: TestService;
  let target: Database;
  let restored: RunningService;
  let dir: string;
  const replay: { token: string; bytes: string }[] = [];
  const slots = ['0000320193', '0000789019'];

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fds-backup-'));
    source = await startTestService();
    for (const cik of slots) assert.equal((await get(`${source.baseUrl}/v1/identity/companies/${cik}`, source.keys.free)).status, 200);
    const executed = await post(
      `${source.baseUrl}/v1/query/execute`,
      JSON.stringify({ query_type: 'financial_state_time_series', as_of_date: '2024-12-31', parameters: { cik: '320193', fiscal_year_from: 2021, fiscal_year_to: 2023 } }),
      source.keys.growth,
    );
    assert.equal(executed.status, 200, executed.text);
    const token = executed.body.data.replay_token as string;
    const original = await get(`${source.baseUrl}/v1/query/replay/${token}`, source.keys.growth);
    replay.push({ token, bytes: original.text });

    const file = path.join(dir, 'fds.backup');
    await fds(source.running.database.url, 'backup', file);
    // a fresh database: restore, then ingest again (one company is enough to show the statements come back)
    target = await createTestDatabase();
    await fds(target.url, 'restore', file);
    await fds(target.url, 'ingest', '--cik', '320193');
    restored = await startService({ ...loadConfig({}), port: 0, host: '127.0.0.1', databaseUrl: target.url, secSource: SHARED_SEC, macroSource: SHARED_MACRO, devKeys: false, ingestOnStart: false }, { log: () => {}, database: target });
    await restored.ready;
  });

  after(async () => {
    // the restored service closes (and drops) its database; without one it is closed here
    if (restored) await restored.close({ delayMs: 0, timeoutMs: 2000 });
    else await target?.close();
    await source?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const restoredUrl = () => `http://127.0.0.1:${restored.port}`;

  it('keeps the old keys working with their plans', async () => {
    for (const plan of ['free', 'growth', 'enterprise'] as const) {
      const r = await get(`${restoredUrl()}/v1/system/metadata`, source.keys[plan]);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.plan, plan);
    }
  });

  it('keeps the Free key\'s coverage slots held', async () => {
    const r = await get(`${restoredUrl()}/v1/coverage/selection`, source.keys.free);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data.companies.map((c: { cik: string }) => c.cik).sort(), slots);
  });

  it('answers a replay token recorded before the backup byte for byte', async () => {
    for (const { token, bytes } of replay) {
      const r = await get(`${restoredUrl()}/v1/query/replay/${token}`, source.keys.growth);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.text, bytes);
    }
  });

  it('serves the re-ingested statements', async () => {
    const r = await get(`${restoredUrl()}/v1/fundamentals/normalized-statements?cik=320193&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`, source.keys.enterprise);
    assert.equal(r.status, 200, r.text);
  });

  it('refuses to restore into a database that already holds keys', async () => {
    await assert.rejects(fds(target.url, 'restore', path.join(dir, 'fds.backup')), /already|rows in/);
  });
});
