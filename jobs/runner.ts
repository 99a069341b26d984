/**
 * The job queue (graphile-worker over the service's own PostgreSQL). Every instance installs the
 * queue's schema (so it can enqueue) and, unless JOBS=off, runs a worker with JOB_CONCURRENCY slots
 * over the task list: snapshot builds and the daily bulk export. Jobs are rows: any instance's
 * worker takes any job, each job runs on one worker at a time, LISTEN/NOTIFY wakes idle workers.
 * Each worker also sweeps for builds whose heartbeat stopped (a dead worker) and unlocks their jobs
 * so another worker retries them at once instead of after the queue's four-hour lock expiry.
 */
import { Logger, makeWorkerUtils, run, runMigrations, type LogFunctionFactory, type Runner, type TaskList, type WorkerUtils } from 'graphile-worker';
import pg from 'pg';
import type { Sql } from '../db/client.ts';
import { MODELING_BUILD_TASK } from '../db/modeling-snapshots.ts';
import type { BlobStore } from '../domain/bulk/blob-store.ts';
import { bulkExportTask } from './bulk-export.ts';
import { loadConfig } from '../config.ts';
import { ARCHIVE_BATCH_TASK, ingestArchiveBatch } from '../ingest/archive-queue.ts';
import { ingestPackageWindowJob, PACKAGE_WINDOW_TASK } from '../ingest/package-window.ts';
import { BULK_EXPORT_TASK, crontabFor } from './crontab.ts';
import { modelingBuildTask, sweepStaleBuilds } from './modeling-build.ts';
import { feedTasks, kickPoll, type FeedJobOptions } from './feed-watch.ts';

export interface JobsOptions {
  databaseUrl: string;
  sql: Sql;
  bulkStore: BlobStore;
  bulkDir: string;
  concurrency: number;
  /** seconds without a heartbeat before a build's worker is presumed dead */
  buildStaleSeconds: number;
  exportSchedule: boolean;
  now: () => Date;
  log: (m: string) => void;
  /** the feed watcher's tasks and schedule on this instance (jobs/feed-watch.ts); null: not watched */
  feed?: FeedJobOptions | null;
}

export interface JobWorker {
  /** graphile-worker's pool id (jobs it runs carry it as locked_by) */
  readonly runner: Runner;
  readonly utils: WorkerUtils;
  /** one sweep now (tests; the worker also sweeps on its own timer) */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/** graphile-worker's messages at warning and above go to the service log; the rest is noise. */
function queueLogger(log: (m: string) => void): Logger {
  const factory: LogFunctionFactory = (scope) => (level, message) => {
    if (level === 'error' || level === 'warning') log(`[jobs${scope.taskIdentifier ? ` ${scope.taskIdentifier}` : ''}] ${message}`);
  };
  return new Logger(factory);
}

/** application_name of the queue's connections (visible in pg_stat_activity) */
export const QUEUE_APPLICATION_NAME = 'fds-job-queue';

/**
 * The queue's own pg pool, owned here rather than by graphile-worker: the library ends a pool it
 * created without awaiting the end and after removing its error listeners, so a connection the
 * server terminates in that window (a database dropped or restarted) raised an uncaught error and
 * took the process down. Ours keeps its listeners until `end()` has really finished.
 */
function queuePool(databaseUrl: string, max: number, log: (m: string) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, application_name: QUEUE_APPLICATION_NAME });
  pool.on('error', (err) => log(`[jobs] idle queue connection failed: ${err.message}`));
  pool.on('connect', (client) => client.on('error', (err) => log(`[jobs] queue connection failed: ${err.message}`)));
  return pool;
}

/** Creates or upgrades the queue's schema (graphile_worker); every instance runs it at start-up. */
export async function installQueue(databaseUrl: string, log: (m: string) => void): Promise<void> {
  const pgPool = queuePool(databaseUrl, 1, log);
  try {
    await runMigrations({ pgPool, logger: queueLogger(log) });
  } finally {
    await pgPool.end();
  }
}

export function taskList(o: JobsOptions): TaskList {
  const heartbeatMs = Math.max(200, Math.floor((o.buildStaleSeconds * 1000) / 4));
  return {
    [MODELING_BUILD_TASK]: modelingBuildTask(o.sql, { heartbeatMs, log: o.log }),
    [BULK_EXPORT_TASK]: bulkExportTask({ sql: o.sql, store: o.bulkStore, bulkDir: o.bulkDir, now: o.now, log: o.log }),
    ...(o.feed ? feedTasks(o.feed) : {}),
    // a batch of a queued archive run (ingest --archives --queue); SEC settings from this process's environment
    [ARCHIVE_BATCH_TASK]: (payload) => ingestArchiveBatch(o.sql, loadConfig(), payload, o.log, o.now),
    [PACKAGE_WINDOW_TASK]: (payload) => ingestPackageWindowJob(o.sql, loadConfig(), payload, o.log, { now: o.now }),
  };
}

/** Starts this instance's worker: the task list, the crontab, and the stale-build sweep. */
export async function startJobWorker(o: JobsOptions): Promise<JobWorker> {
  const logger = queueLogger(o.log);
  const pgPool = queuePool(o.databaseUrl, o.concurrency + 2, o.log);
  const runner = await run({
    pgPool,
    concurrency: o.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: taskList(o),
    crontab: crontabFor({ exportSchedule: o.exportSchedule, feedWatch: Boolean(o.feed) }),
    logger,
  });
  const utils = await makeWorkerUtils({ pgPool, logger });
  // the feed's poll chain starts with the first worker (the cron watchdog restarts it if it breaks)
  if (o.feed) await kickPoll(o.feed, (task, payload, spec) => utils.addJob(task, payload, spec));
  const sweep = () => sweepStaleBuilds(o.sql, o.buildStaleSeconds, (ids) => utils.forceUnlockWorkers(ids));
  const timer = setInterval(() => void sweep().catch((err) => o.log(`stale-build sweep failed: ${(err as Error).message}`)), Math.max(250, (o.buildStaleSeconds * 1000) / 2));
  timer.unref();
  return {
    runner,
    utils,
    sweep,
    stop: async () => {
      clearInterval(timer);
      await runner.stop();
      await utils.release();
      await pgPool.end();
    },
  };
}
