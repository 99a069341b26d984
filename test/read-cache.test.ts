import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { companyVersionsOf } from '../api/company-versions.ts';
import { ReadCache } from '../api/read-cache.ts';
import { isPrepared } from '../api/prepared-json.ts';
import { ChangeFeed } from '../db/change-feed.ts';
import { connect } from '../db/client.ts';
import { createApiKey } from '../db/keys.ts';
import type { Db } from '../db/client.ts';
import { get } from './helpers/http.ts';
import { insertNextVersion } from './helpers/next-version.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const APPLE = '0000320193';
const STATEMENT = `/v1/fundamentals/normalized-statements?cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`;
const PANEL = `/v1/fundamentals/time-series?statement_type=INCOME_STATEMENT&ciks=${APPLE}&ciks=0000789019&from=2019-01-01&to=2023-12-31&metrics=REVENUE`;

describe('read caches follow committed changes (db/change-feed.ts, api/read-cache.ts)', () => {
  let svc: TestService;
  // a second connection pool: another instance's writes, not this service's own
  let other: ReturnType<typeof connect>;
  before(async () => {
    svc = await startTestService();
    other = connect(svc.running.database.url, { max: 1 });
  });
  after(async () => {
    await other?.end({ timeout: 5 });
    await svc?.close();
  });
  const read = async (path: string, key = svc.keys.enterprise) => {
    const r = await get(svc.baseUrl + path, key);
    assert.equal(r.status, 200, r.text);
    return r;
  };

  it('listens once the service is up, so reads are cached', () => {
    assert.equal(svc.running.services.changes.live, true);
  });

  it('serves a statement read and a panel from memory until another connection commits a new version, then the new figures', async () => {
    const statement = await read(STATEMENT);
    const panel = await read(PANEL);
    // an unchanged read is the same bytes (a cache hit or not, the answer may not differ)
    assert.equal((await read(STATEMENT)).text, statement.text);
    assert.equal((await read(PANEL)).text, panel.text);
    const v = statement.body.data;
    await insertNextVersion(other, v.statement_version_id, { revenue: '383285000002.000000', tag: 'cache-test' });
    await svc.running.services.changes.sync();
    const after = (await read(STATEMENT)).body.data;
    assert.equal(after.version_sequence, v.version_sequence + 1);
    assert.equal(after.normalized_payload.facts.find((f: { metric: string }) => f.metric === 'REVENUE').value, '383285000002.000000');
    const points = (await read(PANEL)).body.items as { cik: string; fiscal_year: number; statement_version_id: string; metrics: Record<string, string> }[];
    const fy2023 = points.find((p) => p.cik === APPLE && p.fiscal_year === 2023)!;
    assert.equal(fy2023.statement_version_id, after.statement_version_id);
    assert.equal(fy2023.metrics.REVENUE, '383285000002.000000');
    // the earlier version is still what a date before the new filing sees
    assert.equal((await read(`${STATEMENT}&as_of_date=${v.filing_date}`)).body.data.statement_version_id, v.statement_version_id);
  });

  it("answers an as-of read with a periodic filing and a ledger row another connection committed after the company's were kept", async () => {
    const AS_OF = `/v1/edgar/as-of/2024-12-31/financials/${APPLE}`;
    const before = (await read(AS_OF)).body.data;
    assert.equal((await read(AS_OF)).body.data.latest_filing.accession_id, before.latest_filing.accession_id, 'kept: the same filing');
    const accession = '0000320193-24-999999';
    await other`INSERT INTO filings (accession, cik, form, filing_date, report_date, is_periodic, source) VALUES (${accession}, ${APPLE}, '10-Q', '2024-12-30', '2024-12-28', true, 'submissions')`;
    const version = before.statements[0];
    await other`INSERT INTO reconciliation_results (statement_version_id, rule_id, cik, statement_type, fiscal_year, fiscal_period, version_sequence, rule_category, status, severity, delta)
      VALUES (${version.statement_version_id}, 'CACHE_TEST_RULE', ${APPLE}, ${version.statement_type}, ${version.fiscal_year}, ${version.fiscal_period}, ${version.version_sequence}, 'IDENTITY', 'FAIL', 'HIGH', 5)`;
    await svc.running.services.changes.sync();
    const after = (await read(AS_OF)).body.data;
    assert.deepEqual(after.latest_filing, { accession_id: accession, form: '10-Q', filing_date: '2024-12-30', report_date: '2024-12-28' });
    assert.equal(after._meta.reconciliation.fail_count, before._meta.reconciliation.fail_count + 1);
    assert.equal(after._meta.reconciliation.rows_count, before._meta.reconciliation.rows_count + 1);
    assert.ok(after._meta.reconciliation.failing_rule_ids.includes('CACHE_TEST_RULE'));
    // a date before the new filing still sees the one before it
    assert.notEqual((await read(`/v1/edgar/as-of/2024-12-29/financials/${APPLE}`)).body.data.latest_filing.accession_id, accession);
    await other`DELETE FROM reconciliation_results WHERE rule_id = 'CACHE_TEST_RULE'`;
    await other`DELETE FROM filings WHERE accession = ${accession}`;
    await svc.running.services.changes.sync();
    assert.deepEqual((await read(AS_OF)).body.data._meta.reconciliation, before._meta.reconciliation, 'deleted: as before');
    assert.deepEqual((await read(AS_OF)).body.data.latest_filing, before.latest_filing);
  });

  it('refuses a key revoked by another connection on its next use, though it was cached', async () => {
    const issued = await createApiKey(svc.sql, 'cache-org', 'growth');
    await read('/v1/system/metadata', issued.key);
    await read('/v1/system/metadata', issued.key);
    await other`UPDATE api_keys SET revoked_at = now() WHERE key_id = ${issued.key_id}`;
    await svc.running.services.changes.sync();
    assert.equal((await get(`${svc.baseUrl}/v1/system/metadata`, issued.key)).status, 401);
  });

  it('keeps a loaded value only while the table is unchanged, and drops one whose load raced a change', async () => {
    const feed = new ChangeFeed(svc.sql);
    await feed.start();
    try {
      let loads = 0;
      const cache = new ReadCache<{ n: number }>(feed, 'statement_versions', { max: 10, maxAgeMs: 60_000 });
      const load = async () => ({ n: ++loads });
      assert.deepEqual(await cache.memo('a', load), { n: 1 });
      assert.deepEqual(await cache.memo('a', load), { n: 1 }, 'a hit does not load');
      assert.ok(isPrepared(await cache.memo('a', load)), 'kept values are prepared (frozen, serialized once)');
      feed.bump('api_keys');
      assert.deepEqual(await cache.memo('a', load), { n: 1 }, 'a change to another table keeps it');
      feed.bump('statement_versions');
      assert.deepEqual(await cache.memo('a', load), { n: 2 }, 'a change to its table drops it');
      // a change committed while the load runs: the value is served once but not kept
      assert.deepEqual(await cache.memo('b', async () => { feed.bump('statement_versions'); return { n: ++loads }; }), { n: 3 });
      assert.deepEqual(await cache.memo('b', load), { n: 4 });
      // nothing is kept for "not found"
      assert.equal(await cache.memo('none', async () => null), null);
      assert.equal(cache.size, 2);
    } finally {
      await feed.stop();
    }
  });

  it('gives reads of a key that arrive during its load that load, and starts a new one once the table changed', async () => {
    const feed = new ChangeFeed(svc.sql);
    await feed.start();
    try {
      let loads = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const cache = new ReadCache<{ n: number }>(feed, 'statement_versions', { max: 10, maxAgeMs: 60_000 });
      const slow = async () => {
        const n = ++loads;
        await gate;
        return { n };
      };
      const together = [cache.memo('a', slow), cache.memo('a', slow), cache.memo('a', slow)];
      feed.bump('statement_versions');
      const afterChange = cache.memo('a', slow);
      release();
      const got = await Promise.all([...together, afterChange]);
      assert.deepEqual(got.map((v) => v?.n), [1, 1, 1, 2], 'three concurrent reads share one load; a read after a change loads afresh');
      assert.equal(loads, 2);
      assert.deepEqual(await cache.memo('a', slow), { n: 2 }, 'the load begun after the change is kept');
      // a failed load is not kept for later reads
      await assert.rejects(cache.memo('b', async () => { throw new Error('boom'); }), /boom/);
      assert.deepEqual(await cache.memo('b', async () => ({ n: 9 })), { n: 9 });
    } finally {
      await feed.stop();
    }
  });

  it('keeps nothing while the feed is not listening, and nothing older than its age bound', async () => {
    const feed = new ChangeFeed(svc.sql);
    let loads = 0;
    const load = async () => ({ n: ++loads });
    const idle = new ReadCache<{ n: number }>(feed, 'statement_versions', { max: 10, maxAgeMs: 60_000 });
    assert.equal(feed.live, false);
    await idle.memo('a', load);
    await idle.memo('a', load);
    assert.equal(loads, 2, 'not listening: every read loads');
    await feed.start();
    try {
      let t = 0;
      const aged = new ReadCache<{ n: number }>(feed, 'statement_versions', { max: 10, maxAgeMs: 1_000, now: () => t });
      await aged.memo('a', load);
      t = 999;
      await aged.memo('a', load);
      assert.equal(loads, 3);
      t = 1_000;
      await aged.memo('a', load);
      assert.equal(loads, 4, 'at its age bound an entry is loaded again');
    } finally {
      await feed.stop();
    }
    await idle.memo('a', load);
    assert.equal(loads, 5, 'stopped: reads load again');
  });

  it('drops the least recently used entry beyond its bound', async () => {
    const feed = new ChangeFeed(svc.sql);
    await feed.start();
    try {
      let loads = 0;
      const cache = new ReadCache<{ k: string }>(feed, 'statement_versions', { max: 2, maxAgeMs: 60_000 });
      const load = (k: string) => async () => (loads++, { k });
      await cache.memo('a', load('a'));
      await cache.memo('b', load('b'));
      await cache.memo('a', load('a')); // a is now the most recent
      await cache.memo('c', load('c')); // b goes
      assert.equal(loads, 3);
      await cache.memo('a', load('a'));
      assert.equal(loads, 3, 'a was kept');
      await cache.memo('b', load('b'));
      assert.equal(loads, 4, 'b was dropped');
    } finally {
      await feed.stop();
    }
  });
});

describe('READ_CACHE=off', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ readCache: false });
  });
  after(async () => {
    await svc?.close();
  });

  it('does not listen, so every read queries PostgreSQL and sees a commit at once', async () => {
    assert.equal(svc.running.services.changes.live, false);
    const first = await get(svc.baseUrl + STATEMENT, svc.keys.enterprise);
    assert.equal(first.status, 200);
    const v = first.body.data;
    await insertNextVersion(svc.sql, v.statement_version_id, { tag: 'off' });
    assert.equal((await get(svc.baseUrl + STATEMENT, svc.keys.enterprise)).body.data.version_sequence, v.version_sequence + 1);
  });

  it('answers a panel read again (its companies then indexed) with a version committed since, and the same bytes while nothing changed', async () => {
    const read = async () => {
      const r = await get(svc.baseUrl + PANEL, svc.keys.enterprise);
      assert.equal(r.status, 200, r.text);
      return r;
    };
    const first = await read();
    const second = await read();
    assert.equal(second.text, first.text, 'by SQL, then from the indexes: the same answer');
    assert.equal((await read()).text, first.text);
    type PanelPoint = { cik: string; fiscal_year: number; statement_version_id: string; metrics: Record<string, string> };
    const fy2022 = (r: { body: { items: PanelPoint[] } }) => r.body.items.find((p) => p.cik === APPLE && p.fiscal_year === 2022)!;
    await insertNextVersion(svc.sql, fy2022(first).statement_version_id, { revenue: '394328000001.000000', tag: 'off-panel' });
    const after = fy2022(await read());
    assert.notEqual(after.statement_version_id, fy2022(first).statement_version_id);
    assert.equal(after.metrics.REVENUE, '394328000001.000000');
  });

  it("reads a company met once by SQL, then from an index checked on each read: the same index while no transaction has written the company's versions since, a new one holding a version committed since", async () => {
    const services = svc.running.services;
    const NVIDIA = '0001045810';
    assert.equal(await companyVersionsOf(services, NVIDIA), null, 'met once: no index');
    const first = await companyVersionsOf(services, NVIDIA);
    assert.ok(first, 'met again: an index');
    const [row] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM statement_versions WHERE cik = ${NVIDIA}`;
    assert.equal(first.statements.flat().length, row!.n, 'every version of the company is held');
    assert.equal(await companyVersionsOf(services, NVIDIA), first, 'unchanged versions: the index already made');
    const annual = first.statements.find((l) => l[0]!.statement_type === 'INCOME_STATEMENT' && l[0]!.fiscal_period === 'FY')![0]!;
    const id = { statement_type: annual.statement_type, fiscal_year: annual.fiscal_year, fiscal_period: annual.fiscal_period };
    const latest = first.latestOf(id, null)!;
    await insertNextVersion(svc.sql, latest.statement_version_id, { tag: 'off-index' });
    const after = await companyVersionsOf(services, NVIDIA);
    assert.ok(after && after !== first, 'a version committed since: a new index');
    assert.equal(after.statements.flat().length, row!.n + 1);
    assert.equal(after.latestOf(id, null)!.version_sequence, latest.version_sequence + 1);
    assert.equal(await companyVersionsOf(services, NVIDIA), after);
  });

  it('reads again a company whose index was read while a transaction writing its versions was open (a later one committed), once that transaction commits', async () => {
    const services = svc.running.services;
    const COSTCO = '0000909832';
    const other = connect(svc.running.database.url, { max: 1 });
    try {
      const annual = (await svc.sql<{ id: string }[]>`
        SELECT statement_version_id AS id FROM statement_versions v WHERE cik = ${COSTCO} AND statement_type = 'BALANCE_SHEET'
          AND fiscal_period = 'FY' ORDER BY fiscal_year DESC, version_sequence DESC LIMIT 1`)[0]!;
      assert.equal(await companyVersionsOf(services, COSTCO), null, 'met once: no index');
      let commit!: () => void;
      const committing = new Promise<void>((r) => (commit = r));
      let written!: () => void;
      const inserted = new Promise<void>((r) => (written = r));
      const tx = other.begin(async (t) => {
        await insertNextVersion(t, annual.id, { tag: 'off-open' });
        written();
        await committing;
      });
      await inserted;
      // a later transaction that has committed: the open one is then among those the snapshot lists as running, not past its end
      await svc.sql`SELECT pg_current_xact_id()`;
      const during = (await companyVersionsOf(services, COSTCO))!;
      const latest = during.statements.flat().find((h) => h.statement_version_id === annual.id)!;
      const id = { statement_type: latest.statement_type, fiscal_year: latest.fiscal_year, fiscal_period: latest.fiscal_period };
      assert.equal(during.latestOf(id, null)!.statement_version_id, annual.id, 'read while the transaction is open: its version is not seen');
      assert.equal(await companyVersionsOf(services, COSTCO), during, 'not committed yet: the same index');
      commit();
      await tx;
      const after = (await companyVersionsOf(services, COSTCO))!;
      assert.notEqual(after, during, 'committed after the snapshot the index was read in: read again');
      assert.equal(after.latestOf(id, null)!.version_sequence, latest.version_sequence + 1);
      assert.equal(await companyVersionsOf(services, COSTCO), after);
    } finally {
      await other.end({ timeout: 5 });
    }
  });

  it("logs the companies of every statement that inserts, updates or deletes statement versions under its transaction's id", async () => {
    const [v] = await svc.sql<{ id: string }[]>`
      SELECT statement_version_id AS id FROM statement_versions WHERE cik = '0001652044' AND statement_type = 'INCOME_STATEMENT'
        AND fiscal_year = 2023 AND fiscal_period = 'FY' ORDER BY version_sequence DESC LIMIT 1`;
    const logged = async (write: (t: Db) => Promise<unknown>) => {
      let ciks: string[] = [];
      await svc.sql
        .begin(async (t) => {
          await write(t);
          ciks = (await t<{ cik: string }[]>`SELECT cik FROM company_version_changes WHERE xid = pg_current_xact_id()`).map((r) => r.cik);
          throw new Error('rolled back');
        })
        .catch((e: Error) => assert.equal(e.message, 'rolled back'));
      return ciks;
    };
    assert.deepEqual(await logged((t) => insertNextVersion(t, v!.id, { tag: 'log' })), ['0001652044']);
    assert.deepEqual(await logged((t) => t`UPDATE statement_versions SET form = form WHERE cik IN ('0001652044', '0000320193')`), ['0000320193', '0001652044']);
    assert.deepEqual(await logged(async (t) => {
      await insertNextVersion(t, v!.id, { tag: 'log-delete' });
      await t`DELETE FROM statement_versions WHERE content_hash LIKE '%-log-delete'`;
    }), ['0001652044']);
    assert.deepEqual(await logged((t) => t`UPDATE statement_versions SET form = form WHERE false`), [], 'nothing written, nothing logged');
  });
});
