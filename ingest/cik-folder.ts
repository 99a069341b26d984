import { padCik } from '../domain/cik.ts';
import type { SecSource } from './source.ts';
import { EDGAR_DATA_URL } from './xbrl/filing-folder.ts';

/** Folder of per-company submissions files (plus their history pages). */
export const SUBMISSIONS_FOLDER_URL = 'https://data.sec.gov/submissions/';
/** Folder of per-company XBRL company facts; holds a different set of companies than submissions in a mirror. */
export const COMPANYFACTS_FOLDER_URL = 'https://data.sec.gov/api/xbrl/companyfacts/';

const MAIN_FILE = /^CIK(\d{10})\.json$/;

/**
 * CIKs that have a `CIK##########.json` file in a per-company folder of the mirror (submissions,
 * companyfacts). Anything else in the folder, notably `CIK…-submissions-001.json` history pages,
 * is ignored because it is not a company of its own. null when the source cannot list (live).
 */
export async function listCiksInFolder(source: SecSource, folderUrl: string): Promise<string[] | null> {
  const names = await source.listDir(folderUrl);
  if (names === null) return null;
  const ciks: string[] = [];
  for (const name of names) {
    const m = MAIN_FILE.exec(name);
    if (m?.[1]) ciks.push(m[1]);
  }
  return ciks.sort();
}

/** Companies with XBRL company facts in the mirror; see listCiksInFolder. */
export function listCompanyFactsCiks(source: SecSource): Promise<string[] | null> {
  return listCiksInFolder(source, COMPANYFACTS_FOLDER_URL);
}

/** Companies with filing folders in the mirror (Archives/edgar/data/<cik>/), some of which have neither submissions nor company facts. */
export async function listPackageCiks(source: SecSource): Promise<string[] | null> {
  const names = await source.listDir(EDGAR_DATA_URL);
  if (names === null) return null;
  return names.filter((n) => /^\d{1,10}\/$/.test(n)).map((n) => padCik(n.slice(0, -1))).sort();
}
