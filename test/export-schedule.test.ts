import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextExportAt } from '../domain/export-schedule.ts';

describe('daily bulk build time', () => {
  it('is 04:30 UTC the same day when that is still ahead', () => {
    assert.equal(nextExportAt(new Date('2026-11-23T01:00:00Z')).toISOString(), '2026-11-23T04:30:00.000Z');
  });
  it('is the next day at exactly 04:30 and after it', () => {
    assert.equal(nextExportAt(new Date('2026-11-23T04:30:00Z')).toISOString(), '2026-11-24T04:30:00.000Z');
    assert.equal(nextExportAt(new Date('2026-11-23T22:15:00Z')).toISOString(), '2026-11-24T04:30:00.000Z');
  });
  it('rolls over month and year ends', () => {
    assert.equal(nextExportAt(new Date('2026-12-31T05:00:00Z')).toISOString(), '2027-01-01T04:30:00.000Z');
  });
});
