import type { ChangeFeed } from '../db/change-feed.ts';
import type { Db } from '../db/client.ts';
import { companyVersionHeaders, type VersionHeader } from '../db/statement-versions.ts';
import { CompanyVersions } from '../domain/statements/company-versions.ts';
import { readCacheOf } from './read-cache.ts';

/**
 * Each company's statement version headers, read in one query and kept per instance until
 * statement_versions changes (api/read-cache.ts): which version is the latest of a period, what a
 * date could see and which versions coherence judges are then worked out in memory
 * (domain/statements/company-versions.ts) instead of by a query per read. Null when the read
 * caches are off (READ_CACHE=off, or no change notifications): the reads then query PostgreSQL.
 */
export type CompanyIndex = CompanyVersions<VersionHeader>;

/** A few hundred companies: a company's headers run to some hundred kB at most. */
const MAX_COMPANIES = 256;

const indexes = (services: { changes: ChangeFeed }) =>
  readCacheOf<CompanyIndex>(services, 'versions.by-company', 'statement_versions', { max: MAX_COMPANIES, maxAgeMs: 10_000 });

export async function companyVersionsOf(services: { sql: Db; changes: ChangeFeed }, cik: string): Promise<CompanyIndex | null> {
  if (services.changes.generation('statement_versions') === null) return null;
  return indexes(services).memo(cik, async () => new CompanyVersions(await companyVersionHeaders(services.sql, cik)));
}

/** The indexes of several companies, or null when one is not at hand (caches off). */
export async function companiesVersionsOf(services: { sql: Db; changes: ChangeFeed }, ciks: readonly string[]): Promise<Map<string, CompanyIndex> | null> {
  const out = new Map<string, CompanyIndex>();
  for (const [i, index] of (await Promise.all(ciks.map((c) => companyVersionsOf(services, c)))).entries()) {
    if (index === null) return null;
    out.set(ciks[i]!, index);
  }
  return out;
}
