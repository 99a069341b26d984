import type { ChangeFeed } from '../db/change-feed.ts';
import type { Db } from '../db/client.ts';
import { companiesVersionIds, companyVersionHeaders, type VersionHeader } from '../db/statement-versions.ts';
import { CompanyVersions } from '../domain/statements/company-versions.ts';
import { readCacheOf } from './read-cache.ts';

/**
 * Each company's statement version headers, indexed in memory: which version is the latest of a
 * period, what a date could see and which versions coherence judges are worked out there
 * (domain/statements/company-versions.ts) instead of by a query per read.
 *
 * With the read caches on, an index is read in one query and kept per instance until
 * statement_versions changes (api/read-cache.ts). With them off (READ_CACHE=off, or no change
 * notifications), a company read again while it is among those met lately gets an index; each of
 * its reads first asks PostgreSQL which versions it has (their ids, one index-only scan) and is
 * answered from that index when it holds exactly those versions, else from a new one read then
 * (one query, one snapshot). A company met once (null) is read by the SQL the index stands in for:
 * over many companies read once each, that costs less than reading each one's headers.
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

/** The indexes of several companies, or null when one is not at hand (without the read caches, their version ids checked in one query). */
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

/** A company's last index made without the read caches, and the versions it holds. */
interface Made {
  index: CompanyIndex;
  /** the ids of its versions */
  ids: ReadonlySet<string>;
  /** the last list of them PostgreSQL gave (any order) */
  listed: string;
}

/** Per database client: each company's last index, least recently used out first. */
const lastMade = new WeakMap<Db, Map<string, Made>>();

/** Per database client: the companies met lately without an index (a set in insertion order, oldest out first). */
const metOnce = new WeakMap<Db, Set<string>>();

/** Each company's index (null for one met once), in the ciks' order; the version ids of those with an index are listed in one query. */
async function checkedIndexes(sql: Db, ciks: readonly string[]): Promise<(CompanyIndex | null)[]> {
  let made = lastMade.get(sql);
  if (!made) lastMade.set(sql, (made = new Map()));
  const held = [...new Set(ciks.filter((c) => made.has(c)))];
  const listed = held.length > 0 ? await companiesVersionIds(sql, held) : null;
  return Promise.all(ciks.map((cik) => checkedIndex(sql, made, cik, listed?.get(cik) ?? '')));
}

async function checkedIndex(sql: Db, made: Map<string, Made>, cik: string, listed: string): Promise<CompanyIndex | null> {
  const last = made.get(cik);
  if (last !== undefined) {
    if (listed === last.listed || sameVersions(listed, last.ids)) {
      last.listed = listed;
      made.delete(cik);
      made.set(cik, last);
      return last.index;
    }
  } else {
    let met = metOnce.get(sql);
    if (!met) metOnce.set(sql, (met = new Set()));
    if (!met.delete(cik)) {
      met.add(cik);
      if (met.size > MAX_COMPANIES) met.delete(met.values().next().value!);
      return null;
    }
  }
  // the headers and so the ids of one snapshot: a version committed later is not in this index's
  // ids either, so the next read's list tells it apart
  const headers = await companyVersionHeaders(sql, cik);
  const next: Made = { index: new CompanyVersions(headers), ids: new Set(headers.map((h) => h.statement_version_id)), listed: '' };
  made.delete(cik);
  made.set(cik, next);
  if (made.size > MAX_COMPANIES) made.delete(made.keys().next().value!);
  return next.index;
}

/** Whether a comma-separated list of ids names exactly the versions of `ids` (each id once). */
function sameVersions(listed: string, ids: ReadonlySet<string>): boolean {
  if (listed === '') return ids.size === 0;
  const each = listed.split(',');
  return each.length === ids.size && each.every((id) => ids.has(id));
}
