import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';

/** Bytes read before deciding the encoding: enough for a BOM plus any XML declaration. */
const SNIFF_BYTES = 512;

/**
 * Decodes an XML byte stream into text chunks for a SAX parser. Modern EDGAR XML is UTF-8, but
 * 2009-2012 instances also declare us-ascii or ISO-8859-1, and reading Latin-1 as UTF-8 would
 * turn every accented name or "§" into U+FFFD. The encoding comes from the BOM, else from the XML
 * declaration, else UTF-8 (the XML default). Multi-byte characters split across chunks are held
 * back by TextDecoder's stream mode, so they are never garbled.
 */
export async function* decodeXmlStream(input: Readable): AsyncGenerator<string> {
  let decoder: TextDecoder | null = null;
  let head: Buffer[] = [];
  let headLength = 0;
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    if (typeof chunk === 'string') {
      // the caller already set an encoding on the stream; trust it
      yield chunk;
      continue;
    }
    if (decoder) {
      yield decoder.decode(chunk, { stream: true });
      continue;
    }
    head.push(chunk);
    headLength += chunk.length;
    if (headLength < SNIFF_BYTES) continue;
    const bytes = Buffer.concat(head);
    head = [];
    decoder = decoderFor(bytes);
    yield decoder.decode(bytes, { stream: true });
  }
  if (!decoder) {
    const bytes = Buffer.concat(head);
    decoder = decoderFor(bytes);
    yield decoder.decode(bytes, { stream: true });
  }
  yield decoder.decode();
}

/**
 * The whole of an XML byte stream as one text, decoded as decodeXmlStream decodes it (the same
 * encoding from the same head bytes; TextDecoder's stream mode yields exactly the text of one
 * decode of the concatenated bytes), but in one pass into one flat string: the chunk texts and
 * their join were two more copies of every package document. A stream that yields text (an
 * encoding set by its caller) is taken as it is, as decodeXmlStream takes it.
 */
export async function decodeXmlWhole(input: Readable): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let text = '';
  // where decodeXmlStream would have sniffed: the first chunks up to at least SNIFF_BYTES
  let headLength = 0;
  for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
    if (typeof chunk === 'string') {
      text += chunk;
      continue;
    }
    chunks.push(chunk);
    total += chunk.length;
    if (headLength < SNIFF_BYTES) headLength = total;
  }
  if (text !== '') {
    if (total > 0) throw new Error('an XML stream yielded both text and bytes');
    return text;
  }
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return decoderFor(buf.subarray(0, headLength)).decode(buf);
}

function decoderFor(head: Buffer): TextDecoder {
  // TextDecoder drops a BOM matching its encoding (ignoreBOM defaults to false)
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return new TextDecoder('utf-8');
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le');
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be');
  const decl = /^<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head.toString('latin1'));
  const label = decl?.[1] ?? 'utf-8';
  try {
    // WHATWG labels: us-ascii and iso-8859-1 both decode as windows-1252, a superset for real text
    return new TextDecoder(label);
  } catch {
    throw new Error(`XML declares an encoding this reader cannot decode: ${JSON.stringify(label)}`);
  }
}
