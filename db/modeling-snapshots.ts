/**
 * The modeling snapshot state machine (queued -> building -> ready, or failed), the only module
 * that names modeling_snapshots' columns. A request inserts the snapshot row and enqueues its build
 * in one transaction, so of two identical requests exactly one enqueues; the build claims the row,
 * beats a heartbeat while it runs, and marks it ready only if it still owns it, so a build whose
 * worker was presumed dead can never overwrite the one that replaced it.
 */
import type { SnapshotRequest } from '../domain/modeling/snapshot.ts';
import { MODEL_VERSION } from '../domain/modeling/types.ts';
import type { Db, Sql } from './client.ts';
import { newerThanRead, visible } from './statement-versions.ts';

/** Task identifier of a snapshot build on the job queue (jobs/ registers the task under it). */
export const MODELING_BUILD_TASK = 'modeling_build_snapshot';
/** Attempts before a build is marked failed (a worker that died counts as one). */
export const MODELING_BUILD_MAX_ATTEMPTS = 5;

export type SnapshotStatus = 'queued' | 'building' | 'ready' | 'failed';

export interface SnapshotRecord {
  as_of_snapshot_id: string;
  snapshot_id: string;
  /** 1 for the first build of a snapshot_id, then one more for each rebuild */
  generation: number;
  as_of_date: string;
  ciks: string[];
  statement_types: string[];
  metrics_bundle: 'all' | 'tier1';
  model_version: number;
  status: SnapshotStatus;
  requested_at: string;
  started_at: string | null;
  heartbeat_at: string | null;
  built_at: string | null;
  worker_id: string | null;
  attempts: number;
  error: string | null;
  snapshot_hash: string | null;
  row_count: number | null;
}

async function enqueue(tx: Db, s: { as_of_snapshot_id: string; snapshot_id: string }): Promise<void> {
  await tx`SELECT graphile_worker.add_job(
    ${MODELING_BUILD_TASK}, json_build_object('as_of_snapshot_id', ${s.as_of_snapshot_id}::text),
    max_attempts := ${MODELING_BUILD_MAX_ATTEMPTS}, job_key := ${s.snapshot_id}, job_key_mode := 'preserve_run_at')`;
}

/**
 * The snapshot of a request (its latest generation): created and enqueued when new; re-enqueued
 * when its last build failed; when it is built but statement versions knowable at its date arrived
 * after the build, a next generation is created and enqueued (the built one keeps serving reads
 * until it is ready). Otherwise returned as it stands: never a second build of a live snapshot.
 */
export async function requestSnapshot(sql: Sql, snapshotId: string, r: SnapshotRequest): Promise<{ snapshot: SnapshotRecord; enqueued: boolean }> {
  return sql.begin(async (t) => {
    const tx = t;
    const insert = (generation: number) => tx<SnapshotRecord[]>`
      INSERT INTO modeling_snapshots (snapshot_id, generation, as_of_date, ciks, statement_types, metrics_bundle, model_version, status)
      VALUES (${snapshotId}, ${generation}, ${r.as_of_date}, ${r.ciks}, ${r.statement_types}, ${r.metrics_bundle}, ${MODEL_VERSION}, 'queued')
      ON CONFLICT (snapshot_id, generation) DO NOTHING
      RETURNING *`;
    const latest = async (lock: boolean) => {
      const [row] = await tx<SnapshotRecord[]>`
        SELECT * FROM modeling_snapshots WHERE snapshot_id = ${snapshotId} ORDER BY generation DESC LIMIT 1 ${lock ? tx`FOR UPDATE` : tx``}`;
      return row;
    };
    let current = await latest(false);
    if (!current) {
      const [created] = await insert(1);
      if (created) {
        await enqueue(tx, created);
        return { snapshot: created, enqueued: true };
      }
      current = (await latest(false))!; // a concurrent request created it
    }
    if (current.status === 'ready') {
      if (!(await arrivedAfterBuild(tx, current))) return { snapshot: current, enqueued: false };
      const [next] = await insert(current.generation + 1);
      if (!next) return { snapshot: (await latest(false))!, enqueued: false }; // a concurrent request created it
      await enqueue(tx, next);
      return { snapshot: next, enqueued: true };
    }
    if (current.status !== 'failed') return { snapshot: current, enqueued: false };
    // a failed build is requeued by exactly one request: the row lock serializes them
    const existing = (await latest(true))!;
    if (existing.status !== 'failed') return { snapshot: existing, enqueued: false };
    const [requeued] = await tx<SnapshotRecord[]>`
      UPDATE modeling_snapshots SET status = 'queued', error = NULL, attempts = 0, worker_id = NULL
      WHERE as_of_snapshot_id = ${existing.as_of_snapshot_id} RETURNING *`;
    await enqueue(tx, requeued!);
    return { snapshot: requeued!, enqueued: true };
  });
}

/** Whether a statement version knowable at the snapshot's date is newer than what its build read. */
async function arrivedAfterBuild(tx: Db, s: SnapshotRecord): Promise<boolean> {
  const [row] = await tx<{ late: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM statement_versions v
      WHERE v.cik IN ${tx(s.ciks)} AND ${visible(tx, s.as_of_date)}
        AND ${newerThanRead(tx, 'modeling_snapshot_versions', tx`r.as_of_snapshot_id = ${s.as_of_snapshot_id}`)}
    ) AS late`;
  return row?.late ?? false;
}

export async function snapshotById(sql: Db, asOfSnapshotId: string): Promise<SnapshotRecord | undefined> {
  const [row] = await sql<SnapshotRecord[]>`SELECT * FROM modeling_snapshots WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
  return row;
}

/** The latest generation of a snapshot identity. */
export async function snapshotByIdentity(sql: Db, snapshotId: string): Promise<SnapshotRecord | undefined> {
  const [row] = await sql<SnapshotRecord[]>`SELECT * FROM modeling_snapshots WHERE snapshot_id = ${snapshotId} ORDER BY generation DESC LIMIT 1`;
  return row;
}

/**
 * The built snapshot a company read with `as_of` uses: among the ready snapshots of that date, the
 * latest built one whose universe holds the company, else the latest built one (which then answers
 * an empty page); undefined when no snapshot of that date is built.
 */
export async function readySnapshotFor(sql: Db, asOfDate: string, cik: string): Promise<SnapshotRecord | undefined> {
  const [row] = await sql<SnapshotRecord[]>`
    SELECT * FROM modeling_snapshots
    WHERE as_of_date = ${asOfDate} AND status = 'ready'
    ORDER BY (${cik} = ANY (ciks)) DESC, built_at DESC, as_of_snapshot_id
    LIMIT 1`;
  return row;
}

/** Claims a snapshot for a build by `workerId`; undefined when it is already built (nothing to do). */
export async function claimBuild(sql: Db, asOfSnapshotId: string, workerId: string): Promise<SnapshotRecord | undefined> {
  const [row] = await sql<SnapshotRecord[]>`
    UPDATE modeling_snapshots
    SET status = 'building', worker_id = ${workerId}, started_at = now(), heartbeat_at = now(), attempts = attempts + 1, error = NULL
    WHERE as_of_snapshot_id = ${asOfSnapshotId} AND status <> 'ready'
    RETURNING *`;
  return row;
}

/** The running build is alive; false when another worker has taken the snapshot over. */
export async function beat(sql: Db, asOfSnapshotId: string, workerId: string): Promise<boolean> {
  const rows = await sql`
    UPDATE modeling_snapshots SET heartbeat_at = now()
    WHERE as_of_snapshot_id = ${asOfSnapshotId} AND worker_id = ${workerId} AND status = 'building'
    RETURNING 1`;
  return rows.length > 0;
}

/** Inside the build's write transaction: locks the snapshot and says whether `workerId` still owns it. */
export async function stillOwned(tx: Db, asOfSnapshotId: string, workerId: string): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }[]>`
    SELECT (status = 'building' AND worker_id = ${workerId}) AS ok FROM modeling_snapshots
    WHERE as_of_snapshot_id = ${asOfSnapshotId} FOR UPDATE`;
  return row?.ok ?? false;
}

export async function markReady(tx: Db, asOfSnapshotId: string, hash: string, rowCount: number): Promise<void> {
  await tx`
    UPDATE modeling_snapshots SET status = 'ready', built_at = clock_timestamp(), heartbeat_at = clock_timestamp(), snapshot_hash = ${hash}, row_count = ${rowCount}
    WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
}

/** A build attempt failed: back to queued for the queue's retry, or failed after the last attempt. */
export async function markFailed(sql: Db, asOfSnapshotId: string, workerId: string, message: string, final: boolean): Promise<void> {
  await sql`
    UPDATE modeling_snapshots SET status = ${final ? 'failed' : 'queued'}, error = ${message}, worker_id = NULL
    WHERE as_of_snapshot_id = ${asOfSnapshotId} AND worker_id = ${workerId} AND status = 'building'`;
}

/**
 * Builds whose heartbeat stopped `staleSeconds` ago: their worker died (or lost its database). Each
 * is released (back to queued, worker cleared) in the same statement, so of several sweeping
 * instances exactly one gets it; the caller then unlocks that worker's jobs on the queue.
 */
export async function releaseStaleBuilds(sql: Db, staleSeconds: number): Promise<{ as_of_snapshot_id: string; worker_id: string }[]> {
  return sql<{ as_of_snapshot_id: string; worker_id: string }[]>`
    UPDATE modeling_snapshots s SET status = 'queued', worker_id = NULL, error = 'the worker building it stopped responding'
    FROM (
      SELECT as_of_snapshot_id, worker_id FROM modeling_snapshots
      WHERE status = 'building' AND heartbeat_at < now() - make_interval(secs => ${staleSeconds})
      FOR UPDATE SKIP LOCKED
    ) stale
    WHERE s.as_of_snapshot_id = stale.as_of_snapshot_id
    RETURNING stale.as_of_snapshot_id, stale.worker_id`;
}
