import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonBytesOf, jsonPartsOf, keptWith, prepared } from '../../../api/prepared-json.ts';
import { EncodedBody } from '../../../routes/encoding.ts';

describe('prepared values (frozen, serialized once)', () => {
  it('serializes a prepared value once, to the same text as JSON.stringify, and a plain value every time', () => {
    const value = prepared({ data: { a: '1.000000', list: [{ x: 1 }, { x: 2 }] } });
    assert.equal(jsonBytesOf(value).toString('utf8'), JSON.stringify(value));
    let renders = 0;
    const render = (v: unknown) => () => (renders++, JSON.stringify(v));
    keptWith(value, 'test', render(value));
    keptWith(value, 'test', render(value));
    assert.equal(renders, 1);
    const plain = { a: 1 };
    keptWith(plain, 'test', render(plain));
    keptWith(plain, 'test', render(plain));
    assert.equal(renders, 3);
    assert.ok(Object.isFrozen(value.data.list[1]));
  });

  it('keeps what is made for a prepared value (its encoded HTTP body) and makes it afresh for a plain one', () => {
    let made = 0;
    const make = () => ({ n: ++made });
    const kept = prepared({ a: 1 });
    const first = keptWith(kept, 'http-body', make);
    assert.equal(keptWith(kept, 'http-body', make), first);
    assert.equal(made, 1);
    assert.notEqual(keptWith(kept, 'other', make), first, 'each name is its own');
    const plain = { a: 1 };
    keptWith(plain, 'http-body', make);
    keptWith(plain, 'http-body', make);
    assert.equal(made, 4);
  });

  it('writes wrappers around prepared values exactly as JSON.stringify writes them whole', () => {
    const kept = prepared({ b: [1, 'x', null, { c: true }], d: '2023-09-30' });
    const when = new Date(Date.UTC(2024, 0, 2));
    const values: unknown[] = [
      { jsonrpc: '2.0', id: 7, result: kept },
      { a: undefined, f: () => 1, kept, n: null, list: [undefined, kept, () => 2], when },
      [kept, { deep: { deeper: kept } }],
      { toJSON: () => 'custom', kept },
      { 'quote"key': kept, num: -0, big: 1e21 },
      kept,
    ];
    for (const v of values) assert.equal(jsonBytesOf(v).toString('utf8'), JSON.stringify(v));
  });

  it("writes the same bytes as JSON.stringify's UTF-8, reusing a prepared value's encoded bytes inside an envelope", () => {
    const kept = prepared({ name: 'Société Générale — 株式会社 😀', b: [1, 'x', null, { c: true }], d: '2023-09-30' });
    const when = new Date(Date.UTC(2024, 0, 2));
    const values: unknown[] = [
      { jsonrpc: '2.0', id: 7, result: kept },
      { jsonrpc: '2.0', id: 'ü-1', result: { content: [{ type: 'text', text: 'ä' }], structuredContent: kept, isError: false } },
      { a: undefined, f: () => 1, kept, n: null, list: [undefined, kept, () => 2], when },
      [kept, { deep: { deeper: kept } }, 'ö'],
      [undefined, kept],
      // a sparse array: JSON.stringify writes its holes as null
      [, kept, , 'x'],
      { toJSON: () => 'custom', kept },
      { 'quote"key': kept, num: -0, big: 1e21 },
      kept,
      { plain: 'ß' },
      'text',
      12,
      null,
    ];
    for (const v of values) assert.deepEqual(jsonBytesOf(v), Buffer.from(JSON.stringify(v), 'utf8'), JSON.stringify(v));
    // the prepared value's bytes are encoded once and kept
    assert.equal(jsonBytesOf(kept), jsonBytesOf(kept));
    // a prepared value made of prepared parts (a page of prepared points): the same bytes, kept
    const page = prepared({ items: [kept, prepared({ q: 'ü', n: [1, 2] }), { plain: kept }], total: 3, next: undefined });
    assert.deepEqual(jsonBytesOf(page), Buffer.from(JSON.stringify(page), 'utf8'));
    assert.equal(jsonBytesOf(page), jsonBytesOf(page));
  });

  it('gives the parts a body is made of: joined, the bytes of JSON.stringify; prepared values as their kept bytes with a kept digest', () => {
    const a = prepared({ name: 'Société 😀', n: [1, 2] });
    const b = prepared({ q: 'ü' });
    const page = { jsonrpc: '2.0', id: 3, result: { items: [a, { plain: b }, 'x'], total: 2 } };
    const parts = jsonPartsOf(page);
    assert.deepEqual(Buffer.concat(parts.map((p) => p.bytes)), Buffer.from(JSON.stringify(page), 'utf8'));
    const kept = parts.filter((p) => p.digest !== null);
    assert.equal(kept.length, 2);
    assert.equal(kept[0]!.bytes, jsonBytesOf(a), 'the kept bytes themselves, not a copy');
    assert.deepEqual(kept[0]!.digest, jsonPartsOf(a)[0]!.digest);
    assert.equal(jsonPartsOf(a)[0], jsonPartsOf(a)[0], 'made once');
    for (const v of ['text', 12, null, { plain: 1 }]) assert.deepEqual(jsonPartsOf(v), [{ bytes: Buffer.from(JSON.stringify(v), 'utf8'), digest: null }]);
  });

  it("tags a body made of parts by its content: the same content the same ETag, another content another, the joined bytes the body's", () => {
    const a = prepared({ x: '1.5' });
    const body = (id: number, v: unknown) => new EncodedBody(jsonPartsOf({ id, items: [v, a] }));
    assert.equal(body(1, a).etag, body(1, a).etag);
    assert.notEqual(body(1, a).etag, body(2, a).etag);
    assert.notEqual(body(1, a).etag, body(1, prepared({ x: '1.6' })).etag);
    assert.match(body(1, a).etag, /^W\/"[\w-]{27}"$/);
    const joined = body(1, a);
    assert.deepEqual(joined.raw, Buffer.from(JSON.stringify({ id: 1, items: [a, a] }), 'utf8'));
    assert.equal(joined.length, joined.raw.length);
  });
});
