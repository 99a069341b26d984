/**
 * Reads behind the panel, bundle, view and derived-metric time series: the latest version of each
 * statement period, with its packed figures cut down in SQL to the metrics asked for (value and
 * whether it was derived), so a request is one query however many companies it spans.
 */
import type { SeriesFigure, StatementRow } from '../../domain/series-periods.ts';
import type { Db } from '../../db/client.ts';
import { latestPerPeriod, type VersionHeader } from '../../db/statement-versions.ts';
import type { CompanyIndex } from '../../api/company-versions.ts';
import { versionMemo } from '../../db/version-memo.ts';

export interface SeriesQuery {
  ciks: string[];
  statement_types: string[];
  /** null: every period */
  fiscal_periods: string[] | null;
  fiscal_year_from: number | null;
  fiscal_year_to: number | null;
  /** statement date (period end) bounds, inclusive */
  period_end_from: string | null;
  period_end_to: string | null;
  /** null: every metric the version carries */
  metrics: string[] | null;
  /** only figures exactly as the filer tagged them for the period (no derived quarter, no correction) */
  tier1: boolean;
}

const COLUMNS = [
  'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'statement_version_id', 'version_sequence', 'period_start',
  'period_end', 'currency', 'accounting_standard', 'accession', 'filing_date',
] as const;

function latest(sql: Db, q: SeriesQuery, withFigures = true) {
  return latestPerPeriod(
    sql,
    withFigures ? sql`${sql(COLUMNS.map((c) => `v.${c}`))}, v.figures` : sql`${sql(COLUMNS.map((c) => `v.${c}`))}`,
    sql`v.cik IN ${sql(q.ciks)} AND v.statement_type IN ${sql(q.statement_types)}
      ${q.fiscal_periods ? sql`AND v.fiscal_period IN ${sql(q.fiscal_periods)}` : sql``}
      ${q.fiscal_year_from !== null ? sql`AND v.fiscal_year >= ${q.fiscal_year_from}` : sql``}
      ${q.fiscal_year_to !== null ? sql`AND v.fiscal_year <= ${q.fiscal_year_to}` : sql``}
      ${q.period_end_from !== null ? sql`AND v.period_end >= ${q.period_end_from}` : sql``}
      ${q.period_end_to !== null ? sql`AND v.period_end <= ${q.period_end_to}` : sql``}`,
  );
}

/** What `latest(sql, q, false)` selects, ordered as panelPage orders it, from the companies' indexes (api/company-versions.ts). */
function latestFromIndexes(indexes: ReadonlyMap<string, CompanyIndex>, q: SeriesQuery): VersionHeader[] {
  const filter = {
    types: q.statement_types,
    fiscalPeriods: q.fiscal_periods,
    fiscalYearFrom: q.fiscal_year_from,
    fiscalYearTo: q.fiscal_year_to,
    periodEndFrom: q.period_end_from,
    periodEndTo: q.period_end_to,
  };
  const out: VersionHeader[] = [];
  // companies by cik, each company's versions in panel order
  for (const cik of [...new Set(q.ciks)].sort()) for (const v of indexes.get(cik)?.latestWhere(filter, 'panel') ?? []) out.push(v);
  return out;
}

/** A series row: the header's fields the series read, with figures. */
function rowOf(h: Omit<StatementRow, 'figures'>, figures: StatementRow['figures']): StatementRow {
  return {
    cik: h.cik,
    statement_type: h.statement_type,
    fiscal_year: h.fiscal_year,
    fiscal_period: h.fiscal_period,
    statement_version_id: h.statement_version_id,
    version_sequence: h.version_sequence,
    period_start: h.period_start,
    period_end: h.period_end,
    currency: h.currency,
    accounting_standard: h.accounting_standard,
    accession: h.accession,
    filing_date: h.filing_date,
    figures,
  };
}

/** metric -> { v: value, d: derived } of the version's figures, filtered; NULL when none is left */
function projected(sql: Db, q: SeriesQuery) {
  return sql`(
    SELECT jsonb_object_agg(e.key, jsonb_build_object('v', e.value ->> 'value', 'd', coalesce(e.value ->> 'value_origin', 'SOURCE') <> 'SOURCE'))
    FROM jsonb_each(l.figures) e
    WHERE true
      ${q.metrics ? sql`AND e.key IN ${sql(q.metrics)}` : sql``}
      ${q.tier1 ? sql`AND coalesce(e.value ->> 'value_origin', 'SOURCE') = 'SOURCE' AND e.value -> 'correction_rule' IS NULL` : sql``}
  )`;
}

/**
 * Latest version of every matching statement period, figures projected; periods whose projection
 * is empty still come back (with {}), since a bundle or derived read needs the period's dates.
 */
export async function latestStatementRows(sql: Db, q: SeriesQuery): Promise<StatementRow[]> {
  if (q.ciks.length === 0 || q.statement_types.length === 0 || q.metrics?.length === 0) return [];
  const rows = await sql<(Omit<StatementRow, 'figures'> & { figures: StatementRow['figures'] | null })[]>`
    SELECT ${sql(COLUMNS.map((c) => `l.${c}`))}, ${projected(sql, q)} AS figures
    FROM (${latest(sql, q)}) l
    ORDER BY l.cik, l.statement_type, l.period_end`;
  return rows.map((r) => ({ ...r, figures: r.figures ?? {} }));
}

/** A figure as the series read it: value, whether derived, whether tier 1 (as tagged, uncorrected). */
interface ReadFigure extends SeriesFigure {
  t: boolean;
}

/**
 * What a panel takes from each version read so far, by version id: every figure as the series read
 * it (unpacked from its JSON once) and, per metric and tier 1 filter, the figures a read keeps
 * (null: none; frozen, the same for every read). A version is never rewritten; per database
 * client, bounded in two generations (db/version-memo.ts).
 */
interface SeriesRecord {
  figures: Readonly<Record<string, ReadFigure>>;
  kept: Map<string, Record<string, SeriesFigure> | null>;
}

const recordMemo = versionMemo<SeriesRecord>(50_000);

/** The records of these versions, in their order (a version gone since its id was read has no figures); only those not met before are read. */
async function recordsOf(sql: Db, ids: readonly string[]): Promise<SeriesRecord[]> {
  const held = await recordMemo(sql, ids, async (missing) => {
    const rows = await sql<{ statement_version_id: string; figures: Record<string, ReadFigure> | null }[]>`
      SELECT v.statement_version_id, (
        SELECT jsonb_object_agg(e.key, jsonb_build_object(
          'v', e.value ->> 'value',
          'd', coalesce(e.value ->> 'value_origin', 'SOURCE') <> 'SOURCE',
          't', coalesce(e.value ->> 'value_origin', 'SOURCE') = 'SOURCE' AND e.value -> 'correction_rule' IS NULL))
        FROM jsonb_each(v.figures) e) AS figures
      FROM statement_versions v WHERE v.statement_version_id IN ${sql(missing)}`;
    return rows.map((r) => [r.statement_version_id, { figures: Object.freeze(r.figures ?? {}), kept: new Map() }] as const);
  });
  return held.map((r) => r ?? { figures: NO_FIGURES, kept: new Map() });
}

/** Whether a read keeps a figure: one of its metrics, tier 1 when it asks for tier 1 only. */
const keeps = (metric: string, f: ReadFigure, q: SeriesQuery) => (!q.metrics || q.metrics.includes(metric)) && (!q.tier1 || f.t);

/** The figures a read keeps; null when none is left. */
function kept(figures: Readonly<Record<string, ReadFigure>>, q: SeriesQuery): Record<string, SeriesFigure> | null {
  const out: Record<string, SeriesFigure> = {};
  let any = false;
  for (const [metric, f] of Object.entries(figures)) {
    if (!keeps(metric, f, q)) continue;
    out[metric] = { v: f.v, d: f.d };
    any = true;
  }
  return any ? out : null;
}

const NO_FIGURES: Readonly<Record<string, ReadFigure>> = Object.freeze({});

/** What `kept` makes of a record's figures under a filter (`filter` names q's metrics and tier 1), made once per record and filter. */
function keptOf(record: SeriesRecord, q: SeriesQuery, filter: string): Record<string, SeriesFigure> | null {
  let out = record.kept.get(filter);
  if (out === undefined) {
    out = kept(record.figures, q);
    if (out !== null) Object.freeze(out);
    record.kept.set(filter, out);
  }
  return out;
}

/**
 * One page of a single-statement-type panel: the latest version of each period, ordered by cik,
 * period end (quarters before the year ending the same day); periods left with no metric after
 * the metric and tier 1 filters give no point. Only the page's rows are made; the others are counted.
 */
export async function panelPage(
  sql: Db,
  q: SeriesQuery,
  page: { limit: number; offset: number },
  indexes: ReadonlyMap<string, CompanyIndex> | null = null,
): Promise<{ total: number; rows: StatementRow[] }> {
  if (q.ciks.length === 0 || q.metrics?.length === 0) return { total: 0, rows: [] };
  const headers: readonly Omit<StatementRow, 'figures'>[] = indexes
    ? latestFromIndexes(indexes, q)
    : await sql<Omit<StatementRow, 'figures'>[]>`
    SELECT * FROM (${latest(sql, q, false)}) l
    ORDER BY l.cik, l.period_end, l.fiscal_year, CASE l.fiscal_period WHEN 'FY' THEN 1 ELSE 0 END, l.fiscal_period`;
  const held = await recordsOf(sql, headers.map((h) => h.statement_version_id));
  const end = page.offset + page.limit;
  const filter = `${q.metrics?.join(',') ?? '*'}|${q.tier1}`;
  const rows: StatementRow[] = [];
  let total = 0;
  for (const [i, h] of headers.entries()) {
    const f = keptOf(held[i]!, q, filter);
    if (f === null) continue;
    if (total >= page.offset && total < end) rows.push(rowOf(h, f));
    total++;
  }
  return { total, rows };
}
