/**
 * What callers may learn about where data comes from: its kind, never a server path. An SEC source
 * is a mirror directory on the server's disk or the live SEC sites over https.
 */
export type SourceKind = 'directory' | 'live';

export function sourceKindOf(source: string): SourceKind {
  return /^https?:\/\//i.test(source) ? 'live' : 'directory';
}

/** Absolute file paths (two segments or more) not inside a URL; a URL's own path stays readable. */
const ABSOLUTE_PATH = /(?<![\w:/.~-])\/(?:[\w.@+~-]+\/)+[\w.@+~-]*/g;

/**
 * Text bound for a caller (stored run errors, progress lines) with server paths replaced: the
 * configured source by its kind, any other absolute path by `<path>`.
 */
export function withoutServerPaths(text: string, source: string): string {
  let out = text;
  if (sourceKindOf(source) === 'directory' && source.length > 1) out = out.split(source).join('<SEC mirror>');
  return out.replace(ABSOLUTE_PATH, '<path>');
}
