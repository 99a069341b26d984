import type { Manifest } from '../../domain/bulk/manifest.ts';
import type { Db } from '../../db/client.ts';

export async function listPublished(sql: Db, page: { limit: number; offset: number }): Promise<{ total: number; rows: Manifest[] }> {
  const [count] = await sql<{ n: string }[]>`SELECT count(*)::text AS n FROM bulk_snapshots WHERE status = 'published'`;
  const rows = await sql<{ manifest: Manifest }[]>`
    SELECT manifest FROM bulk_snapshots WHERE status = 'published'
    ORDER BY snapshot_id DESC LIMIT ${page.limit} OFFSET ${page.offset}`;
  return { total: Number(count!.n), rows: rows.map((r) => r.manifest) };
}
