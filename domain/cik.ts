/** CIKs are 10-digit zero-padded strings everywhere on the wire; callers may send them unpadded. */
export const CIK_INPUT_PATTERN = /^\d{1,10}$/;

export function padCik(raw: string | number): string {
  return String(raw).trim().padStart(10, '0');
}

/** Tickers are uppercase symbols; SEC files use '-' for share classes (BRK-B). */
export function normalizeTicker(raw: string): string {
  return raw.trim().toUpperCase().replace(/\./g, '-');
}
