import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, appendFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { SHARED_MACRO, SHARED_SEC } from './shared-data.ts';

/**
 * The fleet harness: a PostgreSQL cluster of the test's own (so it can be stopped and restarted,
 * and given a streaming replica) from the machine's PostgreSQL programs, service instances as real
 * processes (`node --import tsx cli.ts serve|worker`), HAProxy with deploy/haproxy.cfg in front,
 * and a load of concurrent readers whose every answer is recorded.
 */

export const REPO = path.resolve(new URL('../..', import.meta.url).pathname);

/** PostgreSQL's server programs: PG_BIN, else the newest /usr/lib/postgresql/<major>/bin. */
function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base) ? readdirSync(base).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a)) : [];
  if (majors.length === 0) throw new Error('PostgreSQL server programs not found: install postgresql (apt) or set PG_BIN');
  return path.join(base, majors[0]!, 'bin');
}

const isRoot = process.getuid?.() === 0;
/** PostgreSQL refuses to run as root: as root its programs run as the `postgres` user. */
function pgCommand(program: string, args: string[]): [string, string[]] {
  const file = path.join(pgBin(), program);
  return isRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}
function runPg(program: string, args: string[]): void {
  const [file, argv] = pgCommand(program, args);
  execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
}
/** The same without blocking this process, so a load it runs meanwhile goes on being measured. */
async function runPgAsync(program: string, args: string[]): Promise<void> {
  const [file, argv] = pgCommand(program, args);
  await promisify(execFile)(file, argv);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Cluster {
  port: number;
  dir: string;
  url(database?: string): string;
  start(): Promise<void>;
  /** fast shutdown: sessions are ended, the server is gone until start() */
  stop(): Promise<void>;
  destroy(): void;
}

function clusterAt(dir: string, port: number): Cluster {
  const cluster: Cluster = {
    port,
    dir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => runPgAsync('pg_ctl', ['-D', dir, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir}`, 'start']),
    stop: () => runPgAsync('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']),
    destroy: () => {
      try {
        runPg('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

function ownedTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  return dir;
}

/** A new primary cluster on a free port, ready for streaming replicas. */
export async function startCluster(): Promise<Cluster> {
  const dir = ownedTempDir('fds-fleet-pg-');
  runPg('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  appendFileSync(
    path.join(dir, 'postgresql.conf'),
    ['listen_addresses = \'127.0.0.1\'', 'fsync = off', 'full_page_writes = off', 'wal_level = replica', 'max_wal_senders = 5', 'hot_standby = on', 'max_connections = 300', 'shared_buffers = 64MB'].join('\n') + '\n',
  );
  const cluster = clusterAt(dir, await freePort());
  await cluster.start();
  return cluster;
}

/** A streaming replica of `primary` (pg_basebackup -R) on a port of its own. */
export async function startReplica(primary: Cluster): Promise<Cluster> {
  const dir = ownedTempDir('fds-fleet-replica-');
  runPg('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dir, '-X', 'stream', '-R', '--no-sync', '--checkpoint=fast']);
  const replica = clusterAt(dir, await freePort());
  await replica.start();
  return replica;
}

/** A database on `cluster` holding the ingested corpus: the suite template of DATABASE_URL's server, copied with pg_dump | pg_restore. */
export async function corpusDatabase(cluster: Cluster, name: string, templateUrl: string): Promise<string> {
  if (!process.env.DATABASE_URL) throw new Error('the fleet tests copy the corpus from DATABASE_URL\'s server: set DATABASE_URL (PostgreSQL 15, the version of pg_dump here)');
  runPg('createdb', ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres', name]);
  await new Promise<void>((resolve, reject) => {
    const dump = spawn('pg_dump', ['--format=custom', '--no-owner', `--dbname=${templateUrl}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const restore = spawn('pg_restore', ['--no-owner', `--dbname=${cluster.url(name)}`], { stdio: ['pipe', 'inherit', 'inherit'] });
    dump.stdout.pipe(restore.stdin);
    restore.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pg_restore exited ${code}`))));
    dump.on('exit', (code) => code !== 0 && reject(new Error(`pg_dump exited ${code}`)));
  });
  return cluster.url(name);
}

export interface Instance {
  name: string;
  port: number;
  /** its DATA_DIR (the local bulk store), removed by the caller when done */
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `node --import tsx cli.ts <command>` in its own process group, logging into memory. */
export async function startInstance(name: string, command: 'serve' | 'worker', env: Record<string, string>, fixedPort?: number): Promise<Instance> {
  const port = fixedPort ?? (await freePort());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `fds-fleet-data-${name}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', command], {
    cwd: REPO,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      HOST: '127.0.0.1',
      SEC_SOURCE: SHARED_SEC,
      MACRO_SOURCE: SHARED_MACRO,
      DEV_KEYS: 'off',
      INGEST_ON_START: 'off',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      ...env,
    },
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { name, port, dataDir, child, output: () => out, exited };
}

/** Resolves once `url` answers 200 (readiness), or fails with the instance's output. */
export async function waitReady(url: string, instance?: Instance, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (instance && instance.child.exitCode !== null) throw new Error(`${instance.name} exited ${instance.child.exitCode}: ${instance.output()}`);
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms${instance ? `: ${instance.output()}` : ''}`);
}

export interface Balancer {
  port: number;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** HAProxy running deploy/haproxy.cfg in front of `servers`. */
export async function startBalancer(servers: number[]): Promise<Balancer> {
  const port = await freePort();
  const child = spawn('haproxy', ['-db', '-f', path.join(REPO, 'deploy/haproxy.cfg')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', FDS_LB_BIND: `127.0.0.1:${port}`, FDS_SERVER_1: `127.0.0.1:${servers[0]}`, FDS_SERVER_2: `127.0.0.1:${servers[1]}` },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/health/readiness`);
  return {
    port,
    url,
    child,
    stop: async () => {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** Stops a child (its whole process group) and waits for it. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal);
  }
  await gone;
}

export interface Answer {
  route: string;
  status: number;
  /** the instance HAProxy sent it to (x-fds-instance), when through the balancer */
  instance: string | null;
  code: string | null;
  retryAfter: string | null;
  /** a network-level failure (connection reset, refused) instead of an answer */
  failure: string | null;
  /** from sending to the end of the answer */
  ms: number;
}

export interface Target {
  route: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** A mix over both surfaces: HTTP reads of several kinds and the same reads as tool calls. */
export function mixedTargets(): Target[] {
  const apple = '0000320193';
  const mcp = (name: string, args: Record<string, unknown>): Target => ({
    route: `mcp ${name}`,
    method: 'POST',
    path: '/mcp',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return [
    { route: 'identity company', method: 'GET', path: `/v1/identity/companies/${apple}` },
    { route: 'normalized statement', method: 'GET', path: `/v1/fundamentals/normalized-statements?cik=${apple}&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY` },
    { route: 'time series', method: 'GET', path: `/v1/fundamentals/time-series?statement_type=INCOME_STATEMENT&ciks=${apple}&ciks=0000789019&from=2019-01-01&to=2023-12-31&page_size=50` },
    { route: 'metadata', method: 'GET', path: '/v1/system/metadata' },
    mcp('statements_normalized', { cik: apple, statement_type: 'BALANCE_SHEET', fiscal_year: 2022, fiscal_period: 'FY' }),
    mcp('companies_resolve', { ticker: 'MSFT' }),
  ];
}

export const loadAgent = new Agent({ connections: 400, pipelining: 0, keepAliveTimeout: 10_000 });

export async function call(baseUrl: string, t: Target, key: string): Promise<Answer> {
  const started = performance.now();
  try {
    const r = await request(`${baseUrl}${t.path}`, {
      method: t.method,
      headers: { 'x-api-key': key, ...(t.body ? { 'content-type': 'application/json' } : {}) },
      body: t.body,
      dispatcher: loadAgent,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await r.body.text();
    let code: string | null = null;
    try {
      const parsed = JSON.parse(text);
      code = parsed?.error?.code ?? (parsed?.result?.isError ? (JSON.parse(parsed.result.content[0].text).http_code ?? 'TOOL_ERROR') : null);
    } catch {
      code = r.statusCode >= 400 ? 'NOT_JSON' : null;
    }
    const header = (n: string) => {
      const v = r.headers[n];
      return Array.isArray(v) ? v[0]! : (v ?? null);
    };
    return { route: t.route, status: r.statusCode, instance: header('x-fds-instance'), code, retryAfter: header('retry-after'), failure: null, ms: performance.now() - started };
  } catch (err) {
    const failure = (err as Error & { code?: string }).code ?? (err as Error).message;
    return { route: t.route, status: 0, instance: null, code: null, retryAfter: null, failure, ms: performance.now() - started };
  }
}

/**
 * `readers` concurrent readers (reader i with keys[i % keys.length]), each sending the targets round after round until `stop` resolves;
 * every answer is recorded.
 */
export async function runLoad(baseUrl: string, keys: string[], readers: number, stop: Promise<unknown>, targets = mixedTargets()): Promise<Answer[]> {
  const answers: Answer[] = [];
  let done = false;
  void stop.then(() => (done = true));
  await Promise.all(
    Array.from({ length: readers }, async (_, i) => {
      for (let n = i; !done; n++) answers.push(await call(baseUrl, targets[n % targets.length]!, keys[i % keys.length]!));
    }),
  );
  return answers;
}

export function summarize(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const k = a.failure ? `failure ${a.failure}` : `${a.status}${a.code ? ` ${a.code}` : ''}${a.status === 200 || a.instance === null ? '' : ` from ${a.instance}`}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** p50, p99 and max of the answers' times, in ms */
export function latencies(answers: Answer[]): { p50: number; p99: number; max: number } {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), max: Math.round(ms[ms.length - 1] ?? 0) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
