import type { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../api/schemas.ts';
import { toolName, type ToolDefinition } from '../api/define-tool.ts';
import { inputJsonSchema, schemasOf } from '../api/json-schema.ts';
import type { ServerInfo } from '../api/jsonrpc.ts';
import { pathParamNames } from './router.ts';
import { isRepeatable } from './query-params.ts';

type Json = Record<string, unknown>;

const ERROR_ENVELOPE: Json = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'http_status', 'message', 'details', 'trace_id'],
      properties: {
        code: { type: 'string', description: 'machine-readable code, e.g. VALIDATION_ERROR, UNAUTHORIZED, FEATURE_NOT_AVAILABLE' },
        http_status: { type: 'integer' },
        message: { type: 'string', description: 'what went wrong and how to recover' },
        details: { type: 'object', description: 'structured context; may be empty' },
        trace_id: { type: 'string', description: 'equals the X-Trace-Id response header' },
      },
    },
  },
};

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'VALIDATION_ERROR: a parameter failed validation; details.issues lists each failure',
  '401': 'UNAUTHORIZED: missing or invalid X-Api-Key',
  '403': 'FEATURE_NOT_AVAILABLE (plan too low) or COVERAGE_SELECTION_FULL (Free plan)',
  '404': 'NOT_FOUND',
  '413': 'PAYLOAD_TOO_LARGE: body over 1 MiB',
  '429': 'RATE_LIMITED: request budget spent; see Retry-After and RateLimit headers',
  '503': 'SERVICE_UNAVAILABLE: still loading data; retry after Retry-After seconds',
};

function area(def: ToolDefinition): string {
  return def.name.split('.')[0] ?? def.name;
}

function operation(def: ToolDefinition): Json {
  const shape = def.input.shape as Record<string, z.ZodType>;
  const inPath = new Set(pathParamNames(def.http.path));
  const inRest = new Set([...def.http.path.matchAll(/\{([a-z_]+)\+\}/g)].map((m) => m[1]!));
  const required = new Set<string>(((inputJsonSchema(def.input).required as string[] | undefined) ?? []));
  const parameters: Json[] = [];
  const bodyProps: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const schema = inputJsonSchema(field);
    if (inPath.has(name)) {
      const description = inRest.has(name)
        ? [schema.description, "May contain '/': it takes the rest of the path (e.g. financials/fiscal_year_2023/part-0000.parquet); segments '.' and '..' are refused."].filter(Boolean).join('. ')
        : schema.description;
      parameters.push({ name, in: 'path', required: true, schema, description });
    } else if (def.http.method === 'GET') {
      const p: Json = { name, in: 'query', required: required.has(name), schema, description: schema.description };
      if (isRepeatable(field)) Object.assign(p, { style: 'form', explode: true });
      parameters.push(p);
    } else {
      bodyProps[name] = schema;
    }
  }
  const responses: Json = {
    '200': {
      description: 'OK',
      content: { 'application/json': { schema: schemasOf(def).output } },
    },
  };
  // successful answers that are not 200 carry the same body (a build still computing, readiness while loading)
  for (const [status, description] of Object.entries(def.httpStatus?.documented ?? {})) {
    responses[status] = { description, content: { 'application/json': { schema: schemasOf(def).output } } };
  }
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
    if (responses[status]) continue;
    if (def.auth === 'none' && ['401', '403', '429'].includes(status)) continue;
    responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
  }
  const op: Json = {
    operationId: def.name,
    summary: def.title,
    description: def.description + (def.tool ? `\n\nAlso a tool-server tool: \`${toolName(def)}\`.` : ''),
    tags: [area(def)],
    parameters,
    responses,
    'x-required-plan': def.plan,
    'x-request-class': def.requestClass,
  };
  if (def.tool) op['x-mcp-tool'] = toolName(def);
  if (def.auth === 'none') op.security = [];
  if (Object.keys(bodyProps).length > 0) {
    const bodyRequired = [...required].filter((r) => !inPath.has(r));
    op.requestBody = {
      required: bodyRequired.length > 0,
      content: { 'application/json': { schema: { type: 'object', properties: bodyProps, required: bodyRequired } } },
    };
  }
  return op;
}

/** OpenAPI path templates have no rest parameter: `{file_path+}` is shown as `{file_path}`. */
export function openApiPath(path: string): string {
  return path.replace(/\{([a-z_]+)\+\}/g, '{$1}');
}

/** OpenAPI 3.1, generated from the same definitions as the routes and tools. */
export function buildOpenApi(tools: readonly ToolDefinition[], info: ServerInfo): Json {
  const paths: Record<string, Json> = {};
  for (const def of tools) {
    const item = (paths[openApiPath(def.http.path)] ??= {});
    item[def.http.method.toLowerCase()] = operation(def);
  }
  paths['/mcp'] = {
    post: {
      operationId: 'mcp',
      summary: 'Tool server (JSON-RPC 2.0)',
      description:
        'MCP over Streamable HTTP, two eras on one endpoint. Handshake revisions (2025-06-18, 2025-03-26, 2024-11-05): methods initialize, ping, tools/list (no key) and tools/call (X-Api-Key); JSON-RPC errors come with HTTP 200. ' +
        'Stateless 2026-07-28 (params._meta carries io.modelcontextprotocol/protocolVersion and clientCapabilities; headers MCP-Protocol-Version, Mcp-Method and, on tools/call, Mcp-Name mirror the body): server/discover, tools/list, tools/call; ' +
        'a bad _meta is -32602, an unsupported version -32022, headers that contradict the body -32020, each with HTTP 400; a method it does not define -32601 with 404. ' +
        'Notifications are answered 202 with no body; bodies over 1 MiB get 413.',
      tags: ['mcp'],
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
      responses: {
        '200': { description: 'JSON-RPC response or batch' },
        '202': { description: 'notifications only' },
        '400': { description: '2026-07-28 request refused by its revision (-32602, -32022, -32020; a batch holding one: -32600)' },
        '404': { description: '2026-07-28 request for a method it does not define (-32601)' },
        '413': { description: 'body over 1 MiB' },
      },
    },
  };
  paths['/mcp/manifest'] = {
    get: { operationId: 'mcp.manifest', summary: 'Tool-server manifest', tags: ['mcp'], security: [], responses: { '200': { description: 'tools, plans, rate limits' } } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: [
        'Normalized financial statements from SEC XBRL filings. Generated from the tool registry (tools/index.ts).',
        'Authentication: X-Api-Key header. Every response carries X-Trace-Id and X-Request-ID.',
        `Pagination: page (from 1) and page_size (default ${PAGE_SIZE_DEFAULT}, at most ${PAGE_SIZE_MAX}); envelope { page, page_size, total, items }.`,
        'Decimal values are strings. Dates are YYYY-MM-DD; timestamps ISO 8601 UTC.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    security: [{ ApiKey: [] }],
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
      schemas: { ErrorEnvelope: ERROR_ENVELOPE },
    },
    paths,
  };
}
