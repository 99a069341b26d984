import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compactJson } from '../api/mcp-envelope.ts';
import { jsonBytesOf, keptWith, memoOf, prepared } from '../api/prepared-json.ts';
import { VersionPayloads } from '../tools/statements/version-payloads.ts';
import { insertNextVersion } from './helpers/next-version.ts';
import { get, post } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const APPLE = '0000320193';
const QUERY = `cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`;

describe('prepared statement payloads (one per immutable version)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc?.close();
  });
  const read = async (q: string) => {
    const r = await get(`${svc.baseUrl}/v1/fundamentals/normalized-statements?${q}`, svc.keys.enterprise);
    assert.equal(r.status, 200, r.text);
    return r;
  };

  it('answers a repeated read with the same bytes as the first, and as the full read with history', async () => {
    const first = await read(QUERY);
    const again = await read(QUERY);
    assert.equal(again.text, first.text);
    const full = await read(`${QUERY}&include_version_history=true`);
    const { version_history, ...rest } = full.body.data;
    assert.ok(Array.isArray(version_history) && version_history.length >= 1);
    assert.deepEqual(rest, first.body.data);
    // the tool server reads compact by default: the same answer as the HTTP read with compact=true
    const compact = await read(`${QUERY}&compact=true`);
    assert.notEqual(compact.text, first.text);
    assert.equal((await read(`${QUERY}&compact=true`)).text, compact.text);
    const call = (args: Record<string, unknown>) =>
      post(
        `${svc.baseUrl}/mcp`,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'statements_normalized', arguments: { cik: APPLE, statement_type: 'INCOME_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY', ...args } } }),
        svc.keys.enterprise,
        { 'content-type': 'application/json' },
      );
    for (const [args, http] of [[{}, compact], [{ compact: false }, first]] as const) {
      const mcp = await call(args);
      assert.deepEqual(mcp.body.result.structuredContent, http.body);
      // the envelope written around the kept texts is byte for byte what serializing it whole gives
      const plain = JSON.parse(http.text);
      const whole = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: compactJson(plain) }], structuredContent: plain, isError: false } });
      assert.equal(mcp.text, whole);
      assert.equal((await call(args)).text, whole);
    }
    // a metrics selection is its own answer, not a kept one
    const some = await read(`${QUERY}&metrics=REVENUE`);
    assert.deepEqual(some.body.data.normalized_payload.facts.map((f: { metric: string }) => f.metric), ['REVENUE']);
  });

  it('serves a version added after the first read as soon as its commit is announced, and the earlier one still as of a date before it', async () => {
    const before = (await read(QUERY)).body.data;
    // a restatement lands: the next version, filed later, with revenue changed
    await insertNextVersion(svc.sql, before.statement_version_id, { revenue: '383285000001.000000', tag: 'restated' });
    // the insert's commit notified every instance (db/change-feed.ts); wait until this one heard it
    await svc.running.services.changes.sync();
    const after = (await read(QUERY)).body.data;
    assert.equal(after.version_sequence, before.version_sequence + 1);
    assert.equal(after.normalized_payload.facts.find((f: { metric: string }) => f.metric === 'REVENUE').value, '383285000001.000000');
    const asOf = (await read(`${QUERY}&as_of_date=${before.filing_date}`)).body.data;
    assert.deepEqual(asOf, before);
  });

  it('keeps at most its bound, dropping the least recently used, and freezes what it keeps', () => {
    const c = new VersionPayloads<{ n: number; inner: { m: number } }>(2);
    c.set('a', { n: 1, inner: { m: 1 } });
    c.set('b', { n: 2, inner: { m: 2 } });
    assert.equal(c.get('a')?.n, 1); // a is now the most recent
    c.set('c', { n: 3, inner: { m: 3 } });
    assert.deepEqual([c.get('a')?.n, c.get('b'), c.get('c')?.n, c.size], [1, undefined, 3, 2]);
    assert.throws(() => {
      (c.get('a')!.inner as { m: number }).m = 9;
    }, TypeError);
  });

  it('serializes a prepared value once, to the same text as JSON.stringify, and a plain value every time', () => {
    const value = prepared({ data: { a: '1.000000', list: [{ x: 1 }, { x: 2 }] } });
    assert.equal(jsonBytesOf(value).toString('utf8'), JSON.stringify(value));
    let renders = 0;
    const render = (v: unknown) => (renders++, JSON.stringify(v));
    memoOf(value, 'test', render);
    memoOf(value, 'test', render);
    assert.equal(renders, 1);
    const plain = { a: 1 };
    memoOf(plain, 'test', render);
    memoOf(plain, 'test', render);
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
  });
});
