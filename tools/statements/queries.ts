import type { FactRevision } from '../../domain/normalize/versions.ts';
import type { StatementIdentity } from '../../domain/statements/key.ts';
import type { Db } from '../../db/client.ts';
import { headerColumns, latestVersionOf, unpackVersion, type VersionRow, visible } from '../../db/statement-versions.ts';
import { seen, type Visibility } from '../../db/statement-read.ts';

/**
 * The id of the latest version of one statement visible under `v`, null when none is: one index
 * lookup, for readers that keep prepared payloads per (immutable) version.
 */
export async function latestVersionId(sql: Db, id: StatementIdentity, v: Visibility): Promise<string | null> {
  const [row] = await sql<{ statement_version_id: string }[]>`${latestVersionOf(
    sql,
    sql`v.statement_version_id`,
    sql`v.cik = ${id.cik} AND v.statement_type = ${id.statement_type}
      AND v.fiscal_year = ${id.fiscal_year} AND v.fiscal_period = ${id.fiscal_period}
      AND ${seen(sql, v)}`,
  )}`;
  return row?.statement_version_id ?? null;
}

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
