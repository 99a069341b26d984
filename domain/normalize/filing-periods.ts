/**
 * Which periods a filing presents: its facts grouped by their own dates (never by the filing's
 * fy/fp tags) into balance-sheet instants, three-month quarters and year-to-date periods.
 */
import { daysBetween } from '../dates.ts';
import { durationClass, YTD_QUARTERS, type FiscalCalendar, type FiscalPosition } from '../fiscal-calendar.ts';
import { parsePeriodKey, type Candidate, type PeriodCandidates } from './candidates.ts';
import { periodName } from './statement-presentation.ts';

const ANNUAL_FORMS = /^(10-K|10-KT|20-F|40-F)(\/A)?$/;
const DOMESTIC_ANNUAL_FORMS = /^(10-K|10-KT)(\/A)?$/;
/** a balance sheet is presented only where the filing tags one of its totals at that instant */
const BALANCE_ANCHORS = ['TOTAL_ASSETS', 'LIABILITIES_AND_EQUITY', 'TOTAL_LIABILITIES', 'TOTAL_CURRENT_ASSETS'];
/** how far a year-to-date period may start from the fiscal-year start (52/53-week drift) */
export const START_TOLERANCE_DAYS = 20;

/** an annual report, domestic or foreign, or its amendment */
export function isAnnualForm(form: string): boolean {
  return ANNUAL_FORMS.test(form);
}

/** The candidates of one period of a filing; a balance sheet's instant has no start. */
export interface Period {
  pos: FiscalPosition;
  start: string | null;
  end: string;
  metrics: Map<string, Candidate[]>;
}

/** a period over time (a quarter or a year-to-date): it has a start */
export interface FlowPeriod extends Period {
  start: string;
}

/** the candidates of a quarter the filing tells only year-to-date: present() of none is an empty presentation */
export const NO_METRICS: Map<string, Candidate[]> = new Map();

/** The periods one filing presents, by `fiscal_year|quarter` (balances by `fiscal_year|period`), the largest telling of each. */
export interface FilingPeriods {
  balances: Map<string, Period>;
  /** three-month periods */
  discrete: Map<string, FlowPeriod>;
  /** periods from the fiscal-year start (full years under quarter 4) */
  ytd: Map<string, FlowPeriod>;
}

/** The periods the candidates of a filing of form `form` fall in. */
export function filingPeriods(candidates: PeriodCandidates, calendar: FiscalCalendar, form: string): FilingPeriods {
  const annual = isAnnualForm(form);
  // a 10-K's quarters are those of a filer with quarterly reports; a 20-F/40-F filer has none to restate
  const quarterly = DOMESTIC_ANNUAL_FORMS.test(form);
  // balances keep the FlowPeriod shape (start null) so that keepLargest, already hot, compares them
  const balances = new Map<string, Period>();
  const discrete = new Map<string, FlowPeriod>();
  const ytd = new Map<string, FlowPeriod>();

  for (const [key, metrics] of candidates) {
    const { start, end } = parsePeriodKey(key);
    const pos = calendar.locate(end);
    const fp = periodName(pos.quarter);
    if (start === null) {
      if (annual && pos.quarter !== 4) continue;
      if (!hasAny(metrics, BALANCE_ANCHORS)) continue;
      keepLargest(balances, `${pos.fiscal_year}|${fp}`, { pos, start: null, end, metrics });
      continue;
    }
    const cls = durationClass(start, end);
    if (!cls) continue;
    const fromYearStart = Math.abs(daysBetween(pos.year_start, start)) <= START_TOLERANCE_DAYS;
    if (annual) {
      // an annual report presents its full years and every quarter it tells in three-month facts
      // (selected quarterly data, the quarterly table of a restatement, a Q4 of its own), and the
      // six and nine months a restatement note tells: the year-to-date on the restated basis that
      // its quarters are derived from (Kraft Heinz's 10-K of 2019 re-told its 2017 nine months)
      if (cls === 'year' && pos.quarter === 4) keepLargest(ytd, `${pos.fiscal_year}|4`, { pos, start, end, metrics });
      else if (cls === 'quarter' && quarterly) keepLargest(discrete, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
      else if (quarterly && fromYearStart && (cls === 'half' || cls === 'nine_months') && YTD_QUARTERS[cls] === pos.quarter) {
        keepLargest(ytd, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
      }
      continue;
    }
    if (cls === 'year') continue;
    if (cls === 'quarter' && pos.quarter <= 3) keepLargest(discrete, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
    if (fromYearStart && YTD_QUARTERS[cls] === pos.quarter && pos.quarter <= 3) {
      keepLargest(ytd, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
    }
  }

  if (!annual && ytd.size > 1) dropMisdatedYearToDate(ytd);
  // an annual report telling a year's six or nine months tells its first quarter on the same basis:
  // that first quarter is the year-to-date the second is derived from
  if (annual) {
    for (const [key, p] of discrete) {
      if (p.pos.quarter === 1 && (ytd.has(`${p.pos.fiscal_year}|2`) || ytd.has(`${p.pos.fiscal_year}|3`)) && Math.abs(daysBetween(p.pos.year_start, p.start)) <= START_TOLERANCE_DAYS) ytd.set(key, p);
    }
  }
  return { balances, discrete, ytd };
}

/**
 * A quarterly report telling a year-to-date with the values of a longer year-to-date of the same
 * year, line for line (SunEdison's 10-Q of 2012-11-09 tagged its nine months of 2011 also as six
 * months, 38 lines alike): no quarter adds nothing to every line, so one of the two is mis-dated and
 * the filing does not say which. Neither is read; what earlier filings told of both stays the
 * knowledge quarters are derived from. At least three lines of a non-zero value must agree, and none
 * may differ: one-off items (a gain in the first quarter only) legitimately repeat a few lines.
 */
function dropMisdatedYearToDate(ytd: Map<string, FlowPeriod>): void {
  for (const [key, shorter] of ytd) {
    for (let q = shorter.pos.quarter + 1; q <= 3; q++) {
      const longerKey = `${shorter.pos.fiscal_year}|${q}`;
      const longer = ytd.get(longerKey);
      if (longer === undefined || !sameLineForLine(shorter.metrics, longer.metrics)) continue;
      ytd.delete(key);
      ytd.delete(longerKey);
      break;
    }
  }
}

/** every metric both periods tell has the same value in both, and at least three of them are not zero */
function sameLineForLine(a: ReadonlyMap<string, Candidate[]>, b: ReadonlyMap<string, Candidate[]>): boolean {
  let nonZero = 0;
  for (const [metric, list] of a) {
    const other = b.get(metric);
    if (other === undefined) continue;
    const value = list[0]!.value;
    if (value !== other[0]!.value) return false;
    if (!isZero(value)) nonZero++;
  }
  return nonZero >= 3;
}

function isZero(value: string): boolean {
  return /^-?0*(\.0*)?$/.test(value);
}

function hasAny(metrics: ReadonlyMap<string, unknown>, names: readonly string[]): boolean {
  for (const name of names) if (metrics.has(name)) return true;
  return false;
}

/**
 * Stands for "nothing kept yet" so keepLargest reads a size on every call: a first duplicate
 * period, late in a run, otherwise met an unread load and recompiled presentFiling.
 */
const NOTHING_KEPT: Period = {
  pos: Object.freeze({ fiscal_year: 0, quarter: 4, year_start: '', year_end: '' }),
  start: null,
  end: '',
  metrics: NO_METRICS,
};

function keepLargest<P extends Period>(map: Map<string, P>, id: string, p: P): void {
  const seen = map.get(id) ?? NOTHING_KEPT;
  const larger = p.metrics.size > seen.metrics.size;
  if (seen === NOTHING_KEPT || larger) map.set(id, p);
}
