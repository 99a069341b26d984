import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordFilings, recordPoll } from '../db/feed-state.ts';
import { isRefreshForm, FEED_OUTAGE_ERROR_MS, type FeedFiling } from '../domain/feed.ts';
import { fleetBudgetState, postgresFleetGate } from '../db/sec-budget.ts';
import { migratedDatabaseForSuite } from './helpers/database.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fleetGate } from '../ingest/sec-access.ts';
import { openSecSource } from '../ingest/source.ts';

const filing = (accession: string, form: string): FeedFiling => ({
  cik: '0000320193', form, accession, company_name: 'APPLE INC', accepted_at: '2026-11-27T21:00:00.000Z', filed_date: '2026-11-27', period: null,
});

describe('feed state', () => {
  const db = migratedDatabaseForSuite();

  it('an outage is logged once, when it has lasted 15 minutes, and its end is seen by the next good poll', async () => {
    const t0 = Date.parse('2026-11-27T15:00:00Z');
    const poll = (ok: boolean, minutes: number) =>
      recordPoll(db().sql, { ok, result: ok ? '1 items, 0 new' : 'unreachable', error: ok ? null : 'SEC answered 503', last_accession: null, items: ok ? 1 : 0, now: new Date(t0 + minutes * 60_000), outageMs: FEED_OUTAGE_ERROR_MS });
    assert.deepEqual(await poll(true, 0), { recovered: false, down_since: null, outage_to_log: false });
    const first = await poll(false, 1);
    assert.equal(first.outage_to_log, false);
    assert.equal(first.down_since, '2026-11-27T15:01:00.000Z');
    assert.equal((await poll(false, 10)).outage_to_log, false);
    assert.equal((await poll(false, 16)).outage_to_log, true, 'fifteen minutes down: logged');
    assert.equal((await poll(false, 30)).outage_to_log, false, 'logged once per outage');
    assert.deepEqual(await poll(true, 31), { recovered: true, down_since: null, outage_to_log: false });
    assert.equal((await poll(true, 32)).recovered, false);
  });

  it('records each accession once, whoever sees it first, and marks forms that refresh nothing skipped', async () => {
    const now = new Date();
    const first = await recordFilings(db().sql, [filing('0000320193-26-000001', '10-K'), filing('0000320193-26-000002', '8-K')], 'feed', isRefreshForm, now);
    assert.deepEqual(first.map((r) => `${r.accession} ${r.status}`).sort(), ['0000320193-26-000001 pending', '0000320193-26-000002 skipped']);
    const again = await recordFilings(db().sql, [filing('0000320193-26-000001', '10-K')], 'daily_index', isRefreshForm, now);
    assert.equal(again.length, 0);
  });

  it('the fleet budget counts every request and a pause holds the schedule for everyone', async () => {
    const gate = postgresFleetGate(db().sql);
    await gate.wait();
    await gate.wait();
    await gate.pause(1_000, 'a test pause');
    const state = await fleetBudgetState(db().sql);
    assert.equal(state?.requests, '2');
    assert.equal(state?.pause_reason, 'a test pause');
    assert.ok(state?.paused_until);
  });

  it('a 429 with Retry-After pauses the whole fleet\'s budget, and the request succeeds after it', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      if (hits === 1) res.writeHead(429, { 'retry-after': '1' }).end();
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const source = openSecSource('https://www.sec.gov', {
        userAgent: 'Filings Test tests@example.com',
        hostMap: { 'www.sec.gov': origin },
        gate: fleetGate(postgresFleetGate(db().sql)),
        retry: { baseDelayMs: 10, maxDelayMs: 50 },
      });
      assert.equal(await source.readText('https://www.sec.gov/files/limited.txt'), 'ok');
      assert.equal(hits, 2);
      const state = await fleetBudgetState(db().sql);
      assert.equal(state?.requests, '4');
      const [row] = await db().sql<{ pause_reason: string }[]>`SELECT pause_reason FROM sec_request_budget WHERE name = 'sec'`;
      assert.equal(row?.pause_reason, 'SEC answered 429');
    } finally {
      server.close();
    }
  });
});
