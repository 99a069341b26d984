/**
 * The knowable-at rule, the one rule of point-in-time reads: a statement version (or a filing) is
 * known on a date when its SEC filing date is on or before that date. Acceptance time is not
 * used: filings accepted after 17:30 carry the next business day as their filing date.
 * db/statement-versions.ts states the same rule as a SQL fragment (`visible`).
 */
export function isKnowableAt(filingDate: string, asOf: string): boolean {
  return filingDate <= asOf;
}

/** The newest version (highest version_sequence) knowable on `asOf`, or null when none is. */
export function latestKnowable<T extends { filing_date: string; version_sequence: number }>(versions: Iterable<T>, asOf: string): T | null {
  let best: T | null = null;
  for (const v of versions) if (isKnowableAt(v.filing_date, asOf) && (!best || v.version_sequence > best.version_sequence)) best = v;
  return best;
}
