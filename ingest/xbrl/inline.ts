import type { Readable } from 'node:stream';
import type { SaxesTagNS } from 'saxes';
import { dec, negate, plain } from '../../domain/decimal.ts';
import { HTML4_CHARACTERS } from '../../domain/html/entities.ts';
import type { ParsedInstance, XbrlFact, XbrlFootnote } from '../../domain/xbrl.ts';
import type { SecSource } from '../source.ts';
import { XbrliResources } from './xbrli-resources.ts';
import { applyFormat } from './ixt-formats.ts';
import { resolveQName } from './qnames.ts';
import { attr, feedSax } from './xml-input.ts';
import { XmlScanParser } from './xml-scan.ts';

const IX = new Set(['http://www.xbrl.org/2013/inlineXBRL', 'http://www.xbrl.org/2008/inlineXBRL']);
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XHTML = 'http://www.w3.org/1999/xhtml';
const FACT_FOOTNOTE = 'http://www.xbrl.org/2003/arcrole/fact-footnote';
const PLAIN_DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The parser configuration parseInline uses, exported so the benchmark's bare-parser baseline
 * reads the same bytes through exactly the same parser work.
 */
export const INLINE_SAX_OPTIONS = { xmlns: true } as const;

/**
 * Inline XBRL is XHTML, which has no DTD here, yet some filing tools still write HTML named
 * entities; HTML 4's are accepted rather than failing a whole filing over an &nbsp;. XML's own
 * five are the parser's already.
 */
const XML_PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
const HTML_ENTITIES: Record<string, string> = Object.fromEntries([...HTML4_CHARACTERS].filter(([name]) => !XML_PREDEFINED.has(name)));

/**
 * Reads an inline XBRL primary document (`*.htm`) as a SAX stream, never as a DOM: 10-Ks run to
 * several MB of XHTML. It yields the same ParsedInstance as parseInstance does for the extracted
 * `*_htm.xml`: inline scale and sign applied, formats transformed, continuations joined, facts
 * inside ix:exclude left out. Facts are in document order of their start tags. Malformed XML,
 * an unknown format or a value a format cannot read reject: a fact is never dropped silently.
 */
export async function parseInline(input: Readable | string): Promise<ParsedInstance> {
  const parser = new XmlScanParser();
  Object.assign(parser.ENTITIES, HTML_ENTITIES);
  const reader = new InlineReader((prefix) => parser.resolve(prefix), () => parser.openTagSource());
  parser.on('opentag', (tag) => reader.open(tag));
  parser.on('closetag', (tag) => reader.close(tag));
  parser.on('text', (text) => reader.text(text));
  parser.on('cdata', (text) => reader.text(text));
  await feedSax(parser, input);
  return reader.finish();
}

/** The inline document at an SEC URL, or null when the source has no such file. */
export async function readInline(source: SecSource, url: string): Promise<ParsedInstance | null> {
  const stream = await source.openStream(url);
  return stream === null ? null : parseInline(stream);
}

/** An open ix element whose content becomes a value: its text, its XHTML markup, or both. */
interface Collector {
  depth: number;
  /** the text content; null when nothing will use it (an escaped fact without a format: a TextBlock) */
  text: string[] | null;
  /** re-serialized markup; null when nothing will use it (plain-text facts) */
  html: string[] | null;
}

interface FactDraft extends Collector {
  kind: 'fact';
  fact: XbrlFact;
  format: [uri: string, local: string, written: string] | null;
  scale: string | null;
  negative: boolean;
  escape: boolean;
  continuedAt: string | null;
}

interface ContinuationDraft extends Collector {
  kind: 'continuation';
  id: string;
  continuedAt: string | null;
}

interface FootnoteDraft extends Collector {
  kind: 'footnote';
  footnote: XbrlFootnote;
  hasElements: boolean;
}

type Draft = FactDraft | ContinuationDraft | FootnoteDraft;

const TEXT_SPECIAL = /[&<>]/;
const escapeText = (t: string) => (TEXT_SPECIAL.test(t) ? t.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')) : t);
const ATTR_SPECIAL = /[&<>"]/;
const escapeAttr = (t: string) => (ATTR_SPECIAL.test(t) ? escapeText(t).replace(/"/g, '&quot;') : t);

// written <br/>; any other empty element as <td></td>, since an HTML parser reads <td/> as an open tag
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** XHTML as SEC's extracted instances write it: bare element names, no xmlns declarations, ix tags dropped. */
function startTag(tag: SaxesTagNS): string {
  const name = tag.uri === XHTML ? tag.local : tag.name;
  let out = `<${name}`;
  for (const a in tag.attributes) {
    if (a !== 'xmlns' && !a.startsWith('xmlns:')) out += ` ${a}="${escapeAttr(tag.attributes[a]!.value)}"`;
  }
  if (!tag.isSelfClosing) return out + '>';
  return VOID.has(name) ? out + '/>' : `${out}></${name}>`;
}

/**
 * A start tag startTag would write exactly as it stands: `<name a="v" b="w">` with names free of
 * prefixes (so no xmlns declaration either) and values free of what startTag escapes (&<>") or
 * the parser normalizes (tab, line feed).
 */
const CANONICAL_START_TAG = /^<[A-Za-z_][\w.-]*(?: (?!xmlns)[A-Za-z_][\w.-]*="[^"&<>\n\t]*")*>$/;

const isTrue = (v: string | null) => v !== null && (v.trim() === 'true' || v.trim() === '1');

/** One pass over the SAX events. `collecting` is the stack of open ix elements gathering content. */
class InlineReader {
  private readonly result: ParsedInstance = { contexts: new Map(), units: new Map(), facts: [], footnotes: [], namespaces: {}, schemaRef: null };
  private readonly resources: XbrliResources;
  private depth = 0;
  /** depth of the ix:exclude being skipped, 0 when none */
  private excludeDepth = 0;
  private hidden = 0;
  private readonly collecting: Draft[] = [];
  private readonly continuations = new Map<string, { text: string; html: string; continuedAt: string | null }>();
  /** facts whose value waits for continuations, which may come later in the document */
  private readonly continued: FactDraft[] = [];
  private readonly relationships: Array<{ from: string[]; to: string[] }> = [];

  constructor(
    private readonly resolve: (prefix: string) => string | undefined,
    /** the source of the start tag being opened (XmlScanParser.openTagSource) */
    private readonly source: () => string,
  ) {
    this.resources = new XbrliResources(this.result, resolve);
  }

  text(text: string): void {
    if (this.excludeDepth !== 0) return;
    this.resources.text(text);
    let escaped: string | null = null;
    for (const c of this.collecting) {
      c.text?.push(text);
      if (c.html) c.html.push((escaped ??= escapeText(text)));
    }
  }

  open(tag: SaxesTagNS): void {
    const depth = ++this.depth;
    if (this.excludeDepth !== 0) return;
    for (const prefix in tag.ns) {
      if (!(prefix in this.result.namespaces)) this.result.namespaces[prefix] = tag.ns[prefix]!;
    }
    if (IX.has(tag.uri)) return this.openIx(tag, depth);
    if (this.resources.open(tag)) return;
    // the markup is written only when some collector keeps markup (not inside a figure alone)
    let markup: string | null = null;
    for (const c of this.collecting) {
      if (!c.html) continue;
      c.html.push((markup ??= this.markup(tag)));
      if (c.kind === 'footnote') c.hasElements = true;
    }
  }

  close(tag: SaxesTagNS): void {
    const depth = this.depth--;
    if (this.excludeDepth !== 0) {
      if (depth === this.excludeDepth) this.excludeDepth = 0;
      return;
    }
    if (IX.has(tag.uri)) return this.closeIx(tag, depth);
    if (this.resources.close(tag)) return;
    if (this.collecting.length === 0 || tag.isSelfClosing) return;
    let markup: string | null = null;
    for (const c of this.collecting) c.html?.push((markup ??= `</${tag.uri === XHTML ? tag.local : tag.name}>`));
  }

  /**
   * startTag(tag): the tag's source where it is already written so (an unprefixed element with
   * double-quoted attributes, single spaces, no namespace declaration and nothing to escape or
   * normalize), which is nearly every XHTML tag inside a TextBlock; else made from its attributes.
   */
  private markup(tag: SaxesTagNS): string {
    if (tag.prefix === '' && !tag.isSelfClosing) {
      const written = this.source();
      if (CANONICAL_START_TAG.test(written)) return written;
    }
    return startTag(tag);
  }

  private openIx(tag: SaxesTagNS, depth: number): void {
    switch (tag.local) {
      case 'nonFraction':
      case 'nonNumeric':
        return this.openFact(tag, depth, tag.local === 'nonFraction');
      case 'continuation':
        // a continuation's owner may come later, so both forms are kept until it is known
        this.collecting.push({ kind: 'continuation', depth, text: [], html: [], id: attr(tag, '', 'id') ?? '', continuedAt: attr(tag, '', 'continuedAt') });
        return;
      case 'footnote': {
        const footnote: XbrlFootnote = { id: attr(tag, '', 'id') ?? '', text: '', factIds: [] };
        this.result.footnotes.push(footnote);
        this.collecting.push({ kind: 'footnote', depth, text: [], html: [], footnote, hasElements: false });
        return;
      }
      case 'relationship': {
        const arcrole = attr(tag, '', 'arcrole');
        if (arcrole === null || arcrole === FACT_FOOTNOTE) {
          const refs = (name: string) => (attr(tag, '', name) ?? '').split(/\s+/).filter(Boolean);
          this.relationships.push({ from: refs('fromRefs'), to: refs('toRefs') });
        }
        return;
      }
      case 'exclude':
        this.excludeDepth = depth;
        return;
      case 'hidden':
        this.hidden++;
        return;
      case 'fraction':
        // never seen in SEC filings; refusing beats dropping the fact
        throw new Error(`ix:fraction (fact ${attr(tag, '', 'id') ?? attr(tag, '', 'name')}) is not supported`);
    }
    // ix:header, ix:references (its link:schemaRef is a resource), ix:resources, ix:tuple: structure only
  }

  private closeIx(tag: SaxesTagNS, depth: number): void {
    if (tag.local === 'hidden') {
      this.hidden--;
      return;
    }
    const top = this.collecting[this.collecting.length - 1];
    if (!top || top.depth !== depth) return;
    this.collecting.pop();
    if (top.kind === 'fact') this.closeFact(top);
    else if (top.kind === 'continuation') {
      this.continuations.set(top.id, { text: top.text!.join(''), html: top.html!.join(''), continuedAt: top.continuedAt });
    } else {
      top.footnote.text = top.hasElements ? top.html!.join('') : top.text!.join('');
    }
  }

  private openFact(tag: SaxesTagNS, depth: number, numeric: boolean): void {
    const name = attr(tag, '', 'name');
    if (!name) throw new Error(`ix:${tag.local} without a name (id ${attr(tag, '', 'id')})`);
    const nil = isTrue(attr(tag, XSI, 'nil'));
    const fact: XbrlFact = {
      concept: resolveQName(name, this.resolve),
      contextRef: attr(tag, '', 'contextRef') ?? '',
      unitRef: numeric ? attr(tag, '', 'unitRef') : null,
      value: null,
      numeric,
      nil,
      decimals: numeric ? (attr(tag, '', 'decimals')?.trim() ?? null) : null,
      id: attr(tag, '', 'id'),
      hidden: this.hidden > 0,
    };
    this.result.facts.push(fact);
    const formatAttr = attr(tag, '', 'format');
    const escape = !numeric && isTrue(attr(tag, '', 'escape'));
    const format = formatAttr ? this.resolveFormat(formatAttr, fact) : null;
    // textValue uses the markup of an escaped fact without a format, else the text: only that one is gathered
    const markup = escape && format === null;
    this.collecting.push({
      kind: 'fact',
      depth,
      text: markup ? null : [],
      html: markup ? [] : null,
      fact,
      format,
      scale: attr(tag, '', 'scale')?.trim() || null,
      negative: attr(tag, '', 'sign')?.trim() === '-',
      escape,
      continuedAt: numeric ? null : attr(tag, '', 'continuedAt'),
    });
  }

  private resolveFormat(written: string, fact: XbrlFact): [string, string, string] {
    const t = written.trim();
    const colon = t.indexOf(':');
    const uri = this.resolve(colon < 0 ? '' : t.slice(0, colon));
    if (uri === undefined) throw new Error(`fact ${describe(fact)}: format ${t} has an undeclared prefix`);
    return [uri, t.slice(colon + 1), t];
  }

  private closeFact(draft: FactDraft): void {
    const { fact } = draft;
    if (fact.nil) return;
    if (fact.numeric) fact.value = numericValue(draft);
    else if (draft.continuedAt) this.continued.push(draft);
    else fact.value = textValue(draft, draft.text?.join('') ?? '', draft.html?.join('') ?? '');
  }

  finish(): ParsedInstance {
    for (const draft of this.continued) {
      const texts = [draft.text?.join('') ?? ''];
      const htmls = [draft.html?.join('') ?? ''];
      const seen = new Set<string>();
      for (let next = draft.continuedAt; next; ) {
        const part = this.continuations.get(next);
        if (!part || seen.has(next)) throw new Error(`fact ${describe(draft.fact)}: ix:continuation "${next}" is ${part ? 'part of a loop' : 'missing'}`);
        seen.add(next);
        texts.push(part.text);
        htmls.push(part.html);
        next = part.continuedAt;
      }
      draft.fact.value = textValue(draft, texts.join(''), htmls.join(''));
    }
    const byId = new Map(this.result.footnotes.map((f) => [f.id, f]));
    for (const { from, to } of this.relationships) {
      for (const footnoteId of to) {
        const footnote = byId.get(footnoteId);
        if (!footnote) continue;
        for (const factId of from) if (!footnote.factIds.includes(factId)) footnote.factIds.push(factId);
      }
    }
    return this.result;
  }
}

function describe(fact: XbrlFact): string {
  return `${fact.id ?? '(no id)'} ${fact.concept} (context ${fact.contextRef})`;
}

function transformed(draft: FactDraft, text: string): string {
  const [uri, local, written] = draft.format!;
  try {
    return applyFormat(uri, local, text);
  } catch (err) {
    throw new Error(`fact ${describe(draft.fact)}: ${err instanceof Error ? err.message : String(err)} (format ${written})`);
  }
}

/** The displayed figure, transformed, times 10^scale, negated by sign="-": an exact plain decimal. */
function numericValue(draft: FactDraft): string {
  const raw = draft.text!.join('');
  const shown = draft.format ? transformed(draft, raw) : raw.trim();
  if (!PLAIN_DECIMAL.test(shown)) throw new Error(`fact ${describe(draft.fact)}: ix:nonFraction value ${JSON.stringify(raw.slice(0, 40))} is not a number`);
  if (draft.scale !== null && !/^-?\d+$/.test(draft.scale)) throw new Error(`fact ${describe(draft.fact)}: scale ${JSON.stringify(draft.scale)} is not an integer`);
  const text = scaledDecimal(shown, draft.scale ?? '0');
  return draft.negative ? negate(text) : text;
}

/**
 * A plain decimal (PLAIN_DECIMAL) times 10^scale, as decimal.js writes the product (no exponent,
 * no leading or trailing zeros, '0' for zero): the point moves over the digits, exactly, without
 * making two Decimals per figure of an inline document. Figures too long to be sure no digit would
 * be rounded at decimal.js's precision go through decimal.js.
 */
export function scaledDecimal(shown: string, scale: string): string {
  const shift = Number(scale);
  const negative = shown.charCodeAt(0) === 45; /* - */
  const body = negative ? shown.slice(1) : shown;
  if (body.length > 40 || Math.abs(shift) > 40) return plain(dec(shown).times(dec(`1e${scale}`)));
  const dot = body.indexOf('.');
  const digits = dot < 0 ? body : body.slice(0, dot) + body.slice(dot + 1);
  // where the point falls in the digits after the shift
  const point = (dot < 0 ? body.length : dot) + shift;
  let whole: string;
  let fraction: string;
  if (point >= digits.length) {
    whole = digits + '0'.repeat(point - digits.length);
    fraction = '';
  } else if (point <= 0) {
    whole = '';
    fraction = '0'.repeat(-point) + digits;
  } else {
    whole = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  let start = 0;
  while (start < whole.length && whole.charCodeAt(start) === 48) start++;
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  const text = (start === whole.length ? '0' : whole.slice(start)) + (end > 0 ? `.${fraction.slice(0, end)}` : '');
  return negative && text !== '0' ? `-${text}` : text;
}

/** A format wins; escape="true" keeps the XHTML markup; otherwise the text content. */
function textValue(draft: FactDraft, text: string, html: string): string {
  if (draft.format) return transformed(draft, text);
  return draft.escape ? html : text;
}
