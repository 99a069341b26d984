/**
 * XML 1.0's lexical rules as the scanner (xml-scan.ts) checks them: name characters, qualified
 * names, the reserved prefixes, references, DOCTYPE skipping, and the error every refusal throws.
 */
export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

const DECIMAL_REF = /^#[0-9]+$/;
const HEX_REF = /^#x[0-9a-f]+$/i;

/** a character of an XML name (simplified to ASCII name characters and anything beyond U+00B6) */
export function isNameCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 58) || c === 95 || c === 45 || c === 46 || c >= 0xb7;
}

/** whether doc[from, to) is a name: a name character run not starting with a digit, '-' or '.' */
function isNameAt(doc: string, from: number, to: number): boolean {
  if (!isNameStartAt(doc, from, to)) return false;
  for (let i = from; i < to; i++) if (!isNameCode(doc.charCodeAt(i))) return false;
  return true;
}

/** isNameAt for a run already known to hold name characters only: not empty, and a fit first character */
export function isNameStartAt(doc: string, from: number, to: number): boolean {
  if (to <= from) return false;
  const first = doc.charCodeAt(from);
  return !((first >= 48 && first <= 57) || first === 45 || first === 46 || first === 0xb7);
}

/** XML white space: space, LF, TAB, CR */
export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

function isXmlChar(n: number): boolean {
  return n === 9 || n === 10 || n === 13 || (n >= 0x20 && n <= 0xd7ff) || (n >= 0xe000 && n <= 0xfffd) || (n >= 0x10000 && n <= 0x10ffff);
}

/** Text with its character and entity references replaced; `entities`: the named references the document may use. */
export function decodeReferences(text: string, entities: Readonly<Record<string, string>>): string {
  let out = '';
  let from = 0;
  for (let amp = text.indexOf('&'); amp >= 0; amp = text.indexOf('&', from)) {
    const semi = text.indexOf(';', amp + 1);
    if (semi < 0) fail('unterminated entity reference.');
    const entity = text.slice(amp + 1, semi);
    out += text.slice(from, amp) + replacement(entity, entities);
    from = semi + 1;
  }
  return out + text.slice(from);
}

function replacement(entity: string, entities: Readonly<Record<string, string>>): string {
  if (entity === '') fail('empty entity name.');
  if (entity.charCodeAt(0) !== 35 /* # */) {
    const defined = entities[entity];
    if (defined !== undefined) return defined;
    fail(isNameAt(entity, 0, entity.length) ? 'undefined entity.' : 'disallowed character in entity name.');
  }
  let num = NaN;
  if (entity.charCodeAt(1) === 120 /* x */ && HEX_REF.test(entity)) num = parseInt(entity.slice(2), 16);
  else if (DECIMAL_REF.test(entity)) num = parseInt(entity.slice(1), 10);
  if (!isXmlChar(num)) fail('malformed character entity.');
  return String.fromCodePoint(num);
}
/** Plain attributes clash only by the same name twice. */
export function checkDistinctNames(doc: string, spans: readonly number[], count: number): void {
  for (let a = 1; a < count; a++) {
    for (let b = 0; b < a; b++) if (sameText(doc, spans[a * 4]!, spans[a * 4 + 1]!, spans[b * 4]!, spans[b * 4 + 1]!)) fail(`duplicate attribute: ${doc.slice(spans[a * 4]!, spans[a * 4 + 1]!)}.`);
  }
}

/** whether doc[a, aEnd) and doc[b, bEnd) are the same text */
function sameText(doc: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let k = 0; k < aEnd - a; k++) if (doc.charCodeAt(a + k) !== doc.charCodeAt(b + k)) return false;
  return true;
}

/** a qualified name's prefix ('' for none) and local part; refuses an empty part or a second colon */
export function qname(name: string): { prefix: string; local: string } {
  const colon = name.indexOf(':');
  if (colon === -1) return { prefix: '', local: name };
  const local = name.slice(colon + 1);
  const prefix = name.slice(0, colon);
  if (prefix === '' || local === '' || local.includes(':')) fail(`malformed name: ${name}.`);
  return { prefix, local };
}

/** The reserved prefixes keep their namespaces, and their namespaces their prefixes. */
export function checkPair(prefix: string, uri: string): void {
  if (prefix === 'xml' && uri !== XML_NAMESPACE) fail(`xml prefix must be bound to ${XML_NAMESPACE}.`);
  if (prefix === 'xmlns') fail('xmlns prefix must not be declared.');
  if (uri === XML_NAMESPACE && prefix !== 'xml') fail(`${XML_NAMESPACE} must be bound to the xml prefix.`);
  if (uri === XMLNS_NAMESPACE) fail(`${XMLNS_NAMESPACE} must not be declared.`);
}

/** Index past a DOCTYPE declaration starting after `<!DOCTYPE`: quoted literals and an internal subset may hold `>`. */
export function skipDoctype(doc: string, from: number): number {
  let i = from;
  let depth = 0;
  while (i < doc.length) {
    const c = doc.charCodeAt(i);
    if (c === 34 || c === 39) {
      const end = doc.indexOf(c === 34 ? '"' : "'", i + 1);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (c === 91 /* [ */) depth++;
    else if (c === 93 /* ] */) depth--;
    else if (c === 62 && depth <= 0) return i + 1;
    i++;
  }
  fail('unclosed doctype.');
}

/** A document the scanner refuses; the message starts with the line and column (1-based) of the construct it failed in. */
export class XmlScanError extends Error {}

/** throws the scanner's error; XmlScanParser.close puts the line and column in front */
export function fail(message: string): never {
  throw new XmlScanError(message);
}

/** `line:column` (both from 1) of offset `at` in `doc`. */
export function lineColumn(doc: string, at: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = doc.indexOf('\n'); i !== -1 && i < at; i = doc.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `${line}:${at - lineStart + 1}`;
}
