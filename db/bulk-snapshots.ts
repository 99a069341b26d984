import type { Manifest } from '../domain/bulk/manifest.ts';
import { type Db, json, type Sql } from './client.ts';

export type SnapshotStatus = 'building' | 'published' | 'failed' | 'expired';

export interface SnapshotRow {
  snapshot_id: string;
  build_kind: 'full' | 'incremental';
  status: SnapshotStatus;
  started_at: string;
  published_at: string | null;
  expired_at: string | null;
  manifest: Manifest | null;
}

export interface PublishedSnapshot {
  snapshot_id: string;
  manifest: Manifest;
  input_hashes: Record<string, string>;
  /** the database snapshot (pg_snapshot as text) the build read the corpus in; null before it was recorded */
  read_snapshot: string | null;
}

/** Lock id of "an export build is running", held on one reserved connection for the build. */
export const BUILD_LOCK = 7_414_001;

export async function startBuild(sql: Db, b: { snapshotId: string; kind: 'full' | 'incremental'; previousId: string | null; startedAt: Date }): Promise<void> {
  await sql`
    INSERT INTO bulk_snapshots (snapshot_id, build_kind, status, previous_snapshot_id, started_at)
    VALUES (${b.snapshotId}, ${b.kind}, 'building', ${b.previousId}, ${b.startedAt})`;
}

export async function publishSnapshot(sql: Sql, manifest: Manifest, inputHashes: Record<string, string>, readSnapshot: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      UPDATE bulk_snapshots
      SET status = 'published', published_at = ${manifest.published_at}, read_at = ${manifest.read_at},
          manifest = ${json(tx, manifest)}, input_hashes = ${json(tx, inputHashes)}, read_snapshot = ${readSnapshot}::pg_snapshot
      WHERE snapshot_id = ${manifest.snapshot_id} AND status = 'building'`;
    // the changes this snapshot saw: the next build starts from it
    await tx`DELETE FROM bulk_changes WHERE pg_visible_in_snapshot(xid, ${readSnapshot}::pg_snapshot)`;
  });
}

/** The snapshot the calling (repeatable-read) transaction reads, as text. */
export async function readSnapshotOf(tx: Db): Promise<string> {
  const [row] = await tx<{ s: string }[]>`SELECT pg_current_snapshot()::text AS s`;
  return row!.s;
}

/**
 * Per dataset, the partitions a transaction changed that the snapshot `since` did not see and the
 * calling transaction does (db/migrations/000049): '*' stands for every partition.
 */
export async function changedPartitions(tx: Db, since: string): Promise<Map<string, Set<string>>> {
  const rows = await tx<{ dataset: string; partition: string }[]>`
    SELECT DISTINCT dataset, partition FROM bulk_changes WHERE NOT pg_visible_in_snapshot(xid, ${since}::pg_snapshot)`;
  const changed = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!changed.has(r.dataset)) changed.set(r.dataset, new Set());
    changed.get(r.dataset)!.add(r.partition);
  }
  return changed;
}

export async function failBuild(sql: Db, snapshotId: string, error: string): Promise<void> {
  await sql`UPDATE bulk_snapshots SET status = 'failed', error = ${error.slice(0, 2000)} WHERE snapshot_id = ${snapshotId} AND status = 'building'`;
}

/** Builds left 'building' by a process that died; only called while holding BUILD_LOCK. */
export async function abandonedBuilds(sql: Db): Promise<string[]> {
  const rows = await sql<{ snapshot_id: string }[]>`
    UPDATE bulk_snapshots SET status = 'failed', error = 'the build process stopped before publishing'
    WHERE status = 'building' RETURNING snapshot_id`;
  return rows.map((r) => r.snapshot_id);
}

export async function latestPublished(sql: Db): Promise<PublishedSnapshot | null> {
  const [row] = await sql<PublishedSnapshot[]>`
    SELECT snapshot_id, manifest, input_hashes, read_snapshot::text AS read_snapshot FROM bulk_snapshots
    WHERE status = 'published' ORDER BY snapshot_id DESC LIMIT 1`;
  return row ?? null;
}

/** Start of the newest published full build, to keep a full rebuild at least weekly. */
export async function lastFullBuildAt(sql: Db): Promise<Date | null> {
  const [row] = await sql<{ started_at: string }[]>`
    SELECT started_at FROM bulk_snapshots WHERE status = 'published' AND build_kind = 'full' ORDER BY snapshot_id DESC LIMIT 1`;
  return row ? new Date(row.started_at) : null;
}

export async function snapshotById(sql: Db, snapshotId: string): Promise<SnapshotRow | null> {
  const [row] = await sql<SnapshotRow[]>`
    SELECT snapshot_id, build_kind, status, started_at, published_at, expired_at, manifest
    FROM bulk_snapshots WHERE snapshot_id = ${snapshotId}`;
  return row ?? null;
}

/** Marks published snapshots beyond the `keep` newest as expired; returns their ids (whose files go next). */
export async function expireBeyond(sql: Db, keep: number, now: Date): Promise<string[]> {
  const rows = await sql<{ snapshot_id: string }[]>`
    UPDATE bulk_snapshots SET status = 'expired', expired_at = ${now}
    WHERE snapshot_id IN (
      SELECT snapshot_id FROM bulk_snapshots WHERE status = 'published' ORDER BY snapshot_id DESC OFFSET ${keep})
    RETURNING snapshot_id`;
  return rows.map((r) => r.snapshot_id).sort();
}