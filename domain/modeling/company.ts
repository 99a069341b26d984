/**
 * One company's statement versions arranged for the modeling build: fiscal periods (every
 * statement type of a period together, a Q4's balance sheet being the fiscal-year-end one, the
 * opening balance sheet found), indexed by period key, plus the comparable-period rules growth and
 * TTM share. Pure: versions in, periods out.
 */
import { periodDays } from '../derived-eval.ts';
import { groupPeriods, type PeriodGroup } from '../series-periods.ts';
import type { StatementType } from '../catalog/index.ts';
import { periodKey, type ModelVersion } from './types.ts';

export interface CompanyPeriods {
  cik: string;
  company_id: string | null;
  versions: ModelVersion[];
  /** ordered by period end, quarters before the fiscal year ending the same day */
  groups: PeriodGroup[];
  byKey: Map<string, PeriodGroup>;
}

export function companyPeriods(cik: string, company_id: string | null, versions: ModelVersion[]): CompanyPeriods {
  const groups = groupPeriods(versions);
  return { cik, company_id, versions, groups, byKey: new Map(groups.map((g) => [periodKey(g), g])) };
}

/** The statement of `type` that belongs to the period itself (a Q4's borrowed fiscal-year balance sheet does not). */
export function ownStatement(g: PeriodGroup, type: StatementType): ModelVersion | undefined {
  const row = g.statements[type];
  return row && row.fiscal_period === g.fiscal_period && row.fiscal_year === g.fiscal_year ? (row as ModelVersion) : undefined;
}

/** Period keys a row of `g` reads: its statements (a Q4's fiscal-year balance sheet too) and its opening balance sheet. */
export function readsOf(g: PeriodGroup, withOpening: boolean): string[] {
  const keys = new Set<string>([periodKey(g)]);
  for (const r of Object.values(g.statements)) if (r) keys.add(periodKey(r));
  if (withOpening && g.opening) keys.add(periodKey(g.opening));
  return [...keys];
}

/** Key of the same fiscal period one year earlier. */
export function yearAgoKey(g: { fiscal_year: number; fiscal_period: string }, years = 1): string {
  return `${g.fiscal_year - years}|${g.fiscal_period}`;
}

const PREVIOUS_QUARTER: Record<string, [number, string]> = { Q1: [-1, 'Q4'], Q2: [0, 'Q1'], Q3: [0, 'Q2'], Q4: [0, 'Q3'] };

/** Key of the quarter before a quarter (Q1's is the previous fiscal year's Q4); null for FY. */
export function previousQuarterKey(g: { fiscal_year: number; fiscal_period: string }): string | null {
  const step = PREVIOUS_QUARTER[g.fiscal_period];
  return step ? `${g.fiscal_year + step[0]}|${step[1]}` : null;
}

/** Days a 52/53-week calendar may move a period's length or its start away from the previous end. */
export const CALENDAR_SLACK_DAYS = 10;

/** Whether two duration statements span periods of the same length (52/53-week years allowed). */
export function sameLength(a: { period_start: string | null; period_end: string }, b: { period_start: string | null; period_end: string }): boolean {
  if (!a.period_start || !b.period_start) return true; // balances: instants compare at any length
  return Math.abs(periodDays(a.period_start, a.period_end) - periodDays(b.period_start, b.period_end)) <= CALENDAR_SLACK_DAYS;
}
