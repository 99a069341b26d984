import type { ChangeFeed } from '../db/change-feed.ts';
import type { Db } from '../db/client.ts';
import { companiesChangedSince, companyVersionHeaders, companyVersionHeadersRead, type VersionHeader } from '../db/statement-versions.ts';
import { CompanyVersions } from '../domain/statements/company-versions.ts';
import { readCacheOf } from './read-cache.ts';

/**
 * Each company's statement version headers, indexed in memory: which version is the latest of a
 * period, what a date could see and which versions coherence judges are worked out there
 * (domain/statements/company-versions.ts) instead of by a query per read.
 *
 * With the read caches on, an index is read in one query and kept per instance until
 * statement_versions changes (api/read-cache.ts). With them off (READ_CACHE=off, or no change
 * notifications), a company read again while it is among those met lately gets an index, with the
 * snapshot its headers were read in; each of its reads first asks PostgreSQL whether a transaction
 * that snapshot does not see has written the company's versions since (db/statement-versions.ts
 * companiesChangedSince: a panel's companies in one query) and is answered from that index when none
 * has, else from a new one read then. A version committed by any instance is seen by the next read:
 * never stale, no notification needed. A company met once (null) is read by the SQL the index
 * stands in for: over many companies read once each, that costs less than reading each one's headers.
 */
export type CompanyIndex = CompanyVersions<VersionHeader>;

/** A few hundred companies: a company's headers run to some hundred kB at most. */
const MAX_COMPANIES = 256;

const indexes = (services: { changes: ChangeFeed }) =>
  readCacheOf<CompanyIndex>(services, 'versions.by-company', 'statement_versions', { max: MAX_COMPANIES, maxAgeMs: 10_000 });

export async function companyVersionsOf(services: { sql: Db; changes: ChangeFeed }, cik: string): Promise<CompanyIndex | null> {
  if (services.changes.generation('statement_versions') === null) return (await checkedIndexes(services.sql, [cik]))[0]!;
  return indexes(services).memo(cik, async () => new CompanyVersions(await companyVersionHeaders(services.sql, cik)));
}

/** The indexes of several companies, or null when one is not at hand (without the read caches, checked in one query). */
export async function companiesVersionsOf(services: { sql: Db; changes: ChangeFeed }, ciks: readonly string[]): Promise<Map<string, CompanyIndex> | null> {
  const found =
    services.changes.generation('statement_versions') === null
      ? await checkedIndexes(services.sql, ciks)
      : await Promise.all(ciks.map((c) => companyVersionsOf(services, c)));
  const out = new Map<string, CompanyIndex>();
  for (const [i, index] of found.entries()) {
    if (index === null) return null;
    out.set(ciks[i]!, index);
  }
  return out;
}

/** A company's last index made without the read caches, and the snapshot its headers were read in. */
interface Made {
  cik: string;
  index: CompanyIndex;
  snapshot: string;
}

/** Per database client: each company's last index, least recently used out first. */
const lastMade = new WeakMap<Db, Map<string, Made>>();

/** Per database client: the companies met lately without an index (a set in insertion order, oldest out first). */
const metOnce = new WeakMap<Db, Set<string>>();

/** Each company's index (null for one met once), in the ciks' order; those with an index are checked for changes in one query. */
async function checkedIndexes(sql: Db, ciks: readonly string[]): Promise<(CompanyIndex | null)[]> {
  let made = lastMade.get(sql);
  if (!made) lastMade.set(sql, (made = new Map()));
  const held = [...new Set(ciks)].flatMap((cik) => {
    const last = made.get(cik);
    return last === undefined ? [] : [last];
  });
  const changed = held.length > 0 ? await companiesChangedSince(sql, held) : new Set<string>();
  // each index as it was when the check was sent (another read may have replaced it meanwhile)
  const checked = new Map(held.map((h) => [h.cik, h]));
  return Promise.all(ciks.map((cik) => checkedIndex(sql, made, cik, checked.get(cik), changed.has(cik))));
}

async function checkedIndex(sql: Db, made: Map<string, Made>, cik: string, checked: Made | undefined, changed: boolean): Promise<CompanyIndex | null> {
  if (checked !== undefined && !changed) {
    if (made.get(cik) === checked) {
      made.delete(cik);
      made.set(cik, checked);
    }
    return checked.index;
  }
  if (checked === undefined) {
    // made by a read that ran meanwhile: as new as this read's own would be
    const meanwhile = made.get(cik);
    if (meanwhile !== undefined) return meanwhile.index;
    let met = metOnce.get(sql);
    if (!met) metOnce.set(sql, (met = new Set()));
    if (!met.delete(cik)) {
      met.add(cik);
      if (met.size > MAX_COMPANIES) met.delete(met.values().next().value!);
      return null;
    }
  }
  const { headers, snapshot } = await companyVersionHeadersRead(sql, cik);
  const next: Made = { cik, index: new CompanyVersions(headers), snapshot };
  made.delete(cik);
  made.set(cik, next);
  if (made.size > MAX_COMPANIES) made.delete(made.keys().next().value!);
  return next.index;
}
