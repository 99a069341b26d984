import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { startJobWorker, type JobWorker } from '../jobs/runner.ts';
import { groundingViolations } from '../domain/ai/claims.ts';
import { generateNarratives, NARRATIVE_TYPES } from '../domain/ai/narratives.ts';
import { numeralsIn } from '../domain/ai/render.ts';
import { CompanyView, type SnapshotFigure } from '../domain/ai/snapshot-view.ts';
import { get, post } from './helpers/http.ts';
import { allRows, buildSnapshot } from './helpers/modeling.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * The AI routes and tools over real snapshots of the ../shared/sec corpus, built through the
 * modeling route by a real job worker: narratives traced number by number to their claims and to
 * the figures the modeling routes serve, artifacts identical across builds, explanations of known
 * failing identities, peers, embedding metadata, and the plan gates on both surfaces.
 */
const APPLE = '0000320193';
const MICROSOFT = '0000789019';
const HOME_DEPOT = '0000354950';
const SUNATION = '0000022701';
const AS_OF = '2026-11-01';
const SMALL_AS_OF = '2026-10-01';
const TYPES = ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'] as const;

let svc: TestService;
let worker: JobWorker;
let universe: string[];
const ids = new Map<string, string>();

const api = (path: string, key = svc.keys.scale) => get(`${svc.baseUrl}${path}`, key);
const rpc = (key: string, name: string, args: Record<string, unknown>) =>
  post(`${svc.baseUrl}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }), key);

async function narratives(cik: string, type: string, statementType: string, asOf = AS_OF): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await api(`/v1/ai/companies/${ids.get(cik)}/narratives?as_of=${asOf}&narrative_type=${type}&statement_type=${statementType}&page_size=200&page=${page}`);
    assert.equal(r.status, 200, r.text);
    out.push(...r.body.items);
    if (page * 200 >= r.body.total) return out;
  }
}

before(async () => {
  svc = await startTestService({ jobsWorker: false, exportSchedule: false });
  worker = await startJobWorker({
    databaseUrl: svc.running.database.url, sql: svc.sql, bulkStore: svc.running.services.bulkStore, bulkDir: svc.running.services.config.bulkDir,
    concurrency: 2, buildStaleSeconds: 30, exportSchedule: false, now: () => new Date(), log: () => {},
  });
  universe = (await svc.sql<{ cik: string }[]>`SELECT DISTINCT cik FROM statement_versions ORDER BY cik`).map((r) => r.cik);
  for (const r of await svc.sql<{ cik: string; company_id: string }[]>`SELECT cik, company_id FROM companies`) ids.set(r.cik, r.company_id);
  const big = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: universe, as_of_date: AS_OF });
  assert.equal(big.reply.status, 200, big.reply.text);
  const small = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: [APPLE, MICROSOFT], as_of_date: SMALL_AS_OF });
  assert.equal(small.reply.status, 200, small.reply.text);
});
after(async () => {
  await worker?.stop();
  await svc?.close();
});

describe('narratives on a built snapshot', () => {
  it('every number of every narrative of every company is printed by a claim of its sentence, and each claim is a figure the modeling routes serve', async () => {
    let numerals = 0;
    let traced = 0;
    for (const cik of universe) {
      const periods = await allRows(svc.baseUrl, svc.keys.growth, ids.get(cik)!, 'periods', AS_OF);
      const ratios = await allRows(svc.baseUrl, svc.keys.growth, ids.get(cik)!, 'ratios', AS_OF);
      const statement = (type: string, p: { fiscal_year: number; fiscal_period: string }) =>
        periods.find((r) => r.statement_type === type && r.fiscal_year === p.fiscal_year && r.fiscal_period === p.fiscal_period);
      for (const type of NARRATIVE_TYPES) {
        for (const st of TYPES) {
          for (const n of await narratives(cik, type, st)) {
            assert.deepEqual(groundingViolations(n.sentences, n.claims), []);
            numerals += n.sentences.flatMap((s: any) => numeralsIn(s.text)).length;
            for (const c of n.claims) {
              for (const p of c.measure === 'EFFECT' ? [] : [c.from, c.to]) {
                const row = statement(st, p);
                assert.ok(row, `${cik} ${st} ${p.fiscal_year} ${p.fiscal_period} is served`);
                assert.ok(c.statement_version_ids.includes(row.statement_version_id));
                if (c.unit === 'currency') assert.equal(p.value, row.statement[c.metric], `${c.metric}`);
                else if (c.measure === 'SHARE_OF_REVENUE') {
                  assert.ok(new Decimal(row.statement[c.metric]).dividedBy(row.statement.REVENUE).minus(p.value).abs().lte('1e-12'));
                } else if (c.metric !== 'INVESTED_CAPITAL_TURNOVER' && c.metric !== 'EFFECTIVE_TAX_RATE') {
                  const served = ratios.find((r) => r.statement_type === 'INCOME_STATEMENT' && r.fiscal_year === p.fiscal_year && r.fiscal_period === p.fiscal_period);
                  assert.ok(new Decimal(served.metrics[c.metric]).equals(p.value), `${c.metric} ${p.fiscal_year} ${p.fiscal_period}: ${served.metrics[c.metric]} vs ${p.value}`);
                }
                traced++;
              }
            }
          }
        }
      }
    }
    assert.ok(numerals > 20000, `numerals: ${numerals}`);
    assert.ok(traced > 20000, `claims traced: ${traced}`);
  });

  it('are exactly the generation over the snapshot rows as stored, and byte for byte the same in another build of the same figures', async () => {
    const [big, small] = await svc.sql<{ as_of_snapshot_id: string }[]>`SELECT as_of_snapshot_id FROM modeling_snapshots ORDER BY cardinality(ciks) DESC`;
    const rows = await svc.sql<SnapshotFigure[]>`
      SELECT r.statement_type, r.metric_name, r.metric_value::text, r.statement_date, v.period_start, r.fiscal_year, r.fiscal_period, r.statement_version_id
      FROM modeling_snapshot_rows r JOIN statement_versions v USING (statement_version_id)
      WHERE r.as_of_snapshot_id = ${big!.as_of_snapshot_id} AND r.cik = ${APPLE} ORDER BY r.ord`;
    const view = new CompanyView(rows);
    const stored = await svc.sql<{ body: unknown }[]>`
      SELECT body FROM ai_narratives WHERE as_of_snapshot_id = ${big!.as_of_snapshot_id} AND cik = ${APPLE} AND narrative_type = 'MARGINS_MOVE' AND statement_type = 'INCOME_STATEMENT' ORDER BY ord`;
    const generated = generateNarratives(APPLE, view, 'MARGINS_MOVE', 'INCOME_STATEMENT');
    assert.ok(generated.length > 40);
    assert.deepEqual(stored.map((s) => s.body), generated);
    // the small snapshot is another build; periods filed by both dates are narrated identically
    const same = await svc.sql<{ n: number; differ: number }[]>`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE a.body::text <> b.body::text)::int AS differ
      FROM ai_narratives a JOIN ai_narratives b USING (cik, narrative_type, statement_type, narrative_id)
      WHERE a.as_of_snapshot_id = ${big!.as_of_snapshot_id} AND b.as_of_snapshot_id = ${small!.as_of_snapshot_id} AND a.cik = ${APPLE}`;
    assert.ok(same[0]!.n > 100, `shared narratives: ${same[0]!.n}`);
    assert.equal(same[0]!.differ, 0);
  });

  it('answer an empty page for a company the snapshot of that date did not include, and 404 for a date with no snapshot', async () => {
    const r = await api(`/v1/ai/companies/${ids.get(HOME_DEPOT)}/narratives?as_of=${SMALL_AS_OF}&narrative_type=CHANGE_SUMMARY`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.total, r.body.items.length], [0, 0]);
    const none = await api(`/v1/ai/companies/${ids.get(APPLE)}/narratives?as_of=2020-01-01&narrative_type=CHANGE_SUMMARY`);
    assert.equal(none.status, 404);
    assert.equal(none.body.error.code, 'NOT_FOUND');
    const cik = await api(`/v1/ai/companies/${APPLE}/narratives?as_of=${AS_OF}&narrative_type=CHANGE_SUMMARY`);
    assert.equal(cik.status, 400);
    const missingType = await api(`/v1/ai/companies/${ids.get(APPLE)}/narratives?as_of=${AS_OF}`);
    assert.equal(missingType.status, 400);
  });

  it('default to income statements', async () => {
    const r = await api(`/v1/ai/companies/${ids.get(APPLE)}/narratives?as_of=${AS_OF}&narrative_type=ROIC_CHANGE&page_size=1`);
    assert.equal(r.body.items[0].statement_type, 'INCOME_STATEMENT');
    assert.match(r.body.items[0].text, /^Return on invested capital (rose|fell|held) from/);
  });
});

describe('anomaly explanations on a built snapshot', () => {
  it("explain SunAtion's FY2021 net change in cash: the exchange-rate effect carried beside it left out of the re-told total", async () => {
    const r = await api(`/v1/ai/companies/${ids.get(SUNATION)}/anomaly-explanations?as_of=${AS_OF}&page_size=200`);
    assert.equal(r.status, 200, r.text);
    const x = r.body.items.find((i: any) => i.rule === 'CF_NET_CHANGE_IN_CASH' && i.fiscal_year === 2021 && i.fiscal_period === 'FY');
    assert.equal(x.likely_cause, 'UNREPORTED_COMPONENT');
    assert.deepEqual([x.amount.actual_value, x.amount.expected_value, x.amount.delta], ['18966.000000', '73352.000000', '-54386.000000']);
    assert.equal(x.evidence[0].metric, 'EFFECT_OF_EXCHANGE_RATE_ON_CASH');
    assert.equal(x.generator_id, 'fds-rule-explanations');
  });

  it('keep severities at or above min_severity, and one run\'s findings with dq_run_id', async () => {
    const all = await api(`/v1/ai/companies/${ids.get(SUNATION)}/anomaly-explanations?as_of=${AS_OF}&page_size=200`);
    const high = await api(`/v1/ai/companies/${ids.get(SUNATION)}/anomaly-explanations?as_of=${AS_OF}&min_severity=HIGH&page_size=200`);
    assert.ok(high.body.total > 0 && high.body.total < all.body.total);
    assert.ok(high.body.items.every((i: any) => ['HIGH', 'CRITICAL'].includes(i.severity)));
    const [run] = await svc.sql<{ dq_run_id: string; n: number }[]>`SELECT dq_run_id, count(*)::int AS n FROM dq_issues WHERE cik = ${SUNATION} GROUP BY dq_run_id`;
    const byRun = await api(`/v1/ai/companies/${ids.get(SUNATION)}/anomaly-explanations?as_of=${AS_OF}&dq_run_id=${run!.dq_run_id}&page_size=200`);
    assert.ok(byRun.body.items.every((i: any) => i.sources.some((s: any) => s.kind === 'DATA_QUALITY' && s.dq_run_id === run!.dq_run_id)));
    assert.ok(byRun.body.total <= run!.n);
  });
});

describe('peers and embedding metadata', () => {
  it('peers never include the company, come most similar first, and are the same on a second read', async () => {
    const url = `/v1/ai/companies/${ids.get(APPLE)}/peers?as_of=${AS_OF}&page_size=200`;
    const a = await api(url);
    assert.equal(a.status, 200, a.text);
    assert.ok(a.body.total >= universe.length - 3, `peers: ${a.body.total}`);
    assert.ok(a.body.items.every((p: any) => p.cik !== APPLE && p.drivers.length > 0));
    const sims = a.body.items.map((p: any) => new Decimal(p.similarity));
    for (let i = 1; i < sims.length; i++) assert.ok(sims[i - 1].gte(sims[i]));
    assert.deepEqual((await api(url)).body, a.body);
    const sic = await api(`/v1/ai/companies/${ids.get(APPLE)}/peers?as_of=${AS_OF}&sic=36`);
    assert.ok(sic.body.items.length > 0 && sic.body.items.every((p: any) => p.sic.startsWith('36')), sic.text);
  });

  it('embedding metadata names the model, its 18 features with center and spread, and the vector of the company', async () => {
    const r = await api(`/v1/ai/companies/${ids.get(APPLE)}/embedding-metadata?as_of=${AS_OF}`);
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.deepEqual([d.model_id, d.model_version, d.dimensions, d.features.length, d.vector.length], ['fds-financial-profile', '1', 18, 18, 18]);
    assert.equal(d.cik, APPLE);
    assert.ok(d.statement_version_ids.length >= 3);
    const outside = await api(`/v1/ai/companies/${ids.get(HOME_DEPOT)}/embedding-metadata?as_of=${SMALL_AS_OF}`);
    assert.deepEqual(outside.body, { data: null });
  });
});

describe('plan gates on both surfaces', () => {
  const narrativeArgs = () => ({ company_id: ids.get(APPLE), as_of: AS_OF, narrative_type: 'CHANGE_SUMMARY', page_size: 50 });
  const scaleTools = () => [
    ['ai_anomalies_explanations', `/v1/ai/companies/${ids.get(APPLE)}/anomaly-explanations?as_of=${AS_OF}`, { company_id: ids.get(APPLE), as_of: AS_OF, page_size: 50 }],
    ['ai_peers', `/v1/ai/companies/${ids.get(APPLE)}/peers?as_of=${AS_OF}`, { company_id: ids.get(APPLE), as_of: AS_OF, page_size: 50 }],
    ['ai_embeddings_metadata', `/v1/ai/companies/${ids.get(APPLE)}/embedding-metadata?as_of=${AS_OF}`, { company_id: ids.get(APPLE), as_of: AS_OF }],
  ] as const;

  async function refused(key: string, name: string, path: string, args: Record<string, unknown>, plan: string) {
    const http = await api(path, key);
    assert.equal(http.status, 403, `${name}: ${http.text}`);
    assert.equal(http.body.error.code, 'FEATURE_NOT_AVAILABLE');
    assert.equal(http.body.error.details.required_plan, plan);
    const tool = await rpc(key, name, args);
    assert.equal(tool.body.result.isError, true, name);
    const failure = JSON.parse(tool.body.result.content[0].text);
    assert.deepEqual([failure.http_status, failure.http_code], [403, 'FEATURE_NOT_AVAILABLE']);
  }

  it('narratives: Free refused, Growth served the same on HTTP and tools/call', async () => {
    await refused(svc.keys.free, 'ai_narratives', `/v1/ai/companies/${ids.get(APPLE)}/narratives?as_of=${AS_OF}&narrative_type=CHANGE_SUMMARY`, narrativeArgs(), 'growth');
    const http = await api(`/v1/ai/companies/${ids.get(APPLE)}/narratives?as_of=${AS_OF}&narrative_type=CHANGE_SUMMARY`, svc.keys.growth);
    const tool = await rpc(svc.keys.growth, 'ai_narratives', narrativeArgs());
    assert.equal(tool.body.result.isError, false, tool.text);
    assert.deepEqual(tool.body.result.structuredContent, http.body);
  });

  it('explanations, peers and embeddings: Growth refused, Scale and Enterprise served on both surfaces', async () => {
    for (const [name, path, args] of scaleTools()) {
      await refused(svc.keys.growth, name, path, args, 'scale');
      for (const key of [svc.keys.scale, svc.keys.enterprise]) {
        const http = await api(path, key);
        assert.equal(http.status, 200, `${name}: ${http.text}`);
        const tool = await rpc(key, name, args);
        assert.equal(tool.body.result.isError, false, tool.text);
        assert.deepEqual(tool.body.result.structuredContent, http.body);
      }
    }
  });
});
