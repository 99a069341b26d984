/**
 * The snapshot build task. A job (payload: as_of_snapshot_id, job key: snapshot_id) claims the
 * snapshot, reads the versions knowable at the end of its as-of date in one query, computes every
 * company's rows (domain/modeling/), and writes them, runs the artifact steps and marks the snapshot
 * ready in one transaction, only while it still owns the snapshot. A heartbeat runs meanwhile; when
 * it stops (the worker died), `sweepStaleBuilds` on any instance hands the job to another worker,
 * and the queue retries it there.
 */
import type { Task } from 'graphile-worker';
import { randomUUID } from 'node:crypto';
import type { Db, Sql } from '../db/client.ts';
import { clearSnapshotRows, companyIds, versionsAsOf, writeCompanyRows } from '../db/modeling-rows.ts';
import { shareFigureBases, stockSplitsOfCompanies } from '../db/stock-splits.ts';
import { beat, claimBuild, markFailed, markReady, releaseStaleBuilds, stillOwned, type SnapshotRecord } from '../db/modeling-snapshots.ts';
import { modelCompany, SnapshotHasher, type CompanyModel, type SnapshotRequest } from '../domain/modeling/snapshot.ts';
import type { StatementType } from '../domain/catalog/index.ts';
import type { ModelVersion } from '../domain/modeling/types.ts';
import { ARTIFACT_STEPS, type ArtifactStep } from './modeling-artifacts.ts';

export interface BuildOutcome {
  status: 'built' | 'already_built' | 'taken_over';
  snapshot_hash: string | null;
  rows: number;
}

/** What a computation reads of a snapshot record. */
type SnapshotIdentity = Pick<SnapshotRecord, 'snapshot_id' | 'ciks' | 'as_of_date' | 'statement_types' | 'metrics_bundle'>;

function requestOf(s: SnapshotIdentity): SnapshotRequest {
  return { ciks: s.ciks, as_of_date: s.as_of_date, statement_types: s.statement_types as StatementType[], metrics_bundle: s.metrics_bundle };
}

/** Computes every company's rows and snapshot_hash from the versions read. Pure apart from the read. */
export async function computeSnapshot(sql: Db, s: SnapshotIdentity): Promise<{ companies: CompanyModel[]; versions: Map<string, ModelVersion[]>; hash: string }> {
  const request = requestOf(s);
  const all = await versionsAsOf(sql, s.ciks, s.as_of_date, s.metrics_bundle === 'tier1');
  const ids = await companyIds(sql, s.ciks);
  const splits = await stockSplitsOfCompanies(sql, s.ciks);
  const bases = await shareBasesOf(sql, all);
  const versions = new Map<string, ModelVersion[]>(s.ciks.map((c) => [c, []]));
  for (const v of all) {
    const b = bases.get(v.statement_version_id);
    versions.get(v.cik)?.push(b ? { ...v, share_bases: Object.fromEntries(b) } : v);
  }
  const hasher = new SnapshotHasher(request);
  const companies: CompanyModel[] = [];
  for (const cik of [...s.ciks].sort()) {
    const model = modelCompany(s.snapshot_id, request, cik, ids.get(cik) ?? null, versions.get(cik)!, splits.get(cik) ?? []);
    hasher.company(cik, versions.get(cik)!, model);
    companies.push(model);
  }
  return { companies, versions, hash: hasher.digest() };
}

/** The split basis (source filing date) of every per-share figure and share count of `versions`, read in chunks. */
async function shareBasesOf(sql: Db, versions: readonly ModelVersion[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  const ids = versions.map((v) => v.statement_version_id);
  for (let i = 0; i < ids.length; i += BASIS_CHUNK) for (const [id, m] of await shareFigureBases(sql, ids.slice(i, i + BASIS_CHUNK))) out.set(id, m);
  return out;
}

const BASIS_CHUNK = 5000;

/** Runs one build of a claimed snapshot for `workerId`. */
export async function buildClaimed(sql: Sql, s: SnapshotRecord, workerId: string, steps: readonly ArtifactStep[] = ARTIFACT_STEPS): Promise<BuildOutcome> {
  const { companies, versions, hash } = await computeSnapshot(sql, s);
  try {
    return await writeBuild(sql, s, workerId, steps, companies, versions, hash);
  } catch (err) {
    if (err instanceof TakenOver) return { status: 'taken_over', snapshot_hash: null, rows: 0 };
    throw err;
  }
}

/** The snapshot went to another worker while this one computed; nothing of this build may land. */
class TakenOver extends Error {}

async function writeBuild(
  sql: Sql,
  s: SnapshotRecord,
  workerId: string,
  steps: readonly ArtifactStep[],
  companies: CompanyModel[],
  versions: Map<string, ModelVersion[]>,
  hash: string,
): Promise<BuildOutcome> {
  return sql.begin(async (t) => {
    const tx = t;
    // rows first, the ownership check (a row lock on the snapshot) last: waiting on the row tables
    // never holds the snapshot row, so heartbeats and takeovers go on meanwhile
    await clearSnapshotRows(tx, s.as_of_snapshot_id);
    let offset = 0;
    for (const c of companies) {
      await writeCompanyRows(tx, s.as_of_snapshot_id, versions.get(c.cik)!, c.rows, c.flat, offset);
      offset += c.flat.length;
    }
    for (const step of steps) await step.run({ tx, snapshot: s, request: requestOf(s), companies, snapshot_hash: hash });
    if (!(await stillOwned(tx, s.as_of_snapshot_id, workerId))) throw new TakenOver(s.snapshot_id);
    await markReady(tx, s.as_of_snapshot_id, hash, offset);
    return { status: 'built', snapshot_hash: hash, rows: offset } as BuildOutcome;
  });
}

/** The graphile-worker task: claim, heartbeat, build; a failure is recorded and rethrown for the queue's retry. */
export function modelingBuildTask(sql: Sql, options: { heartbeatMs: number; log: (m: string) => void }): Task {
  return async (payload, helpers) => {
    const id = (payload as { as_of_snapshot_id?: string } | null)?.as_of_snapshot_id;
    if (!id) throw new Error('modeling build job without as_of_snapshot_id');
    const workerId = helpers.job.locked_by ?? `worker-${randomUUID()}`;
    const snapshot = await claimBuild(sql, id, workerId);
    if (!snapshot) return; // already built, or removed
    const timer = setInterval(() => void beat(sql, id, workerId).catch(() => {}), options.heartbeatMs);
    try {
      const r = await buildClaimed(sql, snapshot, workerId);
      if (r.status === 'built') options.log(`modeling snapshot ${snapshot.snapshot_id} built: ${r.rows} rows, hash ${r.snapshot_hash!.slice(0, 12)}`);
    } catch (err) {
      const final = helpers.job.attempts >= helpers.job.max_attempts;
      await markFailed(sql, id, workerId, (err as Error).message, final).catch(() => {});
      throw err;
    } finally {
      clearInterval(timer);
    }
  };
}

/**
 * Hands the builds of dead workers on: snapshots whose heartbeat is older than `staleSeconds` go
 * back to queued and their worker's jobs are unlocked, so any instance's worker picks them up.
 */
export async function sweepStaleBuilds(sql: Db, staleSeconds: number, unlock: (workerIds: string[]) => Promise<void>): Promise<number> {
  const released = await releaseStaleBuilds(sql, staleSeconds);
  const workers = [...new Set(released.map((r) => r.worker_id))];
  if (workers.length > 0) await unlock(workers);
  return released.length;
}
