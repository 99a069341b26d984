import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * Provenance, audit chain and override trace over the ingested ../shared/sec corpus. Version ids
 * change whenever the corpus is rebuilt, so each test finds its version through the statement route.
 */
const APPLE = '0000320193';
const SUNEDISON = '0000945436';
const MIMEDX = '0001376339';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

async function call(path: string, key = svc.keys.enterprise) {
  return get(`${svc.baseUrl}${path}`, key);
}

/** statement_version_id of one version (the latest when version is omitted) of a statement identity. */
async function versionId(cik: string, type: string, year: number, period: string, version?: number): Promise<string> {
  const r = await call(`/v1/fundamentals/normalized-statements?cik=${cik}&statement_type=${type}&fiscal_year=${year}&fiscal_period=${period}&include_version_history=true`);
  assert.equal(r.status, 200, r.text);
  if (version === undefined) return r.body.data.statement_version_id;
  const entry = r.body.data.version_history.find((v: any) => v.version_sequence === version);
  assert.ok(entry, `version ${version} of ${cik} ${type} ${year} ${period} is in the history`);
  return entry.statement_version_id;
}

describe('metric provenance', () => {
  it("Apple's FY2023 revenue traces to its 10-K 0000320193-23-000106 with the tag, context and version hash", async () => {
    const id = await versionId(APPLE, 'INCOME_STATEMENT', 2023, 'FY');
    const r = await call(`/v1/edgar/statements/${id}/metrics/REVENUE/provenance`);
    assert.equal(r.status, 200, r.text);
    const p = r.body.data;
    assert.equal(p.statement_version_id, id);
    assert.equal(p.cik, APPLE);
    assert.equal(p.metric, 'REVENUE');
    assert.equal(p.value, '383285000000.000000');
    assert.equal(p.source_accession, '0000320193-23-000106');
    assert.equal(p.filing_type, '10-K');
    assert.equal(p.filing_date, '2023-11-03');
    assert.equal(p.accepted_at, '2023-11-02T22:08:27.000Z');
    assert.equal(p.source_line_item, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    assert.equal(p.source_xbrl_concept, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    assert.equal(p.mapping_type, 'FALLBACK_CONCEPT', 'the tag is not the first candidate of REVENUE');
    assert.equal(p.selection_rule, 'PRESENTATION_LINKBASE');
    assert.equal(p.override_applied, false);
    assert.equal(p.override_reason, null);
    assert.equal(p.calculation_steps, null);
    assert.deepEqual(p.source_context, { entity_cik: APPLE, period_type: 'duration', period_start: '2022-09-25', period_end: '2023-09-30', unit: 'USD', dimensions: [] });
    const [row] = await svc.sql<{ content_hash: string }[]>`SELECT content_hash FROM statement_versions WHERE statement_version_id = ${id}`;
    assert.equal(p.source_hash, row!.content_hash, 'source_hash is the version content hash');
    assert.match(p.source_hash, /^[0-9a-f]{64}$/, 'a sha-256 hex digest');
  });

  it("a derived Q4 figure carries its calculation steps: Apple's fiscal 2023 Q4 revenue is the year minus nine months", async () => {
    const id = await versionId(APPLE, 'INCOME_STATEMENT', 2023, 'Q4');
    const r = await call(`/v1/edgar/statements/${id}/metrics/revenue/provenance`);
    assert.equal(r.status, 200, r.text);
    const p = r.body.data;
    assert.equal(p.value, '89498000000.000000', '383,285M - 293,787M');
    assert.equal(p.mapping_type, 'DERIVED_Q4');
    assert.equal(p.source_xbrl_concept, null, 'a derived figure was not read from one fact');
    assert.equal(p.source_line_item, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', 'the line item is its inputs\' tag');
    assert.equal(p.override_applied, false);
    assert.equal(p.calculation_steps.length, 2, JSON.stringify(p.calculation_steps));
    const [base, minus] = p.calculation_steps;
    assert.equal(base.operation, 'base');
    assert.equal(base.value, '383285000000.000000');
    assert.equal(base.source_accession, '0000320193-23-000106');
    assert.equal(minus.operation, 'subtract');
    assert.equal(minus.value, '293787000000.000000');
    assert.equal(minus.source_accession, '0000320193-23-000077', 'the nine months come from the Q3 10-Q');
    assert.equal(p.source_context.period_start, '2023-07-02');
    assert.equal(p.source_context.period_end, '2023-09-30');
  });

  it("a corrected figure says the override applied and why: SunEdison's FY2011 residual top line was replaced", async () => {
    const id = await versionId(SUNEDISON, 'INCOME_STATEMENT', 2011, 'FY', 1);
    const r = await call(`/v1/edgar/statements/${id}/metrics/REVENUE/provenance`);
    assert.equal(r.status, 200, r.text);
    const p = r.body.data;
    assert.equal(p.value, '2715500000.000000');
    assert.equal(p.source_accession, '0000945436-12-000008');
    assert.equal(p.accepted_at, null, 'the source gave no acceptance time for this filing');
    assert.equal(p.mapping_type, 'CORRECTION');
    assert.equal(p.source_line_item, 'us-gaap:SalesRevenueNet');
    assert.equal(p.override_applied, true);
    assert.ok(p.override_reason.includes('us-gaap:Revenues'), `the reason names the replaced tag: ${p.override_reason}`);
  });

  it('refuses a non-UUID id and a non-canonical metric with 400, and answers 404 for an unknown version or a metric the version lacks', async () => {
    const id = await versionId(APPLE, 'INCOME_STATEMENT', 2023, 'FY');
    const bad = await call(`/v1/edgar/statements/not-a-uuid/metrics/REVENUE/provenance`);
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');

    const derived = await call(`/v1/edgar/statements/${id}/metrics/GROSS_MARGIN/provenance`);
    assert.equal(derived.status, 400, derived.text);
    assert.ok(derived.body.error.message.includes('accepted names'), 'the message lists accepted names');

    const unknown = await call(`/v1/edgar/statements/00000000-0000-4000-8000-000000000000/metrics/REVENUE/provenance`);
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.error.code, 'NOT_FOUND');

    const otherStatement = await call(`/v1/edgar/statements/${id}/metrics/TOTAL_ASSETS/provenance`);
    assert.equal(otherStatement.status, 404, otherStatement.text);
    assert.ok(otherStatement.body.error.message.includes('BALANCE_SHEET metric'), otherStatement.body.error.message);
    assert.ok(otherStatement.body.error.details.metrics_on_version.includes('REVENUE'), 'details list the metrics the version carries');
  });
});

describe('metric audit chain', () => {
  it("Apple's FY2008 net income chain shows the 10-K/A restatement from 4,834M to 6,119M", async () => {
    const id = await versionId(APPLE, 'INCOME_STATEMENT', 2008, 'FY', 2);
    const r = await call(`/v1/edgar/statements/${id}/metrics/NET_INCOME/audit-chain`);
    assert.equal(r.status, 200, r.text);
    const c = r.body.data;
    assert.equal(c.metric_name, 'NET_INCOME');
    assert.equal(c.statement_version_id, id);
    assert.equal(c.version_sequence, 2);
    assert.equal(c.filing_accession, '0001193125-10-012091');
    assert.equal(c.xbrl_concept, 'us-gaap:NetIncomeLoss');
    assert.equal(c.mapping_type, null, 'a direct match of the first tag');
    assert.equal(c.concept_rank, 0);
    assert.equal(c.candidate_concepts[0].concept, 'us-gaap:NetIncomeLoss');
    assert.deepEqual(c.overrides, []);
    // version 3 (the fiscal 2010 10-K) only added a figure told first then: no revision of net income
    assert.equal(c.versions.length, 3);
    const [v1, v2, v3] = c.versions;
    assert.equal(v3.value, '6119000000.000000');
    assert.equal(v3.revision, null);
    assert.equal(v1.value, '4834000000.000000');
    assert.equal(v1.version_accession, '0001193125-09-214859');
    assert.equal(v1.revision, null);
    assert.equal(v1.is_requested, false);
    assert.equal(v2.value, '6119000000.000000');
    assert.equal(v2.filing_date, '2010-01-25');
    assert.equal(v2.is_requested, true);
    assert.equal(v2.revision.difference, '1285000000.000000');
    assert.equal(v2.revision.old_accession, '0001193125-09-214859');
    assert.ok(c.links.override_trace.endsWith('version_sequence=2'), c.links.override_trace);
  });

  it("Apple's fiscal 2019 diluted EPS chain shows the 4-for-1 split's recast (11.89 to 2.97) as a split recast, not a revision", async () => {
    const id = await versionId(APPLE, 'INCOME_STATEMENT', 2019, 'FY');
    const r = await call(`/v1/edgar/statements/${id}/metrics/EPS_DILUTED/audit-chain`);
    assert.equal(r.status, 200, r.text);
    const [v1, v2] = r.body.data.versions;
    assert.deepEqual([v1.value, v1.revision, v1.split_recast], ['11.890000', null, null]);
    assert.equal(v2.value, '2.970000');
    assert.equal(v2.revision, null);
    assert.deepEqual(v2.split_recast, {
      old_value: '11.890000',
      new_value: '2.970000',
      old_accession: '0000320193-19-000119',
      new_accession: '0000320193-20-000096',
      split_ratio: '4.000000',
      split_date: '2020-08-28',
      split_evidence: 'TAGGED_RATIO',
    });
  });

  it('a corrected figure lists its override with the replaced tag, and a carried-over figure keeps its source filing', async () => {
    const id = await versionId(SUNEDISON, 'INCOME_STATEMENT', 2011, 'FY', 3);
    const r = await call(`/v1/edgar/statements/${id}/metrics/REVENUE/audit-chain`);
    assert.equal(r.status, 200, r.text);
    const c = r.body.data;
    assert.equal(c.mapping_type, 'CORRECTION');
    assert.equal(c.filing_accession, '0000945436-12-000008', 'version 3 carries the figure of the FY2011 10-K');
    assert.equal(c.overrides.length, 1);
    assert.deepEqual(c.overrides[0], {
      rule: 'REVENUE_RESIDUAL_TOP_LINE_REPLACED',
      reason: c.overrides[0].reason,
      as_filed_value: null,
      as_filed_concept: 'us-gaap:Revenues',
      served_value: '2715500000.000000',
      served_concept: 'us-gaap:SalesRevenueNet',
    });
    const v3 = c.versions.find((v: any) => v.version_sequence === 3);
    assert.equal(v3.version_accession, '0000945436-14-000023');
    assert.equal(v3.source_accession, '0000945436-12-000008');
  });

  it('answers 404 for an unknown version and 400 for a derived metric name', async () => {
    const unknown = await call(`/v1/edgar/statements/00000000-0000-4000-8000-000000000000/metrics/NET_INCOME/audit-chain`);
    assert.equal(unknown.status, 404, unknown.text);
    const id = await versionId(APPLE, 'INCOME_STATEMENT', 2023, 'FY');
    const derived = await call(`/v1/edgar/statements/${id}/metrics/ROE/audit-chain`);
    assert.equal(derived.status, 400, derived.text);
    assert.ok(derived.body.error.message.includes('derived metric'), derived.body.error.message);
  });
});

describe('override trace', () => {
  const trace = (cik: string, query: string) => call(`/v1/edgar/companies/${cik}/statements/overrides/trace?${query}`);

  it("Apple's FY2023 income statement: 20 figures, 3 from a later candidate tag, no correction", async () => {
    const r = await trace(APPLE, 'statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY&version_sequence=1');
    assert.equal(r.status, 200, r.text);
    const t = r.body.data;
    assert.equal(t.version_sequence, 1);
    assert.equal(t.total_facts_evaluated, 20);
    assert.equal(t.total_facts_remapped, 3);
    assert.equal(t.total_facts_suppressed, 0);
    assert.deepEqual(t.rules.map((x: any) => x.rule_id), ['FALLBACK_CONCEPT']);
    assert.deepEqual(t.rules[0].metrics.map((m: any) => m.metric), ['COST_OF_REVENUE', 'INTEREST_INCOME', 'REVENUE']);
    const revenue = t.rules[0].metrics.find((m: any) => m.metric === 'REVENUE');
    assert.equal(revenue.xbrl_concept, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    assert.equal(revenue.first_candidate_concept, 'us-gaap:Revenues');
  });

  it('zero counts with empty rules when every figure is its first tag as filed (MiMedx balance sheet, fiscal 2020 Q2)', async () => {
    const r = await trace(MIMEDX, 'statement_type=BALANCE_SHEET&fiscal_year=2020&fiscal_period=Q2&version_sequence=1');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.total_facts_evaluated, 37);
    assert.equal(r.body.data.total_facts_remapped, 0);
    assert.deepEqual(r.body.data.rules, []);
  });

  it('a statement with several versions needs version_sequence: 409 listing them, then the correction rule on version 1', async () => {
    const ambiguous = await trace(SUNEDISON, 'statement_type=INCOME_STATEMENT&fiscal_year=2011&fiscal_period=FY');
    assert.equal(ambiguous.status, 409, ambiguous.text);
    assert.equal(ambiguous.body.error.code, 'EDGAR_STATEMENT_AMBIGUOUS');
    assert.deepEqual(ambiguous.body.error.details.version_sequences, [1, 2, 3]);
    assert.equal(ambiguous.body.error.details.versions[2].source_accession, '0000945436-14-000023');

    const r = await trace(SUNEDISON, 'statement_type=INCOME_STATEMENT&fiscal_year=2011&fiscal_period=FY&version_sequence=1');
    assert.equal(r.status, 200, r.text);
    const correction = r.body.data.rules.find((x: any) => x.rule_id === 'REVENUE_RESIDUAL_TOP_LINE_REPLACED');
    assert.ok(correction, `the correction rule is listed: ${JSON.stringify(r.body.data.rules.map((x: any) => x.rule_id))}`);
    assert.equal(correction.rule_kind, 'CORRECTION');
    assert.deepEqual(correction.metrics.map((m: any) => m.metric), ['REVENUE']);
    assert.equal(correction.metrics[0].as_filed_concept, 'us-gaap:Revenues');
    const fallback = r.body.data.rules.find((x: any) => x.rule_id === 'FALLBACK_CONCEPT');
    assert.ok(fallback.metrics.some((m: any) => m.metric === 'COST_OF_REVENUE'), 'cost of revenue came from a later candidate tag');
    assert.equal(r.body.data.total_facts_remapped, correction.facts_count + fallback.facts_count);
  });

  it('answers 404 for a version or a statement not on record and 400 for a bad statement type', async () => {
    const noVersion = await trace(APPLE, 'statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY&version_sequence=9');
    assert.equal(noVersion.status, 404, noVersion.text);
    assert.ok(noVersion.body.error.message.includes('versions on record: 1, 2'), noVersion.body.error.message);
    const noStatement = await trace(APPLE, 'statement_type=INCOME_STATEMENT&fiscal_year=1990&fiscal_period=FY');
    assert.equal(noStatement.status, 404, noStatement.text);
    const badType = await trace(APPLE, 'statement_type=INCOME&fiscal_year=2023&fiscal_period=FY');
    assert.equal(badType.status, 400, badType.text);
  });
});

describe('company completeness', () => {
  it("Apple's summary names its latest periodic report and counts statement versions by type", async () => {
    const r = await call(`/v1/edgar/companies/${APPLE}/completeness`);
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.equal(d.cik, APPLE);
    assert.ok(d.latest_periodic_filing !== null, 'a periodic report is on record');
    assert.ok(d.statement_versions.INCOME_STATEMENT > 0, 'income statement versions are counted');
    assert.equal(d.statement_versions.total, d.statement_versions.INCOME_STATEMENT + d.statement_versions.BALANCE_SHEET + d.statement_versions.CASH_FLOW_STATEMENT);
    assert.ok(d.restated_statement_periods.INCOME_STATEMENT >= 1, 'the FY2008 restatement is counted');
  });
});
