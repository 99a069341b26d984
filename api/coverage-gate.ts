import type { Sql } from '../db/client.ts';
import { claimSlots, heldSlots, type SlotPolicy } from '../db/coverage-selection.ts';
import { FREE_COVERAGE, type Plan } from '../domain/plans.ts';
import { ServiceError } from '../domain/service-error.ts';
import type { AuthContext } from './auth.ts';

/**
 * The coverage seam: every request that reaches a company passes its CIKs here, on both surfaces,
 * before the handler runs. The Free plan's slot state machine (25 companies, 30-day expiry,
 * COVERAGE_SELECTION_FULL) plugs in behind this interface; paid plans have mode `full`.
 */
export interface CoverageGate {
  admit(auth: AuthContext, ciks: string[], now: Date): Promise<void>;
  /**
   * The companies a list spanning companies may show this key: its held ones on the Free plan,
   * null (every company) on paid plans. Lists filter by it rather than claim slots.
   */
  visible(auth: AuthContext, now: Date): Promise<string[] | null>;
}

export const RELEASE_PATH = '/v1/coverage/selection/release';
export const RELEASE_ENDPOINT = `POST ${RELEASE_PATH}`;
export const SELECTION_PATH = '/v1/coverage/selection';

/** Coverage is chosen companies on the Free plan; paid plans reach every company. */
export function coverageMode(plan: Plan): 'selected' | 'full' {
  return plan === 'free' ? 'selected' : 'full';
}

/**
 * The Free plan's slot gate. Slots belong to the key (the plan sits on the key; one organization
 * may hold keys of several plans). A request reaching a company claims a slot for it or refreshes
 * the one held; when the new companies of one request do not all fit, the request is refused whole
 * (claims nothing, refreshes nothing) and `refused_ciks` names every company it reached that is not
 * held. The CIK is not checked against the corpus: a mistyped CIK takes a slot like any other.
 * `now` is the seam's clock (the injected one in tests).
 */
export function slotCoverage(sql: Sql, policy: SlotPolicy = FREE_COVERAGE): CoverageGate {
  return {
    async admit(auth, ciks, now) {
      if (coverageMode(auth.plan) === 'full' || ciks.length === 0) return;
      const r = await claimSlots(sql, auth.keyId, ciks, now, policy);
      if (!r.ok) throw selectionFull(r.refused, r.held, policy);
    },
    async visible(auth, now) {
      if (coverageMode(auth.plan) === 'full') return null;
      return (await heldSlots(sql, auth.keyId, now)).map((s) => s.cik);
    },
  };
}

function selectionFull(refused: string[], held: string[], policy: SlotPolicy): ServiceError {
  const free = Math.max(0, policy.slots - held.length);
  const what = refused.length === 1 ? 'a company' : `${refused.length} companies`;
  const situation =
    free === 0
      ? `All ${policy.slots} coverage slots of this Free-plan key are held and this request reaches ${what} not among them (${refused.join(', ')}).`
      : `This request reaches ${what} not held by this Free-plan key (${refused.join(', ')}) but only ${free} of its ${policy.slots} coverage slots ${free === 1 ? 'is' : 'are'} free; a request claims all its companies or none.`;
  return new ServiceError(
    'COVERAGE_SELECTION_FULL',
    `${situation} Nothing was claimed. Release a held company with ${RELEASE_ENDPOINT} and body {"cik": "<cik>"} ` +
      `(GET ${SELECTION_PATH} lists them, oldest first), wait for a slot to free itself ${policy.window_days} days after its last query, ` +
      'or use a paid plan, which reaches every company.',
    { refused_ciks: refused, held_ciks: held, release_endpoint: RELEASE_ENDPOINT, limit: policy.slots, slots_available: free },
  );
}
