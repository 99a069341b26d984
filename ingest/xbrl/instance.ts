import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { dec, plain } from '../../domain/decimal.ts';
import type { ParsedInstance, XbrlContext, XbrlDimension, XbrlFact, XbrlFootnote } from '../../domain/xbrl.ts';
import type { SecSource } from '../source.ts';
import { qname, resolveQName } from './qnames.ts';
import { attr, feedSax } from './xml-input.ts';

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
  const parser = new SaxesParser({ xmlns: true });
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

function localName(measure: string): string {
  const t = measure.trim();
  return t.slice(t.indexOf(':') + 1);
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
  private context: XbrlContext | null = null;
  private axis = '';
  private unit: { id: string; target: string[]; plain: string[]; num: string[]; den: string[] } | null = null;
  private fact: (XbrlFact & { depth: number }) | null = null;
  private link: FootnoteLinkDraft | null = null;
  private footnote: FootnoteDraft | null = null;

  constructor(private readonly resolve: (prefix: string) => string | undefined) {}

  text(text: string): void {
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
    if (this.context) return this.openInContext(tag);
    if (this.unit) {
      if (uri !== XBRLI) return;
      if (local === 'measure') this.capture();
      else if (local === 'unitNumerator') this.unit.target = this.unit.num;
      else if (local === 'unitDenominator') this.unit.target = this.unit.den;
      return;
    }
    if (this.link) return this.openInFootnoteLink(tag);
    // facts hold simple content; anything inside one is only more of its text
    if (this.fact) return;
    if (uri === XBRLI) {
      if (local === 'context') {
        this.context = { id: attr(tag, '', 'id') ?? '', entity: '', start: null, end: '', dimensions: [] };
      } else if (local === 'unit') {
        const plainList: string[] = [];
        this.unit = { id: attr(tag, '', 'id') ?? '', target: plainList, plain: plainList, num: [], den: [] };
      }
      return;
    }
    if (uri === LINK) {
      if (local === 'schemaRef') this.result.schemaRef ??= attr(tag, XLINK, 'href');
      else if (local === 'footnoteLink') this.link = { locs: new Map(), notes: new Map(), arcs: [] };
      return;
    }
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
    const { uri, local } = tag;
    if (this.context) return this.closeInContext(tag);
    if (this.unit) {
      if (uri !== XBRLI) return;
      if (local === 'measure') this.unit.target.push(localName(this.take()));
      else if (local === 'unit') {
        const { id, plain: p, num, den } = this.unit;
        // several measures multiply (rare: e.g. USD*hours); SEC writes a ratio as numerator/denominator
        const measure = num.length > 0 ? `${num.join('*')}/${den.join('*')}` : p.join('*');
        this.result.units.set(id, { id, measure });
        this.unit = null;
      }
      return;
    }
    if (this.link) return this.closeInFootnoteLink(tag, depth);
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

  private openInContext(tag: SaxesTagNS): void {
    const { uri, local } = tag;
    if (uri === XBRLI) {
      if (local === 'identifier' || local === 'startDate' || local === 'endDate' || local === 'instant') this.capture();
    } else if (uri === XBRLDI && (local === 'explicitMember' || local === 'typedMember')) {
      this.axis = resolveQName(attr(tag, '', 'dimension') ?? '', this.resolve);
      // a typed member's value is the text of the domain element inside it
      this.capture();
    }
  }

  private closeInContext(tag: SaxesTagNS): void {
    const ctx = this.context!;
    const { uri, local } = tag;
    if (uri === XBRLI) {
      if (local === 'identifier') ctx.entity = this.take().trim();
      else if (local === 'startDate') ctx.start = this.take().trim();
      else if (local === 'endDate' || local === 'instant') ctx.end = this.take().trim();
      else if (local === 'context') {
        // a "forever" period leaves end '' : SEC filings do not use it, and inventing a date would mislead
        ctx.dimensions.sort((a, b) => (a.axis < b.axis ? -1 : a.axis > b.axis ? 1 : 0));
        this.result.contexts.set(ctx.id, ctx);
        this.context = null;
      }
    } else if (uri === XBRLDI) {
      let dim: XbrlDimension | null = null;
      // the member QName resolves against declarations in scope at the member element, still visible at its close
      if (local === 'explicitMember') dim = { axis: this.axis, member: resolveQName(this.take(), this.resolve), typed: null };
      else if (local === 'typedMember') dim = { axis: this.axis, member: null, typed: this.take().trim() };
      if (dim) ctx.dimensions.push(dim);
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
