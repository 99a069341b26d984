import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Request budgets are fixed windows aligned to the epoch (domain/rate-limit.ts). A test that spends
 * a whole budget on the real clock starts with at least `needS` seconds of the window left, so its
 * calls cannot straddle two windows (which would let the "one too many" call through).
 */
export async function startOfBudgetWindow(windowS: number, needS = 20): Promise<void> {
  const windowMs = windowS * 1000;
  const leftMs = windowMs - (Date.now() % windowMs);
  if (leftMs < needS * 1000) await sleep(leftMs + 50);
}
