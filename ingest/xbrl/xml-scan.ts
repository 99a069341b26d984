import type { SaxesAttributeNS, SaxesTagNS } from 'saxes';
import { BARE, bareRecord, NO_ATTRIBUTES, NO_NAMESPACES, ROOT_SCOPE, ScannedTag, withDeclarations } from './xml-tag.ts';
import {
  checkDistinctNames,
  checkPair,
  decodeReferences,
  fail,
  isNameCode,
  isNameStartAt,
  isSpace,
  lineColumn,
  qname,
  skipDoctype,
  XMLNS_NAMESPACE,
  XmlScanError,
} from './xml-syntax.ts';

export { XmlScanError };

/**
 * A namespace-aware XML reader for filing packages, in place of saxes: the same events with the
 * same tag objects (`SaxesTagNS`: name, prefix, local, uri, attributes by qualified name in
 * document order, ns with the tag's own declarations, isSelfClosing) and the same `resolve`, but
 * scanned with indexOf over the whole document instead of a state machine per character, which
 * made saxes the largest cost of reading a package. The readers (instance, inline, linkbases,
 * FilingSummary) need nothing else.
 *
 * Well-formedness is checked as saxes does where it can change what is read, and every error
 * throws (saxes' default): mismatched, unclosed or stray close tags, a second root, text outside
 * the root, unbound prefixes, duplicate attributes, unquoted values, `<` in a value, undefined or
 * malformed references, `]]>` in text, and characters XML 1.0 forbids. Line ends are normalized
 * as XML requires (CR LF and CR to LF), attribute values as well (LF and TAB to a space), and
 * references are replaced after that, as saxes does. A DOCTYPE is skipped (no DTD is read), as
 * are comments and processing instructions, the XML declaration included.
 *
 * The document is parsed when it is closed: `write` only gathers text (package files are a few MB).
 */
type Event = 'opentag' | 'closetag' | 'text' | 'cdata';

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = bareRecord({ amp: '&', gt: '>', lt: '<', quot: '"', apos: "'" });
/** characters XML 1.0 does not allow anywhere (CR is gone by the time this is tested) */
const FORBIDDEN_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
/** what an attribute value may need done to it: normalized white space, a reference, or a forbidden `<` */
const VALUE_SPECIAL = /[\n\t&<]/;

export class XmlScanParser {
  /** named references the document may use; callers may add (inline XBRL adds HTML 4's) */
  readonly ENTITIES: Record<string, string> = Object.create(PREDEFINED_ENTITIES) as Record<string, string>;
  private readonly chunks: string[] = [];
  private readonly handlers: { opentag?: (tag: SaxesTagNS) => void; closetag?: (tag: SaxesTagNS) => void; text?: (text: string) => void; cdata?: (text: string) => void } = {};
  private readonly tags: ScannedTag[] = [];
  /**
   * Every binding in scope at the tag whose event is being handled (the last tag opened or
   * closed): what `resolve` answers from, in one lookup rather than a walk up the open tags,
   * which for an XHTML element of an inline document went up to the root's xmlns on every tag.
   */
  private scope: Readonly<Record<string, string>> = ROOT_SCOPE;

  on(event: 'opentag' | 'closetag', handler: (tag: SaxesTagNS) => void): void;
  on(event: 'text' | 'cdata', handler: (text: string) => void): void;
  on(event: Event, handler: ((tag: SaxesTagNS) => void) | ((text: string) => void)): void {
    (this.handlers as Record<Event, unknown>)[event] = handler;
  }

  write(chunk: string): this {
    this.chunks.push(chunk);
    return this;
  }

  /** the document being parsed, and where the start tag of the last opentag event stands in it */
  private doc = '';
  private tagStart = 0;
  private tagEnd = 0;

  /**
   * The start tag of the element whose opentag event is being handled, as written in the document
   * (`<span style="...">`): a reader that re-serializes markup can take it as it stands where it
   * is already in the form it would write, instead of making and escaping every attribute.
   */
  openTagSource(): string {
    return this.doc.slice(this.tagStart, this.tagEnd);
  }

  /** The namespace URI a prefix has in the scope of the element being handled, or undefined. */
  resolve(prefix: string): string | undefined {
    return this.scope[prefix];
  }

  close(): this {
    let doc = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join('');
    this.chunks.length = 0;
    if (doc.includes('\r')) doc = doc.replace(/\r\n?/g, '\n');
    const bad = doc.search(FORBIDDEN_CHAR);
    this.at = bad < 0 ? 0 : bad;
    try {
      if (bad >= 0) fail('disallowed character.');
      this.parse(doc);
    } catch (err) {
      // where: the start of the construct being read when it failed, as saxes says it (line:column:)
      if (err instanceof XmlScanError) throw new XmlScanError(`${lineColumn(doc, this.at)}: ${err.message}`);
      throw err;
    }
    return this;
  }

  private parse(doc: string): void {
    this.doc = doc;
    const n = doc.length;
    const { tags, handlers } = this;
    let sawRoot = false;
    let closedRoot = false;
    let pos = 0;
    this.nextLt = -1;
    this.nextAmp = -1;
    while (pos < n) {
      this.at = pos;
      const lt = doc.indexOf('<', pos);
      const textEnd = lt < 0 ? n : lt;
      if (textEnd > pos) {
        if (tags.length === 0) {
          // outside the root only white space may stand (and is reported, as saxes does)
          for (let i = pos; i < textEnd; i++) if (!isSpace(doc.charCodeAt(i))) fail('text data outside of root node.');
          handlers.text?.(doc.slice(pos, textEnd));
        } else {
          let text = doc.slice(pos, textEnd);
          if (text.includes(']]>')) fail('the string "]]>" is disallowed in char data.');
          if (text.includes('&')) text = decodeReferences(text, this.ENTITIES);
          handlers.text?.(text);
        }
      }
      if (lt < 0) break;
      this.at = lt;
      const next = doc.charCodeAt(lt + 1);
      if (next === 47 /* / */) {
        pos = this.closeTag(doc, lt);
        if (tags.length === 0) closedRoot = true;
      } else if (next === 33 /* ! */) {
        if (doc.startsWith('<!--', lt)) {
          const end = doc.indexOf('-->', lt + 4);
          if (end < 0) fail('unclosed comment.');
          pos = end + 3;
        } else if (doc.startsWith('<![CDATA[', lt)) {
          if (tags.length === 0) fail('CDATA outside of root node.');
          const end = doc.indexOf(']]>', lt + 9);
          if (end < 0) fail('unclosed CDATA section.');
          handlers.cdata?.(doc.slice(lt + 9, end));
          pos = end + 3;
        } else if (doc.startsWith('<!DOCTYPE', lt)) {
          if (sawRoot) fail('doctype after the root element.');
          pos = skipDoctype(doc, lt + 9);
        } else {
          fail('disallowed markup after <!.');
        }
      } else if (next === 63 /* ? */) {
        const end = doc.indexOf('?>', lt + 2);
        if (end < 0) fail('unclosed processing instruction.');
        pos = end + 2;
      } else {
        if (closedRoot) fail('documents may contain only one root.');
        sawRoot = true;
        pos = this.openTag(doc, lt);
        if (tags.length === 0) closedRoot = true;
      }
    }
    this.at = n;
    if (!sawRoot) fail('document must contain a root element.');
    if (tags.length > 0) fail(`unclosed tag: ${tags[tags.length - 1]!.name}`);
  }

  /** where in the document the construct being read starts: an error names its line and column */
  private at = 0;

  /**
   * The next `<` and `&` in the document at or after the last attribute value read (-1: not yet
   * looked for; -2: none in the rest of the document): a value holding either is cut short or not
   * plain. Kept from tag to tag, because a document whose `&`s are few and far between (an
   * instance, a linkbase) made each tag with attributes search again to the next one, megabytes
   * away: the largest single cost of reading those files.
   */
  private nextLt = -1;
  private nextAmp = -1;

  /** start, end of each attribute's name and value, reused from tag to tag */
  private readonly spans: number[] = [];

  /**
   * Reads `<name attr="value" ...>` or `.../>` at `lt`, emits it, and returns the index past it.
   * A tag whose attributes are all plain (no prefix, no namespace declaration, no reference) gets
   * its attributes made only if a reader asks for them: most XHTML tags of an inline document are
   * never looked at. Everything that could reject the tag is checked here all the same.
   */
  private openTag(doc: string, lt: number): number {
    const n = doc.length;
    let i = lt + 1;
    // names are checked as they are scanned (isNameAt's test), not in a second pass over them
    let nameChars = true;
    while (i < n) {
      const c = doc.charCodeAt(i);
      if (isSpace(c) || c === 47 || c === 62) break;
      if (!isNameCode(c)) nameChars = false;
      i++;
    }
    if (!nameChars || !isNameStartAt(doc, lt + 1, i)) fail(`disallowed character in tag name: ${JSON.stringify(doc.slice(lt + 1, i))}.`);
    const name = doc.slice(lt + 1, i);
    const spans = this.spans;
    spans.length = 0;
    let plain = true;
    let selfClosing = false;
    let { nextLt, nextAmp } = this;
    for (;;) {
      const gap = i;
      while (i < n && isSpace(doc.charCodeAt(i))) i++;
      if (i >= n) fail(`unclosed tag: ${name}`);
      const c = doc.charCodeAt(i);
      if (c === 62) {
        i++;
        break;
      }
      if (c === 47) {
        if (doc.charCodeAt(i + 1) !== 62) fail('forward-slash in opening tag not followed by >.');
        selfClosing = true;
        i += 2;
        break;
      }
      if (i === gap) fail('no whitespace between attributes.');
      const nameStart = i;
      while (i < n) {
        const d = doc.charCodeAt(i);
        if (isSpace(d) || d === 61 || d === 62 || d === 47) break;
        if (d === 58 /* : */) plain = false;
        else if (!isNameCode(d)) nameChars = false;
        i++;
      }
      const nameEnd = i;
      if (!nameChars || !isNameStartAt(doc, nameStart, nameEnd)) fail(`disallowed character in attribute name: ${JSON.stringify(doc.slice(nameStart, nameEnd))}.`);
      if (nameEnd - nameStart === 5 && doc.startsWith('xmlns', nameStart)) plain = false;
      while (i < n && isSpace(doc.charCodeAt(i))) i++;
      if (doc.charCodeAt(i) !== 61) fail('attribute without value.');
      i++;
      while (i < n && isSpace(doc.charCodeAt(i))) i++;
      const q = doc.charCodeAt(i);
      if (q !== 34 && q !== 39) fail('unquoted attribute value.');
      const close = doc.indexOf(q === 34 ? '"' : "'", i + 1);
      if (close < 0) fail(`unclosed tag: ${name}`);
      // -2: none in the rest of the document
      if (nextLt !== -2 && nextLt <= i) {
        const at = doc.indexOf('<', i + 1);
        nextLt = at < 0 ? -2 : at;
      }
      if (nextLt !== -2 && nextLt < close) fail('disallowed character.');
      if (nextAmp !== -2 && nextAmp <= i) {
        const at = doc.indexOf('&', i + 1);
        nextAmp = at < 0 ? -2 : at;
      }
      if (nextAmp !== -2 && nextAmp < close) plain = false;
      spans.push(nameStart, nameEnd, i + 1, close);
      i = close + 1;
    }
    this.nextLt = nextLt;
    this.nextAmp = nextAmp;
    const count = spans.length / 4;
    // the attributes that need more than a plain read are read apart (readAttributes,
    // resolveAttributes): this scan is among the hottest code of ingestion, and with those rarer
    // paths inline it was recompiled whole each time one of them first ran
    let ns: Record<string, string> = NO_NAMESPACES;
    let list: SaxesAttributeNS[] | null = null;
    if (plain) checkDistinctNames(doc, spans, count);
    else {
      list = [];
      ns = this.readAttributes(doc, spans, count, list);
    }
    const { prefix, local } = qname(name);
    const { handlers, tags } = this;
    // the tag's scope: its parent's, with its own declarations over it (made only when it declares some)
    const parentScope = tags.length === 0 ? ROOT_SCOPE : tags[tags.length - 1]!.scope;
    this.scope = ns === NO_NAMESPACES ? parentScope : withDeclarations(parentScope, ns);
    const tag = new ScannedTag(name, prefix, local, ns, selfClosing, this.scope);
    const uri = this.resolve(prefix) ?? '';
    if (prefix !== '') {
      if (prefix === 'xmlns') fail('tags may not have "xmlns" as prefix.');
      if (uri === '') fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
    }
    tag.uri = uri;
    if (list !== null) {
      tag.made = this.resolveAttributes(list);
    } else if (count > 0) {
      tag.doc = doc;
      tag.spans = spans.slice();
    } else {
      tag.made = NO_ATTRIBUTES;
    }
    this.tagStart = lt;
    this.tagEnd = i;
    handlers.opentag?.(tag);
    if (selfClosing) handlers.closetag?.(tag);
    else tags.push(tag);
    return i;
  }

  /**
   * The attributes of a tag that has a prefixed or namespace-declaring attribute or a reference,
   * in document order (pushed onto `list`), and the namespaces the tag declares.
   */
  private readAttributes(doc: string, spans: readonly number[], count: number, list: SaxesAttributeNS[]): Record<string, string> {
    let ns: Record<string, string> = NO_NAMESPACES;
    for (let a = 0; a < count; a++) {
      const attrName = doc.slice(spans[a * 4]!, spans[a * 4 + 1]!);
      let value = doc.slice(spans[a * 4 + 2]!, spans[a * 4 + 3]!);
      if (VALUE_SPECIAL.test(value)) {
        if (value.includes('\n') || value.includes('\t')) value = value.replace(/[\n\t]/g, ' ');
        if (value.includes('&')) value = decodeReferences(value, this.ENTITIES);
      }
      const { prefix, local } = qname(attrName);
      const attr = { name: attrName, prefix, local, value } as SaxesAttributeNS;
      list.push(attr);
      if (prefix === 'xmlns') {
        const trimmed = value.trim();
        if (trimmed === '') fail('invalid attempt to undefine prefix in XML 1.0');
        if (ns === NO_NAMESPACES) ns = Object.create(BARE) as Record<string, string>;
        ns[local] = trimmed;
        checkPair(local, trimmed);
      } else if (attrName === 'xmlns') {
        const trimmed = value.trim();
        if (ns === NO_NAMESPACES) ns = Object.create(BARE) as Record<string, string>;
        ns[''] = trimmed;
        checkPair('', trimmed);
      }
    }
    return ns;
  }

  /** The attributes read by readAttributes with their namespaces resolved, by qualified name; refuses duplicates. */
  private resolveAttributes(list: SaxesAttributeNS[]): Record<string, SaxesAttributeNS> {
    const attributes = Object.create(BARE) as Record<string, SaxesAttributeNS>;
    // duplicates: the same name twice, or two prefixes bound to one namespace with the same local
    // name; a tag has a handful of attributes, so the earlier ones are compared in place (a Set of
    // `{uri}local` strings per tag cost more than the comparisons, on every linkbase element)
    for (let a = 0; a < list.length; a++) {
      const attr = list[a]!;
      if (attr.prefix === '') {
        attr.uri = attr.name === 'xmlns' ? XMLNS_NAMESPACE : '';
      } else {
        const u = this.resolve(attr.prefix);
        if (u === undefined) fail(`unbound namespace prefix: ${JSON.stringify(attr.prefix)}.`);
        attr.uri = u;
        for (let b = 0; b < a; b++) {
          const other = list[b]!;
          if (other.prefix !== '' && other.uri === u && other.local === attr.local) fail(`duplicate attribute: {${u}}${attr.local}.`);
        }
      }
      if (attributes[attr.name] !== undefined) fail(`duplicate attribute: ${attr.name}.`);
      attributes[attr.name] = attr;
    }
    return attributes;
  }

  /** Reads `</name>` at `lt`, emits it for the element it closes, and returns the index past it. */
  private closeTag(doc: string, lt: number): number {
    const n = doc.length;
    let i = lt + 2;
    while (i < n) {
      const c = doc.charCodeAt(i);
      if (isSpace(c) || c === 62) break;
      i++;
    }
    const name = doc.slice(lt + 2, i);
    while (i < n && isSpace(doc.charCodeAt(i))) i++;
    if (doc.charCodeAt(i) !== 62) fail(name === '' ? 'weird empty close tag.' : 'disallowed character in closing tag.');
    const tag = this.tags.pop();
    if (tag === undefined) fail(`unmatched closing tag: ${name}.`);
    if (tag.name !== name) fail('unexpected close tag.');
    this.scope = tag.scope;
    this.handlers.closetag?.(tag);
    return i + 1;
  }
}
