import { checkAllowance, DAILY_BYTE_CAP, WINDOW_MS } from '../../domain/bulk-budget.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { DOWNLOAD_URL_LIFETIME_MS } from '../../domain/bulk/blob-store.ts';
import type { Sql } from '../../db/client.ts';

export interface Grant {
  url: string;
  expires_at: Date;
  /** an earlier URL still valid: handed out again, nothing counted */
  reused: boolean;
}

export interface GrantRequest {
  orgId: string;
  snapshotId: string;
  filePath: string;
  bytes: bigint | number;
  now: Date;
  cap?: bigint | number;
  makeUrl: (expiresAt: Date) => Promise<string>;
}

const GiB = 1024 ** 3;
const gib = (n: bigint) => `${(Number(n) / GiB).toFixed(2)} GiB`;

/**
 * Issues a download URL against the organization's rolling 24-hour allowance (spec "Limits").
 * One organization's grants are serialized by an advisory lock, so two concurrent requests cannot
 * both fit into the same remaining bytes.
 */
export async function issueGrant(sql: Sql, req: GrantRequest): Promise<Grant> {
  const now = req.now.toISOString();
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('bulk_grants:' || ${req.orgId}::text))`;
    const [live] = await tx<{ url: string; expires_at: string }[]>`
      SELECT url, expires_at FROM bulk_grants
      WHERE org_id = ${req.orgId} AND snapshot_id = ${req.snapshotId} AND file_path = ${req.filePath}
        AND expires_at > ${now}::timestamptz
      ORDER BY expires_at DESC LIMIT 1`;
    if (live) return { url: live.url, expires_at: new Date(live.expires_at), reused: true };

    const rows = await tx<{ bytes: string; issued_at: string }[]>`
      SELECT bytes::text, issued_at FROM bulk_grants
      WHERE org_id = ${req.orgId} AND issued_at > ${new Date(req.now.getTime() - WINDOW_MS).toISOString()}::timestamptz`;
    const cap = req.cap ?? DAILY_BYTE_CAP;
    const allowance = checkAllowance({
      issued: rows.map((r) => ({ bytes: BigInt(r.bytes), issuedAt: new Date(r.issued_at) })),
      requestedBytes: req.bytes,
      now: req.now,
      cap,
    });
    if (!allowance.ok) {
      const requested = BigInt(req.bytes);
      const details = { issued_bytes: Number(allowance.issuedBytes), requested_bytes: Number(requested), daily_byte_cap: Number(cap) };
      const message =
        allowance.retryAfterS === null
          ? `${req.filePath} (${gib(requested)}) is larger than the whole daily bulk download allowance of ${gib(BigInt(cap))}; it cannot be issued.`
          : `Daily bulk download allowance spent: ${gib(allowance.issuedBytes)} of ${gib(BigInt(cap))} issued in the last 24 hours and ${req.filePath} needs ${gib(requested)}. ` +
            `Retry after ${allowance.retryAfterS} s; asking again for a file whose URL is still valid costs nothing.`;
      throw new ServiceError('BULK_DOWNLOAD_BUDGET_EXCEEDED', message, details, { retryAfterS: allowance.retryAfterS });
    }

    const expiresAt = new Date(req.now.getTime() + DOWNLOAD_URL_LIFETIME_MS);
    const url = await req.makeUrl(expiresAt);
    await tx`
      INSERT INTO bulk_grants (org_id, snapshot_id, file_path, bytes, url, issued_at, expires_at)
      VALUES (${req.orgId}, ${req.snapshotId}, ${req.filePath}, ${String(req.bytes)}::bigint, ${url},
              ${now}::timestamptz, ${expiresAt.toISOString()}::timestamptz)`;
    return { url, expires_at: expiresAt, reused: false };
  });
}
