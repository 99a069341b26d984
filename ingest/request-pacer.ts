import { setTimeout as sleep } from 'node:timers/promises';

/** SEC's fair-access ceiling for one client: 10 requests per second, across all its hosts. */
export const SEC_MAX_RPS = 10;

/**
 * SEC counts requests on its own clock, where network jitter can bunch ours together; widening
 * every gap a little keeps N+1 requests from ever landing inside one of SEC's seconds.
 */
const JITTER_GUARD_MS = 25;

/**
 * Spaces request starts evenly instead of allowing bursts: even spacing stays under a
 * per-second count in every window, not just in aligned ones. Slots are reserved synchronously,
 * so concurrent callers are served in call order and can never share a slot.
 */
export class RequestPacer {
  private lastSlotMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ceilingRps: number = SEC_MAX_RPS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Minimum gap before a request from a caller limited to `maxRps`. */
  gapMs(maxRps: number): number {
    return (1000 + JITTER_GUARD_MS) / Math.min(maxRps, this.ceilingRps);
  }

  /**
   * Resolves when the caller may start one request. `maxRps` can only lower the rate: each gap
   * uses the stricter of the caller's limit and the process ceiling, so mixed callers never
   * push the process above the ceiling.
   */
  async wait(maxRps: number = this.ceilingRps): Promise<void> {
    const now = this.now();
    const slot = Math.max(now, this.lastSlotMs + this.gapMs(maxRps));
    this.lastSlotMs = slot;
    if (slot > now) await sleep(slot - now);
  }
}

/**
 * The one pacer for every live SecSource in this process: SEC limits per client, so two
 * sources (or two jobs) each pacing themselves separately would together exceed the limit.
 */
export const secRequestPacer = new RequestPacer();
