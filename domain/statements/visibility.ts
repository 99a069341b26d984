import { statementKey } from './key.ts';

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

/**
 * The newest version (highest version_sequence) of each statement among `versions`, keyed by
 * statementKey (type, fiscal year, fiscal period: the versions of one company). The TypeScript
 * form of db/statement-versions.ts `latestPerPeriod`, for versions already read.
 */
export function latestPerStatement<T extends { statement_type: string; fiscal_year: number; fiscal_period: string; version_sequence: number }>(versions: Iterable<T>): Map<string, T> {
  const out = new Map<string, T>();
  for (const v of versions) {
    const key = statementKey(v);
    const seen = out.get(key);
    if (!seen || seen.version_sequence < v.version_sequence) out.set(key, v);
  }
  return out;
}
