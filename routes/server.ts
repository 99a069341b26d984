import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isLoopbackHost } from '../domain/loopback.ts';
import { isDatabaseUnavailable, ServiceError, toServiceError } from '../domain/service-error.ts';
import { DOWNLOAD_PREFIX } from '../domain/bulk/blob-store.ts';
import { buildManifest } from '../manifest/manifest.ts';
import type { ToolDefinition } from '../api/define-tool.ts';
import { JsonRpcDispatcher, oversizedMessageError, RPC, type ServerInfo } from '../api/jsonrpc.ts';
import { refuseUnauthenticated, runTool } from '../api/seam.ts';
import type { MisplacedKey } from '../api/auth.ts';
import type { Services } from '../api/services.ts';
import { applyCors, corsAllows } from './cors.ts';
import { renderDocsPage } from './docs-page.ts';
import { serveDownload } from './download.ts';
import { sendBody } from './encoding.ts';
import { BODY_LIMIT_BYTES, drainRefusedBody, rateHeaders, readBody, requestIdOf, sendError, sendJson, traceIdOf } from './http-io.ts';
import { configureServer, serverOptions } from './lifecycle.ts';
import { newRecord, observe, ServiceMetrics, type RequestRecord } from './observability.ts';
import { buildOpenApi } from './openapi.ts';
import { pathParamNames, Router } from './router.ts';
import { queryToInput } from './query-params.ts';

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The server with what its owner needs to stop it gracefully and to scrape it. */
export interface ServiceServer extends Server {
  metrics: ServiceMetrics;
  /** requests being handled right now */
  inFlight(): number;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Whether a request may scrape /metrics: always when no token is configured, else only with
 * `Bearer <token>`, compared in constant time (both sides hashed first, so their lengths leak nothing).
 */
export function metricsTokenMatches(token: string | null, authorization: string | undefined): boolean {
  if (token === null) return true;
  const m = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!), digest(token));
}

/**
 * The HTTP surface, generated: every /v1 and /health route from the registry, plus the tool server
 * (/mcp), its manifest, the OpenAPI document and the reference page, all from the same definitions;
 * /metrics for Prometheus. GET routes answer HEAD with the same headers and no body, counting
 * nothing against the caller's budget.
 */
export function createHttpServer(services: Services, tools: readonly ToolDefinition[], info: ServerInfo): ServiceServer {
  const router = new Router(tools);
  const rpc = new JsonRpcDispatcher(services, tools, info);
  const pathParams = new Map(tools.map((t) => [t, new Set(pathParamNames(t.http.path))]));
  const statics = new Map<string, { text: string; type: string; route: string }>([
    ['/mcp/manifest', { text: JSON.stringify(buildManifest(tools, info)), type: JSON_TYPE, route: 'manifest' }],
    ['/openapi.json', { text: JSON.stringify(buildOpenApi(tools, info)), type: JSON_TYPE, route: 'openapi' }],
    ['/docs', { text: renderDocsPage(tools, info), type: 'text/html; charset=utf-8', route: 'docs' }],
  ]);
  statics.set('/', statics.get('/docs')!);
  const metrics = new ServiceMetrics(services, services.config.dbPoolMax);
  let inFlight = 0;

  async function handle(req: IncomingMessage, res: ServerResponse, record: RequestRecord): Promise<void> {
    const { traceId, requestId } = record;
    res.setHeader('x-trace-id', traceId);
    res.setHeader('x-request-id', requestId);
    if (services.status.draining) res.setHeader('connection', 'close');
    if (applyCors(req, res, services.config.corsOrigins)) return;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const method = req.method ?? 'GET';
    const readMethod = method === 'GET' || method === 'HEAD';

    if (pathname === '/mcp') {
      record.route = 'mcp';
      return handleMcp(req, res, record);
    }
    const page = statics.get(pathname);
    if (page && readMethod) {
      record.route = page.route;
      return sendBody(res, 200, page.text, page.type, { cacheKey: pathname === '/' ? '/docs' : pathname });
    }
    if (pathname === '/metrics' && readMethod) {
      record.route = 'metrics';
      if (!metricsTokenMatches(services.config.metricsToken, header(req, 'authorization'))) {
        return sendError(res, new ServiceError('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.'), traceId, {
          'www-authenticate': 'Bearer realm="fds-metrics"',
        });
      }
      return sendBody(res, 200, await metrics.registry.metrics(), metrics.registry.contentType);
    }
    if (pathname.startsWith(DOWNLOAD_PREFIX)) {
      record.route = 'download';
      return serveDownload(req, res, services, pathname.slice(DOWNLOAD_PREFIX.length), query, traceId);
    }

    const match = router.match(method, pathname);
    if (match.kind === 'none') {
      return sendError(res, new ServiceError('NOT_FOUND', `No route ${method} ${pathname}. The reference is at /docs and /openapi.json.`), traceId);
    }
    if (match.kind === 'method_not_allowed') {
      const allow = match.allow.includes('GET') ? [...match.allow, 'HEAD'] : match.allow;
      res.setHeader('allow', allow.join(', '));
      return sendError(res, new ServiceError('METHOD_NOT_ALLOWED', `${pathname} answers ${allow.join(', ')}, not ${method}.`), traceId);
    }
    if (match.kind === 'bad_path') {
      return sendError(res, new ServiceError('VALIDATION_ERROR', match.message), traceId);
    }

    const def = match.def;
    record.route = def.name;
    const apiKey = header(req, 'x-api-key');
    const misplacedKey = apiKey ? null : misplacedKeyOf(req, query);
    // the key before anything else: no parameter or body is looked at for a caller without one
    const refused = await refuseUnauthenticated(services, def, apiKey, misplacedKey);
    if (refused) {
      if (method === 'POST') drainRefusedBody(req);
      record.errorCode = refused.code;
      return sendError(res, refused, traceId);
    }
    let raw: Record<string, unknown>;
    try {
      // spread, not Object.assign: a body key "__proto__" must stay a key (refused as unknown, seen
      // by the shared input rules), not become the prototype whose values zod would read unchecked
      raw = queryToInput(def.input, query, pathParams.get(def)!);
      if (method === 'POST') raw = { ...raw, ...(await readJsonBody(req, res)) };
      raw = { ...raw, ...match.params };
    } catch (err) {
      if (err instanceof ServiceError) {
        record.errorCode = err.code;
        return sendError(res, err, traceId);
      }
      throw err;
    }
    const outcome = await runTool(services, def, { raw }, { apiKey, misplacedKey, traceId, requestId, surface: 'http', peekBudget: method === 'HEAD' });
    if (outcome.caller) Object.assign(record, outcome.caller);
    const headers: Record<string, string> = {
      ...rateHeaders(def.requestClass, outcome.rate),
      'server-timing': `app;dur=${outcome.ms.toFixed(2)}`,
    };
    if (!outcome.ok) {
      record.errorCode = outcome.error.code;
      return sendError(res, outcome.error, traceId, headers);
    }
    const status = def.httpStatus ? def.httpStatus.of(outcome.output) : 200;
    sendJson(res, status, outcome.output, headers, { immutable: def.cache === 'immutable' });
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse, record: RequestRecord): Promise<void> {
    const { traceId, requestId } = record;
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendError(res, new ServiceError('METHOD_NOT_ALLOWED', 'The tool server takes POST with a JSON-RPC 2.0 body; it opens no event stream.'), traceId);
    }
    const origin = header(req, 'origin');
    if (origin !== undefined && !originAllowed(origin, services.config.mcpAllowedOrigins) && !corsAllows(origin, services.config.corsOrigins)) {
      drainRefusedBody(req);
      return sendJson(res, 403, {
        jsonrpc: '2.0',
        id: null,
        error: { code: RPC.INVALID_REQUEST, message: `Origin ${origin} is not allowed to call this tool server (MCP_ALLOWED_ORIGINS).` },
      });
    }
    const body = await readBody(req);
    if (!body.ok) {
      drainRefusedBody(req);
      return sendJson(res, 413, oversizedMessageError('Request body'));
    }
    // as on the HTTP API's POST routes (and MCP's Streamable HTTP transport): a body that does not
    // say it is JSON is not read as JSON-RPC (a form post, text/plain) but refused as what it is
    if (!JSON_CONTENT_TYPE.test(header(req, 'content-type') ?? '')) {
      return sendJson(res, 415, {
        jsonrpc: '2.0',
        id: null,
        error: { code: RPC.INVALID_REQUEST, message: 'Send the JSON-RPC body with Content-Type: application/json.' },
      });
    }
    const apiKey = header(req, 'x-api-key');
    const reply = await rpc.handle(body.text, {
      apiKey,
      misplacedKey: apiKey ? null : misplacedKeyOf(req, new URLSearchParams((req.url ?? '').split('?')[1] ?? '')),
      traceId,
      requestId,
      // 2026-07-28 requests are checked against the headers that mirror their body
      headers: { protocolVersion: header(req, 'mcp-protocol-version'), method: header(req, 'mcp-method'), name: header(req, 'mcp-name') },
      onToolCall: (tool, outcome) => {
        record.tools.push(tool);
        if (outcome.caller) Object.assign(record, outcome.caller);
        if (!outcome.ok) record.errorCode = outcome.error.code;
        metrics.toolCalls.inc({ tool, outcome: outcome.ok ? 'ok' : outcome.error.code });
      },
    });
    if (reply.body === null) {
      res.writeHead(202);
      res.end();
      return;
    }
    return sendJson(res, reply.status, reply.body);
  }

  const server = createServer(serverOptions(), (req, res) => {
    const record = newRecord(traceIdOf(req), requestIdOf(req));
    inFlight++;
    let counted = true;
    const settle = () => {
      if (counted) inFlight--;
      counted = false;
    };
    res.on('finish', settle);
    res.on('close', settle);
    observe(req, res, record, services, metrics);
    handle(req, res, record).catch((err) => {
      services.logger.error({ trace_id: record.traceId, route: record.route, err }, 'unhandled');
      const error = isDatabaseUnavailable(err) ? toServiceError(err) : new ServiceError('INTERNAL_ERROR', 'The service failed to complete this request.');
      record.errorCode = error.code;
      if (!res.headersSent) sendError(res, error, record.traceId);
      else res.destroy();
    });
  });
  configureServer(server, services.config);
  return Object.assign(server, { metrics, inFlight: () => inFlight }) as ServiceServer;
}

/**
 * Where a request without X-Api-Key carries something that looks like a key instead: an api_key or
 * key query parameter, an Authorization bearer token, a cookie. None is ever read as a key; the
 * 401 names the place so the caller knows to move it to X-Api-Key.
 */
export function misplacedKeyOf(req: IncomingMessage, query: URLSearchParams): MisplacedKey | null {
  if (query.has('api_key') || query.has('key') || query.has('apikey')) return 'query';
  if (/^\s*bearer\s/i.test(header(req, 'authorization') ?? '')) return 'bearer';
  if ((header(req, 'cookie') ?? '').trim() !== '') return 'cookie';
  return null;
}

/** Browsers send Origin; a page on a foreign origin must not drive the tool server (DNS rebinding). */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** The media type a POST body must declare, with or without parameters (`; charset=utf-8`). */
const JSON_CONTENT_TYPE = /^\s*application\/json\s*(?:;|$)/i;

/** POST bodies: at most 1 MiB of a JSON object; anything else is a clear 4xx. */
async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown>> {
  const body = await readBody(req);
  if (!body.ok) {
    drainRefusedBody(req);
    throw new ServiceError('PAYLOAD_TOO_LARGE', 'Request body exceeds 1 MiB.', { limit_bytes: BODY_LIMIT_BYTES });
  }
  if (body.text.trim() === '') return {};
  if (!JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) {
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    throw new ServiceError('VALIDATION_ERROR', 'The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ServiceError('VALIDATION_ERROR', 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
