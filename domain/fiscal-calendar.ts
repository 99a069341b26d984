import { addDays, addYears, daysBetween, yearOf } from './dates.ts';

/**
 * A filer's fiscal calendar: where its years end and what it calls them. Built from the filer's
 * own annual periods (52/53-week years end on a weekday near a fixed date, so ends are matched
 * within a tolerance) and the fiscal-year labels of its own reports, because no calendar rule
 * gives everyone's label: Walmart calls the year ended 2025-01-31 fiscal 2025, Home Depot calls
 * the year ended 2025-02-02 fiscal 2024.
 */

/** how far a period end may sit from a year end and still be that year end (52/53-week drift) */
const END_TOLERANCE_DAYS = 20;
const QUARTER_DAYS = 365.25 / 4;

export type DurationClass = 'quarter' | 'half' | 'nine_months' | 'year';

/** Length class of a duration fact; null for lengths no statement uses (a month, 18 months...). */
export function durationClass(start: string, end: string): DurationClass | null {
  const d = daysBetween(start, end);
  // 16-week first quarters (112 days) and 36-week nine months (Costco, 251 days) included
  if (d >= 75 && d <= 120) return 'quarter';
  if (d >= 165 && d <= 200) return 'half';
  if (d >= 245 && d <= 290) return 'nine_months';
  if (d >= 340 && d <= 380) return 'year';
  return null;
}

/** quarters a year-to-date duration covers */
export const YTD_QUARTERS: Record<DurationClass, number> = { quarter: 1, half: 2, nine_months: 3, year: 4 };

export interface FiscalPosition {
  fiscal_year: number;
  /** 1..3 for quarter ends, 4 for the year end */
  quarter: 1 | 2 | 3 | 4;
  /** first day of the fiscal year */
  year_start: string;
  /** last day of the fiscal year (known or projected) */
  year_end: string;
}

/** A label a filer gave a period: the fiscal year focus of the report whose current period ends there. */
export interface LabelVote {
  period_end: string;
  fiscal_year: number;
  /** annual reports outvote quarterly ones, whose focus tags are more often wrong */
  weight: number;
}

export interface CalendarInput {
  /** annual periods the filer reported (start, end), one entry per fact, comparatives included */
  annual_periods: { start: string; end: string }[];
  labels: LabelVote[];
  /** MMDD from submissions, used only when the filer reported no annual period at all */
  fiscal_year_end: string | null;
}

export class FiscalCalendar {
  /** known year ends, ascending, one per fiscal year */
  readonly yearEnds: string[];
  private readonly labelByEnd = new Map<string, number>();
  private readonly defaultOffset: number;
  private readonly offsets: { end: string; offset: number }[];

  constructor(input: CalendarInput) {
    this.yearEnds = knownYearEnds(input);
    const votes = new Map<string, Map<number, number>>();
    for (const v of input.labels) {
      const end = this.yearEndFor(v.period_end);
      const tally = votes.get(end) ?? new Map<number, number>();
      tally.set(v.fiscal_year, (tally.get(v.fiscal_year) ?? 0) + v.weight);
      votes.set(end, tally);
    }
    const voted = new Map<string, number>();
    for (const [end, tally] of votes) {
      voted.set(end, [...tally.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0]);
    }
    // Labels run one per fiscal year. Walking back from the latest year, a year whose vote would
    // repeat or skip a label takes the sequence's label instead: older reports sometimes tagged
    // their fiscal year focus off by one (Walmart's 10-K for the year to 2013-01-31 says 2012, its
    // text and every report since 2015 say fiscal 2013), and two years sharing a label would merge
    // two different periods into one statement's versions.
    const ends = [...new Set([...this.yearEnds, ...voted.keys()])].sort();
    const offsets: { end: string; offset: number }[] = [];
    let next: { end: string; label: number } | null = null;
    for (let i = ends.length - 1; i >= 0; i--) {
      const end = ends[i]!;
      const vote = voted.get(end);
      let label: number | undefined;
      if (next) {
        const apart = Math.max(1, Math.round(daysBetween(end, next.end) / 365.25));
        label = next.label - apart;
      } else {
        label = vote;
      }
      if (label === undefined) continue;
      this.labelByEnd.set(end, label);
      offsets.push({ end, offset: label - yearOf(end) });
      next = { end, label };
    }
    this.offsets = offsets.sort((a, b) => a.end.localeCompare(b.end));
    this.defaultOffset = mostCommon([...voted.entries()].map(([end, label]) => label - yearOf(end))) ?? 0;
  }

  /** The year end of the fiscal year a period ending on `end` falls in (known or projected). */
  yearEndFor(end: string): string {
    const ends = this.yearEnds;
    if (ends.length === 0) return end;
    const first = ends[0]!;
    if (daysBetween(first, end) <= END_TOLERANCE_DAYS) {
      let f = first;
      while (daysBetween(addYears(f, -1), end) <= END_TOLERANCE_DAYS) f = addYears(f, -1);
      return f;
    }
    for (let i = 1; i < ends.length; i++) {
      const f = ends[i]!;
      if (daysBetween(f, end) <= END_TOLERANCE_DAYS) {
        // a gap of missing years between two known ends is filled by projection
        let g = f;
        while (daysBetween(ends[i - 1]!, addYears(g, -1)) > END_TOLERANCE_DAYS && daysBetween(addYears(g, -1), end) <= END_TOLERANCE_DAYS) {
          g = addYears(g, -1);
        }
        return g;
      }
    }
    let f = ends[ends.length - 1]!;
    while (daysBetween(f, end) > END_TOLERANCE_DAYS) f = addYears(f, 1);
    return f;
  }

  /**
   * Which fiscal year and quarter a period ending on `end` belongs to. The calendar never changes
   * once built, so each end is worked out once (the normalizer asks for the same few ends again
   * for every filing); the position is frozen because it is shared.
   */
  locate(end: string): FiscalPosition {
    let pos = this.located.get(end);
    if (pos === undefined) this.located.set(end, (pos = Object.freeze(this.position(end))));
    return pos;
  }

  private readonly located = new Map<string, FiscalPosition>();

  private position(end: string): FiscalPosition {
    const yearEnd = this.yearEndFor(end);
    const previousEnd = this.previousYearEnd(yearEnd);
    const year_start = addDays(previousEnd, 1);
    const sinceStart = daysBetween(previousEnd, end);
    let quarter = Math.round(sinceStart / QUARTER_DAYS);
    if (Math.abs(daysBetween(yearEnd, end)) <= END_TOLERANCE_DAYS) quarter = 4;
    quarter = Math.min(4, Math.max(1, quarter));
    return { fiscal_year: this.labelOf(yearEnd), quarter: quarter as FiscalPosition['quarter'], year_start, year_end: yearEnd };
  }

  /** The filer's own label for the year ending `yearEnd`; else the filer's offset from the nearest labelled year. */
  labelOf(yearEnd: string): number {
    const own = this.labelByEnd.get(yearEnd);
    if (own !== undefined) return own;
    let nearest: { end: string; offset: number } | undefined;
    for (const o of this.offsets) {
      if (!nearest || Math.abs(daysBetween(o.end, yearEnd)) < Math.abs(daysBetween(nearest.end, yearEnd))) nearest = o;
    }
    return yearOf(yearEnd) + (nearest?.offset ?? this.defaultOffset);
  }

  private previousYearEnd(yearEnd: string): string {
    const i = this.yearEnds.indexOf(yearEnd);
    if (i > 0 && daysBetween(this.yearEnds[i - 1]!, yearEnd) <= 366 + END_TOLERANCE_DAYS) return this.yearEnds[i - 1]!;
    return addYears(yearEnd, -1);
  }
}

function knownYearEnds(input: CalendarInput): string[] {
  const counts = new Map<string, number>();
  for (const p of input.annual_periods) counts.set(p.end, (counts.get(p.end) ?? 0) + 1);
  const byEnd = [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  // collapse ends closer than a tolerance (the same year told two ways) to the most reported one
  const ends: { end: string; n: number }[] = [];
  for (const [end, n] of byEnd) {
    const last = ends[ends.length - 1];
    if (last && daysBetween(last.end, end) <= END_TOLERANCE_DAYS) {
      if (n > last.n) ends[ends.length - 1] = { end, n };
    } else {
      ends.push({ end, n });
    }
  }
  // a year-long period ending off the filer's cycle (a calendar-year pension or subsidiary figure
  // in a January filer's 10-K) is not a year end: drop an end that a far better reported one
  // sits within ten months of
  const kept = ends.filter((e) => !ends.some((o) => o !== e && Math.abs(daysBetween(o.end, e.end)) < 300 && o.n >= 3 * e.n));
  if (kept.length > 0) return kept.map((e) => e.end);
  const mmdd = input.fiscal_year_end ?? '1231';
  const anchor = input.labels[0]?.period_end;
  if (!anchor) return [];
  const y = yearOf(anchor);
  const candidate = `${y}-${mmdd.slice(0, 2)}-${mmdd.slice(2)}`;
  return [Number.isNaN(Date.parse(candidate)) ? `${y}-12-31` : candidate];
}

function mostCommon(values: number[]): number | undefined {
  const tally = new Map<number, number>();
  for (const v of values) tally.set(v, (tally.get(v) ?? 0) + 1);
  return [...tally.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
