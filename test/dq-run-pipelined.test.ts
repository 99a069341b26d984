import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sql } from '../db/client.ts';
import { checkWrittenVersions } from '../db/data-quality.ts';
import type { WrittenVersion } from '../db/statement-write.ts';
import { migratedDatabaseForSuite } from './helpers/database.ts';

/**
 * checkWrittenVersions sends its dq_runs row ahead of the COPYs without waiting for its answer
 * (pipelined). When that insert fails, the COPYs fail too and throw first; the insert's own
 * rejection must still be handled, or Node ends the process on an unhandled rejection.
 */
describe('the ingestion check, when its run row is refused', () => {
  const suiteDb = migratedDatabaseForSuite();

  // one checked version, so the COPY of checked versions runs (and fails) after the refused row
  const written: WrittenVersion = {
    statement_version_id: '00000000-0000-4000-8000-000000000001',
    statement_type: 'INCOME_STATEMENT',
    fiscal_year: 2023,
    fiscal_period: 'FY',
    version_sequence: 1,
    filing_date: '2023-11-03',
    period_start: '2022-09-25',
    period_end: '2023-09-30',
    accession: '0000320193-23-000106',
    currency: 'USD',
    figures: {},
    values: {},
  };

  it('fails the transaction with the database error and leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await assert.rejects(
        suiteDb().sql.begin((tx) => checkWrittenVersions(tx as unknown as Sql, 'not-a-cik', 1, { added: [written], stored: [] })),
        (err: Error & { code?: string }) => {
          // the CIK check of dq_runs refuses the row (23514), or the COPY after it reports the aborted transaction (25P02)
          assert.ok(err.code === '23514' || err.code === '25P02', `unexpected error ${err.code}: ${err.message}`);
          return true;
        },
      );
      // unhandled rejections are reported after the microtask queue drains
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(unhandled, []);
      const [row] = await suiteDb().sql<{ n: number }[]>`SELECT count(*)::int AS n FROM dq_runs`;
      assert.equal(row?.n, 0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
