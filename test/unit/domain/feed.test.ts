import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dailyIndexUrl, dayBefore, easternDate, easternToUtc, feedPollSeconds, inFilingHours, isRefreshForm, refreshBackoffMs, watchesFeed } from '../../../domain/feed.ts';

describe('feed watcher rules', () => {
  it('refreshes for periodic reports and their amendments, 6-K included, and for nothing else', () => {
    for (const f of ['10-K', '10-Q', '10-K/A', '10-Q/A', '20-F', '20-F/A', '40-F', '40-F/A', '6-K', '6-K/A', '10-KT', ' 10-q ']) assert.ok(isRefreshForm(f), f);
    for (const f of ['8-K', '4', 'S-1', 'DEF 14A', '10-K405X', '']) assert.ok(!isRefreshForm(f), f);
  });

  it('reads the feed\'s New York acceptance times as UTC in summer and in winter time', () => {
    assert.equal(easternToUtc('20240801163011'), '2024-08-01T20:30:11.000Z');
    assert.equal(easternToUtc('20240115090000'), '2024-01-15T14:00:00.000Z');
    assert.equal(easternToUtc('2024-08-01'), null);
    assert.equal(easternToUtc('20241301000000'), null);
  });

  it('polls every minute in EDGAR\'s filing hours, every ten outside, and at FEED_POLL_S at every hour when set', () => {
    const tuesdayNoonEt = new Date('2026-11-24T17:00:00Z');
    const tuesdayNightEt = new Date('2026-11-25T04:00:00Z');
    const saturdayNoonEt = new Date('2026-11-28T17:00:00Z');
    assert.ok(inFilingHours(tuesdayNoonEt));
    assert.equal(feedPollSeconds(tuesdayNoonEt, null), 60);
    assert.equal(feedPollSeconds(tuesdayNightEt, null), 600);
    assert.equal(feedPollSeconds(saturdayNoonEt, null), 600);
    assert.equal(feedPollSeconds(saturdayNoonEt, 5), 5);
  });

  it('names the daily index of a day by its year and quarter', () => {
    assert.equal(dailyIndexUrl('2026-11-27'), 'https://www.sec.gov/Archives/edgar/daily-index/2026/QTR4/master.20261127.idx');
    assert.equal(dailyIndexUrl('2026-03-31'), 'https://www.sec.gov/Archives/edgar/daily-index/2026/QTR1/master.20260331.idx');
    assert.equal(dayBefore('2026-03-01'), '2026-02-28');
    assert.equal(easternDate(new Date('2026-11-28T03:00:00Z')), '2026-11-27');
  });

  it('waits longer after each refresh that found nothing, at most ten minutes', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 20].map(refreshBackoffMs), [15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 600_000, 600_000]);
  });

  it('watches the feed by default only when SEC_SOURCE is the live site', () => {
    assert.ok(watchesFeed({ feedWatch: 'auto', secSource: 'https://www.sec.gov' }));
    assert.ok(!watchesFeed({ feedWatch: 'auto', secSource: '/data/sec' }));
    assert.ok(watchesFeed({ feedWatch: 'on', secSource: '/data/sec' }));
    assert.ok(!watchesFeed({ feedWatch: 'off', secSource: 'https://www.sec.gov' }));
  });
});
