/**
 * The extension point for artifacts a snapshot build derives from its own rows (the ai area's
 * deterministic narratives and embeddings go here). Each step runs inside the build's write
 * transaction, after the rows are written and before the snapshot is marked ready, so a snapshot
 * is never ready without its artifacts and a failed step fails (and retries) the whole build.
 * A step must be deterministic over `companies` (the same rows give the same artifacts), write only
 * its own tables keyed by `snapshot.as_of_snapshot_id`, and never read statement versions directly.
 */
import type { Db } from '../db/client.ts';
import type { SnapshotRecord } from '../db/modeling-snapshots.ts';
import type { CompanyModel, SnapshotRequest } from '../domain/modeling/snapshot.ts';
import { AI_EMBEDDINGS_STEP, AI_NARRATIVES_STEP } from './ai-artifacts.ts';

export interface ArtifactContext {
  /** the build's transaction */
  tx: Db;
  snapshot: SnapshotRecord;
  request: SnapshotRequest;
  /** every company's computed rows, in CIK order (the rows just written) */
  companies: readonly CompanyModel[];
  snapshot_hash: string;
}

export interface ArtifactStep {
  /** e.g. 'ai.narratives'; named in build errors */
  name: string;
  run(ctx: ArtifactContext): Promise<void>;
}

/** The artifact steps every build runs, in order: the ai area's narratives and embeddings. */
export const ARTIFACT_STEPS: readonly ArtifactStep[] = [AI_NARRATIVES_STEP, AI_EMBEDDINGS_STEP];
