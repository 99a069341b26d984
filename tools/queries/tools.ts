import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { insertManifest, manifestByToken } from './queries.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool, type ToolDefinition } from '../../api/define-tool.ts';
import { pastBoundary } from '../../api/params.ts';
import { planError, validationError } from '../../api/seam.ts';
import { planAllows } from '../../domain/plans.ts';
import { CikOut, dataEnvelope, IsoDate, Timestamp } from '../../api/schemas.ts';
import { catalogVersion, codeVersion } from '../../api/versions.ts';
import { QUERY_TYPE_NAMES, QUERY_TYPES } from './query-types.ts';

/**
 * Deterministic queries: execute runs one of four query types with as_of_date as a hard
 * no-lookahead boundary, records an immutable manifest and the exact response, and returns a
 * replay token; replay returns the recorded bytes, whatever was ingested since.
 */

const TOKEN = /^qr_[A-Za-z0-9_-]{32}$/;

/** 24 random bytes (192 bits) as base64url: opaque, unguessable, and nothing derived from the query. */
function newToken(): string {
  return `qr_${randomBytes(24).toString('base64url')}`;
}

/** `sha256:<hex>` of the result exactly as serialized in the response */
function resultHash(resultText: string): string {
  return `sha256:${createHash('sha256').update(resultText).digest('hex')}`;
}

const UUID_KEYS = new Set(['statement_version_id', 'previous_version_id']);

/** Every statement version id the result names (the versions the query read), sorted, once each. */
function versionIdsOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) versionIdsOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (UUID_KEYS.has(k) && typeof v === 'string') {
        out.add(v);
      } else if (k === 'statement_version_ids' && Array.isArray(v)) {
        for (const id of v) if (typeof id === 'string') out.add(id);
      } else {
        versionIdsOf(v, out);
      }
    }
  }
  return out;
}

const Manifest = z.object({
  replay_token: z.string().describe('qr_ + 32 base64url characters (192 random bits); GET /v1/query/replay/{replay_token}'),
  query_type: z.string(),
  parameters: z.record(z.string(), z.unknown()).describe('the parameters after validation: defaults applied, CIKs padded, names upper-cased, lists sorted'),
  as_of_date: z.string().describe('the no-lookahead boundary applied (the request date in UTC when omitted)'),
  ciks: z.array(CikOut).describe('companies the query reached (coverage applies to them on replay too)'),
  statement_version_ids: z.array(z.string()).describe('every statement version the result was read from, sorted'),
  read_through: z.array(z.string()).describe('the route definitions the query read through (their plan gates apply to replays too)'),
  code_version: z.string().describe('service version + git commit of the code that answered'),
  catalog_version: z.string().describe('fingerprint of the metric catalog (definitions, bundles, views)'),
  result_hash: z.string().describe('sha256 of the result as serialized in the response (JSON, UTF-8, no whitespace)'),
  result_bytes: z.number().int(),
  created_at: Timestamp,
});

const ExecuteOut = dataEnvelope(
  z.object({
    replay_token: z.string(),
    manifest: Manifest,
    result_included: z.boolean().describe('false when include_result=false: the result is recorded and replay returns it'),
    result: z.record(z.string(), z.unknown()).optional().describe('the answer of the query type, shaped like the route it reads'),
  }),
);

export const queryExecute = defineTool({
  name: 'query.execute',
  title: 'Execute a deterministic query (records a replayable manifest)',
  description:
    `Runs a point-in-time query and records it: query_type is one of ${QUERY_TYPE_NAMES.join(', ')}; parameters depend on it. ` +
    'as_of_date (default today, UTC; never in the future) is a hard boundary: nothing filed after it reaches the result. ' +
    'Returns a replay_token and a manifest (parameters, statement version ids read, code and catalog version, result hash); query_replay returns the identical response later. ' +
    'include_result=false answers with the manifest only. Coverage and plan are those of the routes the query reads.',
  http: { method: 'POST', path: '/v1/query/execute' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  annotations: { readOnlyHint: false, idempotentHint: false },
  input: z.object({
    query_type: z.string().min(1).max(64).describe(`one of ${QUERY_TYPE_NAMES.join(', ')}`),
    as_of_date: IsoDate.optional().describe('no-lookahead boundary (YYYY-MM-DD): only filings on or before it; default today (UTC)'),
    include_result: z.boolean().default(true).describe('false: record everything but answer with the manifest only'),
    parameters: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        'financial_state_time_series: cik, fiscal_year_from, fiscal_year_to, period_type (annual), page, page_size. metric_panel: ciks, metrics, fiscal_year_from, fiscal_year_to, period_type. ' +
          'statement_as_of: cik, statement_type, fiscal_year, fiscal_period, include_version_history. restatement_history: cik, statement_type, fiscal_year, fiscal_period, metric, page, page_size',
      ),
  }),
  output: ExecuteOut,
  handler: async (ctx, input) => {
    // own keys only: "__proto__" or "constructor" would find Object.prototype's members
    const type = Object.hasOwn(QUERY_TYPES, input.query_type) ? QUERY_TYPES[input.query_type] : undefined;
    if (!type) {
      throw new ServiceError('VALIDATION_ERROR', `Unknown query_type ${JSON.stringify(input.query_type)}; query types: ${QUERY_TYPE_NAMES.join(', ')}.`, {
        query_type: input.query_type,
        query_types: QUERY_TYPE_NAMES,
      });
    }
    const now = ctx.services.now();
    const asOf = pastBoundary(input.as_of_date ?? now.toISOString().slice(0, 10), now);
    const parsed = type.parameters.safeParse(input.parameters);
    if (!parsed.success) {
      throw validationError(parsed.error.issues.map((i) => ({ path: ['parameters', ...i.path.map(String)].join('.'), message: i.message, code: i.code })));
    }
    const params = parsed.data as Record<string, unknown>;
    const ciks = [...new Set(type.companies(params))].sort();
    await ctx.reach(ciks);
    const readThrough = new Set<string>();
    const tracked = { ...ctx, invoke: (name: string, raw: Record<string, unknown>) => (readThrough.add(name), ctx.invoke(name, raw)) };
    const result = await type.run(tracked, params, asOf);

    const resultText = JSON.stringify(result);
    const token = newToken();
    const manifest = {
      replay_token: token,
      query_type: input.query_type,
      parameters: params,
      as_of_date: asOf,
      ciks,
      statement_version_ids: [...versionIdsOf(result)].sort(),
      read_through: [...readThrough].sort(),
      code_version: codeVersion(),
      catalog_version: catalogVersion(),
      result_hash: resultHash(resultText),
      result_bytes: Buffer.byteLength(resultText),
      created_at: now.toISOString(),
    };
    const response = { data: { replay_token: token, manifest, result_included: true, result } };
    const responseText = JSON.stringify(response);
    await insertManifest(ctx.services.sql, {
      ...manifest,
      manifest,
      response_text: responseText,
      key_id: ctx.auth?.keyId ?? null,
    });
    if (input.include_result) return JSON.parse(responseText) as typeof response;
    return { data: { replay_token: token, manifest, result_included: false } };
  },
});

export const queryReplay = defineTool({
  name: 'query.replay',
  title: 'Replay a recorded deterministic query',
  description:
    'The exact response recorded when the query ran (manifest and result, byte for byte), whatever was ingested since; include_result=false executions replay with their result. ' +
    'The token comes from query_execute. An unknown token is 404; the companies the query reached count against a Free key\'s coverage as any read would.',
  http: { method: 'GET', path: '/v1/query/replay/{replay_token}' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({ replay_token: z.string().min(1).max(200).describe('token returned by query execute (qr_ + 32 characters)') }),
  output: ExecuteOut,
  handler: async (ctx, input) => {
    if (!TOKEN.test(input.replay_token)) {
      throw new ServiceError('VALIDATION_ERROR', 'A replay token is qr_ followed by 32 base64url characters, as returned by query execute (POST /v1/query/execute or the query_execute tool).', { replay_token: input.replay_token });
    }
    const row = await manifestByToken(ctx.services.sql, input.replay_token);
    if (!row) throw new ServiceError('NOT_FOUND', `No recorded query has replay token ${input.replay_token}; tokens come from query execute (POST /v1/query/execute or the query_execute tool).`, { replay_token: input.replay_token });
    const recorded = JSON.parse(row.response_text) as z.output<typeof ExecuteOut>;
    for (const name of recorded.data.manifest.read_through ?? []) {
      const def = ctx.services.registry.get(name);
      if (def && ctx.auth && !planAllows(ctx.auth.plan, def.plan)) throw planError(def, ctx.auth);
    }
    await ctx.reach(row.ciks);
    // the row cannot be updated through SQL, but an auditor relies on this: the bytes served still hash to the manifest's result_hash
    if (resultHash(JSON.stringify(recorded.data.result)) !== recorded.data.manifest.result_hash) {
      throw new Error(`recorded response of ${input.replay_token} does not match its result_hash`);
    }
    return recorded;
  },
});

export const QUERY_TOOLS: ToolDefinition[] = [queryExecute, queryReplay];
