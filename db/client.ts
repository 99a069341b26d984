import net from 'node:net';
import postgres from 'postgres';

/**
 * The connection pool (`connect`): what opens transactions (`begin`), reserves a connection or ends.
 * Our wire conventions are parsers set on the pool; no custom parameter type is declared.
 */
export type Sql = postgres.Sql<{}>;

/**
 * What a query runs on: the pool, a reserved connection or a transaction. Every read and writer
 * takes a Db, so a caller passes its transaction where it has one; only code that opens a
 * transaction itself needs the pool (Sql).
 */
export type Db = postgres.ISql<{}>;

/** A nested sql`` fragment (postgres.js inlines it where it is interpolated). */
export type Fragment = postgres.PendingQuery<postgres.Row[]>;

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
export function connect(url: string, options: { max?: number; path?: string } = {}): Sql {
  // parsers only: postgres.js would otherwise type every parameter as these parsers' input too
  const types: postgres.Options<{}>['types'] = {
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
  };
  return postgres(url, {
    max: options.max ?? 10,
    // a Unix-domain socket of the same server (db/local-socket.ts) instead of the URL's host
    ...(options.path ? { path: options.path } : {}),
    onnotice: () => {},
    // an option postgres.js supports but does not declare
    ...({ socket: noDelaySocket } as object),
    connection: { TimeZone: 'UTC', application_name: 'fds' },
    types,
  });
}

/**
 * One value as a json parameter of a query on `db` (rows for jsonb_to_recordset, id lists, a
 * manifest): the one place that sends JSON. postgres.js types json() for its JSONValue, which an
 * interface (no index signature) never satisfies although its rows are plain JSON.
 */
export function json(db: Db, value: object): postgres.Parameter {
  return db.json(value as postgres.JSONValue);
}
