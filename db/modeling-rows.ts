/**
 * What a modeling build reads and writes, and what the modeling routes page: the statement
 * versions knowable at the end of a snapshot's as-of date (the project's knowable-at rule and
 * latest-per-period fragments of db/statement-versions.ts: latest version per statement identity,
 * figures cut down to value and derived flag; tier-1 snapshots keep only figures exactly as tagged),
 * the computed rows, the flat build rows, and the versions that arrived after a build (for
 * PENDING_REBUILD). The only module that names the modeling row tables' columns.
 */
import type { FlatRow, RowKind } from '../domain/modeling/snapshot.ts';
import type { ComputedRow, ModelVersion } from '../domain/modeling/types.ts';
import type { Sql } from './client.ts';
import { latestPerPeriod, visible } from './statement-versions.ts';

const COLUMNS = [
  'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'statement_version_id', 'version_sequence', 'period_start',
  'period_end', 'currency', 'accounting_standard', 'accession', 'filing_date', 'content_hash',
] as const;

/** Latest version of every statement identity of `ciks` knowable at the end of `asOfDate`. */
export async function versionsAsOf(sql: Sql, ciks: string[], asOfDate: string, tier1: boolean): Promise<ModelVersion[]> {
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
export async function companyIds(sql: Sql, ciks: string[]): Promise<Map<string, string>> {
  if (ciks.length === 0) return new Map();
  const rows = await sql<{ cik: string; company_id: string }[]>`SELECT cik, company_id FROM companies WHERE cik IN ${sql(ciks)}`;
  return new Map(rows.map((r) => [r.cik, r.company_id]));
}

/** The CIK of a company_id; undefined when no company has it. */
export async function cikOfCompany(sql: Sql, companyId: string): Promise<string | undefined> {
  const [row] = await sql<{ cik: string }[]>`SELECT cik FROM companies WHERE company_id = ${companyId}`;
  return row?.cik;
}

/** Stores one company's part of a build (inside the build's transaction). */
export async function writeCompanyRows(
  tx: Sql,
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
      FROM jsonb_to_recordset(${tx.json(refs as never)}::jsonb) AS r(cik text, statement_type text, fiscal_year int, fiscal_period text, version_sequence int, statement_version_id uuid)`;
  }
  const all = Object.entries(rows).flatMap(([kind, list]) => list.map((r, ord) => ({ kind, cik: r.cik, ord, reads: r.reads, body: r.body })));
  if (all.length > 0) {
    await tx`
      INSERT INTO modeling_rows (as_of_snapshot_id, kind, cik, ord, reads, body)
      SELECT ${asOfSnapshotId}, r.kind, r.cik, r.ord, ARRAY(SELECT jsonb_array_elements_text(r.reads)), r.body
      FROM jsonb_to_recordset(${tx.json(all as never)}::jsonb) AS r(kind text, cik text, ord int, reads jsonb, body jsonb)`;
  }
  if (flat.length > 0) {
    const withOrd = flat.map((f, i) => ({ ...f, ord: flatOffset + i }));
    await tx`
      INSERT INTO modeling_snapshot_rows (as_of_snapshot_id, ord, cik, statement_type, metric_name, metric_value, statement_date, fiscal_year, fiscal_period, statement_version_id)
      SELECT ${asOfSnapshotId}, r.ord, r.cik, r.statement_type, r.metric_name, r.metric_value::numeric, r.statement_date::date, r.fiscal_year, r.fiscal_period, r.statement_version_id
      FROM jsonb_to_recordset(${tx.json(withOrd as never)}::jsonb) AS r(
        ord int, cik text, statement_type text, metric_name text, metric_value text, statement_date text, fiscal_year int, fiscal_period text, statement_version_id uuid)`;
  }
}

/** Removes whatever an earlier, abandoned attempt left (its transaction normally leaves nothing). */
export async function clearSnapshotRows(tx: Sql, asOfSnapshotId: string): Promise<void> {
  await tx`DELETE FROM modeling_snapshot_versions WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
  await tx`DELETE FROM modeling_rows WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
  await tx`DELETE FROM modeling_snapshot_rows WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
}

export interface StoredRow {
  reads: string[];
  body: Record<string, unknown>;
}

/** One page of a company's stored rows of one kind, in build order; `from` keeps rows whose statement_date is on or after it. */
export async function rowsPage(
  sql: Sql,
  asOfSnapshotId: string,
  kind: RowKind,
  cik: string,
  page: { limit: number; offset: number },
  from: string | null = null,
): Promise<{ total: number; rows: StoredRow[] }> {
  const where = sql`as_of_snapshot_id = ${asOfSnapshotId} AND kind = ${kind} AND cik = ${cik}
    ${from ? sql`AND body ->> 'statement_date' >= ${from}` : sql``}`;
  const rows = await sql<(StoredRow & { total: number })[]>`
    SELECT reads, body, count(*) OVER ()::int AS total FROM modeling_rows WHERE ${where}
    ORDER BY ord LIMIT ${page.limit} OFFSET ${page.offset}`;
  if (rows.length > 0 || page.offset === 0) return { total: rows[0]?.total ?? 0, rows: rows.map(({ reads, body }) => ({ reads, body })) };
  // a page past the end still reports the total
  const [count] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM modeling_rows WHERE ${where}`;
  return { total: count?.n ?? 0, rows: [] };
}

/** One page of a snapshot's flat build rows, in build order. */
export async function flatRowsPage(sql: Sql, s: { as_of_snapshot_id: string; row_count: number | null }, page: { limit: number; offset: number }): Promise<{ total: number; rows: FlatRow[] }> {
  const rows = await sql<FlatRow[]>`
    SELECT cik, statement_type, metric_name, metric_value::text, statement_date, fiscal_year, fiscal_period, statement_version_id
    FROM modeling_snapshot_rows WHERE as_of_snapshot_id = ${s.as_of_snapshot_id}
    ORDER BY ord LIMIT ${page.limit} OFFSET ${page.offset}`;
  return { total: s.row_count ?? 0, rows };
}

/**
 * Versions of `cik` knowable at the snapshot's date that the build did not read (they arrived after
 * it): period key -> the metrics they carry. Empty when the snapshot is current.
 *
 * Fast path: versions are append-only and numbered 1..n per statement, and a later version never has
 * an earlier filing date, so while nothing arrived the versions knowable at the date number exactly
 * the sum of the version_sequences the build read; only when the two differ is the full comparison
 * run. (A version out of filing-date order makes the counts differ for good, so such a company always
 * takes the full comparison.)
 */
export async function lateVersions(sql: Sql, s: { as_of_snapshot_id: string; as_of_date: string }, cik: string): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const [counts] = await sql<{ knowable: number; read: number }[]>`
    SELECT (SELECT count(*) FROM statement_versions v WHERE v.cik = ${cik} AND ${visible(sql, s.as_of_date)})::int AS knowable,
           (SELECT coalesce(sum(version_sequence), 0) FROM modeling_snapshot_versions
            WHERE as_of_snapshot_id = ${s.as_of_snapshot_id} AND cik = ${cik})::int AS read`;
  if (counts && counts.knowable === counts.read) return out;
  const rows = await sql<{ fiscal_year: number; fiscal_period: string; metrics: string[] }[]>`
    SELECT v.fiscal_year, v.fiscal_period, ARRAY(SELECT jsonb_object_keys(v.figures)) AS metrics
    FROM statement_versions v
    WHERE v.cik = ${cik} AND ${visible(sql, s.as_of_date)}
      AND NOT EXISTS (
        SELECT 1 FROM modeling_snapshot_versions r
        WHERE r.as_of_snapshot_id = ${s.as_of_snapshot_id} AND r.cik = v.cik AND r.statement_type = v.statement_type
          AND r.fiscal_year = v.fiscal_year AND r.fiscal_period = v.fiscal_period AND r.version_sequence >= v.version_sequence)`;
  for (const r of rows) {
    const key = `${r.fiscal_year}|${r.fiscal_period}`;
    const set = out.get(key) ?? new Set<string>();
    for (const m of r.metrics) set.add(m);
    out.set(key, set);
  }
  return out;
}
