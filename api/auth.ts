import { timingSafeEqual } from 'node:crypto';
import { apiKeyDigest, looksLikeApiKey } from '../domain/api-key.ts';
import type { Plan } from '../domain/plans.ts';
import { ServiceError } from '../domain/service-error.ts';
import type { Db } from '../db/client.ts';
import { findKeyByHash } from '../db/keys.ts';
import type { ChangeFeed } from '../db/change-feed.ts';

export interface AuthContext {
  keyId: string;
  keyPrefix: string;
  orgId: string;
  orgName: string;
  plan: Plan;
}

const MISSING = 'Send your API key in the X-Api-Key header. Create one with `npm run fds -- keys create --plan <plan> --org <name>`.';
const INVALID = 'The API key in X-Api-Key is not valid (unknown, malformed or revoked).';

/** Where a caller may have put a key instead of X-Api-Key; such a key is never read. */
export type MisplacedKey = 'query' | 'bearer' | 'cookie';

const MISPLACED: Record<MisplacedKey, string> = {
  query: 'a query parameter (api_key, key)',
  bearer: 'an Authorization bearer token',
  cookie: 'a cookie',
};

/** The 401 for a request with no X-Api-Key, naming the place a key was sent instead (never accepted there). */
export function missingKeyError(misplaced: MisplacedKey | null = null): ServiceError {
  if (misplaced === null) return new ServiceError('UNAUTHORIZED', MISSING, { header: 'X-Api-Key' });
  return new ServiceError(
    'UNAUTHORIZED',
    `API keys are read only from the X-Api-Key header; a key sent as ${MISPLACED[misplaced]} is not accepted. Send it as X-Api-Key: <key>.`,
    { header: 'X-Api-Key', misplaced },
  );
}

/**
 * Resolves X-Api-Key to the organization and plan. A hit is cached so a hot key costs one hash per
 * request, not a query. A change to api_keys or organizations committed by any instance (a
 * revocation, a plan change) drops every cached key as soon as its notification arrives
 * (db/change-feed.ts); `ttlMs` bounds a hit's age should notifications stop, so a revoked key
 * stops working within seconds even then.
 */
export class Authenticator {
  private readonly cache = new Map<string, { ctx: AuthContext; expiresMs: number; generation: string | null }>();

  constructor(
    private readonly sql: Db,
    private readonly now: () => number = Date.now,
    private readonly changes: ChangeFeed | null = null,
    private readonly ttlMs = 10_000,
  ) {}

  /** Both tables a key's answer comes from; null while the feed is not live. */
  private generation(): string | null {
    if (!this.changes) return null;
    const k = this.changes.generation('api_keys');
    const o = this.changes.generation('organizations');
    return k === null || o === null ? null : `${k}/${o}`;
  }

  async authenticate(rawKey: string | undefined, misplaced: MisplacedKey | null = null): Promise<AuthContext> {
    if (!rawKey) throw missingKeyError(misplaced);
    if (!looksLikeApiKey(rawKey)) throw new ServiceError('UNAUTHORIZED', INVALID, { header: 'X-Api-Key' });
    const cacheKey = apiKeyDigest(rawKey);
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expiresMs > this.now() && hit.generation === this.generation()) return hit.ctx;

    const hash = Buffer.from(cacheKey, 'hex');
    const generation = this.generation();
    const row = await findKeyByHash(this.sql, hash);
    // The lookup is by an indexed hash; the comparison that decides is constant-time anyway.
    if (!row || row.key_hash.length !== hash.length || !timingSafeEqual(row.key_hash, hash) || row.revoked_at) {
      this.cache.delete(cacheKey);
      throw new ServiceError('UNAUTHORIZED', INVALID, { header: 'X-Api-Key' });
    }
    const ctx: AuthContext = {
      keyId: row.key_id,
      keyPrefix: row.key_prefix,
      orgId: row.org_id,
      orgName: row.org_name,
      plan: row.plan,
    };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, { ctx, expiresMs: this.now() + this.ttlMs, generation });
    return ctx;
  }
}
