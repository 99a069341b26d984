import type { CalculationEvidence } from '../../domain/calculation-evidence.ts';
import type { Db } from '../../db/client.ts';
import { filedBy, headerColumns, latestAmongSelected, newerVersionExists, unpackVersion, visible, type VersionHeader, type VersionRow } from '../../db/statement-versions.ts';
import type { FilingSource } from '../../domain/facts.ts';

/**
 * Reads of filings and of statement versions by company and by filing (the filings and statements
 * routes). Statement rows come back unpacked, in the shapes db/statement-versions.ts declares, so the
 * same mappers (api/statement-shapes.ts) serve them.
 */

export interface FilingPackage {
  folder?: string;
  files?: string[];
  facts_from?: string;
  linkbases?: boolean;
  facts_added?: number;
}

export interface FilingRow {
  accession_id: string;
  cik: string;
  form: string;
  filing_date: string;
  filing_date_estimated: boolean;
  accepted_at: string | null;
  report_date: string | null;
  fiscal_year_focus: number | null;
  fiscal_period_focus: string | null;
  is_periodic: boolean;
  source: FilingSource;
  primary_document: string | null;
  facts_count: number;
  package: FilingPackage | null;
  statement_versions_count: number;
}

export interface FilingFilter {
  cik: string;
  forms: string[] | null;
  filed_from: string | null;
  filed_to: string | null;
}

const FILING_COLUMNS = (sql: Db) => sql`
  f.accession AS accession_id, f.cik, f.form, f.filing_date, f.filing_date_estimated, f.accepted_at, f.report_date,
  f.fiscal_year_focus, f.fiscal_period_focus, f.is_periodic, f.source, f.primary_document, f.facts_count, f.package,
  (SELECT count(*)::int FROM statement_versions v WHERE v.accession = f.accession) AS statement_versions_count`;

/** Newest filing first: filing date, then acceptance time, then accession. */
export const NEWEST_FILING_FIRST = (sql: Db) => sql`f.filing_date DESC, f.accepted_at DESC NULLS LAST, f.accession DESC`;

/** A company's filings, newest first (NEWEST_FILING_FIRST). */
export async function listFilings(sql: Db, f: FilingFilter, page: { limit: number; offset: number }): Promise<{ total: number; rows: FilingRow[] }> {
  const where = sql`f.cik = ${f.cik}
    ${f.forms ? sql`AND f.form IN ${sql(f.forms)}` : sql``}
    ${f.filed_from ? sql`AND f.filing_date >= ${f.filed_from}` : sql``}
    AND ${filedBy(sql, 'f.filing_date', f.filed_to)}`;
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM filings f WHERE ${where}`;
  const rows = await sql<FilingRow[]>`
    SELECT ${FILING_COLUMNS(sql)} FROM filings f WHERE ${where}
    ORDER BY ${NEWEST_FILING_FIRST(sql)}
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  return { total: count!.total, rows };
}

export async function filingOf(sql: Db, cik: string, accession: string): Promise<FilingRow | null> {
  const [row] = await sql<FilingRow[]>`SELECT ${FILING_COLUMNS(sql)} FROM filings f WHERE f.cik = ${cik} AND f.accession = ${accession}`;
  return row ?? null;
}

/** The newest periodic filing (10-K, 10-Q, amendments ...) of a company filed on or before a date. */
export async function latestPeriodicFiling(sql: Db, cik: string, asOf: string): Promise<FilingRow | null> {
  const [row] = await sql<FilingRow[]>`
    SELECT ${FILING_COLUMNS(sql)} FROM filings f
    WHERE f.cik = ${cik} AND f.is_periodic AND ${filedBy(sql, 'f.filing_date', asOf)}
    ORDER BY ${NEWEST_FILING_FIRST(sql)} LIMIT 1`;
  return row ?? null;
}

/** A version row with whether it is the newest visible one of its identity, and how many metrics it holds. */
export interface ListedVersion extends VersionHeader {
  is_latest: boolean;
  metrics_count: number;
  figures?: VersionRow['figures'];
  calculation_evidence?: CalculationEvidence[] | null;
}

const PERIOD_RANK = (sql: Db) => sql`CASE v.fiscal_period WHEN 'Q1' THEN 1 WHEN 'Q2' THEN 2 WHEN 'Q3' THEN 3 WHEN 'Q4' THEN 4 ELSE 5 END`;
const TYPE_RANK = (sql: Db) => sql`CASE v.statement_type WHEN 'INCOME_STATEMENT' THEN 1 WHEN 'BALANCE_SHEET' THEN 2 ELSE 3 END`;

/** The statement versions a filing created, with whether a later filing has superseded each. */
export async function versionsOfFiling(sql: Db, cik: string, accession: string): Promise<(VersionRow & { is_latest: boolean })[]> {
  const rows = await sql<(VersionRow & { is_latest: boolean })[]>`
    SELECT ${headerColumns(sql)}, v.figures, v.calculation_evidence, v.unavailable_figures,
      NOT ${newerVersionExists(sql)} AS is_latest
    FROM statement_versions v
    WHERE v.cik = ${cik} AND v.accession = ${accession}
    ORDER BY v.period_end DESC, v.fiscal_year DESC, ${PERIOD_RANK(sql)} DESC, ${TYPE_RANK(sql)}, v.version_sequence`;
  return rows.map(unpackVersion);
}

/** Headers of the versions a filing created (for the filing detail). */
export async function versionHeadersOfFiling(sql: Db, accession: string): Promise<VersionHeader[]> {
  return sql<VersionHeader[]>`
    SELECT ${headerColumns(sql)} FROM statement_versions v WHERE v.accession = ${accession}
    ORDER BY v.period_end DESC, v.fiscal_year DESC, ${PERIOD_RANK(sql)} DESC, ${TYPE_RANK(sql)}, v.version_sequence`;
}

export interface VersionFilter {
  cik: string;
  statement_type: string | null;
  fiscal_year: number | null;
  fiscal_period: string | null;
  as_of_date: string | null;
  latest_only: boolean;
}

/**
 * A company's statement versions, newest period first, then statement type, then newest version.
 * Figures are read only when asked for. is_latest is relative to the versions visible on
 * as_of_date (all of them without one).
 */
export async function listVersions(
  sql: Db,
  f: VersionFilter,
  withFigures: boolean,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: ListedVersion[] }> {
  const seen = sql`
    SELECT v.*, ${latestAmongSelected(sql)} AS is_latest
    FROM statement_versions v
    WHERE v.cik = ${f.cik}
      ${f.statement_type ? sql`AND v.statement_type = ${f.statement_type}` : sql``}
      ${f.fiscal_year !== null ? sql`AND v.fiscal_year = ${f.fiscal_year}` : sql``}
      ${f.fiscal_period ? sql`AND v.fiscal_period = ${f.fiscal_period}` : sql``}
      AND ${visible(sql, f.as_of_date)}`;
  const filtered = sql`FROM (${seen}) v ${f.latest_only ? sql`WHERE v.is_latest` : sql``}`;
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total ${filtered}`;
  const rows = await sql<ListedVersion[]>`
    SELECT ${headerColumns(sql)}, v.is_latest, (SELECT count(*)::int FROM jsonb_object_keys(v.figures)) AS metrics_count
      ${withFigures ? sql`, v.figures, v.calculation_evidence, v.unavailable_figures` : sql``}
    ${filtered}
    ORDER BY v.period_end DESC, v.fiscal_year DESC, ${PERIOD_RANK(sql)} DESC, ${TYPE_RANK(sql)}, v.version_sequence DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  return { total: count!.total, rows: rows.map(unpackVersion) };
}
