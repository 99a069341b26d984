import { hash } from 'node:crypto';

/**
 * API keys: a typed prefix (`fds_sk_`, "secret key") and 256 random bits in base64url. Only the
 * SHA-256 of the whole key is stored; the prefix plus a few characters identify a key in lists.
 */
export const API_KEY_PREFIX = 'fds_sk_';
const KEY_SHAPE = /^fds_sk_[A-Za-z0-9_-]{43}$/;

export function looksLikeApiKey(raw: string): boolean {
  return KEY_SHAPE.test(raw);
}

export function hashApiKey(raw: string): Buffer {
  return hash('sha256', raw, 'buffer');
}

/** hashApiKey's bytes in hex. */
export function apiKeyDigest(raw: string): string {
  return hash('sha256', raw, 'hex');
}

/** What may be shown of a key after issuance: `fds_sk_AbCd…` */
export function displayPrefix(raw: string): string {
  return raw.slice(0, API_KEY_PREFIX.length + 4);
}
