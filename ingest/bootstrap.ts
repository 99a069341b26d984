import type { Config } from '../config.ts';
import type { Sql } from '../db/client.ts';
import { corpusIsEmpty } from '../db/ingestion-runs.ts';
import { withArchives } from './archive-source.ts';
import { openArchives, type Archives } from './archives.ts';
import { enqueuePackageWindow } from './package-window.ts';
import { openSecSource, type SecSource } from './source.ts';

/** What a first load reads from SEC's bulk archives: identity's submissions and the run's company facts. */
export interface ArchiveBootstrap {
  archives: Archives;
  /** SEC_SOURCE with company facts and submissions answered from the archives, for the identity load */
  source: SecSource;
  close(): Promise<void>;
}

/**
 * On an empty corpus with SEC_ARCHIVES set (by default whenever SEC_SOURCE is the live site), the
 * first load reads the bulk archives instead of requesting every company's files one by one;
 * null otherwise. Later starts and runs refresh company by company, skipping unchanged companies.
 */
/**
 * After a bulk load from the live site: the package window's jobs (ingest/package-window.ts), for
 * the job workers to fetch under fair access while statements are served from company facts.
 */
export async function enqueuePackagesAfterLoad(sql: Sql, config: Config, log: (m: string) => void, now?: () => Date): Promise<void> {
  if (!/^https:\/\//i.test(config.secSource) || config.packageWindowQuarters === 0) return;
  const r = await enqueuePackageWindow(sql, config, { quarters: config.packageWindowQuarters, ...(now ? { now } : {}) });
  if (r) log(`filing packages: ${r.filings} filings of ${r.companies} companies (last ${config.packageWindowQuarters} quarters) queued as run ${r.run_id}, newest first`);
}

export async function archiveBootstrap(sql: Sql, config: Config, log: (m: string) => void): Promise<ArchiveBootstrap | null> {
  if (!config.secArchives || !config.ingestOnStart || !(await corpusIsEmpty(sql))) return null;
  log(`empty corpus: loading from SEC's bulk archives (${/^https:/i.test(config.secArchives) ? config.secArchives : 'a directory'})`);
  const archives = await openArchives(config.secArchives, { userAgent: config.secUserAgent, maxMemberBytes: config.archiveMemberMaxBytes, log });
  const source = withArchives(openSecSource(config.secSource, { userAgent: config.secUserAgent }), archives);
  return { archives, source, close: () => archives.close() };
}
