import type { SplitEvidence } from '../domain/statements/stock-splits.ts';
import type { FactRevision } from '../domain/normalize/versions.ts';
import type { Db } from './client.ts';

/** Stored fact revisions and split recasts of statement versions, read by the restatement, statement and provenance areas. */

/** A stored fact revision: the domain's FactRevision with its id and the two versions it links. */
export interface FactRevisionRow extends FactRevision {
  fact_revision_id: string;
  statement_version_id: string;
  previous_version_id: string;
}

/** A figure a version recast for a stock split (db/migrations/000036_split_recasts.sql). */
export interface SplitRecastRow {
  statement_version_id: string;
  metric: string;
  old_value: string;
  new_value: string;
  old_accession: string;
  new_accession: string;
  split_ratio: string;
  split_date: string;
  split_evidence: SplitEvidence;
}

/** Every split recast of the given versions, by version then metric name. */
export async function splitRecastsOfVersions(sql: Db, versionIds: string[]): Promise<SplitRecastRow[]> {
  if (versionIds.length === 0) return [];
  return sql<SplitRecastRow[]>`
    SELECT statement_version_id, metric, old_value::text AS old_value, new_value::text AS new_value, old_accession, new_accession,
      split_ratio::text AS split_ratio, split_date::text AS split_date, split_evidence
    FROM split_recasts WHERE statement_version_id IN ${sql(versionIds)} ORDER BY statement_version_id, metric`;
}