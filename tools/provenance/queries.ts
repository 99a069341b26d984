import type { FactRevision } from '../../domain/normalize/versions.ts';
import type { Db } from '../../db/client.ts';
import { unpackFigure, type StoredFigure } from '../../db/figure-storage.ts';
import type { VersionHeader } from '../../db/statement-versions.ts';

/**
 * Reads behind the provenance routes: one statement version by id with its content hash, the
 * filings a version's figures were read from, and one metric across every version of a statement.
 */

export interface VersionWithHash extends VersionHeader {
  figures: Record<string, StoredFigure>;
  /** sha-256 over the version's period, filing and each figure's value and provenance (ingest/ingest-company.ts) */
  content_hash: string;
}

const HEADER = [
  'statement_version_id', 'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'version_sequence', 'period_start',
  'period_end', 'accession', 'form', 'filing_date', 'accepted_at', 'currency', 'accounting_standard',
  'previous_version_id', 'created_at',
] as const;

/** One statement version by its id, figures unpacked; null when no version has that id. */
export async function versionById(sql: Db, id: string): Promise<VersionWithHash | null> {
  const [row] = await sql<VersionWithHash[]>`
    SELECT ${sql(HEADER)}, figures, content_hash FROM statement_versions WHERE statement_version_id = ${id}`;
  if (!row) return null;
  for (const m of Object.keys(row.figures)) row.figures[m] = unpackFigure(row.figures[m]!, row);
  return row;
}

export interface FilingRef {
  accession: string;
  form: string;
  filing_date: string;
  accepted_at: string | null;
}

/** Form, filing date and acceptance time of each accession on record (missing ones are left out). */
export async function filingsByAccession(sql: Db, accessions: string[]): Promise<Map<string, FilingRef>> {
  if (accessions.length === 0) return new Map();
  const rows = await sql<FilingRef[]>`
    SELECT accession, form, filing_date, accepted_at FROM filings WHERE accession IN ${sql([...new Set(accessions)])}`;
  return new Map(rows.map((r) => [r.accession, r]));
}

export interface MetricVersionRow {
  statement_version_id: string;
  version_sequence: number;
  accession: string;
  form: string;
  filing_date: string;
  /** the metric on that version; null when the version does not carry it */
  figure: StoredFigure | null;
}

/** One metric on every version of a statement identity, oldest first. */
export async function metricAcrossVersions(
  sql: Db,
  id: { cik: string; statement_type: string; fiscal_year: number; fiscal_period: string },
  metric: string,
): Promise<MetricVersionRow[]> {
  const rows = await sql<(Omit<MetricVersionRow, 'figure'> & { figure: Partial<StoredFigure> | null; period_start: string | null; period_end: string; currency: string | null })[]>`
    SELECT statement_version_id, version_sequence, accession, form, filing_date, period_start, period_end, currency, figures -> ${metric} AS figure
    FROM statement_versions
    WHERE cik = ${id.cik} AND statement_type = ${id.statement_type} AND fiscal_year = ${id.fiscal_year} AND fiscal_period = ${id.fiscal_period}
    ORDER BY version_sequence`;
  return rows.map((r) => ({
    statement_version_id: r.statement_version_id,
    version_sequence: r.version_sequence,
    accession: r.accession,
    form: r.form,
    filing_date: r.filing_date,
    figure: r.figure === null ? null : unpackFigure(r.figure, r),
  }));
}

/** One metric's revision between two versions (the metric is the one asked for). */
export interface MetricRevisionRow extends Omit<FactRevision, 'metric'> {
  statement_version_id: string;
  previous_version_id: string;
}

/** Fact revisions of one metric recorded on any of the given versions. */
export async function metricRevisions(sql: Db, versionIds: string[], metric: string): Promise<MetricRevisionRow[]> {
  if (versionIds.length === 0) return [];
  return sql<MetricRevisionRow[]>`
    SELECT statement_version_id, previous_version_id, old_value::text, new_value::text, difference::text,
      old_accession, new_accession, old_concept, new_concept
    FROM fact_revisions WHERE statement_version_id IN ${sql(versionIds)} AND metric = ${metric}`;
}
