import { randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, displayPrefix, hashApiKey } from '../domain/api-key.ts';
import type { Plan } from '../domain/plans.ts';
import type { Db, Sql } from './client.ts';

export interface KeyRow {
  key_id: string;
  key_prefix: string;
  key_hash: Buffer;
  revoked_at: string | null;
  plan: Plan;
  org_id: string;
  org_name: string;
}

export async function findKeyByHash(sql: Db, hash: Buffer): Promise<KeyRow | undefined> {
  const [row] = await sql<KeyRow[]>`
    SELECT k.key_id, k.key_prefix, k.key_hash, k.revoked_at, k.plan, o.org_id, o.name AS org_name
    FROM api_keys k JOIN organizations o USING (org_id)
    WHERE k.key_hash = ${hash}`;
  return row;
}

export interface IssuedKey {
  /** the raw key: shown once, never stored */
  key: string;
  key_id: string;
  key_prefix: string;
  org_id: string;
  org_name: string;
  plan: Plan;
}

/** Creates the organization when it does not exist yet, then a key of the given plan for it. */
export async function createApiKey(sql: Sql, orgName: string, plan: Plan, label: string | null = null): Promise<IssuedKey> {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  const prefix = displayPrefix(key);
  return sql.begin(async (tx) => {
    const [org] = await tx<{ org_id: string }[]>`
      INSERT INTO organizations (name) VALUES (${orgName})
      ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
      RETURNING org_id`;
    const [row] = await tx<{ key_id: string }[]>`
      INSERT INTO api_keys (org_id, plan, key_prefix, key_hash, label)
      VALUES (${org!.org_id}, ${plan}, ${prefix}, ${hashApiKey(key)}, ${label})
      RETURNING key_id`;
    return { key, key_id: row!.key_id, key_prefix: prefix, org_id: org!.org_id, org_name: orgName, plan };
  });
}

export async function countKeys(sql: Db, orgName: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM api_keys k JOIN organizations o USING (org_id) WHERE o.name = ${orgName}`;
  return row?.n ?? 0;
}
