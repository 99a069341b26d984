import { createHash } from 'node:crypto';

/**
 * A UUID-shaped id derived from what a row is (name-based, RFC 4122 version 5 layout over
 * SHA-256), so re-reading the same filing yields the same ids and a re-ingestion updates rows in
 * place instead of duplicating them. The parts are hashed as a JSON array with the kind first, so
 * no two different part lists share an input.
 */
export function stableUuid(kind: string, parts: ReadonlyArray<string | null>): string {
  const bytes = createHash('sha256').update(JSON.stringify([kind, ...parts]), 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
