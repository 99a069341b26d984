import type { Sql } from '../db/client.ts';
import { refreshPopulationStats } from '../db/coverage.ts';
import { accessionsWithFacts, markServed, markTried, openAccessions } from '../db/feed-state.ts';
import { finishRun, startRun, type RunCounters } from '../db/ingestion-runs.ts';
import { LATE_AFTER_MS } from '../domain/feed.ts';
import { catalogView } from '../domain/normalize/catalog-view.ts';
import { ingestCompany, type CompanyResult } from './ingest-company.ts';
import type { SecSource } from './source.ts';
import { addCompanyIdentity, companyKnown } from '../db/identity-add.ts';
import { observedMappings, profileRow } from './load-identity.ts';
import { readSubmissions } from './submissions.ts';
import { EDGAR_DATA_URL, readFilingFolder } from './xbrl/filing-folder.ts';

/**
 * A company's refresh after the feed or an index named a new periodic filing of it: the same
 * ingestion as every run (`ingestCompany`: company facts, submissions, filing packages, one
 * transaction, versions and restatement alerts, caches told through the change feed), recorded as
 * an ingestion run of that one company. The new filings' own packages are left out, so the refresh
 * never waits on them: company facts serve the statements at once, and the package follows as its
 * own job (refreshPackage).
 */

export interface RefreshOutcome {
  run_id: number;
  status: CompanyResult['status'] | 'failed';
  /** accessions company facts now holds, served by this refresh (or an earlier one) */
  served: string[];
  /** accessions company facts does not hold yet: the refresh is tried again */
  waiting: string[];
  /** accessions that waited past the limit: recorded late */
  late: string[];
  versions_added: number;
  restatements_added: number;
  error: string | null;
  /** the most tries any waiting accession has had, this one included */
  attempts: number;
}

/** The folder of an accession on SEC's archive site. */
export function filingFolderUrl(cik: string, accession: string): string {
  return `${EDGAR_DATA_URL}${Number(cik)}/${accession.replace(/-/g, '')}/`;
}

/** `source` with some filing folders absent, as SEC shows them before they are disseminated. */
export function withoutFolders(source: SecSource, folders: readonly string[]): SecSource {
  const hidden = (url: string) => folders.some((f) => url.startsWith(f));
  return {
    kind: source.kind,
    describe: () => source.describe(),
    readJson: async <T>(url: string) => (hidden(url) ? null : source.readJson<T>(url)),
    readText: async (url) => (hidden(url) ? null : source.readText(url)),
    readBytes: async (url) => (hidden(url) ? null : source.readBytes(url)),
    openStream: async (url) => (hidden(url) ? null : source.openStream(url)),
    listDir: async (url) => (hidden(url) ? [] : source.listDir(url)),
    ...(source.stamp ? { stamp: async (url: string) => (hidden(url) ? null : source.stamp!(url)) } : {}),
  };
}

/** Ingests one company as a run of its own; an ingestion error is the outcome's, not thrown. */
async function ingestAsRun(sql: Sql, source: SecSource, cik: string, now: () => Date): Promise<{ run_id: number; result: CompanyResult | null; error: string | null }> {
  const runId = await startRun(sql, source.describe(), [cik], now());
  let result: CompanyResult | null = null;
  let error: string | null = null;
  try {
    result = await ingestCompany(sql, source, cik, runId, catalogView(), now);
  } catch (err) {
    error = (err as Error).message;
  }
  const counters: RunCounters = {
    companies_total: 1,
    companies_done: result ? 1 : 0,
    companies_skipped: result?.status === 'unchanged' ? 1 : 0,
    companies_without_data: result?.status === 'no_data' ? 1 : 0,
    companies_failed: result ? 0 : 1,
    facts_read: result?.facts ?? 0,
    bytes_read: result?.status === 'ingested' ? result.bytes : 0,
    versions_added: result?.versions_added ?? 0,
    restatements_added: result?.restatements_added ?? 0,
  };
  await finishRun(sql, runId, error ? 'failed' : 'succeeded', counters, error ? [{ cik, message: error }] : [], now());
  return { run_id: runId, result, error };
}

/**
 * Refreshes `cik` for its open accessions (pending, or late and still looked for). Null when none
 * is open (an earlier refresh served them). Never throws for what SEC answered: a failed ingestion
 * or a filing company facts lacks leaves its accessions open, with the try counted.
 */
export async function refreshCompany(sql: Sql, source: SecSource, cik: string, now: () => Date): Promise<RefreshOutcome | null> {
  const open = await openAccessions(sql, cik);
  if (open.length === 0) return null;
  const accessions = open.map((a) => a.accession);
  // an unknown filer's identity first; a failure here leaves it to the ingestion's own company record
  await ensureIdentity(sql, source, cik, now()).catch(() => false);
  const run = await ingestAsRun(sql, withoutFolders(source, accessions.map((a) => filingFolderUrl(cik, a))), cik, now);
  const held = await accessionsWithFacts(sql, accessions);
  const served = accessions.filter((a) => held.has(a));
  await markServed(sql, served, now());
  const at = now().getTime();
  const notYet = open.filter((a) => !held.has(a.accession));
  const late = notYet.filter((a) => at - Date.parse(a.seen_at) >= LATE_AFTER_MS).map((a) => a.accession);
  const waiting = notYet.filter((a) => !late.includes(a.accession)).map((a) => a.accession);
  const why = run.error ?? (notYet.length > 0 ? 'company facts does not hold the filing yet' : null);
  await markTried(sql, late, why, true);
  await markTried(sql, waiting, why, false);
  // metric population statistics (coverage) follow the corpus, as after any ingestion run
  if ((run.result?.versions_added ?? 0) > 0) await refreshPopulationStats(sql, now()).catch(() => {});
  return {
    run_id: run.run_id,
    status: run.result?.status ?? 'failed',
    served,
    waiting,
    late,
    versions_added: run.result?.versions_added ?? 0,
    restatements_added: run.result?.restatements_added ?? 0,
    error: run.error,
    attempts: Math.max(1, ...notYet.map((a) => a.attempts + 1)),
  };
}

/**
 * The filing's package, once SEC has it: 'absent' while its folder lists no XBRL document (the
 * job asks again later), 'ingested' after the company was ingested again with it.
 */
export async function refreshPackage(sql: Sql, source: SecSource, cik: string, accession: string, now: () => Date): Promise<{ status: 'absent' | 'ingested'; run_id: number | null; error: string | null }> {
  const folder = await readFilingFolder(source, filingFolderUrl(cik, accession));
  if (folder.files.instance === null && folder.files.inline.length === 0) return { status: 'absent', run_id: null, error: null };
  const run = await ingestAsRun(sql, source, cik, now);
  if ((run.result?.versions_added ?? 0) > 0) await refreshPopulationStats(sql, now()).catch(() => {});
  if (run.error) throw new Error(`ingesting ${cik} with the package of ${accession} failed: ${run.error}`);
  return { status: 'ingested', run_id: run.run_id, error: null };
}

/**
 * A company the corpus does not know yet gets its identity first (profile and tickers from its
 * submissions), so its statements are reachable by ticker as soon as they are served.
 */
export async function ensureIdentity(sql: Sql, source: SecSource, cik: string, now: Date): Promise<boolean> {
  if (await companyKnown(sql, cik)) return false;
  const submissions = await readSubmissions(source, cik);
  if (!submissions) return false;
  const r = await addCompanyIdentity(sql, profileRow(submissions), observedMappings([], [submissions]), now.toISOString().slice(0, 10), now.toISOString());
  return r.added;
}
