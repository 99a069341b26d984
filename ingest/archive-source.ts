import { Readable } from 'node:stream';
import { padCik } from '../domain/cik.ts';
import type { Archives, ZipArchive } from './archives.ts';
import { COMPANYFACTS_FOLDER_URL, SUBMISSIONS_FOLDER_URL } from './cik-folder.ts';
import type { SecSource } from './source.ts';

/**
 * SEC_SOURCE with company facts and submissions answered from the bulk archives: a URL under
 * `https://data.sec.gov/api/xbrl/companyfacts/` or `https://data.sec.gov/submissions/` is the member
 * of the same name in companyfacts.zip or submissions.zip, and those folders list the members.
 * Everything else (ticker files, filing packages) still comes from `base`. Parsers and the
 * per-company pipeline see the same URLs and bytes as from a mirror folder, so an archive run
 * writes what a folder run of the same files writes.
 */
export function withArchives(base: SecSource, archives: Archives): SecSource {
  const route = (url: string): { archive: ZipArchive | null; member: string } | null => {
    if (url.startsWith(COMPANYFACTS_FOLDER_URL)) return { archive: archives.companyfacts, member: url.slice(COMPANYFACTS_FOLDER_URL.length) };
    if (url.startsWith(SUBMISSIONS_FOLDER_URL)) return { archive: archives.submissions, member: url.slice(SUBMISSIONS_FOLDER_URL.length) };
    return null;
  };
  const readBytes = async (url: string): Promise<Buffer | null> => {
    const r = route(url);
    if (!r) return base.readBytes(url);
    if (!r.archive) return null;
    return r.archive.read(decodeURIComponent(r.member));
  };
  const readText = async (url: string) => (await readBytes(url))?.toString('utf8') ?? null;
  return {
    kind: base.kind,
    describe: () => `${archives.describe()} and ${base.describe()}`,
    readBytes,
    readText,
    async readJson<T = unknown>(url: string): Promise<T | null> {
      const r = route(url);
      if (!r) return base.readJson<T>(url);
      const text = await readText(url);
      if (text === null) return null;
      try {
        return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as T;
      } catch (err) {
        throw new Error(`${r.archive!.name} member ${r.member} is not JSON: ${(err as Error).message}`, { cause: err });
      }
    },
    async openStream(url: string) {
      if (!route(url)) return base.openStream(url);
      const bytes = await readBytes(url);
      return bytes === null ? null : Readable.from([bytes]);
    },
    async listDir(url: string) {
      const folder = url.endsWith('/') ? url : `${url}/`;
      if (folder === COMPANYFACTS_FOLDER_URL) return archives.companyfacts?.names() ?? [];
      if (folder === SUBMISSIONS_FOLDER_URL) return archives.submissions?.names() ?? [];
      return base.listDir(url);
    },
    ...(base.stamp ? { stamp: base.stamp.bind(base) } : {}),
  };
}

/** The archive members that hold one company, for error messages and progress by bytes. */
export function companyMembers(archives: Archives, cik: string): { archive: ZipArchive; member: string }[] {
  const padded = padCik(cik);
  const out: { archive: ZipArchive; member: string }[] = [];
  const main = `CIK${padded}.json`;
  if (archives.companyfacts?.has(main)) out.push({ archive: archives.companyfacts, member: main });
  if (archives.submissions?.has(main)) {
    out.push({ archive: archives.submissions, member: main });
    for (let page = 1; ; page++) {
      const name = `CIK${padded}-submissions-${String(page).padStart(3, '0')}.json`;
      if (!archives.submissions.has(name)) break;
      out.push({ archive: archives.submissions, member: name });
    }
  }
  return out;
}

/** Compressed bytes of a company's members: its share of the archives, for progress and ETA. */
export function companyArchiveBytes(archives: Archives, cik: string): number {
  let n = 0;
  for (const m of companyMembers(archives, cik)) n += m.archive.compressedSize(m.member);
  return n;
}
