import type { Db } from '../db/client.ts';
import { latestPublished, snapshotById, type SnapshotRow } from '../db/bulk-snapshots.ts';
import { ServiceError } from '../domain/service-error.ts';

/**
 * The spec's 410 for a snapshot older than the seven kept (its files deleted), naming the latest.
 * One answer for the snapshot routes and the local download route, so a download URL issued before
 * its snapshot expired answers as the snapshot does.
 */
export async function snapshotExpired(sql: Db, row: Pick<SnapshotRow, 'snapshot_id' | 'expired_at'>): Promise<ServiceError> {
  const latest = await latestPublished(sql);
  return new ServiceError(
    'BULK_SNAPSHOT_EXPIRED',
    `Snapshot ${row.snapshot_id} is older than the seven kept and its files are deleted; use latest.`,
    { snapshot_id: row.snapshot_id, expired_at: row.expired_at, latest_snapshot_id: latest?.snapshot_id ?? null },
  );
}

/** The 410 when the snapshot has expired; null when it has not (published, building or unknown). */
export async function expiryOf(sql: Db, snapshotId: string): Promise<ServiceError | null> {
  const row = await snapshotById(sql, snapshotId);
  return row?.status === 'expired' ? snapshotExpired(sql, row) : null;
}
