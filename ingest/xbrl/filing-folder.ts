import { padCik } from '../../domain/cik.ts';
import type { SecSource } from '../source.ts';
import { streamContains } from './xml-input.ts';

/**
 * A filing folder under https://www.sec.gov/Archives/edgar/data/<cik>/<folder>/ and what its
 * files are, so the XBRL readers know which file to hand to which parser. Names decide where
 * SEC's conventions are fixed (linkbase suffixes, `_htm.xml`, R files); content decides where
 * they are not (which `.htm` is an inline XBRL document rather than an exhibit).
 */

export const EDGAR_DATA_URL = 'https://www.sec.gov/Archives/edgar/data/';

export interface FilingFolderRef {
  /** folder URL, ending in `/` */
  url: string;
  /** 10 digits, from the parent folder */
  cik: string;
  folderName: string;
  /** 0000320193-23-000106; null when the folder is not named by an accession number */
  accession: string | null;
  /** from a non-accession name `<word>-<form>-<YYYY-MM-DD>` (e.g. unknown-10-Q-2025-06-30); null otherwise */
  form: string | null;
  period: string | null;
}

export interface FilingFiles {
  /** the XBRL instance: `*_htm.xml` (EDGAR's extract of an inline filing) or the `.xml` whose root is `xbrl` */
  instance: string | null;
  /** inline XBRL documents (`.htm` containing ix:header), sorted; several for a multi-document set */
  inline: string[];
  schema: string | null;
  presentation: string | null;
  calculation: string | null;
  label: string | null;
  definition: string | null;
  filingSummary: string | null;
  /** everything else: exhibits, R pages, images, MetaLinks.json, zips... */
  other: string[];
}

export interface FilingFolder extends FilingFolderRef {
  files: FilingFiles;
}

const ACCESSION_DIGITS = /^(\d{10})(\d{2})(\d{6})$/;
const ACCESSION_DASHED = /^(\d{10})-(\d{2})-(\d{6})$/;
/**
 * Folders saved before the accession was known are named `<word>-<form>-<period end>`, e.g.
 * `unknown-10-Q-2025-06-30`; the form may itself contain dashes (10-K, 20-F, 10-K-A for 10-K/A).
 */
const NAMED_FOLDER = /^[A-Za-z]+-([A-Za-z0-9][A-Za-z0-9-]*?)-(\d{4}-\d{2}-\d{2})$/;

/** 18 digits (or already dashed) -> `0000320193-23-000106`, SEC's 10-2-6 spelling; null for anything else. */
export function formatAccession(raw: string): string | null {
  const m = ACCESSION_DIGITS.exec(raw) ?? ACCESSION_DASHED.exec(raw);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** Accession, or form and period, from a folder name; all null for a name that follows neither pattern. */
export function parseFolderName(name: string): Pick<FilingFolderRef, 'accession' | 'form' | 'period'> {
  const folder = name.replace(/\/$/, '');
  const accession = formatAccession(folder);
  if (accession) return { accession, form: null, period: null };
  const m = NAMED_FOLDER.exec(folder);
  return { accession: null, form: m?.[1] ?? null, period: m?.[2] ?? null };
}

/** Describes `https://www.sec.gov/Archives/edgar/data/<cik>/<folder>/`; throws for a URL elsewhere, as that is a caller bug. */
export function filingFolderRef(folderUrl: string): FilingFolderRef {
  const url = folderUrl.endsWith('/') ? folderUrl : `${folderUrl}/`;
  if (!url.startsWith(EDGAR_DATA_URL)) throw new Error(`not an EDGAR filing folder: ${JSON.stringify(folderUrl)}`);
  const [cik, folderName, ...rest] = url.slice(EDGAR_DATA_URL.length).split('/').filter(Boolean);
  if (!cik || !/^\d{1,10}$/.test(cik) || !folderName || rest.length) throw new Error(`not an EDGAR filing folder: ${JSON.stringify(folderUrl)}`);
  return { url, cik: padCik(cik), folderName, ...parseFolderName(folderName) };
}

/**
 * Every filing folder in a mirror, by CIK then folder name. null when the source cannot list
 * (live SEC): there, discovery goes through the submissions JSON's accession list, each
 * accession giving the folder `<cik>/<accession without dashes>/`, never through crawling.
 */
export async function listFilingFolders(source: SecSource): Promise<FilingFolderRef[] | null> {
  const ciks = await source.listDir(EDGAR_DATA_URL);
  if (ciks === null) return null;
  const refs: FilingFolderRef[] = [];
  for (const cikEntry of ciks) {
    if (!/^\d{1,10}\/$/.test(cikEntry)) continue;
    const folders = (await source.listDir(EDGAR_DATA_URL + cikEntry)) ?? [];
    for (const f of folders) if (f.endsWith('/')) refs.push(filingFolderRef(EDGAR_DATA_URL + cikEntry + f));
  }
  return refs.sort((a, b) => a.cik.localeCompare(b.cik) || a.folderName.localeCompare(b.folderName));
}

/**
 * The folder's file names: a directory listing where the source has one, else SEC's own
 * `index.json` for the folder (published for every Archives folder on the live site).
 */
export async function listFolderFiles(source: SecSource, folderUrl: string): Promise<string[]> {
  const url = folderUrl.endsWith('/') ? folderUrl : `${folderUrl}/`;
  const listed = await source.listDir(url);
  if (listed) return listed.filter((n) => !n.endsWith('/'));
  const index = await source.readJson<{ directory?: { item?: Array<{ name?: string; type?: string }> } }>(`${url}index.json`);
  return (index?.directory?.item ?? [])
    .filter((i) => typeof i.name === 'string' && i.type !== 'folder.gif' && i.type !== 'dir')
    .map((i) => i.name as string)
    .sort();
}

const LINKBASE = /_(pre|cal|lab|def|ref)\.xml$/i;
const R_PAGE = /^R\d+\.html?$/i;
/** ix:header sits near the top of body; 256 KB covers even long <head> style blocks without reading whole documents */
const INLINE_SNIFF_BYTES = 256 * 1024;
const INSTANCE_SNIFF_BYTES = 16 * 1024;

/** Reads the folder listing and sorts each file into its role; see FilingFiles. */
export async function readFilingFolder(source: SecSource, folderUrl: string): Promise<FilingFolder> {
  const ref = filingFolderRef(folderUrl);
  const names = await listFolderFiles(source, ref.url);
  return { ...ref, files: await classifyFiles(source, ref.url, names) };
}

/** Classifies file names of one folder; `.htm` and ambiguous `.xml` files are opened and sniffed. */
export async function classifyFiles(source: SecSource, folderUrl: string, names: readonly string[]): Promise<FilingFiles> {
  const files: FilingFiles = { instance: null, inline: [], schema: null, presentation: null, calculation: null, label: null, definition: null, filingSummary: null, other: [] };
  const sniff = async (name: string, pattern: RegExp, bytes: number) => {
    const stream = await source.openStream(folderUrl + encodeURIComponent(name));
    return stream ? streamContains(stream, pattern, bytes) : false;
  };
  const linkbaseSlot = { pre: 'presentation', cal: 'calculation', lab: 'label', def: 'definition' } as const;
  const xmlCandidates: string[] = [];
  for (const name of [...names].sort()) {
    const lower = name.toLowerCase();
    const lb = LINKBASE.exec(name)?.[1]?.toLowerCase();
    if (lower === 'filingsummary.xml') files.filingSummary = name;
    else if (lb && lb !== 'ref' && files[linkbaseSlot[lb as keyof typeof linkbaseSlot]] === null) files[linkbaseSlot[lb as keyof typeof linkbaseSlot]] = name;
    else if (lower.endsWith('.xsd') && files.schema === null) files.schema = name;
    else if (lower.endsWith('_htm.xml') && files.instance === null) files.instance = name;
    else if (lower.endsWith('.xml') && !lb) xmlCandidates.push(name);
    else if (/\.x?html?$/.test(lower) && !R_PAGE.test(name) && (await sniff(name, /<ix:header[\s>]/, INLINE_SNIFF_BYTES))) files.inline.push(name);
    else files.other.push(name);
  }
  // an `.xml` that is not a linkbase or FilingSummary is the instance only if its root really is
  // xbrl: 2009-2019 instances are `<ticker>-<date>.xml`, but folders can hold other XML too
  for (const name of xmlCandidates) {
    if (files.instance === null && (await sniff(name, /<(?:[A-Za-z_][\w.-]*:)?xbrl[\s>]/, INSTANCE_SNIFF_BYTES))) files.instance = name;
    else files.other.push(name);
  }
  files.other.sort();
  return files;
}
