import type { ServiceError } from '../domain/service-error.ts';
import { memoOf } from './prepared-json.ts';

/** A tools/call result, per MCP: text content plus structured content, and whether the tool failed. */
export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

export function toolSuccess(output: unknown): ToolResult {
  const structured = output as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: structured, isError: false };
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
