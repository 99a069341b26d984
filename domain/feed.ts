/**
 * The rules of the feed watcher, without I/O: which filings make a company's refresh, when the feed
 * is polled, how a refresh that found nothing new waits, and EDGAR's Eastern-time clock.
 */

import { sourceKindOf } from './source-kind.ts';

/** SEC's live feed of XBRL filings (RSS 2.0, the latest filings with their edgar:xbrlFiling facts). */
export const XBRL_FEED_URL = 'https://www.sec.gov/Archives/edgar/xbrlrss.all.xml';

/** Whether a deployment watches the feed: FEED_WATCH=on, or auto (the default) with SEC_SOURCE the live site. */
export function watchesFeed(config: { feedWatch: 'auto' | 'on' | 'off'; secSource: string }): boolean {
  return config.feedWatch === 'on' || (config.feedWatch === 'auto' && sourceKindOf(config.secSource) === 'live');
}

/** One filing as the feed or a daily index names it. */
export interface FeedFiling {
  /** 10 digits */
  cik: string;
  form: string;
  /** 0000320193-24-000081 */
  accession: string;
  company_name: string | null;
  /** SEC's acceptance time as ISO UTC; null where the source does not tell it (the daily index) */
  accepted_at: string | null;
  /** YYYY-MM-DD */
  filed_date: string | null;
  /** YYYY-MM-DD period of report, when told */
  period: string | null;
}

const REFRESH_FORMS = new Set(['10-K', '10-Q', '10-KT', '10-QT', '20-F', '40-F', '6-K']);

/**
 * A periodic report (and its amendment) whose figures reach company facts: 10-K, 10-Q (and their
 * transition forms), 20-F, 40-F, and 6-K, which foreign issuers file XBRL with.
 */
export function isRefreshForm(form: string): boolean {
  const f = form.trim().toUpperCase();
  return REFRESH_FORMS.has(f.endsWith('/A') ? f.slice(0, -2) : f);
}

/** A refresh that found the filing not yet in company facts keeps trying for this long, then records it late. */
export const LATE_AFTER_MS = 60 * 60 * 1000;

/**
 * The wait before the next try of a refresh whose filing company facts do not hold yet (SEC's own
 * lag): 15 s, doubling, at most 10 minutes; `attempt` counts from 1.
 */
export function refreshBackoffMs(attempt: number): number {
  return Math.min(600_000, 15_000 * 2 ** Math.max(0, attempt - 1));
}

/** A feed down this long is an outage worth an error in the log. */
export const FEED_OUTAGE_ERROR_MS = 15 * 60 * 1000;

/** The wall-clock parts of `at` in New York, where EDGAR's day and acceptance times are kept. */
export function easternParts(at: Date): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'short',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { year: Number(get('year')), month: Number(get('month')), day: Number(get('day')), hour: Number(get('hour')), minute: Number(get('minute')), second: Number(get('second')), weekday };
}

/** EDGAR's date (New York) of `at`, YYYY-MM-DD. */
export function easternDate(at: Date): string {
  const p = easternParts(at);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The day before a YYYY-MM-DD date. */
export function dayBefore(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** A New York wall-clock time (YYYYMMDDHHMMSS, as the feed's acceptanceDatetime) as ISO UTC; null when malformed. */
export function easternToUtc(stamp: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(stamp.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  if (Number.isNaN(asUtc) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  // New York is 4 or 5 hours behind UTC: the offset that maps back onto the same wall clock
  for (const offsetH of [4, 5]) {
    const candidate = new Date(asUtc + offsetH * 3_600_000);
    const p = easternParts(candidate);
    if (p.year === y && p.month === mo && p.day === d && p.hour === h && p.minute === mi) return candidate.toISOString();
  }
  return new Date(asUtc + 5 * 3_600_000).toISOString();
}

/** EDGAR's filing hours: 06:00 to 22:00 New York time, Monday to Friday. */
export function inFilingHours(at: Date): boolean {
  const p = easternParts(at);
  return p.weekday >= 1 && p.weekday <= 5 && p.hour >= 6 && p.hour < 22;
}

/** Seconds to the next poll: FEED_POLL_S at every hour when set, else 60 in filing hours and 600 outside. */
export function feedPollSeconds(at: Date, configured: number | null): number {
  if (configured !== null) return configured;
  return inFilingHours(at) ? 60 : 600;
}

/** SEC's daily index of one day: `Archives/edgar/daily-index/YYYY/QTRn/master.YYYYMMDD.idx`. */
export function dailyIndexUrl(date: string): string {
  const [y, m, d] = date.split('-');
  const quarter = Math.floor((Number(m) - 1) / 3) + 1;
  return `https://www.sec.gov/Archives/edgar/daily-index/${y}/QTR${quarter}/master.${y}${m}${d}.idx`;
}
