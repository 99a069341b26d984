import type { QName } from '../../domain/xbrl.ts';

/**
 * Concept names are compared across filings and against SEC companyfacts, so they must not depend
 * on the prefix a filer happened to declare (`us-gaap`, `usgaap`, `ns1`...) nor on the taxonomy
 * year in the namespace URI. Standard taxonomies are therefore named by namespace; a filer's own
 * extension keeps the filer's prefix, as nothing else names it.
 */
const STANDARD_NAMESPACES: ReadonlyArray<readonly [RegExp, string | null]> = [
  // FASB since 2011: http://fasb.org/us-gaap/2023, http://fasb.org/srt/2018-01-31
  [/^http:\/\/fasb\.org\/(us-gaap|srt)\/\d{4}(?:-\d{2}-\d{2})?$/, null],
  // XBRL US, 2009-2010 filings: http://xbrl.us/us-gaap/2009-01-31. Its siblings (us-gaap-ent,
  // negated, us-types...) are not concept namespaces of facts companyfacts reports, so they keep theirs.
  [/^http:\/\/xbrl\.us\/(us-gaap|dei|invest)\/\d{4}-\d{2}-\d{2}$/, null],
  // every SEC-owned taxonomy is http://xbrl.sec.gov/<prefix>/<version> (dei, country, currency,
  // ecd, exch, naics, sic, stpr, cyd, invest...), so one rule also covers taxonomies SEC adds later
  [/^http:\/\/xbrl\.sec\.gov\/([a-z][a-z0-9-]*)\/\d{4}(?:-\d{2}-\d{2})?$/, null],
  [/^http:\/\/xbrl\.ifrs\.org\/taxonomy\/\d{4}-\d{2}-\d{2}\/ifrs-full$/, 'ifrs-full'],
];

// Documents repeat a handful of namespaces thousands of times; the regexes run once per URI.
const cache = new Map<string, string | null>();

function lookupStandard(namespaceUri: string): string | null {
  let hit = cache.get(namespaceUri);
  if (hit !== undefined) return hit;
  hit = null;
  for (const [pattern, fixed] of STANDARD_NAMESPACES) {
    const m = pattern.exec(namespaceUri);
    if (m) {
      hit = fixed ?? m[1] ?? null;
      break;
    }
  }
  cache.set(namespaceUri, hit);
  return hit;
}

/** The standard prefix for a standard taxonomy namespace, else the document's own prefix. */
export function standardPrefix(namespaceUri: string, documentPrefix: string): string {
  return lookupStandard(namespaceUri) ?? documentPrefix;
}

/** `prefix:local` with the prefix normalized by standardPrefix; a name with no prefix stays bare. */
export function qname(namespaceUri: string, localName: string, documentPrefix: string): QName {
  const prefix = standardPrefix(namespaceUri, documentPrefix);
  return prefix ? `${prefix}:${localName}` : localName;
}

/**
 * Normalizes a QName written as text or in an attribute (`dimension="us-gaap:SegmentsAxis"`,
 * an explicitMember's content), whose prefix only means something through the declarations in
 * scope at that element. An undeclared prefix is kept as written rather than failing the whole
 * document over one member name.
 */
export function resolveQName(written: string, resolvePrefix: (prefix: string) => string | undefined): QName {
  const text = written.trim();
  const colon = text.indexOf(':');
  const prefix = colon < 0 ? '' : text.slice(0, colon);
  const local = colon < 0 ? text : text.slice(colon + 1);
  const uri = resolvePrefix(prefix);
  return uri === undefined ? text : qname(uri, local, prefix);
}

/**
 * Whether a concept prefix names a standard taxonomy in this document (us-gaap, dei, srt,
 * ifrs-full...) rather than the filer's own extension. Concept prefixes are already standardized
 * by namespace, so a prefix is standard exactly when one of the document's namespaces maps to it.
 */
export function isStandardPrefix(prefix: string, namespaces: Readonly<Record<string, string>>): boolean {
  for (const uri of Object.values(namespaces)) if (lookupStandard(uri) === prefix) return true;
  return false;
}
