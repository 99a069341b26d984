/**
 * Narrowing helpers for SEC JSON. SEC files are untyped and occasionally re-serialized, so
 * parsers check shapes as they read and fail with the exact location (`where`) instead of
 * letting a wrong type travel into the database.
 */

/** A plain JSON object; arrays and null are rejected because SEC never uses them where we expect an object. */
export function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where}: expected an object`);
  return value as Record<string, unknown>;
}

/** A JSON array, or a located error (a column or list turning into something else means a changed format). */
export function asArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${where}: expected an array`);
  return value;
}

/** SEC writes "no value" as '', null or a missing key interchangeably; all become null. */
export function optionalString(value: unknown, where: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw new Error(`${where}: expected a string`);
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** For fields without which the record is meaningless (names, tickers, accessions). */
export function requiredString(value: unknown, where: string): string {
  const s = optionalString(value, where);
  if (s === null) throw new Error(`${where}: missing`);
  return s;
}

/** CIKs arrive as numbers (ticker files) or padded strings (submissions); both become 10 digits. */
export function cikFrom(value: unknown, where: string): string {
  const raw = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : optionalString(value, where) ?? '';
  if (!/^\d{1,10}$/.test(raw)) throw new Error(`${where}: not a CIK: ${JSON.stringify(value)}`);
  return raw.padStart(10, '0');
}
