import { isAscii, isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { CATALOG_FINGERPRINT } from '../domain/catalog/fingerprint.ts';
import { versionContentHash } from '../domain/statements/versions.ts';
import type { Sql } from '../db/client.ts';
import { companyIngestionState, ensureCompany, recordCompanyIngestion } from '../db/ingestion-runs.ts';
import { replaceDisclosures, replaceSegments } from '../db/package-write.ts';
import { recordScaleSlips } from '../db/scale-slips.ts';
import { appendVersions, storedVersionRefs, upsertFilings, type PackageInfo, type VersionToStore } from '../db/statement-write.ts';
import type { Fact, FilingInfo } from '../domain/facts.ts';
import type { StatementFigure } from '../domain/statement-types.ts';
import { buildStatementHistory, isPeriodicForm } from '../domain/normalize/history.ts';
import type { CatalogView } from '../domain/normalize/catalog-view.ts';
import { statementKey, type BuiltVersion } from '../domain/normalize/versions.ts';
import { mergePackageFacts } from '../domain/package-facts.ts';
import { companySplits, replaceStockSplits } from '../db/stock-splits.ts';
import { assemblePackages, evidenceForVersions, type AssembledPackages } from './package-assembly.ts';
import { disclosureRows, segmentRows } from './package-rows.ts';
import { listCompanyPackages, readCompanyPackages, type SkippedFolder } from './packages.ts';
import { companyFactsUrl, filingsFromFacts, filingsFromSubmissions, mergeFilings, parseCompanyFacts } from './companyfacts.ts';
import type { SecSource } from './source.ts';
import { checkAddedVersions } from './version-checks.ts';
import { readSubmissions, type SubmissionsRead } from './submissions.ts';

/**
 * The normalizer's rules version: bump when the code's rules change (3: the version rule of
 * domain/statements/versions.ts, quarters of annual reports, later figures; 4: sign slips, which
 * change what a few statements serve; 5: derived quarters against reported ones;
 * 6: the balance sheet as the sign witness of working-capital lines, splits shown by the figures;
 * 7: concept moves between lines told as before, like-with-like derivations, the never-negative sign witness;
 * 8: the year-to-date sign witness of quarters; 9: the change in cash tagged before the exchange-rate
 * effect, an equity line tagged as total equity, continuity after a correction; 10: derived quarters
 * from one line and one basis (like-with-like pairs, the corrected year, annual reports' six and nine
 * months, fourth quarters withdrawn when the year is told again without nine months on its basis,
 * quarters a never-negative line cannot take not served), imputed totals never over a reported line
 * nobody re-told, quarterly tables re-telling a line under a retired tag, the larger of a
 * thousandfold share-count slip). With the catalog's
 * fingerprint it is part of every company's skip hash, so a changed rule or catalog re-normalizes
 * stored companies on the next run; a statement whose figures move gets a new version (stored
 * versions are never rewritten).
 */
export const NORMALIZER_VERSION = 10;

export interface CompanyResult {
  cik: string;
  name: string | null;
  status: 'ingested' | 'unchanged' | 'no_data';
  facts: number;
  bytes: number;
  filings: number;
  periodic_filings: number;
  versions_added: number;
  restatements_added: number;
  /** filing packages read (instance or inline document, with linkbases where present) */
  packages: number;
  /** package facts company facts lacked, merged in */
  package_facts_added: number;
  segments: number;
  disclosures: number;
  /** package folders that could not be used, with the reason */
  skipped_folders: SkippedFolder[];
  ms: number;
}

export interface CompanyOptions {
  /** a company-facts file must hold facts, and the company's own (a member of the bulk archives) */
  requireFacts?: boolean;
  /**
   * From a source that cannot list folders (live SEC): exactly these filings' packages (none for
   * []), instead of the latest periodic ones. A mirror lists its folders and ignores this.
   */
  packageAccessions?: readonly string[];
}

/**
 * One company, read, normalized and written in one transaction: a crash leaves it either fully
 * written or untouched, and an unchanged source (same bytes, same packages, same normalizer) is
 * skipped. Company facts, submissions and filing packages all feed it; any one of them alone is
 * enough to yield what it can.
 */
export async function ingestCompany(
  sql: Sql,
  source: SecSource,
  cik: string,
  runId: number,
  catalog: CatalogView,
  now: () => Date,
  options: CompanyOptions = {},
): Promise<CompanyResult> {
  const started = performance.now();
  const [raw, submissions] = await Promise.all([source.readBytes(companyFactsUrl(cik)), readSubmissions(source, cik)]);
  const submitted = submissions ? filingsFromSubmissions(submissions.filings) : [];
  const listing = options.packageAccessions
    ? await listCompanyPackages(source, cik, options.packageAccessions, true)
    : await listCompanyPackages(source, cik, submitted.filter((f) => isPeriodicForm(f.form)).map((f) => f.accession));
  const base = {
    cik, facts: 0, bytes: 0, filings: 0, periodic_filings: 0, versions_added: 0, restatements_added: 0,
    packages: 0, package_facts_added: 0, segments: 0, disclosures: 0, skipped_folders: [] as SkippedFolder[],
  };
  if (raw === null && submissions === null && listing.folders.length === 0) {
    return { ...base, name: null, status: 'no_data', ms: performance.now() - started };
  }
  const bytes = raw === null ? 0 : raw.length;
  const hash = companySourceHash(raw, submissions, listing.fingerprint);
  const state = await companyIngestionState(sql, cik);
  const knownName = submissions?.profile.name ?? null;
  if (state && state.source_hash === hash && state.normalizer_version === NORMALIZER_VERSION) {
    return { ...base, name: knownName, bytes, status: 'unchanged', ms: performance.now() - started };
  }

  // decoded only now: an unchanged company never needs the text
  const text = raw === null ? null : decodeCompanyFacts(raw);
  const parsed = text === null ? null : parseCompanyFacts(text, { bytes });
  // from the bulk archives, a companyfacts member is a company's facts: one of another company, or with none, is a bad member
  if (options.requireFacts && parsed && (parsed.cik !== cik || parsed.facts.length === 0)) {
    throw new Error(parsed.cik !== cik ? `the company facts are CIK ${parsed.cik}'s, not CIK ${cik}'s` : `no facts for CIK ${cik}`);
  }
  const { packages, skipped } = await readCompanyPackages(source, listing.folders);
  const factFilings = parsed ? filingsFromFacts(parsed.facts) : [];
  const known = mergeFilings(submitted, factFilings);
  const assembled = assemblePackages(packages, new Map(known.map((f) => [f.accession, f])));
  const filings = [...known, ...assembled.filings];
  const merged = mergePackageFacts(parsed?.facts ?? [], assembled.facts);
  const fiscalYearEnd = submissions?.profile.fiscalYearEnd ?? assembled.cover?.fiscal_year_end ?? null;
  const history =
    merged.facts.length > 0
      ? buildStatementHistory({ cik, facts: merged.facts, filings, fiscal_year_end: fiscalYearEnd, face: assembled.face }, catalog)
      : null;
  const evidence = history ? evidenceForVersions(history.versions, assembled) : new Map();
  // versions of one history share their unchanged figures: each figure's hash line is made once
  const hashLines = new Map<StatementFigure, string>();
  const toStore = (history?.versions ?? []).map((v) => ({ ...versionToStore(v, hashLines), calculation_evidence: evidence.get(v) ?? null }));
  hashLines.clear(); // not held through the write transaction
  const hashOf = new Map(toStore.map((t) => [`${statementKey(t.built)}|${t.built.version_sequence}`, t.content_hash]));
  const filingMap = new Map(filings.map((f) => [f.accession, f]));
  const segments = segmentRows(cik, assembled.packages, filingMap, history, catalog).map((r) => ({
    ...r,
    content_hash: r.version_sequence === null ? null : (hashOf.get(`${r.statement_type}|${r.fiscal_year}|${r.fiscal_period}|${r.version_sequence}`) ?? null),
  }));
  const disclosures = disclosureRows(assembled.packages, filingMap);
  const factCounts = countByAccession(merged.facts);
  const packageInfo = packageInfoByAccession(assembled, factFilings);
  const name = knownName ?? parsed?.entityName ?? assembled.cover?.registrant_name ?? null;
  if (text === null && submissions === null && assembled.packages.length === 0) {
    // only unusable folders (reported in skipped_folders): nothing to store, and the next run looks again
    return { ...base, name, bytes, status: 'no_data', skipped_folders: skipped, ms: performance.now() - started };
  }

  // Statements that need no answer before the next one are issued together, and postgres.js
  // pipelines them on the transaction's connection: each wait for an answer is a turn of this
  // thread, which the other company in flight may be holding with its parsing while this
  // transaction's server sits idle. Those with large parameters go last in a group (a write past
  // the socket's buffer ends the pipelining of the ones after it).
  const counts = await sql.begin(async (tx) => {
    const t = tx;
    const [refs] = await Promise.all([
      storedVersionRefs(t, cik),
      name ? ensureCompany(t, cik, name, fiscalYearEnd, now(), parsed ? 'sec_companyfacts' : 'sec_filing_package') : null,
      upsertFilings(t, cik, filings, isPeriodicForm, factCounts, packageInfo),
    ]);
    const written = await appendVersions(t, cik, toStore, runId, refs, history?.splits ?? []);
    if (written.versions_added > 0) await checkAddedVersions(t, cik, runId, written);
    await Promise.all([
      recordCompanyIngestion(
        t,
        { cik, source_hash: hash, normalizer_version: NORMALIZER_VERSION, run_id: runId, facts: merged.facts.length, filings: filings.length, versions: toStore.length },
        now(),
      ),
      recordScaleSlips(t, cik, runId, history?.slips ?? [], [...written.stored, ...written.added]),
      replaceSegments(t, cik, segments, now()),
      replaceStockSplits(t, cik, history ? companySplits(history.splits, history.versions) : []),
      replaceDisclosures(t, cik, disclosures, now()),
    ]);
    return written;
  });
  return {
    ...base,
    name,
    status: 'ingested',
    facts: merged.facts.length,
    bytes,
    filings: filings.length,
    periodic_filings: history?.periodic_filings ?? 0,
    versions_added: counts.versions_added,
    restatements_added: counts.restatements_added,
    packages: assembled.packages.length,
    package_facts_added: merged.added,
    segments: segments.length,
    disclosures: disclosures.length,
    skipped_folders: skipped,
    ms: performance.now() - started,
  };
}

/**
 * The company-facts file as text. SEC writes these files in ASCII (non-ASCII characters escaped):
 * ASCII bytes are copied as Latin-1, which gives the same string as UTF-8 decoding without the
 * decoder's per-byte work (the mirror's 71.5 MB: ~46 -> ~15 ms); anything else is decoded as UTF-8.
 */
export function decodeCompanyFacts(raw: Buffer): string {
  return isAscii(raw) ? raw.toString('latin1') : raw.toString('utf8');
}

/**
 * The skip hash of a company's sources: sha256 over the normalizer's rules version and the
 * catalog's fingerprint, the companyfacts file as UTF-8 text, the submissions' fiscal year end and
 * filings, and the package listing's fingerprint. The file's bytes are hashed as read where they
 * are valid UTF-8 (they then are the text's UTF-8 exactly), with no 71.5 MB per mirror run encoded
 * again from the decoded text; bytes that are not valid UTF-8 are hashed as their decoded text
 * (replacement characters included) re-encoded, so every stored hash keeps its value.
 */
export function companySourceHash(companyFacts: Buffer | null, submissions: SubmissionsRead | null, packagesFingerprint: string): string {
  const hash = createHash('sha256').update(`normalizer:${NORMALIZER_VERSION}|catalog:${CATALOG_FINGERPRINT}\n`);
  if (companyFacts !== null) hash.update(isUtf8(companyFacts) ? companyFacts : companyFacts.toString('utf8'));
  if (submissions) hash.update(JSON.stringify([submissions.profile.fiscalYearEnd, submissions.filings]));
  return hash.update(`\npackages:${packagesFingerprint}`).digest('hex');
}

/** `factFilings`: the filings company facts tell (one per accession of its facts, see filingsFromFacts) */
function packageInfoByAccession(assembled: AssembledPackages, factFilings: readonly FilingInfo[]): Map<string, PackageInfo> {
  // the accessions company facts has facts of, from its filings rather than from each of its facts
  const fromCompanyFacts = new Set(factFilings.map((f) => f.accession));
  const out = new Map<string, PackageInfo>();
  for (const p of assembled.packages) {
    const f = p.folder.files;
    out.set(p.accession, {
      folder: p.folder.url,
      facts_from: p.facts_from,
      files: [f.instance, ...f.inline, f.schema, f.presentation, f.calculation, f.label, f.filingSummary].filter((n): n is string => n !== null),
      linkbases: p.linkbases !== null,
      facts_added: fromCompanyFacts.has(p.accession) ? 0 : (assembled.facts.get(p.accession)?.length ?? 0),
    });
  }
  return out;
}

function versionToStore(v: BuiltVersion, hashLines: Map<StatementFigure, string>): VersionToStore {
  let ifrs = 0;
  for (const f of v.figures.values()) if (f.source_xbrl_concept?.startsWith('ifrs-full:')) ifrs++;
  return { built: v, accounting_standard: ifrs * 2 > v.figures.size ? 'IFRS' : 'US_GAAP', content_hash: versionContentHash(v, hashLines) };
}

/** Facts per accession, in first-seen order; one lookup per fact, none while the accession repeats. */
function countByAccession(facts: readonly Fact[]): Map<string, number> {
  const counters = new Map<string, { n: number }>();
  let lastAccession = '';
  let last: { n: number } | null = null;
  for (const f of facts) {
    if (last !== null && f.accession === lastAccession) {
      last.n++;
      continue;
    }
    last = counters.get(f.accession) ?? null;
    if (last === null) counters.set(f.accession, (last = { n: 0 }));
    last.n++;
    lastAccession = f.accession;
  }
  const counts = new Map<string, number>();
  for (const [accession, { n }] of counters) counts.set(accession, n);
  return counts;
}
