import { toolPageSize, toolSchemasOf } from './json-schema.ts';
import type { ToolDefinition } from './define-tool.ts';
import { toolName } from './define-tool.ts';
import { toolFailure, toolSuccess } from './mcp-envelope.ts';
import { parseInput, runTool } from './seam.ts';
import type { Services } from './services.ts';

/**
 * JSON-RPC 2.0 framing of the tool server, our own: the SDK's HTTP transport answers HTTP 400 for
 * parse errors, opens SSE on GET and accepts empty batches, all against the spec. Every answer is
 * one JSON body with HTTP 200, or 202 with no body when only notifications arrived.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = '2025-06-18';

export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

type Id = string | number | null;

interface RpcError {
  jsonrpc: '2.0';
  id: Id;
  error: { code: number; message: string; data?: unknown };
}
interface RpcResult {
  jsonrpc: '2.0';
  id: Id;
  result: unknown;
}
export type RpcResponse = RpcError | RpcResult;

export interface RpcReply {
  status: 200 | 202;
  body: RpcResponse | RpcResponse[] | null;
}

export interface ServerInfo {
  name: string;
  title: string;
  version: string;
}

export interface RpcCallMeta {
  apiKey: string | undefined;
  traceId: string;
  requestId: string;
}

function rpcError(id: Id, code: number, message: string, data?: unknown): RpcError {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class JsonRpcDispatcher {
  private readonly byName: Map<string, ToolDefinition>;
  private readonly listing: unknown[];

  constructor(
    private readonly services: Services,
    tools: readonly ToolDefinition[],
    private readonly serverInfo: ServerInfo,
  ) {
    const listed = tools.filter((t) => t.tool);
    this.byName = new Map(listed.map((t) => [toolName(t), t]));
    this.listing = listed.map((t) => {
      const s = toolSchemasOf(t);
      return {
        name: toolName(t),
        title: t.title,
        description: t.description,
        inputSchema: s.input,
        outputSchema: s.output,
        annotations: { title: t.title, ...t.annotations },
        _meta: { required_plan: t.plan, http: t.http },
      };
    });
  }

  /** `text` is the raw request body, already within the size limit. */
  async handle(text: string, meta: RpcCallMeta): Promise<RpcReply> {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      return { status: 200, body: rpcError(null, RPC.PARSE_ERROR, 'Parse error: the body is not valid JSON') };
    }
    if (Array.isArray(payload)) {
      if (payload.length === 0) {
        return { status: 200, body: rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: empty batch') };
      }
      const answers = await Promise.all(payload.map((m) => this.handleMessage(m, meta)));
      const responses = answers.filter((a): a is RpcResponse => a !== null);
      return responses.length === 0 ? { status: 202, body: null } : { status: 200, body: responses };
    }
    const answer = await this.handleMessage(payload, meta);
    return answer === null ? { status: 202, body: null } : { status: 200, body: answer };
  }

  /** null: nothing to answer (a notification, or a client's response to us). */
  private async handleMessage(msg: unknown, meta: RpcCallMeta): Promise<RpcResponse | null> {
    if (!isObject(msg) || msg.jsonrpc !== '2.0') {
      const id = isObject(msg) && isValidId(msg.id) ? (msg.id as Id) : null;
      return rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: expected a JSON-RPC 2.0 object with "jsonrpc": "2.0"');
    }
    const hasId = 'id' in msg;
    if (hasId && !isValidId(msg.id)) {
      return rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: id must be a string or a number');
    }
    const id = (hasId ? msg.id : null) as Id;
    if (typeof msg.method !== 'string') {
      // A response from the client (result or error, no method) needs no answer.
      if (hasId && ('result' in msg || 'error' in msg)) return null;
      return rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: method must be a string');
    }
    if ('params' in msg && msg.params !== undefined && !isObject(msg.params) && !Array.isArray(msg.params)) {
      return rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: params must be an object');
    }
    if (!hasId) return null; // notifications (notifications/initialized, cancelled, ...) are acknowledged
    const params = isObject(msg.params) ? msg.params : {};
    switch (msg.method) {
      case 'initialize':
        return { jsonrpc: '2.0', id, result: this.initialize(params) };
      case 'ping':
        return { jsonrpc: '2.0', id, result: {} };
      case 'tools/list':
        return { jsonrpc: '2.0', id, result: { tools: this.listing } };
      case 'tools/call':
        return this.callTool(id, params, meta);
      default:
        return rpcError(id, RPC.METHOD_NOT_FOUND, `Method not found: ${msg.method}. Supported: initialize, ping, tools/list, tools/call`);
    }
  }

  private initialize(params: Record<string, unknown>) {
    const asked = params.protocolVersion;
    const protocolVersion =
      typeof asked === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
    return {
      protocolVersion,
      capabilities: { tools: { listChanged: false } },
      serverInfo: this.serverInfo,
      instructions:
        'SEC XBRL fundamentals. Send your API key in the X-Api-Key header. Resolve a ticker to its CIK with companies_resolve: every company read is keyed by CIK. Decimal values are strings; dates are YYYY-MM-DD. ' +
        'A result\'s text is compact JSON (an array of objects is written once as { columns, rows }); structuredContent holds the same data as objects. ' +
        'Lists are paginated (page, page_size; total says how many).',
    };
  }

  private async callTool(id: Id, params: Record<string, unknown>, meta: RpcCallMeta): Promise<RpcResponse> {
    const name = params.name;
    if (typeof name !== 'string') return rpcError(id, RPC.INVALID_PARAMS, 'Invalid params: "name" must be a string');
    const def = this.byName.get(name);
    if (!def) {
      return rpcError(id, RPC.INVALID_PARAMS, `Unknown tool: ${name}`, { available: [...this.byName.keys()] });
    }
    const args = params.arguments ?? {};
    if (!isObject(args)) return rpcError(id, RPC.INVALID_PARAMS, 'Invalid params: "arguments" must be an object');
    // The tool server's page default (toolSchemasOf shows it); HTTP keeps the route's.
    const pageSize = toolPageSize(def);
    const parsed = parseInput(def, pageSize !== null && args.page_size === undefined ? { ...args, page_size: pageSize } : args);
    if (!parsed.ok) {
      return rpcError(id, RPC.INVALID_PARAMS, `Invalid arguments for tool ${name}`, { issues: parsed.issues });
    }
    const outcome = await runTool(this.services, def, { parsed: parsed.value }, { ...meta, surface: 'mcp' });
    const result = outcome.ok ? toolSuccess(outcome.output) : toolFailure(outcome.error, meta.traceId);
    return { jsonrpc: '2.0', id, result };
  }
}

function isValidId(v: unknown): boolean {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}
