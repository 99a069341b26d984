import { timingSafeEqual } from 'node:crypto';
import { hashApiKey, looksLikeApiKey } from '../domain/api-key.ts';
import type { Plan } from '../domain/plans.ts';
import { ServiceError } from '../domain/service-error.ts';
import type { Sql } from '../db/client.ts';
import { findKeyByHash } from '../db/keys.ts';

export interface AuthContext {
  keyId: string;
  keyPrefix: string;
  orgId: string;
  orgName: string;
  plan: Plan;
}

const MISSING = 'Send your API key in the X-Api-Key header. Create one with `npm run fds -- keys create --plan <plan> --org <name>`.';
const INVALID = 'The API key in X-Api-Key is not valid (unknown, malformed or revoked).';

/**
 * Resolves X-Api-Key to the organization and plan. A hit is cached for a short time so a hot key
 * costs one hash per request, not a query; a revoked key stops working within `ttlMs`.
 */
export class Authenticator {
  private readonly cache = new Map<string, { ctx: AuthContext; expiresMs: number }>();

  constructor(
    private readonly sql: Sql,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = 30_000,
  ) {}

  async authenticate(rawKey: string | undefined): Promise<AuthContext> {
    if (!rawKey) throw new ServiceError('UNAUTHORIZED', MISSING, { header: 'X-Api-Key' });
    if (!looksLikeApiKey(rawKey)) throw new ServiceError('UNAUTHORIZED', INVALID, { header: 'X-Api-Key' });
    const hash = hashApiKey(rawKey);
    const cacheKey = hash.toString('hex');
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expiresMs > this.now()) return hit.ctx;

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
    this.cache.set(cacheKey, { ctx, expiresMs: this.now() + this.ttlMs });
    return ctx;
  }
}
