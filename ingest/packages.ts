import { createHash } from 'node:crypto';
import type { FilingInfo } from '../domain/facts.ts';
import type { Linkbases, ParsedInstance } from '../domain/xbrl.ts';
import type { SecSource } from './source.ts';
import { EDGAR_DATA_URL, readFilingFolder, type FilingFolder } from './xbrl/filing-folder.ts';
import { readFilingSummary, type FilingSummary } from './xbrl/filing-summary.ts';
import { readInline } from './xbrl/inline.ts';
import { readInstance } from './xbrl/instance.ts';
import { readLinkbases } from './xbrl/linkbases.ts';

/**
 * Filing packages of one company: the folders under Archives/edgar/data/<cik>/, each read into
 * its facts (the XBRL instance, else the inline document) and, where the folder has them, its
 * linkbases and FilingSummary. Folder discovery and change detection live here; what the facts
 * mean is decided in domain/.
 */

/** Live SEC publishes no folder listings: packages are fetched for this many latest periodic filings. */
export const LIVE_PACKAGES_PER_COMPANY = 4;

export interface FilingPackage {
  folder: FilingFolder;
  accession: string;
  instance: ParsedInstance;
  /** which file the facts came from */
  facts_from: 'instance' | 'inline';
  /** null when the folder holds no schema or linkbase (inline-only folders) */
  linkbases: Linkbases | null;
  summary: FilingSummary | null;
}

export interface SkippedFolder {
  folder: string;
  reason: string;
}

export interface PackageListing {
  folders: FilingFolder[];
  /** changes whenever a folder, a file name or (in a mirror) a file's size or time changes */
  fingerprint: string;
}

/**
 * The company's filing folders and a fingerprint of them. SEC never changes an accession's files
 * once disseminated, so names identify content on the live site; a mirror adds each file's size
 * and modification time, so a replaced file is noticed without reading every byte on each run.
 */
export async function listCompanyPackages(source: SecSource, cik: string, periodicAccessions: readonly string[], exact = false): Promise<PackageListing> {
  const base = `${EDGAR_DATA_URL}${Number(cik)}/`;
  const listed = await source.listDir(base);
  // a source that cannot list (live SEC): the latest periodic filings, or exactly those asked for
  const wanted = exact ? periodicAccessions : periodicAccessions.slice(-LIVE_PACKAGES_PER_COMPANY);
  const folderUrls = listed ? listed.filter((n) => n.endsWith('/')).map((n) => base + n) : wanted.map((a) => `${base}${a.replace(/-/g, '')}/`);
  const folders: FilingFolder[] = [];
  const h = createHash('sha256');
  for (const url of folderUrls.sort()) {
    const folder = await readFilingFolder(source, url);
    if (!hasFacts(folder)) continue;
    folders.push(folder);
    h.update(`\n${folder.folderName}`);
    for (const name of packageFiles(folder)) h.update(`|${name}@${(await source.stamp?.(folder.url + encodeURIComponent(name))) ?? ''}`);
  }
  return { folders, fingerprint: folders.length === 0 ? '' : h.digest('hex') };
}

function hasFacts(folder: FilingFolder): boolean {
  return folder.files.instance !== null || folder.files.inline.length > 0;
}

/** The files a package is read from, in a fixed order. */
function packageFiles(folder: FilingFolder): string[] {
  const f = folder.files;
  const facts = f.instance ? [f.instance] : f.inline;
  return [...facts, f.schema, f.presentation, f.calculation, f.label, f.filingSummary].filter((n): n is string => n !== null);
}

/**
 * Reads each folder into a package. A folder not named by an accession number cannot be tied to a
 * filing (the accession is how SEC, and every route, names one), so it is skipped and reported
 * rather than given an invented identifier.
 */
export async function readCompanyPackages(source: SecSource, folders: readonly FilingFolder[]): Promise<{ packages: FilingPackage[]; skipped: SkippedFolder[] }> {
  const packages: FilingPackage[] = [];
  const skipped: SkippedFolder[] = [];
  for (const folder of folders) {
    if (folder.accession === null) {
      skipped.push({ folder: folder.url, reason: 'the folder is not named by an accession number, so the filing cannot be identified' });
      continue;
    }
    const f = folder.files;
    let instance: ParsedInstance | null;
    let factsFrom: FilingPackage['facts_from'];
    if (f.instance) {
      instance = await readInstance(source, folder.url + encodeURIComponent(f.instance));
      factsFrom = 'instance';
    } else {
      instance = await readInlineSet(source, folder.url, f.inline);
      factsFrom = 'inline';
    }
    if (!instance) {
      skipped.push({ folder: folder.url, reason: 'the instance or inline document listed in the folder could not be read' });
      continue;
    }
    const hasTaxonomy = f.schema || f.presentation || f.calculation || f.label;
    const [linkbases, summary] = await Promise.all([
      hasTaxonomy ? readLinkbases(source, folder.url, f) : Promise.resolve(null),
      f.filingSummary ? readFilingSummary(source, folder.url) : Promise.resolve(null),
    ]);
    packages.push({ folder, accession: folder.accession, instance, facts_from: factsFrom, linkbases, summary });
  }
  return { packages, skipped };
}

/** Several inline documents of one filing form one document set; their facts, contexts and units are united. */
async function readInlineSet(source: SecSource, folderUrl: string, names: readonly string[]): Promise<ParsedInstance | null> {
  let merged: ParsedInstance | null = null;
  for (const name of names) {
    const doc = await readInline(source, folderUrl + encodeURIComponent(name));
    if (!doc) continue;
    if (!merged) {
      merged = doc;
      continue;
    }
    for (const [id, c] of doc.contexts) merged.contexts.set(id, c);
    for (const [id, u] of doc.units) merged.units.set(id, u);
    merged.facts.push(...doc.facts);
    merged.footnotes.push(...doc.footnotes);
    Object.assign(merged.namespaces, doc.namespaces);
  }
  return merged;
}

/** The cover-page (dei) facts a package-only filing is described by. */
export interface CoverPage {
  document_type: string | null;
  period_end: string | null;
  fiscal_year_focus: number | null;
  fiscal_period_focus: string | null;
  registrant_name: string | null;
  /** MMDD, from dei:CurrentFiscalYearEndDate (--12-31) */
  fiscal_year_end: string | null;
}

export function coverPage(instance: ParsedInstance): CoverPage {
  const dei = new Map<string, string>();
  for (const f of instance.facts) {
    if (!f.concept.startsWith('dei:') || f.value === null || dei.has(f.concept)) continue;
    // the cover page's own context has no dimensions; a co-registrant's dei facts carry one
    if ((instance.contexts.get(f.contextRef)?.dimensions.length ?? 0) > 0) continue;
    dei.set(f.concept, f.value.trim());
  }
  const fy = dei.get('dei:DocumentFiscalYearFocus');
  const yearEnd = /^--(\d{2})-(\d{2})$/.exec(dei.get('dei:CurrentFiscalYearEndDate') ?? '');
  return {
    document_type: dei.get('dei:DocumentType') ?? null,
    period_end: isoDate(dei.get('dei:DocumentPeriodEndDate') ?? null),
    fiscal_year_focus: fy && /^\d{4}$/.test(fy) ? Number(fy) : null,
    fiscal_period_focus: dei.get('dei:DocumentFiscalPeriodFocus') ?? null,
    registrant_name: dei.get('dei:EntityRegistrantName') ?? null,
    fiscal_year_end: yearEnd ? `${yearEnd[1]}${yearEnd[2]}` : null,
  };
}

function isoDate(s: string | null): string | null {
  return s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : null;
}

/**
 * SEC's longest deadlines after period end (non-accelerated filers): 90 days for an annual
 * report, 45 for a quarterly one. A package-only filing has no known filing date; this bound is
 * used instead, because a point-in-time read must never see a filing before it could exist, and
 * seeing it some weeks late is the lesser error.
 */
const LATEST_DUE_DAYS = { annual: 90, quarterly: 45 } as const;

/** Filing info for a package whose accession neither submissions nor company facts know. */
export function filingFromPackage(pkg: FilingPackage, cover: CoverPage): FilingInfo | null {
  const form = (cover.document_type ?? pkg.summary?.form ?? pkg.folder.form ?? '').toUpperCase();
  const periodEnd = cover.period_end ?? pkg.folder.period;
  if (!form || !periodEnd) return null;
  const annual = /^(10-K|20-F|40-F)/.test(form);
  const due = new Date(`${periodEnd}T00:00:00Z`);
  due.setUTCDate(due.getUTCDate() + (annual ? LATEST_DUE_DAYS.annual : LATEST_DUE_DAYS.quarterly));
  // the accession's middle part is the year it was issued: the filing cannot predate that year
  const issuedYear = 2000 + Number(pkg.accession.slice(11, 13));
  const earliest = `${issuedYear}-01-01`;
  const dueDate = due.toISOString().slice(0, 10);
  return {
    accession: pkg.accession,
    form,
    filing_date: dueDate < earliest ? earliest : dueDate,
    report_date: periodEnd,
    accepted_at: null,
    primary_document: pkg.folder.files.inline[0] ?? null,
    fiscal_year_focus: cover.fiscal_year_focus,
    fiscal_period_focus: cover.fiscal_period_focus,
    source: 'package',
    filing_date_estimated: true,
  };
}
