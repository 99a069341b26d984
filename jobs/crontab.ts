/**
 * The job queue's crontab. graphile-worker records each schedule's last run in the database
 * (known_crontabs) and enqueues one job per slot however many instances run the same crontab, so the
 * daily bulk export runs once per day across the fleet.
 */
import { EXPORT_CRON_SCHEDULE } from '../domain/export-schedule.ts';
import { FEED_CRONTAB } from './feed-watch.ts';

export const BULK_EXPORT_TASK = 'bulk_export';

/**
 * The crontab an instance registers. `exportSchedule` false (EXPORT_SCHEDULE=off) leaves the export
 * out on this instance, e.g. when Cloud Scheduler runs `npm run fds -- export build` instead.
 * `max=1`: a failed export is not retried; it publishes nothing and the previous snapshot stays latest.
 */
export function crontabFor(options: { exportSchedule: boolean; feedWatch?: boolean }): string {
  const lines: string[] = [];
  if (options.exportSchedule) lines.push(`${EXPORT_CRON_SCHEDULE} ${BULK_EXPORT_TASK} ?id=daily_bulk_export&max=1`);
  // the feed watcher's watchdog and nightly reconciliation (jobs/feed-watch.ts)
  if (options.feedWatch) lines.push(...FEED_CRONTAB);
  return lines.join('\n');
}
