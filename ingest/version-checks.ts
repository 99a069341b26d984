import type { Db } from '../db/client.ts';
import { reconcileWrittenVersions } from '../db/reconciliation.ts';
import { checkWrittenVersions } from '../db/data-quality.ts';
import type { WriteCounts } from '../db/statement-write.ts';

/**
 * Checks that run on the statement versions one company's ingestion just added, inside the same
 * transaction, so findings exist exactly when their versions do (reconciliation ledger, data
 * quality). The added versions are `written.added`, as appendVersions wrote them: the checks take
 * them from memory and read from PostgreSQL only the company's versions stored before
 * (`written.stored`) that their rules compare with.
 */
export async function checkAddedVersions(tx: Db, cik: string, runId: number, written: WriteCounts): Promise<void> {
  await checkWrittenVersions(tx, cik, runId, written);
  await reconcileWrittenVersions(tx, cik, written);
  // each area adds its own call here
}
