import { open, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { isLoopbackHost } from '../domain/loopback.ts';
import { ServiceError } from '../domain/service-error.ts';
import { DOWNLOAD_PREFIX, isValidKey, servesDownloads } from '../domain/bulk/blob-store.ts';
import { buildManifest } from '../manifest/manifest.ts';
import type { ToolDefinition } from '../api/define-tool.ts';
import { JsonRpcDispatcher, RPC, type ServerInfo } from '../api/jsonrpc.ts';
import { runTool } from '../api/seam.ts';
import type { Services } from '../api/services.ts';
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
    if (pathname.startsWith(DOWNLOAD_PREFIX)) return serveDownload(req, res, services, pathname.slice(DOWNLOAD_PREFIX.length), query, traceId);

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

const CONTENT_TYPES: Record<string, string> = { '.parquet': 'application/vnd.apache.parquet', '.json': 'application/json' };

function downloadUrlInvalid(key: string, reason: 'expired' | 'bad_signature', expires: string | null): ServiceError {
  const slash = key.indexOf('/');
  const ask = slash > 0 ? `GET /v1/bulk/snapshots/${key.slice(0, slash)}/files/${key.slice(slash + 1)}` : 'GET /v1/bulk/snapshots/{snapshot_id}/files/{file_path}';
  if (reason === 'expired') {
    const at = new Date(Number(expires) * 1000).toISOString();
    return new ServiceError('DOWNLOAD_URL_INVALID', `This download URL expired at ${at}. Ask ${ask} with your API key for a new URL.`, { reason, expired_at: at });
  }
  return new ServiceError(
    'DOWNLOAD_URL_INVALID',
    `This download URL is not valid: its signature is missing or does not match (was the URL altered?). Ask ${ask} with your API key for a new URL.`,
    { reason },
  );
}

/**
 * The local store's signed URLs (spec: fetched with a plain GET and no key; the signature is the
 * credential). Outside the registry because the answer is a file streamed from disk, not JSON.
 */
async function serveDownload(
  req: IncomingMessage,
  res: ServerResponse,
  services: Services,
  key: string,
  query: URLSearchParams,
  traceId: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  const store = services.bulkStore;
  if (!servesDownloads(store)) {
    return sendError(res, new ServiceError('NOT_FOUND', `No route ${method} ${DOWNLOAD_PREFIX}${key}: bulk files are downloaded from the URLs the service issues.`), traceId);
  }
  if (method !== 'GET' && method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return sendError(res, new ServiceError('METHOD_NOT_ALLOWED', `Download URLs answer GET and HEAD, not ${method}.`), traceId);
  }
  if (!isValidKey(key)) {
    return sendError(res, new ServiceError('VALIDATION_ERROR', `"${key}" is not a bulk file path: segments of letters, digits and _ . = - joined by '/', no '.' or '..'.`), traceId);
  }
  const now = services.now();
  const expires = query.get('expires');
  const check = store.verify(key, expires, query.get('signature'), now);
  if (check !== 'ok') return sendError(res, downloadUrlInvalid(key, check, expires), traceId);

  const notFound = new ServiceError('NOT_FOUND', `No bulk file ${key}; its snapshot may have been removed. Ask /v1/bulk/snapshots/latest for the current one.`);
  let fh: FileHandle;
  try {
    fh = await open(store.pathOf(key), 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return sendError(res, notFound, traceId);
    throw err;
  }
  // held open from here: a retention pass deleting the file mid-download cannot cut it short
  try {
    const stat = await fh.stat();
    if (!stat.isFile()) return sendError(res, notFound, traceId);
    const dot = key.lastIndexOf('.');
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[dot === -1 ? '' : key.slice(dot)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': `private, max-age=${Math.max(0, Math.floor((Number(expires) * 1000 - now.getTime()) / 1000))}`,
    });
    if (method === 'HEAD') {
      res.end();
      return;
    }
    await pipeline(fh.createReadStream({ autoClose: false }), res).catch((err: NodeJS.ErrnoException) => {
      // the caller hung up: nothing to answer and nothing of ours to log
      if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
    });
  } finally {
    await fh.close();
  }
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
