import type { FactRevision } from '../../domain/normalize/versions.ts';
import type { StatementIdentity } from '../../domain/statements/key.ts';
import type { Db } from '../../db/client.ts';
import { headerColumns, latestVersionOf, unpackVersion, type VersionHeader, type VersionRow } from '../../db/statement-versions.ts';
import { seen, type MetricPointRow, type SeriesFilter, type Visibility } from '../../db/statement-read.ts';
import { unpackFigure, type StoredFigure } from '../../db/figure-storage.ts';
import { TwoGenerations } from '../../db/version-memo.ts';
import type { CompanyIndex } from '../../api/company-versions.ts';

/**
 * The id of the latest version of one statement visible under `v`, null when none is: one index
 * lookup, for readers that keep prepared payloads per (immutable) version.
 */
export async function latestVersionId(sql: Db, id: StatementIdentity, v: Visibility): Promise<string | null> {
  const [row] = await sql<{ statement_version_id: string }[]>`${latestVersionOf(
    sql,
    sql`v.statement_version_id`,
    sql`v.cik = ${id.cik} AND v.statement_type = ${id.statement_type}
      AND v.fiscal_year = ${id.fiscal_year} AND v.fiscal_period = ${id.fiscal_period}
      AND ${seen(sql, v)}`,
  )}`;
  return row?.statement_version_id ?? null;
}

/** One version with its figures, by id; null when there is none. */
export async function versionById(sql: Db, versionId: string): Promise<VersionRow | null> {
  const [row] = await sql<VersionRow[]>`
    SELECT ${headerColumns(sql)}, v.figures, v.calculation_evidence, v.unavailable_figures FROM statement_versions v
    WHERE v.statement_version_id = ${versionId}`;
  return row ? unpackVersion(row) : null;
}

export interface RevisionRow extends Pick<FactRevision, 'metric' | 'old_value' | 'new_value' | 'difference' | 'old_accession' | 'new_accession'> {
  statement_version_id: string;
}

export async function revisionsOf(sql: Db, versionIds: string[]): Promise<RevisionRow[]> {
  if (versionIds.length === 0) return [];
  return sql<RevisionRow[]>`
    SELECT statement_version_id, metric, old_value::text, new_value::text, difference::text, old_accession, new_accession
    FROM fact_revisions WHERE statement_version_id IN ${sql(versionIds)} ORDER BY metric`;
}

/**
 * Each version's figures as stored (packed, db/figure-storage.ts), by version id and metric, those
 * read so far (a version is never rewritten); per database client, bounded like db/version-memo.ts.
 */
const storedFigures = new WeakMap<Db, TwoGenerations<Map<string, Partial<StoredFigure> | null>>>();

/** Each header's stored figure of `metric` (null where its version has none), in the headers' order; only those not met before are read. */
async function storedFiguresOf(sql: Db, headers: readonly VersionHeader[], metric: string): Promise<(Partial<StoredFigure> | null)[]> {
  let held = storedFigures.get(sql);
  if (!held) storedFigures.set(sql, (held = new TwoGenerations(50_000)));
  const out: (Partial<StoredFigure> | null | undefined)[] = headers.map((h) => held.get(h.statement_version_id)?.get(metric));
  const missing = headers.filter((_, i) => out[i] === undefined).map((h) => h.statement_version_id);
  if (missing.length > 0) {
    const rows = await sql<{ statement_version_id: string; figure: Partial<StoredFigure> | null }[]>`
      SELECT v.statement_version_id, v.figures -> ${metric} AS figure FROM statement_versions v
      WHERE v.statement_version_id IN ${sql(missing)}`;
    const read = new Map(rows.map((r) => [r.statement_version_id, r.figure] as const));
    for (const [i, h] of headers.entries()) {
      if (out[i] !== undefined) continue;
      const figure = read.get(h.statement_version_id) ?? null;
      let byMetric = held.get(h.statement_version_id);
      if (!byMetric) held.set(h.statement_version_id, (byMetric = new Map()));
      byMetric.set(metric, figure);
      out[i] = figure;
    }
  }
  return out as (Partial<StoredFigure> | null)[];
}

/**
 * `metricSeries` (db/statement-read.ts) over the company's headers held in memory
 * (api/company-versions.ts): the latest visible version of each period picked there, its figure of
 * the metric read once per version and kept, and the source filings (form, filing date, acceptance)
 * read only when `withSources` (provenance, split adjustment), so an unchanged series asks nothing.
 * The same rows in the same order.
 */
export async function metricSeriesOf(
  sql: Db,
  index: CompanyIndex,
  f: SeriesFilter,
  v: Visibility,
  page: { limit: number; offset: number },
  withSources: boolean,
): Promise<{ total: number; rows: MetricPointRow[] }> {
  const picked = index.latestWhere(
    {
      types: [f.statement_type],
      fiscalPeriods: f.fiscal_periods,
      fiscalYearFrom: f.fiscal_year_from,
      fiscalYearTo: f.fiscal_year_to,
      asOf: v.as_of_date,
      asReported: v.as_reported,
    },
    'panel',
  );
  const figures = await storedFiguresOf(sql, picked, f.metric);
  const stored = new Map<VersionHeader, Partial<StoredFigure>>();
  for (const [i, h] of picked.entries()) if (figures[i] !== null) stored.set(h, figures[i]!);
  const withFigure = [...stored.keys()];
  const shown = withFigure.slice(page.offset, page.offset + page.limit);
  const sourceOf = (h: VersionHeader) => stored.get(h)?.source_accession ?? h.accession;
  const sources = new Map<string, { form: string; filing_date: string; accepted_at: string | null }>();
  if (withSources && shown.length > 0) {
    const rows = await sql<{ accession: string; form: string; filing_date: string; accepted_at: string | null }[]>`
      SELECT s.accession, s.form, s.filing_date, s.accepted_at FROM filings s WHERE s.accession IN ${sql([...new Set(shown.map(sourceOf))])}`;
    for (const r of rows) sources.set(r.accession, r);
  }
  const rows = shown.map((h): MetricPointRow => {
    const source = sources.get(sourceOf(h));
    return {
      statement_version_id: h.statement_version_id,
      cik: h.cik,
      statement_type: h.statement_type,
      fiscal_year: h.fiscal_year,
      fiscal_period: h.fiscal_period,
      version_sequence: h.version_sequence,
      period_start: h.period_start,
      period_end: h.period_end,
      accession: h.accession,
      form: h.form,
      filing_date: h.filing_date,
      accepted_at: h.accepted_at,
      currency: h.currency,
      figure: unpackFigure(stored.get(h)!, h),
      source_form: source?.form ?? null,
      source_filing_date: source?.filing_date ?? null,
      source_accepted_at: source?.accepted_at ?? null,
    };
  });
  return { total: withFigure.length, rows };
}
