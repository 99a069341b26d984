import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compactJson } from '../api/mcp-envelope.ts';
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
});
