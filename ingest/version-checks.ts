import type { Sql } from '../db/client.ts';

/**
 * Checks that run on the statement versions one company's ingestion just added, inside the same
 * transaction, so findings exist exactly when their versions do (reconciliation ledger, data
 * quality). The added versions are those of `cik` with `ingestion_run_id = runId`.
 */
export async function checkAddedVersions(_tx: Sql, _cik: string, _runId: number): Promise<void> {
  // each area adds its own call here
}
