/**
 * Callers address SEC data by its real URL so the same code reads a mirror or the live sites;
 * this module is the single gate that decides which URLs are acceptable, so neither source
 * can be talked into reading outside SEC (live) or outside the mirror root (directory).
 */
export interface SecUrl {
  /** lowercase SEC host, e.g. `data.sec.gov` */
  host: string;
  /** decoded path segments; never empty strings, `.`, `..`, or containing a separator */
  segments: string[];
  /** true when the URL ended in `/` (a folder, for listings) */
  isFolder: boolean;
  /** `?query` as given, or '' */
  search: string;
}

const SEC_HOST = /^(?:[a-z0-9-]+\.)*sec\.gov$/;

/** True for sec.gov and its subdomains: the only hosts a SecSource will ever contact or map. */
export function isSecHost(host: string): boolean {
  return SEC_HOST.test(host.toLowerCase());
}

/**
 * Parses and vets an absolute SEC URL. Throws (rather than returning null) because a bad URL
 * is a programming error, not "file absent", and must never be mistaken for a missing file.
 * `..` is refused even where WHATWG URL parsing would silently collapse it: a caller writing
 * `..` is confused about what it is reading, and the raw check also catches `%2e%2e`.
 */
export function parseSecUrl(raw: string): SecUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`not an absolute SEC URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'https:') throw new Error(`SEC URLs must be https://, got ${JSON.stringify(raw)}`);
  if (url.username || url.password || url.port) throw new Error(`SEC URL must not carry credentials or a port: ${JSON.stringify(raw)}`);
  if (!isSecHost(url.hostname)) throw new Error(`not an SEC host (*.sec.gov): ${JSON.stringify(raw)}`);

  const beforeQuery = raw.split(/[?#]/, 1)[0] ?? '';
  if (beforeQuery.split(/[/\\]/).some((s) => isDotSegment(safeDecode(s, raw)))) {
    throw new Error(`path traversal refused: ${JSON.stringify(raw)}`);
  }

  const encoded = url.pathname.split('/').slice(1);
  const isFolder = url.pathname.endsWith('/');
  if (isFolder) encoded.pop();
  const segments = encoded.map((s) => safeDecode(s, raw));
  for (const s of segments) {
    if (s === '' || isDotSegment(s) || /[/\\\0]/.test(s)) throw new Error(`unsafe path segment ${JSON.stringify(s)} in ${JSON.stringify(raw)}`);
  }
  return { host: url.hostname.toLowerCase(), segments, isFolder, search: url.search };
}

function isDotSegment(s: string): boolean {
  return s === '.' || s === '..';
}

function safeDecode(segment: string, raw: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new Error(`malformed percent-encoding in ${JSON.stringify(raw)}`);
  }
}
