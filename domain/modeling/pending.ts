/**
 * PENDING_REBUILD, decided on read without computing anything: a stored row's unavailable entry
 * becomes PENDING_REBUILD when a statement version knowable at the snapshot's date arrived after
 * the build, at a period the row read, and carries an input the entry lacked. The next build fills
 * the value; until then the stored row says so instead of claiming the filing lacks it.
 */
import { derivedMetric } from '../catalog/index.ts';
import { GROWTH_DEFS } from './growth.ts';
import type { Unavailable, UnavailableReason } from './types.ts';

/** Reasons a later version can lift (the others are facts about the inputs that arrived already). */
const LIFTABLE: ReadonlySet<UnavailableReason> = new Set(['NOT_REPORTED', 'MISSING_INPUT', 'INCOMPLETE_TRAILING_YEAR', 'NO_COMPARABLE_PERIOD']);
const GROWTH_LINE = new Map(GROWTH_DEFS.map((d) => [d.metric, d.line]));
const TTM_PER_SHARE: Record<string, string[]> = {
  EPS_BASIC: ['NET_INCOME', 'WEIGHTED_AVERAGE_SHARES_BASIC'],
  EPS_DILUTED: ['NET_INCOME', 'WEIGHTED_AVERAGE_SHARES_DILUTED'],
  FREE_CASH_FLOW: ['OPERATING_CASH_FLOW', 'CAPITAL_EXPENDITURES'],
  EBITDA: ['OPERATING_INCOME', 'DEPRECIATION_AND_AMORTIZATION'],
  TOTAL_DEBT: ['CURRENT_PORTION_LONG_TERM_DEBT', 'LONG_TERM_DEBT'],
  NET_DEBT: ['CURRENT_PORTION_LONG_TERM_DEBT', 'LONG_TERM_DEBT', 'CASH_AND_EQUIVALENTS'],
};

/** Canonical lines a modeling metric reads: a ratio's formula inputs, a growth metric's line, a computed input's parts, else itself. */
export function canonicalInputsOf(metric: string): string[] {
  const growth = GROWTH_LINE.get(metric);
  if (growth) return [growth];
  const derived = derivedMetric(metric);
  if (derived) return derived.dependencies;
  return TTM_PER_SHARE[metric] ?? [metric];
}

/**
 * The row's unavailable entries with PENDING_REBUILD where `late` (period key -> metrics carried by
 * versions that arrived after the build) supplies what the entry lacked at a period in `reads`.
 */
export function withPendingRebuild(unavailable: readonly Unavailable[], reads: readonly string[], late: ReadonlyMap<string, ReadonlySet<string>>): Unavailable[] {
  if (late.size === 0) return [...unavailable];
  const arrived = new Set<string>();
  for (const key of reads) for (const m of late.get(key) ?? []) arrived.add(m);
  if (arrived.size === 0) return [...unavailable];
  return unavailable.map((u) => {
    if (!LIFTABLE.has(u.reason)) return u;
    const wanted = u.missing_inputs ?? canonicalInputsOf(u.metric);
    return wanted.some((m) => arrived.has(m)) ? { ...u, reason: 'PENDING_REBUILD' as const } : u;
  });
}
