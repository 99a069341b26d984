import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { isLoopbackHost } from '../../domain/loopback.ts';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, isRetryableStatus, type RetryPolicy } from '../retry-policy.ts';

/**
 * Where macro series come from, whatever MACRO_SOURCE names: a directory laid out like
 * ../shared/macro (`fred/<CODE>.csv`, `date,value`) or the publisher itself (FRED's CSV download,
 * `https://fred.stlouisfed.org`). Both give the file text for a series code; the loader parses and
 * stores it the same way, so the code path tested on the directory is the one used live.
 */
export interface MacroSource {
  readonly kind: 'directory' | 'live';
  /** for logs and the registry route: names the kind and publisher, never a local path */
  readonly name: string;
  /** the series' CSV text, or null when the source has no file for it */
  readSeries(code: string): Promise<{ text: string; origin: string } | null>;
}


/** Opens MACRO_SOURCE; a directory that does not exist fails at once rather than loading nothing. */
export async function openMacroSource(root: string, opts: { retry?: Partial<RetryPolicy> } = {}): Promise<MacroSource> {
  if (/^https:\/\//i.test(root)) return liveFredSource(root, opts.retry);
  // plain http only to this machine: a stand-in publisher for tests of the live path
  if (/^http:\/\//i.test(root) && isLoopbackHost(new URL(root).hostname)) return liveFredSource(root, opts.retry);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(root)) throw new Error(`MACRO_SOURCE must be a directory or an https:// FRED base, got ${JSON.stringify(root)}`);
  const dir = path.resolve(root);
  const folder = path.join(dir, 'fred');
  const isDir = await stat(folder).then((s) => s.isDirectory(), () => false);
  if (!isDir) throw new Error(`MACRO_SOURCE directory has no fred/ folder: ${dir}`);
  return {
    kind: 'directory',
    name: 'FRED mirror directory',
    async readSeries(code) {
      if (!/^[A-Z0-9]+$/.test(code)) throw new Error(`not a series code: ${JSON.stringify(code)}`);
      const file = path.join(folder, `${code}.csv`);
      try {
        return { text: await readFile(file, 'utf8'), origin: `fred/${code}.csv` };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}

/**
 * FRED's public CSV download (`/graph/fredgraph.csv?id=CODE`, header `observation_date,CODE`,
 * "." or empty for no value), with the SEC reader's retry policy. Ready for a scheduled refresh;
 * FRED serves the current vintage only, so values stay knowable by release lag, and a revision
 * becomes a new row from the day a load first sees it.
 */
function liveFredSource(base: string, retry: Partial<RetryPolicy> = {}): MacroSource {
  const origin = new URL(base).origin;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...retry };
  return {
    kind: 'live',
    name: `FRED (${origin})`,
    async readSeries(code) {
      const url = `${origin}/graph/fredgraph.csv?id=${encodeURIComponent(code)}`;
      for (let attempt = 1; ; attempt++) {
        let failure: Error;
        let retryable = true;
        try {
          const res = await request(url, { method: 'GET', headersTimeout: 30_000, bodyTimeout: 60_000 });
          if (res.statusCode >= 200 && res.statusCode < 300) return { text: await res.body.text(), origin: url };
          await res.body.dump();
          if (res.statusCode === 404) return null;
          failure = new Error(`FRED answered ${res.statusCode} for ${url}`);
          retryable = isRetryableStatus(res.statusCode);
        } catch (err) {
          failure = new Error(`request to FRED failed for ${url}: ${(err as Error).message}`, { cause: err });
        }
        if (!retryable) throw failure;
        if (attempt >= policy.attempts) throw new Error(`${failure.message} (gave up after ${attempt} attempts)`, { cause: failure });
        await sleep(backoffDelayMs(policy, attempt, null));
      }
    },
  };
}
