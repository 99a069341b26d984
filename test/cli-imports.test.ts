/**
 * What each command of the CLI loads. `fds ingest` is the process whose peak RSS the issue bounds
 * (< 512 MiB); the HTTP service's module graph (MCP SDK, DuckDB, the GCS client, the job queue)
 * adds ~100 MB to any process that imports it, so the ingest command must not.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { loadIdentity } from '../ingest/load-identity.ts';
import { createTestDatabase } from './helpers/database.ts';
import { SHARED_SEC } from './helpers/service.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

// A module-resolution hook (module.register) that appends every resolved URL to IMPORT_LOG; it runs
// on the loader thread, hence a file and not the child's stdout.
const HOOK = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.IMPORT_LOG, r.url + '\\n');
  return r;
}`;
const REGISTER = (hook: string) => `import { register } from 'node:module'; register(${JSON.stringify(hook)});`;

/** Runs the CLI with the hook; resolves with its exit code and every module URL it resolved. */
async function cliModules(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; urls: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fds-cli-imports-'));
  try {
    const hook = path.join(dir, 'hook.mjs');
    const register = path.join(dir, 'register.mjs');
    const logFile = path.join(dir, 'imports.log');
    await writeFile(hook, HOOK);
    await writeFile(register, REGISTER(pathToFileURL(hook).href));
    await writeFile(logFile, '');
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(register).href, 'cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, IMPORT_LOG: logFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const urls = (await readFile(logFile, 'utf8')).split('\n').filter(Boolean);
    return { code, stderr, urls };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const SERVICE_ONLY = [
  /\/service\.ts$/,
  /\/node_modules\/@modelcontextprotocol\//,
  /\/node_modules\/@duckdb\//,
  /\/node_modules\/@google-cloud\//,
  /\/node_modules\/graphile-worker\//,
  /\/export\/build\.ts$/,
];

describe('the CLI loads only what the command runs', () => {
  it('fds ingest of a company loads the ingestion modules and none of the HTTP service, job queue or bulk export', async () => {
    const db = await createTestDatabase();
    try {
      await migrate(db.sql);
      await loadIdentity(db.sql, { ...loadConfig({}), databaseUrl: db.url, secSource: SHARED_SEC });
      const r = await cliModules(['ingest', '--ticker', 'AAPL'], { DATABASE_URL: db.url, SEC_SOURCE: SHARED_SEC });
      assert.equal(r.code, 0, r.stderr);
      const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM statement_versions WHERE cik = '0000320193'`;
      assert.ok(row!.n > 0, 'the company was ingested');
      assert.ok(r.urls.some((u) => u.endsWith('/ingest/run-ingestion.ts')), 'the hook saw the ingestion modules load');
      for (const pattern of SERVICE_ONLY) {
        assert.deepEqual(r.urls.filter((u) => pattern.test(u)), [], `fds ingest does not load ${pattern}`);
      }
    } finally {
      await db.close();
    }
  });

  it('fds export build still loads the bulk export (imported by the command itself)', async () => {
    // refused before it builds anything: the database does not answer
    const r = await cliModules(['export', 'build'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    assert.notEqual(r.code, 0);
    assert.ok(r.urls.some((u) => u.endsWith('/export/build.ts')), 'the export command imported its module');
    assert.deepEqual(r.urls.filter((u) => /\/service\.ts$/.test(u)), [], 'and not the HTTP service');
  });
});
