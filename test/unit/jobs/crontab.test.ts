import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCrontab } from 'graphile-worker';
import { BULK_EXPORT_TASK, crontabFor } from '../../../jobs/crontab.ts';

/** Every minute of a week at which the crontab's export item fires, as "dow hh:mm". */
function firings(crontab: string): string[] {
  const items = parseCrontab(crontab).filter((i) => i.task === BULK_EXPORT_TASK);
  const out: string[] = [];
  for (let dow = 0; dow < 7; dow++) {
    for (let min = 0; min < 24 * 60; min++) {
      const digest = { min: min % 60, hour: Math.floor(min / 60), date: 10 + dow, month: 6, dow };
      if (items.some((i) => i.match(digest))) out.push(`${dow} ${String(digest.hour).padStart(2, '0')}:${String(digest.min).padStart(2, '0')}`);
    }
  }
  return out;
}

describe('daily bulk build on the job queue crontab', () => {
  it('fires at 04:30 UTC every day of the week and at no other minute', () => {
    assert.deepEqual(firings(crontabFor({ exportSchedule: true })), [0, 1, 2, 3, 4, 5, 6].map((d) => `${d} 04:30`));
  });
  it('is a single item with a stable id, so every instance registers the same schedule and it runs once', () => {
    const items = parseCrontab(crontabFor({ exportSchedule: true }));
    assert.equal(items.length, 1);
    assert.equal(items[0]!.identifier, 'daily_bulk_export');
    assert.equal(items[0]!.options.maxAttempts, 1, 'a failed export is not retried; the previous snapshot stays latest');
  });
  it('is left out of the crontab of an instance with EXPORT_SCHEDULE=off', () => {
    assert.deepEqual(firings(crontabFor({ exportSchedule: false })), []);
  });
});
