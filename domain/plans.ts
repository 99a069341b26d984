/**
 * Plans, their order, and the request budgets per plan and request class. The numbers are ours
 * (the spec leaves them open); they are published in the tool-server manifest and in
 * /v1/system/metadata, so agents can pace themselves.
 */
export const PLANS = ['free', 'growth', 'scale', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const PLAN_LABELS: Record<Plan, string> = {
  free: 'Free',
  growth: 'Growth',
  scale: 'Scale',
  enterprise: 'Enterprise',
};

export function planRank(plan: Plan): number {
  return PLANS.indexOf(plan);
}

export function planAllows(callerPlan: Plan, requiredPlan: Plan): boolean {
  return planRank(callerPlan) >= planRank(requiredPlan);
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** Request classes are metered separately: the tool server and bulk routes have their own budget. */
export const REQUEST_CLASSES = ['standard', 'tool_server', 'bulk'] as const;
export type RequestClass = (typeof REQUEST_CLASSES)[number];

export interface Budget {
  /** requests allowed per window */
  limit: number;
  /** window length in seconds */
  window_s: number;
}

const MINUTE = 60;

/** Budgets per key. Bulk is 0 below Scale: those plans are refused with 403 before any budget. */
export const RATE_LIMITS: Record<Plan, Record<RequestClass, Budget>> = {
  free: {
    standard: { limit: 60, window_s: MINUTE },
    tool_server: { limit: 60, window_s: MINUTE },
    bulk: { limit: 0, window_s: MINUTE },
  },
  growth: {
    standard: { limit: 600, window_s: MINUTE },
    tool_server: { limit: 600, window_s: MINUTE },
    bulk: { limit: 0, window_s: MINUTE },
  },
  scale: {
    standard: { limit: 3000, window_s: MINUTE },
    tool_server: { limit: 3000, window_s: MINUTE },
    bulk: { limit: 120, window_s: MINUTE },
  },
  enterprise: {
    standard: { limit: 12000, window_s: MINUTE },
    tool_server: { limit: 12000, window_s: MINUTE },
    bulk: { limit: 600, window_s: MINUTE },
  },
};

/** Free-plan coverage: companies held at once, and days a slot lives without a query. */
export const FREE_COVERAGE = { slots: 25, window_days: 30 } as const;
