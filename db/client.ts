import net from 'node:net';
import postgres from 'postgres';

export type Sql = postgres.Sql<Record<string, never>>;

/** `2026-11-22 04:30:00.123456+00` (session TimeZone UTC) -> `2026-11-22T04:30:00.123Z` */
function timestamptzToIso(text: string): string {
  return new Date(text.replace(' ', 'T').replace(/\+00(:00)?$/, 'Z')).toISOString();
}

/**
 * The connection's socket, as postgres.js would open it (unix socket path, else its next host), with
 * Nagle's algorithm off: a COPY ends with a small CopyDone message written right after its data,
 * which Nagle would hold back until the server acknowledges the data (a delayed ACK, ~40 ms per COPY).
 * postgres.js writes every other message whole, so nothing else changes. Writes before the connection
 * is up are queued by the socket.
 */
function noDelaySocket(options: { path?: string; host: string[]; port: number[] }): net.Socket {
  const socket = new net.Socket();
  socket.setNoDelay(true);
  if (options.path) return socket.connect(options.path);
  const i = nextHost++ % options.port.length;
  return socket.connect(options.port[i]!, options.host[i]!);
}
let nextHost = 0;

/**
 * postgres.js with our wire conventions: DATE stays `YYYY-MM-DD` (not a JS Date, which would
 * shift with time zones), timestamps become ISO 8601 UTC strings, NUMERIC and BIGINT stay strings
 * (the library default) so no money value passes through a JS number. `path`: connect over that
 * Unix-domain socket instead of the URL's host (see db/local-socket.ts for when that is the same server).
 */
export function connect(url: string, options: { max?: number; path?: string; connectTimeoutS?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    // a database that does not answer fails the request (503) within this, instead of holding it
    connect_timeout: options.connectTimeoutS ?? 5,
    // Between failed connection attempts postgres.js waits up to 3^attempts / 100 s, capped at 20 s
    // and counted over the whole pool: with the database restarting under load that held every
    // queued query for many seconds, and the first ones after its return too. A refused attempt
    // costs nothing, so the wait stays short: each queued query is answered (503) at once and the
    // pool reconnects as soon as the database is back.
    backoff: (attempt: number) => Math.min(0.01 * attempt, 0.1),
    // a Unix-domain socket of the same server (db/local-socket.ts) instead of the URL's host
    ...(options.path ? { path: options.path } : {}),
    onnotice: () => {},
    // an option postgres.js supports but does not declare
    ...({ socket: noDelaySocket } as object),
    connection: { TimeZone: 'UTC', application_name: 'fds' },
    types: {
      date: {
        to: 1082,
        from: [1082],
        serialize: (x: string) => x,
        parse: (x: string) => x,
      },
      timestamptz: {
        to: 1184,
        from: [1184],
        serialize: (x: string | Date) => (x instanceof Date ? x.toISOString() : x),
        parse: timestamptzToIso,
      },
    },
  }) as unknown as Sql;
}

/**
 * A value to send as one json parameter (`sql.json(asJson(rows))`). postgres.js types json() for
 * its JSONValue, which an interface (no index signature) never satisfies although its rows are
 * plain JSON; the one cast that says so lives here instead of at every call.
 */
export function asJson(value: object): postgres.JSONValue {
  return value as postgres.JSONValue;
}
