import { statSync } from 'node:fs';
import { connect, type Db, type Sql } from './client.ts';

/**
 * A second pool to the very database `reference` is connected to, over the server's Unix-domain
 * socket instead of loopback TCP, for ingestion's writes: its COPY of statement versions is tens of
 * MB, and the kernel's loopback TCP path cost ~0.4 s of Node CPU per whole-mirror ingestion (plus
 * the server's side of it) that a Unix socket does not.
 *
 * Only ever for a server on this machine, and only when it is provably the same database:
 * - `url` names a loopback host (127.0.0.1, ::1, localhost) and asks for no TLS;
 * - a socket `.s.PGSQL.<port>` exists in one of the directories the server itself names in
 *   `unix_socket_directories` (read through `reference`), or else in one of PostgreSQL's usual ones;
 * - a connection over it succeeds (the server may authenticate local connections differently:
 *   peer, a password it rejects, ... then this simply answers null);
 * - the server's start time, the database's oid and the user seen over it equal those seen through
 *   `reference` (so a socket of another cluster on the same port number, or a URL naming another
 *   database than `reference`'s, is never used).
 * Anything else answers null, and the caller keeps using `reference`: remote servers are untouched.
 * The caller ends the pool it gets.
 */
export async function sameDatabaseOverLocalSocket(reference: Sql, url: string | null | undefined, options: { max?: number } = {}): Promise<Sql | null> {
  if (portOfLoopback(url) === null) return null;
  let here: Identity;
  try {
    here = await identity(reference);
  } catch {
    return null;
  }
  const path = localSocketPath(url, serverSocketDirs(here.dirs));
  if (path === null) return null;
  const local = connect(url!, { max: options.max, path });
  try {
    const there = await identity(local);
    if (there.started === here.started && there.db === here.db && there.usr === here.usr) return local;
  } catch {
    // not reachable or not accepted over the socket: TCP it is
  }
  await local.end({ timeout: 1 }).catch(() => {});
  return null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const SOCKET_DIRS = ['/var/run/postgresql', '/run/postgresql', '/tmp'];

/**
 * The absolute directories of a `unix_socket_directories` setting (comma-separated, entries may be
 * double-quoted); relative ones (against the data directory, which this process need not know) and
 * Linux abstract-namespace names (`@name`) are left out.
 */
export function serverSocketDirs(setting: string): string[] {
  return setting
    .split(',')
    .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
    .filter((d) => d.startsWith('/'))
    .map((d) => (d.length > 1 ? d.replace(/\/+$/, '') : d));
}

/**
 * The Unix socket of the loopback server `url` names, if one exists in `serverDirs` (the server's
 * own `unix_socket_directories`, searched first) or in PostgreSQL's usual directories; null otherwise.
 */
export function localSocketPath(url: string | null | undefined, serverDirs: readonly string[] = []): string | null {
  const port = portOfLoopback(url);
  if (port === null) return null;
  for (const dir of new Set([...serverDirs, ...SOCKET_DIRS])) {
    const path = `${dir === '/' ? '' : dir}/.s.PGSQL.${port}`;
    try {
      if (statSync(path).isSocket()) return path;
    } catch {
      // not there
    }
  }
  return null;
}

/** The port of a loopback, non-TLS, single-host URL without a socket directory of its own; null for anything else. */
function portOfLoopback(url: string | null | undefined): number | null {
  if (!url) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!LOOPBACK.has(u.hostname)) return null;
  // several hosts, a socket directory of its own, or TLS asked for: left exactly as written
  if (u.hostname !== u.host.replace(/:\d+$/, '') || u.searchParams.has('host')) return null;
  const ssl = u.searchParams.get('sslmode') ?? u.searchParams.get('ssl');
  if (ssl !== null && ssl !== 'disable' && ssl !== 'false') return null;
  return u.port === '' ? 5432 : Number(u.port);
}

interface Identity {
  started: string;
  db: string;
  usr: string;
  /** the server's unix_socket_directories setting; '' where this user may not read it */
  dirs: string;
}

async function identity(sql: Db): Promise<Identity> {
  const [row] = await sql<Identity[]>`
    SELECT pg_postmaster_start_time()::text AS started,
           (SELECT oid FROM pg_database WHERE datname = current_database())::text AS db,
           current_user::text AS usr,
           -- pg_settings hides it from a user neither superuser nor pg_read_all_settings (NULL then),
           -- where current_setting() would fail the whole query
           coalesce((SELECT setting FROM pg_settings WHERE name = 'unix_socket_directories'), '') AS dirs`;
  return row!;
}
