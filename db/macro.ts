import type { Db, Sql } from './client.ts';

/**
 * Macro observations: the writer the loader uses. The reads behind the macro routes and the real
 * (CPI-adjusted) series are in tools/macro/queries.ts, under one visibility rule: a row counts on
 * `asOf` when its knowable_from <= asOf, and per observation date the row knowable latest wins.
 */

/** One observation as the loader computed it: value (null = listed without one) and knowable date. */
export interface ObservationInput {
  date: string;
  value: string | null;
  knowable_from: string;
}

/** What the last load of a series held (one macro_series row); the registry route shows it. */
export interface SeriesLoadState {
  series_code: string;
  source: string;
  source_sha256: string;
  observation_count: number;
  first_date: string | null;
  last_date: string | null;
  loaded_at: string;
}

/** One series' state: the loader compares its checksum to skip an unchanged file. */
export async function loadState(sql: Db, code: string): Promise<SeriesLoadState | null> {
  const [row] = await sql<SeriesLoadState[]>`SELECT * FROM macro_series WHERE series_code = ${code}`;
  return row ?? null;
}

/**
 * Writes one series' observations in one transaction and returns how many rows it added. A date
 * seen for the first time is knowable from its computed date; a date whose latest value differs
 * from the file's (a revision, or a gap later filled) gets a new row knowable from the later of
 * that date and `loadDate`. Equal values add nothing, so a re-load is a no-op.
 */
export async function writeSeries(
  sql: Sql,
  series: { code: string; source: string; sha256: string; loadDate: string; loadedAt: string },
  observations: ObservationInput[],
): Promise<number> {
  return sql.begin(async (tx) => {
    const dates = observations.map((o) => o.date);
    const first = dates[0] ?? null;
    const last = dates[dates.length - 1] ?? null;
    await tx`
      INSERT INTO macro_series (series_code, source, source_sha256, observation_count, first_date, last_date, loaded_at)
      VALUES (${series.code}, ${series.source}, ${series.sha256}, ${observations.length}, ${first}, ${last}, ${series.loadedAt})
      ON CONFLICT (series_code) DO UPDATE SET source = EXCLUDED.source, source_sha256 = EXCLUDED.source_sha256,
        observation_count = EXCLUDED.observation_count, first_date = EXCLUDED.first_date, last_date = EXCLUDED.last_date,
        loaded_at = EXCLUDED.loaded_at`;
    if (observations.length === 0) return 0;
    const inserted = await tx`
      WITH incoming AS (
        SELECT * FROM unnest(${dates}::date[], ${observations.map((o) => o.value)}::numeric[], ${observations.map((o) => o.knowable_from)}::date[])
          AS i(observation_date, value, knowable_from)
      ), latest AS (
        SELECT DISTINCT ON (observation_date) observation_date, value FROM macro_observations
        WHERE series_code = ${series.code}
        ORDER BY observation_date, knowable_from DESC
      )
      INSERT INTO macro_observations (series_code, observation_date, knowable_from, value, knowable_basis, loaded_at)
      SELECT ${series.code}, i.observation_date,
        CASE WHEN l.observation_date IS NULL THEN i.knowable_from ELSE greatest(i.knowable_from, ${series.loadDate}::date) END,
        i.value,
        CASE WHEN l.observation_date IS NULL THEN 'release_lag' ELSE 'revision_seen' END,
        ${series.loadedAt}
      FROM incoming i LEFT JOIN latest l USING (observation_date)
      WHERE l.observation_date IS NULL OR l.value IS DISTINCT FROM i.value
      ON CONFLICT (series_code, observation_date, knowable_from) DO UPDATE SET value = EXCLUDED.value, loaded_at = EXCLUDED.loaded_at`;
    return inserted.count;
  });
}