import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { openLiveSource } from './live-source.ts';
import { openMirrorSource } from './mirror-source.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { SecRequestGate } from './sec-access.ts';

export { SecFetchError } from './sec-fetch-error.ts';

/**
 * The one way ingest reads SEC data, whatever SEC_SOURCE points at. Callers always pass the
 * real SEC URL (`https://data.sec.gov/submissions/CIK0000320193.json`) so parsers never care
 * whether bytes came from a mirror directory or from SEC itself.
 *
 * Absent data (missing file, HTTP 404) is `null`, never an exception: SEC legitimately lacks
 * files (unlisted history pages, companies without XBRL) and callers must handle that as data.
 * Everything else (refused URL, malformed JSON, exhausted retries) throws.
 */
export interface SecSource {
  readonly kind: 'mirror' | 'live';
  /** for logs: where data comes from, never secrets */
  describe(): string;
  /** parsed JSON; buffers the whole body, so prefer openStream for very large files */
  readJson<T = unknown>(url: string): Promise<T | null>;
  readText(url: string): Promise<string | null>;
  /** the whole (decompressed) body as bytes, for a caller that hashes or measures them before decoding */
  readBytes(url: string): Promise<Buffer | null>;
  /** raw (decompressed) body as a stream, so large files never sit in memory whole */
  openStream(url: string): Promise<Readable | null>;
  /**
   * Entry names in a folder URL (`https://data.sec.gov/submissions/`), sorted; folder entries
   * end in `/`. A missing folder lists as []. `null` means this source cannot list at all
   * (SEC publishes no directory listings for data.sec.gov), so callers must fall back to an
   * index file such as company_tickers.json.
   */
  listDir(url: string): Promise<string[] | null>;
  /**
   * A cheap stamp of a file's current content (a mirror's size and modification time) for change
   * detection without reading it; absent where the source has none (live SEC, whose archive
   * files never change once disseminated). null for a missing file.
   */
  stamp?(url: string): Promise<string | null>;
}

/** Knobs for live mode; a mirror directory needs none, so all are optional. */
export interface SecSourceOptions {
  /** required for live mode; SEC blocks anonymous clients (SEC_USER_AGENT, e.g. "Acme ops@acme.com") */
  userAgent?: string | null;
  /** live mode: ceiling for this source; the process-wide pacer never exceeds SEC's 10/s anyway */
  maxRps?: number;
  /**
   * live mode: send requests for an SEC host to another origin instead (`{ 'data.sec.gov':
   * 'http://127.0.0.1:4567' }`). Exists so pacing and retries can be tested against a local
   * server; plain http is only accepted for loopback origins.
   */
  hostMap?: Readonly<Record<string, string>>;
  /** live mode: what each request waits for; the process's (ingest/sec-access.ts) otherwise */
  gate?: SecRequestGate;
  /** live mode: undici dispatcher (connection pool / proxy); undici's global one otherwise */
  dispatcher?: Dispatcher;
  /** live mode: override attempts and backoff, mainly so tests need not wait for real backoff */
  retry?: Partial<RetryPolicy>;
}

/**
 * Opens SEC_SOURCE: a directory mirroring SEC's sites (path = host + URL path), or an https://
 * sec.gov base meaning the live sites. Fails fast on a bad root so a typo does not masquerade
 * as "SEC has no data for anyone".
 */
export function openSecSource(root: string | URL, opts: SecSourceOptions = {}): SecSource {
  const text = root instanceof URL ? root.href : root;
  if (/^https:\/\//i.test(text)) return openLiveSource(text, opts);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && !/^file:/i.test(text)) {
    throw new Error(`SEC_SOURCE must be a mirror directory or an https:// base, got ${JSON.stringify(text)}`);
  }
  return openMirrorSource(root);
}
