import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { easternDate, easternParts } from '../domain/feed.ts';
import { get } from './helpers/http.ts';
import { amendedCompany, dailyIndexText, newFiler, feedItem, feedXml, startSecStandIn, type SecStandIn } from './helpers/sec-stand-in.ts';
import { dailyIndexUrl } from '../domain/feed.ts';
import { SHARED_SEC, startTestService, type TestService } from './helpers/service.ts';

const FEED = '/Archives/edgar/xbrlrss.all.xml';
const MSFT = '0000789019';
const AMENDMENT = '0001193125-26-990001';
const MSFT_8K = '0001193125-26-990000';

/** New York wall clock of `at` as the feed writes acceptance times (YYYYMMDDHHMMSS). */
function eastern(at: Date): string {
  const p = easternParts(at);
  return [p.year, p.month, p.day, p.hour, p.minute, p.second].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('');
}

/** Polls `check` until it returns a value (not null/undefined/false); fails after `ms` with `what`. */
async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(200);
  }
}

describe('the feed watcher against a stand-in for SEC', () => {
  let sec: SecStandIn;
  let svc: TestService;
  const row = async (accession: string) =>
    (await svc.sql<{ status: string; attempts: number; last_error: string | null; served_at: string | null }[]>`
      SELECT status, attempts, last_error, served_at FROM feed_accessions WHERE accession = ${accession}`)[0];

  before(async () => {
    sec = await startSecStandIn();
    const at = new Date();
    sec.answers.set(FEED, feedXml([feedItem({ cik: MSFT, name: 'MICROSOFT CORP', form: '8-K', accession: MSFT_8K, acceptedEastern: eastern(at) })]));
    svc = await startTestService({
      secSource: 'https://www.sec.gov',
      secUserAgent: 'Filings Test tests@example.com',
      secOrigins: sec.origins,
      feedWatch: 'on',
      feedPollSeconds: 5,
      exportSchedule: false,
      jobConcurrency: 3,
    });
  });
  after(async () => {
    await svc?.close();
    await sec?.close();
  });

  test('a filing that is not a periodic report is recorded once and refreshes nothing', async () => {
    const r = await until('the first poll', () => row(MSFT_8K));
    assert.equal(r.status, 'skipped');
    // the poll records its filings, then itself: its state follows the filing's row
    const state = await until('the first poll recorded', async () => {
      const [s] = await svc.sql<{ last_poll_ok: boolean | null; last_accession: string }[]>`SELECT last_poll_ok, last_accession FROM feed_state`;
      return s?.last_poll_ok === null ? null : s;
    });
    assert.equal(state!.last_poll_ok, true);
    assert.equal(state!.last_accession, MSFT_8K);
  });

  test('a periodic filing in the feed is served by statement reads, time series and restatement alerts once company facts holds it', async () => {
    const accepted = new Date();
    const filed = easternDate(accepted);
    const amended = await amendedCompany(SHARED_SEC, MSFT, AMENDMENT, filed, accepted.toISOString());
    sec.answers.set(
      FEED,
      feedXml([
        feedItem({ cik: MSFT, name: 'MICROSOFT CORP', form: amended.form, accession: AMENDMENT, acceptedEastern: eastern(accepted) }),
        feedItem({ cik: MSFT, name: 'MICROSOFT CORP', form: '8-K', accession: MSFT_8K, acceptedEastern: eastern(accepted) }),
      ]),
    );
    // SEC's own lag: company facts does not hold the filing at first, so the refresh waits and asks again
    const waiting = await until('a refresh that found company facts without the filing', async () => {
      const r = await row(AMENDMENT);
      return r && r.attempts >= 1 ? r : null;
    });
    assert.equal(waiting.status, 'pending');
    assert.match(waiting.last_error ?? '', /company facts does not hold/);

    sec.answers.set(`/api/xbrl/companyfacts/CIK${MSFT}.json`, amended.facts);
    sec.answers.set(`/submissions/CIK${MSFT}.json`, amended.submissions ?? '');
    const served = await until('the filing served', async () => {
      const r = await row(AMENDMENT);
      return r?.status === 'served' ? r : null;
    });
    assert.ok(served.served_at);

    const key = svc.keys.enterprise;
    const period = `fiscal_year=${amended.fy}&fiscal_period=${amended.fp}`;
    const statement = await get(`${svc.baseUrl}/v1/fundamentals/normalized-statements?cik=789019&statement_type=INCOME_STATEMENT&${period}`, key);
    assert.equal(statement.status, 200, statement.text);
    assert.match(statement.text, new RegExp(AMENDMENT), 'the statement read serves the amendment');

    const alerts = await get(`${svc.baseUrl}/v1/edgar/restatement-alerts?cik=789019&statement_type=INCOME_STATEMENT&${period}`, key);
    assert.equal(alerts.status, 200, alerts.text);
    assert.match(alerts.text, new RegExp(AMENDMENT), 'the restatement is alerted');

    const series = await get(`${svc.baseUrl}/v1/edgar/companies/789019/metrics/NET_INCOME/time-series?period_type=quarterly&fiscal_year_from=${amended.fy}&fiscal_year_to=${amended.fy}`, key);
    assert.equal(series.status, 200, series.text);
    const point = series.body.items.find((i: { fiscal_period: string }) => i.fiscal_period === amended.fp);
    assert.equal(point.value, amended.restated_net_income, 'the time series serves the amended figure');
    assert.equal(point.filing_date, filed);

    const status = await get(`${svc.baseUrl}/v1/system/ingestion/status`, key);
    assert.equal(status.status, 200, status.text);
    const f = status.body.data.freshness;
    assert.equal(f.watching, true);
    assert.equal(f.last_poll.ok, true);
    const recent = f.recent_filings.find((r: { accession: string }) => r.accession === AMENDMENT);
    assert.equal(recent.status, 'served');
    assert.equal(typeof recent.lag_s, 'number');
    assert.equal(status.body.data.schedule.mode, 'feed');

    const metrics = await get(`${svc.baseUrl}/metrics`);
    assert.match(metrics.text, /fds_feed_lag_seconds_count 1\b/);
    assert.match(metrics.text, /fds_feed_refresh_backlog 0\b/);
  });

  test('filings published while the feed was down are served after the reconciliation its return starts, none twice', async () => {
    const outageFeed = sec.answers.get(FEED);
    sec.answers.set(FEED, { status: 503, body: 'down' });
    const down = await until('a failed poll', async () => {
      const [s] = await svc.sql<{ down_since: string | null; last_result: string }[]>`SELECT down_since, last_result FROM feed_state`;
      return s?.down_since ? s : null;
    });
    assert.equal(down.last_result, 'unreachable');

    // meanwhile two companies file amendments: SEC's APIs hold them, the feed never shows them
    const at = new Date();
    const today = easternDate(at);
    const filers = [
      { cik: '0000063908', name: 'MCDONALDS CORP', accession: '0000063908-26-990001' },
      { cik: '0000097476', name: 'TEXAS INSTRUMENTS INC', accession: '0000097476-26-990001' },
    ];
    const rows = [];
    for (const f of filers) {
      const a = await amendedCompany(SHARED_SEC, f.cik, f.accession, today, at.toISOString());
      sec.answers.set(`/api/xbrl/companyfacts/CIK${f.cik}.json`, a.facts);
      if (a.submissions) sec.answers.set(`/submissions/CIK${f.cik}.json`, a.submissions);
      rows.push({ ...f, form: a.form, date: today });
    }
    // the day's index names them, beside filings already seen and forms that refresh nothing
    rows.push({ cik: MSFT, name: 'MICROSOFT CORP', form: '10-Q/A', date: today, accession: AMENDMENT });
    rows.push({ cik: '0000063908', name: 'MCDONALDS CORP', form: '8-K', date: today, accession: '0000063908-26-990002' });
    rows.push({ cik: '0001234567', name: 'SOME FOREIGN ISSUER', form: '6-K', date: today, accession: '0001234567-26-990003' });
    sec.answers.set(new URL(dailyIndexUrl(today)).pathname, dailyIndexText(rows));

    sec.answers.set(FEED, outageFeed ?? feedXml([]));
    for (const f of filers) {
      await until(`${f.accession} served`, async () => (await row(f.accession))?.status === 'served');
    }
    const seen = await svc.sql<{ accession: string; seen_via: string; status: string }[]>`
      SELECT accession, seen_via, status FROM feed_accessions WHERE accession = ANY(${[...filers.map((f) => f.accession), AMENDMENT, '0000063908-26-990002', '0001234567-26-990003']}::text[]) ORDER BY accession`;
    assert.deepEqual(
      seen.map((r) => `${r.accession} ${r.seen_via} ${r.status}`),
      [
        '0000063908-26-990001 daily_index served',
        '0000063908-26-990002 daily_index skipped',
        '0000097476-26-990001 daily_index served',
        '0001193125-26-990001 feed served',
        '0001234567-26-990003 daily_index skipped',
      ],
    );
    const runsOf = async (cik: string) =>
      (await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ingestion_runs WHERE requested = ${svc.sql.json([cik])}::jsonb`)[0]!.n;
    const before = await Promise.all(filers.map((f) => runsOf(f.cik)));
    assert.deepEqual(before, [1, 1], 'each company was refreshed once');

    // the same day reconciled again (the nightly run) finds nothing new and refreshes no one
    await svc.sql`SELECT graphile_worker.add_job('feed_reconcile', json_build_object('date', ${today}::text), job_key => 'reconcile-again')`;
    await until('the second reconciliation done', async () => {
      const [j] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = 'reconcile-again'`;
      return j!.n === 0;
    });
    await until('no refresh queued', async () => {
      const [j] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'feed_refresh'`;
      return j!.n === 0;
    });
    assert.deepEqual(await Promise.all(filers.map((f) => runsOf(f.cik))), [1, 1], 'nothing was processed twice');
  });

  test('a filer the corpus has never seen gets its identity first, then its filing is served and found by ticker', async () => {
    const cik = '0009999991';
    const accession = '0009999991-26-000001';
    const at = new Date();
    const filer = await newFiler(SHARED_SEC, MSFT, cik, 'NEW FILER INC', 'NWFLR', accession, easternDate(at));
    sec.answers.set(`/api/xbrl/companyfacts/CIK${cik}.json`, filer.facts);
    sec.answers.set(`/submissions/CIK${cik}.json`, filer.submissions);
    const feed = sec.answers.get(FEED);
    sec.answers.set(FEED, String(feed).replace('<channel>', `<channel>${feedItem({ cik, name: 'NEW FILER INC', form: filer.form, accession, acceptedEastern: eastern(at) })}`));
    await until('the new filer served', async () => (await row(accession))?.status === 'served');
    const resolved = await get(`${svc.baseUrl}/v1/edgar/companies:resolve?ticker=NWFLR`, svc.keys.enterprise);
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.body.cik, cik);
  });
});
