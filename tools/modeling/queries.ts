import type { FlatRow, RowKind } from '../../domain/modeling/snapshot.ts';
import type { Db } from '../../db/client.ts';
import { newerThanRead, visible } from '../../db/statement-versions.ts';

export interface StoredRow {
  reads: string[];
  body: Record<string, unknown>;
}

/** One page of a company's stored rows of one kind, in build order; `from` keeps rows whose statement_date is on or after it. */
export async function rowsPage(
  sql: Db,
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
export async function flatRowsPage(sql: Db, s: { as_of_snapshot_id: string; row_count: number | null }, page: { limit: number; offset: number }): Promise<{ total: number; rows: FlatRow[] }> {
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
export async function lateVersions(sql: Db, s: { as_of_snapshot_id: string; as_of_date: string }, cik: string): Promise<Map<string, Set<string>>> {
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
      AND ${newerThanRead(sql, 'modeling_snapshot_versions', sql`r.as_of_snapshot_id = ${s.as_of_snapshot_id}`)}`;
  for (const r of rows) {
    const key = `${r.fiscal_year}|${r.fiscal_period}`;
    const set = out.get(key) ?? new Set<string>();
    for (const m of r.metrics) set.add(m);
    out.set(key, set);
  }
  return out;
}
