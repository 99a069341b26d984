import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { openLiveSource } from './live-source.ts';
import type { SecSourceOptions } from './source.ts';

/** SEC's nightly bulk archives: every company's facts, and every filer's submissions with their history pages. */
export const COMPANYFACTS_ARCHIVE_URL = 'https://www.sec.gov/Archives/edgar/daily-index/xbrl/companyfacts.zip';
export const SUBMISSIONS_ARCHIVE_URL = 'https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip';
export const ARCHIVE_NAMES = { companyfacts: 'companyfacts.zip', submissions: 'submissions.zip' } as const;
export type ArchiveKind = keyof typeof ARCHIVE_NAMES;

/**
 * The largest member inflated by default. SEC's largest companyfacts member is well under 100 MB;
 * a member past the bound is refused (a zip bomb) before or while it inflates, never held whole.
 */
export const DEFAULT_MAX_MEMBER_BYTES = 512 * 1024 * 1024;

/** A bad archive or member: the message names the archive and the member, never a server path. */
export class ArchiveError extends Error {}

interface MemberEntry {
  entry: yauzl.Entry;
  compressedSize: number;
}

/** One opened zip: its central directory indexed by member name, read member by member with random access. */
export interface ZipArchive {
  readonly kind: ArchiveKind;
  readonly name: string;
  /** the local file (a downloaded archive's temporary copy) */
  readonly file: string;
  readonly bytes: number;
  names(): string[];
  has(name: string): boolean;
  compressedSize(name: string): number;
  /** a member's inflated bytes; null when the archive has no such member */
  read(name: string): Promise<Buffer | null>;
}

/** The opened archives of one run; either may be absent (a folder holding only one of them). */
export interface Archives {
  readonly companyfacts: ZipArchive | null;
  readonly submissions: ZipArchive | null;
  /** the local files, for worker processes to open the same archives */
  readonly files: ArchiveFiles;
  describe(): string;
  close(): Promise<void>;
}

export interface ArchiveFiles {
  companyfacts: string | null;
  submissions: string | null;
}

export interface OpenArchivesOptions extends SecSourceOptions {
  maxMemberBytes?: number;
  /** where a downloaded archive is kept while the run reads it (default the system's temporary directory) */
  tempDir?: string;
  log?: (message: string) => void;
}

/**
 * Opens the archives at `location`: a directory holding companyfacts.zip and/or submissions.zip,
 * or an https:// sec.gov base, from which both are downloaded (through the live source's client:
 * User-Agent, pacing and retries) into one temporary file each, removed when the archives close.
 */
export async function openArchives(location: string, options: OpenArchivesOptions = {}): Promise<Archives> {
  if (/^https:\/\//i.test(location)) return downloadArchives(location, options);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) throw new ArchiveError(`--archives takes a directory or an https:// sec.gov base, got ${JSON.stringify(location)}`);
  const dir = path.resolve(location);
  const files: ArchiveFiles = { companyfacts: null, submissions: null };
  for (const kind of ['companyfacts', 'submissions'] as const) {
    const file = path.join(dir, ARCHIVE_NAMES[kind]);
    if (await stat(file).then((s) => s.isFile(), () => false)) files[kind] = file;
  }
  if (!files.companyfacts && !files.submissions) throw new ArchiveError(`no ${ARCHIVE_NAMES.companyfacts} or ${ARCHIVE_NAMES.submissions} in the archives directory`);
  return openArchiveFiles(files, options, async () => {});
}

/** Opens archives already on this machine (a worker process opening its parent's files). */
export async function openArchiveFiles(files: ArchiveFiles, options: OpenArchivesOptions = {}, cleanup: () => Promise<void> = async () => {}): Promise<Archives> {
  const max = options.maxMemberBytes ?? DEFAULT_MAX_MEMBER_BYTES;
  const opened: ZipArchive[] = [];
  const zips: yauzl.ZipFile[] = [];
  try {
    const get = async (kind: ArchiveKind) => {
      const file = files[kind];
      if (!file) return null;
      const { archive, zip } = await openZip(kind, file, max);
      opened.push(archive);
      zips.push(zip);
      return archive;
    };
    const companyfacts = await get('companyfacts');
    const submissions = await get('submissions');
    return {
      companyfacts,
      submissions,
      files,
      describe: () => `SEC bulk archives (${opened.map((a) => a.name).join(', ')})`,
      close: async () => {
        for (const z of zips) z.close();
        await cleanup();
      },
    };
  } catch (err) {
    for (const z of zips) z.close();
    await cleanup();
    throw err;
  }
}

async function openZip(kind: ArchiveKind, file: string, max: number): Promise<{ archive: ZipArchive; zip: yauzl.ZipFile }> {
  const name = ARCHIVE_NAMES[kind];
  let zip: yauzl.ZipFile;
  const members = new Map<string, MemberEntry>();
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      // only what reading needs stays in memory: full EDGAR's submissions.zip has close to a million members
      entry.extraFieldRaw = EMPTY;
      entry.fileCommentRaw = EMPTY;
      entry.fileNameRaw = EMPTY;
      members.set(entry.fileName, { entry, compressedSize: entry.compressedSize });
    }
  } catch (err) {
    throw new ArchiveError(`${name} cannot be read as a zip archive (truncated or corrupt): ${(err as Error).message}`);
  }
  const bytes = (await stat(file)).size;
  const sorted = [...members.keys()].sort();
  const archive: ZipArchive = {
    kind,
    name,
    file,
    bytes,
    names: () => sorted,
    has: (member) => members.has(member),
    compressedSize: (member) => members.get(member)?.compressedSize ?? 0,
    async read(member) {
      const m = members.get(member);
      if (!m) return null;
      if (m.entry.uncompressedSize > max) {
        throw new ArchiveError(`${name} member ${member} inflates to ${m.entry.uncompressedSize} bytes, past the bound of ${max} (refused as a zip bomb)`);
      }
      try {
        const stream = await zip.openReadStreamPromise(m.entry);
        const chunks: Buffer[] = [];
        let n = 0;
        for await (const chunk of stream) {
          n += (chunk as Buffer).length;
          if (n > max) {
            stream.destroy();
            throw new ArchiveError(`${name} member ${member} inflates past the bound of ${max} bytes (refused as a zip bomb)`);
          }
          chunks.push(chunk as Buffer);
        }
        return Buffer.concat(chunks, n);
      } catch (err) {
        if (err instanceof ArchiveError) throw err;
        throw new ArchiveError(`${name} member ${member} cannot be read (truncated or corrupt): ${(err as Error).message}`);
      }
    },
  };
  return { archive, zip: zip! };
}

const EMPTY = Buffer.alloc(0);

async function downloadArchives(base: string, options: OpenArchivesOptions): Promise<Archives> {
  const live = openLiveSource(base, options);
  const dir = await mkdtemp(path.join(options.tempDir ?? os.tmpdir(), 'fds-archives-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const files: ArchiveFiles = { companyfacts: null, submissions: null };
  try {
    for (const [kind, url] of [['companyfacts', COMPANYFACTS_ARCHIVE_URL], ['submissions', SUBMISSIONS_ARCHIVE_URL]] as const) {
      options.log?.(`downloading ${url}`);
      const body = await live.openStream(url);
      if (!body) throw new ArchiveError(`SEC has no ${ARCHIVE_NAMES[kind]} at ${url}`);
      const file = path.join(dir, ARCHIVE_NAMES[kind]);
      await pipeline(body, createWriteStream(file));
      files[kind] = file;
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
  return openArchiveFiles(files, options, cleanup);
}
