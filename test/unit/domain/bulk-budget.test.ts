import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAllowance, DAILY_BYTE_CAP, WINDOW_MS } from '../../../domain/bulk-budget.ts';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const GiB = 1024 ** 3;

describe('bulk download allowance', () => {
  it('is 20 GiB in a rolling 24 hours', () => {
    assert.equal(DAILY_BYTE_CAP, 21_474_836_480);
    assert.equal(WINDOW_MS, 86_400_000);
  });

  it('allows a request that lands exactly on the cap and refuses one byte more', () => {
    const issued = [{ bytes: 15 * GiB, issuedAt: ago(3_600_000) }];
    const at = checkAllowance({ issued, requestedBytes: 5 * GiB, now: NOW });
    assert.deepEqual(at, { ok: true, issuedBytes: BigInt(15 * GiB) });
    const over = checkAllowance({ issued, requestedBytes: 5 * GiB + 1, now: NOW });
    assert.equal(over.ok, false);
    assert.equal(over.issuedBytes, BigInt(15 * GiB));
  });

  it('no longer counts a grant exactly 24 hours old, but does one a millisecond younger', () => {
    const full = { bytes: DAILY_BYTE_CAP, issuedAt: ago(WINDOW_MS) };
    assert.deepEqual(checkAllowance({ issued: [full], requestedBytes: 1, now: NOW }), { ok: true, issuedBytes: 0n });
    const younger = { bytes: DAILY_BYTE_CAP, issuedAt: ago(WINDOW_MS - 1) };
    const r = checkAllowance({ issued: [younger], requestedBytes: 1, now: NOW });
    assert.deepEqual(r, { ok: false, reason: 'window_full', issuedBytes: BigInt(DAILY_BYTE_CAP), retryAfterS: 1 });
  });

  it('ignores grants issued after now', () => {
    const future = { bytes: DAILY_BYTE_CAP, issuedAt: new Date(NOW.getTime() + 1) };
    assert.deepEqual(checkAllowance({ issued: [future], requestedBytes: DAILY_BYTE_CAP, now: NOW }), { ok: true, issuedBytes: 0n });
  });

  it('computes retry-after from the oldest grants that must age out', () => {
    const issued = [
      { bytes: 8 * GiB, issuedAt: ago(10 * 3_600_000) }, // leaves the window in 14 h
      { bytes: 4 * GiB, issuedAt: ago(20 * 3_600_000) }, // leaves the window in 4 h
      { bytes: 8 * GiB, issuedAt: ago(1_000) }, // leaves the window in 24 h - 1 s
    ];
    // 20 GiB issued: 4 GiB free up after 4 h, 12 GiB after 14 h
    const small = checkAllowance({ issued, requestedBytes: 4 * GiB, now: NOW });
    assert.deepEqual(small, { ok: false, reason: 'window_full', issuedBytes: BigInt(20 * GiB), retryAfterS: 4 * 3600 });
    const medium = checkAllowance({ issued, requestedBytes: 4 * GiB + 1, now: NOW });
    assert.equal(medium.ok === false && medium.retryAfterS, 14 * 3600);
    const large = checkAllowance({ issued, requestedBytes: 12 * GiB + 1, now: NOW });
    assert.equal(large.ok === false && large.retryAfterS, 24 * 3600 - 1);
  });

  it('rounds retry-after up to whole seconds', () => {
    const issued = [{ bytes: DAILY_BYTE_CAP, issuedAt: ago(WINDOW_MS - 1_500) }];
    const r = checkAllowance({ issued, requestedBytes: 1, now: NOW });
    assert.equal(r.ok === false && r.retryAfterS, 2);
  });

  it('says distinctly when the file alone is larger than the cap', () => {
    const r = checkAllowance({ issued: [], requestedBytes: DAILY_BYTE_CAP + 1, now: NOW });
    assert.deepEqual(r, { ok: false, reason: 'exceeds_cap', issuedBytes: 0n, retryAfterS: null });
    assert.deepEqual(checkAllowance({ issued: [], requestedBytes: DAILY_BYTE_CAP, now: NOW }), { ok: true, issuedBytes: 0n });
  });

  it('keeps sums exact past 2^53 with bigint inputs and a custom cap', () => {
    const big = 2n ** 60n;
    const issued = [{ bytes: big, issuedAt: ago(1) }, { bytes: 1n, issuedAt: ago(1) }];
    const r = checkAllowance({ issued, requestedBytes: 0, now: NOW, cap: big + 1n });
    assert.deepEqual(r, { ok: true, issuedBytes: big + 1n });
    assert.equal(checkAllowance({ issued, requestedBytes: 1, now: NOW, cap: big + 1n }).ok, false);
  });

  it('rejects byte counts that are not exact non-negative integers', () => {
    assert.throws(() => checkAllowance({ issued: [], requestedBytes: 1.5, now: NOW }), RangeError);
    assert.throws(() => checkAllowance({ issued: [], requestedBytes: -1, now: NOW }), RangeError);
    assert.throws(() => checkAllowance({ issued: [{ bytes: 2 ** 53, issuedAt: NOW }], requestedBytes: 0, now: NOW }), RangeError);
  });
});
