import type { FeedFiling } from '../domain/feed.ts';
import type { Sql } from './client.ts';

/** The feed watcher's state and the accessions it has seen (migration 000044). */

export const XBRL_FEED = 'xbrlrss';

export interface PollOutcome {
  /** the poll before this one failed: the feed is back after an outage */
  recovered: boolean;
  /** the feed has been failing since then (ISO), when this poll failed */
  down_since: string | null;
  /** this poll is the first to find the feed down for `outageMs` or longer: log it once */
  outage_to_log: boolean;
}

/** Records one poll: its result, and the outage it starts, continues or ends. */
export async function recordPoll(
  sql: Sql,
  poll: { ok: boolean; result: string; error: string | null; last_accession: string | null; items: number; now: Date; outageMs: number },
): Promise<PollOutcome> {
  const now = poll.now.toISOString();
  await sql`INSERT INTO feed_state (feed) VALUES (${XBRL_FEED}) ON CONFLICT (feed) DO NOTHING`;
  if (poll.ok) {
    const [row] = await sql<{ was_down: string | null }[]>`
      WITH before AS (SELECT down_since FROM feed_state WHERE feed = ${XBRL_FEED} FOR UPDATE)
      UPDATE feed_state f SET last_poll_at = ${now}, last_poll_ok = true, last_result = ${poll.result}, last_error = NULL,
        last_ok_at = ${now}, down_since = NULL, outage_logged = false, items_in_last_poll = ${poll.items},
        last_accession = coalesce(${poll.last_accession}, f.last_accession), polls = f.polls + 1
      FROM before WHERE f.feed = ${XBRL_FEED}
      RETURNING before.down_since AS was_down`;
    return { recovered: row?.was_down != null, down_since: null, outage_to_log: false };
  }
  const [row] = await sql<{ down_since: string; was_logged: boolean; logged: boolean }[]>`
    WITH before AS (SELECT down_since, outage_logged FROM feed_state WHERE feed = ${XBRL_FEED} FOR UPDATE)
    UPDATE feed_state f SET last_poll_at = ${now}, last_poll_ok = false, last_result = ${poll.result}, last_error = ${poll.error},
      down_since = coalesce(before.down_since, ${now}::timestamptz),
      outage_logged = before.outage_logged OR ${now}::timestamptz - coalesce(before.down_since, ${now}::timestamptz) >= make_interval(secs => ${poll.outageMs / 1000}),
      items_in_last_poll = 0, polls = f.polls + 1
    FROM before WHERE f.feed = ${XBRL_FEED}
    RETURNING f.down_since, before.outage_logged AS was_logged, f.outage_logged AS logged`;
  return { recovered: false, down_since: row?.down_since ?? now, outage_to_log: row ? row.logged && !row.was_logged : false };
}

/** When the last poll started or finished, for the watchdog that restarts a broken poll chain. */
export async function lastPollAt(sql: Sql): Promise<string | null> {
  const [row] = await sql<{ last_poll_at: string | null }[]>`SELECT last_poll_at FROM feed_state WHERE feed = ${XBRL_FEED}`;
  return row?.last_poll_at ?? null;
}

export interface NewAccession {
  accession: string;
  cik: string;
  status: 'pending' | 'skipped';
}

/**
 * Records filings seen in the feed or an index: each accession once, whoever sees it first (a
 * second sighting is a no-op, however many pollers run). Returns the ones new to the table.
 */
export async function recordFilings(
  sql: Sql,
  filings: readonly FeedFiling[],
  via: 'feed' | 'daily_index',
  isRefresh: (form: string) => boolean,
  now: Date,
): Promise<NewAccession[]> {
  if (filings.length === 0) return [];
  const rows = filings.map((f) => ({ ...f, status: isRefresh(f.form) ? 'pending' : 'skipped' }));
  return sql<NewAccession[]>`
    INSERT INTO feed_accessions (accession, cik, form, company_name, accepted_at, filed_date, period, seen_via, seen_at, status)
    SELECT r.accession, r.cik, r.form, r.company_name, r.accepted_at, r.filed_date, r.period, ${via}, ${now.toISOString()}, r.status
    FROM jsonb_to_recordset(${sql.json(JSON.parse(JSON.stringify(rows)))}::jsonb) AS r(
      accession text, cik text, form text, company_name text, accepted_at timestamptz, filed_date date, period text, status text)
    ON CONFLICT (accession) DO NOTHING
    RETURNING accession, cik, status`;
}

export interface OpenAccession {
  accession: string;
  form: string;
  status: 'pending' | 'late';
  seen_at: string;
  attempts: number;
}

/** A company's accessions not yet served (pending, or late and still looked for). */
export async function openAccessions(sql: Sql, cik: string): Promise<OpenAccession[]> {
  return sql<OpenAccession[]>`
    SELECT accession, form, status, seen_at, attempts FROM feed_accessions
    WHERE cik = ${cik} AND status IN ('pending', 'late') ORDER BY seen_at, accession`;
}

/** The accessions among `accessions` whose facts are stored (company facts held them when the company was ingested). */
export async function accessionsWithFacts(sql: Sql, accessions: readonly string[]): Promise<Set<string>> {
  if (accessions.length === 0) return new Set();
  const rows = await sql<{ accession: string }[]>`
    SELECT accession FROM filings WHERE accession = ANY(${[...accessions]}::text[]) AND facts_count > 0`;
  return new Set(rows.map((r) => r.accession));
}

export async function markServed(sql: Sql, accessions: readonly string[], now: Date): Promise<void> {
  if (accessions.length === 0) return;
  await sql`
    UPDATE feed_accessions SET status = 'served', served_at = ${now.toISOString()}, attempts = attempts + 1, last_error = NULL
    WHERE accession = ANY(${[...accessions]}::text[]) AND status IN ('pending', 'late')`;
}

/** One more try that did not find them; `late` once they have waited past the limit. */
export async function markTried(sql: Sql, accessions: readonly string[], error: string | null, late: boolean): Promise<void> {
  if (accessions.length === 0) return;
  await sql`
    UPDATE feed_accessions SET attempts = attempts + 1, last_error = ${error}, status = ${late ? 'late' : 'pending'}
    WHERE accession = ANY(${[...accessions]}::text[]) AND status IN ('pending', 'late')`;
}

/** Companies with late accessions, for the nightly reconciliation to look at once more. */
export async function companiesWithLateFilings(sql: Sql): Promise<string[]> {
  const rows = await sql<{ cik: string }[]>`SELECT DISTINCT cik FROM feed_accessions WHERE status = 'late' ORDER BY cik`;
  return rows.map((r) => r.cik);
}

/** Upper bounds (seconds) of the lag histogram /metrics exports. */
export const LAG_BUCKETS_S = [5, 10, 15, 30, 45, 60, 90, 120, 300, 600, 1800, 3600];

export interface FreshnessCounts {
  /** periodic filings seen and not yet served */
  backlog: number;
  late: number;
  /** served filings with a known acceptance time, by bucket of LAG_BUCKETS_S (and one past the last): how many, and their lags' sum */
  lag_bins: { n: number; sum_s: number }[];
}

/** The freshness figures /metrics reads at scrape time: every filing the fleet served, from the table they are kept in. */
export async function freshnessCounts(sql: Sql): Promise<FreshnessCounts> {
  const [[open], bins] = await Promise.all([
    sql<{ backlog: number; late: number }[]>`
      SELECT count(*) FILTER (WHERE status = 'pending')::int AS backlog, count(*) FILTER (WHERE status = 'late')::int AS late
      FROM feed_accessions WHERE status IN ('pending', 'late')`,
    sql<{ bin: number; n: number; sum_s: number }[]>`
      WITH lag AS (
        SELECT greatest(0, extract(epoch FROM served_at - accepted_at))::float8 AS s FROM feed_accessions
        WHERE status = 'served' AND accepted_at IS NOT NULL
      )
      SELECT (SELECT count(*) FROM unnest(${LAG_BUCKETS_S}::float8[]) AS b(le) WHERE lag.s > b.le)::int AS bin,
        count(*)::int AS n, sum(lag.s)::float8 AS sum_s
      FROM lag GROUP BY 1 ORDER BY 1`,
  ]);
  const lag_bins = Array.from({ length: LAG_BUCKETS_S.length + 1 }, () => ({ n: 0, sum_s: 0 }));
  for (const b of bins) lag_bins[b.bin] = { n: b.n, sum_s: b.sum_s };
  return { backlog: open?.backlog ?? 0, late: open?.late ?? 0, lag_bins };
}
