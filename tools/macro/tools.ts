import { z } from 'zod';
import { loadStates, observationsBetween, observationsUpTo } from './queries.ts';
import { wireDecimalOrNull } from '../../domain/decimal.ts';
import { contextEntry } from '../../domain/macro/context.ts';
import { yearsBefore } from '../../domain/macro/observations.ts';
import { MACRO_SERIES, MACRO_SERIES_CODES, macroSeries, type MacroSeries } from '../../domain/macro/series-registry.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool, type ToolDefinition } from '../../api/define-tool.ts';
import { dataEnvelope, DecimalString, IsoDate, Timestamp } from '../../api/schemas.ts';
import { REAL_SERIES_TOOLS } from './real-series.ts';

/**
 * Macro series: the registry of approved series, their observations and a snapshot of all of them
 * around a date. Point in time by release lag (the files carry no vintages): an observation is
 * seen by an as-of date on or after its knowable_from (period end + the series' lag).
 */

/** Most observations one request returns (about twenty years of a daily series). */
const MAX_OBSERVATIONS = 5000;
/** rows read back from a date to find the latest value, its predecessor and newer gaps */
const CONTEXT_WINDOW = 12;

const SeriesCodeParam = z
  .string()
  .min(1)
  .max(20)
  .transform((s) => s.trim().toUpperCase())
  .describe(`registered series code, e.g. CPIAUCSL (list: ${MACRO_SERIES_CODES.join(', ')})`);

const MacroAsOf = IsoDate.describe('point in time (YYYY-MM-DD): only observations knowable on that date (period end + release lag) are seen');

const SeriesOut = z.object({
  series_code: z.string(),
  title: z.string(),
  units: z.string(),
  frequency: z.enum(['daily', 'monthly', 'quarterly']),
  seasonal_adjustment: z.string(),
  source: z.string(),
  release_lag_days: z.number().int().describe('calendar days after the period end from which a value counts as knowable'),
  release_lag_basis: z.string().describe('the publisher schedule the lag comes from'),
  is_cpi: z.boolean().describe('a consumer price index: accepted as cpi_series by the real (CPI-adjusted) company series'),
  point_in_time: z.literal('release_lag').describe('release_lag: no vintages in the source; revisions cannot be replayed'),
  observation_count: z.number().int().describe('observations in the last load (dates listed with no value included); 0 before the first load'),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
  loaded_at: Timestamp.nullable(),
});

function registryEntry(s: MacroSeries, state: { observation_count: number; first_date: string | null; last_date: string | null; loaded_at: string } | undefined) {
  return {
    series_code: s.series_code,
    title: s.title,
    units: s.units,
    frequency: s.frequency,
    seasonal_adjustment: s.seasonal_adjustment,
    source: s.source,
    release_lag_days: s.release_lag_days,
    release_lag_basis: s.release_lag_basis,
    is_cpi: s.is_cpi,
    point_in_time: 'release_lag' as const,
    observation_count: state?.observation_count ?? 0,
    first_date: state?.first_date ?? null,
    last_date: state?.last_date ?? null,
    loaded_at: state?.loaded_at ?? null,
  };
}

function registered(code: string): MacroSeries {
  const s = macroSeries(code);
  if (!s) throw new ServiceError('NOT_FOUND', `No registered macro series ${JSON.stringify(code)}; registered: ${MACRO_SERIES_CODES.join(', ')}.`, { series_code: code, registered: MACRO_SERIES_CODES });
  return s;
}

export const macroSeriesList = defineTool({
  name: 'macro.series',
  title: 'Registry of approved macro series',
  description:
    'Every approved macro series (CPI, core CPI, core PCE, GDP, real GDP, fed funds, 2y/10y Treasury and spread, unemployment, payrolls, industrial production, recession flag, M2) ' +
    'with units, frequency, seasonal adjustment, source, the release lag that dates when a value became knowable, and what the last load held. Only these series are served.',
  http: { method: 'GET', path: '/v1/fundamentals/macro/series' },
  tool: false,
  plan: 'free',
  input: z.object({}),
  output: dataEnvelope(z.array(SeriesOut)),
  handler: async ({ services }) => {
    const states = new Map((await loadStates(services.sql)).map((s) => [s.series_code, s]));
    return { data: MACRO_SERIES.map((s) => registryEntry(s, states.get(s.series_code))) };
  },
});

const ObservationOut = z.object({
  date: z.string().describe('observation date (first day of the period, as the publisher dates it)'),
  value: DecimalString.nullable().describe('exact value as published; null when the publisher lists the date with no value (never interpolated)'),
  knowable_from: z.string().describe('first date an as-of read sees this value'),
});

export const macroObservations = defineTool({
  name: 'macro.observations',
  title: 'Observations of one macro series',
  description:
    'Observations of one registered macro series dated from_date..to_date (both required, inclusive) as exact decimal strings. ' +
    'A date the publisher lists without a value is served with value null and named in missing_dates (e.g. CPIAUCSL 2025-10-01), never filled in. ' +
    `as_of_date (optional) shows only what was knowable that day (period end + release lag). At most ${MAX_OBSERVATIONS} observations; an unregistered code is 404 listing the codes.`,
  http: { method: 'GET', path: '/v1/fundamentals/macro/series/{series_code}' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    series_code: SeriesCodeParam,
    from_date: IsoDate.describe('first observation date (YYYY-MM-DD), required'),
    to_date: IsoDate.describe('last observation date (YYYY-MM-DD), required'),
    as_of_date: MacroAsOf.optional(),
  }),
  output: dataEnvelope(
    z.object({
      series_code: z.string(),
      title: z.string(),
      units: z.string(),
      frequency: z.enum(['daily', 'monthly', 'quarterly']),
      from_date: z.string(),
      to_date: z.string(),
      as_of_date: z.string().nullable().describe('the as-of date applied; null: the latest values loaded'),
      observations: z.array(ObservationOut).describe('oldest first'),
      missing_dates: z.array(z.string()).describe('dates in the range listed by the publisher with no value'),
    }),
  ),
  handler: async ({ services }, input) => {
    const s = registered(input.series_code);
    if (input.from_date > input.to_date) {
      throw new ServiceError('VALIDATION_ERROR', `from_date (${input.from_date}) is after to_date (${input.to_date}).`, { from_date: input.from_date, to_date: input.to_date });
    }
    const rows = await observationsBetween(services.sql, s.series_code, input.from_date, input.to_date, input.as_of_date ?? null);
    if (rows.length > MAX_OBSERVATIONS) {
      throw new ServiceError('VALIDATION_ERROR', `${rows.length} observations fall in ${input.from_date}..${input.to_date}; at most ${MAX_OBSERVATIONS} per request: narrow the range.`, {
        observations: rows.length,
        limit: MAX_OBSERVATIONS,
      });
    }
    return {
      data: {
        series_code: s.series_code,
        title: s.title,
        units: s.units,
        frequency: s.frequency,
        from_date: input.from_date,
        to_date: input.to_date,
        as_of_date: input.as_of_date ?? null,
        observations: rows.map((r) => ({ date: r.observation_date, value: wireDecimalOrNull(r.value), knowable_from: r.knowable_from })),
        missing_dates: rows.filter((r) => r.value === null).map((r) => r.observation_date),
      },
    };
  },
});

const Neighbour = z.object({ observation_date: z.string(), value: DecimalString.nullable() });

const ContextOut = z.object({
  series_code: z.string(),
  title: z.string(),
  units: z.string(),
  frequency: z.enum(['daily', 'monthly', 'quarterly']),
  observation_date: z.string().nullable().describe('date of the latest value on or before target_date knowable on as_of_date; null when none'),
  value: DecimalString.nullable(),
  knowable_from: z.string().nullable(),
  skipped_missing_dates: z.array(z.string()).describe('newer dates (up to target_date) the publisher lists with no value; the value above is older than them'),
  prior: Neighbour.nullable().describe('preceding period (monthly, quarterly) or preceding day with a value (daily)'),
  change_over_prior: DecimalString.nullable().describe('value minus prior, exact; null when the prior is missing'),
  percent_change_over_prior: DecimalString.nullable().describe('percent, 6 fraction digits (half to even); level series only'),
  year_earlier: Neighbour.nullable().describe('the same period a year before (daily: last value within a week before that date)'),
  change_over_year: DecimalString.nullable(),
  percent_change_over_year: DecimalString.nullable(),
  unavailable: z
    .array(z.object({ field: z.string(), reason: z.enum(['NO_OBSERVATION', 'PRIOR_OBSERVATION_MISSING', 'YEAR_EARLIER_OBSERVATION_MISSING', 'NOT_A_LEVEL_SERIES', 'BASE_IS_ZERO']) }))
    .describe('why a field is null'),
});

export const macroContext = defineTool({
  name: 'macro.context',
  title: 'Macro snapshot around a date',
  description:
    'For every approved macro series: the latest value dated on or before target_date as it was knowable then (or on as_of_date when given), with its date, ' +
    'its change over the prior observation and over the observation a year earlier (absolute and, for levels, percent). A missing neighbour gives null with a reason, never an estimate.',
  http: { method: 'GET', path: '/v1/fundamentals/macro/context/{target_date}' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    target_date: IsoDate.describe('the date to describe (YYYY-MM-DD)'),
    as_of_date: MacroAsOf.optional().describe('knowledge date (YYYY-MM-DD); default target_date: what was knowable on the day'),
  }),
  output: dataEnvelope(z.object({ target_date: z.string(), as_of_date: z.string(), series: z.array(ContextOut) })),
  handler: async ({ services }, input) => {
    const asOf = input.as_of_date ?? input.target_date;
    const series = [];
    for (const s of MACRO_SERIES) {
      const recent = await observationsUpTo(services.sql, s.series_code, input.target_date, asOf, CONTEXT_WINDOW);
      const latest = recent.find((r) => r.value !== null);
      const yearAgoRows = latest ? await observationsUpTo(services.sql, s.series_code, yearsBefore(latest.observation_date, 1), asOf, CONTEXT_WINDOW) : [];
      const entry = contextEntry(s, recent, yearAgoRows);
      series.push({ series_code: s.series_code, title: s.title, units: s.units, frequency: s.frequency, ...entry });
    }
    return { data: { target_date: input.target_date, as_of_date: asOf, series } };
  },
});

export const MACRO_TOOLS: ToolDefinition[] = [macroSeriesList, macroObservations, macroContext, ...REAL_SERIES_TOOLS];
