import { Decimal } from 'decimal.js';
import { dec } from '../decimal.ts';
import { monthsSpanned } from './observations.ts';

/**
 * CPI adjustment of company figures, exact: deflator of a period = mean of the CPI's monthly
 * observations for the months it spans (start month through end month; a balance, which has no
 * start, takes the month of its date); base = mean over the twelve months of the base year;
 * real = nominal x base / deflator. Means and the quotient are carried at 60 significant digits
 * and only the served figures are rounded (half to even): real values to REAL_SCALE fraction
 * digits, deflator and base to INDEX_SCALE. A month without a value makes the mean undefined: it
 * is reported, never skipped or interpolated.
 */
export const REAL_SCALE = 6;
export const INDEX_SCALE = 12;

export type MonthlyValues = ReadonlyMap<string, string | null>;

export interface CpiMean {
  months: string[];
  /** null when a month has no value */
  mean: Decimal | null;
  /** months with no observation or a published gap, in order */
  missing_months: string[];
}

export function cpiMean(months: string[], cpi: MonthlyValues): CpiMean {
  const missing = months.filter((m) => {
    const v = cpi.get(m);
    return v === undefined || v === null;
  });
  if (missing.length > 0 || months.length === 0) return { months, mean: null, missing_months: missing };
  const sum = months.reduce((acc, m) => acc.plus(dec(cpi.get(m)!)), dec('0'));
  return { months, mean: sum.dividedBy(months.length), missing_months: [] };
}

/** The months whose CPI deflates a period: start month through end month; a balance: its month. */
export function periodMonths(periodStart: string | null, periodEnd: string): string[] {
  return monthsSpanned(periodStart ?? periodEnd, periodEnd);
}

export function baseYearMonths(year: number): string[] {
  const y = String(year).padStart(4, '0');
  return monthsSpanned(`${y}-01-01`, `${y}-12-31`);
}

/** nominal x base / deflator, rounded half to even to REAL_SCALE fraction digits. */
export function realValue(nominal: string, base: Decimal, deflator: Decimal): string {
  return dec(nominal).times(base).dividedBy(deflator).toFixed(REAL_SCALE, Decimal.ROUND_HALF_EVEN);
}

export function indexText(value: Decimal): string {
  return value.toFixed(INDEX_SCALE, Decimal.ROUND_HALF_EVEN);
}
