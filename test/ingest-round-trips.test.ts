import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { connect } from '../db/client.ts';
import { startRun } from '../db/ingestion-runs.ts';
import { catalogView } from '../domain/normalize/catalog-view.ts';
import { ingestCompany } from '../ingest/ingest-company.ts';
import { openSecSource } from '../ingest/source.ts';
import { migratedDatabaseForSuite } from './helpers/database.ts';
import { SHARED_SEC } from './helpers/service.ts';

const APPLE = '0000320193';
/** Restatements, scale slips, findings, segments and disclosures: every statement of the transaction runs. */
const NVIDIA = '0001045810';

/**
 * Round trips this process makes to PostgreSQL while `fn` runs: each time it writes after having
 * read an answer, it had waited for that answer. Pipelined statements (written one after the
 * other before any answer) count once, however their answers arrive.
 */
async function roundTrips<T>(fn: () => Promise<T>): Promise<{ result: T; trips: number }> {
  const proto = net.Socket.prototype;
  const { write, emit } = proto;
  const answered = new WeakSet<net.Socket>();
  let trips = 0;
  proto.write = function (this: net.Socket, ...args: unknown[]) {
    if (answered.delete(this)) trips++;
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof proto.write;
  proto.emit = function (this: net.Socket, event: string | symbol, ...args: unknown[]) {
    if (event === 'data') answered.add(this);
    return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
  } as typeof proto.emit;
  try {
    const result = await fn();
    return { result, trips };
  } finally {
    proto.write = write;
    proto.emit = emit;
  }
}

describe('a company ingestion waits for PostgreSQL only where it needs an answer', () => {
  const suiteDb = migratedDatabaseForSuite();

  it("ingests Apple's whole history in at most 20 round trips (the writes that need no answer before the next are pipelined)", async (t) => {
    const source = openSecSource(SHARED_SEC);
    const catalog = catalogView();
    const now = () => new Date('2026-01-02T03:04:05Z');
    // one connection, its statements prepared by a first company (as they are after the first few of a run)
    const sql = connect(suiteDb().url, { max: 1 });
    t.after(() => sql.end());
    const runId = await startRun(sql, 'test', [], now());
    const warm = await ingestCompany(sql, source, NVIDIA, runId, catalog, now);
    assert.equal(warm.status, 'ingested');
    const { result, trips } = await roundTrips(() => ingestCompany(sql, source, APPLE, runId, catalog, now));
    assert.equal(result.status, 'ingested');
    assert.ok(result.versions_added > 300 && result.restatements_added > 50 && result.segments > 0 && result.disclosures > 0, JSON.stringify(result));
    const [slips] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM dq_issues WHERE cik = ${APPLE} AND rule_code = 'DQ_SCALE_SLIP_FILED'`;
    assert.ok(slips!.n > 0, 'the transaction records scale slips too');
    assert.ok(trips <= 20, `${trips} round trips`);
  });
});
