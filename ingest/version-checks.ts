import type { Sql } from '../db/client.ts';
import { reconcileAddedVersions } from '../db/reconciliation.ts';
import { recordQualityFindings } from '../db/data-quality.ts';

/**
 * Checks that run on the statement versions one company's ingestion just added, inside the same
 * transaction, so findings exist exactly when their versions do (reconciliation ledger, data
 * quality). The added versions are those of `cik` with `ingestion_run_id = runId`.
 */
export async function checkAddedVersions(tx: Sql, cik: string, runId: number): Promise<void> {
  await recordQualityFindings(tx, cik, runId);
  await reconcileAddedVersions(tx, cik, runId);
  // each area adds its own call here
}
