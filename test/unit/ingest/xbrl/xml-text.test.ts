import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { decodeXmlStream, decodeXmlWhole } from '../../../../ingest/xbrl/xml-text.ts';

/** The bytes as a stream of chunks of the given sizes (the last size repeats). */
function chunked(bytes: Buffer, sizes: number[]): Readable {
  const parts: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[Math.min(i, sizes.length - 1)]!;
    parts.push(bytes.subarray(at, at + n));
    at += n;
  }
  return Readable.from(parts, { objectMode: true });
}

async function streamed(bytes: Buffer, sizes: number[]): Promise<string> {
  let text = '';
  for await (const t of decodeXmlStream(chunked(bytes, sizes))) text += t;
  return text;
}

const body = (n: number) => `<r>${'Société Générale — § 10 ✓ '.repeat(n)}</r>`;
const DOCUMENTS: [string, Buffer][] = [
  ['UTF-8 without a declaration', Buffer.from(body(200), 'utf8')],
  ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<?xml version="1.0"?>${body(50)}`, 'utf8')])],
  ['ISO-8859-1 declared', Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?><r>${'Société § '.repeat(300)}</r>`, 'latin1')],
  ['us-ascii declared', Buffer.from(`<?xml version="1.0" encoding="us-ascii"?><r>${'caf\u00e9 '.repeat(10)}</r>`, 'latin1')],
  ['UTF-16LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body(40), 'utf16le')])],
  ['invalid UTF-8 bytes', Buffer.concat([Buffer.from('<r>ok '), Buffer.from([0xc3, 0x28, 0xe2, 0x82, 0xff]), Buffer.from(' end</r>')])],
  ['empty', Buffer.alloc(0)],
];

describe('decodeXmlWhole reads a stream as decodeXmlStream does, in one text', () => {
  for (const [name, bytes] of DOCUMENTS) {
    it(name, async () => {
      // chunk sizes that split multi-byte characters, the 512-byte sniffing window and the declaration
      for (const sizes of [[1], [3], [7, 5], [511, 2], [512], [600, 1], [65536]]) {
        assert.equal(await decodeXmlWhole(chunked(bytes, sizes)), await streamed(bytes, sizes), `chunks of ${sizes.join(', ')}`);
      }
    });
  }

  it('a stream that already yields text (an encoding set by the caller) is taken as it is', async () => {
    const text = body(30);
    const stream = Readable.from([text.slice(0, 100), text.slice(100)], { objectMode: true });
    assert.equal(await decodeXmlWhole(stream), text);
  });
});
