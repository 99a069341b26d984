import { type Db, json, type Sql } from './client.ts';

/** A held company of a Free-plan key (the spec's coverage slot). */
export interface SlotRow {
  cik: string;
  claimed_at: string;
  last_queried_at: string;
  expires_at: string;
}

export interface SlotPolicy {
  /** companies a key may hold at once */
  slots: number;
  /** days a slot lives after its last query */
  window_days: number;
}

export type ClaimResult =
  | { ok: true }
  /** nothing was claimed or refreshed; `held` is the key's live slots, oldest first */
  | { ok: false; refused: string[]; held: string[] };

const DAY_MS = 86_400_000;

/**
 * Claims or refreshes the slots of `ciks` for one key, in one transaction, all or nothing.
 *
 * The key's row in api_keys is locked first (FOR NO KEY UPDATE: it conflicts with itself, not with
 * foreign-key checks), so admits of one key run one after another across connections and
 * processes: 26 simultaneous requests for new companies with 24 slots held see 24, then 25, and
 * exactly one of them claims. Expired slots are deleted here, under the lock, before counting.
 *
 * A request whose new companies do not all fit claims none of them and refreshes nothing (it was
 * not served, so nothing was queried); `refused` is every requested company not already held.
 */
export async function claimSlots(sql: Sql, keyId: string, ciks: string[], now: Date, policy: SlotPolicy): Promise<ClaimResult> {
  const wanted = [...new Set(ciks)];
  const at = now.toISOString();
  const expires = new Date(now.getTime() + policy.window_days * DAY_MS).toISOString();
  return sql.begin(async (tx) => {
    await tx`SELECT 1 FROM api_keys WHERE key_id = ${keyId} FOR NO KEY UPDATE`;
    await tx`DELETE FROM coverage_slots WHERE key_id = ${keyId} AND expires_at <= ${at}::timestamptz`;
    const held = (
      await tx<{ cik: string }[]>`SELECT cik FROM coverage_slots WHERE key_id = ${keyId} ORDER BY claimed_at, cik`
    ).map((r) => r.cik);
    const heldSet = new Set(held);
    const fresh = wanted.filter((c) => !heldSet.has(c));
    if (held.length + fresh.length > policy.slots) return { ok: false as const, refused: fresh, held };
    await tx`
      INSERT INTO coverage_slots (key_id, cik, claimed_at, last_queried_at, expires_at)
      SELECT ${keyId}, c.cik, ${at}::timestamptz, ${at}::timestamptz, ${expires}::timestamptz
      FROM jsonb_array_elements_text(${json(tx, wanted)}::jsonb) AS c(cik)
      ON CONFLICT (key_id, cik) DO UPDATE
        SET last_queried_at = EXCLUDED.last_queried_at, expires_at = EXCLUDED.expires_at`;
    return { ok: true as const };
  });
}

/** The key's live slots (expires_at after `now`), oldest claim first. */
export async function heldSlots(sql: Db, keyId: string, now: Date): Promise<SlotRow[]> {
  return sql<SlotRow[]>`
    SELECT cik, claimed_at, last_queried_at, expires_at
    FROM coverage_slots
    WHERE key_id = ${keyId} AND expires_at > ${now.toISOString()}::timestamptz
    ORDER BY claimed_at, cik`;
}