import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { easternDate, easternParts } from '../domain/feed.ts';
import { get } from './helpers/http.ts';
import { amendedCompany, feedItem, feedXml, startSecStandIn, type SecStandIn } from './helpers/sec-stand-in.ts';
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
    const [state] = await svc.sql<{ last_poll_ok: boolean; last_accession: string }[]>`SELECT last_poll_ok, last_accession FROM feed_state`;
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
    sec.answers.set(`/submissions/CIK${MSFT}.json`, amended.submissions);
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
});
