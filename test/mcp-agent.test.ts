import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * An agent reaches everything through tools alone, in bounded payloads. The official
 * SDK client (which validates every structuredContent against the tool's outputSchema) asks the
 * typical analyst questions against the real service over the real corpus; each question
 * must be answered in at most three calls and 20 KB of text. The tools/list budget is checked on
 * what the client actually receives.
 */

let svc: TestService;
let client: Client;

type Json = Record<string, any>;

const MAX_CALLS = 3;
const MAX_TEXT_BYTES = 20 * 1024;

/** One analyst question: the calls it made and the text the model would have read. */
class Question {
  calls: string[] = [];
  textBytes = 0;
  constructor(readonly title: string) {}

  async call(name: string, args: Json): Promise<Json> {
    this.calls.push(name);
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    this.textBytes += Buffer.byteLength(text);
    assert.equal(result.isError, false, `${name} failed: ${text}`);
    return result.structuredContent as Json;
  }

  /** The call and text budget; the figures go to the test log for the report. */
  done(): void {
    console.log(`question "${this.title}": ${this.calls.length} call(s) [${this.calls.join(' -> ')}], ${(this.textBytes / 1024).toFixed(1)} KB of text`);
    assert.ok(this.calls.length <= MAX_CALLS, `${this.title}: ${this.calls.length} calls`);
    assert.ok(this.textBytes <= MAX_TEXT_BYTES, `${this.title}: ${this.textBytes} bytes of text`);
  }
}

before(async () => {
  svc = await startTestService();
  const transport = new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), {
    requestInit: { headers: { 'X-Api-Key': svc.keys.growth } },
  });
  client = new Client({ name: 'fds-analyst', version: '1.0.0' });
  await client.connect(transport);
  // The SDK validates structuredContent only against outputSchemas it has listed.
  await client.listTools();
});

after(async () => {
  await client?.close();
  await svc?.close();
});

/** Waits (as an agent told "computing" would) until the snapshot build has finished. */
async function snapshotReady(snapshotId: string): Promise<void> {
  const until = Date.now() + 120_000;
  for (;;) {
    const [row] = await svc.sql<{ status: string }[]>`SELECT status FROM modeling_snapshots WHERE snapshot_id = ${snapshotId}`;
    if (row?.status === 'ready') return;
    assert.ok(row?.status !== 'failed' && Date.now() < until, `snapshot ${snapshotId}: ${row?.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function cikOf(q: Question, ticker: string): Promise<string> {
  return (await q.call('companies_resolve', { ticker })).cik as string;
}

describe('ten analyst questions through the SDK client, tools alone', () => {
  it('five-year margin trend: gross, operating and net margin of Apple for five fiscal years in one call', async () => {
    const q = new Question('five-year margin trend');
    const out = await q.call('fundamentals_derived_time_series', {
      tickers: ['AAPL'],
      statement_type: 'INCOME_STATEMENT',
      metrics: ['GROSS_MARGIN', 'OPERATING_MARGIN', 'NET_MARGIN'],
      from: '2020-10-01',
      to: '2025-09-30',
    });
    q.done();
    const points = out.items as Json[];
    assert.equal(points.length, 5, 'fiscal 2021 to 2025');
    assert.deepEqual(points.map((p) => p.fiscal_period), ['FY', 'FY', 'FY', 'FY', 'FY']);
    for (const p of points) {
      for (const m of ['GROSS_MARGIN', 'OPERATING_MARGIN', 'NET_MARGIN']) {
        const v = Number(p.metrics[m]);
        assert.ok(v > 0 && v < 1, `${p.fiscal_year} ${m} ${p.metrics[m]}`);
      }
      assert.ok(Number(p.metrics.GROSS_MARGIN) > Number(p.metrics.OPERATING_MARGIN));
    }
  });

  it("restatements of a year: Apple's fiscal 2008 restatements with the filing and the revised figures", async () => {
    const q = new Question('restatements of a year');
    const cik = await cikOf(q, 'AAPL');
    const out = await q.call('edgar_restatement_alerts', { cik, fiscal_year: 2008 });
    q.done();
    const events = out.items as Json[];
    assert.ok(events.length > 0);
    const income = events.find((e) => e.statement_type === 'INCOME_STATEMENT' && e.fiscal_period === 'FY');
    assert.ok(income, 'the FY 2008 income statement was restated');
    assert.equal(income.form, '10-K/A');
    const net = (income.revised_metrics as Json[]).find((r) => r.metric === 'NET_INCOME');
    assert.ok(net, 'net income was revised');
    assert.notEqual(net.old_value, net.new_value);
    const [stored] = await svc.sql`SELECT count(*)::int AS n FROM restatement_alert_events WHERE cik = ${cik} AND fiscal_year = 2008`;
    assert.equal(out.total, stored!.n, 'every restatement of the year is listed');
  });

  it("what was known on a date: Apple's fiscal 2008 net income as known on 2010-01-01 is the figure reported then, not the later restatement", async () => {
    const q = new Question('what was known on a date');
    const out = await q.call('financials_get_as_of_snapshot', { ticker: 'AAPL', date: '2010-01-01', fiscal_year: 2008, metrics: ['NET_INCOME', 'REVENUE', 'TOTAL_ASSETS'] });
    q.done();
    const data = out.data as Json;
    const income = (data.statements as Json[]).find((s) => s.statement_type === 'INCOME_STATEMENT' && s.fiscal_period === 'FY');
    assert.ok(income);
    assert.equal(income.fiscal_year, 2008);
    const facts = income.normalized_payload.facts as Json[];
    assert.deepEqual(facts.map((f) => f.metric).sort(), ['NET_INCOME', 'REVENUE']);
    assert.equal(facts[0]!.source_accession, undefined, 'compact on the tool server');
    const versions = await svc.sql<{ value: string; filing_date: string }[]>`
      SELECT figures -> 'NET_INCOME' ->> 'value' AS value, filing_date::text FROM statement_versions
      WHERE cik = ${data.cik} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2008 AND fiscal_period = 'FY' ORDER BY version_sequence`;
    const known = versions.filter((v) => v.filing_date <= '2010-01-01').at(-1)!;
    const latest = versions.at(-1)!;
    assert.ok(latest.filing_date > '2010-01-01', 'restated after the date');
    const net = facts.find((f) => f.metric === 'NET_INCOME')!;
    assert.equal(Number(net.value), Number(known.value), 'the version visible on the date');
    assert.notEqual(Number(net.value), Number(latest.value), 'not the restated figure');
  });

  it("segment revenue: Apple's fiscal 2023 revenue by business segment", async () => {
    const q = new Question('segment revenue');
    const cik = await cikOf(q, 'AAPL');
    const out = await q.call('metrics_segments', { cik, metric: 'REVENUE', period: '2023-FY', dimension_type: 'BUSINESS_SEGMENT' });
    q.done();
    const rows = out.items as Json[];
    assert.ok(rows.length >= 5, 'Americas, Europe, Greater China, Japan, Rest of Asia Pacific');
    assert.equal(out.total, rows.length, 'one page holds them');
    for (const r of rows) {
      assert.equal(r.metric, 'REVENUE');
      assert.equal(r.dimension_type, 'BUSINESS_SEGMENT');
      assert.equal(r.fiscal_year, 2023);
    }
    assert.ok(rows.some((r) => /Greater China/.test(r.member_label)));
  });

  it("a disclosure's text: Apple's income tax note of its latest 10-K, found and read in three calls", async () => {
    const q = new Question("a disclosure's text");
    const cik = await cikOf(q, 'AAPL');
    const list = await q.call('edgar_company_disclosures', { cik, search: 'income tax' });
    const note = (list.items as Json[])[0]!;
    assert.match(note.title, /income tax/i);
    const out = await q.call('edgar_disclosure', { disclosure_id: note.disclosure_id });
    q.done();
    const d = out.data as Json;
    assert.equal(d.disclosure_id, note.disclosure_id);
    assert.ok(d.disclosure_text.length > 500);
    assert.match(d.disclosure_text, /tax/i);
    assert.equal(d.text_offset, 0);
  });

  it("TTM net income: Apple's trailing twelve months from a point-in-time snapshot, built and read with tools in three calls", async () => {
    const q = new Question('TTM net income');
    const found = await q.call('identity_search', { query: 'AAPL', page_size: 1 });
    const { company_id, cik } = (found.items as Json[])[0]!;
    const asOf = '2025-12-31';
    const build = await q.call('modeling_pit_snapshot', {
      ciks: [cik],
      as_of_date: asOf,
      statement_types: ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'],
      metrics_bundle: 'all',
      page_size: 1,
    });
    // "computing": the agent waits as the description tells it (no call), then reads.
    if (build.status === 'computing') await snapshotReady(build.snapshot_id);
    const out = await q.call('modeling_ttm', { company_id, as_of: asOf, from: '2025-01-01', metrics: ['NET_INCOME'] });
    q.done();
    const rows = out.items as Json[];
    assert.ok(rows.length >= 1 && rows.length <= 4, `${rows.length} trailing windows ending in 2025`);
    const latest = rows.at(-1)!;
    assert.deepEqual(Object.keys(latest.metrics), ['NET_INCOME']);
    const quarters = latest.window_quarters as Json[];
    assert.equal(quarters.length, 4);
    let sum = 0n;
    for (const w of quarters) {
      const [v] = await svc.sql<{ value: string }[]>`
        SELECT figures -> 'NET_INCOME' ->> 'value' AS value FROM statement_versions
        WHERE cik = ${cik} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = ${w.fiscal_year} AND fiscal_period = ${w.fiscal_period} AND filing_date <= ${asOf}
        ORDER BY version_sequence DESC LIMIT 1`;
      sum += BigInt(v!.value.split('.')[0]!);
    }
    assert.equal(BigInt(String(latest.metrics.NET_INCOME).split('.')[0]!), sum, 'the four quarters summed');
  });

  it('a three-company panel: revenue and net income of Apple, Microsoft and NVIDIA for three fiscal years in one call', async () => {
    const q = new Question('three-company panel');
    const out = await q.call('fundamentals_time_series', {
      tickers: ['AAPL', 'MSFT', 'NVDA'],
      statement_type: 'INCOME_STATEMENT',
      metrics: ['REVENUE', 'NET_INCOME'],
      from: '2022-06-01',
      to: '2025-06-01',
    });
    q.done();
    const points = out.items as Json[];
    assert.equal(out.total, points.length, 'one page');
    const ciks = new Set(points.map((p) => p.cik));
    assert.equal(ciks.size, 3);
    for (const p of points) assert.deepEqual(Object.keys(p.metrics).sort(), ['NET_INCOME', 'REVENUE']);
  });

  it("source concept and accession of a figure: Apple's fiscal 2023 revenue with its XBRL tag and filing", async () => {
    const q = new Question('source concept and accession of a figure');
    const out = await q.call('statements_normalized', {
      ticker: 'AAPL',
      statement_type: 'INCOME_STATEMENT',
      fiscal_year: 2023,
      fiscal_period: 'FY',
      metrics: ['REVENUE'],
      compact: false,
    });
    q.done();
    const [fact, ...rest] = out.data.normalized_payload.facts as Json[];
    assert.equal(rest.length, 0);
    assert.equal(fact!.metric, 'REVENUE');
    assert.match(fact!.source_xbrl_concept, /^us-gaap:/);
    assert.match(fact!.source_accession, /^0000320193-\d{2}-\d{6}$/);
  });

  it("a company's 10-Ks: every annual report Microsoft filed, on one page", async () => {
    const q = new Question("a company's 10-Ks");
    const cik = await cikOf(q, 'MSFT');
    const out = await q.call('filings_list', { cik, form: ['10-K'] });
    q.done();
    const filings = out.items as Json[];
    assert.ok(filings.length >= 10);
    assert.equal(out.total, filings.length);
    for (const f of filings) assert.equal(f.form, '10-K');
  });

  it("a balance-sheet identity check: Apple's fiscal 2023 balance sheet and whether assets = liabilities + equity holds", async () => {
    const q = new Question('balance-sheet identity check');
    const out = await q.call('statements_normalized', { ticker: 'AAPL', statement_type: 'BALANCE_SHEET', fiscal_year: 2023, fiscal_period: 'FY' });
    q.done();
    const identity = out.data.normalized_payload._meta.identity as Json;
    const checks = identity.checks as Json[];
    assert.ok(checks.length > 0);
    const balance = checks.find((c) => /ASSETS/.test(c.rule_id));
    assert.ok(balance, `an assets identity among ${checks.map((c) => c.rule_id).join(', ')}`);
    assert.equal(balance.status, 'PASS');
    const facts = out.data.normalized_payload.facts as Json[];
    assert.ok(facts.length > 10);
    for (const f of facts) {
      assert.deepEqual(Object.keys(f).filter((k) => !['metric', 'value', 'unit', 'period_start', 'period_end'].includes(k)), [], 'compact: no provenance');
      assert.equal(f.period_end ?? out.data.period_end, out.data.period_end, 'a balance sheet figure is at the statement date');
    }
  });
});

/** Every node of a JSON Schema, with its path, for the portability checks. */
function* nodes(schema: unknown, path = '#'): Generator<[string, Json]> {
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) yield* nodes(s, `${path}/${i}`);
    return;
  }
  if (!schema || typeof schema !== 'object') return;
  yield [path, schema as Json];
  for (const [k, v] of Object.entries(schema)) yield* nodes(v, `${path}/${k}`);
}

describe('the tools/list budget an agent pays before its first call', () => {
  const AVERAGE_LIMIT_BYTES = 1.6 * 1024;

  it('names, descriptions and input schemas average at most 1.6 KB a tool', async () => {
    const { tools } = await client.listTools();
    const sizes = tools.map((t) => Buffer.byteLength(t.name) + Buffer.byteLength(t.description ?? '') + Buffer.byteLength(JSON.stringify(t.inputSchema)));
    const average = sizes.reduce((a, b) => a + b, 0) / tools.length;
    console.log(`tools/list: ${tools.length} tools, average ${(average / 1024).toFixed(2)} KB a tool (name + description + input schema), largest ${(Math.max(...sizes) / 1024).toFixed(2)} KB`);
    assert.ok(average <= AVERAGE_LIMIT_BYTES, `average ${average} bytes`);
  });

  it('writes no type array ["x", "null"] anywhere and no top-level anyOf, oneOf or allOf in an input schema', async () => {
    const { tools } = await client.listTools();
    let nullableBranches = 0;
    for (const t of tools) {
      const input = t.inputSchema as Json;
      assert.ok(!('anyOf' in input) && !('oneOf' in input) && !('allOf' in input), `${t.name} input has a top-level union`);
      for (const [where, schema] of [...nodes(input, `${t.name} input`), ...nodes(t.outputSchema, `${t.name} output`)]) {
        assert.ok(!Array.isArray(schema.type), `${where}: type ${JSON.stringify(schema.type)}`);
        if (Array.isArray(schema.anyOf) && schema.anyOf.some((b: Json) => b.type === 'null')) nullableBranches++;
      }
    }
    console.log(`tools/list: 0 type arrays; nullable values written as anyOf [{type: x}, {type: null}]: ${nullableBranches}`);
  });

  it('describes every tool for a model: no HTTP path in a description or input schema', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) {
      const text = `${t.description} ${JSON.stringify(t.inputSchema)}`;
      assert.doesNotMatch(text, /\/v1\/|\/health\/|\/mcp\//, `${t.name} sends the agent to an HTTP path`);
    }
  });

  it('paginates every list tool with page and page_size, default 20 on the tool server', async () => {
    const { tools } = await client.listTools();
    const lists = tools.filter((t) => (t.outputSchema?.properties as Json | undefined)?.items?.type === 'array');
    assert.ok(lists.length >= 8, `${lists.length} list tools`);
    for (const t of lists) {
      const props = t.inputSchema.properties as Json;
      assert.equal(props.page?.default, 1, `${t.name} page`);
      assert.equal(props.page_size?.default, 20, `${t.name} page_size`);
    }
  });
});

async function text(name: string, args: Json): Promise<{ bytes: number; structured: Json; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const body = (result.content as { text: string }[])[0]!.text;
  assert.equal(result.isError, false, body);
  return { bytes: Buffer.byteLength(body), structured: result.structuredContent as Json, text: body };
}

describe('bounded, agent-shaped output', () => {
  it('an as-of snapshot of NVIDIA on the tool server is compact by default and carries provenance only when asked', async () => {
    const compact = await text('financials_get_as_of_snapshot', { ticker: 'NVDA', date: '2025-06-30' });
    const full = await text('financials_get_as_of_snapshot', { ticker: 'NVDA', date: '2025-06-30', compact: false });
    console.log(`NVIDIA as-of snapshot: ${(compact.bytes / 1024).toFixed(1)} KB compact, ${(full.bytes / 1024).toFixed(1)} KB with provenance`);
    assert.ok(compact.bytes <= MAX_TEXT_BYTES, `${compact.bytes} bytes`);
    const facts = (s: Json) => (s.data.statements as Json[]).flatMap((st) => st.normalized_payload.facts as Json[]);
    assert.ok(facts(compact.structured).length > 50);
    assert.equal(facts(compact.structured).length, facts(full.structured).length, 'compact keeps every figure');
    assert.ok(facts(compact.structured).every((f) => f.source_accession === undefined));
    assert.ok(facts(full.structured).every((f) => /^\d{10}-\d{2}-\d{6}$/.test(f.source_accession)));
  });

  it('over HTTP the same read keeps its full answer unless the new parameters are passed', async () => {
    const url = `${svc.baseUrl}/v1/financials/as-of-snapshot?ticker=NVDA&date=2025-06-30`;
    const get = async (u: string) => (await (await fetch(u, { headers: { 'X-Api-Key': svc.keys.growth } })).json()) as Json;
    const plain = await get(url);
    const statements = plain.data.statements as Json[];
    assert.ok(statements.every((s) => s.normalized_payload.facts.every((f: Json) => typeof f.source_accession === 'string')));
    assert.ok(statements.every((s) => 'calculation_evidence' in s.normalized_payload._meta));
    const narrowed = await get(`${url}&metrics=REVENUE,TOTAL_ASSETS&compact=true`);
    const kept = (narrowed.data.statements as Json[]).flatMap((s) => s.normalized_payload.facts as Json[]);
    assert.deepEqual([...new Set(kept.map((f) => f.metric))].sort(), ['REVENUE', 'TOTAL_ASSETS']);
  });

  it('the text of a list is one { columns, rows } table holding every item of structuredContent', async () => {
    const cik = (await text('companies_resolve', { ticker: 'MSFT' })).structured.cik;
    const out = await text('filings_list', { cik, page_size: 20 });
    const items = out.structured.items as Json[];
    const table = JSON.parse(out.text).items as { columns: string[]; rows: unknown[][] };
    assert.equal(table.rows.length, items.length);
    const rebuilt = table.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i]])));
    assert.deepEqual(rebuilt, items);
    assert.ok(out.bytes < JSON.stringify(out.structured).length * 0.75, 'the table is smaller than the objects');
  });

  it("reads the longest note of the corpus in parts on the tool server; the parts join to the whole text HTTP returns", async () => {
    const [longest] = await svc.sql<{ disclosure_id: string; char_count: number }[]>`SELECT disclosure_id, char_count FROM disclosures ORDER BY char_count DESC LIMIT 1`;
    let offset: number | null = 0;
    let joined = '';
    let parts = 0;
    while (offset !== null) {
      const part = await text('edgar_disclosure', { disclosure_id: longest!.disclosure_id, offset });
      assert.ok(part.bytes <= MAX_TEXT_BYTES, `${part.bytes} bytes`);
      assert.equal(part.structured.data.text_offset, offset);
      joined += part.structured.data.disclosure_text;
      offset = part.structured.data.next_offset;
      parts++;
    }
    const whole = (await (await fetch(`${svc.baseUrl}/v1/edgar/disclosures/${longest!.disclosure_id}`, { headers: { 'X-Api-Key': svc.keys.growth } })).json()) as Json;
    assert.equal(whole.data.next_offset, undefined, 'HTTP returns the whole note unless max_chars is passed');
    assert.equal(joined, whole.data.disclosure_text);
    assert.ok(parts > 1, `${longest!.char_count} characters in ${parts} parts`);
  });
});

describe('companies_resolve before our first identity load', () => {
  it('resolves a ticker that has named one CIK in every load, saying it carried the mapping back', async () => {
    const out = await text('companies_resolve', { ticker: 'AAPL', as_of: '2001-01-01' });
    assert.equal(out.structured.cik, '0000320193');
    assert.equal(out.structured.as_of, '2001-01-01');
    const [first] = await svc.sql<{ first: string }[]>`SELECT min(active_from)::text AS first FROM identity_mappings`;
    assert.equal(out.structured.carried_back_from, first!.first);
    const today = await text('companies_resolve', { ticker: 'AAPL' });
    assert.equal(today.structured.carried_back_from, undefined, 'an observed mapping says nothing more');
  });

  it('does not carry back a ticker our loads saw name another issuer; the full identity resolve never carries back', async () => {
    const [first] = await svc.sql<{ first: string }[]>`SELECT min(active_from)::text AS first FROM identity_mappings`;
    await svc.sql`
      INSERT INTO identity_mappings (cik, ticker, company_name, active_from, active_to, is_active, source, source_loaded_at)
      VALUES ('0000000001', 'MSFT', 'An earlier holder of the ticker', ${first!.first}::date, ${first!.first}::date + 1, false, 'sec_company_tickers', now())`;
    const result = await client.callTool({ name: 'companies_resolve', arguments: { ticker: 'MSFT', as_of: '2001-01-01' } });
    assert.equal(result.isError, true);
    assert.equal(JSON.parse((result.content as { text: string }[])[0]!.text).http_code, 'NOT_FOUND');
    const full = await fetch(`${svc.baseUrl}/v1/identity/resolve?ticker=AAPL&as_of_date=2001-01-01`, { headers: { 'X-Api-Key': svc.keys.growth } });
    assert.equal(full.status, 404);
  });
});

describe('default pages on the tool server', () => {
  it('a list tool called without page_size gets 20 items on the tool server; HTTP keeps 50', async () => {
    const cik = (await text('companies_resolve', { ticker: 'AAPL' })).structured.cik;
    const tool = await text('filings_list', { cik });
    assert.equal(tool.structured.page_size, 20);
    assert.equal((tool.structured.items as Json[]).length, 20);
    assert.ok(tool.structured.total > 50);
    const http = (await (await fetch(`${svc.baseUrl}/v1/edgar/companies/${cik}/filings`, { headers: { 'X-Api-Key': svc.keys.growth } })).json()) as Json;
    assert.equal(http.page_size, 50);
    assert.equal(http.items.length, 50);
    const asked = await text('filings_list', { cik, page_size: 50 });
    assert.equal((asked.structured.items as Json[]).length, 50, 'an explicit page_size is kept');
  });

  it('the widest default pages stay near 20 KB of text: panels with every metric, every restatement event', async () => {
    const wide: [string, Json][] = [
      ['fundamentals_time_series', { tickers: ['AAPL', 'MSFT', 'NVDA'], statement_type: 'INCOME_STATEMENT' }],
      ['fundamentals_derived_time_series', { tickers: ['AAPL', 'MSFT', 'NVDA'], statement_type: 'INCOME_STATEMENT' }],
      ['edgar_restatement_alerts', {}],
      ['metrics_segments', { cik: '320193' }],
      ['edgar_metric_time_series', { cik: '320193', metric: 'REVENUE', include_provenance: true }],
    ];
    for (const [name, args] of wide) {
      const out = await text(name, args);
      console.log(`default page of ${name}: ${(out.bytes / 1024).toFixed(1)} KB of text`);
      assert.ok(out.bytes <= 24 * 1024, `${name}: ${out.bytes} bytes`);
    }
  });
});
