import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../config.ts';
import { connect } from '../db/client.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { migratedDatabaseForSuite } from './helpers/database.ts';
import { SHARED_SEC } from './helpers/service.ts';

/** Small companies of the mirror, each ingested in a few milliseconds. */
const SMALL = [
  '0001438077', '0001462356', '0001465740', '0001494730', '0001677077', '0001702494', '0001713445',
  '0001718179', '0001766140', '0001771340', '0001796129', '0001800903', '0001814722',
];

describe("the ingestion run's progress row", () => {
  const suiteDb = migratedDatabaseForSuite();

  it('does not hold up the next company while its write waits, and ends with the final counters', async () => {
    const other = connect(suiteDb().url, { max: 1 });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: Promise<unknown> | null = null;
    let held = false;
    let doneWhileHeld = 0;
    const timer = setTimeout(() => release(), 10_000);
    await other`SELECT 1`; // connected before the run
    try {
      const summary = await runIngestion(suiteDb().sql, { ...loadConfig({}), databaseUrl: suiteDb().url, secSource: SHARED_SEC }, {
        ciks: SMALL,
        concurrency: 1,
        onCompany: () => {
          if (!held) return;
          if (++doneWhileHeld >= 3) release();
        },
        onProgress: (p) => {
          if (p.companies_done !== 1 || locked) return;
          // another session holds the run's row as an update would (the companies' own reference to
          // the run, a key share, is not held up): every progress write from here on waits for it
          locked = other.begin(async (tx) => {
            await tx`SELECT 1 FROM ingestion_runs WHERE run_id = ${p.run_id} FOR NO KEY UPDATE`;
            held = true;
            await released;
            held = false;
          });
        },
      });
      await locked;
      assert.equal(summary.status, 'succeeded', JSON.stringify(summary.errors));
      assert.ok(doneWhileHeld >= 3, `${doneWhileHeld} companies ingested while the progress row was locked`);
      const [row] = await suiteDb().sql<{ status: string; companies_done: number; companies_total: number; versions_added: number }[]>`
        SELECT status, companies_done, companies_total, versions_added FROM ingestion_runs WHERE run_id = ${summary.run_id}`;
      assert.deepEqual({ ...row }, {
        status: 'succeeded',
        companies_done: summary.counters.companies_done,
        companies_total: SMALL.length,
        versions_added: summary.counters.versions_added,
      });
      assert.equal(summary.counters.companies_done, SMALL.length);
    } finally {
      clearTimeout(timer);
      release();
      await other.end();
    }
  });
});
