import { z } from 'zod';
import { migrationState, corpusCounts } from './queries.ts';
import { FREE_COVERAGE, RATE_LIMITS } from '../../domain/plans.ts';
import { sourceKindOf, withoutServerPaths } from '../../domain/source-kind.ts';
import { defineTool } from '../../api/define-tool.ts';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, Timestamp } from '../../api/schemas.ts';
import type { Services } from '../../api/services.ts';

export const SERVICE_VERSION = '0.1.0';

function uptime(services: Services): number {
  return Math.round((services.now().getTime() - services.status.startedAt.getTime()) / 1000);
}

export const healthLiveness = defineTool({
  name: 'health.liveness',
  title: 'Liveness',
  description: 'Answers 200 while the process serves requests. Needs no key; touches no database.',
  http: { method: 'GET', path: '/health/z' },
  tool: false,
  plan: 'free',
  auth: 'none',
  input: z.object({}),
  output: z.object({ status: z.literal('ok'), uptime_s: z.number().int() }),
  handler: async ({ services }) => ({ status: 'ok' as const, uptime_s: uptime(services) }),
});

const Readiness = z.object({
  status: z.enum(['ready', 'loading', 'starting', 'unavailable', 'draining']).describe('draining: the instance is shutting down and finishing its requests; send new ones elsewhere'),
  checks: z.object({
    database: z.object({ ok: z.boolean(), latency_ms: z.number().nullable(), error: z.string().nullable() }),
    migrations: z.object({ ok: z.boolean(), applied: z.number().int(), expected: z.number().int() }),
    data: z.object({ phase: z.enum(['starting', 'loading', 'ready']), progress: z.string().nullable() }),
  }),
  started_at: Timestamp,
  uptime_s: z.number().int(),
});

export const systemHealth = defineTool({
  name: 'system.health',
  title: 'Service health and readiness',
  description:
    'Whether the service can answer data requests: database reachable, migrations applied, data loaded. status is ready, loading (data still being ingested; retry later), starting, unavailable or draining (shutting down). Needs no key. Over HTTP, anything but ready answers 503.',
  http: { method: 'GET', path: '/health/readiness' },
  tool: true,
  listedAs: 'spec',
  plan: 'free',
  auth: 'none',
  input: z.object({}),
  output: Readiness,
  httpStatus: {
    of: (out) => (out.status === 'ready' ? 200 : 503),
    documented: { '503': 'Not ready (loading, starting, unavailable or draining): the same body, with the failing checks' },
  },
  handler: async ({ services }) => {
    const started = performance.now();
    let database: z.infer<typeof Readiness>['checks']['database'];
    let migrations = { ok: false, applied: 0, expected: 0 };
    try {
      const m = await migrationState(services.sql);
      database = { ok: true, latency_ms: Math.round((performance.now() - started) * 100) / 100, error: null };
      migrations = { ok: m.applied === m.expected, ...m };
    } catch {
      database = { ok: false, latency_ms: null, error: 'database unreachable' };
    }
    const phase = services.status.phase;
    const status: z.infer<typeof Readiness>['status'] = services.status.draining
      ? 'draining'
      : !database.ok || (!migrations.ok && phase === 'ready')
        ? 'unavailable'
        : phase;
    return {
      status,
      checks: { database, migrations, data: { phase, progress: services.status.progress && withoutServerPaths(services.status.progress, services.config.secSource) } },
      started_at: services.status.startedAt.toISOString(),
      uptime_s: uptime(services),
    };
  },
});

const Budget = z.object({ requests: z.number().int(), window_seconds: z.number().int() });

export const systemMetadata = defineTool({
  name: 'system.metadata',
  title: 'Service metadata and your usage limits',
  description:
    'Version, your plan, your request budgets per class, your company coverage mode, corpus counts, pagination limits and the data source. Read it to learn what this key may do.',
  http: { method: 'GET', path: '/v1/system/metadata' },
  tool: true,
  listedAs: 'spec',
  plan: 'free',
  input: z.object({}),
  output: z.object({
    data: z.object({
      service: z.object({ name: z.string(), version: z.string(), started_at: Timestamp }),
      plan: z.enum(['free', 'growth', 'scale', 'enterprise']),
      organization: z.string(),
      rate_limits: z.object({ standard: Budget, tool_server: Budget, bulk: Budget }),
      rate_limits_enforced: z.boolean(),
      coverage: z.object({ mode: z.enum(['selected', 'full']), limit: z.number().int().nullable(), window_days: z.number().int().nullable() }),
      pagination: z.object({ default_page_size: z.number().int(), max_page_size: z.number().int() }),
      corpus: z.object({
        companies: z.number().int().describe('issuers in the company reference (from SEC submissions, or from company facts when SEC has no submissions file)'),
        identity_mappings: z.number().int(),
        live_identity_mappings: z.number().int(),
        last_identity_load: Timestamp.nullable(),
      }),
      source: z
        .object({ kind: z.enum(['directory', 'live']) })
        .describe('where SEC data is read from: directory (a mirror of SEC sites on the server) or live (the SEC sites); never a server path'),
    }),
  }),
  handler: async ({ services, auth }) => {
    const a = auth!;
    const counts = await corpusCounts(services.sql);
    const limits = RATE_LIMITS[a.plan];
    const budget = (b: { limit: number; window_s: number }) => ({ requests: b.limit, window_seconds: b.window_s });
    return {
      data: {
        service: { name: 'fds', version: SERVICE_VERSION, started_at: services.status.startedAt.toISOString() },
        plan: a.plan,
        organization: a.orgName,
        rate_limits: { standard: budget(limits.standard), tool_server: budget(limits.tool_server), bulk: budget(limits.bulk) },
        rate_limits_enforced: services.config.rateLimits,
        coverage:
          a.plan === 'free'
            ? { mode: 'selected' as const, limit: FREE_COVERAGE.slots, window_days: FREE_COVERAGE.window_days }
            : { mode: 'full' as const, limit: null, window_days: null },
        pagination: { default_page_size: PAGE_SIZE_DEFAULT, max_page_size: PAGE_SIZE_MAX },
        corpus: {
          companies: counts.companies,
          identity_mappings: counts.mappings,
          live_identity_mappings: counts.live_mappings,
          last_identity_load: counts.last_load,
        },
        source: { kind: sourceKindOf(services.config.secSource) },
      },
    };
  },
});

export const SYSTEM_TOOLS = [systemHealth, systemMetadata, healthLiveness];
