import type { ServiceError } from '../domain/service-error.ts';
import { isPrepared, memoOf, prepared } from './prepared-json.ts';

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
 */
export function toolSuccess(output: unknown): ToolResult {
  const kept = typeof output === 'object' && output !== null ? preparedResults.get(output) : undefined;
  if (kept) return kept;
  const structured = output as Record<string, unknown>;
  const result: ToolResult = { content: [{ type: 'text', text: compactJson(output) }], structuredContent: structured, isError: false };
  // the result of a prepared output is prepared too: its JSON is then written once (api/prepared-json.ts)
  if (isPrepared(output)) preparedResults.set(output as object, prepared(result));
  return result;
}

const preparedResults = new WeakMap<object, ToolResult>();

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
 * A prepared item's row in a table (a panel's point, an as-of read's statement), with the columns it
 * was written under: a prepared value never changes (api/prepared-json.ts), so its row is written
 * once per set of columns.
 */
const rowTexts = new WeakMap<object, { columns: string; text: string }>();

/**
 * `JSON.stringify(tabulate(v))` written in one pass: a prepared value's text is made once and kept
 * with it, as is a prepared item's row in a table; undefined where JSON.stringify gives undefined (a
 * property it leaves out). An array whose items tabulate to objects without being objects
 * themselves (arrays of tables) goes the long way.
 */
export function compactText(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (isPrepared(v)) return memoOf(v, 'compact', render);
  return render(v);
}

function render(v: unknown): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  let out: string;
  if (Array.isArray(v)) {
    if (v.length >= 2 && v.every(isPlainObject)) {
      const columns = [...new Set(v.flatMap((o: object) => Object.keys(o)))];
      const header = JSON.stringify(columns);
      const rows: string[] = [];
      for (let i = 0; i < v.length; i++) {
        const o = v[i] as Record<string, unknown> | undefined;
        if (o === undefined) {
          rows.push('null');
          continue;
        }
        // a prepared item's row under the same columns (the points of a panel) is written once
        const kept = isPrepared(o) ? rowTexts.get(o) : undefined;
        if (kept !== undefined && kept.columns === header) {
          rows.push(kept.text);
          continue;
        }
        const text = `[${columns.map((c) => compactText(o[c] ?? null) ?? 'null').join(',')}]`;
        if (isPrepared(o)) rowTexts.set(o, { columns: header, text });
        rows.push(text);
      }
      out = `{"columns":${header},"rows":[${rows.join(',')}]}`;
    } else if (v.length >= 2 && v.every((x) => isPlainObject(x) || Array.isArray(x))) {
      out = JSON.stringify(tabulate(v));
    } else {
      const items: string[] = [];
      for (let i = 0; i < v.length; i++) items.push(compactText(v[i]) ?? 'null');
      out = `[${items.join(',')}]`;
    }
  } else {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      const text = compactText(x);
      if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
    }
    out = `{${parts.join(',')}}`;
  }
  return out;
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
