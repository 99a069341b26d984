import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import { onCleanup } from './cleanup.ts';
import { postgresReachable } from './postgres-reachable.ts';
import { BENCH_DIR, ensureBenchDir, fileTimestamp, REPO_ROOT } from './paths.ts';

/** The machine's PostgreSQL, used for a throwaway database when DATABASE_URL is not set. */
const LOCAL_ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const READY_TIMEOUT_S = Number(process.env.BENCH_READY_TIMEOUT_S || 300);

export type DatabaseMode = 'env' | 'throwaway' | 'embedded';

export interface BenchDatabase {
  mode: DatabaseMode;
  /** human description, without credentials */
  description: string;
  /** variables to pass to the server and the CLI */
  env: Record<string, string>;
  /** drops a throwaway database; no-op otherwise */
  release(): Promise<void>;
}

export interface BenchServer {
  baseUrl: string;
  port: number;
  /** enterprise key of org "bench" */
  apiKey: string;
  database: BenchDatabase;
  logPath: string;
  /** seconds from spawn to readiness 200 */
  readySeconds: number;
  /** stops the server and releases the database; idempotent */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

function hostOf(url: string): string {
  return new URL(url).host;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}


/**
 * DATABASE_URL from the environment when set; otherwise a throwaway database on the machine's
 * PostgreSQL (dropped at the end); otherwise the embedded PostgreSQL under .bench/data.
 */
export async function provisionDatabase(log: (m: string) => void): Promise<BenchDatabase> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) {
    return { mode: 'env', description: `DATABASE_URL from the environment (${redact(fromEnv)})`, env: { DATABASE_URL: fromEnv }, release: async () => {} };
  }
  if (await postgresReachable(LOCAL_ADMIN_URL)) {
    const name = `fds_bench_${randomBytes(4).toString('hex')}`;
    const admin = postgres(LOCAL_ADMIN_URL, { max: 1, connect_timeout: 5, onnotice: () => {} });
    try {
      await admin.unsafe(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end({ timeout: 2 });
    }
    log(`created throwaway database ${name} on ${hostOf(LOCAL_ADMIN_URL)}`);
    const release = onCleanup(`drop database ${name}`, async () => {
      const sql = postgres(LOCAL_ADMIN_URL, { max: 1, connect_timeout: 5, onnotice: () => {} });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        log(`dropped throwaway database ${name}`);
      } finally {
        await sql.end({ timeout: 2 });
      }
    });
    return {
      mode: 'throwaway',
      description: `throwaway database ${name} on the local PostgreSQL (${hostOf(LOCAL_ADMIN_URL)})`,
      env: { DATABASE_URL: withDatabase(LOCAL_ADMIN_URL, name) },
      release,
    };
  }
  const dataDir = path.join(BENCH_DIR, 'data');
  return {
    mode: 'embedded',
    description: `embedded PostgreSQL under ${path.relative(REPO_ROOT, dataDir)} (no local PostgreSQL reachable)`,
    env: { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) },
    release: async () => {},
  };
}

/** A database the caller made and loaded (the scale suite); the caller drops it. */
function givenDatabase(url: string): BenchDatabase {
  return { mode: 'env', description: `a database loaded by the suite (${redact(url)})`, env: { DATABASE_URL: url }, release: async () => {} };
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!('DATABASE_URL' in extra)) delete env.DATABASE_URL;
  return env;
}

/** `node --import tsx cli.ts keys create --plan <plan> --org <org>`; the key is the last line of stdout. */
export async function createKey(env: NodeJS.ProcessEnv, plan: string, org: string): Promise<string> {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'cli.ts', 'keys', 'create', '--plan', plan, '--org', org],
      { cwd: REPO_ROOT, env, timeout: READY_TIMEOUT_S * 1000, maxBuffer: 4 * 1024 * 1024 },
      (err, out, errOut) => {
        if (err) reject(new Error(`keys create failed (${err.message.split('\n')[0]}):\n${String(errOut).trim()}`));
        else resolve(String(out));
      },
    );
  });
  const key = stdout.trim().split('\n').pop()?.trim() ?? '';
  if (!key || /\s/.test(key)) throw new Error(`keys create printed no key; stdout was:\n${stdout}`);
  return key;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function stopChild(child: ChildProcess, log: (m: string) => void): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000).unref());
  if ((await Promise.race([gone, timer])) === 'timeout') {
    log(`server pid ${child.pid} did not stop within 15 s; killing it`);
    child.kill('SIGKILL');
    await gone;
  }
}

interface Readiness {
  status?: string;
  checks?: { data?: { phase?: string; progress?: string | null } };
}

/**
 * Provisions a database (or takes `options.databaseUrl`, already loaded), creates an enterprise key, spawns `node --import tsx cli.ts serve` on a
 * free port (RATE_LIMITS=off, DEV_KEYS=off) and waits for GET /health/readiness to answer 200.
 * The key is created before the server starts: the embedded PostgreSQL admits one process at a time.
 */
export async function startBenchServer(
  suite: string,
  log: (m: string) => void = (m) => console.log(m),
  options: { databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<BenchServer> {
  ensureBenchDir();
  const database = options.databaseUrl ? givenDatabase(options.databaseUrl) : await provisionDatabase(log);
  let stopServer: () => Promise<void> = async () => {};
  try {
    log(`database: ${database.description}`);
    const port = await freePort();
    const env = childEnv({
      ...database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMITS: 'off',
      DEV_KEYS: 'off',
      LOG_REQUESTS: 'off',
      ...options.env,
    });

    log('creating an enterprise API key for org "bench" (cli.ts keys create)');
    const apiKey = await createKey(env, 'enterprise', 'bench');

    const logPath = path.join(BENCH_DIR, `${suite}-server-${fileTimestamp()}.log`);
    const logFile = createWriteStream(logPath);
    const tail: string[] = [];
    // BENCH_SERVER_NODE_ARGS: extra Node/V8 flags for the server under test only (e.g. to compare GC settings)
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'cli.ts', 'serve'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      logFile.write(chunk);
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) tail.push(line);
      if (tail.length > 40) tail.splice(0, tail.length - 40);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const spawnedAt = performance.now();
    log(`server: pid ${child.pid} on http://127.0.0.1:${port} (log: ${path.relative(REPO_ROOT, logPath)})`);

    stopServer = onCleanup('stop server', async () => {
      await stopChild(child, log);
      await new Promise<void>((resolve) => logFile.end(() => resolve()));
    });

    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + READY_TIMEOUT_S * 1000;
    let lastLine = '';
    let lastPrinted = 0;
    for (;;) {
      if (exited(child)) {
        throw new Error(`server exited (code ${child.exitCode}, signal ${child.signalCode}) before it was ready; last output:\n${tail.join('\n')}`);
      }
      if (Date.now() > deadline) {
        throw new Error(`server not ready after ${READY_TIMEOUT_S} s (BENCH_READY_TIMEOUT_S); last readiness: ${lastLine}\nlast output:\n${tail.join('\n')}`);
      }
      let line: string;
      try {
        const res = await fetch(`${baseUrl}/health/readiness`, { signal: AbortSignal.timeout(5000) });
        const body = (await res.json().catch(() => ({}))) as Readiness;
        if (res.status === 200) break;
        line = `${res.status} ${body.status ?? '?'}${body.checks?.data?.progress ? `: ${body.checks.data.progress}` : ''}`;
      } catch {
        line = 'not listening yet';
      }
      const elapsed = (performance.now() - spawnedAt) / 1000;
      if (line !== lastLine || elapsed - lastPrinted >= 10) {
        log(`  readiness after ${elapsed.toFixed(1)} s: ${line}`);
        lastLine = line;
        lastPrinted = elapsed;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const readySeconds = (performance.now() - spawnedAt) / 1000;
    log(`  readiness after ${readySeconds.toFixed(1)} s: 200 ready`);

    const stop = async () => {
      await stopServer();
      await database.release();
    };
    return { baseUrl, port, apiKey, database, logPath, readySeconds, stop };
  } catch (err) {
    await stopServer();
    await database.release();
    throw err;
  }
}
