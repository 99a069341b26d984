import postgres from 'postgres';

export type Sql = postgres.Sql<Record<string, never>>;

/** `2026-11-22 04:30:00.123456+00` (session TimeZone UTC) -> `2026-11-22T04:30:00.123Z` */
function timestamptzToIso(text: string): string {
  return new Date(text.replace(' ', 'T').replace(/\+00(:00)?$/, 'Z')).toISOString();
}

/**
 * postgres.js with our wire conventions: DATE stays `YYYY-MM-DD` (not a JS Date, which would
 * shift with time zones), timestamps become ISO 8601 UTC strings, NUMERIC and BIGINT stay strings
 * (the library default) so no money value passes through a JS number.
 */
export function connect(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
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
