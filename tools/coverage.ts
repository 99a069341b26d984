import type { AuthContext } from './auth.ts';

/**
 * The coverage seam: every request that reaches a company passes its CIKs here, on both surfaces,
 * before the handler runs. The Free plan's slot state machine (25 companies, 30-day expiry,
 * COVERAGE_SELECTION_FULL) plugs in behind this interface; paid plans have mode `full`.
 */
export interface CoverageGate {
  admit(auth: AuthContext, ciks: string[], now: Date): Promise<void>;
}

/** Every plan reaches every company. In force until the Free-plan slot gate lands (issue #6). */
export const fullCoverage: CoverageGate = {
  async admit() {},
};
