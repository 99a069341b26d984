/**
 * The bulk download allowance (spec "Limits"): 20 GiB of issued URLs per organization in any
 * rolling 24 hours, a file's full size counting when its URL is issued. Byte counts are bigint so
 * sums stay exact whatever the column type hands us.
 */
export const DAILY_BYTE_CAP = 20 * 1024 ** 3;
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export interface IssuedBytes {
  bytes: bigint | number;
  issuedAt: Date;
}

export type Allowance =
  | { ok: true; issuedBytes: bigint }
  /** enough of the window's grants age out in retryAfterS seconds */
  | { ok: false; reason: 'window_full'; issuedBytes: bigint; retryAfterS: number }
  /** the file alone is larger than the cap: waiting never helps */
  | { ok: false; reason: 'exceeds_cap'; issuedBytes: bigint; retryAfterS: null };

export function toBytes(n: bigint | number): bigint {
  if (typeof n === 'number' && !Number.isSafeInteger(n)) throw new RangeError(`byte count ${n} is not a safe integer`);
  const b = BigInt(n);
  if (b < 0n) throw new RangeError(`byte count ${n} is negative`);
  return b;
}

export function checkAllowance(args: {
  issued: readonly IssuedBytes[];
  requestedBytes: bigint | number;
  now: Date;
  cap?: bigint | number;
}): Allowance {
  const nowMs = args.now.getTime();
  const cap = toBytes(args.cap ?? DAILY_BYTE_CAP);
  const requested = toBytes(args.requestedBytes);
  // a grant exactly 24 hours old has left the window
  const inWindow = args.issued
    .map((g) => ({ bytes: toBytes(g.bytes), ms: g.issuedAt.getTime() }))
    .filter((g) => g.ms > nowMs - WINDOW_MS && g.ms <= nowMs)
    .sort((a, b) => a.ms - b.ms);
  const issuedBytes = inWindow.reduce((sum, g) => sum + g.bytes, 0n);

  if (requested > cap) return { ok: false, reason: 'exceeds_cap', issuedBytes, retryAfterS: null };
  if (issuedBytes + requested <= cap) return { ok: true, issuedBytes };

  const mustFree = issuedBytes + requested - cap;
  let freed = 0n;
  for (const g of inWindow) {
    freed += g.bytes;
    if (freed >= mustFree) {
      return { ok: false, reason: 'window_full', issuedBytes, retryAfterS: Math.max(1, Math.ceil((g.ms + WINDOW_MS - nowMs) / 1000)) };
    }
  }
  // unreachable: freeing every grant leaves requested <= cap
  throw new Error('allowance arithmetic is inconsistent');
}
