import { pipeline, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip, createInflate } from 'node:zlib';
import { request, type Dispatcher } from 'undici';
import { isLoopbackHost } from '../domain/loopback.ts';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, isRetryableStatus, parseRetryAfterMs, type RetryPolicy } from './retry-policy.ts';
import { SEC_MAX_RPS } from './request-pacer.ts';
import { secAccess } from './sec-access.ts';
import { SecFetchError } from './sec-fetch-error.ts';
import { isSecHost, parseSecUrl } from './sec-url.ts';
import type { SecSource, SecSourceOptions } from './source.ts';

const HEADERS_TIMEOUT_MS = 30_000;
/** after a 403 (SEC blocks a client that exceeded its limit) every process waits this long before asking again */
const BLOCKED_PAUSE_MS = 60_000;
/** between body chunks, not the whole body: companyfacts files are large but stream steadily */
const BODY_TIMEOUT_MS = 60_000;

/** HTTP-backed SecSource for SEC's live sites; see openSecSource for the contract. */
export function openLiveSource(base: string, opts: SecSourceOptions): SecSource {
  const baseUrl = new URL(base);
  if (!isSecHost(baseUrl.hostname)) {
    throw new Error(`SEC_SOURCE https base must be an sec.gov site (got ${base}); a mirror must be a directory`);
  }
  const userAgent = opts.userAgent?.trim();
  if (!userAgent) {
    throw new Error(
      'SEC_SOURCE is the live SEC site but no User-Agent is set: set SEC_USER_AGENT to "<company or name> <email>" ' +
        '(SEC blocks clients that do not identify themselves)',
    );
  }
  const maxRps = opts.maxRps ?? SEC_MAX_RPS;
  if (!Number.isFinite(maxRps) || maxRps <= 0) throw new Error(`maxRps must be a positive number, got ${maxRps}`);
  const origins = checkHostMap(opts.hostMap ?? secAccess().hostMap);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) throw new Error(`retry.attempts must be >= 1, got ${policy.attempts}`);
  const headers = { 'user-agent': userAgent, 'accept-encoding': 'gzip, deflate' };

  /**
   * One GET with pacing and retries. `consume` runs inside the retry loop so a connection
   * dropped mid-body is retried like any other transient failure. null = 404/410.
   */
  async function fetchWith<T>(url: string, consume: (body: Readable) => Promise<T>): Promise<T | null> {
    const { host } = parseSecUrl(url);
    const parsed = new URL(url);
    const target = `${origins.get(host) ?? `https://${host}`}${parsed.pathname}${parsed.search}`;
    for (let attempt = 1; ; attempt++) {
      // the gate is looked up per request: a source opened before the process set its fleet budget uses it too
      const gate = opts.gate ?? secAccess().gate;
      await gate.wait(maxRps);
      let retryAfterMs: number | null = null;
      let failure: SecFetchError;
      try {
        const res = await request(target, {
          method: 'GET',
          headers,
          headersTimeout: HEADERS_TIMEOUT_MS,
          bodyTimeout: BODY_TIMEOUT_MS,
          ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
        });
        const status = res.statusCode;
        if (status >= 200 && status < 300) return await consume(decodedBody(res, url));
        await res.body.dump();
        if (status === 404 || status === 410) return null;
        failure = new SecFetchError(`SEC answered ${status} for ${url}${hintFor(status)}`, url, status);
        retryAfterMs = parseRetryAfterMs(res.headers['retry-after']);
        // SEC's answer to too many requests holds every process of the fleet, not only this request
        const pauseMs = status === 403 ? Math.max(retryAfterMs ?? 0, BLOCKED_PAUSE_MS) : status === 429 || retryAfterMs !== null ? (retryAfterMs ?? backoffDelayMs(policy, attempt, null)) : 0;
        if (pauseMs > 0) await gate.pause(Math.min(pauseMs, policy.maxRetryAfterMs), `SEC answered ${status}`);
        if (!isRetryableStatus(status)) throw failure;
        if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) {
          throw new SecFetchError(`SEC answered ${status} with Retry-After ${retryAfterMs / 1000}s for ${url}; giving up`, url, status);
        }
      } catch (err) {
        if (err instanceof SecFetchError) throw err;
        failure = new SecFetchError(`request to SEC failed for ${url}: ${(err as Error).message}`, url, null, { cause: err });
      }
      if (attempt >= policy.attempts) {
        throw new SecFetchError(`${failure.message} (gave up after ${attempt} attempts)`, url, failure.status, { cause: failure });
      }
      await sleep(backoffDelayMs(policy, attempt, retryAfterMs));
    }
  }

  const readBytes = (url: string) => fetchWith(url, readAll);
  const readText = async (url: string) => (await readBytes(url))?.toString('utf8') ?? null;

  return {
    kind: 'live',
    describe: () => `live SEC sites (${baseUrl.origin}, at most ${Math.min(maxRps, SEC_MAX_RPS)} requests/s, User-Agent set)`,
    readText,
    readBytes,
    async readJson<T = unknown>(url: string): Promise<T | null> {
      const text = await readText(url);
      if (text === null) return null;
      try {
        return JSON.parse(text) as T;
      } catch (err) {
        throw new SecFetchError(`SEC returned malformed JSON for ${url}`, url, 200, { cause: err });
      }
    },
    openStream: (url: string) => fetchWith(url, async (body) => body),
    // SEC publishes no listings for data.sec.gov; enumerate companies from company_tickers.json
    listDir: async () => null,
  };
}

/** Undoes the gzip/deflate we ask SEC for: bandwidth matters for multi-megabyte companyfacts. */
function decodedBody(res: Dispatcher.ResponseData, url: string): Readable {
  const encoding = String(res.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  const noop = () => {};
  if (encoding === 'identity' || encoding === '') return res.body;
  if (encoding === 'gzip' || encoding === 'x-gzip') return pipeline(res.body, createGunzip(), noop);
  if (encoding === 'deflate') return pipeline(res.body, createInflate(), noop);
  res.body.destroy();
  throw new SecFetchError(`SEC sent unsupported content-encoding ${encoding} for ${url}`, url, res.statusCode);
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

function hintFor(status: number): string {
  if (status === 403) return ' (SEC refuses clients without a descriptive User-Agent and blocks IPs that exceed 10 requests/s)';
  return '';
}

/** Only loopback may be plain http: anything else would send our User-Agent (an email) in clear. */
function checkHostMap(map: Readonly<Record<string, string>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [host, origin] of Object.entries(map)) {
    if (!isSecHost(host)) throw new Error(`hostMap key must be an SEC host, got ${JSON.stringify(host)}`);
    const u = new URL(origin);
    const plainOk = u.protocol === 'http:' && isLoopbackHost(u.hostname);
    if (u.protocol !== 'https:' && !plainOk) throw new Error(`hostMap origin must be https:// or http:// on loopback, got ${origin}`);
    if (u.pathname !== '/' || u.search || u.hash) throw new Error(`hostMap value must be a bare origin, got ${origin}`);
    out.set(host.toLowerCase(), u.origin);
  }
  return out;
}
