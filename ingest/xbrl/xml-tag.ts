import type { SaxesAttributeNS, SaxesTagNS } from 'saxes';
import { XML_NAMESPACE, XMLNS_NAMESPACE } from './xml-syntax.ts';

/**
 * The tag objects the scanner (xml-scan.ts) hands its readers, and the namespace scopes they carry.
 */

/**
 * Prototype of attribute and namespace maps: no Object.prototype members (an attribute named
 * `__proto__` or `constructor` is an ordinary key), yet, unlike Object.create(null), objects made
 * from it keep V8's fast properties.
 */
export const BARE: object = Object.create(null) as object;
/** the ns of a tag without declarations and the attributes of a tag without any: shared, never written */
export const NO_NAMESPACES: Record<string, string> = Object.freeze(Object.create(BARE) as Record<string, string>);
export const NO_ATTRIBUTES: Record<string, SaxesAttributeNS> = Object.freeze(Object.create(BARE) as Record<string, SaxesAttributeNS>);

/** A map of `entries` on the BARE prototype. */
export function bareRecord(entries: Readonly<Record<string, string>>): Record<string, string> {
  return Object.assign(Object.create(BARE) as Record<string, string>, entries);
}

/** the scope outside the root: the two prefixes XML binds itself */
export const ROOT_SCOPE: Readonly<Record<string, string>> = withDeclarations(NO_NAMESPACES, bareRecord({ xml: XML_NAMESPACE, xmlns: XMLNS_NAMESPACE }));

/** A tag as saxes shapes it (SaxesTagNS); plain attributes are made on first read. */
export class ScannedTag implements SaxesTagNS {
  uri = '';
  /** the attributes once made */
  made: Record<string, SaxesAttributeNS> | null = null;
  /** the document and the attributes' name and value spans, until they are made */
  doc: string | null = null;
  spans: number[] | null = null;

  constructor(
    readonly name: string,
    readonly prefix: string,
    readonly local: string,
    readonly ns: Record<string, string>,
    readonly isSelfClosing: boolean,
    /** every binding in scope at this tag (XmlScanParser.scope) */
    readonly scope: Readonly<Record<string, string>>,
  ) {}

  get attributes(): Record<string, SaxesAttributeNS> {
    if (this.made === null) {
      const doc = this.doc!;
      const spans = this.spans!;
      const made = Object.create(BARE) as Record<string, SaxesAttributeNS>;
      for (let a = 0; a < spans.length; a += 4) {
        const name = doc.slice(spans[a]!, spans[a + 1]!);
        let value = doc.slice(spans[a + 2]!, spans[a + 3]!);
        if (value.includes('\n') || value.includes('\t')) value = value.replace(/[\n\t]/g, ' ');
        made[name] = { name, prefix: '', local: name, value, uri: '' } as SaxesAttributeNS;
      }
      this.made = made;
      this.doc = null;
      this.spans = null;
    }
    return this.made;
  }
}

/** A scope with a tag's own declarations over its parent's. */
export function withDeclarations(parent: Readonly<Record<string, string>>, ns: Readonly<Record<string, string>>): Record<string, string> {
  const scope = Object.create(BARE) as Record<string, string>;
  for (const prefix in parent) scope[prefix] = parent[prefix]!;
  for (const prefix in ns) scope[prefix] = ns[prefix]!;
  return scope;
}
