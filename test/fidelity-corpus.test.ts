import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { conceptIndex } from '../domain/catalog/index.ts';
import {
  loadCorpus,
  measureAlerts,
  measureDerivedOverReported,
  measureEquityComponentTotals,
  measureFrames,
  measureFsds,
  measureLineMoves,
  measureMisdatedYearToDate,
  measureNetChangeBeforeFx,
  measureNeverNegativeDerivations,
  measureQ4,
  measureResidualRevenue,
  measureRestatedQuarters,
  measureSplitRecasts,
  measureUntaggedSplits,
  measureWorkingCapitalSigns,
  measureYearToDateSigns,
  type Corpus,
} from './helpers/fidelity-measures.ts';
import { NON_NEGATIVE_METRICS } from '../domain/catalog/traits.ts';
import { NON_NEGATIVE_METRIC, TAX_IDENTITY, YEAR_TO_DATE_IDENTITY } from '../domain/statements/sign-slips.ts';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * The version rules proved on the whole ../shared/sec corpus as ingested, against the filers' own
 * facts (companyfacts) and SEC's Financial Statement Data Sets (2009q3). docs/statements.md states
 * the rules; docs/known-limitations.md the differences that remain.
 */
const MCDONALDS = '0000063908';
const WALMART = '0000104169';
const MIMEDX = '0001376339';
const HOME_DEPOT = '0000354950';
const NIKE = '0000320187';
const TEXAS_INSTRUMENTS = '0000097476';
const NIKOLA = '0001731289';
const SUNEDISON = '0000945436';
const APPLE = '0000320193';
const NVIDIA = '0001045810';
const HERC = '0001364479';
const HERTZ = '0001657853';
const UNDER_ARMOUR = '0001336917';
const DISNEY = '0001744489';

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
  return svc.sql<{ version_sequence: number; accession: string; filing_date: string; figures: Record<string, any> }[]>`
    SELECT version_sequence, accession, filing_date::text AS filing_date, figures FROM statement_versions
    WHERE cik = ${cik} AND statement_type = ${type} AND fiscal_year = ${fy} AND fiscal_period = ${fp} ORDER BY version_sequence`;
}

describe('restatement alerts only real restatements make (whole corpus)', () => {
  it('no alert whose revised figures are all precision, scale-slip or concept-flip artifacts, and no such revision at all', async () => {
    const m = await measureAlerts(svc.sql, corpus);
    assert.ok(m.alerts > 1000, `the corpus still has its real restatements: ${m.alerts}`);
    assert.equal(m.false_alerts, 0, m.false_examples.join('\n'));
    assert.equal(m.artifact_revisions, 0, 'no fact revision is a precision, scale or concept-flip artifact');
  });

  it("McDonald's FY2022 revenue re-told in millions (23,183M for 23,182.6M) is the same figure: no revision, the precise text kept", async () => {
    const list = await versions(MCDONALDS, 'INCOME_STATEMENT', 2022, 'FY');
    assert.ok(list.every((v) => v.figures.REVENUE.value === '23182600000'), JSON.stringify(list.map((v) => v.figures.REVENUE)));
    const [events] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM restatement_alert_events WHERE cik = ${MCDONALDS} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2022 AND fiscal_period = 'FY'`;
    assert.equal(events!.n, 0);
  });

  it("McDonald's diluted shares re-tagged as 741.3: a data-quality finding with both values and accessions, the previous value kept under an override", async () => {
    const [issue] = await svc.sql<{ evidence: any; message: string }[]>`
      SELECT evidence, message FROM dq_issues WHERE cik = ${MCDONALDS} AND rule_code = 'DQ_SCALE_SLIP_FILED'
        AND fiscal_year = 2022 AND fiscal_period = 'FY' AND metric = 'WEIGHTED_AVERAGE_SHARES_DILUTED'
      ORDER BY version_sequence DESC LIMIT 1`;
    assert.ok(issue, 'the slip is recorded');
    assert.deepEqual([issue.evidence.previous.value, issue.evidence.previous.accession], ['741300000', '0000063908-23-000012']);
    assert.deepEqual([issue.evidence.filed.value, issue.evidence.filed.accession], ['741.3', '0000063908-25-000012']);
    const list = await versions(MCDONALDS, 'INCOME_STATEMENT', 2022, 'FY');
    const latest = list.at(-1)!;
    assert.equal(latest.figures.WEIGHTED_AVERAGE_SHARES_DILUTED.value, '741300000');
    assert.equal(latest.figures.WEIGHTED_AVERAGE_SHARES_DILUTED.correction_rule, 'SCALE_SLIP_PREVIOUS_VALUE_KEPT');
    assert.equal(latest.figures.WEIGHTED_AVERAGE_SHARES_DILUTED.as_filed_value, '741.3');
    const trace = await ok(`/v1/edgar/companies/${MCDONALDS}/statements/overrides/trace?statement_type=INCOME_STATEMENT&fiscal_year=2022&fiscal_period=FY&version_sequence=${latest.version_sequence}`);
    const rule = trace.data.rules.find((r: any) => r.rule_id === 'SCALE_SLIP_PREVIOUS_VALUE_KEPT');
    assert.ok(rule, 'the override trace lists the kept value');
    assert.ok(rule.metrics.some((m: any) => m.metric === 'WEIGHTED_AVERAGE_SHARES_DILUTED' && m.as_filed_value === '741.300000'));
    const [version] = await svc.sql<{ statement_version_id: string }[]>`
      SELECT statement_version_id FROM statement_versions WHERE cik = ${MCDONALDS} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2022 AND fiscal_period = 'FY' AND version_sequence = ${latest.version_sequence}`;
    const p = await ok(`/v1/edgar/statements/${version!.statement_version_id}/metrics/WEIGHTED_AVERAGE_SHARES_DILUTED/provenance`);
    assert.equal(p.data.override_applied, true);
    assert.match(p.data.override_reason, /741\.3/);
  });

  it("a later value that fits the statement corrects an earlier slip: McDonald's FY2020 impairment, first tagged 26.3, is served as 26,300,000", async () => {
    const latest = (await versions(MCDONALDS, 'INCOME_STATEMENT', 2020, 'FY')).at(-1)!;
    assert.equal(latest.figures.ASSET_IMPAIRMENT_CHARGES.value, '26300000');
    const [issue] = await svc.sql<{ evidence: any }[]>`
      SELECT evidence FROM dq_issues WHERE cik = ${MCDONALDS} AND rule_code = 'DQ_SCALE_SLIP_FILED' AND fiscal_year = 2020 AND fiscal_period = 'FY' AND metric = 'ASSET_IMPAIRMENT_CHARGES'`;
    assert.deepEqual([issue!.evidence.previous.value, issue!.evidence.filed.value, issue!.evidence.served], ['26.3', '26300000', 'filed']);
  });

  it('every scale slip the corpus holds is a finding, never a revision', async () => {
    const [slips] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM dq_issues WHERE rule_code = 'DQ_SCALE_SLIP_FILED'`;
    assert.ok(slips!.n >= 10, `findings: ${slips!.n}`);
    const [revisions] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM fact_revisions WHERE old_value <> 0 AND new_value <> 0
        AND abs(new_value / old_value) IN (1000, 1000000, 0.001, 0.000001)`;
    assert.equal(revisions!.n, 0);
  });

  it("concept continuity: McDonald's FY2019 D&A stays 1,617.9M (DepreciationAndAmortization, still reported) although a narrower tag appeared later", async () => {
    const list = await versions(MCDONALDS, 'CASH_FLOW_STATEMENT', 2019, 'FY');
    for (const v of list) {
      assert.equal(v.figures.DEPRECIATION_AND_AMORTIZATION.value, '1617900000');
      assert.equal(v.figures.DEPRECIATION_AND_AMORTIZATION.source_xbrl_concept, 'us-gaap:DepreciationAndAmortization');
    }
  });

  it("concept continuity: no Walmart finance-lease figure goes to 0 while the filer kept reporting the old tag", async () => {
    const rows = await svc.sql<{ metric: string; old_value: string; new_value: string }[]>`
      SELECT r.metric, r.old_value::text, r.new_value::text FROM restatement_alert_events e JOIN fact_revisions r USING (statement_version_id)
      WHERE e.cik = ${WALMART} AND r.metric LIKE 'FINANCE_LEASE%' AND r.new_value = 0`;
    assert.equal(rows.length, 0, JSON.stringify(rows));
  });

  it('a period keeping its concept says so: selection_rule CONCEPT_CONTINUITY', async () => {
    const [row] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM statement_versions, jsonb_each(figures) f WHERE f.value ->> 'selection_rule' = 'CONCEPT_CONTINUITY'`;
    assert.ok(row!.n > 0);
  });
});

describe('quarters in annual reports (whole corpus)', () => {
  it('every quarterly figure an annual report restated is served restated (latest) and as first reported (version 1)', () => {
    const m = measureRestatedQuarters(corpus);
    assert.ok(m.checkable > 400, `quarters restated by 10-Ks and served from a 10-Q first: ${m.checkable}`);
    assert.equal(m.served_right, m.checkable, m.stale_examples.join('\n'));
  });

  it("MiMedx's 10-K of 2020-03-17 restates Q3 2017 net income to 44,051,000 and reports Q4 2017 (4,276,000) as SOURCE", async () => {
    const q3 = await versions(MIMEDX, 'INCOME_STATEMENT', 2017, 'Q3');
    assert.equal(q3[0]!.figures.NET_INCOME.value, '17457000');
    assert.equal(q3.at(-1)!.figures.NET_INCOME.value, '44051000');
    assert.equal(q3.at(-1)!.filing_date, '2020-03-17');
    const asReported = await ok(`/v1/edgar/companies/${MIMEDX}/metrics/NET_INCOME/time-series?period_type=quarterly&fiscal_year_from=2017&fiscal_year_to=2017&as_reported=true`);
    assert.equal(asReported.items.find((p: any) => p.fiscal_period === 'Q3').value, '17457000.000000');
    const latest = await ok(`/v1/edgar/companies/${MIMEDX}/metrics/NET_INCOME/time-series?period_type=quarterly&fiscal_year_from=2017&fiscal_year_to=2017`);
    const q4 = latest.items.find((p: any) => p.fiscal_period === 'Q4');
    assert.deepEqual([q4.value, q4.value_origin], ['4276000.000000', 'SOURCE']);
  });

  it('a Q4 the company reports beats the derived one: served Q4s agree with reported ones', () => {
    const m = measureQ4(corpus);
    assert.ok(m.compared >= 15, `company-reported Q4s compared: ${m.compared}`);
    // one difference left: Nikola's 2020 Q4 stock issuance, tagged on the cash flow under another sign
    assert.ok(m.compared - m.agree <= 1, m.differ_examples.join('\n'));
  });

  it('a derived Q4 becomes available once the nine months are known: SunEdison Q4 2014 net income', async () => {
    const list = await versions(SUNEDISON, 'INCOME_STATEMENT', 2014, 'Q4');
    const ni = list.at(-1)!.figures.NET_INCOME;
    assert.equal(ni.value, '-241400000', 'FY -1,180.4M minus nine months -939M');
    assert.equal(ni.mapping_type, 'DERIVED_Q4');
    assert.equal(list[0]!.figures.NET_INCOME, undefined, 'not there as first reported');
  });
});

describe('later figures add versions that revise nothing', () => {
  it("Home Depot's Q2 fiscal 2009 cash flow gets its activity totals once the Q1 figures are known, with no alert", async () => {
    const list = await versions(HOME_DEPOT, 'CASH_FLOW_STATEMENT', 2009, 'Q2');
    assert.ok(!('OPERATING_CASH_FLOW' in list[0]!.figures));
    const latest = list.at(-1)!;
    for (const m of ['OPERATING_CASH_FLOW', 'INVESTING_CASH_FLOW', 'FINANCING_CASH_FLOW']) assert.ok(m in latest.figures, m);
    const [events] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM restatement_alert_events WHERE cik = ${HOME_DEPOT} AND statement_type = 'CASH_FLOW_STATEMENT' AND fiscal_year = 2009 AND fiscal_period = 'Q2'`;
    assert.equal(events!.n, 0);
  });

  it("Texas Instruments' Q2 2009 net income from its 10-Q/A is served from the amendment's filing date", async () => {
    const before = await ok(`/v1/edgar/companies/${TEXAS_INSTRUMENTS}/metrics/NET_INCOME/time-series?period_type=quarterly&fiscal_year_from=2009&fiscal_year_to=2009&as_of_date=2009-12-31`);
    assert.equal(before.items.find((p: any) => p.fiscal_period === 'Q2'), undefined);
    const now = await ok(`/v1/edgar/companies/${TEXAS_INSTRUMENTS}/metrics/NET_INCOME/time-series?period_type=quarterly&fiscal_year_from=2009&fiscal_year_to=2009`);
    const q2 = now.items.find((p: any) => p.fiscal_period === 'Q2');
    assert.equal(q2.value, '260000000.000000');
    assert.equal(q2.filing_date, '2010-07-30', 'the 10-Q/A 0001140361-10-030855');
  });

  it('a stock split the filer tagged recasts per-share figures and share counts without an alert: every such recast of the corpus', async () => {
    const m = await measureSplitRecasts(svc.sql, corpus);
    const ratios = (cik: string) => (m.splits.get(cik) ?? []).map((s) => s.ratio);
    assert.deepEqual([...new Set(ratios(APPLE))].sort(), ['4', '7'], "Apple's 7-for-1 of 2014 and 4-for-1 of 2020");
    assert.deepEqual([...new Set(ratios(NVIDIA))].sort(), ['10', '4']);
    assert.ok(m.recasts >= 150, `the corpus holds the recasts of its splits: ${m.recasts}`);
    assert.deepEqual(m.recorded, [], 'no recast is a fact revision');
    assert.equal(m.split_only_alerts, 0);
  });

  it('a split nobody tagged, shown by a filing\'s own share counts and per-share figures, recasts without an alert: every such recast of the corpus', async () => {
    const m = await measureUntaggedSplits(svc.sql, corpus);
    assert.ok(m.version_pairs >= 40 && m.recasts >= 200, `pairs ${m.version_pairs}, recasts ${m.recasts}`);
    // left: SunAtion's reverse splits, whose share counts the company rounded up per holder (10,035,970 to
    // 13,298 is 1-for-754.7, not the 1-for-750 of its splits), so no whole ratio shows (docs/known-limitations.md)
    assert.deepEqual(m.recorded.filter((r) => !r.startsWith('0000022701|')), [], 'main before the rule recorded 40 of them as revisions (Under Armour)');
    assert.ok(m.recorded.length <= 6, m.recorded.join('; '));
  });

  it("Under Armour's 2-for-1 split of 2012, never tagged: its fiscal 2011 EPS and shares told again by the 10-K of 2013 are recasts for the split its 10-Q of 2012-08-06 showed", async () => {
    const [v1, v2] = await versions(UNDER_ARMOUR, 'INCOME_STATEMENT', 2011, 'FY');
    assert.deepEqual([v1!.figures.EPS_BASIC.value, v2!.figures.EPS_BASIC.value], ['1.88', '0.94']);
    const recasts = await svc.sql<{ metric: string; split_ratio: string; split_date: string; split_evidence: string }[]>`
      SELECT metric, split_ratio::text, split_date::text, split_evidence FROM split_recasts s JOIN statement_versions v USING (statement_version_id)
      WHERE v.cik = ${UNDER_ARMOUR} AND v.statement_type = 'INCOME_STATEMENT' AND v.fiscal_year = 2011 AND v.fiscal_period = 'FY' ORDER BY metric`;
    assert.deepEqual(recasts.map((r) => [r.metric, r.split_ratio, r.split_date, r.split_evidence]), [
      ['EPS_BASIC', '2', '2012-08-06', 'RESTATED_FIGURES'],
      ['EPS_DILUTED', '2', '2012-08-06', 'RESTATED_FIGURES'],
      ['WEIGHTED_AVERAGE_SHARES_BASIC', '2', '2012-08-06', 'RESTATED_FIGURES'],
      ['WEIGHTED_AVERAGE_SHARES_DILUTED', '2', '2012-08-06', 'RESTATED_FIGURES'],
    ]);
    const ledger = await ok(`/v1/edgar/statements/restatements/ledger?cik=${UNDER_ARMOUR}&statement_type=INCOME_STATEMENT&fiscal_year=2011&fiscal_period=FY`);
    assert.equal(ledger.data.entries[1].entry_type, 'STOCK_SPLIT_RECAST');
    assert.equal(ledger.data.entries[1].split_recasts[0].split_evidence, 'RESTATED_FIGURES');
  });

  it("Apple's FY2013 diluted EPS: 39.75 as first reported, 5.68 after the 7-for-1 split, and no alert for the recast", async () => {
    const list = await versions(APPLE, 'INCOME_STATEMENT', 2013, 'FY');
    assert.equal(list[0]!.figures.EPS_DILUTED.value, '39.75');
    assert.equal(list[list.length - 1]!.figures.EPS_DILUTED.value, '5.68');
    const recastBy = list.find((v) => v.figures.EPS_DILUTED.value === '5.68')!;
    const [revision] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      WHERE v.cik = ${APPLE} AND v.statement_type = 'INCOME_STATEMENT' AND v.fiscal_year = 2013 AND v.fiscal_period = 'FY'
        AND v.version_sequence = ${recastBy.version_sequence} AND r.metric LIKE 'EPS%'`;
    assert.equal(revision!.n, 0);
  });

  it('a net income re-tagged with the opposite sign never replaces the one its unchanged EPS agrees with (whole corpus)', async () => {
    // consecutive versions where net income flipped to the exact opposite while EPS stayed, nonzero,
    // with the earlier sign, and no preferred dividends came between (income available to common
    // absent or of net income's amount), or EPS is positive (then net income is too)
    const [row] = await svc.sql<{ n: number }[]>`
      WITH v AS (
        SELECT cik, fiscal_year, fiscal_period, version_sequence, (figures -> 'NET_INCOME' ->> 'value')::numeric AS ni,
          (figures -> 'EPS_BASIC' ->> 'value')::numeric AS eps, (figures -> 'NET_INCOME_AVAILABLE_TO_COMMON' ->> 'value')::numeric AS common
        FROM statement_versions WHERE statement_type = 'INCOME_STATEMENT')
      SELECT count(*)::int AS n FROM v a JOIN v b USING (cik, fiscal_year, fiscal_period)
      WHERE b.version_sequence = a.version_sequence + 1 AND a.ni <> 0 AND b.ni = -a.ni AND a.eps = b.eps AND a.eps <> 0
        AND sign(a.eps) = sign(a.ni) AND (b.common IS NULL OR abs(b.common) = abs(a.ni) OR b.eps > 0)`;
    assert.equal(row!.n, 0, 'main before the sign-slip rule served 9 such versions');
    const [findings] = await svc.sql<{ n: number; wrong: number }[]>`
      SELECT count(*)::int AS n,
        count(*) FILTER (WHERE sign((v.figures -> i.metric ->> 'value')::numeric) <> sign((v.figures -> (i.evidence ->> 'witness') ->> 'value')::numeric))::int AS wrong
      FROM dq_issues i JOIN statement_versions v ON v.statement_version_id = i.statement_version_id WHERE i.rule_code = 'DQ_SIGN_SLIP_FILED'`;
    assert.ok(findings!.n >= 8, `sign slips found: ${findings!.n}`);
    assert.equal(findings!.wrong, 0, 'every figure a sign slip decided is served with its witness sign');
  });

  it("SunEdison's Q1 2012 net loss of 98.6M stays a loss where a later 10-Q tagged it as income (EPS -0.43): no version, no alert, a finding", async () => {
    const list = await versions(SUNEDISON, 'INCOME_STATEMENT', 2012, 'Q1');
    // the 10-Qs of 2012-11-09 and 2013-11-12 tagged the quarter's loss as income: neither makes a version
    assert.deepEqual(list.map((v) => [v.accession, v.figures.NET_INCOME.value]), [
      ['0000945436-12-000047', '-92000000'],
      ['0000945436-13-000051', '-98600000'],
    ]);
    const served = await ok(`/v1/fundamentals/normalized-statements?cik=${SUNEDISON}&statement_type=INCOME_STATEMENT&fiscal_year=2012&fiscal_period=Q1`);
    assert.equal(served.data.normalized_payload.facts.find((f: any) => f.metric === 'EPS_BASIC').value, '-0.430000');
    assert.equal(served.data.normalized_payload.facts.find((f: any) => f.metric === 'NET_INCOME').value, '-98600000.000000');
    const findings = await svc.sql<{ version_sequence: number; evidence: any }[]>`
      SELECT version_sequence, evidence FROM dq_issues WHERE cik = ${SUNEDISON} AND rule_code = 'DQ_SIGN_SLIP_FILED' AND fiscal_year = 2012 AND fiscal_period = 'Q1' AND metric = 'NET_INCOME'
      ORDER BY version_sequence`;
    assert.deepEqual(findings.map((f) => [f.version_sequence, f.evidence.filed.accession, f.evidence.filed.value, f.evidence.served, f.evidence.witness]), [
      [1, '0000945436-12-000174', '92000000', 'previous', 'EPS_BASIC'],
      [2, '0000945436-13-000129', '98600000', 'previous', 'EPS_BASIC'],
    ]);
  });

  it('a working-capital line two filings told with opposite signs is served with the sign its balance sheet movement gives (whole corpus)', async () => {
    const m = measureWorkingCapitalSigns(corpus);
    assert.ok(m.flipped >= 20 && m.decidable >= 20, `flipped ${m.flipped}, decidable ${m.decidable}`);
    // one left, and not a sign slip of the figure on record: Herc's FY2017 accrued liabilities, 19.4M,
    // restated to 26.8M by the 10-K of 2019, then told as -19.4M by the 10-K of 2020 (the first value
    // negated, against the restated one): a revision of 26.8M (docs/known-limitations.md)
    assert.deepEqual(m.served_against_balance, ['0001364479 2017 FY CHANGE_IN_ACCRUED_LIABILITIES -19400000 (ACCRUED_LIABILITIES 88200000 -> 113300000)'], 'main before the balance witness served SunEdison Q1 2012 receivables against it too');
    const [findings] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM dq_issues WHERE rule_code = 'DQ_SIGN_SLIP_FILED' AND statement_type = 'CASH_FLOW_STATEMENT' AND evidence ->> 'witness' IN ('ACCOUNTS_RECEIVABLE', 'INVENTORY', 'PREPAID_EXPENSES_AND_OTHER_CURRENT_ASSETS', 'ACCOUNTS_PAYABLE', 'ACCRUED_LIABILITIES')`;
    assert.ok(findings!.n >= 30, `balance-witnessed sign slips: ${findings!.n}`);
  });

  it('a pretax income or income tax told with the opposite sign is served as the statement\'s own arithmetic has it: pretax less tax is the income from continuing operations (whole corpus)', async () => {
    const rows = await svc.sql<{ label: string; metric: number; residual: number | null }[]>`
      SELECT i.cik || ' ' || i.fiscal_year || ' ' || i.fiscal_period || ' ' || i.metric AS label,
        abs((l.figures -> i.metric ->> 'value')::numeric)::float8 AS metric,
        abs((l.figures -> 'PRETAX_INCOME' ->> 'value')::numeric - (l.figures -> 'INCOME_TAX_EXPENSE' ->> 'value')::numeric
          - (coalesce(l.figures -> 'NET_INCOME_INCLUDING_NONCONTROLLING', l.figures -> 'NET_INCOME') ->> 'value')::numeric
          + coalesce((l.figures -> 'INCOME_FROM_DISCONTINUED_OPERATIONS' ->> 'value')::numeric, 0))::float8 AS residual
      FROM dq_issues i
      JOIN LATERAL (SELECT figures FROM statement_versions v WHERE (v.cik, v.statement_type, v.fiscal_year, v.fiscal_period) = (i.cik, i.statement_type, i.fiscal_year, i.fiscal_period)
        ORDER BY version_sequence DESC LIMIT 1) l ON true
      WHERE i.rule_code = 'DQ_SIGN_SLIP_FILED' AND i.evidence ->> 'witness' = ${TAX_IDENTITY}`;
    assert.ok(rows.length >= 7, `tax-identity sign slips: ${rows.length}`);
    assert.deepEqual(rows.filter((r) => r.residual === null || r.residual > r.metric / 4).map((r) => r.label), []);
    const [herc] = await versions(HERC, 'INCOME_STATEMENT', 2017, 'Q2').then((l) => l.slice(-1));
    assert.equal(herc!.figures.PRETAX_INCOME.value, '-49800000', "Herc's Q2 2017 pretax loss (tax benefit 22.2M, net loss 27.6M); 49.8M of income served before");
    // its 10-K of 2019 and of 2020 flipped Q1 2018's pretax loss, net loss and loss per share together, not the tax benefit
    const q1 = await versions(HERC, 'INCOME_STATEMENT', 2018, 'Q1');
    assert.deepEqual(q1.map((v) => [v.figures.PRETAX_INCOME.value, v.figures.NET_INCOME.value, v.figures.EPS_BASIC.value]), [['-15200000', '-10100000', '-0.36']], 'served as income of 10.1M before');
  });

  it('a quarter a later filing told with the opposite sign, with the year-to-date through it, is served as that year-to-date and the earlier quarters on record have it: never a revision (whole corpus)', async () => {
    const m = await measureYearToDateSigns(svc.sql, corpus);
    assert.ok(m.flips >= 20 && m.decidable >= 20, `flips ${m.flips}, decidable ${m.decidable}`);
    assert.deepEqual(m.revisions, [], '14 revisions before the year-to-date witness');
    assert.deepEqual(m.served_otherwise, [], '7 served against the identity before it');
  });

  it("Hertz's 2019 net interest expense keeps its sign where its 10-Qs of 2020 told the quarters and year-to-date as income, and its Q4 2019 stays -219M; its 2021 quarters take the 10-Qs of 2022's correction without an alert", async () => {
    // every version of each statement (other figures make later ones) serves one value
    const served = async (fy: number, fp: string) => [...new Set((await versions(HERTZ, 'INCOME_STATEMENT', fy, fp)).map((v) => v.figures.NET_INTEREST_INCOME_EXPENSE?.value))];
    assert.deepEqual(await served(2019, 'Q2'), ['-199000000']);
    assert.deepEqual(await served(2019, 'Q3'), ['-204000000']);
    assert.deepEqual(await served(2019, 'Q4'), ['-219000000'], 'the 10-K of 2021 derived -1,391M (-805M less nine months of +586M) before');
    assert.equal((await served(2021, 'Q2')).at(-1), '-189000000');
    const findings = await svc.sql<{ label: string }[]>`
      SELECT fiscal_year || ' ' || fiscal_period || ' ' || (evidence ->> 'served') AS label FROM dq_issues
      WHERE cik = ${HERTZ} AND rule_code = 'DQ_SIGN_SLIP_FILED' AND metric = 'NET_INTEREST_INCOME_EXPENSE' AND evidence ->> 'witness' = ${YEAR_TO_DATE_IDENTITY}
      ORDER BY fiscal_year, fiscal_period`;
    assert.deepEqual(findings.map((f) => f.label), ['2019 Q2 previous', '2019 Q3 previous', '2021 Q2 filed', '2021 Q3 filed']);
    const [alerts] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      WHERE v.cik = ${HERTZ} AND r.metric = 'NET_INTEREST_INCOME_EXPENSE'
        AND (v.fiscal_year, v.fiscal_period) IN ((2019, 'Q2'), (2019, 'Q3'), (2019, 'Q4'), (2021, 'Q2'), (2021, 'Q3'))`;
    assert.equal(alerts!.n, 0);
  });

  it("a derived quarter whose year-to-date inputs each flipped in another filing stays a revision: Herc's Q2 2019 accrued liabilities (neither -17.3M nor 17.3M is the quarter)", async () => {
    const list = await versions(HERC, 'CASH_FLOW_STATEMENT', 2019, 'Q2');
    assert.deepEqual(list.map((v) => v.figures.CHANGE_IN_ACCRUED_LIABILITIES.value), ['-17300000', '17300000']);
    const [slip] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM dq_issues WHERE cik = ${HERC} AND rule_code = 'DQ_SIGN_SLIP_FILED' AND fiscal_year = 2019 AND fiscal_period = 'Q2' AND metric = 'CHANGE_IN_ACCRUED_LIABILITIES'`;
    assert.equal(slip!.n, 0);
  });

  it('no version that only adds figures records an alert or a fact revision', async () => {
    const [row] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM restatement_alert_events e WHERE NOT EXISTS (SELECT 1 FROM fact_revisions r WHERE r.statement_version_id = e.statement_version_id)`;
    assert.equal(row!.n, 0);
  });
});

describe('derived quarters and the year-to-date they come from (whole corpus)', () => {
  it('no served figure is computed from a year-to-date a 10-Q told with its longer year-to-date\'s values line for line', () => {
    const m = measureMisdatedYearToDate(corpus);
    // the one such pair of the corpus: SunEdison's 10-Q of 2012-11-09 tagged its nine months of 2011 also as six months
    assert.deepEqual(m.pairs, ['0000945436 0000945436-12-000174 2011-01-01..2011-06-30 = 2011-01-01..2011-09-30 (38 lines)']);
    assert.deepEqual(m.figures_from_them, [], 'main before the rule computed 37 figures from them (SunEdison Q2-Q4 2011)');
  });

  it("SunEdison's 2011 quarters keep what its 2011 10-Qs told: Q2 revenue 745.6M and net income 47.3M, Q3 operating cash flow 187.7M", async () => {
    const q2 = await versions(SUNEDISON, 'INCOME_STATEMENT', 2011, 'Q2');
    const latest = q2[q2.length - 1]!.figures;
    assert.deepEqual([latest.REVENUE.value, latest.NET_INCOME.value], ['745600000', '47300000'], 'before: 1,261.8M and -47.1M, nine months minus three');
    const q3 = await versions(SUNEDISON, 'CASH_FLOW_STATEMENT', 2011, 'Q3');
    assert.equal(q3[q3.length - 1]!.figures.OPERATING_CASH_FLOW.value, '187700000', 'before: 0, nine months minus the same nine months');
    const [revised] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM fact_revisions r JOIN statement_versions v USING (statement_version_id)
      WHERE r.new_accession = '0000945436-12-000174' AND v.cik = ${SUNEDISON} AND v.fiscal_year = 2011 AND v.figures -> r.metric ->> 'value_origin' = 'DERIVED'`;
    assert.equal(revised!.n, 0, 'no 2011 figure is revised by one derived from the mis-dated year-to-dates (32 before)');
  });

  it('a derived quarter never stands against a reported one where the reported quarter\'s own filing decided: every finding is served as it says', async () => {
    const m = await measureDerivedOverReported(svc.sql);
    assert.ok(m.findings >= 6, `findings: ${m.findings}`);
    assert.deepEqual(m.served_otherwise, []);
    // 26: the whole-year-to-date re-tellings, Herc's Q2 2013 share-based compensation its restating 10-K
    // of 2015 re-told in six months, and Apple's fiscal 2016 fourth quarter of dividends paid, whose 10-K
    // of 2017 re-told the year's line to include dividend equivalents (the reported quarter is now another line)
    assert.ok(m.revisions <= 26, `derived quarters revising reported ones: ${m.revisions} (48 before rule 10 and the mis-dated year-to-date rule; the rest re-tell the whole year-to-date)`);
  });

  it("Herc's Q2 2015 share-based compensation stays the 5.0M it reported, not 0.9M - 4.0M from year-to-dates of two bases (a value the line cannot take, never derived); NVIDIA's Q2 fiscal 2014 cash change is the 29.9M its six months give, without an alert", async () => {
    const herc = await versions(HERC, 'CASH_FLOW_STATEMENT', 2015, 'Q2');
    assert.ok(herc.every((v) => v.figures.SHARE_BASED_COMPENSATION.value === '5000000'), JSON.stringify(herc.map((v) => v.figures.SHARE_BASED_COMPENSATION)));
    const [revised] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      WHERE v.cik = ${HERC} AND v.statement_type = 'CASH_FLOW_STATEMENT' AND v.fiscal_year = 2015 AND v.fiscal_period = 'Q2' AND r.metric = 'SHARE_BASED_COMPENSATION'`;
    assert.equal(revised!.n, 0);
    const nvda = await versions(NVIDIA, 'CASH_FLOW_STATEMENT', 2014, 'Q2');
    assert.deepEqual(nvda.map((v) => v.figures.NET_CHANGE_IN_CASH?.value), ['781800000', '29898000'], 'the three-month tag, then what the six months give');
    const [alerts] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      WHERE v.cik = ${NVIDIA} AND v.statement_type = 'CASH_FLOW_STATEMENT' AND v.fiscal_year = 2014 AND v.fiscal_period = 'Q2' AND r.metric = 'NET_CHANGE_IN_CASH'`;
    assert.equal(alerts!.n, 0);
  });
});

describe('concept moves and never-negative figures (rule 11, whole corpus)', () => {
  const revisionsOf = (cik: string, type: string, fy: number, fp: string, metric: string) => svc.sql<{ old_value: string; new_value: string }[]>`
    SELECT r.old_value::text, r.new_value::text FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
    WHERE v.cik = ${cik} AND v.statement_type = ${type} AND v.fiscal_year = ${fy} AND v.fiscal_period = ${fp} AND r.metric = ${metric}`;

  it('a metric moved to a line its earlier filing told beside it, unchanged, is never a revision: every such move is a DQ_CONCEPT_MOVED finding the facts bear out', async () => {
    const m = await measureLineMoves(svc.sql, corpus);
    assert.deepEqual(m.revisions_of_unchanged_lines, []);
    assert.deepEqual(m.unsupported, []);
    assert.ok(m.findings >= 35, `findings: ${m.findings} (35 revisions of the corpus before rule 11)`);
  });

  it("Nikola's FY2021 and FY2022 stock proceeds move to the employee-plan line its 10-K of 2024 still tells (4,785,000, 6,867,000) without an alert; its FY2020 option proceeds stay 9,650,000 under the re-tag", async () => {
    const fy22 = await versions(NIKOLA, 'CASH_FLOW_STATEMENT', 2022, 'FY');
    assert.deepEqual(fy22.map((v) => v.figures.PROCEEDS_FROM_STOCK_ISSUANCE?.value), ['123672000', '6867000']);
    assert.equal((await revisionsOf(NIKOLA, 'CASH_FLOW_STATEMENT', 2022, 'FY', 'PROCEEDS_FROM_STOCK_ISSUANCE')).length, 0);
    const fy21 = await versions(NIKOLA, 'CASH_FLOW_STATEMENT', 2021, 'FY');
    assert.equal(fy21[fy21.length - 1]!.figures.PROCEEDS_FROM_STOCK_ISSUANCE.value, '4785000');
    assert.equal((await revisionsOf(NIKOLA, 'CASH_FLOW_STATEMENT', 2021, 'FY', 'PROCEEDS_FROM_STOCK_ISSUANCE')).length, 0, 'its 10-K of 2022 told 4,785,000 as option proceeds beside the 163.8M issuance line');
    const fy20 = await versions(NIKOLA, 'CASH_FLOW_STATEMENT', 2020, 'FY');
    assert.ok(fy20.every((v) => v.figures.PROCEEDS_FROM_STOCK_ISSUANCE.value === '9650000'), 'not 0: the 10-K of 2023 tells the zero under another line');
  });

  it('no served quarter of a never-negative metric nets two concepts below zero, or inputs of opposite signs', () => {
    const m = measureNeverNegativeDerivations(corpus);
    assert.ok(m.derived > 7000, `derived: ${m.derived}`);
    assert.deepEqual(m.mixed_below_zero, [], '9 before rule 11');
    assert.deepEqual(m.opposite_signs, [], '16 before rule 11');
  });

  it("Nikola's Q3 2020 stock proceeds are 320,000 (the employee-plan line's nine months less its six), and its reported Q4 2020 of 1,500,000 stands", async () => {
    const q3 = await versions(NIKOLA, 'CASH_FLOW_STATEMENT', 2020, 'Q3');
    assert.equal(q3[q3.length - 1]!.figures.PROCEEDS_FROM_STOCK_ISSUANCE.value, '320000', 'not 2,204,000 - 50,349,000');
    const q4 = await versions(NIKOLA, 'CASH_FLOW_STATEMENT', 2020, 'Q4');
    assert.equal(q4[q4.length - 1]!.figures.PROCEEDS_FROM_STOCK_ISSUANCE.value, '1500000', 'not 0 - 2,204,000');
  });

  it('no same figure of a never-negative metric told with the opposite sign is a revision (whole corpus)', async () => {
    const flips = await svc.sql<{ label: string }[]>`
      SELECT v.cik || ' ' || v.fiscal_year || ' ' || v.fiscal_period || ' ' || r.metric AS label
      FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      WHERE r.metric = ANY(${[...NON_NEGATIVE_METRICS]}) AND r.old_value = -r.new_value AND r.old_value <> 0`;
    assert.deepEqual(flips.map((f) => f.label), []);
  });

  it("Disney's interest expense keeps its sign: FY2022 1,549M where the 10-K of 2023 tagged -1,549M (a finding), Q4 2022 434M, and no quarter from the years it tagged negative", async () => {
    const fy22 = await versions(DISNEY, 'INCOME_STATEMENT', 2022, 'FY');
    assert.ok(fy22.every((v) => v.figures.INTEREST_EXPENSE.value === '1549000000'), JSON.stringify(fy22.map((v) => v.figures.INTEREST_EXPENSE.value)));
    const [finding] = await svc.sql<{ evidence: any }[]>`
      SELECT evidence FROM dq_issues WHERE cik = ${DISNEY} AND rule_code = 'DQ_SIGN_SLIP_FILED' AND fiscal_year = 2022 AND fiscal_period = 'FY' AND metric = 'INTEREST_EXPENSE'`;
    assert.deepEqual([finding!.evidence.witness, finding!.evidence.served], [NON_NEGATIVE_METRIC, 'previous']);
    const q4 = await versions(DISNEY, 'INCOME_STATEMENT', 2022, 'Q4');
    assert.equal(q4[q4.length - 1]!.figures.INTEREST_EXPENSE.value, '434000000');
    const q4of2023 = await versions(DISNEY, 'INCOME_STATEMENT', 2023, 'Q4');
    assert.equal(q4of2023[q4of2023.length - 1]!.figures.INTEREST_EXPENSE, undefined, 'not -1,973M - 1,472M');
  });
});

describe('corrections the filers\' own figures prove (whole corpus)', () => {
  it('no served change in cash is the subtotal before the exchange-rate effect: every such telling in the facts is served with the effect added, as the balance sheet moved', () => {
    const m = measureNetChangeBeforeFx(corpus);
    // Home Depot tagged its "increase in cash" above the effect of exchange rates, 2008-2018
    assert.deepEqual(m.companies, [HOME_DEPOT]);
    assert.ok(m.told_before_fx >= 80, `tellings: ${m.told_before_fx}`);
    assert.deepEqual(m.balance_disagrees, [], 'the cash balance moved by the subtotal plus the effect wherever the filing tells both ends');
    assert.ok(m.balance_agrees >= 80, `balance witnessed: ${m.balance_agrees}`);
    assert.deepEqual(m.served_otherwise, [], '20 served as the subtotal before the correction');
    assert.ok(m.served_right >= 20, `served right: ${m.served_right}`);
    assert.deepEqual(m.served_before_fx, [], '49 latest statements, derived quarters included, before the correction');
    // docs/known-limitations.md: SunAtion re-told 2021 without its exchange-rate line, which stays carried from the first telling
    assert.ok(m.carried_effect.every((l) => l.startsWith('0000022701|CASH_FLOW_STATEMENT|2021|')), m.carried_effect.join('\n'));
  });

  it("Home Depot's fiscal 2008 change in cash is 74M (119M tagged before -45M of exchange rates), its derived Q4 -345M, and the provenance names the correction", async () => {
    const fy = (await versions(HOME_DEPOT, 'CASH_FLOW_STATEMENT', 2008, 'FY')).at(-1)!;
    const net = fy.figures.NET_CHANGE_IN_CASH;
    assert.deepEqual([net.value, net.correction_rule, net.as_filed_value, net.source_xbrl_concept], ['74000000', 'NET_CHANGE_IN_CASH_FX_EFFECT_ADDED', '119000000', 'us-gaap:CashAndCashEquivalentsPeriodIncreaseDecrease']);
    const q4 = (await versions(HOME_DEPOT, 'CASH_FLOW_STATEMENT', 2008, 'Q4')).at(-1)!.figures.NET_CHANGE_IN_CASH;
    assert.equal(q4.value, '-345000000', 'the year less nine months, each with its effect: -316M before');
    assert.deepEqual(q4.calculation_steps.map((s: any) => [s.operation, s.metric]), [
      ['base', 'NET_CHANGE_IN_CASH'],
      ['subtract', 'NET_CHANGE_IN_CASH'],
      ['add', 'EFFECT_OF_EXCHANGE_RATE_ON_CASH'],
      ['subtract', 'EFFECT_OF_EXCHANGE_RATE_ON_CASH'],
    ]);
    const [version] = await svc.sql<{ statement_version_id: string }[]>`
      SELECT statement_version_id FROM statement_versions WHERE cik = ${HOME_DEPOT} AND statement_type = 'CASH_FLOW_STATEMENT' AND fiscal_year = 2008 AND fiscal_period = 'FY' ORDER BY version_sequence DESC LIMIT 1`;
    const p = await ok(`/v1/edgar/statements/${version!.statement_version_id}/metrics/NET_CHANGE_IN_CASH/provenance`);
    assert.equal(p.data.override_applied, true);
    assert.match(p.data.override_reason, /exchange rates/);
    const [failing] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM reconciliation_results r
      JOIN LATERAL (SELECT max(version_sequence) AS v FROM statement_versions s WHERE (s.cik, s.statement_type, s.fiscal_year, s.fiscal_period) = (r.cik, r.statement_type, r.fiscal_year, r.fiscal_period)) l ON true
      WHERE r.cik = ${HOME_DEPOT} AND r.rule_id IN ('CF_NET_CHANGE_IN_CASH', 'RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END') AND r.status = 'FAIL' AND r.version_sequence = l.v`;
    assert.equal(failing!.n, 0, 'no latest Home Depot cash flow fails the change-in-cash identity or roll-forward (51 and more before)');
  });

  it('no served revenue is a residual line where its own filing tagged the revenue its gross profit proves (concept continuity holds no concept a correction chose)', () => {
    const m = measureResidualRevenue(corpus);
    assert.ok(m.checked > 500, `checked: ${m.checked}`);
    assert.deepEqual(m.served_residual, [], "4 before: Under Armour's FY2015 and Q1-Q3 2016 product sales");
  });

  it("no served total equity is a line of the equity section its filing tagged as the total: Nike's FY2014 total equity is 10,824M, not its 85M of accumulated other comprehensive income", async () => {
    const m = measureEquityComponentTotals(corpus);
    assert.deepEqual(m.companies, [NIKE]);
    assert.ok(m.told_as_component >= 8, `tellings: ${m.told_as_component}`);
    assert.deepEqual(m.served_otherwise, [], '5 served as the component before the correction (FY2014-FY2016, Q1 and Q2 FY2017)');
    assert.ok(m.served_right >= 5, `served right: ${m.served_right}`);
    const total = (await versions(NIKE, 'BALANCE_SHEET', 2014, 'FY')).at(-1)!.figures.TOTAL_EQUITY;
    assert.deepEqual([total.value, total.correction_rule, total.as_filed_value], ['10824000000', 'TOTAL_EQUITY_COMPONENT_REPLACED', '85000000']);
  });

  it("Under Armour's Q1 2016 revenue stays 1,047.7M where its 10-Q of 2017 put the tags it had swapped back, with no alert", async () => {
    const list = await versions(UNDER_ARMOUR, 'INCOME_STATEMENT', 2016, 'Q1');
    assert.ok(list.every((v) => v.figures.REVENUE.value === '1047702000'), JSON.stringify(list.map((v) => v.figures.REVENUE)));
    const [revised] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      WHERE v.cik = ${UNDER_ARMOUR} AND v.statement_type = 'INCOME_STATEMENT' AND r.metric = 'REVENUE' AND r.new_value IN (3825691000, 1010518000, 956280000, 1421908000)`;
    assert.equal(revised!.n, 0, 'no revision to the product-sales line (FY2015, Q1-Q3 2016 before)');
  });
});

describe('imputed totals and honest provenance', () => {
  it("Nikola's FY2023 and FY2024 revenue is gross profit + cost of revenue of the same filing, DERIVED with its steps", async () => {
    for (const fy of [2023, 2024]) {
      const rev = (await versions(NIKOLA, 'INCOME_STATEMENT', fy, 'FY')).at(-1)!.figures.REVENUE;
      assert.equal(rev.mapping_type, 'DERIVED_IDENTITY');
      assert.equal(rev.value_origin, 'DERIVED');
      assert.deepEqual(rev.calculation_steps.map((s: any) => s.metric), ['GROSS_PROFIT', 'COST_OF_REVENUE']);
    }
  });

  it('an imputed revenue never stands where the filing tags a revenue candidate for the period', async () => {
    const [row] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM statement_versions v, jsonb_each(v.figures) f
      WHERE f.value ->> 'mapping_type' = 'DERIVED_IDENTITY' AND v.cik <> ${NIKOLA}`;
    assert.equal(row!.n, 0, 'only a filer tagging its revenue with an extension gets an imputed one');
    const [tagged] = await svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM statement_versions v, jsonb_each(v.figures) f
      WHERE f.value ->> 'mapping_type' = 'DERIVED_IDENTITY' AND (f.value -> 'calculation_steps' -> 0 ->> 'source_accession') IS DISTINCT FROM (f.value -> 'calculation_steps' -> 1 ->> 'source_accession')`;
    assert.equal(tagged!.n, 0, 'both terms come from one filing');
  });

  it('a sign flipped by the catalog convention is named in mapping_type on every figure, never null', async () => {
    const rows = await svc.sql<{ metric: string; concept: string; value: string; mapping_type: string | null }[]>`
      SELECT f.key AS metric, f.value ->> 'source_xbrl_concept' AS concept, f.value ->> 'value' AS value, f.value ->> 'mapping_type' AS mapping_type
      FROM statement_versions v, jsonb_each(v.figures) f
      WHERE f.value ->> 'source_xbrl_concept' IS NOT NULL AND f.value ->> 'correction_rule' IS NULL AND f.value ->> 'value' <> '0'`;
    let flipped = 0;
    const hidden: string[] = [];
    for (const r of rows) {
      const use = conceptIndex().get(r.concept)?.find((u) => u.metric === r.metric);
      if (!use?.negate) continue;
      flipped++;
      if (!r.mapping_type?.includes('SIGN_FLIPPED')) hidden.push(`${r.metric} ${r.concept} ${r.value} ${r.mapping_type}`);
    }
    assert.ok(flipped > 1000, `figures served with the sign reversed: ${flipped}`);
    assert.deepEqual(hidden.slice(0, 10), []);
  });

  it("time-series provenance names the source filing's date and form (MiMedx FY2017: the 10-K of 2020-03-17)", async () => {
    const page = await ok(`/v1/edgar/companies/${MIMEDX}/metrics/REVENUE/time-series?period_type=annual&fiscal_year_from=2017&fiscal_year_to=2017&include_provenance=true`);
    const p = page.items[0];
    assert.equal(p.provenance.source_accession, '0001376339-20-000009');
    assert.equal(p.provenance.filing_date, '2020-03-17');
    assert.equal(p.provenance.filing_type, '10-K');
  });
});

describe("comparisons with SEC's own aggregates", () => {
  it('companyfacts frames: served FY figures agree with the last-filed value per calendar year, differences explained', () => {
    const m = measureFrames(corpus);
    assert.ok(m.compared > 10_000, `compared: ${m.compared}`);
    const causes = m.causes!;
    // docs/known-limitations.md: recasts filed only on 8-Ks, scale slips whose previous value is kept
    assert.equal(causes.OTHER ?? 0, 0, m.differ_examples.join('\n'));
    assert.ok(m.compared - m.agree <= 80, `differences: ${m.compared - m.agree} ${JSON.stringify(causes)}`);
    assert.ok((causes.RECAST_OUTSIDE_PERIODIC_REPORTS ?? 0) >= (m.compared - m.agree) / 2, JSON.stringify(causes));
  });

  it('FSDS 2009q3: every face value of the corpus companies that the service serves under the same tag agrees, as reported', () => {
    const m = measureFsds(corpus);
    assert.ok(m.compared > 300 && m.companies >= 6, `compared ${m.compared} values of ${m.companies} companies`);
    assert.equal(m.agree, m.compared, m.differ_examples.join('\n'));
  });
});
