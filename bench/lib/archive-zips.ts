import { createWriteStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/**
 * SEC's bulk archives as they would be for a mirror directory: companyfacts.zip with every
 * `CIK##########.json` of data.sec.gov/api/xbrl/companyfacts/, and submissions.zip with every file
 * of data.sec.gov/submissions/ (main files and `CIK##########-submissions-###.json` history pages),
 * deflated, members at the archive's top level as SEC lays them out. Written into `outDir`
 * (the synthetic corpus, a test's temporary directory); never into the repository.
 */
export async function writeArchives(mirror: string, outDir: string): Promise<{ companyfacts: ArchiveWritten; submissions: ArchiveWritten }> {
  return {
    companyfacts: await zipFolder(path.join(mirror, 'data.sec.gov/api/xbrl/companyfacts'), path.join(outDir, 'companyfacts.zip'), /^CIK\d{10}\.json$/),
    submissions: await zipFolder(path.join(mirror, 'data.sec.gov/submissions'), path.join(outDir, 'submissions.zip'), /^CIK\d{10}(-submissions-\d{3,})?\.json$/),
  };
}

export interface ArchiveWritten {
  file: string;
  members: number;
}

async function zipFolder(dir: string, file: string, names: RegExp): Promise<ArchiveWritten> {
  const members = (await readdir(dir).catch(() => [] as string[])).filter((n) => names.test(n)).sort();
  const zip = new yazl.ZipFile();
  for (const name of members) zip.addFile(path.join(dir, name), name, { compress: true });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
  return { file, members: members.length };
}

/** A zip of the given members, for tests that need a bad or unusual archive. */
export async function writeZip(file: string, members: readonly { name: string; data: Buffer | string }[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const m of members) zip.addBuffer(typeof m.data === 'string' ? Buffer.from(m.data) : m.data, m.name, { compress: true });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}
