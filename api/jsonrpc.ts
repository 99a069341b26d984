import { toolPageSize, toolSchemasOf } from './json-schema.ts';
import type { ToolDefinition } from './define-tool.ts';
import { toolName } from './define-tool.ts';
import { toolFailure, toolSuccess, type ToolResult } from './mcp-envelope.ts';
import {
  classifyRequest,
  claimsStatelessRevision,
  HANDSHAKE_PROTOCOL_VERSIONS,
  LATEST_HANDSHAKE_VERSION,
  META_KEY,
  SERVED_PROTOCOL_VERSIONS,
  statelessMethodNotFound,
  type McpHeaders,
} from './mcp-revisions.ts';
import { parseInput, refuseUnauthenticated, runTool, type CallOutcome } from './seam.ts';
import type { MisplacedKey } from './auth.ts';
import type { Services } from './services.ts';

/**
 * JSON-RPC 2.0 framing of the tool server, our own, for both transports (HTTP POST and stdio): the
 * SDK's HTTP transport answers HTTP 400 for parse errors, opens SSE on GET and accepts empty
 * batches, all against the spec. Every answer is one JSON body, or none when only notifications
 * arrived. One router serves both eras of MCP (api/mcp-revisions.ts): the spec's handshake
 * revisions, whose errors all come with HTTP 200, and the stateless 2026-07-28, whose own errors
 * carry the HTTP status that revision prescribes (400, 404).
 */
export const SUPPORTED_PROTOCOL_VERSIONS = HANDSHAKE_PROTOCOL_VERSIONS;
export const LATEST_PROTOCOL_VERSION = LATEST_HANDSHAKE_VERSION;

/** How long a client may keep the tool listing and discovery result (2026-07-28 `ttlMs`): the registry changes only with a deployment. */
export const LISTING_TTL_MS = 3_600_000;

/** The largest message either transport reads (a POST body, a stdio line). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/**
 * A batch answers at most this many messages: twelve thousand tools/list calls in one 1 MiB body
 * built a ~960 MB reply. Agents send one call at a time or a handful; 32 leaves room for both.
 */
export const MAX_BATCH = 32;
/** The largest reply body the tool server builds; a batch whose answers exceed it gets one error instead. */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

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
  /** 200, 202 (nothing to answer), or the 400/404 a 2026-07-28 refusal prescribes */
  status: number;
  body: RpcResponse | RpcResponse[] | null;
}

export interface ServerInfo {
  name: string;
  title: string;
  version: string;
}

export interface RpcCallMeta {
  apiKey: string | undefined;
  /** where a key was sent instead of X-Api-Key (HTTP only; never read from there) */
  misplacedKey?: MisplacedKey | null;
  traceId: string;
  requestId: string;
  /** each tools/call that reached the seam, for the request log and metrics */
  onToolCall?: (tool: string, outcome: CallOutcome) => void;
  /** the HTTP headers that mirror the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name); null or absent on stdio */
  headers?: McpHeaders | null;
}

/**
 * The answer to a message over MAX_MESSAGE_BYTES, on either transport (HTTP sends it with 413).
 * `what` names the unit: a request body, a line.
 */
export function oversizedMessageError(what: string): RpcResponse {
  return rpcError(null, RPC.INVALID_REQUEST, `${what} exceeds 1 MiB`, { limit_bytes: MAX_MESSAGE_BYTES });
}

/** The answer to input that ended inside a message (stdio: bytes after the last newline at end of input). */
export function truncatedMessageError(): RpcResponse {
  return rpcError(null, RPC.PARSE_ERROR, 'Parse error: the input ended inside a message; end every message with a newline');
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
  private readonly resultMeta: Record<string, unknown>;

  constructor(
    private readonly services: Services,
    tools: readonly ToolDefinition[],
    private readonly serverInfo: ServerInfo,
    private readonly limits: { maxBatch?: number; maxReplyBytes?: number } = {},
    /** how a client of this transport hands over its key, for the instructions agents read */
    private readonly keyHint = 'Send your API key in the X-Api-Key header.',
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
    this.resultMeta = { [META_KEY.serverInfo]: { name: serverInfo.name, title: serverInfo.title, version: serverInfo.version } };
  }

  /**
   * `text` is one message or batch, already within the size limit. The reply's status is the HTTP
   * status the message's revision prescribes; transports without statuses (stdio) ignore it.
   */
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
      // 2026-07-28 requests are single messages; a batch is the handshake revisions' framing
      if (payload.some((m) => isObject(m) && claimsStatelessRevision(m.method, m.params))) {
        return {
          status: 400,
          body: rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: a batch may not hold 2026-07-28 requests; send each one as its own message'),
        };
      }
      const maxBatch = this.limits.maxBatch ?? MAX_BATCH;
      const maxReply = this.limits.maxReplyBytes ?? MAX_REPLY_BYTES;
      if (payload.length > maxBatch) {
        return {
          status: 200,
          body: rpcError(null, RPC.INVALID_REQUEST, `Invalid Request: a batch holds at most ${maxBatch} messages, this one ${payload.length}; send them in smaller batches`, {
            max_batch: maxBatch,
            received: payload.length,
          }),
        };
      }
      const answers = await Promise.all(payload.map((m) => this.handleMessage(m, { ...meta, headers: null })));
      const responses = answers.map((a) => a.body).filter((a): a is RpcResponse => a !== null);
      if (responses.length === 0) return { status: 202, body: null };
      const bytes = responses.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)), 0);
      if (bytes > maxReply) {
        return {
          status: 200,
          body: rpcError(null, RPC.INVALID_REQUEST, `Invalid Request: the batch's answers come to ${bytes} bytes, over the ${maxReply}-byte reply limit; send fewer calls per batch`, {
            max_reply_bytes: maxReply,
          }),
        };
      }
      return { status: 200, body: responses };
    }
    const answer = await this.handleMessage(payload, meta);
    return answer.body === null ? { status: 202, body: null } : { status: answer.status, body: answer.body };
  }

  /** body null: nothing to answer (a notification, or a client's response to us). */
  private async handleMessage(msg: unknown, meta: RpcCallMeta): Promise<{ status: number; body: RpcResponse | null }> {
    const ok = (body: RpcResponse | null) => ({ status: 200, body });
    if (!isObject(msg) || msg.jsonrpc !== '2.0') {
      const id = isObject(msg) && isValidId(msg.id) ? (msg.id as Id) : null;
      return ok(rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: expected a JSON-RPC 2.0 object with "jsonrpc": "2.0"'));
    }
    const hasId = 'id' in msg;
    if (hasId && !isValidId(msg.id)) {
      return ok(rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: id must be a string or a number'));
    }
    const id = (hasId ? msg.id : null) as Id;
    if (typeof msg.method !== 'string') {
      // A response from the client (result or error, no method) needs no answer.
      if (hasId && ('result' in msg || 'error' in msg)) return ok(null);
      return ok(rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: method must be a string'));
    }
    if ('params' in msg && msg.params !== undefined && !isObject(msg.params) && !Array.isArray(msg.params)) {
      return ok(rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: params must be an object'));
    }
    // notifications (notifications/initialized, cancelled, ...) are acknowledged in either era
    if (!hasId) return ok(null);
    const params = isObject(msg.params) ? msg.params : {};
    const route = classifyRequest(msg.method, msg.params, meta.headers ?? null);
    if (route.era === 'refused') {
      const r = route.refusal;
      return { status: r.status, body: rpcError(id, r.code, r.message, r.data) };
    }
    if (route.era === 'stateless') return this.statelessMessage(id, msg.method, params, meta);
    switch (msg.method) {
      case 'initialize':
        return ok({ jsonrpc: '2.0', id, result: this.initialize(params) });
      case 'ping':
        return ok({ jsonrpc: '2.0', id, result: {} });
      case 'tools/list':
        return ok({ jsonrpc: '2.0', id, result: { tools: this.listing } });
      case 'tools/call':
        return ok(await this.callTool(id, params, meta, 'handshake'));
      default:
        return ok(rpcError(id, RPC.METHOD_NOT_FOUND, `Method not found: ${msg.method}. Supported: initialize, ping, tools/list, tools/call (and, with 2026-07-28 _meta, server/discover)`));
    }
  }

  /** A 2026-07-28 request, already checked against its revision's rules: results carry resultType and serverInfo. */
  private async statelessMessage(id: Id, method: string, params: Record<string, unknown>, meta: RpcCallMeta): Promise<{ status: number; body: RpcResponse }> {
    const complete = (result: object) => ({
      status: 200,
      body: { jsonrpc: '2.0' as const, id, result: { resultType: 'complete', ...result, _meta: this.resultMeta } },
    });
    switch (method) {
      case 'server/discover':
        return complete({
          supportedVersions: [...SERVED_PROTOCOL_VERSIONS],
          capabilities: { tools: {} },
          instructions: this.instructions(),
          ttlMs: LISTING_TTL_MS,
          cacheScope: 'public',
        });
      case 'tools/list':
        // the listing is the same for every caller (no key needed), so shared caches may keep it
        return complete({ tools: this.listing, ttlMs: LISTING_TTL_MS, cacheScope: 'public' });
      case 'tools/call': {
        const answer = await this.callTool(id, params, meta, 'stateless');
        return 'error' in answer ? { status: 200, body: answer } : complete(answer.result);
      }
      default: {
        const r = statelessMethodNotFound(method);
        return { status: r.status, body: rpcError(id, r.code, r.message) };
      }
    }
  }

  private instructions(): string {
    return (
      `SEC XBRL fundamentals. ${this.keyHint} Resolve a ticker to its CIK with companies_resolve: every company read is keyed by CIK. Decimal values are strings; dates are YYYY-MM-DD. ` +
      'A result\'s text is compact JSON (an array of objects is written once as { columns, rows }); structuredContent holds the same data as objects. ' +
      'Lists are paginated (page, page_size; total says how many).'
    );
  }

  private initialize(params: Record<string, unknown>) {
    const asked = params.protocolVersion;
    const protocolVersion =
      typeof asked === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
    return {
      protocolVersion,
      capabilities: { tools: { listChanged: false } },
      serverInfo: this.serverInfo,
      instructions: this.instructions(),
    };
  }

  /**
   * tools/call in either era. The handshake revisions answer arguments that fail the tool's schema
   * with -32602 (the spec's rule); 2026-07-28 reports them as a tool error (`isError`, the same
   * VALIDATION_ERROR the HTTP route answers), as that revision asks, after the key, budget and plan
   * checks the HTTP route runs first.
   */
  private async callTool(id: Id, params: Record<string, unknown>, meta: RpcCallMeta, era: 'handshake' | 'stateless'): Promise<RpcError | { jsonrpc: '2.0'; id: Id; result: ToolResult }> {
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
    const withDefaults = pageSize !== null && args.page_size === undefined ? { ...args, page_size: pageSize } : args;
    let input: { raw: unknown } | { parsed: unknown } = { raw: withDefaults };
    // the key before the arguments: a caller without a valid one learns nothing of the tool's input rules
    const refused = await refuseUnauthenticated(this.services, def, meta.apiKey, meta.misplacedKey ?? null);
    if (refused) {
      const outcome: CallOutcome = { ok: false, error: refused, rate: null, ms: 0, caller: null };
      meta.onToolCall?.(name, outcome);
      return { jsonrpc: '2.0', id, result: toolFailure(refused, meta.traceId) };
    }
    if (era === 'handshake') {
      const parsed = parseInput(def, withDefaults);
      if (!parsed.ok) {
        return rpcError(id, RPC.INVALID_PARAMS, `Invalid arguments for tool ${name}`, { issues: parsed.issues });
      }
      input = { parsed: parsed.value };
    }
    const outcome = await runTool(this.services, def, input, { apiKey: meta.apiKey, misplacedKey: meta.misplacedKey ?? null, traceId: meta.traceId, requestId: meta.requestId, surface: 'mcp' });
    meta.onToolCall?.(name, outcome);
    const result = outcome.ok ? toolSuccess(outcome.output) : toolFailure(outcome.error, meta.traceId);
    return { jsonrpc: '2.0', id, result };
  }
}

function isValidId(v: unknown): boolean {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}
