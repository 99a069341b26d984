/**
 * The daily bulk export as a queue task (scheduled by jobs/crontab.ts). A build another process
 * already runs (the advisory lock of export/build.ts) is skipped, not failed.
 */
import type { Task } from 'graphile-worker';
import path from 'node:path';
import type { Sql } from '../db/client.ts';
import type { BlobStore } from '../domain/bulk/blob-store.ts';
import { BuildBusyError, buildSnapshot } from '../export/build.ts';

export function bulkExportTask(deps: { sql: Sql; store: BlobStore; bulkDir: string; now: () => Date; log: (m: string) => void }): Task {
  return async () => {
    try {
      const r = await buildSnapshot({ sql: deps.sql, store: deps.store, stagingDir: path.join(deps.bulkDir, 'staging'), now: deps.now });
      const m = r.manifest;
      deps.log(`bulk snapshot ${m.snapshot_id} published (${m.build_kind}): ${m.rows} rows in ${m.files.length} files, ${r.carried_forward} carried forward, ${r.expired.length} expired`);
    } catch (err) {
      if (err instanceof BuildBusyError) {
        deps.log(`bulk export skipped: ${err.message}`);
        return;
      }
      deps.log(`bulk export failed, previous snapshot stays latest: ${(err as Error).message}`);
      throw err;
    }
  };
}
