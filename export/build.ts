import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Db, Sql } from '../db/client.ts';
import { exportParts, importSnapshot, type Only, STREAM_LANES, STREAM_ORDER, tuneExportTransaction } from './dataset-queries.ts';
import type { PlannedFile } from './csv-plan.ts';
import { CsvSlots, PartCsvFiles } from './csv-slots.ts';
import {
  abandonedBuilds,
  BUILD_LOCK,
  changedPartitions,
  expireBeyond,
  failBuild,
  lastFullBuildAt,
  latestPublished,
  publishSnapshot,
  readSnapshotOf,
  startBuild,
  type PublishedSnapshot,
} from '../db/bulk-snapshots.ts';
import { blobKey, type BlobStore } from '../domain/bulk/blob-store.ts';
import { DATASETS, FORMAT_VERSION, type Dataset, type DatasetName } from '../domain/bulk/datasets.ts';
import { partPath, snapshotIdOf, type Manifest, type ManifestDataset, type ManifestFile } from '../domain/bulk/manifest.ts';
import { layoutKey, layoutOf, planDataset, sortFiles, type DatasetPlan } from './incremental.ts';
import { ParquetWriter } from './parquet-writer.ts';

/** Spec "Limits": the seven most recent snapshots are kept. */
export const SNAPSHOTS_KEPT = 7;
/** A full rebuild at least weekly: an hour of slack so a daily 04:30 run that starts late still counts. */
export const FULL_REBUILD_EVERY_MS = 7 * 24 * 3600_000 - 3600_000;

export interface BuildDeps {
  sql: Sql;
  store: BlobStore;
  /** local scratch space for files before upload */
  stagingDir: string;
  now: () => Date;
}

export interface BuildOptions {
  /** rewrite every file (otherwise: incremental, unless the last full build is a week old) */
  full?: boolean;
  /** override rows per part file (tests split small partitions this way) */
  rowsPerFile?: Partial<Record<DatasetName, number>>;
  onProgress?: (p: BuildProgress) => void;
}

export interface BuildProgress {
  snapshot_id: string;
  dataset: DatasetName;
  /** datasets whose files were all finished before this report, of six */
  datasets_done: number;
  rows: number;
  files: number;
  carried_forward: number;
}

export interface BuildResult {
  manifest: Manifest;
  expired: string[];
  /** files copied from the previous snapshot unchanged */
  carried_forward: number;
  /** per dataset, the partitions whose rows the build read (null: all of them; the rest were carried forward unread) */
  read: Record<DatasetName, Only>;
  ms: number;
}

/**
 * DuckDB connections writing part files once every row has streamed (one while they stream,
 * export/parquet-writer.ts): the build's two PostgreSQL backends are done by then, and on the corpus
 * about half of DuckDB's work is still queued.
 */
export const TAIL_CONNECTIONS = 2;

/** Another build holds the lock; the caller should try later. */
export class BuildBusyError extends Error {}

/**
 * One snapshot build: reads the corpus from one repeatable-read snapshot (so the six datasets
 * agree with each other; two transactions share it, see below), writes each changed part file, carries unchanged ones forward from the
 * previous snapshot by a store-side copy (byte-identical, same checksum, `changed: false`), and
 * publishes by one UPDATE. Until then nothing is visible; a failure marks the build failed and
 * deletes what it uploaded, so the previous snapshot stays latest. Afterwards snapshots beyond
 * the seven newest expire and their files go. An incremental build reads only the partitions written
 * since the previous snapshot read the corpus and carries the others' files forward unread
 * (export/incremental.ts).
 */
export async function buildSnapshot(deps: BuildDeps, options: BuildOptions = {}): Promise<BuildResult> {
  const { sql, store } = deps;
  const lock = await sql.reserve();
  try {
    const [got] = await lock<{ ok: boolean }[]>`SELECT pg_try_advisory_lock(${BUILD_LOCK}) AS ok`;
    if (!got!.ok) throw new BuildBusyError('another export build is running; this one did not start');
    try {
      for (const id of await abandonedBuilds(sql)) await store.deletePrefix(`${id}/`);
      await clearStaging(deps.stagingDir);
      return await buildLocked(deps, options);
    } finally {
      await lock`SELECT pg_advisory_unlock(${BUILD_LOCK})`;
    }
  } finally {
    lock.release();
  }
}

/**
 * The staging directory's scratch space that builds share, one after another: the part CSVs and
 * DuckDB's batch directories, overwritten in place by each build and cut to nothing at its end.
 * Creating a file costs the file system far more than writing one (here, ext4 scanning past
 * recently deleted inodes for each new one), and a build goes through ~90 CSVs and batch
 * directories, so they are made once rather than by every build.
 */
export const SCRATCH = 'scratch';

/**
 * What killed builds left in the staging directory (their build.duckdb and part files), except
 * the shared scratch directory, whose files every build overwrites and cuts to length. Runs under
 * the build lock, so no live build of any instance sharing the database is writing there.
 */
export async function clearStaging(stagingDir: string): Promise<string[]> {
  const left = await readdir(stagingDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const removed = left.filter((name) => name !== SCRATCH);
  for (const name of removed) await rm(path.join(stagingDir, name), { recursive: true, force: true });
  return removed;
}

async function buildLocked(deps: BuildDeps, options: BuildOptions): Promise<BuildResult> {
  const { sql, store, now } = deps;
  const startedAt = now();
  const snapshotId = snapshotIdOf(startedAt);
  const previous = await latestPublished(sql);
  if (previous && previous.snapshot_id >= snapshotId) {
    throw new Error(`snapshot ${previous.snapshot_id} is not older than this build's ${snapshotId}; builds are at most one per second`);
  }
  const lastFull = await lastFullBuildAt(sql);
  const full = Boolean(options.full) || !previous || !lastFull || startedAt.getTime() - lastFull.getTime() >= FULL_REBUILD_EVERY_MS;
  const kind = full ? 'full' : 'incremental';
  await startBuild(sql, { snapshotId, kind, previousId: previous?.snapshot_id ?? null, startedAt });

  const work = path.join(deps.stagingDir, snapshotId);
  const scratch = path.join(deps.stagingDir, SCRATCH);
  await mkdir(work, { recursive: true });
  await mkdir(scratch, { recursive: true });
  // DuckDB (its module takes a few hundred milliseconds to load, then ~10-25 ms to start) opens for
  // the first part to write: an incremental build that writes nothing never loads it, and a full
  // build opens it at once, while the transaction opens and the first rows stream
  const duck: { opened: Promise<ParquetWriter> | null; streamsDone: boolean } = { opened: null, streamsDone: false };
  const writer = () => {
    if (!duck.opened) {
      duck.opened = ParquetWriter.open(path.join(work, 'duckdb-spill'), scratch, { tailConnections: TAIL_CONNECTIONS }).then((w) => {
        if (duck.streamsDone) w.streamsDone();
        return w;
      });
      duck.opened.catch(() => {}); // awaited by the first part, and at the end
    }
    return duck.opened;
  };
  if (full) void writer();
  const slots = new CsvSlots(scratch);
  try {
    const files: ManifestFile[] = [];
    const inputHashes: Record<string, string> = {};
    let carried = 0;
    let readAt = '';
    let readSnapshot = '';
    // every part file's finish (write or carry forward)
    const finishing: Promise<ManifestFile>[] = [];
    // per dataset: its files reported, in file order
    const reported: Promise<void>[] = [];
    let failed = false;
    let datasetsDone = 0;
    const rowsPerFile = (d: Dataset) => options.rowsPerFile?.[d.dataset] ?? d.rows_per_file;
    for (const d of DATASETS) inputHashes[layoutKey(d)] = layoutOf(d, rowsPerFile(d));
    // per dataset: what to stream and what to carry forward unread (all streamed until known)
    const plans = new Map<DatasetName, DatasetPlan>();
    // Streams datasets one after another on one transaction; each part file is finished (written
    // through DuckDB, or carried forward) as soon as its rows are complete, while the next stream.
    const stream = async (tx: Db, names: readonly DatasetName[]) => {
      for (const name of names) {
        if (failed) break;
        const dataset = DATASETS.find((d) => d.dataset === name)!;
        const ctx: FileContext = { dataset, snapshotId, previous, full, work, writer, store };
        const progress = (f: ManifestFile) => {
          files.push(f);
          if (!f.changed && !full) carried++;
          const mine = files.filter((x) => x.dataset === dataset.dataset);
          options.onProgress?.({
            snapshot_id: snapshotId,
            dataset: dataset.dataset,
            datasets_done: datasetsDone,
            rows: mine.reduce((n, x) => n + x.rows, 0),
            files: mine.length,
            carried_forward: carried,
          });
        };
        let inOrder: Promise<void> = Promise.resolve();
        const plan = plans.get(name) ?? { only: null, carried: [] };
        for (const { file, inputHash } of plan.carried) {
          inputHashes[file.path] = inputHash;
          const p = store.copy(blobKey(previous!.snapshot_id, file.path), blobKey(snapshotId, file.path)).then((): ManifestFile => ({ ...file, changed: false }));
          p.catch(() => (failed = true));
          finishing.push(p);
          inOrder = inOrder.then(() => p).then(progress);
          inOrder.catch(() => {});
        }
        const sink = new PartCsvFiles(slots, (planned, slot) => {
          const p = finishFile(ctx, planned, slot.csv, inputHashes).finally(() => slots.give(slot));
          p.catch(() => (failed = true));
          finishing.push(p);
          // reported in file order, each as soon as it and those before it are done
          inOrder = inOrder.then(() => p).then(progress);
          inOrder.catch(() => {}); // awaited after the transaction; a failure surfaces there
        });
        try {
          if (plan.only === null || plan.only.length > 0) await exportParts(tx, dataset.dataset, rowsPerFile(dataset), sink, plan.only);
        } catch (err) {
          failed = true;
          throw err;
        } finally {
          sink.release();
        }
        const done = inOrder.then(() => void datasetsDone++);
        done.catch(() => {});
        reported.push(done);
      }
    };
    const lanes = streamLanes(sql);
    await sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
      const [t] = await tx<{ at: string; snapshot: string }[]>`SELECT now() AS at, ${lanes.length > 1 ? tx`pg_export_snapshot()` : tx`''`} AS snapshot`;
      readAt = new Date(t!.at).toISOString();
      readSnapshot = await readSnapshotOf(tx);
      // an incremental build reads again only the partitions changed since the previous snapshot
      const changed = !full && previous?.read_snapshot ? await changedPartitions(tx, previous.read_snapshot) : null;
      for (const d of DATASETS) plans.set(d.dataset, planDataset(d, rowsPerFile(d), full ? null : previous, changed));
      await tuneExportTransaction(tx);
      try {
        // The largest dataset streams on this transaction, the others on a second one that imports
        // its snapshot (SET TRANSACTION SNAPSHOT: both read exactly the same committed rows, as
        // pg_dump --jobs does), so two PostgreSQL backends work at once; in each lane the largest
        // goes first, so DuckDB writes its parts while the smaller ones stream.
        const ran = await Promise.allSettled(
          lanes.map((names, i) =>
            i === 0
              ? stream(tx, names)
              : sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (other) => {
                  await importSnapshot(other, t!.snapshot);
                  await tuneExportTransaction(other);
                  await stream(other, names);
                }),
          ),
        );
        // every row is in: PostgreSQL's cores are free for DuckDB's queued parts
        duck.streamsDone = true;
        void duck.opened?.then((w) => w.streamsDone(), () => {});
        for (const r of ran) if (r.status === 'rejected') throw r.reason;
      } finally {
        // nothing may still be writing into the staging directory when the build ends, failure or not
        await Promise.allSettled(finishing);
      }
    });
    await Promise.all(reported);
    // the manifest lists the datasets in their spec order, each dataset's files in file order
    sortFiles(files);
    const manifest = manifestOf(snapshotId, kind, previous, readAt, now(), files);
    await publishSnapshot(sql, manifest, inputHashes, readSnapshot);
    const expired = await expireBeyond(sql, SNAPSHOTS_KEPT, now());
    for (const id of expired) await store.deletePrefix(`${id}/`);
    const read = Object.fromEntries(DATASETS.map((d) => [d.dataset, plans.get(d.dataset)?.only ?? null])) as Record<DatasetName, Only>;
    return { manifest, expired, carried_forward: carried, read, ms: now().getTime() - startedAt.getTime() };
  } catch (err) {
    await failBuild(sql, snapshotId, err instanceof Error ? err.message : String(err));
    await store.deletePrefix(`${snapshotId}/`).catch(() => {});
    throw err;
  } finally {
    (await duck.opened?.catch(() => null))?.close();
    // the scratch files stay for the next build, empty (best effort: its first use cuts each anyway)
    await Promise.all([rm(work, { recursive: true, force: true }), slots.empty().catch(() => {})]);
  }
}

/**
 * The datasets each concurrent transaction streams: two lanes when the pool has room for a second
 * reading transaction beside the build lock's connection and the first one (and a connection to
 * spare for the service's other work), else all six on one.
 */
function streamLanes(sql: Sql): readonly (readonly DatasetName[])[] {
  const max = sql.options.max ?? 1;
  return max >= 4 ? STREAM_LANES : [STREAM_ORDER];
}

interface FileContext {
  dataset: Dataset;
  snapshotId: string;
  previous: PublishedSnapshot | null;
  full: boolean;
  work: string;
  writer: () => Promise<ParquetWriter>;
  store: BlobStore;
}

/**
 * One part file, once its rows are complete: carried forward from the previous snapshot when its
 * rows are unchanged (incremental builds), else written as Parquet from its CSV and put into the
 * store (a local store takes the staged file over as it is, so it is removed, never rewritten).
 */
async function finishFile(ctx: FileContext, planned: PlannedFile, csv: string, inputHashes: Record<string, string>): Promise<ManifestFile> {
  const { dataset, previous } = ctx;
  const partition = dataset.partition_column ? { column: dataset.partition_column, value: planned.partition } : null;
  const filePath = partPath(dataset.dataset, partition, planned.part);
  // the hash also covers the layout versions, so a schema change never carries an old file forward
  const inputHash = createHash('sha256').update(`${dataset.schema_version}:${FORMAT_VERSION}:${planned.input_hash}`).digest('hex');
  inputHashes[filePath] = inputHash;
  const unchanged = previous !== null && previous.input_hashes[filePath] === inputHash;
  const before = unchanged ? previous.manifest.files.find((f) => f.path === filePath) : undefined;
  if (before && !ctx.full) {
    await ctx.store.copy(blobKey(previous!.snapshot_id, filePath), blobKey(ctx.snapshotId, filePath));
    return { ...before, changed: false };
  }
  const local = path.join(ctx.work, `${filePath.replaceAll('/', '.')}`);
  await (await ctx.writer()).write(dataset, csv, local, planned.rows);
  // a part file is a few megabytes at most (rows_per_file rows, compressed): read once, whole, for
  // its checksum and size
  const bytes = await readFile(local);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const size = bytes.length;
  await ctx.store.put(blobKey(ctx.snapshotId, filePath), local);
  await rm(local);
  return { path: filePath, dataset: dataset.dataset, partition, rows: planned.rows, bytes: size, sha256, changed: !before };
}

function manifestOf(
  snapshotId: string,
  kind: 'full' | 'incremental',
  previous: PublishedSnapshot | null,
  readAt: string,
  publishedAt: Date,
  files: ManifestFile[],
): Manifest {
  const datasets: ManifestDataset[] = DATASETS.map((d) => {
    const mine = files.filter((f) => f.dataset === d.dataset);
    return {
      dataset: d.dataset,
      schema_version: d.schema_version,
      rows: mine.reduce((n, f) => n + f.rows, 0),
      bytes: mine.reduce((n, f) => n + f.bytes, 0),
      files: mine.length,
      changed_files: mine.filter((f) => f.changed).length,
    };
  });
  return {
    snapshot_id: snapshotId,
    build_kind: kind,
    format_version: FORMAT_VERSION,
    previous_snapshot_id: previous?.snapshot_id ?? null,
    published_at: publishedAt.toISOString(),
    read_at: readAt,
    rows: datasets.reduce((n, d) => n + d.rows, 0),
    bytes: datasets.reduce((n, d) => n + d.bytes, 0),
    datasets,
    files,
  };
}
