import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { looksLikeApiKey } from '../../../domain/api-key.ts';
import { normalizeTicker, padCik } from '../../../domain/cik.ts';
import { planAllows, RATE_LIMITS } from '../../../domain/plans.ts';
import { decisionOf, windowOf } from '../../../domain/rate-limit.ts';
import { ServiceError, toServiceError } from '../../../domain/service-error.ts';

describe('domain rules', () => {
  it('orders plans Free < Growth < Scale < Enterprise', () => {
    assert.equal(planAllows('free', 'growth'), false);
    assert.equal(planAllows('growth', 'growth'), true);
    assert.equal(planAllows('enterprise', 'scale'), true);
    assert.equal(planAllows('scale', 'enterprise'), false);
  });

  it('gives every plan a budget per request class, bulk only from Scale', () => {
    assert.equal(RATE_LIMITS.free.bulk.limit, 0);
    assert.equal(RATE_LIMITS.growth.bulk.limit, 0);
    assert.ok(RATE_LIMITS.scale.bulk.limit > 0);
    assert.ok(RATE_LIMITS.enterprise.standard.limit > RATE_LIMITS.free.standard.limit);
  });

  it('aligns budget windows to the epoch so every instance agrees on them, and says when each resets', () => {
    const minute = Date.UTC(2026, 10, 24, 1, 2, 0);
    assert.deepEqual(windowOf(minute, 60), { start: new Date(minute), reset_s: 60 });
    assert.deepEqual(windowOf(minute + 30_500, 60), { start: new Date(minute), reset_s: 30 });
    assert.deepEqual(windowOf(minute + 59_999, 60), { start: new Date(minute), reset_s: 1 });
    assert.equal(windowOf(minute + 60_000, 60).start.getTime(), minute + 60_000, 'a new window on the next minute');
    const budget = { limit: 2, window_s: 60 };
    assert.deepEqual(decisionOf(budget, 1, 60), { allowed: true, limit: 2, remaining: 1, reset_s: 60, window_s: 60 });
    assert.deepEqual(decisionOf(budget, null, 30), { allowed: false, limit: 2, remaining: 0, reset_s: 30, window_s: 60 });
  });

  it('pads CIKs to ten digits and normalizes share-class tickers', () => {
    assert.equal(padCik('320193'), '0000320193');
    assert.equal(padCik(1067983), '0001067983');
    assert.equal(normalizeTicker(' brk.b '), 'BRK-B');
  });

  it('recognizes only well-formed keys', () => {
    assert.equal(looksLikeApiKey(`fds_sk_${'a'.repeat(43)}`), true);
    assert.equal(looksLikeApiKey(`fds_sk_${'a'.repeat(42)}`), false);
    assert.equal(looksLikeApiKey('Bearer x'), false);
  });

  it('hides an unexpected failure behind INTERNAL_ERROR and keeps a ServiceError as it is', () => {
    const internal = toServiceError(new Error('connection refused at 10.0.0.3'));
    assert.equal(internal.code, 'INTERNAL_ERROR');
    assert.equal(internal.httpStatus, 500);
    assert.ok(!internal.message.includes('10.0.0.3'));
    const e = new ServiceError('RATE_LIMITED', 'slow down', {}, { retryAfterS: 7 });
    assert.equal(toServiceError(e), e);
    assert.equal(e.retryable, true);
    assert.equal(e.retryAfterS, 7);
  });
});
