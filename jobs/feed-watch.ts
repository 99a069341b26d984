/**
 * The feed watcher on the job queue: one poll of SEC's XBRL feed at a time across the fleet (a
 * self-rescheduling job under one job key, restarted by a once-a-minute cron task if its chain
 * ever breaks), the daily-index reconciliation (nightly for the day before, and at once for today
 * and yesterday when the feed comes back after an outage), one refresh job per company (keyed by
 * CIK, so a burst of filings makes one job), and each new filing's package as a job of its own.
 */
import type { JobHelpers, Task, TaskList } from 'graphile-worker';
import type { Config } from '../config.ts';
import type { Sql } from '../db/client.ts';
import { companiesWithLateFilings, lastPollAt, recordFilings, recordPoll } from '../db/feed-state.ts';
import {
  dailyIndexUrl,
  dayBefore,
  easternDate,
  FEED_OUTAGE_ERROR_MS,
  feedPollSeconds,
  isRefreshForm,
  refreshBackoffMs,
  XBRL_FEED_URL,
  watchesFeed,
  type FeedFiling,
} from '../domain/feed.ts';
import { FeedFormatError, parseDailyIndex, parseXbrlFeed } from '../ingest/feed-parse.ts';
import { refreshCompany, refreshPackage } from '../ingest/feed-refresh.ts';
import { openSecSource, type SecSource } from '../ingest/source.ts';

export const FEED_POLL_TASK = 'feed_poll';
export const FEED_KICK_TASK = 'feed_kick';
export const FEED_RECONCILE_TASK = 'feed_reconcile';
export const FEED_REFRESH_TASK = 'feed_refresh';
export const FEED_PACKAGE_TASK = 'feed_package';

/** the one job key of the poll: at most one waiting poll in the whole fleet */
const POLL_KEY = 'feed_poll';
/** a package job asks again on graphile-worker's backoff (seconds e^attempt) for about nine hours */
const PACKAGE_ATTEMPTS = 10;

export interface FeedJobOptions {
  sql: Sql;
  openSource: () => SecSource;
  /** FEED_POLL_S; null: 60 s in EDGAR's filing hours, 600 s outside */
  pollSeconds: number | null;
  now: () => Date;
  log: (m: string) => void;
  /** where a feed unreachable for 15 minutes is reported */
  logError: (m: string) => void;
}

/** Whether this deployment watches the feed (domain/feed.ts's rule). */
export function feedWatchEnabled(config: Pick<Config, 'feedWatch' | 'secSource'>): boolean {
  return watchesFeed(config);
}

/** The feed jobs' options from the configuration; the source is opened when a job first needs it. */
export function feedJobOptions(config: Config, now: () => Date, log: (m: string) => void, logError: (m: string) => void, sql: Sql): FeedJobOptions {
  let source: SecSource | null = null;
  return {
    sql,
    openSource: () => (source ??= openSecSource(config.secSource, { userAgent: config.secUserAgent })),
    pollSeconds: config.feedPollSeconds,
    now,
    log,
    logError,
  };
}

/** The crontab lines of the watcher: the watchdog every minute, the reconciliation nightly (07:30 UTC, after SEC's day ends). */
export const FEED_CRONTAB = [`* * * * * ${FEED_KICK_TASK} ?max=1`, `30 7 * * * ${FEED_RECONCILE_TASK} ?max=3&id=nightly_feed_reconcile`];

export function feedTasks(o: FeedJobOptions): TaskList {
  return {
    [FEED_POLL_TASK]: pollTask(o),
    [FEED_KICK_TASK]: async (_payload, helpers) => void (await kickPoll(o, helpers.addJob)),
    [FEED_RECONCILE_TASK]: reconcileTask(o),
    [FEED_REFRESH_TASK]: refreshTask(o),
    [FEED_PACKAGE_TASK]: packageTask(o),
  };
}

type AddJob = JobHelpers['addJob'];

/**
 * Starts the poll chain unless a poll ran recently (another instance's chain is alive): at a
 * worker's start and every minute. A chain broken by a killed worker is restarted here.
 */
export async function kickPoll(o: FeedJobOptions, addJob: AddJob): Promise<boolean> {
  const last = await lastPollAt(o.sql);
  const interval = feedPollSeconds(o.now(), o.pollSeconds);
  const staleMs = Math.max(3 * interval, interval + 120) * 1000;
  if (last !== null && o.now().getTime() - Date.parse(last) < staleMs) return false;
  await addJob(FEED_POLL_TASK, {}, { jobKey: POLL_KEY, jobKeyMode: 'preserve_run_at', maxAttempts: 1 });
  return true;
}

/** A refresh of `cik` as soon as possible; a burst of filings of one company makes one job. */
function enqueueRefresh(addJob: AddJob, cik: string): Promise<unknown> {
  return addJob(FEED_REFRESH_TASK, { cik }, { jobKey: `${FEED_REFRESH_TASK}:${cik}`, jobKeyMode: 'replace', maxAttempts: 5 });
}

async function enqueueNew(o: FeedJobOptions, addJob: AddJob, filings: readonly FeedFiling[], via: 'feed' | 'daily_index'): Promise<number> {
  // the daily index cannot tell a 6-K with XBRL from the many without: those come from the feed only
  const refreshes = via === 'feed' ? isRefreshForm : (form: string) => isRefreshForm(form) && !/^6-K/i.test(form.trim());
  const fresh = await recordFilings(o.sql, filings, via, refreshes, o.now());
  const ciks = [...new Set(fresh.filter((f) => f.status === 'pending').map((f) => f.cik))];
  for (const cik of ciks) await enqueueRefresh(addJob, cik);
  return fresh.length;
}

function pollTask(o: FeedJobOptions): Task {
  return async (_payload, helpers) => {
    const started = o.now();
    try {
      await pollOnce(o, helpers.addJob);
    } finally {
      const seconds = feedPollSeconds(started, o.pollSeconds);
      await helpers.addJob(FEED_POLL_TASK, {}, { jobKey: POLL_KEY, jobKeyMode: 'replace', runAt: new Date(started.getTime() + seconds * 1000), maxAttempts: 1 });
    }
  };
}

/** One poll: read and parse the feed, record what is new, enqueue refreshes, note the outcome. */
export async function pollOnce(o: FeedJobOptions, addJob: AddJob): Promise<{ ok: boolean; result: string }> {
  let filings: FeedFiling[] | null = null;
  let result: string;
  let error: string | null = null;
  try {
    const text = await o.openSource().readText(XBRL_FEED_URL);
    if (text === null) {
      result = 'absent';
      error = 'SEC answered 404 for the XBRL feed';
    } else {
      const parsed = parseXbrlFeed(text);
      filings = parsed.filings;
      const added = await enqueueNew(o, addJob, filings, 'feed');
      result = `${filings.length} items, ${added} new${parsed.rejected > 0 ? `, ${parsed.rejected} unreadable` : ''}`;
    }
  } catch (err) {
    result = err instanceof FeedFormatError ? 'malformed' : 'unreachable';
    error = (err as Error).message;
  }
  const ok = filings !== null;
  const outcome = await recordPoll(o.sql, { ok, result, error, last_accession: filings?.[0]?.accession ?? null, items: filings?.length ?? 0, now: o.now(), outageMs: FEED_OUTAGE_ERROR_MS });
  if (outcome.outage_to_log) o.logError(`SEC's XBRL feed has been failing since ${outcome.down_since}: ${error}`);
  if (outcome.recovered) {
    // what the feed may have missed while it was down: today's and yesterday's daily indexes, at once
    const today = easternDate(o.now());
    for (const date of [today, dayBefore(today)]) await enqueueReconcile(addJob, date);
    o.log(`SEC's XBRL feed is back; reconciling the daily indexes of ${today} and the day before`);
  }
  return { ok, result };
}

/** The reconciliation of one day's index, once however often it is asked for. */
function enqueueReconcile(addJob: AddJob, date: string, runAt?: Date): Promise<unknown> {
  return addJob(FEED_RECONCILE_TASK, { date }, { jobKey: `${FEED_RECONCILE_TASK}:${date}`, jobKeyMode: 'replace', maxAttempts: 5, ...(runAt ? { runAt } : {}) });
}

function reconcileTask(o: FeedJobOptions): Task {
  return async (payload, job) => {
    const p = (payload ?? {}) as { date?: unknown };
    const nightly = typeof p.date !== 'string';
    const date = typeof p.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(p.date) ? p.date : dayBefore(easternDate(o.now()));
    const text = await o.openSource().readText(dailyIndexUrl(date));
    if (text === null) {
      // SEC writes a day's index once the day is over: a day that recent is asked again in an hour
      if (date >= dayBefore(easternDate(o.now()))) await enqueueReconcile(job.addJob, date, new Date(o.now().getTime() + 3_600_000));
      o.log(`daily index of ${date} not published yet`);
    } else {
      const { filings, rejected } = parseDailyIndex(text);
      const added = await enqueueNew(o, job.addJob, filings, 'daily_index');
      o.log(`daily index of ${date}: ${filings.length} filings, ${added} not seen before${rejected > 0 ? `, ${rejected} unreadable lines` : ''}`);
    }
    // a filing recorded late is looked for once more each night
    if (nightly) for (const cik of await companiesWithLateFilings(o.sql)) await enqueueRefresh(job.addJob, cik);
  };
}

function refreshTask(o: FeedJobOptions): Task {
  return async (payload, job) => {
    const cik = String((payload as { cik?: unknown } | null)?.cik ?? '');
    if (!/^\d{10}$/.test(cik)) throw new Error(`feed refresh needs a 10-digit cik, got ${JSON.stringify(cik)}`);
    const out = await refreshCompany(o.sql, o.openSource(), cik, o.now);
    if (!out) return;
    for (const accession of out.served) {
      await job.addJob(FEED_PACKAGE_TASK, { cik, accession }, { jobKey: `${FEED_PACKAGE_TASK}:${accession}`, jobKeyMode: 'preserve_run_at', maxAttempts: PACKAGE_ATTEMPTS });
    }
    if (out.waiting.length > 0) {
      const runAt = new Date(o.now().getTime() + refreshBackoffMs(out.attempts));
      await job.addJob(FEED_REFRESH_TASK, { cik }, { jobKey: `${FEED_REFRESH_TASK}:${cik}`, jobKeyMode: 'preserve_run_at', runAt, maxAttempts: 5 });
    }
    const parts = [`${out.served.length} served`, `${out.waiting.length} waiting`, `${out.late.length} late`];
    o.log(`feed refresh of ${cik} (run ${out.run_id}, ${out.status}): ${parts.join(', ')}${out.error ? `; ${out.error}` : ''}`);
  };
}

function packageTask(o: FeedJobOptions): Task {
  return async (payload) => {
    const p = (payload ?? {}) as { cik?: unknown; accession?: unknown };
    const cik = String(p.cik ?? '');
    const accession = String(p.accession ?? '');
    if (!/^\d{10}$/.test(cik) || !/^\d{10}-\d{2}-\d{6}$/.test(accession)) throw new Error('feed package needs a cik and an accession');
    const r = await refreshPackage(o.sql, o.openSource(), cik, accession, o.now);
    // thrown so the queue asks again later on its backoff: SEC has not published the folder yet
    if (r.status === 'absent') throw new Error(`the package of ${accession} is not on SEC's archive yet; asking again later`);
    o.log(`feed package of ${accession} ingested (run ${r.run_id})`);
  };
}
