import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { EncodedBody, sendBody } from '../routes/encoding.ts';

describe('operations: a body made of parts', () => {
  it('sends the joined bytes with their length whether written part by part (a few parts) or joined (many), and none on HEAD', async () => {
    const few = ['{"jsonrpc":"2.0","id":1,"result":', '{"data":"é ü"}', '}'];
    const many = Array.from({ length: 12 }, (_, i) => (i === 0 ? '[' : ',') + String(i)).concat([']']);
    const bodyOf = (texts: string[]) => new EncodedBody(texts.map((t) => ({ bytes: Buffer.from(t, 'utf8'), digest: null })));
    assert.equal(bodyOf(few).chunks.length, 3, 'a few parts: written as they are');
    assert.equal(bodyOf(many).chunks.length, 1, 'many parts: joined');
    const server = createServer((req, res) => sendBody(res, 200, bodyOf(req.url === '/many' ? many : few), 'application/json'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const [path, texts] of [['/few', few], ['/many', many]] as const) {
        for (const method of ['GET', 'POST']) {
          const r = await fetch(base + path, { method, headers: { 'accept-encoding': 'identity' } });
          const expected = Buffer.from(texts.join(''), 'utf8');
          assert.equal(r.headers.get('content-length'), String(expected.length), `${method} ${path}`);
          assert.deepEqual(Buffer.from(await r.arrayBuffer()), expected, `${method} ${path}`);
        }
        const head = await fetch(base + path, { method: 'HEAD' });
        assert.equal(head.status, 200);
        assert.equal((await head.arrayBuffer()).byteLength, 0);
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
