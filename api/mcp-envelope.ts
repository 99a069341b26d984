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
  return memoOf(output, 'compact', (v) => JSON.stringify(tabulate(v)));
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
