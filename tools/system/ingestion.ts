import { z } from 'zod';
import type { RunRow } from '../../db/ingestion-runs.ts';
import { recentRuns, corpusStatementCounts } from './queries.ts';
import { Freshness, freshnessOf } from './freshness.ts';
import { feedPollSeconds, watchesFeed } from '../../domain/feed.ts';
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
  eta_s: z.number().nullable().describe('a running run: seconds left at its rate so far (companies finished per second since it started); null otherwise or before its first company'),
  archive: z
    .object({
      bytes_total: z.string().describe("compressed bytes of the archive members of the run's companies"),
      bytes_done: z.string().describe('of those, the bytes of the companies finished (ingested, unchanged or failed)'),
      bytes_per_s: z.number().describe('the rate so far, from the start of the run to its last progress record'),
      eta_s: z.number().nullable().describe('seconds left at that rate; null before the first company is done'),
    })
    .nullable()
    .describe("a run over SEC's bulk archives (companyfacts.zip, submissions.zip): how far through them; null for runs that read company by company"),
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
    eta_s: etaOf(r),
    archive: archiveOut(r),
  };
}

function etaOf(r: RunRow): number | null {
  const finished = r.companies_done + r.companies_failed;
  if (r.status !== 'running' || finished === 0) return null;
  const elapsed = (new Date(r.heartbeat_at).getTime() - new Date(r.started_at).getTime()) / 1000;
  return Math.max(0, Math.ceil((elapsed / finished) * (r.companies_total - finished)));
}

function archiveOut(r: RunRow): z.infer<typeof Run>['archive'] {
  if (r.archive_bytes_total === null || r.archive_bytes_done === null) return null;
  const done = Number(r.archive_bytes_done);
  const total = Number(r.archive_bytes_total);
  const elapsed = (new Date(r.finished_at ?? r.heartbeat_at).getTime() - new Date(r.started_at).getTime()) / 1000;
  const rate = elapsed > 0 ? done / elapsed : 0;
  return { bytes_total: r.archive_bytes_total, bytes_done: r.archive_bytes_done, bytes_per_s: Math.round(rate), eta_s: done > 0 && rate > 0 ? Math.ceil((total - done) / rate) : null };
}

export const ingestionStatus = defineTool({
  name: 'system.ingestion_status',
  title: 'Ingestion status',
  description:
    'Progress of the running ingestion (if any), the last finished run, the five most recent runs, corpus counts, and freshness: the feed watcher\'s last poll, its backlog and recent filings with their lag from SEC\'s acceptance to served. Ingestion runs at start-up on an empty database, with `npm run fds -- ingest`, and for each company with a new periodic filing in SEC\'s feed. Answers during start-up loading too.',
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
        mode: z
          .enum(['on_demand', 'feed'])
          .describe('feed: new filings are picked up from SEC\'s XBRL feed on the job queue (see freshness); on_demand: start-up on an empty database, and the ingest command'),
        next_run_at: Timestamp.nullable(),
      }),
      freshness: Freshness,
    }),
  ),
  handler: async ({ services }) => {
    const runs = await recentRuns(services.sql, 5);
    const corpus = await corpusStatementCounts(services.sql);
    const current = runs.find((r) => r.status === 'running') ?? null;
    const config = services.config;
    const watching = watchesFeed(config);
    const freshness = await freshnessOf(services, watching, feedPollSeconds(services.now(), config.feedPollSeconds));
    const finished = runs.find((r) => r.status !== 'running') ?? null;
    return {
      data: {
        phase: services.status.phase,
        progress: services.status.progress && withoutServerPaths(services.status.progress, services.config.secSource),
        current_run: current && runOut(current),
        last_finished_run: finished && runOut(finished),
        recent_runs: runs.map(runOut),
        corpus,
        schedule: { mode: watching ? ('feed' as const) : ('on_demand' as const), next_run_at: null },
        freshness,
      },
    };
  },
});

export const INGESTION_TOOLS = [ingestionStatus];
