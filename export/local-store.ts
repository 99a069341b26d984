import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DOWNLOAD_PREFIX, isValidKey, type BlobStore, type DownloadCheck, type LocalDownloads } from '../domain/bulk/blob-store.ts';

function assertKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
}

function signature(secret: Buffer, key: string, expires: string): string {
  return createHmac('sha256', secret).update(`GET\n${DOWNLOAD_PREFIX}${key}\n${expires}`).digest('hex');
}

/** The signature is checked before the expiry, so an altered `expires` reads as tampering. */
export function verifyDownload(
  secret: Buffer,
  key: string,
  expires: string | null | undefined,
  sig: string | null | undefined,
  now: Date,
): DownloadCheck {
  if (!expires || !/^[0-9]{1,12}$/.test(expires) || !sig || !/^[0-9a-f]{64}$/i.test(sig)) return 'bad_signature';
  const given = Buffer.from(sig, 'hex');
  const wanted = Buffer.from(signature(secret, key, expires), 'hex');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return 'bad_signature';
  return now.getTime() >= Number(expires) * 1000 ? 'expired' : 'ok';
}

/** Why link() may refuse where a copy works: another file system, or one without hard links. */
const LINK_REFUSED = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

export class LocalStore implements BlobStore, LocalDownloads {
  readonly kind = 'local' as const;
  private readonly root: string;
  private readonly secret: Buffer;
  private readonly baseUrl: () => string;

  constructor(options: { root: string; secret: Buffer; baseUrl: () => string }) {
    this.root = path.resolve(options.root);
    this.secret = options.secret;
    this.baseUrl = options.baseUrl;
  }

  /** The file behind a key; throws on a key that could leave the root. */
  pathOf(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  verify(key: string, expires: string | null, sig: string | null, now: Date): DownloadCheck {
    return verifyDownload(this.secret, key, expires, sig, now);
  }

  /** The local file is handed over (hard-linked when it is on the store's file system): change it no more, only remove it. */
  async put(key: string, localPath: string): Promise<void> {
    await this.placeInto(localPath, this.pathOf(key));
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    await this.placeInto(this.pathOf(fromKey), this.pathOf(toKey));
  }

  /**
   * Readers never see a half-written object: the file goes in under a hidden temp name, then is
   * renamed over. Objects are never written in place (each put or copy renames a new file over the
   * key), so a hard link is as good as a copy and costs neither the bytes nor a new file; across
   * file systems it is a copy.
   */
  private async placeInto(source: string, dest: string): Promise<void> {
    await mkdir(path.dirname(dest), { recursive: true });
    const tmp = path.join(path.dirname(dest), `.${path.basename(dest)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      try {
        await link(source, tmp);
      } catch (err) {
        if (!LINK_REFUSED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
        await copyFile(source, tmp);
      }
      await rename(tmp, dest);
    } finally {
      // also after success: renaming onto another link of the same file leaves the temp name in place
      await unlink(tmp).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    // an empty prefix would be the whole store: never what a retention pass means
    if (prefix === '') throw new Error('deletePrefix needs a non-empty prefix');
    if (prefix.endsWith('/')) {
      await rm(this.pathOf(prefix.slice(0, -1)), { recursive: true, force: true });
      return;
    }
    for (const key of await this.list(prefix)) await rm(this.pathOf(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const slash = prefix.lastIndexOf('/');
    const dirKey = prefix.slice(0, slash + 1);
    const start = dirKey === '' ? this.root : this.pathOf(dirKey.slice(0, -1));
    const keys: string[] = [];
    await this.walk(start, dirKey, keys);
    return keys.filter((k) => k.startsWith(prefix)).sort();
  }

  private async walk(dir: string, keyPrefix: string, out: string[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries) {
      const key = keyPrefix + e.name;
      if (!isValidKey(key)) continue;
      if (e.isDirectory()) await this.walk(path.join(dir, e.name), `${key}/`, out);
      else if (e.isFile()) out.push(key);
    }
  }

  async signedUrl(key: string, expiresAt: Date): Promise<string> {
    assertKey(key);
    // rounded down: the URL never outlives the grant it was issued for
    const expires = String(Math.floor(expiresAt.getTime() / 1000));
    return `${this.baseUrl()}${DOWNLOAD_PREFIX}${key}?expires=${expires}&signature=${signature(this.secret, key, expires)}`;
  }
}

const SECRET_FILE = '.signing-secret';

/**
 * BULK_SIGNING_SECRET when set; otherwise a random secret made on first start and kept in the
 * bulk directory, so URLs issued before a restart still verify after it.
 */
export async function loadSigningSecret(bulkDir: string, configured: string | null): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  await mkdir(bulkDir, { recursive: true });
  const file = path.join(bulkDir, SECRET_FILE);
  const existing = await readSecret(file);
  if (existing) return existing;
  // link() refuses to replace: of two processes starting at once, both end up with the first one's secret
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(tmp);
  }
  const secret = await readSecret(file);
  if (!secret) throw new Error(`${file} vanished while it was being created`);
  return secret;
}

async function readSecret(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} does not hold a 32-byte hex secret; remove it to make a new one`);
  return Buffer.from(hex, 'hex');
}
