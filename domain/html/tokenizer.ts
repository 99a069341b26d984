import { decodeEntities } from './entities.ts';

/** A forgiving single-pass HTML tokenizer: every scan moves forward, nothing throws. */

export interface TokenSink {
  /** raw text between tags, entities not yet decoded */
  text(raw: string): void;
  /** local name, lower-cased, namespace prefix dropped */
  open(name: string, spans: Spans, selfClosing: boolean): void;
  close(name: string): void;
}

/** Where the content of an element whose content is code, not prose, ends: it must not be tokenized as markup. */
const SCRIPT_END = /<\/(?:[^\s/>:]+:)?script[\s/>]/gi;
const STYLE_END = /<\/(?:[^\s/>:]+:)?style[\s/>]/gi;

/**
 * The end pattern of a raw-text element, or null for any other: compared by name, not looked up
 * in a map, because hashing every tag's freshly cut name was a visible cost of the scan (and a
 * tag named like an Object.prototype member, `<constructor>`, stays an ordinary tag).
 */
function rawTextEnd(name: string): RegExp | null {
  return name === 'script' ? SCRIPT_END : name === 'style' ? STYLE_END : null;
}

/** HTML's caps on spans; a larger value is a typo that would only blow up the grid. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;

/** A cell's extent; 1 and 1 for every other element. */
export interface Spans {
  colspan: number;
  rowspan: number;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

function localName(qualified: string): string {
  return qualified.slice(qualified.lastIndexOf(':') + 1).toLowerCase();
}

/**
 * localName of html[from, to): sliced straight out of the input when the name is ASCII without
 * capitals (nearly every tag), as lower-casing it would change nothing; else as localName.
 */
function localNameAt(html: string, from: number, to: number): string {
  let start = from;
  for (let i = from; i < to; i++) {
    const c = html.charCodeAt(i);
    if (c === 58 /* : */) start = i + 1;
    else if (c > 127 || (c >= 65 && c <= 90)) return localName(html.slice(from, to));
  }
  return html.slice(start, to);
}

/** Whether html[from, from + name.length) is `name` (lower-case ASCII letters) in any case, as attrName.toLowerCase() === name. */
function isNameAt(html: string, from: number, to: number, name: string): boolean {
  if (to - from !== name.length) return false;
  // only the letters of A-Z and a-z fold onto a-z here: no other character lower-cases to one of these names' letters
  for (let k = 0; k < name.length; k++) if ((html.charCodeAt(from + k) | 0x20) !== name.charCodeAt(k)) return false;
  return true;
}

function parseSpan(value: string, max: number): number {
  const n = Number.parseInt(decodeEntities(value).trim(), 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : 1;
}

interface StartTag {
  name: string;
  spans: Spans;
  selfClosing: boolean;
  /** index just past the tag; the input length when the tag never closes */
  end: number;
}

/**
 * Scans `<name attr=value ...>` starting at `lt`. Quoted values may hold `>`, as browsers allow.
 * A tag left open at the end of input swallows the rest, as it does in a browser: emitting it as
 * text would put markup into the output.
 */
function scanStartTag(html: string, lt: number, lastGt: number): StartTag {
  const n = html.length;
  let i = lt + 1;
  while (i < n) {
    const c = html.charCodeAt(i);
    if (isSpace(c) || c === 47 || c === 62) break;
    i++;
  }
  const name = localNameAt(html, lt + 1, i);
  const spans = { colspan: 1, rowspan: 1 };
  for (;;) {
    while (i < n && (isSpace(html.charCodeAt(i)) || html.charCodeAt(i) === 47)) i++;
    if (i >= n || i > lastGt) return { name, spans, selfClosing: false, end: n };
    if (html.charCodeAt(i) === 62) break;
    const attrStart = i;
    i++; // a name is at least one character, even a stray '=' or quote, so the scan always advances
    while (i < n) {
      const c = html.charCodeAt(i);
      if (isSpace(c) || c === 47 || c === 62 || c === 61) break;
      i++;
    }
    const attrEnd = i;
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (html.charCodeAt(i) !== 61) continue;
    i++;
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    // only colspan and rowspan are read: no other name or value is cut out of the input
    let valueStart: number;
    let valueEnd: number;
    const q = html.charCodeAt(i);
    if (q === 34 || q === 39) {
      const close = html.indexOf(q === 34 ? '"' : "'", i + 1);
      if (close < 0) return { name, spans, selfClosing: false, end: n };
      valueStart = i + 1;
      valueEnd = close;
      i = close + 1;
    } else {
      valueStart = i;
      while (i < n && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 62) i++;
      valueEnd = i;
    }
    if (isNameAt(html, attrStart, attrEnd, 'colspan')) spans.colspan = parseSpan(html.slice(valueStart, valueEnd), MAX_COLSPAN);
    else if (isNameAt(html, attrStart, attrEnd, 'rowspan')) spans.rowspan = parseSpan(html.slice(valueStart, valueEnd), MAX_ROWSPAN);
  }
  return { name, spans, selfClosing: html.charCodeAt(i - 1) === 47, end: i + 1 };
}

const EMIT_NOTHING = 0;
const EMIT_OPEN = 1;
const EMIT_CLOSE = 2;
const EMIT_TEXT = 3;

/** Index just past a terminator searched from `from`, or the input length when it is missing. */
function pastTerminator(html: string, terminator: string, from: number): number {
  const at = html.indexOf(terminator, from);
  return at < 0 ? html.length : at + terminator.length;
}

/**
 * Feeds text, start and end tags to the sink. Comments, doctypes and processing instructions are
 * skipped; a `<` that starts none of these is text, as in "x < y".
 */
export function tokenize(html: string, sink: TokenSink): void {
  const n = html.length;
  const lastGt = html.lastIndexOf('>');
  let textStart = 0;
  let pos = 0;
  while (pos < n) {
    const lt = html.indexOf('<', pos);
    if (lt < 0) break;
    const next = html.charCodeAt(lt + 1);
    let end: number;
    // what to emit after the text before it (no closure per tag: this loop runs per tag)
    let emit = EMIT_NOTHING;
    let tag: StartTag | null = null;
    let value = '';
    if (isLetter(next)) {
      tag = scanStartTag(html, lt, lastGt);
      end = tag.end;
      const raw = rawTextEnd(tag.name);
      if (raw && !tag.selfClosing) {
        raw.lastIndex = end;
        const m = raw.exec(html);
        end = m ? pastTerminator(html, '>', m.index) : n;
      } else {
        emit = EMIT_OPEN;
      }
    } else if (next === 47 && isLetter(html.charCodeAt(lt + 2))) {
      end = pastTerminator(html, '>', lt + 2);
      let nameEnd = lt + 2;
      while (nameEnd < end) {
        const c = html.charCodeAt(nameEnd);
        if (isSpace(c) || c === 47 || c === 62) break;
        nameEnd++;
      }
      value = localNameAt(html, lt + 2, nameEnd);
      emit = EMIT_CLOSE;
    } else if (html.startsWith('<!--', lt)) {
      end = pastTerminator(html, '-->', lt + 4);
    } else if (html.startsWith('<![CDATA[', lt)) {
      const close = html.indexOf(']]>', lt + 9);
      value = html.slice(lt + 9, close < 0 ? n : close);
      end = close < 0 ? n : close + 3;
      emit = EMIT_TEXT;
    } else if (next === 33 || next === 63) {
      end = pastTerminator(html, '>', lt + 2); // <!DOCTYPE ...>, <?xml ...?>
    } else {
      pos = lt + 1; // a literal '<'
      continue;
    }
    if (lt > textStart) sink.text(html.slice(textStart, lt));
    if (emit === EMIT_OPEN) sink.open(tag!.name, tag!.spans, tag!.selfClosing);
    else if (emit === EMIT_CLOSE) sink.close(value);
    else if (emit === EMIT_TEXT) sink.text(value);
    pos = textStart = end;
  }
  if (textStart < n) sink.text(html.slice(textStart));
}
