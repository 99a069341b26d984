import { normalizeTicker } from '../domain/cik.ts';
import { listCiksInFolder, SUBMISSIONS_FOLDER_URL } from './cik-folder.ts';
import { parseFilingColumns, type FilingRef } from './filing-columns.ts';
import { asArray, asRecord, cikFrom, optionalString, requiredString } from './json-shape.ts';
import type { SecSource } from './source.ts';

export type { FilingRef } from './filing-columns.ts';

/** A name the company filed under before; lets lookups by an old name still find it. */
export interface FormerName {
  name: string;
  /** YYYY-MM-DD; null only if SEC omits it */
  from: string | null;
  /** YYYY-MM-DD; null when SEC gives none */
  to: string | null;
}

/** Who the company is, as SEC's submissions file describes it; '' in the source is null here. */
export interface CompanyProfile {
  cik: string;
  name: string;
  entityType: string | null;
  sic: string | null;
  sicDescription: string | null;
  /** as SEC writes it, which can join several with `<br>`: "Non-accelerated filer<br>Smaller reporting company" */
  category: string | null;
  /** MMDD, e.g. "0926"; null for filers without one (individuals, some funds) */
  fiscalYearEnd: string | null;
  stateOfIncorporation: string | null;
  ein: string | null;
  lei: string | null;
  description: string | null;
  website: string | null;
  investorWebsite: string | null;
  phone: string | null;
  tickers: string[];
  /** parallel to tickers (same index), so a missing exchange is null rather than dropped */
  exchanges: (string | null)[];
  formerNames: FormerName[];
  /** `mailing` / `business` exactly as SEC gives them */
  addresses: Record<string, Record<string, unknown>>;
}

/** A history page the main file points at (`filings.files`). */
export interface HistoryPageRef {
  name: string;
  filingCount: number | null;
  filingFrom: string | null;
  filingTo: string | null;
}

/** One main submissions file, parsed; history pages are only referenced, since reading them needs a source. */
export interface ParsedSubmissions {
  profile: CompanyProfile;
  /** the `recent` block only; history pages are read by readSubmissions */
  filings: FilingRef[];
  historyPages: HistoryPageRef[];
}

/** Everything the source has for one company: profile plus the full filing list across pages. */
export interface SubmissionsRead {
  profile: CompanyProfile;
  /** recent + every history page present, newest first as SEC orders them, one per accession */
  filings: FilingRef[];
  historyPages: HistoryPageRef[];
  /** history page names listed by SEC but absent from the source (mirrors are often partial) */
  missingPages: string[];
}

const HISTORY_PAGE_NAME = /^CIK\d{10}-submissions-\d{3,}\.json$/;

/** The SEC URL of a company's main submissions file; accepts padded or unpadded CIKs. */
export function submissionsUrl(cik: string | number): string {
  return `${SUBMISSIONS_FOLDER_URL}CIK${cikFrom(cik, 'cik')}.json`;
}

/** Parses a main submissions file (`CIK##########.json`). */
export function parseSubmissions(json: unknown): ParsedSubmissions {
  const top = asRecord(json, 'submissions');
  const filings = asRecord(top.filings, 'submissions.filings');
  return {
    profile: parseProfile(top),
    filings: parseFilingColumns(filings.recent, 'submissions.filings.recent'),
    historyPages: asArray(filings.files ?? [], 'submissions.filings.files').map((v, i) => {
      const where = `submissions.filings.files[${i}]`;
      const page = asRecord(v, where);
      const count = page.filingCount;
      return {
        name: requiredString(page.name, `${where}.name`),
        filingCount: typeof count === 'number' && Number.isInteger(count) ? count : null,
        filingFrom: optionalString(page.filingFrom, `${where}.filingFrom`),
        filingTo: optionalString(page.filingTo, `${where}.filingTo`),
      };
    }),
  };
}

function parseProfile(top: Record<string, unknown>): CompanyProfile {
  const opt = (key: string) => optionalString(top[key], `submissions.${key}`);
  const addresses: Record<string, Record<string, unknown>> = {};
  for (const [kind, value] of Object.entries(asRecord(top.addresses ?? {}, 'submissions.addresses'))) {
    addresses[kind] = { ...asRecord(value, `submissions.addresses.${kind}`) };
  }
  const tickers = asArray(top.tickers ?? [], 'submissions.tickers');
  return {
    cik: cikFrom(top.cik, 'submissions.cik'),
    name: requiredString(top.name, 'submissions.name'),
    entityType: opt('entityType'),
    sic: opt('sic'),
    sicDescription: opt('sicDescription'),
    category: opt('category'),
    fiscalYearEnd: opt('fiscalYearEnd'),
    stateOfIncorporation: opt('stateOfIncorporation'),
    ein: opt('ein'),
    lei: opt('lei'),
    description: opt('description'),
    website: opt('website'),
    investorWebsite: opt('investorWebsite'),
    phone: opt('phone'),
    tickers: tickers.map((t, i) => normalizeTicker(requiredString(t, `submissions.tickers[${i}]`))),
    exchanges: asArray(top.exchanges ?? [], 'submissions.exchanges').map((e, i) => optionalString(e, `submissions.exchanges[${i}]`)),
    formerNames: asArray(top.formerNames ?? [], 'submissions.formerNames').map((v, i) => {
      const where = `submissions.formerNames[${i}]`;
      const row = asRecord(v, where);
      return {
        name: requiredString(row.name, `${where}.name`),
        from: dayOf(row.from, `${where}.from`),
        to: dayOf(row.to, `${where}.to`),
      };
    }),
    addresses,
  };
}

/**
 * formerNames dates are timestamps of midnight US Eastern written in UTC
 * ("2007-01-10T05:00:00.000Z"), so the UTC calendar day is the day SEC means.
 */
function dayOf(value: unknown, where: string): string | null {
  const s = optionalString(value, where);
  if (s === null) return null;
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(s);
  if (!m?.[1]) throw new Error(`${where}: not a date: ${JSON.stringify(s)}`);
  return m[1];
}

/**
 * Reads a company's submissions: the main file plus every history page it lists, because the
 * main file holds only the latest ~1000 filings. A page missing from the source is reported in
 * missingPages, not thrown, so a partial mirror still yields everything it has. null when the
 * main file itself is absent (unknown CIK, or not mirrored).
 */
export async function readSubmissions(source: SecSource, cik: string | number): Promise<SubmissionsRead | null> {
  const url = submissionsUrl(cik);
  const main = await source.readJson(url);
  if (main === null) return null;
  const parsed = parseSubmissions(main);
  if (parsed.profile.cik !== cikFrom(cik, 'cik')) {
    throw new Error(`${url} describes CIK ${parsed.profile.cik}, not the CIK it is filed under`);
  }

  const seen = new Set<string>();
  const filings: FilingRef[] = [];
  const add = (rows: FilingRef[]) => {
    for (const f of rows) {
      if (seen.has(f.accession)) continue;
      seen.add(f.accession);
      filings.push(f);
    }
  };
  add(parsed.filings);

  const missingPages: string[] = [];
  for (const page of parsed.historyPages) {
    if (!HISTORY_PAGE_NAME.test(page.name)) throw new Error(`${url} lists an unexpected history page name ${JSON.stringify(page.name)}`);
    const columns = await source.readJson(`${SUBMISSIONS_FOLDER_URL}${page.name}`);
    if (columns === null) missingPages.push(page.name);
    else add(parseFilingColumns(columns, page.name));
  }
  return { profile: parsed.profile, filings, historyPages: parsed.historyPages, missingPages };
}

/**
 * CIKs whose main submissions file the mirror holds (history pages are not companies).
 * null for live sources, which cannot list; use the ticker files there.
 */
export function listSubmissionCiks(source: SecSource): Promise<string[] | null> {
  return listCiksInFolder(source, SUBMISSIONS_FOLDER_URL);
}
