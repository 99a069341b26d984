import type { Sql } from '../db/client.ts';
import { postgresFleetGate } from '../db/sec-budget.ts';
import { secRequestPacer } from './request-pacer.ts';

/**
 * What every live SEC request passes before it leaves, whichever code opened the source: `wait`
 * resolves when it may start (`maxRps` can only lower the rate), `pause` holds every request
 * (Retry-After, 403, 429) for as far as the gate reaches: this process, or the whole fleet.
 */
export interface SecRequestGate {
  wait(maxRps?: number): Promise<void>;
  pause(ms: number, reason: string): Promise<void>;
}

/** The fleet's side of a gate (db/sec-budget.ts's postgresFleetGate has this shape). */
export interface SharedGate {
  wait(): Promise<void>;
  pause(ms: number, reason: string): Promise<void>;
}

export interface SecAccess {
  gate: SecRequestGate;
  /** SEC host -> origin (SEC_ORIGINS): where a live source sends that host's requests */
  hostMap: Readonly<Record<string, string>>;
}

/** This process alone: the per-process pacer, nothing shared, pauses only as long as a request's own backoff. */
export const PROCESS_GATE: SecRequestGate = {
  wait: (maxRps) => secRequestPacer.wait(maxRps),
  pause: async () => {},
};

let current: SecAccess = { gate: PROCESS_GATE, hostMap: {} };

/** The process's SEC access: what a live source uses where its options name no gate or host map. */
export function secAccess(): SecAccess {
  return current;
}

/**
 * Sets the process's SEC access (the composition root does, once it has a database); returns the
 * undo, for a process that closes its database and goes on (tests).
 */
export function useSecAccess(next: Partial<SecAccess>): () => void {
  const previous = current;
  current = { ...current, ...next };
  return () => {
    current = previous;
  };
}

/**
 * The fleet's gate behind this process's pacer: the pacer orders this process's callers and
 * applies a caller's lower rate, the shared gate keeps every process of the fleet within SEC's limit.
 */
export function fleetGate(shared: SharedGate): SecRequestGate {
  return {
    async wait(maxRps) {
      await secRequestPacer.wait(maxRps);
      await shared.wait();
    },
    pause: (ms, reason) => shared.pause(ms, reason),
  };
}

/**
 * A process with the database: every live SEC request of this process from now on goes through the
 * fleet's budget in PostgreSQL, and to the origins SEC_ORIGINS names. Returns the undo.
 */
export function useFleetBudget(sql: Sql, hostMap: Readonly<Record<string, string>>): () => void {
  return useSecAccess({ gate: fleetGate(postgresFleetGate(sql)), hostMap });
}
