import { type Db, json } from '../../db/client.ts';

/**
 * Deterministic-query manifests: written once per execution, never updated (a trigger refuses
 * UPDATE and DELETE), read back by replay token.
 */
export interface ManifestInsert {
  replay_token: string;
  query_type: string;
  parameters: Record<string, unknown>;
  as_of_date: string;
  statement_version_ids: string[];
  ciks: string[];
  code_version: string;
  catalog_version: string;
  result_hash: string;
  manifest: Record<string, unknown>;
  response_text: string;
  key_id: string | null;
  created_at: string;
}

export async function insertManifest(sql: Db, m: ManifestInsert): Promise<void> {
  await sql`
    INSERT INTO query_manifests (replay_token, query_type, parameters, as_of_date, statement_version_ids, ciks, code_version,
      catalog_version, result_hash, manifest, response_text, key_id, created_at)
    VALUES (${m.replay_token}, ${m.query_type}, ${json(sql, m.parameters)}, ${m.as_of_date}, ${m.statement_version_ids}::uuid[],
      ${m.ciks}::text[], ${m.code_version}, ${m.catalog_version}, ${m.result_hash}, ${json(sql, m.manifest)}, ${m.response_text},
      ${m.key_id}, ${m.created_at})`;
}

export async function manifestByToken(sql: Db, token: string): Promise<{ response_text: string; ciks: string[] } | null> {
  const [row] = await sql<{ response_text: string; ciks: string[] }[]>`
    SELECT response_text, ciks FROM query_manifests WHERE replay_token = ${token}`;
  return row ?? null;
}
