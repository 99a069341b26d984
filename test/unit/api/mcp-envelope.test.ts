import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactJson, compactText, toolSuccess } from '../../../api/mcp-envelope.ts';
import { isPrepared, jsonBytesOf, jsonPartsOf, prepared } from '../../../api/prepared-json.ts';

/** The definition of the compact text: an array of two or more objects becomes { columns, rows }, recursively, then JSON. */
function reference(v: unknown): string | undefined {
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const tab = (x: unknown): unknown => {
    if (Array.isArray(x)) {
      const items = x.map(tab);
      if (items.length < 2 || !items.every(isObj)) return items;
      const columns = [...new Set(items.flatMap((o) => Object.keys(o)))];
      return { columns, rows: items.map((o) => columns.map((c) => o[c] ?? null)) };
    }
    if (!isObj(x)) return x;
    return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, tab(y)]));
  };
  return JSON.stringify(tab(v));
}

const point = (n: number) => ({ cik: `000000000${n}`, year: 2020 + n, metrics: { REVENUE: `${n}00.5`, NET: null }, derived: n % 2 ? ['NET'] : [], note: n === 2 ? undefined : 'ö"\n' });

const SHAPES: unknown[] = [
  null, 0, -0, 1e21, 'x', true, [], {}, [1], [{ a: 1 }],
  [point(1), point(2), point(3)],
  { items: [point(1), point(2)], total: 2, page: 1, next: null, skipped: undefined },
  [{ a: 1 }, { b: [{ c: 1 }, { c: 2, d: 3 }] }, { a: undefined }],
  [[{ a: 1 }, { a: 2 }], [{ b: 1 }, { b: 2 }]],
  [[{ a: 1 }, { a: 2 }], { b: 1 }],
  [[{ a: 1 }], { b: 1 }],
  [{ a: 1 }, [1, 2], 'x'],
  [1, { a: 1 }, { b: 2 }],
  // a sparse table: the hole is written null
  // eslint-disable-next-line no-sparse-arrays
  [, { a: 1 }, { a: 2 }],
  // eslint-disable-next-line no-sparse-arrays
  [1, , 3],
  { nested: { deeper: [{ x: [{ y: 1 }, { y: 2 }] }, { x: [] }] } },
  // the same keys in another order, then a key more: columns in the order first met
  [{ a: 1, b: 2 }, { b: 3, a: 4 }, { a: 5, b: 6, c: 7 }],
  [{ a: 1, b: 2 }, { a: 3 }],
  // rows of primitives beside a row holding an object, and an undefined cell (null in a row, left out of an object)
  [{ a: 1, b: 'x' }, { a: { c: [1] }, b: null }, { a: undefined, b: true }],
  { n: null, u: undefined, t: 'é"\\', z: -0 },
  // cells and values whose compact text is their JSON (nested objects, short or mixed arrays) beside ones that tabulate deep down
  [{ m: 'R', c: { reason: 'X', q: { Q1: '1', Q2: null } }, l: [1, 'a'] }, { m: 'C', c: null, l: [{ only: 1 }] }, { m: 'D', c: { q: { x: [{ a: 1 }, { a: 2 }] } } }],
  { a: { b: { c: { d: { e: { f: [{ g: 1 }, { g: 2 }] } } } } }, h: [[1], [2]], i: [{ j: 1 }, 2] },
  // a class instance is tabulated by its own enumerable keys, not its toJSON
  { when: new Date(0), list: [new Date(0), new Date(1)] },
];

describe('the compact text of a tool result (api/mcp-envelope.ts)', () => {
  it('is JSON.stringify of the tabulated value for every shape, plain or prepared', () => {
    for (const shape of SHAPES) {
      assert.equal(compactText(shape), reference(shape), JSON.stringify(shape));
      const copy = structuredClone(shape);
      if (typeof copy === 'object' && copy !== null) prepared(copy);
      assert.equal(compactText(copy), reference(shape), `prepared ${JSON.stringify(shape)}`);
      // twice: a deep-frozen part's kept text is the same text
      assert.equal(compactText(copy), reference(shape));
    }
  });

  it('reuses the text of prepared values only: an object merely frozen is rendered afresh, so a change under it shows', () => {
    const inner = { v: '1' };
    const shallow = Object.freeze({ inner });
    assert.equal(isPrepared(shallow), false);
    assert.equal(compactText(shallow), '{"inner":{"v":"1"}}');
    inner.v = '2';
    assert.equal(compactText(shallow), '{"inner":{"v":"2"}}');
    const deep = prepared({ list: [{ a: 1 }, { a: 2 }], inner: { v: '1' } });
    const page = { page: [deep, prepared({ b: 1 })], extra: [deep, deep] };
    assert.equal(compactJson(page), reference(page));
    assert.equal(compactJson(page), reference(page), 'again, from what the prepared parts kept');
  });

  it('writes a prepared item\'s row again when the same item sits in a table with other columns', () => {
    const a = prepared({ k: 1, m: { x: '1' } });
    const b = prepared({ k: 2, m: { x: '2' } });
    const c = prepared({ j: 3 });
    for (const table of [[a, b], [a, c], [c, a, b], [a, b]]) assert.equal(compactText(table), reference(table), JSON.stringify(table));
  });

  it("writes a success's reply as JSON.stringify writes it, its text from the escaped pieces prepared values keep", () => {
    const quoted = prepared({ k: 'a "quoted" \\ line\nbreak', name: 'Société 😀', m: { x: '1' } });
    const other = prepared({ k: 'ü', m: { x: '2' } });
    const outputs: unknown[] = [
      ...SHAPES.filter((x) => typeof x === 'object' && x !== null && !Array.isArray(x)),
      { items: [quoted, other, { k: 'plain "q"', m: { x: '3' } }], total: 3 },
      { items: [quoted, { ...other, coherence: { x: 'marked' } }], total: 2 },
      prepared({ data: { statement: quoted, list: [quoted, other] } }),
      // tables of prepared items alike (their kept columns), in the same keys' other order, and beside a hole
      { items: [prepared(point(1)), prepared(point(2)), prepared(point(3))] },
      { items: [prepared({ a: 1, b: 2 }), prepared({ b: 3, a: 4 })], again: [prepared({ a: 5, b: 6 }), prepared({ a: 7, b: 8 })] },
      // eslint-disable-next-line no-sparse-arrays
      { items: [prepared({ a: 1 }), , prepared({ a: 2 })] },
    ];
    for (const output of outputs) {
      for (let round = 0; round < 2; round++) {
        const result = toolSuccess(output);
        assert.equal(result.content[0]!.text, reference(output));
        const reply = { jsonrpc: '2.0', id: 'x-1', result };
        assert.deepEqual(jsonBytesOf(reply), Buffer.from(JSON.stringify(reply), 'utf8'), JSON.stringify(output));
      }
    }
  });

  it("writes a reply's structured content from the kept bytes of the prepared statements it holds (an as-of read's, under data.statements)", () => {
    const statement = prepared({ statement_type: 'INCOME_STATEMENT', facts: [{ metric: 'REVENUE', value: '1.5' }] });
    const output = { data: { cik: '0000320193', statements: [statement, statement], _meta: { rows: 2 } } };
    const reply = { jsonrpc: '2.0', id: 7, result: toolSuccess(output) };
    const parts = jsonPartsOf(reply);
    assert.deepEqual(Buffer.concat(parts.map((p) => p.bytes)), Buffer.from(JSON.stringify(reply), 'utf8'));
    const kept = parts.filter((p) => p.bytes === jsonBytesOf(statement));
    assert.equal(kept.length, 2, 'each statement written from its kept bytes, not serialized again');
  });
});
