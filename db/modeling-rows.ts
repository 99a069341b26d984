/**
 * What a modeling build reads and writes: the statement versions knowable at the end of a
 * snapshot's as-of date (the knowable-at rule and latest-per-period fragments of
 * db/statement-versions.ts: latest version per statement identity, figures cut down to value and
 * derived flag; tier-1 snapshots keep only figures exactly as tagged), the computed rows and the
 * flat build rows. The modeling routes' pages of those rows are in tools/modeling/queries.ts.
 */
import type { FlatRow, RowKind } from '../domain/modeling/snapshot.ts';
import type { ComputedRow, ModelVersion } from '../domain/modeling/types.ts';
import { type Db, json } from './client.ts';
import { latestPerPeriod, visible } from './statement-versions.ts';

const COLUMNS = [
  'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'statement_version_id', 'version_sequence', 'period_start',
  'period_end', 'currency', 'accounting_standard', 'accession', 'filing_date', 'content_hash',
] as const;

/** Latest version of every statement identity of `ciks` knowable at the end of `asOfDate`. */
export async function versionsAsOf(sql: Db, ciks: string[], asOfDate: string, tier1: boolean): Promise<ModelVersion[]> {
  if (ciks.length === 0) return [];
  const rows = await sql<(ModelVersion & { figures: ModelVersion['figures'] | null })[]>`
    SELECT ${sql(COLUMNS.map((c) => `l.${c}`))}, (
      SELECT jsonb_object_agg(e.key, jsonb_build_object('v', e.value ->> 'value', 'd', coalesce(e.value ->> 'value_origin', 'SOURCE') <> 'SOURCE'))
      FROM jsonb_each(l.figures) e
      WHERE true ${tier1 ? sql`AND coalesce(e.value ->> 'value_origin', 'SOURCE') = 'SOURCE' AND e.value -> 'correction_rule' IS NULL` : sql``}
    ) AS figures
    FROM (${latestPerPeriod(sql, sql`${sql(COLUMNS.map((c) => `v.${c}`))}, v.figures`, sql`v.cik IN ${sql(ciks)} AND ${visible(sql, asOfDate)}`)}) l
    ORDER BY l.cik, l.period_end, l.statement_type, l.fiscal_year, l.fiscal_period`;
  return rows.map((r) => ({ ...r, figures: r.figures ?? {} }));
}

/** company_id of each CIK in the company reference (absent: not in the reference). */
export async function companyIds(sql: Db, ciks: string[]): Promise<Map<string, string>> {
  if (ciks.length === 0) return new Map();
  const rows = await sql<{ cik: string; company_id: string }[]>`SELECT cik, company_id FROM companies WHERE cik IN ${sql(ciks)}`;
  return new Map(rows.map((r) => [r.cik, r.company_id]));
}

/** The CIK of a company_id; undefined when no company has it. */
export async function cikOfCompany(sql: Db, companyId: string): Promise<string | undefined> {
  const [row] = await sql<{ cik: string }[]>`SELECT cik FROM companies WHERE company_id = ${companyId}`;
  return row?.cik;
}

/** Stores one company's part of a build (inside the build's transaction). */
export async function writeCompanyRows(
  tx: Db,
  asOfSnapshotId: string,
  versions: readonly ModelVersion[],
  rows: Record<RowKind, ComputedRow[]>,
  flat: readonly FlatRow[],
  flatOffset: number,
): Promise<void> {
  if (versions.length > 0) {
    const refs = versions.map((v) => ({
      cik: v.cik, statement_type: v.statement_type, fiscal_year: v.fiscal_year, fiscal_period: v.fiscal_period,
      version_sequence: v.version_sequence, statement_version_id: v.statement_version_id,
    }));
    await tx`
      INSERT INTO modeling_snapshot_versions (as_of_snapshot_id, cik, statement_type, fiscal_year, fiscal_period, version_sequence, statement_version_id)
      SELECT ${asOfSnapshotId}, r.cik, r.statement_type, r.fiscal_year, r.fiscal_period, r.version_sequence, r.statement_version_id
      FROM jsonb_to_recordset(${json(tx, refs)}::jsonb) AS r(cik text, statement_type text, fiscal_year int, fiscal_period text, version_sequence int, statement_version_id uuid)`;
  }
  const all = Object.entries(rows).flatMap(([kind, list]) => list.map((r, ord) => ({ kind, cik: r.cik, ord, reads: r.reads, body: r.body })));
  if (all.length > 0) {
    await tx`
      INSERT INTO modeling_rows (as_of_snapshot_id, kind, cik, ord, reads, body)
      SELECT ${asOfSnapshotId}, r.kind, r.cik, r.ord, ARRAY(SELECT jsonb_array_elements_text(r.reads)), r.body
      FROM jsonb_to_recordset(${json(tx, all)}::jsonb) AS r(kind text, cik text, ord int, reads jsonb, body jsonb)`;
  }
  if (flat.length > 0) {
    const withOrd = flat.map((f, i) => ({ ...f, ord: flatOffset + i }));
    await tx`
      INSERT INTO modeling_snapshot_rows (as_of_snapshot_id, ord, cik, statement_type, metric_name, metric_value, statement_date, fiscal_year, fiscal_period, statement_version_id)
      SELECT ${asOfSnapshotId}, r.ord, r.cik, r.statement_type, r.metric_name, r.metric_value::numeric, r.statement_date::date, r.fiscal_year, r.fiscal_period, r.statement_version_id
      FROM jsonb_to_recordset(${json(tx, withOrd)}::jsonb) AS r(
        ord int, cik text, statement_type text, metric_name text, metric_value text, statement_date text, fiscal_year int, fiscal_period text, statement_version_id uuid)`;
  }
}

/** Removes whatever an earlier, abandoned attempt left (its transaction normally leaves nothing). */
export async function clearSnapshotRows(tx: Db, asOfSnapshotId: string): Promise<void> {
  await tx`DELETE FROM modeling_snapshot_versions WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
  await tx`DELETE FROM modeling_rows WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
  await tx`DELETE FROM modeling_snapshot_rows WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
}