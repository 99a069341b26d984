import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCorpus, measureAlerts, type Corpus } from './helpers/fidelity-measures.ts';
import { markedBy, measureFirstOrLatest, measureQuarterCoherence } from './helpers/coherence-measures.ts';
import { get } from './helpers/http.ts';
import { allRows, buildSnapshot } from './helpers/modeling.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * Coherent series on the whole ../shared/sec corpus as ingested: derived quarters from one line and
 * one basis, quarters against their year marked on every read, reported lines before our
 * arithmetic, re-tags of a line, share counts a thousandfold apart, and split-adjusted per-share
 * reads, each case checked against the filers' own facts. The measures before these rules (the
 * base of this work) are in docs/series-coherence.md.
 */
const SUNEDISON = '0000945436';
const HERC = '0001364479';
const WALMART = '0000104169';
const HOME_DEPOT = '0000354950';
const NIKE = '0000320187';
const KRAFT_HEINZ = '0001637459';
const MICROSOFT = '0000789019';
const NIKOLA = '0001731289';
const NVIDIA = '0001045810';

let svc: TestService;
let corpus: Corpus;
before(async () => {
  svc = await startTestService();
  corpus = await loadCorpus(svc.sql);
});
after(async () => {
  await svc?.close();
});

async function ok(path: string) {
  const r = await get(`${svc.baseUrl}${path}`, svc.keys.enterprise);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function versions(cik: string, type: string, fy: number, fp: string) {
  return svc.sql<{ version_sequence: number; accession: string; figures: Record<string, any>; unavailable_figures: any[] | null }[]>`
    SELECT version_sequence, accession, figures, unavailable_figures FROM statement_versions
    WHERE cik = ${cik} AND statement_type = ${type} AND fiscal_year = ${fy} AND fiscal_period = ${fp} ORDER BY version_sequence`;
}
const served = async (cik: string, type: string, fy: number, fp: string, metric: string) => (await versions(cik, type, fy, fp)).at(-1)!.figures[metric];
const revisionsOf = (cik: string, type: string, fy: number, fp: string, metric: string) => svc.sql<{ old_value: string; new_value: string }[]>`
  SELECT r.old_value::text, r.new_value::text FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
  WHERE v.cik = ${cik} AND v.statement_type = ${type} AND v.fiscal_year = ${fy} AND v.fiscal_period = ${fp} AND r.metric = ${metric} ORDER BY v.version_sequence`;

describe('quarters against their year (whole corpus)', () => {
  it('serves no derived fourth quarter off the year served, and no derivation netting two lines', () => {
    const m = measureQuarterCoherence(corpus, markedBy(corpus));
    assert.deepEqual(m.derived_off_served_year, [], '446 on the base corpus');
    assert.deepEqual(m.derived_two_lines, []);
  });

  it('marks every other quarters-against-year difference beyond 0.1% with its reason on the reads', () => {
    const m = measureQuarterCoherence(corpus, markedBy(corpus));
    assert.deepEqual(m.unmarked_over_tenth_percent, [], '462 unmarked on the base corpus');
    assert.ok(m.mismatched <= 203, `quarters missing their year beyond rounding: ${m.mismatched} (508 on the base corpus)`);
    assert.ok(m.over_one_percent <= 134, `beyond 1%: ${m.over_one_percent} (376 on the base corpus)`);
    assert.deepEqual(Object.keys(m.reasons).sort(), ['FILER_INCONSISTENT', 'QUARTERS_RESTATED_YEAR_NOT', 'YEAR_RESTATED_QUARTERS_NOT']);
  });

  it('serves no value that is neither the first a filer reported nor its latest', () => {
    assert.deepEqual(measureFirstOrLatest(corpus).neither, [], '5 on the base corpus');
  });

  it('records no restatement alert made of artifacts', async () => {
    const m = await measureAlerts(svc.sql, corpus);
    assert.equal(m.false_alerts, 0, m.false_examples.join('\n'));
    assert.ok(m.alerts <= 1321, `alerts: ${m.alerts} (1,348 on the base corpus)`);
  });
});

describe('derived quarters from one line and one basis', () => {
  it("SunEdison's fourth quarters of 2011 and 2010 net the corrected year's line: 717.8M and 850.1M, adding up to the years served", async () => {
    const q4 = await served(SUNEDISON, 'INCOME_STATEMENT', 2011, 'Q4', 'REVENUE');
    assert.equal(q4.value, '717800000');
    assert.deepEqual(q4.calculation_steps.map((s: any) => [s.value, s.source_xbrl_concept]), [['2715500000', 'us-gaap:SalesRevenueNet'], ['1997700000', 'us-gaap:SalesRevenueNet']]);
    assert.equal((await served(SUNEDISON, 'INCOME_STATEMENT', 2010, 'Q4', 'REVENUE')).value, '850100000');
    assert.equal((await revisionsOf(SUNEDISON, 'INCOME_STATEMENT', 2010, 'Q4', 'REVENUE')).length, 0, 'no false revision to 607.3M');
  });

  it("Herc's Q3 2010 operating cash flow is one line re-tagged (its 10-K of 2012 tells the year alike under both tags), and its quarters add up to the year", async () => {
    const q3 = await served(HERC, 'CASH_FLOW_STATEMENT', 2010, 'Q3', 'OPERATING_CASH_FLOW');
    assert.equal(q3.value, '713332000');
    const quarters = await Promise.all(['Q1', 'Q2', 'Q3', 'Q4'].map((q) => served(HERC, 'CASH_FLOW_STATEMENT', 2010, q, 'OPERATING_CASH_FLOW')));
    assert.equal(quarters.reduce((s, f) => s + BigInt(f.value), 0n), 2208679000n);
  });

  it("Walmart's fiscal 2011 fourth quarter is total revenues, 116,360M (the year less its nine months), not the 115,600M of net sales its quarterly table tells", async () => {
    const q4 = await served(WALMART, 'INCOME_STATEMENT', 2011, 'Q4', 'REVENUE');
    assert.deepEqual([q4.value, q4.value_origin], ['116360000000', 'DERIVED']);
    assert.deepEqual(q4.calculation_steps.map((s: any) => s.source_xbrl_concept), ['us-gaap:Revenues', 'us-gaap:Revenues']);
  });

  it("Home Depot's fiscal 2018 fourth-quarter operating cash flow (3,002M from the 13,038M first told) is withdrawn by the 10-K that re-told the year as 13,165M, and the read says why", async () => {
    const q4 = await versions(HOME_DEPOT, 'CASH_FLOW_STATEMENT', 2018, 'Q4');
    assert.equal(q4[0]!.figures.OPERATING_CASH_FLOW.value, '3002000000', 'as first derived (as_reported and as-of reads keep it)');
    assert.equal(q4.at(-1)!.figures.OPERATING_CASH_FLOW, undefined);
    const { data } = await ok(`/v1/fundamentals/normalized-statements?cik=${HOME_DEPOT}&statement_type=CASH_FLOW_STATEMENT&fiscal_year=2018&fiscal_period=Q4&metrics=OPERATING_CASH_FLOW`);
    const u = data.normalized_payload._meta.unavailable_metrics.find((x: any) => x.metric === 'OPERATING_CASH_FLOW');
    assert.deepEqual([u.reason, u.withdrawn_value, u.source_accession], ['YEAR_RETOLD_WITHOUT_NINE_MONTHS', '3002000000.000000', '0000354950-21-000089']);
    assert.deepEqual(u.calculation_steps.map((s: any) => s.value), ['13165000000.000000', '10036000000.000000']);
    const asOf = await ok(`/v1/fundamentals/normalized-statements?cik=${HOME_DEPOT}&statement_type=CASH_FLOW_STATEMENT&fiscal_year=2018&fiscal_period=Q4&metrics=OPERATING_CASH_FLOW&as_of_date=2020-12-31`);
    assert.equal(asOf.data.normalized_payload.facts[0].value, '3002000000.000000', 'known until the re-telling');
  });

  it("Nike's fiscal 2012 fourth-quarter income tax is 176M from its 10-K of 2013's restated pair, then withdrawn when its 10-K of 2014 re-told the year alone", async () => {
    const q4 = await versions(NIKE, 'INCOME_STATEMENT', 2012, 'Q4');
    assert.deepEqual(q4.map((v) => v.figures.INCOME_TAX_EXPENSE?.value), ['194000000', '176000000', undefined]);
    assert.equal(q4.at(-1)!.unavailable_figures!.find((u) => u.metric === 'INCOME_TAX_EXPENSE').reason, 'YEAR_RETOLD_WITHOUT_NINE_MONTHS');
  });

  it("Kraft Heinz's 2017 fourth-quarter operating cash flow is its restating 10-K's own year less its own nine months (501M - 15M), and its third quarter stands within the inputs' rounding", async () => {
    const q4 = await served(KRAFT_HEINZ, 'CASH_FLOW_STATEMENT', 2017, 'Q4', 'OPERATING_CASH_FLOW');
    assert.equal(q4.value, '486000000');
    assert.deepEqual(q4.calculation_steps.map((s: any) => [s.value, s.source_accession]), [['501000000', '0001637459-19-000049'], ['15000000', '0001637459-19-000049']]);
    assert.equal((await served(KRAFT_HEINZ, 'CASH_FLOW_STATEMENT', 2017, 'Q3', 'OPERATING_CASH_FLOW')).value, '194000000', '16M - (-178M); the 10-K gives 193M, the same figure at a million');
  });
});

describe('restatements through tag changes, reported lines and scale slips', () => {
  it("Kraft Heinz's Q2 2017 cost of revenue is the 4,227M its restating 10-K told under the tag that replaced CostOfGoodsSold, a revision naming both tags", async () => {
    assert.equal((await served(KRAFT_HEINZ, 'INCOME_STATEMENT', 2017, 'Q2', 'COST_OF_REVENUE')).value, '4227000000');
    assert.deepEqual((await revisionsOf(KRAFT_HEINZ, 'INCOME_STATEMENT', 2017, 'Q2', 'COST_OF_REVENUE')).map((r) => r.new_value), ['4204000000', '4227000000']);
  });

  it("Nikola's Q1 2023 revenue is the 10,677,000 its later filings re-told (gross profit and cost of revenue both re-told; its six months' revenue tag less Q2 gives the same); its Q3 2023 revenue is its own negative total, with a finding", async () => {
    const q1 = await versions(NIKOLA, 'INCOME_STATEMENT', 2023, 'Q1');
    assert.deepEqual(q1.map((v) => v.figures.REVENUE.value), ['11117000', '10677000']);
    assert.deepEqual(q1.at(-1)!.figures.REVENUE.calculation_steps.map((s: any) => s.metric), ['GROSS_PROFIT', 'COST_OF_REVENUE']);
    const q3 = await served(NIKOLA, 'INCOME_STATEMENT', 2023, 'Q3', 'REVENUE');
    assert.deepEqual([q3.value, q3.mapping_type], ['-1732000', 'DERIVED_IDENTITY']);
    const [finding] = await svc.sql<{ message: string }[]>`
      SELECT message FROM dq_issues WHERE cik = ${NIKOLA} AND rule_code = 'DQ_NEGATIVE_VALUE' AND fiscal_year = 2023 AND fiscal_period = 'Q3' AND metric = 'REVENUE' LIMIT 1`;
    assert.match(finding!.message, /gross profit plus its cost of revenue/);
  });

  it("NVIDIA's fiscal 2010 weighted shares are the 549,574,000 its 10-K of 2012 told, not the 549,574 thousands its earlier 10-Ks tagged as units: no revision, a finding that the later value was served", async () => {
    assert.equal((await served(NVIDIA, 'INCOME_STATEMENT', 2010, 'FY', 'WEIGHTED_AVERAGE_SHARES_DILUTED')).value, '549574000');
    assert.equal((await revisionsOf(NVIDIA, 'INCOME_STATEMENT', 2010, 'FY', 'WEIGHTED_AVERAGE_SHARES_DILUTED')).length, 0);
    const [finding] = await svc.sql<{ evidence: any }[]>`
      SELECT evidence FROM dq_issues WHERE cik = ${NVIDIA} AND rule_code = 'DQ_SCALE_SLIP_FILED' AND fiscal_year = 2010 AND fiscal_period = 'FY' AND metric = 'WEIGHTED_AVERAGE_SHARES_DILUTED' ORDER BY version_sequence DESC LIMIT 1`;
    assert.equal(finding!.evidence.served, 'filed');
  });
});

describe('reads mark quarters that do not add up to their year', () => {
  const REASON = 'YEAR_RESTATED_QUARTERS_NOT';

  it("Microsoft's fiscal 2016 revenue: its statements, its time series, the panel and its financial state say the year (91,154M, restated for ASC 606) and the quarters (85,320M as first told) are on two bases", async () => {
    const { data } = await ok(`/v1/fundamentals/normalized-statements?cik=${MICROSOFT}&statement_type=INCOME_STATEMENT&fiscal_year=2016&fiscal_period=Q2&metrics=REVENUE`);
    const c = data.normalized_payload.facts[0].coherence;
    assert.deepEqual([c.reason, c.served_year, c.quarters_sum, c.difference], [REASON, '91154000000.000000', '85320000000.000000', '-5834000000.000000']);
    const series = await ok(`/v1/edgar/companies/${MICROSOFT}/metrics/REVENUE/time-series?fiscal_year_from=2016&fiscal_year_to=2016`);
    assert.equal(series.items.length, 5);
    assert.ok(series.items.every((p: any) => p.coherence?.reason === REASON), 'every quarter and the year');
    const panel = await ok(`/v1/fundamentals/time-series?ciks=${MICROSOFT}&statement_type=INCOME_STATEMENT&frequency=quarterly&metrics=REVENUE&from=2015-07-01&to=2016-06-30`);
    assert.ok(panel.items.length === 4 && panel.items.every((p: any) => p.coherence.REVENUE.reason === REASON));
    const state = await ok(`/v1/edgar/companies/${MICROSOFT}/financial-state/time-series?fiscal_year_from=2016&fiscal_year_to=2016&period_type=quarterly`);
    assert.ok(state.items.every((p: any) => p.coherence.REVENUE.reason === REASON));
  });

  it('marks nothing where the quarters add up: the mark is null on a money flow, absent on other metrics', async () => {
    const series = await ok(`/v1/edgar/companies/0000320193/metrics/REVENUE/time-series?fiscal_year_from=2023&fiscal_year_to=2023`);
    assert.ok(series.items.length === 5 && series.items.every((p: any) => p.coherence === null));
    const eps = await ok(`/v1/edgar/companies/0000320193/metrics/EPS_DILUTED/time-series?fiscal_year_from=2023&fiscal_year_to=2023`);
    assert.ok(eps.items.every((p: any) => !('coherence' in p)));
    const { data } = await ok(`/v1/fundamentals/normalized-statements?cik=0000320193&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=Q2&metrics=REVENUE&compact=false`);
    assert.equal(data.normalized_payload.facts[0].coherence, null);
  });
});

describe('split-adjusted reads', () => {
  it("restate NVIDIA's diluted EPS to the latest split basis: fiscal 2022's 3.85 (filed before the 10-for-1 of 2024) is 0.385, next to fiscal 2023's 0.17 the later 10-K already told", async () => {
    const asFiled = await ok(`/v1/edgar/companies/${NVIDIA}/metrics/EPS_DILUTED/time-series?period_type=annual&fiscal_year_from=2022&fiscal_year_to=2023`);
    assert.deepEqual(asFiled.items.map((p: any) => p.value), ['3.850000', '0.170000'], 'as filed by default: two share bases');
    const adjusted = await ok(`/v1/edgar/companies/${NVIDIA}/metrics/EPS_DILUTED/time-series?period_type=annual&fiscal_year_from=2022&fiscal_year_to=2023&split_adjusted=true`);
    assert.deepEqual(adjusted.items.map((p: any) => p.value), ['0.385000', '0.170000']);
    const a = adjusted.items[0].split_adjustment;
    assert.deepEqual([a.as_filed_value, a.factor, a.operation, a.rounded], ['3.850000', '10/1', 'DIVIDED', false]);
    assert.deepEqual(a.splits.map((s: any) => [s.split_date, s.numerator, s.denominator]), [['2024-06-30', 10, 1]], 'told for May and for June: one split');
    assert.equal(adjusted.items[1].split_adjustment, undefined, 'already on the latest basis');
  });

  it("multiply share counts, and apply only the splits knowable at as_of_date: NVIDIA's fiscal 2019 EPS of 6.63, filed before both its splits", async () => {
    const shares = await ok(`/v1/edgar/companies/${NVIDIA}/metrics/WEIGHTED_AVERAGE_SHARES_DILUTED/time-series?period_type=annual&fiscal_year_from=2020&fiscal_year_to=2020&split_adjusted=true`);
    const s = shares.items.at(-1);
    assert.equal(s.split_adjustment.operation, 'MULTIPLIED');
    assert.equal(BigInt(s.value.split('.')[0]), BigInt(s.split_adjustment.as_filed_value.split('.')[0]) * BigInt(s.split_adjustment.factor.split('/')[0]));
    const all = await ok(`/v1/edgar/companies/${NVIDIA}/metrics/EPS_DILUTED/time-series?period_type=annual&fiscal_year_from=2019&fiscal_year_to=2019&split_adjusted=true`);
    assert.deepEqual([all.items[0].value, all.items[0].split_adjustment.factor], ['0.165750', '40/1']);
    const early = await ok(`/v1/edgar/companies/${NVIDIA}/metrics/EPS_DILUTED/time-series?period_type=annual&fiscal_year_from=2019&fiscal_year_to=2019&split_adjusted=true&as_of_date=2023-06-30`);
    assert.deepEqual([early.items[0].value, early.items[0].split_adjustment.factor], ['1.657500', '4/1'], 'the 2024 split was not yet told');
  });

  it('restate the statement read, the panel and say nothing for money', async () => {
    const { data } = await ok(`/v1/fundamentals/normalized-statements?cik=${NVIDIA}&statement_type=INCOME_STATEMENT&fiscal_year=2022&fiscal_period=FY&metrics=EPS_DILUTED&metrics=NET_INCOME&split_adjusted=true`);
    const eps = data.normalized_payload.facts.find((f: any) => f.metric === 'EPS_DILUTED');
    const ni = data.normalized_payload.facts.find((f: any) => f.metric === 'NET_INCOME');
    assert.deepEqual([eps.value, eps.split_adjustment.factor], ['0.385000', '10/1']);
    assert.equal(ni.split_adjustment, undefined);
    const panel = await ok(`/v1/fundamentals/time-series?ciks=${NVIDIA}&statement_type=INCOME_STATEMENT&metrics=EPS_DILUTED&from=2021-01-01&to=2022-12-31&split_adjusted=true`);
    assert.equal(panel.items.at(-1).metrics.EPS_DILUTED, '0.385000');
    assert.equal(panel.items.at(-1).split_adjustments.EPS_DILUTED.factor, '10/1');
  });
});

describe('modeling rows', () => {
  it("mark Microsoft's fiscal 2016 quarter rows and the TTM windows over them, and restate NVIDIA's period and multi-year rows with split_adjusted=true", async () => {
    const AS_OF = '2025-06-30';
    const built = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: [MICROSOFT, NVIDIA], as_of_date: AS_OF });
    assert.equal(built.reply.status, 200, built.reply.text);
    const [msft] = await svc.sql<{ company_id: string }[]>`SELECT company_id FROM companies WHERE cik = ${MICROSOFT}`;
    const [nvda] = await svc.sql<{ company_id: string }[]>`SELECT company_id FROM companies WHERE cik = ${NVIDIA}`;
    const periods = await allRows(svc.baseUrl, svc.keys.growth, msft!.company_id, 'periods', AS_OF);
    const q2 = periods.find((r) => r.statement_type === 'INCOME_STATEMENT' && r.fiscal_year === 2016 && r.fiscal_period === 'Q2');
    assert.equal(q2.coherence.REVENUE.reason, 'YEAR_RESTATED_QUARTERS_NOT');
    const q2of2023 = periods.find((r) => r.statement_type === 'INCOME_STATEMENT' && r.fiscal_year === 2023 && r.fiscal_period === 'Q2');
    assert.equal(q2of2023.coherence?.REVENUE, undefined, 'quarters that add up: no mark');
    const ttm = await allRows(svc.baseUrl, svc.keys.growth, msft!.company_id, 'ttm', AS_OF);
    const window2016 = ttm.find((r) => r.fiscal_year === 2016 && r.fiscal_period === 'Q4');
    assert.ok(window2016?.coherence?.REVENUE?.some((c: any) => c.fiscal_year === 2016 && c.reason === 'YEAR_RESTATED_QUARTERS_NOT'));
    const adjusted = await get(`${svc.baseUrl}/v1/modeling/companies/${nvda!.company_id}/periods?as_of=${AS_OF}&split_adjusted=true&page_size=200`, svc.keys.growth);
    const fy2022 = adjusted.body.items.find((r: any) => r.statement_type === 'INCOME_STATEMENT' && r.fiscal_year === 2022 && r.fiscal_period === 'FY');
    assert.deepEqual([fy2022.statement.EPS_DILUTED, fy2022.split_adjustments.EPS_DILUTED.factor], ['0.385000', '10/1']);
    const multi = await get(`${svc.baseUrl}/v1/modeling/companies/${nvda!.company_id}/multi-year?as_of=${AS_OF}&split_adjusted=true&page_size=200`, svc.keys.growth);
    const m2022 = multi.body.items.find((r: any) => r.fiscal_year === 2022);
    assert.ok(m2022.split_adjustments && Object.values(m2022.split_adjustments).every((a: any) => a.factor === '10/1'));
  });
});
