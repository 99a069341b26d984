import type { DatasetName } from './datasets.ts';

/** One file of a snapshot, as the manifest lists it. */
export interface ManifestFile {
  path: string;
  dataset: DatasetName;
  /** `{ column, value }` of the partition directory; null for the unpartitioned dataset */
  partition: { column: string; value: string } | null;
  rows: number;
  bytes: number;
  sha256: string;
  /** false when the file's rows equal those of the same path in the previous snapshot (carried forward byte-identical) */
  changed: boolean;
}

export interface ManifestDataset {
  dataset: DatasetName;
  schema_version: number;
  rows: number;
  bytes: number;
  files: number;
  changed_files: number;
}

/** The spec's "Snapshot manifest"; served as `{ data: manifest }`. */
export interface Manifest {
  snapshot_id: string;
  build_kind: 'full' | 'incremental';
  format_version: number;
  previous_snapshot_id: string | null;
  published_at: string;
  /** when the build read the corpus: the data is as of this instant */
  read_at: string;
  rows: number;
  bytes: number;
  datasets: ManifestDataset[];
  files: ManifestFile[];
}

/** `2026-11-23T04:30:00.123Z` -> `20261123T043000Z` (the build start, to the second) */
export function snapshotIdOf(startedAt: Date): string {
  return startedAt.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export const SNAPSHOT_ID = /^[0-9]{8}T[0-9]{6}Z$/;

/** `<dataset>/<column>_<value>/part-0000.parquet`, or `companies/part-0000.parquet` unpartitioned */
export function partPath(dataset: string, partition: ManifestFile['partition'], part: number): string {
  const file = `part-${String(part).padStart(4, '0')}.parquet`;
  return partition ? `${dataset}/${partition.column}_${partition.value}/${file}` : `${dataset}/${file}`;
}
