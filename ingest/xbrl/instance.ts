import type { Readable } from 'node:stream';
import type { SaxesTagNS } from 'saxes';
import { dec, plain } from '../../domain/decimal.ts';
import type { ParsedInstance, XbrlFact, XbrlFootnote } from '../../domain/xbrl.ts';
import type { SecSource } from '../source.ts';
import { qname } from './qnames.ts';
import { attr, feedSax } from './xml-input.ts';
import { XmlScanParser } from './xml-scan.ts';
import { XbrliResources } from './xbrli-resources.ts';

const XBRLI = 'http://www.xbrl.org/2003/instance';
const LINK = 'http://www.xbrl.org/2003/linkbase';
const XLINK = 'http://www.w3.org/1999/xlink';
const XBRLDI = 'http://xbrl.org/2006/xbrldi';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XHTML = 'http://www.w3.org/1999/xhtml';

/** Namespaces whose elements are instance plumbing, never facts, whatever attributes they carry. */
const NOT_FACT_NAMESPACES = new Set([XBRLI, LINK, XLINK, XBRLDI]);

const PLAIN_DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;
const XS_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Reads an XBRL instance document (`*_htm.xml`, pre-2019 `*.xml`) as a SAX stream: instances run
 * to tens of MB and a DOM would hold several times that. Malformed XML rejects; facts are never
 * dropped silently, so a numeric fact whose value is not a number rejects too.
 */
export async function parseInstance(input: Readable | string): Promise<ParsedInstance> {
  const parser = new XmlScanParser();
  const reader = new InstanceReader((prefix) => parser.resolve(prefix));
  parser.on('opentag', (tag) => reader.open(tag));
  parser.on('closetag', (tag) => reader.close(tag));
  parser.on('text', (text) => reader.text(text));
  parser.on('cdata', (text) => reader.text(text));
  await feedSax(parser, input);
  return reader.result;
}

/** The instance at an SEC URL, or null when the source has no such file. */
export async function readInstance(source: SecSource, url: string): Promise<ParsedInstance | null> {
  const stream = await source.openStream(url);
  return stream === null ? null : parseInstance(stream);
}

/** Exact plain decimal; rewritten only when xs:decimal/xs:double allow a form NUMERIC columns do not. */
function plainDecimal(raw: string, where: () => string): string {
  const t = raw.trim();
  if (PLAIN_DECIMAL.test(t)) return t;
  if (!XS_NUMBER.test(t)) throw new Error(`numeric fact ${where()} has non-numeric value ${JSON.stringify(t.slice(0, 40))}`);
  return plain(dec(t));
}


function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

function htmlName(tag: SaxesTagNS): string {
  return tag.uri === XHTML ? tag.local : tag.name;
}

function append<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

interface FootnoteLinkDraft {
  /** xlink:label -> fact ids; labels are scoped to their extended link, and may repeat */
  locs: Map<string, string[]>;
  notes: Map<string, XbrlFootnote[]>;
  arcs: Array<[from: string, to: string]>;
}

interface FootnoteDraft {
  id: string;
  label: string;
  depth: number;
  /** the content re-serialized, used only when the footnote holds XHTML elements */
  markup: string[];
  hasElements: boolean;
}

/** One pass over the SAX events; each element kind has one place it is opened and one it is closed. */
class InstanceReader {
  readonly result: ParsedInstance = {
    contexts: new Map(),
    units: new Map(),
    facts: [],
    footnotes: [],
    namespaces: {},
    schemaRef: null,
  };

  private depth = 0;
  /** text of the element being captured; null while nothing wants text (most whitespace) */
  private buffer: string[] | null = null;
  private readonly resources: XbrliResources;
  private fact: (XbrlFact & { depth: number }) | null = null;
  private link: FootnoteLinkDraft | null = null;
  private footnote: FootnoteDraft | null = null;

  constructor(resolve: (prefix: string) => string | undefined) {
    this.resources = new XbrliResources(this.result, resolve);
  }

  text(text: string): void {
    this.resources.text(text);
    if (this.buffer === null) return;
    this.buffer.push(text);
    this.footnote?.markup.push(escapeXml(text));
  }

  private capture(): void {
    this.buffer = [];
  }

  private take(): string {
    const text = this.buffer?.join('') ?? '';
    this.buffer = null;
    return text;
  }

  open(tag: SaxesTagNS): void {
    this.depth++;
    for (const prefix in tag.ns) {
      if (!(prefix in this.result.namespaces)) this.result.namespaces[prefix] = tag.ns[prefix]!;
    }
    const { uri, local } = tag;
    if (this.link) return this.openInFootnoteLink(tag);
    // facts hold simple content; anything inside one is only more of its text
    if (this.fact) return;
    if (uri === LINK && local === 'footnoteLink') {
      this.link = { locs: new Map(), notes: new Map(), arcs: [] };
      return;
    }
    // contexts, units and the schemaRef
    if (this.resources.open(tag)) return;
    if (NOT_FACT_NAMESPACES.has(uri)) return;
    // elements without a context are tuples (whose children are facts) or not XBRL at all
    const contextRef = attr(tag, '', 'contextRef');
    if (contextRef === null) return;
    const unitRef = attr(tag, '', 'unitRef');
    const nil = attr(tag, XSI, 'nil')?.trim();
    this.fact = {
      concept: qname(uri, local, tag.prefix),
      contextRef,
      unitRef,
      value: null,
      numeric: unitRef !== null,
      nil: nil === 'true' || nil === '1',
      decimals: attr(tag, '', 'decimals')?.trim() ?? null,
      id: attr(tag, '', 'id'),
      depth: this.depth,
    };
    this.capture();
  }

  close(tag: SaxesTagNS): void {
    const depth = this.depth--;
    if (this.link) return this.closeInFootnoteLink(tag, depth);
    if (this.resources.close(tag)) return;
    if (this.fact && depth === this.fact.depth) {
      const { depth: _depth, ...fact } = this.fact;
      const text = this.take();
      if (!fact.nil) {
        fact.value = fact.numeric ? plainDecimal(text, () => `${fact.concept} (context ${fact.contextRef})`) : text;
      }
      this.result.facts.push(fact);
      this.fact = null;
    }
  }

  private openInFootnoteLink(tag: SaxesTagNS): void {
    const link = this.link!;
    const { uri, local } = tag;
    if (this.footnote) {
      // link:footnote may hold XHTML: keep it as HTML (bare names, no xmlns) rather than flatten it
      this.footnote.hasElements = true;
      let open = `<${htmlName(tag)}`;
      for (const name in tag.attributes) {
        if (name !== 'xmlns' && !name.startsWith('xmlns:')) open += ` ${name}="${escapeXml(tag.attributes[name]!.value)}"`;
      }
      this.footnote.markup.push(`${open}>`);
      return;
    }
    if (uri !== LINK) return;
    const label = attr(tag, XLINK, 'label') ?? '';
    if (local === 'loc') {
      const href = attr(tag, XLINK, 'href') ?? '';
      const factId = href.slice(href.indexOf('#') + 1);
      append(link.locs, label, factId);
    } else if (local === 'footnote') {
      // footnotes generated from inline XBRL carry an id; 2009-2010 ones only their label
      this.footnote = { id: attr(tag, '', 'id') ?? label, label, depth: this.depth, markup: [], hasElements: false };
      this.capture();
    } else if (local === 'footnoteArc') {
      // fact-explanatoryFact arcs link facts to facts, not to footnotes: those are not footnotes
      if (attr(tag, XLINK, 'arcrole') === 'http://www.xbrl.org/2003/arcrole/fact-footnote') {
        link.arcs.push([attr(tag, XLINK, 'from') ?? '', attr(tag, XLINK, 'to') ?? '']);
      }
    }
  }

  private closeInFootnoteLink(tag: SaxesTagNS, depth: number): void {
    const link = this.link!;
    const note = this.footnote;
    if (note && depth > note.depth) {
      note.markup.push(`</${htmlName(tag)}>`);
      return;
    }
    if (note) {
      const text = this.take();
      const footnote: XbrlFootnote = { id: note.id, text: note.hasElements ? note.markup.join('') : text, factIds: [] };
      append(link.notes, note.label, footnote);
      this.result.footnotes.push(footnote);
      this.footnote = null;
      return;
    }
    if (tag.uri !== LINK || tag.local !== 'footnoteLink') return;
    // arcs may precede the locators and footnotes they name, so they resolve once the link is complete
    for (const [from, to] of link.arcs) {
      for (const footnote of link.notes.get(to) ?? []) {
        for (const factId of link.locs.get(from) ?? []) {
          if (!footnote.factIds.includes(factId)) footnote.factIds.push(factId);
        }
      }
    }
    this.link = null;
  }
}
