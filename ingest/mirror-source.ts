import { statSync } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseSecUrl } from './sec-url.ts';
import type { SecSource } from './source.ts';

/**
 * Maps an SEC URL to `<root>/<host>/<path>` and re-checks the result is inside root, so even a
 * bug in URL vetting cannot make the reader open files elsewhere on the machine.
 */
export function mirrorPathFor(root: string, url: string): { file: string; isFolder: boolean } {
  const { host, segments, isFolder, search } = parseSecUrl(url);
  if (search) throw new Error(`a mirror directory cannot answer queries: ${JSON.stringify(url)}`);
  const file = path.resolve(root, host, ...segments);
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (!file.startsWith(prefix)) throw new Error(`path traversal refused: ${JSON.stringify(url)}`);
  return { file, isFolder };
}

/** Directory-backed SecSource; see openSecSource. Reads straight from disk with no pacing, as nothing remote is involved. */
export function openMirrorSource(rootInput: string | URL): SecSource {
  const root = path.resolve(rootInput instanceof URL || /^file:/i.test(rootInput) ? fileURLToPath(rootInput) : rootInput);
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    // reported below with the same message as "not a directory"
  }
  if (!isDir) throw new Error(`SEC_SOURCE directory does not exist or is not a directory: ${root}`);

  const readBytes = async (url: string): Promise<Buffer | null> => {
    const { file } = mirrorPathFor(root, url);
    try {
      return await readFile(file);
    } catch (err) {
      if (isAbsent(err)) return null;
      throw err;
    }
  };
  // read whole, then decoded in one pass: readFile with an encoding decodes chunk by chunk into a
  // rope that JSON.parse then flattens, a second copy of every companyfacts file (71.5 MB per
  // mirror run, in a sampling heap profile of a whole-mirror ingestion)
  const readText = async (url: string): Promise<string | null> => (await readBytes(url))?.toString('utf8') ?? null;

  return {
    kind: 'mirror',
    describe: () => `SEC mirror directory ${root}`,
    readText,
    readBytes,
    async readJson<T = unknown>(url: string): Promise<T | null> {
      const text = await readText(url);
      if (text === null) return null;
      try {
        // some mirrored files were re-serialized by other tools, a few with a byte-order mark
        return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as T;
      } catch (err) {
        throw new Error(`malformed JSON in mirror file for ${url}`, { cause: err });
      }
    },
    async openStream(url: string): Promise<Readable | null> {
      const { file } = mirrorPathFor(root, url);
      try {
        // opening first turns "missing" into null now instead of an 'error' event later
        const handle = await open(file, 'r');
        if ((await handle.stat()).isDirectory()) {
          await handle.close();
          return null;
        }
        return handle.createReadStream();
      } catch (err) {
        if (isAbsent(err)) return null;
        throw err;
      }
    },
    async stamp(url: string): Promise<string | null> {
      const { file } = mirrorPathFor(root, url);
      try {
        const s = await stat(file);
        return `${s.size}:${Math.trunc(s.mtimeMs)}`;
      } catch (err) {
        if (isAbsent(err)) return null;
        throw err;
      }
    },
    async listDir(url: string): Promise<string[]> {
      const { file } = mirrorPathFor(root, url.endsWith('/') ? url : `${url}/`);
      try {
        const entries = await readdir(file, { withFileTypes: true });
        return entries
          .filter((e) => e.isFile() || e.isDirectory())
          .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
          .sort();
      } catch (err) {
        if (isAbsent(err)) return [];
        throw err;
      }
    },
  };
}

/** ENOTDIR/EISDIR too: a URL naming a folder as a file (or vice versa) is simply not there. */
function isAbsent(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
