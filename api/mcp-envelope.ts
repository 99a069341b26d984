import type { ServiceError } from '../domain/service-error.ts';
import { isPrepared, keptForShortTexts, keptWith, prepared, withJsonParts, type JsonPart } from './prepared-json.ts';

/** A tools/call result, per MCP: text content plus structured content, and whether the tool failed. */
export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/**
 * A success carries the full object as structuredContent and a compact rendering of it as text:
 * the same JSON, except that an array of two or more objects becomes one table
 * `{ columns, rows }` (keys once, values by position; a key an item lacks is null). Lists of
 * periods, filings or segment rows then cost about half the tokens, and nothing is dropped.
 * The text's JSON (a quoted, escaped string in the reply) is written from the pieces it is made of:
 * what prepared values keep is escaped once, with them.
 */
export function toolSuccess(output: unknown): ToolResult {
  const kept = typeof output === 'object' && output !== null ? preparedResults.get(output) : undefined;
  if (kept) return kept;
  const structured = output as Record<string, unknown>;
  const result: ToolResult = { content: [textContent(output)], structuredContent: structured, isError: false };
  // the result of a prepared output is prepared too: its JSON is then written once (api/prepared-json.ts)
  if (isPrepared(output)) preparedResults.set(output as object, prepared(result));
  return result;
}

const preparedResults = new WeakMap<object, ToolResult>();

const TEXT_OPEN = Buffer.from('{"type":"text","text":"');
const TEXT_CLOSE = Buffer.from('"}');

/** The text content of a success, its JSON given as parts (the kept escaped texts between glue escaped per request). */
function textContent(output: unknown): { type: 'text'; text: string } {
  const w = new Writer();
  write(output, w);
  const pieces = w.done();
  const parts: JsonPart[] = [{ bytes: TEXT_OPEN, digest: null }];
  let text = '';
  for (const p of pieces) {
    parts.push({ bytes: typeof p === 'string' ? escapedGlue(p) : p.escaped, digest: null });
    text += typeof p === 'string' ? p : p.text;
  }
  parts.push({ bytes: TEXT_CLOSE, digest: null });
  return withJsonParts(Object.freeze({ type: 'text' as const, text }), parts);
}

/** A text's bytes inside a JSON string: escaped as JSON.stringify escapes it, without the quotes. */
function escaped(text: string): Buffer {
  return Buffer.from(JSON.stringify(text).slice(1, -1), 'utf8');
}

/** The escaped bytes of short glue (the comma between two kept rows, a closing bracket), kept. */
const escapedGlue = keptForShortTexts(escaped);

/**
 * A piece of a compact text: text written per request, or a text kept with a prepared value (its
 * own compact text, or its row in a table) with its escaped bytes. Pieces end between JSON values,
 * so escaping them one by one gives the bytes of escaping their whole.
 */
type Piece = string | KeptText;

interface KeptText {
  text: string;
  escaped: Buffer;
}

const keptText = (text: string): KeptText => ({ text, escaped: escaped(text) });

/** Collects a compact text's pieces: text written per request runs together into one string until a kept text comes. */
class Writer {
  private readonly pieces: Piece[] = [];
  /** text written since the last kept piece */
  glue = '';

  kept(k: KeptText): void {
    if (this.glue !== '') this.pieces.push(this.glue);
    this.glue = '';
    this.pieces.push(k);
  }

  done(): Piece[] {
    if (this.glue !== '') this.pieces.push(this.glue);
    this.glue = '';
    return this.pieces;
  }

  /** the whole text */
  text(): string {
    return joined(this.done());
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tabulate(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(tabulate);
    if (items.length < 2 || !items.every(isPlainObject)) return items;
    const columns = [...new Set(items.flatMap((o) => Object.keys(o)))];
    return { columns, rows: items.map((o) => columns.map((c) => o[c] ?? null)) };
  }
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = tabulate(x);
  return out;
}

/** The text rendering of a tool's output (see toolSuccess). */
export function compactJson(output: unknown): string {
  return compactText(output) as string;
}

/**
 * `JSON.stringify(tabulate(v))`, written in one pass: a prepared value's text is made once and kept
 * with it, as is a prepared item's row in a table; undefined where JSON.stringify gives undefined (a
 * property it leaves out). An array whose items tabulate to objects without being objects
 * themselves (arrays of tables) goes the long way.
 */
export function compactText(v: unknown): string | undefined {
  const w = new Writer();
  return write(v, w) ? w.text() : undefined;
}

function joined(pieces: readonly Piece[]): string {
  let out = '';
  for (const p of pieces) out += typeof p === 'string' ? p : p.text;
  return out;
}

/** A table's columns and their JSON, interned by that JSON: tables with the same columns share one. */
interface Columns {
  names: readonly string[];
  header: string;
}

const columnSets = new Map<string, Columns>();
/** Column sets are few (one per kind of item); past this many the set starts again (tables still right, rows written once more). */
const MAX_COLUMN_SETS = 1024;

function columnsOf(names: readonly string[]): Columns {
  const header = JSON.stringify(names);
  let columns = columnSets.get(header);
  if (columns === undefined) {
    if (columnSets.size >= MAX_COLUMN_SETS) columnSets.clear();
    columnSets.set(header, (columns = { names, header }));
  }
  return columns;
}

/**
 * What is kept with a prepared item met in a table (a panel's point, an as-of read's statement): its
 * own keys as a column set, and its row under each of the few column sets it was written under. A
 * prepared value never changes (api/prepared-json.ts), so neither does either.
 */
interface TableItem {
  own: Columns;
  rows: Map<Columns, KeptText>;
}

const tableItems = new WeakMap<object, TableItem>();
const ROW_HEADERS = 4;

function tableItemOf(o: object): TableItem {
  let item = tableItems.get(o);
  if (item === undefined) tableItems.set(o, (item = { own: columnsOf(Object.keys(o)), rows: new Map() }));
  return item;
}

/** Writes v's compact text; false where JSON.stringify gives undefined (nothing written). */
function write(v: unknown, w: Writer): boolean {
  if (typeof v !== 'object' || v === null) {
    const text = JSON.stringify(v);
    if (text === undefined) return false;
    w.glue += text;
    return true;
  }
  if (isPrepared(v)) {
    w.kept(keptWith(v, 'compact-text', () => {
      const own = new Writer();
      render(v, own);
      return keptText(own.text());
    }));
    return true;
  }
  render(v, w);
  return true;
}

function render(v: object, w: Writer): void {
  if (Array.isArray(v)) {
    if (v.length >= 2 && v.every(isPlainObject)) {
      const items = v;
      // a table of prepared items alike (a page of panel points): their kept column set, no key read
      const kept = items.map((o) => (isPrepared(o) ? tableItemOf(o) : undefined));
      let columns: Columns | null = null;
      // the distinct column sets of prepared items, in the order first met (null once an item is not prepared)
      let owns: Set<Columns> | null = new Set();
      for (let i = 0; i < items.length; i++) {
        if (!(i in items)) continue;
        const own = kept[i]?.own;
        if (own === undefined) {
          owns = null;
          break;
        }
        owns.add(own);
      }
      if (owns !== null && owns.size === 1) columns = owns.values().next().value!;
      // prepared items of a few kinds: the union of their kept key lists is the union of every item's keys
      else if (owns !== null) columns = columnsOf([...new Set([...owns].flatMap((c) => c.names))]);
      else columns = columnsOf(tableColumns(items));
      const rows = kept.some((k) => k !== undefined) ? null : plainRows(items, columns.names);
      if (rows !== null) {
        // no item prepared, every cell's compact text its JSON: the rows' JSON in one call (a hole is null, as below)
        w.glue += `{"columns":${columns.header},"rows":${JSON.stringify(rows)}}`;
        return;
      }
      w.glue += `{"columns":${columns.header},"rows":[`;
      for (let i = 0; i < items.length; i++) {
        if (i > 0) w.glue += ',';
        const o = items[i];
        const item = kept[i];
        if (o === undefined) w.glue += 'null';
        else if (item !== undefined) w.kept(preparedRow(o, item, columns));
        else writeRow(o, columns.names, w);
      }
      w.glue += ']}';
    } else if (v.length >= 2 && v.every((x) => isPlainObject(x) || Array.isArray(x))) {
      w.glue += JSON.stringify(tabulate(v));
    } else {
      w.glue += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) w.glue += ',';
        if (!write(v[i], w)) w.glue += 'null';
      }
      w.glue += ']';
    }
    return;
  }
  if (jsonAsIs(v, AS_IS_DEPTH)) {
    // nothing in it to tabulate or reuse: written as JSON.stringify writes it, in one call
    w.glue += JSON.stringify(v);
    return;
  }
  w.glue += '{';
  let first = true;
  for (const [k, x] of Object.entries(v)) {
    // a value JSON.stringify leaves out writes nothing: its key is taken back off the glue
    const mark = w.glue.length;
    w.glue += `${first ? '' : ','}${JSON.stringify(k)}:`;
    if (write(x, w)) first = false;
    else w.glue = w.glue.slice(0, mark);
  }
  w.glue += '}';
}

/**
 * A table's columns: every key of its items, in the order first met. Items mostly share their keys
 * in one order (they are made by one function), so those are compared with the first item's
 * before every key goes through a set. Holes are skipped, as Array.prototype.every skips them.
 */
function tableColumns(items: readonly Record<string, unknown>[]): string[] {
  let first: string[] | null = null;
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) continue;
    const keys = Object.keys(items[i]!);
    if (first === null) first = keys;
    else if (!sameKeys(keys, first)) return [...new Set(items.flatMap((o) => Object.keys(o)))];
  }
  return first ?? [];
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  return true;
}

/** Each item's cells under `columns` (a hole stays a hole), or null when a cell's compact text is not its JSON. */
function plainRows(items: readonly Record<string, unknown>[], columns: readonly string[]): unknown[][] | null {
  const rows: unknown[][] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) continue;
    const o = items[i]!;
    const cells = new Array(columns.length);
    for (let j = 0; j < columns.length; j++) {
      const x = o[columns[j]!] ?? null;
      if (typeof x === 'object' && x !== null && !jsonAsIs(x, AS_IS_DEPTH - 1)) return null;
      cells[j] = x;
    }
    rows[i] = cells;
  }
  return rows;
}

/** How deep jsonAsIs looks before it gives up (the value is then rendered piece by piece, the same text). */
const AS_IS_DEPTH = 4;

/**
 * Whether v's compact text is its JSON, within `depth` levels: primitives, and plain objects and
 * arrays (no class, no toJSON, nothing prepared whose kept text could be reused) without an array
 * that tabulates (two or more items, those present all objects). A figure's coherence note, an
 * identity check's inputs: written by one JSON.stringify call.
 */
function jsonAsIs(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (depth === 0 || isPrepared(v)) return false;
  if (Array.isArray(v)) {
    // a table is found before its items are looked into
    if (v.length >= 2 && v.every(isPlainObject)) return false;
    for (let i = 0; i < v.length; i++) if (i in v && !jsonAsIs(v[i], depth - 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in v) return false;
  for (const x of Object.values(v)) if (!jsonAsIs(x, depth - 1)) return false;
  return true;
}

function writeRow(o: Record<string, unknown>, columns: readonly string[], w: Writer): void {
  const cells = columns.map((c) => o[c] ?? null);
  if (cells.every((x) => jsonAsIs(x, AS_IS_DEPTH - 1))) {
    // nothing to tabulate: the row's JSON in one call (a function or symbol is null in an array, as write makes it)
    w.glue += JSON.stringify(cells);
    return;
  }
  w.glue += '[';
  for (let j = 0; j < columns.length; j++) {
    if (j > 0) w.glue += ',';
    if (!write(o[columns[j]!] ?? null, w)) w.glue += 'null';
  }
  w.glue += ']';
}

/** A prepared item's row under `columns`, written once per column set and kept with it. */
function preparedRow(o: Record<string, unknown>, item: TableItem, columns: Columns): KeptText {
  let row = item.rows.get(columns);
  if (row === undefined) {
    const own = new Writer();
    writeRow(o, columns.names, own);
    if (item.rows.size >= ROW_HEADERS) item.rows.clear();
    item.rows.set(columns, (row = keptText(own.text())));
  }
  return row;
}

/**
 * A tool that ran and failed: the same ServiceError the HTTP surface maps to its envelope, here as
 * the spec's JSON text. `retryable` and `retry_after_s` tell an agent whether and when to retry.
 */
export function toolFailure(error: ServiceError, traceId: string): ToolResult {
  const body = {
    type: error.type,
    message: error.message,
    retryable: error.retryable,
    http_status: error.httpStatus,
    http_code: error.code,
    trace_id: traceId,
    retry_after_s: error.retryAfterS,
    details: error.details,
  };
  // No structuredContent: clients validate it against the tool's outputSchema, which describes success.
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
