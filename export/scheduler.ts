import path from 'node:path';
import { nextExportAt } from '../domain/export-schedule.ts';
import type { Sql } from '../db/client.ts';
import type { BlobStore } from '../domain/bulk/blob-store.ts';
import { BuildBusyError, buildSnapshot } from './build.ts';

/**
 * The in-process daily build (EXPORT_SCHEDULE=off turns it off, e.g. when Cloud Scheduler runs
 * `npm run fds -- export build` instead). A build another instance already runs is skipped, not
 * queued; a failed one is logged and the previous snapshot stays latest.
 */
export interface ScheduleDeps {
  sql: Sql;
  bulkStore: BlobStore;
  config: { bulkDir: string };
  now: () => Date;
}

/** Takes what the build needs (the service passes its Services), so export/ never imports api/. */
export function startExportSchedule(services: ScheduleDeps, options: { log: (m: string) => void }): { stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    const at = nextExportAt(services.now());
    timer = setTimeout(run, Math.max(0, at.getTime() - services.now().getTime()));
    timer.unref();
  };
  const run = async () => {
    try {
      const r = await buildSnapshot({
        sql: services.sql,
        store: services.bulkStore,
        stagingDir: path.join(services.config.bulkDir, 'staging'),
        now: services.now,
      });
      const m = r.manifest;
      options.log(`bulk snapshot ${m.snapshot_id} published (${m.build_kind}): ${m.rows} rows in ${m.files.length} files, ${r.carried_forward} carried forward, ${r.expired.length} expired`);
    } catch (err) {
      options.log(err instanceof BuildBusyError ? `bulk export skipped: ${err.message}` : `bulk export failed, previous snapshot stays latest: ${(err as Error).message}`);
    }
    arm();
  };
  arm();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
