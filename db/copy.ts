import type { Db } from './client.ts';

/**
 * Bulk rows through `COPY ... FROM STDIN`: one statement, rows streamed as tab-separated lines
 * (text format, copyRows) or length-prefixed values (binary format, copyRowsBinary), no per-row
 * parameters and no JSON document for PostgreSQL to take apart again. Used for the rows ingestion
 * writes in bulk (statement versions, binary; their restatement events and revisions, findings,
 * checked versions and ledger rows, text).
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
export async function copyRows(sql: Db, table: string, columns: readonly string[], rows: Iterable<readonly CopyCell[]>): Promise<number> {
  return streamCopy(sql, table, columns, false, rows, (row) => {
    const line = copyLine(row);
    return { room: maxUtf8Bytes(line.length), write: (chunk, at) => chunk.write(line, at) };
  });
}

/**
 * What a column of a binary COPY holds, which says how its cells are sent (PostgreSQL's binary
 * COPY format). `text` serves char(n) and varchar too; `jsonb` takes an object or array (sent as
 * its JSON text) or a string of JSON text, as copyText does.
 */
export type BinaryType = 'uuid' | 'text' | 'int4' | 'int8' | 'date' | 'timestamptz' | 'jsonb';

/**
 * copyRows in PostgreSQL's binary COPY format, for the rows ingestion writes in bulk: the server
 * takes each value as it is sent, length-prefixed, where the text format has it scan every byte
 * of every line for delimiters and escapes and parse each uuid, date and timestamp (about a fifth
 * of what it spends storing statement versions, whose figures are tens of MB of JSON per mirror
 * run). Rows with a value the binary encoding does not state exactly as the text format would
 * (a date or timestamp not in ISO 8601 form, a uuid not in its standard form, an integer out of
 * range, ...) are all sent as text instead, so the server reads, or rejects, every value exactly
 * as copyRows would have it.
 */
export async function copyRowsBinary(
  sql: Db,
  table: string,
  columns: readonly { name: string; type: BinaryType }[],
  rows: readonly (readonly CopyCell[])[],
): Promise<number> {
  const names = columns.map((c) => c.name);
  const types = columns.map((c) => c.type);
  if (!rows.every((row) => row.length === types.length && row.every((cell, i) => binaryEncodable(types[i]!, cell)))) {
    return copyRows(sql, table, names, rows);
  }
  return streamCopy(sql, table, names, true, rows, (row) => {
    // JSON text once per cell, then an upper bound of the row's bytes: 2 for the field count, 4 for
    // each length, the value's bytes (a string's at most 3 per UTF-16 code unit)
    const values: (string | null)[] = [];
    let room = 2;
    for (let i = 0; i < row.length; i++) {
      const cell = row[i];
      const type = types[i]!;
      const value = cell === null || cell === undefined ? null : type === 'jsonb' && typeof cell !== 'string' ? JSON.stringify(cell) : null;
      values.push(value);
      room += 4 + (cell === null || cell === undefined ? 0 : typeof cell === 'string' ? 1 + maxUtf8Bytes(cell.length) : value !== null ? 1 + maxUtf8Bytes(value.length) : 16);
    }
    return {
      room,
      write: (chunk, at) => {
        let pos = chunk.writeInt16BE(row.length, at);
        for (let i = 0; i < row.length; i++) pos = writeBinaryCell(chunk, pos, types[i]!, row[i], values[i] ?? null);
        return pos - at;
      },
    };
  }, BINARY_HEADER, BINARY_TRAILER);
}

/** The binary format's signature, flags and header extension length; and its end marker (a field count of -1). */
const BINARY_HEADER = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/;
/** 2000-01-01, PostgreSQL's epoch for dates and timestamps, in milliseconds since 1970-01-01 */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;

/**
 * Milliseconds since 1970 of a calendar date and time that exists (no 2023-02-30, no 24:00, no
 * year 0, which PostgreSQL's input rejects), else null. Years below 100 are taken as written
 * (Date.UTC would move them to the 1900s).
 */
function utcMillis(y: string, mo: string, d: string, h = '0', mi = '0', sec = '0'): number | null {
  const year = Number(y);
  if (year < 1) return null;
  const t = new Date(0);
  t.setUTCFullYear(year, Number(mo) - 1, Number(d));
  t.setUTCHours(Number(h), Number(mi), Number(sec), 0);
  // setters roll days and times over instead of refusing them
  if (t.getUTCFullYear() !== year || t.getUTCMonth() !== Number(mo) - 1 || t.getUTCDate() !== Number(d)) return null;
  if (t.getUTCHours() !== Number(h) || t.getUTCMinutes() !== Number(mi) || t.getUTCSeconds() !== Number(sec)) return null;
  return t.getTime();
}

function binaryEncodable(type: BinaryType, cell: CopyCell): boolean {
  if (cell === null || cell === undefined) return true;
  switch (type) {
    case 'text':
      return typeof cell === 'string';
    case 'jsonb':
      return typeof cell === 'string' || (typeof cell === 'object' && !(cell instanceof Date));
    case 'uuid':
      return typeof cell === 'string' && UUID.test(cell);
    case 'int4':
      return typeof cell === 'number' && Number.isInteger(cell) && cell >= -2_147_483_648 && cell <= 2_147_483_647;
    case 'int8':
      return typeof cell === 'number' ? Number.isSafeInteger(cell) : typeof cell === 'bigint' && BigInt.asIntN(64, cell) === cell;
    case 'date': {
      const m = typeof cell === 'string' ? DATE.exec(cell) : null;
      return m !== null && utcMillis(m[1]!, m[2]!, m[3]!) !== null;
    }
    case 'timestamptz': {
      const m = typeof cell === 'string' ? TIMESTAMP_UTC.exec(cell) : null;
      return m !== null && utcMillis(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!) !== null;
    }
  }
}

/** Writes one cell (length, then value) at `at`, as binaryEncodable has checked it can be; returns the position after it. */
function writeBinaryCell(chunk: Buffer, at: number, type: BinaryType, cell: CopyCell, json: string | null): number {
  if (cell === null || cell === undefined) return chunk.writeInt32BE(-1, at);
  switch (type) {
    case 'text': {
      const n = chunk.write(cell as string, at + 4);
      chunk.writeInt32BE(n, at);
      return at + 4 + n;
    }
    case 'jsonb': {
      // version 1 of jsonb's binary input: the JSON text itself
      chunk[at + 4] = 1;
      const n = chunk.write(json ?? (cell as string), at + 5);
      chunk.writeInt32BE(n + 1, at);
      return at + 5 + n;
    }
    case 'uuid': {
      const id = cell as string;
      chunk.writeInt32BE(16, at);
      chunk.write(id.slice(0, 8) + id.slice(9, 13) + id.slice(14, 18) + id.slice(19, 23) + id.slice(24), at + 4, 'hex');
      return at + 20;
    }
    case 'int4':
      chunk.writeInt32BE(4, at);
      return chunk.writeInt32BE(cell as number, at + 4);
    case 'int8':
      chunk.writeInt32BE(8, at);
      return chunk.writeBigInt64BE(BigInt(cell as number | bigint), at + 4);
    case 'date': {
      const m = DATE.exec(cell as string)!;
      chunk.writeInt32BE(4, at);
      return chunk.writeInt32BE((utcMillis(m[1]!, m[2]!, m[3]!)! - PG_EPOCH_MS) / DAY_MS, at + 4);
    }
    case 'timestamptz': {
      const m = TIMESTAMP_UTC.exec(cell as string)!;
      const micros = BigInt(utcMillis(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!)! - PG_EPOCH_MS) * 1000n + BigInt((m[7] ?? '').padEnd(6, '0'));
      chunk.writeInt32BE(8, at);
      return chunk.writeBigInt64BE(micros, at + 4);
    }
  }
}

/** One row's encoding: at most `room` bytes, written by `write` at a position, which returns the bytes written. */
interface EncodedRow {
  room: number;
  write: (chunk: Buffer, at: number) => number;
}

/**
 * The COPY itself, in either format: rows encoded straight into chunks of bytes (a chunk built as
 * a string (+=) is a rope the stream flattens and then encodes on write, two more copies of every
 * byte written, about 37 MB of statement versions in a mirror run), each chunk written as soon as
 * it is full.
 */
async function streamCopy(
  sql: Db,
  table: string,
  columns: readonly string[],
  binary: boolean,
  rows: Iterable<readonly CopyCell[]>,
  encode: (row: readonly CopyCell[]) => EncodedRow,
  header: Buffer | null = null,
  trailer: Buffer | null = null,
): Promise<number> {
  const query = binary
    ? sql`COPY ${sql(table)} (${sql(columns as string[])}) FROM STDIN WITH (FORMAT binary)`
    : sql`COPY ${sql(table)} (${sql(columns as string[])}) FROM STDIN`;
  // postgres.js settles a COPY's query with its stream; an error the server reports after the
  // last row (a constraint, a bad value) goes to that settled query's reject and would be lost
  // (the stream then never finishes), so it is caught there
  const rejected = new Promise<never>((_, reject) => {
    // `reject` is postgres.js's own, undeclared member of the query
    const settle: (e: unknown) => void = Reflect.get(query, 'reject');
    Reflect.set(query, 'reject', (e: unknown) => {
      reject(e);
      settle(e);
    });
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
  let chunk = NO_CHUNK;
  let used = 0;
  const flush = async () => {
    if (used === 0) return;
    // the stream may hold on to the bytes until the socket takes them: the next row goes to a new chunk
    const ok = stream.write(chunk.subarray(0, used));
    chunk = NO_CHUNK;
    used = 0;
    if (!ok) await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), done]);
  };
  const reserve = async (room: number) => {
    if (used + room > chunk.length) {
      await flush();
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
    }
  };
  try {
    if (header) {
      await reserve(header.length);
      used += header.copy(chunk, used);
    }
    for (const row of rows) {
      if (row.length !== columns.length) throw new Error(`COPY ${table}: a row of ${row.length} cells for ${columns.length} columns`);
      const encoded = encode(row);
      await reserve(encoded.room);
      used += encoded.write(chunk, used);
      count++;
    }
    if (trailer) {
      await reserve(trailer.length);
      used += trailer.copy(chunk, used);
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
