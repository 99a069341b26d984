import type { PublishedSnapshot } from '../db/bulk-snapshots.ts';
import { DATASETS, FORMAT_VERSION, type Dataset } from '../domain/bulk/datasets.ts';
import type { ManifestFile } from '../domain/bulk/manifest.ts';
import type { Only } from './dataset-queries.ts';

/**
 * What an incremental build does with one dataset: stream the rows of the partitions in `only`
 * (null: all of them), and carry every file of the other partitions forward from the previous
 * snapshot as it is, without reading their rows. A partition is read again when a transaction the
 * previous snapshot did not see wrote one of its rows (db/migrations/000049 logs them); its files
 * are then each still carried forward when their rows hash as before.
 */
export interface DatasetPlan {
  only: Only;
  carried: { file: ManifestFile; inputHash: string }[];
}

/** The input_hashes entry recording how a dataset's files were cut: a different cut reads it all. */
export const layoutKey = (dataset: Dataset) => `#layout/${dataset.dataset}`;
export const layoutOf = (dataset: Dataset, rowsPerFile: number) => `${dataset.schema_version}:${FORMAT_VERSION}:${rowsPerFile}`;

/**
 * `changed`: per dataset the partitions changed since the previous snapshot read the corpus, or
 * null when that is not known (a full build, or a previous snapshot from before the change log),
 * and then every partition is read.
 */
export function planDataset(dataset: Dataset, rowsPerFile: number, previous: PublishedSnapshot | null, changed: Map<string, Set<string>> | null): DatasetPlan {
  const all: DatasetPlan = { only: null, carried: [] };
  if (!previous || !changed) return all;
  if (previous.input_hashes[layoutKey(dataset)] !== layoutOf(dataset, rowsPerFile)) return all;
  const mine = changed.get(dataset.dataset) ?? new Set<string>();
  if (mine.has('*')) return all;
  const carried: DatasetPlan['carried'] = [];
  for (const file of previous.manifest.files) {
    if (file.dataset !== dataset.dataset || mine.has(file.partition?.value ?? '')) continue;
    const inputHash = previous.input_hashes[file.path];
    if (inputHash === undefined) return all;
    carried.push({ file, inputHash });
  }
  return { only: [...mine], carried };
}

/**
 * The manifest's file order: datasets in spec order, each dataset's partitions in ascending order
 * (the rows without one last, as the queries sort them), each partition's parts in order.
 */
export function sortFiles(files: ManifestFile[]): void {
  const rank = new Map(DATASETS.map((d, i) => [d.dataset, i]));
  const partition = (f: ManifestFile) => {
    const v = f.partition?.value ?? '';
    return v === '' ? Number.POSITIVE_INFINITY : Number(v);
  };
  files.sort((a, b) => rank.get(a.dataset)! - rank.get(b.dataset)! || partition(a) - partition(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
