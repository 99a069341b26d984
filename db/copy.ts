import type { Sql } from './client.ts';

/**
 * Bulk rows through `COPY ... FROM STDIN` (text format): one statement, rows streamed as tab-separated
 * lines, no per-row parameters and no JSON document for PostgreSQL to take apart again. Used for
 * the rows ingestion writes in bulk (statement versions and their restatement events and revisions).
 *
 * A cell is a string (sent as is, escaped), a finite number or bigint, a boolean, a Date (ISO 8601),
 * null or undefined (`\N`), or an object or array (sent as its JSON text, for json/jsonb columns). Values arrive exactly as the
 * column would read them from text: exact decimals stay decimal strings.
 */
export type CopyCell = string | number | bigint | boolean | null | undefined | Date | object;

/** The text format's escapes: backslash, newline, carriage return and tab (the delimiter). */
const SPECIAL = /[\\\n\r\t]/g;
const HAS_SPECIAL = /[\\\n\r\t]/; // no g flag: test() keeps no state between calls
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function copyText(value: CopyCell): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return HAS_SPECIAL.test(value) ? value.replace(SPECIAL, (c) => ESCAPES[c]!) : value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`COPY: not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  // JSON text escapes every control character itself: only its backslashes need doubling
  const json = JSON.stringify(value);
  return json.includes('\\') ? json.replaceAll('\\', '\\\\') : json;
}

/** One line of the text format: cells escaped, tab-separated, newline-terminated. */
export function copyLine(cells: readonly CopyCell[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : '\t') + copyText(cells[i]!);
  return line + '\n';
}

/** The stream is written in pieces of about this many bytes (each one CopyData message). */
const CHUNK_BYTES = 1 << 20;
/** UTF-8 bytes a string of n UTF-16 code units can take at most, so a line always fits where it is written. */
const maxUtf8Bytes = (n: number) => n * 3;
const NO_CHUNK = Buffer.alloc(0);

/**
 * `COPY table (columns) FROM STDIN` with the given rows (each a list of cells in column order).
 * Table and column names are identifiers of our schema, never input. Resolves once PostgreSQL has
 * taken every row; a rejected row (constraint, type) rejects with the server's error and, inside
 * a transaction, aborts it like any failed statement.
 */
export async function copyRows(sql: Sql, table: string, columns: readonly string[], rows: Iterable<readonly CopyCell[]>): Promise<number> {
  const query = sql`COPY ${sql(table)} (${sql(columns as string[])}) FROM STDIN`;
  // postgres.js settles a COPY's query with its stream; an error the server reports after the
  // last row (a constraint, a bad value) goes to that settled query's reject and would be lost
  // (the stream then never finishes), so it is caught there
  const rejected = new Promise<never>((_, reject) => {
    const q = query as unknown as { reject: (e: unknown) => void };
    const settle = q.reject;
    q.reject = (e) => {
      reject(e);
      settle(e);
    };
  });
  rejected.catch(() => {});
  const stream = await query.writable();
  const finished = new Promise<void>((resolve, reject) => {
    stream.once('finish', resolve);
    stream.once('error', reject);
  });
  const done = Promise.race([finished, rejected]);
  done.catch(() => {});
  let count = 0;
  // lines are encoded straight into the chunk's bytes: a chunk built as a string (+=) is a rope
  // the stream flattens and then encodes on write, two more copies of every byte written (about
  // 37 MB of statement versions in a mirror run)
  let chunk = NO_CHUNK;
  let used = 0;
  const flush = async () => {
    if (used === 0) return;
    // the stream may hold on to the bytes until the socket takes them: the next line goes to a new chunk
    const ok = stream.write(chunk.subarray(0, used));
    chunk = NO_CHUNK;
    used = 0;
    if (!ok) await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), done]);
  };
  try {
    for (const row of rows) {
      if (row.length !== columns.length) throw new Error(`COPY ${table}: a row of ${row.length} cells for ${columns.length} columns`);
      const line = copyLine(row);
      const room = maxUtf8Bytes(line.length);
      if (used + room > chunk.length) {
        await flush();
        chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
      }
      used += chunk.write(line, used);
      count++;
    }
    await flush();
  } catch (err) {
    // ends the COPY with an error (CopyFail): nothing of it is stored
    stream.destroy(err as Error);
    throw err;
  }
  stream.end();
  await done;
  return count;
}
