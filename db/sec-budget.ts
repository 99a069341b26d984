import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from './client.ts';

/** SEC's fair-access ceiling: 10 requests a second per user, counted across all of its machines. */
export const SEC_FLEET_MAX_RPS = 10;

/**
 * Head-room over one second: ten gaps span 1.2 s, so a request that leaves up to 200 ms after its
 * slot (a timer firing late on a busy machine, a new connection's handshake) still cannot put an
 * eleventh request inside one of SEC's seconds. The schedule is 8.3 requests a second.
 */
export const SEC_FLEET_HEADROOM_MS = 200;

/** A request this late for its slot gives the slot up and takes the next one. */
const LATE_SLOT_MS = 50;
const MAX_SLOT_TRIES = 5;

/** The gap between two request starts of the fleet. */
export function fleetGapMs(maxRps: number = SEC_FLEET_MAX_RPS): number {
  return (1000 + SEC_FLEET_HEADROOM_MS) / maxRps;
}

/**
 * What a live SEC source asks before each request (ingest/request-pacer.ts's SecRequestGate):
 * `wait` resolves when the request may start, `pause` holds every process of the fleet.
 */
export interface FleetGate {
  wait(): Promise<void>;
  pause(ms: number, reason: string): Promise<void>;
}

/**
 * The fleet's budget in PostgreSQL (table sec_request_budget): every request of every process
 * reserves the next slot of one evenly spaced schedule in one UPDATE (the row lock orders
 * concurrent callers), on the database's clock, so processes on machines with different clocks
 * still keep the gap. The caller then sleeps until its slot. A pause moves the schedule past its end.
 */
export function postgresFleetGate(sql: Sql, options: { maxRps?: number; name?: string } = {}): FleetGate {
  const gapS = fleetGapMs(options.maxRps) / 1000;
  const name = options.name ?? 'sec';
  return {
    async wait() {
      for (let tries = 1; ; tries++) {
        const asked = performance.now();
        const [row] = await sql<{ wait_ms: number }[]>`
          UPDATE sec_request_budget SET
            next_slot_at = greatest(next_slot_at, clock_timestamp(), coalesce(paused_until, '-infinity')) + make_interval(secs => ${gapS}),
            requests = requests + 1
          WHERE name = ${name}
          RETURNING (extract(epoch FROM next_slot_at - clock_timestamp()) * 1000 - ${gapS * 1000})::float8 AS wait_ms`;
        if (!row) throw new Error(`SEC request budget "${name}" is missing: run the migrations`);
        if (row.wait_ms > 0) await sleep(row.wait_ms);
        // the slot is no earlier than `asked + wait_ms` on this clock: a request that would leave
        // well after it (a busy event loop, a timer firing late) takes a new slot instead, since
        // leaving late would bring it closer to the requests after it than the schedule allows
        if (performance.now() - (asked + Math.max(0, row.wait_ms)) <= LATE_SLOT_MS || tries >= MAX_SLOT_TRIES) return;
      }
    },
    async pause(ms, reason) {
      await sql`
        UPDATE sec_request_budget SET
          paused_until = greatest(coalesce(paused_until, '-infinity'), clock_timestamp() + make_interval(secs => ${ms / 1000})),
          pause_reason = ${reason}
        WHERE name = ${name}`;
    },
  };
}

export interface FleetBudgetState {
  requests: string;
  paused_until: string | null;
  pause_reason: string | null;
}

/** The budget's counters, for the status route. */
export async function fleetBudgetState(sql: Sql, name = 'sec'): Promise<FleetBudgetState | null> {
  const [row] = await sql<FleetBudgetState[]>`
    SELECT requests::text AS requests, CASE WHEN paused_until > now() THEN paused_until END AS paused_until,
      CASE WHEN paused_until > now() THEN pause_reason END AS pause_reason
    FROM sec_request_budget WHERE name = ${name}`;
  return row ?? null;
}
