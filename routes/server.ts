import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isLoopbackHost } from '../domain/loopback.ts';
import { ServiceError } from '../domain/service-error.ts';
import { buildManifest } from '../manifest/manifest.ts';
import type { ToolDefinition } from '../tools/define-tool.ts';
import { JsonRpcDispatcher, RPC, type ServerInfo } from '../tools/jsonrpc.ts';
import { runTool } from '../tools/seam.ts';
import type { Services } from '../tools/services.ts';
import { renderDocsPage } from './docs-page.ts';
import { BODY_LIMIT_BYTES, closeAfter, newTraceId, rateHeaders, readBody, requestIdOf, sendError, sendJson } from './http-io.ts';
import { buildOpenApi } from './openapi.ts';
import { pathParamNames, Router } from './router.ts';
import { queryToInput } from './query-params.ts';

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The HTTP surface, generated: every /v1 and /health route from the registry, plus the tool server
 * (/mcp), its manifest, the OpenAPI document and the reference page, all from the same definitions.
 */
export function createHttpServer(services: Services, tools: readonly ToolDefinition[], info: ServerInfo): Server {
  const router = new Router(tools);
  const rpc = new JsonRpcDispatcher(services, tools, info);
  const pathParams = new Map(tools.map((t) => [t, new Set(pathParamNames(t.http.path))]));
  const manifestJson = JSON.stringify(buildManifest(tools, info));
  const openApiJson = JSON.stringify(buildOpenApi(tools, info));
  const docsHtml = renderDocsPage(tools, info);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const traceId = newTraceId();
    const requestId = requestIdOf(req);
    res.setHeader('x-trace-id', traceId);
    res.setHeader('x-request-id', requestId);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const method = req.method ?? 'GET';

    if (pathname === '/mcp') {
      if (method !== 'POST') {
        res.setHeader('allow', 'POST');
        return sendError(res, new ServiceError('METHOD_NOT_ALLOWED', 'The tool server takes POST with a JSON-RPC 2.0 body; it opens no event stream.'), traceId);
      }
      const origin = header(req, 'origin');
      if (origin !== undefined && !originAllowed(origin, services.config.mcpAllowedOrigins)) {
        closeAfter(res); // the body is left unread
        return sendJson(res, 403, {
          jsonrpc: '2.0',
          id: null,
          error: { code: RPC.INVALID_REQUEST, message: `Origin ${origin} is not allowed to call this tool server (MCP_ALLOWED_ORIGINS).` },
        });
      }
      const body = await readBody(req);
      if (!body.ok) {
        closeAfter(res);
        return sendJson(res, 413, { jsonrpc: '2.0', id: null, error: { code: RPC.INVALID_REQUEST, message: 'Request body exceeds 1 MiB' } });
      }
      const reply = await rpc.handle(body.text, { apiKey: header(req, 'x-api-key'), traceId, requestId });
      if (reply.body === null) {
        res.writeHead(202);
        res.end();
        return;
      }
      return sendJson(res, 200, reply.body);
    }
    if (method === 'GET' && pathname === '/mcp/manifest') return sendRaw(res, manifestJson, 'application/json; charset=utf-8');
    if (method === 'GET' && pathname === '/openapi.json') return sendRaw(res, openApiJson, 'application/json; charset=utf-8');
    if (method === 'GET' && (pathname === '/docs' || pathname === '/')) return sendRaw(res, docsHtml, 'text/html; charset=utf-8');

    const match = router.match(method, pathname);
    if (match.kind === 'none') {
      return sendError(res, new ServiceError('NOT_FOUND', `No route ${method} ${pathname}. The reference is at /docs and /openapi.json.`), traceId);
    }
    if (match.kind === 'method_not_allowed') {
      res.setHeader('allow', match.allow.join(', '));
      return sendError(res, new ServiceError('METHOD_NOT_ALLOWED', `${pathname} answers ${match.allow.join(', ')}, not ${method}.`), traceId);
    }
    if (match.kind === 'bad_path') {
      return sendError(res, new ServiceError('VALIDATION_ERROR', match.message), traceId);
    }

    const def = match.def;
    let raw: Record<string, unknown>;
    try {
      raw = queryToInput(def.input, query, pathParams.get(def)!);
      if (method === 'POST') Object.assign(raw, await readJsonBody(req, res));
      Object.assign(raw, match.params);
    } catch (err) {
      if (err instanceof ServiceError) return sendError(res, err, traceId);
      throw err;
    }
    const outcome = await runTool(services, def, { raw }, { apiKey: header(req, 'x-api-key'), traceId, requestId, surface: 'http' });
    const headers: Record<string, string> = {
      ...rateHeaders(def.requestClass, outcome.rate),
      'server-timing': `app;dur=${outcome.ms.toFixed(2)}`,
    };
    if (!outcome.ok) return sendError(res, outcome.error, traceId, headers);
    const status = def.httpStatus ? def.httpStatus(outcome.output as never) : 200;
    sendJson(res, status, outcome.output, headers);
  }

  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    if (services.config.logRequests) logWhenDone(req, res);
    handle(req, res).catch((err) => {
      const traceId = String(res.getHeader('x-trace-id') ?? newTraceId());
      console.error(`[${traceId}] unhandled:`, err);
      if (!res.headersSent) sendError(res, new ServiceError('INTERNAL_ERROR', 'The service failed to complete this request.'), traceId);
      else res.destroy();
    });
  });
  return server;
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

/** One JSON line per request: what an operator greps for with a trace id from a caller. */
function logWhenDone(req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  res.on('finish', () => {
    console.log(
      JSON.stringify({
        at: new Date().toISOString(),
        method: req.method,
        path: (req.url ?? '').split('?')[0],
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 100) / 100,
        trace_id: res.getHeader('x-trace-id'),
        request_id: res.getHeader('x-request-id'),
      }),
    );
  });
}

function sendRaw(res: ServerResponse, text: string, type: string): void {
  res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** POST bodies: at most 1 MiB of a JSON object; anything else is a clear 4xx. */
async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown>> {
  const body = await readBody(req);
  if (!body.ok) {
    closeAfter(res);
    throw new ServiceError('PAYLOAD_TOO_LARGE', 'Request body exceeds 1 MiB.', { limit_bytes: BODY_LIMIT_BYTES });
  }
  if (body.text.trim() === '') return {};
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
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
