import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueGrant, type GrantRequest } from '../tools/bulk/grant-queries.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { DAILY_BYTE_CAP } from '../domain/bulk-budget.ts';
import { ServiceError } from '../domain/service-error.ts';
import { createTestDatabase } from './helpers/database.ts';

const GiB = 1024 ** 3;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = new Date('2026-11-23T05:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const SNAPSHOT = '20261123T043000Z';

describe('bulk download grants', () => {
  let db: Database;
  let made = 0;

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.sql);
    await db.sql`
      INSERT INTO bulk_snapshots (snapshot_id, build_kind, status, started_at, published_at)
      VALUES (${SNAPSHOT}, 'full', 'published', ${T0.toISOString()}::timestamptz, ${T0.toISOString()}::timestamptz)`;
  });
  after(() => db.close());

  async function newOrg(name: string): Promise<string> {
    const [row] = await db.sql<{ org_id: string }[]>`INSERT INTO organizations (name) VALUES (${name}) RETURNING org_id`;
    return row!.org_id;
  }

  function grant(orgId: string, filePath: string, bytes: number, now: Date): ReturnType<typeof issueGrant> {
    const req: GrantRequest = {
      orgId,
      snapshotId: SNAPSHOT,
      filePath,
      bytes,
      now,
      makeUrl: async (expiresAt) => `https://files.test/${filePath}?n=${++made}&exp=${expiresAt.getTime()}`,
    };
    return issueGrant(db.sql, req);
  }

  async function refusal(p: Promise<unknown>): Promise<ServiceError> {
    try {
      await p;
    } catch (err) {
      assert.ok(err instanceof ServiceError, `expected a ServiceError, got ${err}`);
      return err;
    }
    assert.fail('expected the grant to be refused');
  }

  it('reuses a URL still valid within its ten minutes, at no cost, and counts a new one after expiry', async () => {
    const org = await newOrg('reuse');
    const first = await grant(org, 'financials/a.parquet', 12 * GiB, T0);
    assert.equal(first.reused, false);
    assert.deepEqual(first.expires_at, at(10 * MINUTE));

    const again = await grant(org, 'financials/a.parquet', 12 * GiB, at(10 * MINUTE - 1));
    assert.deepEqual(again, { url: first.url, expires_at: first.expires_at, reused: true });
    // the reuse counted nothing: 8 GiB still fit
    const other = await grant(org, 'financials/b.parquet', 8 * GiB, at(MINUTE));
    assert.equal(other.reused, false);

    // at exactly expires_at the URL is no longer valid: a new one is issued and counts again
    const err = await refusal(grant(org, 'financials/a.parquet', 12 * GiB, at(10 * MINUTE)));
    assert.equal(err.code, 'BULK_DOWNLOAD_BUDGET_EXCEEDED');
    const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM bulk_grants WHERE org_id = ${org}`;
    assert.equal(row?.n, 2, 'a reuse and a refusal insert nothing');
  });

  it('issues a fresh URL once the earlier one expired and counts its bytes a second time', async () => {
    const org = await newOrg('expiry');
    const first = await grant(org, 'e/1.parquet', 9 * GiB, T0);
    const second = await grant(org, 'e/1.parquet', 9 * GiB, at(10 * MINUTE));
    assert.equal(second.reused, false);
    assert.notEqual(second.url, first.url);
    assert.deepEqual(second.expires_at, at(20 * MINUTE));
    const err = await refusal(grant(org, 'e/2.parquet', 2 * GiB + 1, at(11 * MINUTE)));
    assert.equal(err.details.issued_bytes, 18 * GiB);
    assert.equal((await grant(org, 'e/2.parquet', 2 * GiB, at(11 * MINUTE))).reused, false);
  });

  it('refuses past the cap with the three details and a retry-after from the oldest grants', async () => {
    const org = await newOrg('cap');
    await grant(org, 'f/1.parquet', 6 * GiB, T0);
    await grant(org, 'f/2.parquet', 10 * GiB, at(2 * HOUR));
    await grant(org, 'f/3.parquet', 4 * GiB, at(3 * HOUR));
    const now = at(5 * HOUR + 500);
    const err = await refusal(grant(org, 'f/4.parquet', 7 * GiB, now));
    assert.equal(err.code, 'BULK_DOWNLOAD_BUDGET_EXCEEDED');
    assert.equal(err.httpStatus, 429);
    assert.deepEqual(err.details, { issued_bytes: 20 * GiB, requested_bytes: 7 * GiB, daily_byte_cap: DAILY_BYTE_CAP });
    // 7 GiB must free up: the 6 GiB grant alone is not enough, so wait for the 10 GiB one (T0 + 26 h)
    assert.equal(err.retryAfterS, Math.ceil((26 * HOUR - (5 * HOUR + 500)) / 1000));
    assert.match(err.message, /allowance/);

    const fits = await grant(org, 'f/5.parquet', 0, now);
    assert.equal(fits.reused, false, 'a request that lands exactly on the cap is issued');
  });

  it('frees the window as grants turn 24 hours old', async () => {
    const org = await newOrg('window');
    await grant(org, 'w/1.parquet', 20 * GiB, T0);
    const before = await refusal(grant(org, 'w/2.parquet', 1, at(24 * HOUR - 1000)));
    assert.equal(before.retryAfterS, 1);
    const later = await grant(org, 'w/2.parquet', 20 * GiB, at(24 * HOUR));
    assert.equal(later.reused, false);
  });

  it('keeps organizations apart', async () => {
    const a = await newOrg('apart-a');
    const b = await newOrg('apart-b');
    await grant(a, 'x/1.parquet', 20 * GiB, T0);
    const other = await grant(b, 'x/1.parquet', 20 * GiB, T0);
    assert.equal(other.reused, false, "another organization's grant is neither reused nor counted");
  });

  it('says when a file alone is larger than the allowance, with no retry-after', async () => {
    const org = await newOrg('huge');
    const err = await refusal(grant(org, 'h/1.parquet', 20 * GiB + 1, T0));
    assert.equal(err.code, 'BULK_DOWNLOAD_BUDGET_EXCEEDED');
    assert.equal(err.retryAfterS, null);
    assert.match(err.message, /larger than the whole daily/);
  });

  it('serializes concurrent requests of one organization', async () => {
    const org = await newOrg('race');
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => grant(org, `r/${i}.parquet`, 8 * GiB, T0)));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 2, 'only two 8 GiB files fit in 20 GiB');
  });
});
