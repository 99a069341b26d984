import { Decimal } from 'decimal.js';
import { dec, wireDecimal } from '../decimal.ts';
import { addDays, yearsBefore } from './observations.ts';
import type { MacroSeries } from './series-registry.ts';

/**
 * One series' entry of the macro context snapshot, from the rows knowable at the as-of date:
 * the latest value dated on or before the target date, and its change over the prior observation
 * and over the observation a year earlier. Nothing is filled in: a missing neighbour makes the
 * change null with a reason.
 *
 * "Prior" is the preceding period for monthly and quarterly series (a gap there is a missing
 * observation, e.g. CPI 2025-10); for daily series it is the preceding day with a value, since
 * market holidays are listed without one. "A year earlier" is the same period a year before for
 * monthly and quarterly series; for daily series the last value within a week before that date.
 */
const PERCENT_SCALE = 6;
const DAILY_WINDOW_DAYS = 7;

export interface ContextRow {
  observation_date: string;
  value: string | null;
  knowable_from: string;
}

export type ContextReason =
  | 'NO_OBSERVATION'
  | 'PRIOR_OBSERVATION_MISSING'
  | 'YEAR_EARLIER_OBSERVATION_MISSING'
  | 'NOT_A_LEVEL_SERIES'
  | 'BASE_IS_ZERO';

export interface Neighbour {
  observation_date: string;
  value: string | null;
}

export interface ContextEntry {
  observation_date: string | null;
  value: string | null;
  knowable_from: string | null;
  /** newer dates up to the target date that the publisher lists with no value */
  skipped_missing_dates: string[];
  prior: Neighbour | null;
  change_over_prior: string | null;
  percent_change_over_prior: string | null;
  year_earlier: Neighbour | null;
  change_over_year: string | null;
  percent_change_over_year: string | null;
  unavailable: { field: string; reason: ContextReason }[];
}

/**
 * `recent`: rows dated on or before the target date, newest first; `yearAgo`: rows dated on or
 * before yearsBefore(latest value's date, 1), newest first (both as knowable at as-of).
 */
export function contextEntry(series: Pick<MacroSeries, 'frequency' | 'change_kind'>, recent: ContextRow[], yearAgo: ContextRow[]): ContextEntry {
  const idx = recent.findIndex((r) => r.value !== null);
  const unavailable: ContextEntry['unavailable'] = [];
  if (idx === -1) {
    return {
      observation_date: null, value: null, knowable_from: null, skipped_missing_dates: recent.map((r) => r.observation_date).reverse(),
      prior: null, change_over_prior: null, percent_change_over_prior: null, year_earlier: null, change_over_year: null, percent_change_over_year: null,
      unavailable: [{ field: 'value', reason: 'NO_OBSERVATION' }],
    };
  }
  const latest = recent[idx]!;
  const daily = series.frequency === 'daily';
  const priorRow = daily ? recent.slice(idx + 1).find((r) => r.value !== null) : recent[idx + 1];
  const prior = priorRow ? { observation_date: priorRow.observation_date, value: priorRow.value } : null;

  const target = yearsBefore(latest.observation_date, 1);
  const candidates = yearAgo;
  const yearRow = daily
    ? candidates.find((r) => r.value !== null && r.observation_date >= addDays(target, -DAILY_WINDOW_DAYS))
    : candidates.find((r) => r.observation_date === target);
  const yearEarlier = yearRow ? { observation_date: yearRow.observation_date, value: yearRow.value } : null;

  const over = (base: Neighbour | null, field: string, missing: ContextReason) => {
    if (!base || base.value === null) {
      unavailable.push({ field, reason: missing });
      return { change: null, percent: null };
    }
    const change = wireDecimal(dec(latest.value!).minus(base.value).toFixed());
    let percent: string | null = null;
    if (series.change_kind !== 'level') unavailable.push({ field: `percent_${field}`, reason: 'NOT_A_LEVEL_SERIES' });
    else if (dec(base.value).isZero()) unavailable.push({ field: `percent_${field}`, reason: 'BASE_IS_ZERO' });
    else percent = dec(latest.value!).dividedBy(base.value).minus(1).times(100).toFixed(PERCENT_SCALE, Decimal.ROUND_HALF_EVEN);
    return { change, percent };
  };
  const p = over(prior, 'change_over_prior', 'PRIOR_OBSERVATION_MISSING');
  const y = over(yearEarlier, 'change_over_year', 'YEAR_EARLIER_OBSERVATION_MISSING');
  return {
    observation_date: latest.observation_date,
    value: wireDecimal(latest.value!),
    knowable_from: latest.knowable_from,
    skipped_missing_dates: recent.slice(0, idx).map((r) => r.observation_date).reverse(),
    prior: prior && { observation_date: prior.observation_date, value: prior.value === null ? null : wireDecimal(prior.value) },
    change_over_prior: p.change,
    percent_change_over_prior: p.percent,
    year_earlier: yearEarlier && { observation_date: yearEarlier.observation_date, value: yearEarlier.value === null ? null : wireDecimal(yearEarlier.value) },
    change_over_year: y.change,
    percent_change_over_year: y.percent,
    unavailable,
  };
}

