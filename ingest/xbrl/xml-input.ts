import type { Readable } from 'node:stream';
import type { SaxesTagNS } from 'saxes';
import { decodeXmlWhole } from './xml-text.ts';

/**
 * What the streaming readers accept: a whole document (tests, small files) or a byte stream
 * from `SecSource.openStream`, so multi-megabyte linkbases never sit in memory as one string.
 */
export type XmlInput = string | Readable;

export const LINK_NS = 'http://www.xbrl.org/2003/linkbase';
export const XLINK_NS = 'http://www.w3.org/1999/xlink';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Attribute by namespace URI and local name, whatever prefix the document bound it to. */
export function attrNs(attributes: Record<string, { uri: string; local: string; value: string }>, uri: string, local: string): string | null {
  for (const key in attributes) {
    const a = attributes[key];
    if (a && a.local === local && a.uri === uri) return a.value;
  }
  return null;
}

/** An element's attribute by namespace URI ('' for an unqualified one) and local name. */
export function attr(tag: SaxesTagNS, uri: string, local: string): string | null {
  if (uri === '') return tag.attributes[local]?.value ?? null;
  for (const name in tag.attributes) {
    const a = tag.attributes[name]!;
    if (a.local === local && a.uri === uri) return a.value;
  }
  return null;
}

/** Unqualified attribute (order, weight, roleURI...), which XBRL writes without a namespace. */
export function attrPlain(attributes: Record<string, { uri: string; local: string; value: string }>, local: string): string | null {
  for (const key in attributes) {
    const a = attributes[key];
    if (a && a.local === local && a.uri === '') return a.value;
  }
  return null;
}

/**
 * Pushes the whole input through the parser and closes it; parse errors throw (saxes' default),
 * so a truncated or malformed file fails loudly instead of yielding half a linkbase. Bytes are
 * decoded by xml-text.ts (shared with the instance reader), which honours the declared encoding
 * of 2009-era us-ascii / ISO-8859-1 files.
 */
export async function feedSax(parser: { write(text: string): unknown; close(): unknown }, input: XmlInput): Promise<void> {
  if (typeof input === 'string') parser.write(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input);
  else {
    const text = await decodeXmlWhole(input);
    if (text) parser.write(text);
  }
  parser.close();
}

/**
 * Reads at most `maxBytes` of a stream looking for a pattern, then stops reading. Used to tell an
 * inline XBRL primary document from an exhibit without pulling megabytes of HTML.
 */
export async function streamContains(stream: Readable, pattern: RegExp, maxBytes: number): Promise<boolean> {
  let seen = '';
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      bytes += buf.length;
      // latin1 never throws on split multibyte characters; the markers we look for are ASCII
      seen += buf.toString('latin1');
      if (pattern.test(seen)) return true;
      if (bytes >= maxBytes) return false;
      // keep a tail so a marker split across chunks is still found
      seen = seen.slice(-256);
    }
    return false;
  } finally {
    stream.destroy();
  }
}
