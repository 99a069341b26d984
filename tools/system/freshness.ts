import { z } from 'zod';
import type { Sql } from '../../db/client.ts';
import type { Services } from '../../api/services.ts';
import { Timestamp } from '../../api/schemas.ts';

/** How fresh the corpus is: the feed watcher's last poll, its backlog and recent filings with their lag. */
export const Freshness = z.object({
  watching: z.boolean().describe('true when this deployment polls SEC\'s XBRL feed for new filings (SEC_SOURCE the live site, or FEED_WATCH=on)'),
  poll_interval_s: z.number().int().nullable().describe('seconds between polls now (FEED_POLL_S, else 60 in EDGAR\'s filing hours and 600 outside); null when not watching'),
  last_poll: z
    .object({
      at: Timestamp,
      ok: z.boolean(),
      result: z.string().describe('what the poll found (`12 items, 1 new`), or why it failed: unreachable, absent, malformed'),
      error: z.string().nullable(),
    })
    .nullable(),
  last_ok_at: Timestamp.nullable(),
  down_since: Timestamp.nullable().describe('the feed has failed every poll since then; null while it answers'),
  last_accession_seen: z.string().nullable().describe('the newest accession of the last poll that read the feed'),
  refresh_backlog: z.number().int().describe('periodic filings seen and not yet served (their company refresh is queued, running or waiting for company facts to hold them)'),
  late: z.number().int().describe('filings company facts still lacked an hour after they were seen; looked for again nightly'),
  sec_requests: z.string().describe('requests made to SEC under the fleet\'s shared budget, as a decimal integer string'),
  sec_paused_until: Timestamp.nullable().describe('every process holds its SEC requests until then (SEC answered 403, 429 or Retry-After)'),
  recent_filings: z.array(
    z.object({
      cik: z.string(),
      accession: z.string(),
      form: z.string(),
      status: z.enum(['pending', 'served', 'late', 'skipped']),
      seen_via: z.enum(['feed', 'daily_index']),
      accepted_at: Timestamp.nullable().describe("SEC's acceptance time, from the feed; null for a filing seen only in a daily index"),
      seen_at: Timestamp,
      served_at: Timestamp.nullable(),
      lag_s: z.number().nullable().describe('seconds from SEC\'s acceptance to served; null until served or when the acceptance time is unknown'),
    }),
  ),
});

interface StateRow {
  last_poll_at: string | null;
  last_poll_ok: boolean | null;
  last_result: string | null;
  last_error: string | null;
  last_ok_at: string | null;
  down_since: string | null;
  last_accession: string | null;
}

export async function freshnessOf(services: Services, watching: boolean, intervalS: number | null): Promise<z.infer<typeof Freshness>> {
  const sql: Sql = services.sql;
  const [[state], [counts], [budget], recent] = await Promise.all([
    sql<StateRow[]>`SELECT last_poll_at, last_poll_ok, last_result, last_error, last_ok_at, down_since, last_accession FROM feed_state WHERE feed = 'xbrlrss'`,
    sql<{ backlog: number; late: number }[]>`
      SELECT count(*) FILTER (WHERE status = 'pending')::int AS backlog, count(*) FILTER (WHERE status = 'late')::int AS late
      FROM feed_accessions WHERE status IN ('pending', 'late')`,
    sql<{ requests: string; paused_until: string | null }[]>`
      SELECT requests::text AS requests, CASE WHEN paused_until > now() THEN paused_until END AS paused_until FROM sec_request_budget WHERE name = 'sec'`,
    sql<z.infer<typeof Freshness>['recent_filings']>`
      SELECT cik, accession, form, status, seen_via, accepted_at, seen_at, served_at,
        CASE WHEN served_at IS NOT NULL AND accepted_at IS NOT NULL THEN round(extract(epoch FROM served_at - accepted_at)::numeric, 1)::float8 END AS lag_s
      FROM feed_accessions WHERE status <> 'skipped' ORDER BY seen_at DESC, accession DESC LIMIT 20`,
  ]);
  return {
    watching,
    poll_interval_s: watching ? intervalS : null,
    last_poll: state?.last_poll_at ? { at: state.last_poll_at, ok: state.last_poll_ok === true, result: state.last_result ?? '', error: state.last_error } : null,
    last_ok_at: state?.last_ok_at ?? null,
    down_since: state?.down_since ?? null,
    last_accession_seen: state?.last_accession ?? null,
    refresh_backlog: counts?.backlog ?? 0,
    late: counts?.late ?? 0,
    sec_requests: budget?.requests ?? '0',
    sec_paused_until: budget?.paused_until ?? null,
    recent_filings: recent,
  };
}
