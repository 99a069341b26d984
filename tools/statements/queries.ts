import type { FactRevision } from '../../domain/normalize/versions.ts';
import type { Db } from '../../db/client.ts';
import { headerColumns, unpackVersion, type VersionRow } from '../../db/statement-versions.ts';

/** One version with its figures, by id; null when there is none. */
export async function versionById(sql: Db, versionId: string): Promise<VersionRow | null> {
  const [row] = await sql<VersionRow[]>`
    SELECT ${headerColumns(sql)}, v.figures, v.calculation_evidence, v.unavailable_figures FROM statement_versions v
    WHERE v.statement_version_id = ${versionId}`;
  return row ? unpackVersion(row) : null;
}

export interface RevisionRow extends Pick<FactRevision, 'metric' | 'old_value' | 'new_value' | 'difference' | 'old_accession' | 'new_accession'> {
  statement_version_id: string;
}

export async function revisionsOf(sql: Db, versionIds: string[]): Promise<RevisionRow[]> {
  if (versionIds.length === 0) return [];
  return sql<RevisionRow[]>`
    SELECT statement_version_id, metric, old_value::text, new_value::text, difference::text, old_accession, new_accession
    FROM fact_revisions WHERE statement_version_id IN ${sql(versionIds)} ORDER BY metric`;
}
