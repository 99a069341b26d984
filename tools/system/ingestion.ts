import { z } from 'zod';
import type { RunRow } from '../../db/ingestion-runs.ts';
import { recentRuns, corpusStatementCounts } from './queries.ts';
import { sourceKindOf, withoutServerPaths } from '../../domain/source-kind.ts';
import { defineTool } from '../../api/define-tool.ts';
import { dataEnvelope, Timestamp } from '../../api/schemas.ts';

const Run = z.object({
  run_id: z.string(),
  status: z.enum(['running', 'succeeded', 'failed', 'interrupted']).describe('interrupted: the process stopped mid-run; finished companies stay, the next run completes the rest'),
  source: z.enum(['directory', 'live']).describe('the kind of SEC source the run read: directory (a mirror on the server) or live (the SEC sites); never a server path'),
  requested_ciks: z.array(z.string()).describe('empty when the run covered every company in the source'),
  started_at: Timestamp,
  finished_at: Timestamp.nullable(),
  heartbeat_at: Timestamp,
  companies_total: z.number().int(),
  companies_done: z.number().int(),
  companies_unchanged: z.number().int().describe('skipped because their source bytes and the normalizer were unchanged'),
  companies_without_data: z
    .number()
    .int()
    .describe('nothing usable in the source (no company facts, no submissions, no filing package that could be identified): nothing stored, the next run looks again; 0 for runs recorded before this count existed'),
  companies_failed: z.number().int(),
  facts_read: z.string().describe('count as a decimal integer string'),
  bytes_read: z.string(),
  versions_added: z.number().int(),
  restatements_added: z.number().int(),
  errors: z.array(z.object({ cik: z.string(), message: z.string() })),
});

function runOut(r: RunRow): z.infer<typeof Run> {
  const scrub = (text: string) => withoutServerPaths(text, r.source);
  return {
    run_id: r.run_id,
    status: r.status,
    source: sourceKindOf(r.source),
    requested_ciks: r.requested,
    started_at: r.started_at,
    finished_at: r.finished_at,
    heartbeat_at: r.heartbeat_at,
    companies_total: r.companies_total,
    companies_done: r.companies_done,
    companies_unchanged: r.companies_skipped,
    companies_without_data: r.companies_without_data,
    companies_failed: r.companies_failed,
    facts_read: r.facts_read,
    bytes_read: r.bytes_read,
    versions_added: r.versions_added,
    restatements_added: r.restatements_added,
    errors: r.errors.map((e) => ({ cik: e.cik, message: scrub(e.message) })),
  };
}

export const ingestionStatus = defineTool({
  name: 'system.ingestion_status',
  title: 'Ingestion status',
  description:
    'Progress of the running ingestion (if any), the last finished run, the five most recent runs and corpus counts. Ingestion runs at start-up on an empty database and with `npm run fds -- ingest`. Answers during start-up loading too.',
  http: { method: 'GET', path: '/v1/system/ingestion/status' },
  tool: false,
  plan: 'free',
  servesWhileLoading: true,
  input: z.object({}),
  output: dataEnvelope(
    z.object({
      phase: z.enum(['starting', 'loading', 'ready']),
      progress: z.string().nullable(),
      current_run: Run.nullable(),
      last_finished_run: Run.nullable(),
      recent_runs: z.array(Run),
      corpus: z.object({
        companies_ingested: z.number().int(),
        filings: z.number().int(),
        statement_versions: z.number().int(),
        restatements: z.number().int(),
      }),
      schedule: z.object({
        mode: z.literal('on_demand').describe('no timer: start-up on an empty database, and the ingest command'),
        next_run_at: Timestamp.nullable(),
      }),
    }),
  ),
  handler: async ({ services }) => {
    const runs = await recentRuns(services.sql, 5);
    const corpus = await corpusStatementCounts(services.sql);
    const current = runs.find((r) => r.status === 'running') ?? null;
    const finished = runs.find((r) => r.status !== 'running') ?? null;
    return {
      data: {
        phase: services.status.phase,
        progress: services.status.progress && withoutServerPaths(services.status.progress, services.config.secSource),
        current_run: current && runOut(current),
        last_finished_run: finished && runOut(finished),
        recent_runs: runs.map(runOut),
        corpus,
        schedule: { mode: 'on_demand' as const, next_run_at: null },
      },
    };
  },
});

export const INGESTION_TOOLS = [ingestionStatus];
