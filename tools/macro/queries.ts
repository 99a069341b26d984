import type { Db } from '../../db/client.ts';
import type { SeriesLoadState } from '../../db/macro.ts';

/** Every loaded series' state, for the registry route. */
export async function loadStates(sql: Db): Promise<SeriesLoadState[]> {
  return sql<SeriesLoadState[]>`SELECT * FROM macro_series ORDER BY series_code`;
}

/** An observation as read: the row knowable latest (on the as-of date) for its date. */
export interface ObservationRow {
  observation_date: string;
  value: string | null;
  knowable_from: string;
  knowable_basis: string;
}

/**
 * The latest row per date knowable on `asOf` (every row when null), among dates in `range`. The
 * date bounds sit inside DISTINCT ON: a date's rows never depend on other dates, and the primary
 * key (series, date, knowable_from) then serves the read.
 */
function visible(sql: Db, code: string, asOf: string | null, range: { from?: string; to: string }) {
  return sql`
    SELECT DISTINCT ON (observation_date) observation_date, value::text AS value, knowable_from, knowable_basis
    FROM macro_observations
    WHERE series_code = ${code} AND observation_date <= ${range.to}
      ${range.from ? sql`AND observation_date >= ${range.from}` : sql``}
      ${asOf ? sql`AND knowable_from <= ${asOf}` : sql``}
    ORDER BY observation_date, knowable_from DESC`;
}

/** Observations dated from..to (inclusive) as knowable on `asOf`, oldest first. */
export async function observationsBetween(sql: Db, code: string, from: string, to: string, asOf: string | null): Promise<ObservationRow[]> {
  return sql<ObservationRow[]>`
    SELECT * FROM (${visible(sql, code, asOf, { from, to })}) v
    ORDER BY v.observation_date`;
}

/**
 * The newest observations dated on or before `date` as knowable on `asOf`, newest first: enough
 * for the context snapshot to find the latest value, its predecessor and any newer gaps.
 */
export async function observationsUpTo(sql: Db, code: string, date: string, asOf: string, limit: number): Promise<ObservationRow[]> {
  return sql<ObservationRow[]>`
    SELECT * FROM (${visible(sql, code, asOf, { to: date })}) v
    ORDER BY v.observation_date DESC
    LIMIT ${limit}`;
}
