import type { CompanyEmbedding } from '../domain/ai/embedding.ts';
import type { Narrative } from '../domain/ai/narratives.ts';
import { type Db, json } from './client.ts';

/**
 * The AI artifacts of a modeling snapshot: narratives and embeddings written by the build's artifact
 * steps (tools/ai/queries.ts pages them for the /v1/ai routes).
 */

/** Replaces a snapshot's narratives with `narratives` (each list in serving order), inside the build transaction. */
export async function writeNarratives(tx: Db, asOfSnapshotId: string, cik: string, narratives: readonly Narrative[]): Promise<void> {
  if (narratives.length === 0) return;
  const ord = new Map<string, number>();
  const rows = narratives.map((n) => {
    const k = `${n.narrative_type}|${n.statement_type}`;
    const i = ord.get(k) ?? 0;
    ord.set(k, i + 1);
    return { narrative_type: n.narrative_type, statement_type: n.statement_type, ord: i, narrative_id: n.narrative_id, body: n };
  });
  await tx`
    INSERT INTO ai_narratives (as_of_snapshot_id, cik, narrative_type, statement_type, ord, narrative_id, body)
    SELECT ${asOfSnapshotId}, ${cik}, r.narrative_type, r.statement_type, r.ord, r.narrative_id, r.body
    FROM jsonb_to_recordset(${json(tx, rows)}::jsonb) AS r(narrative_type text, statement_type text, ord int, narrative_id uuid, body jsonb)`;
}

export async function writeEmbeddings(tx: Db, asOfSnapshotId: string, model: { model_id: string; model_version: string }, embeddings: readonly CompanyEmbedding[]): Promise<void> {
  if (embeddings.length === 0) return;
  const rows = embeddings.map((e) => ({ cik: e.cik, body: e }));
  await tx`
    INSERT INTO ai_embeddings (as_of_snapshot_id, cik, model_id, model_version, body)
    SELECT ${asOfSnapshotId}, r.cik, ${model.model_id}, ${model.model_version}, r.body
    FROM jsonb_to_recordset(${json(tx, rows)}::jsonb) AS r(cik text, body jsonb)`;
}

/** Removes what an abandoned attempt of the same build left. */
export async function clearArtifacts(tx: Db, asOfSnapshotId: string): Promise<void> {
  await tx`DELETE FROM ai_narratives WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
  await tx`DELETE FROM ai_embeddings WHERE as_of_snapshot_id = ${asOfSnapshotId}`;
}