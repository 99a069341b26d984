import { FREE_COVERAGE, PLANS, RATE_LIMITS } from '../domain/plans.ts';
import { toolName, type ToolDefinition } from '../api/define-tool.ts';
import { toolSchemasOf } from '../api/json-schema.ts';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type ServerInfo } from '../api/jsonrpc.ts';
import { STATELESS_PROTOCOL_VERSIONS } from '../api/mcp-revisions.ts';

/**
 * The tool-server manifest (GET /mcp/manifest, no key): generated from the registry, never edited
 * by hand. Agents read tools, plans and request budgets here before they hold a key.
 */
export function buildManifest(tools: readonly ToolDefinition[], info: ServerInfo) {
  return {
    generated_from: 'tools/index.ts (the registry)',
    server: info,
    endpoint: '/mcp',
    transport: 'JSON-RPC 2.0 over HTTP POST (one JSON body per response; no event stream), or over stdio from a checkout (npx fds mcp, the key in FDS_API_KEY)',
    protocol_versions: SUPPORTED_PROTOCOL_VERSIONS,
    default_protocol_version: LATEST_PROTOCOL_VERSION,
    /** served without initialize: every request carries its version and client capabilities in params._meta */
    stateless_protocol_versions: STATELESS_PROTOCOL_VERSIONS,
    authentication: { header: 'X-Api-Key', not_required_for: ['initialize', 'ping', 'server/discover', 'tools/list', 'GET /mcp/manifest'] },
    plans: PLANS,
    tools: tools
      .filter((t) => t.tool)
      .map((t) => ({
        name: toolName(t),
        title: t.title,
        description: t.description,
        required_plan: t.plan,
        http: t.http,
        input_schema: toolSchemasOf(t).input,
        output_schema: toolSchemasOf(t).output,
        annotations: t.annotations,
      })),
    rate_limits: Object.fromEntries(
      PLANS.map((p) => [
        p,
        Object.fromEntries(
          Object.entries(RATE_LIMITS[p]).map(([cls, b]) => [cls, { requests: b.limit, window_seconds: b.window_s }]),
        ),
      ]),
    ),
    rate_limit_notes:
      'Budgets are per API key and request class. tool_server counts tools/call; standard counts /v1 routes; bulk counts /v1/bulk routes (Scale and Enterprise only). Over budget: HTTP 429 RATE_LIMITED with Retry-After, or a tool result with isError and retry_after_s.',
    coverage: { free_plan_companies: FREE_COVERAGE.slots, slot_window_days: FREE_COVERAGE.window_days, paid_plans: 'full' },
  };
}
