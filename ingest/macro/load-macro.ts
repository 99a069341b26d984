import { createHash } from 'node:crypto';
import type { Sql } from '../../db/client.ts';
import { loadState, writeSeries } from '../../db/macro.ts';
import { knowableFrom, parseMacroCsv } from '../../domain/macro/observations.ts';
import { MACRO_SERIES } from '../../domain/macro/series-registry.ts';
import { openMacroSource, type MacroSource } from './source.ts';

export interface MacroSeriesLoad {
  series_code: string;
  status: 'loaded' | 'unchanged' | 'absent';
  observations: number;
  missing_values: number;
  rows_added: number;
}

export interface MacroLoadSummary {
  source: string;
  series: MacroSeriesLoad[];
  rows_added: number;
}

/**
 * Loads every registered series from the source, idempotently: a file whose checksum matches the
 * last load is skipped, and within a changed file only new dates and changed values add rows
 * (db/macro.ts writeSeries). Run at start-up and by `npm run fds -- macro load`. A registered
 * series the source lacks is reported as absent, not an error; a malformed file is an error.
 */
export async function loadMacro(
  sql: Sql,
  source: MacroSource | string,
  opts: { now?: () => Date; log?: (m: string) => void } = {},
): Promise<MacroLoadSummary> {
  const src = typeof source === 'string' ? await openMacroSource(source) : source;
  const now = opts.now ?? (() => new Date());
  const out: MacroSeriesLoad[] = [];
  for (const series of MACRO_SERIES) {
    const file = await src.readSeries(series.series_code);
    if (!file) {
      opts.log?.(`macro: ${series.series_code} is not in ${src.name}`);
      out.push({ series_code: series.series_code, status: 'absent', observations: 0, missing_values: 0, rows_added: 0 });
      continue;
    }
    const observations = parseMacroCsv(file.text, file.origin);
    const missing = observations.filter((o) => o.value === null).length;
    const sha256 = createHash('sha256').update(file.text).digest('hex');
    const state = await loadState(sql, series.series_code);
    if (state && state.source_sha256 === sha256) {
      out.push({ series_code: series.series_code, status: 'unchanged', observations: observations.length, missing_values: missing, rows_added: 0 });
      continue;
    }
    const at = now();
    const added = await writeSeries(
      sql,
      { code: series.series_code, source: src.name, sha256, loadDate: at.toISOString().slice(0, 10), loadedAt: at.toISOString() },
      observations.map((o) => ({ date: o.date, value: o.value, knowable_from: knowableFrom(o.date, series) })),
    );
    out.push({ series_code: series.series_code, status: 'loaded', observations: observations.length, missing_values: missing, rows_added: added });
  }
  return { source: src.name, series: out, rows_added: out.reduce((n, s) => n + s.rows_added, 0) };
}
