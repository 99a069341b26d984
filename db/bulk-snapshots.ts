import type { Manifest } from '../domain/bulk/manifest.ts';
import { type Db, json } from './client.ts';

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
}

/** Lock id of "an export build is running", held on one reserved connection for the build. */
export const BUILD_LOCK = 7_414_001;

export async function startBuild(sql: Db, b: { snapshotId: string; kind: 'full' | 'incremental'; previousId: string | null; startedAt: Date }): Promise<void> {
  await sql`
    INSERT INTO bulk_snapshots (snapshot_id, build_kind, status, previous_snapshot_id, started_at)
    VALUES (${b.snapshotId}, ${b.kind}, 'building', ${b.previousId}, ${b.startedAt})`;
}

export async function publishSnapshot(sql: Db, manifest: Manifest, inputHashes: Record<string, string>): Promise<void> {
  await sql`
    UPDATE bulk_snapshots
    SET status = 'published', published_at = ${manifest.published_at}, read_at = ${manifest.read_at},
        manifest = ${json(sql, manifest)}, input_hashes = ${json(sql, inputHashes)}
    WHERE snapshot_id = ${manifest.snapshot_id} AND status = 'building'`;
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
    SELECT snapshot_id, manifest, input_hashes FROM bulk_snapshots
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