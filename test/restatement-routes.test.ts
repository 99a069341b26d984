import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * Restatement and version-analytics routes over the ingested ../shared/sec corpus. The pinned case:
 * Apple's fiscal 2008 income statement, first presented by the FY2009 10-K 0001193125-09-214859
 * (filed 2009-10-27, net income 4,834M) and restated by 10-K/A 0001193125-10-012091 (filed
 * 2010-01-25, net income 6,119M, revenue 32,479M -> 37,491M). Apple's FY2023 income statement
 * (10-K 0000320193-23-000106) was never revised.
 */
const APPLE = '0000320193';
const ORIGINAL = '0001193125-09-214859';
const AMENDMENT = '0001193125-10-012091';
/** the fiscal 2010 10-K: told fiscal 2008's goodwill impairment (0) first, a version that revises nothing */
const LATER = '0001193125-10-238044';
const FY2008 = `statement_type=INCOME_STATEMENT&fiscal_year=2008&fiscal_period=FY`;
const FY2023 = `statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`;

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

async function ok(path: string, key = svc.keys.enterprise) {
  const r = await get(`${svc.baseUrl}${path}`, key);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function refused(path: string, status: number, code: string) {
  const r = await get(`${svc.baseUrl}${path}`, svc.keys.enterprise);
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error.code, code, r.text);
  return r.body.error as { message: string; details: any };
}

describe('restatement alert events', () => {
  it("lists Apple's 10-K/A of 2010-01-25 restating fiscal 2008 with every revised metric", async () => {
    const page = await ok(`/v1/edgar/restatement-alerts?cik=320193&${FY2008}`);
    assert.equal(page.total, 1);
    const e = page.items[0];
    assert.equal(e.accession, AMENDMENT);
    assert.equal(e.form, '10-K/A');
    assert.equal(e.is_amendment, true);
    assert.equal(e.filing_date, '2010-01-25');
    assert.equal(e.version_sequence, 2);
    assert.equal(e.previous_version_sequence, 1);
    assert.equal(e.revised_metrics_count, 10);
    assert.equal(e.revised_metrics.length, 10);
    const ni = e.revised_metrics.find((m: any) => m.metric === 'NET_INCOME');
    assert.deepEqual(ni, {
      metric: 'NET_INCOME',
      old_value: '4834000000.000000',
      new_value: '6119000000.000000',
      difference: '1285000000.000000',
      relative_change: '0.265825',
      old_accession: ORIGINAL,
      new_accession: AMENDMENT,
      old_concept: 'us-gaap:NetIncomeLoss',
      new_concept: 'us-gaap:NetIncomeLoss',
    });
  });

  it('orders events newest filing first and filters by filing-date range and revised metric', async () => {
    const all = await ok(`/v1/edgar/restatement-alerts?cik=${APPLE}&page_size=200`);
    assert.ok(all.total > 50, 'Apple has many restatement events');
    const dates = all.items.map((e: any) => e.filing_date);
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest filing first');
    const day = await ok(`/v1/edgar/restatement-alerts?cik=${APPLE}&filed_from=2010-01-25&filed_to=2010-01-25&page_size=200`);
    // the 10-K/A re-told fiscal 2008 and 2009 without their nine months: their fourth quarters are withdrawn, not re-derived as revisions
    assert.equal(day.total, 8, 'the 10-K/A and a 10-Q filed that day restated eight statements');
    assert.ok(day.items.every((e: any) => e.filing_date === '2010-01-25'), 'only that day');
    const ni = await ok(`/v1/edgar/restatement-alerts?cik=${APPLE}&filed_from=2010-01-25&filed_to=2010-01-25&metric=net_income`);
    assert.ok(ni.total > 0 && ni.total < 8, 'only events that revised net income');
    assert.ok(ni.items.every((e: any) => e.revised_metrics.some((m: any) => m.metric === 'NET_INCOME')), 'each revised NET_INCOME');
  });

  it('answers an empty page when nothing matches, and refuses an inverted date range', async () => {
    const none = await ok(`/v1/edgar/restatement-alerts?cik=${APPLE}&${FY2023}`);
    assert.deepEqual({ total: none.total, items: none.items }, { total: 0, items: [] });
    const err = await refused(`/v1/edgar/restatement-alerts?filed_from=2011-01-01&filed_to=2010-01-01`, 400, 'VALIDATION_ERROR');
    assert.match(err.message, /filed_from .* is after filed_to/);
  });

  it('reads one event by id, 404 for an unknown id and 400 for a malformed one', async () => {
    const page = await ok(`/v1/edgar/restatement-alerts?cik=${APPLE}&${FY2008}`);
    const id = page.items[0].restatement_alert_event_id;
    const one = await ok(`/v1/edgar/restatement-alerts/${id}`);
    assert.equal(one.data.restatement_alert_event_id, id);
    assert.equal(one.data.company_name !== undefined, true, 'company name is present (null when unknown)');
    assert.equal(one.data.revised_metrics.find((m: any) => m.metric === 'REVENUE').difference, '5012000000.000000');
    await refused(`/v1/edgar/restatement-alerts/00000000-0000-4000-8000-000000000000`, 404, 'NOT_FOUND');
    await refused(`/v1/edgar/restatement-alerts/not-a-uuid`, 400, 'VALIDATION_ERROR');
  });
});

describe('fact revisions of a version', () => {
  it('lists what version 2 revised and nothing for version 1; 404 for an unknown version', async () => {
    const ledger = await ok(`/v1/edgar/statements/restatements/ledger?ticker=AAPL&${FY2008}`);
    const [v1, v2] = ledger.data.entries;
    const revised = await ok(`/v1/edgar/statements/${v2.statement_version_id}/fact-revisions?page_size=3`);
    assert.equal(revised.total, 10);
    assert.equal(revised.items.length, 3);
    assert.deepEqual(revised.items.map((r: any) => r.metric), ['COMPREHENSIVE_INCOME', 'COST_OF_REVENUE', 'EPS_BASIC'], 'by metric name');
    assert.equal(revised.items[2].old_value, '5.480000');
    assert.equal(revised.items[2].new_value, '6.940000');
    assert.equal(revised.items[2].previous_version_id, v1.statement_version_id);
    const original = await ok(`/v1/edgar/statements/${v1.statement_version_id}/fact-revisions`);
    assert.deepEqual({ total: original.total, items: original.items }, { total: 0, items: [] });
    await refused(`/v1/edgar/statements/00000000-0000-4000-8000-000000000000/fact-revisions`, 404, 'NOT_FOUND');
    await refused(`/v1/edgar/statements/xyz/fact-revisions`, 400, 'VALIDATION_ERROR');
  });
});

describe('restatement delta', () => {
  it('compares the original and the restated version by accessions, metric by metric', async () => {
    const body = await ok(`/v1/edgar/statements/restatements/delta?cik=${APPLE}&${FY2008}&from_accession=${ORIGINAL}&to_accession=${AMENDMENT}`);
    const d = body.data;
    assert.equal(d.from_version.version_sequence, 1);
    assert.equal(d.from_version.filing_date, '2009-10-27');
    assert.equal(d.to_version.version_sequence, 2);
    assert.equal(d.to_version.filing_type, '10-K/A');
    assert.equal(d.to_version.is_latest, false, 'version 3 added a figure told first by the next 10-K');
    assert.equal(d.metrics_changed, 10);
    const ni = d.metrics.find((m: any) => m.metric === 'NET_INCOME');
    assert.equal(ni.old_value, '4834000000.000000');
    assert.equal(ni.new_value, '6119000000.000000');
    assert.equal(ni.difference, '1285000000.000000');
    assert.equal(ni.status, 'CHANGED');
    assert.equal(d.metrics[0].metric, 'REVENUE', 'catalog order');
    const unchanged = d.metrics.filter((m: any) => m.status === 'UNCHANGED');
    assert.ok(unchanged.every((m: any) => m.difference === '0.000000'), 'unchanged metrics have a zero difference');
  });

  it('gives the same comparison by statement_version_id, and the fundamentals route narrows to named metrics in catalog order', async () => {
    const ledger = await ok(`/v1/edgar/statements/restatements/ledger?cik=${APPLE}&${FY2008}`);
    const [v1, v2] = ledger.data.entries.map((e: any) => e.statement_version_id);
    const byId = await ok(`/v1/edgar/statements/restatements/delta?ticker=aapl&${FY2008}&from_statement_version_id=${v1}&to_statement_version_id=${v2}&changed_only=true`);
    assert.equal(byId.data.metrics.length, 10);
    const f = await ok(`/v1/fundamentals/restatement-delta?cik=${APPLE}&${FY2008}&from_statement_version_id=${v1}&to_statement_version_id=${v2}&metrics=NET_INCOME&metrics=revenue&metrics=INTEREST_EXPENSE`);
    assert.deepEqual(
      f.data.metrics.map((m: any) => [m.metric, m.status, m.old_value, m.new_value, m.difference]),
      [
        ['REVENUE', 'CHANGED', '32479000000.000000', '37491000000.000000', '5012000000.000000'],
        ['INTEREST_EXPENSE', 'NOT_REPORTED', null, null, null],
        ['NET_INCOME', 'CHANGED', '4834000000.000000', '6119000000.000000', '1285000000.000000'],
      ],
    );
  });

  it('refuses mixed selector pairs, a half pair and no pair with 400 VALIDATION_ERROR saying which', async () => {
    const base = `/v1/edgar/statements/restatements/delta?cik=${APPLE}&${FY2008}`;
    const mixed = await refused(`${base}&from_accession=${ORIGINAL}&to_statement_version_id=00000000-0000-4000-8000-000000000000`, 400, 'VALIDATION_ERROR');
    assert.match(mixed.message, /cannot be mixed/);
    const half = await refused(`${base}&from_accession=${ORIGINAL}`, 400, 'VALIDATION_ERROR');
    assert.match(half.message, /to_accession is missing/);
    const none = await refused(base, 400, 'VALIDATION_ERROR');
    assert.match(none.message, /exactly one selector pair/);
    const f = await refused(`/v1/fundamentals/restatement-delta?cik=${APPLE}&${FY2008}&from_statement_version_id=00000000-0000-4000-8000-000000000000&to_accession=${AMENDMENT}`, 400, 'VALIDATION_ERROR');
    assert.match(f.message, /cannot be mixed/);
    const market = await refused(`/v1/fundamentals/restatement-delta?cik=${APPLE}&${FY2008}&from_accession=${ORIGINAL}&to_accession=${AMENDMENT}&metrics=MARKET_CAP`, 400, 'VALIDATION_ERROR');
    assert.match(market.message, /market-dependent/);
  });

  it('answers 404 listing the versions when an accession created no version of the statement', async () => {
    const err = await refused(`/v1/edgar/statements/restatements/delta?cik=${APPLE}&${FY2008}&from_accession=${ORIGINAL}&to_accession=0000320193-23-000106`, 404, 'NOT_FOUND');
    assert.match(err.message, /no version created by filing 0000320193-23-000106/);
    assert.deepEqual(err.details.versions.map((v: any) => v.source_accession), [ORIGINAL, AMENDMENT, LATER]);
  });
});

describe('restatement timeline and ledger', () => {
  it('shows each metric across the versions of fiscal 2008 with the change at each step', async () => {
    const body = await ok(`/v1/edgar/companies/320193/statements/restatement-timeline?${FY2008}`);
    const d = body.data;
    assert.equal(d.versions_count, 3);
    assert.equal(d.restatements_count, 1, 'version 3 only added a figure: not a restatement');
    assert.deepEqual(d.versions.map((v: any) => [v.version_sequence, v.source_accession, v.filing_date]), [
      [1, ORIGINAL, '2009-10-27'],
      [2, AMENDMENT, '2010-01-25'],
      [3, LATER, '2010-10-27'],
    ]);
    assert.equal(d.versions[0].restatement_alert_event_id, null);
    assert.equal(d.versions[1].revised_metrics_count, 10);
    assert.deepEqual([d.versions[2].restatement_alert_event_id, d.versions[2].revised_metrics_count], [null, 0]);
    const ni = d.metrics.find((m: any) => m.metric === 'NET_INCOME');
    assert.equal(ni.revised, true);
    assert.equal(ni.net_change, '1285000000.000000');
    assert.deepEqual(ni.values.map((p: any) => [p.value, p.status, p.change_from_previous]), [
      ['4834000000.000000', 'UNCHANGED', null],
      ['6119000000.000000', 'CHANGED', '1285000000.000000'],
      ['6119000000.000000', 'UNCHANGED', '0.000000'],
    ]);
    const goodwill = d.metrics.find((m: any) => m.metric === 'GOODWILL_IMPAIRMENT');
    assert.equal(goodwill.revised, false, 'a figure first told by a later version revises nothing');
    const changed = await ok(`/v1/edgar/companies/${APPLE}/statements/restatement-timeline?${FY2008}&changed_only=true`);
    assert.equal(changed.data.metrics.length, 10);
  });

  it('a never-revised statement has no restatement and no revised metric, whatever later figures added; an unknown one is 404', async () => {
    const body = await ok(`/v1/edgar/companies/${APPLE}/statements/restatement-timeline?${FY2023}`);
    // version 2 (the fiscal 2025 10-K) told selling and G&A expenses of fiscal 2023 first
    assert.equal(body.data.versions_count, 2);
    assert.equal(body.data.restatements_count, 0);
    assert.equal(body.data.versions[0].source_accession, '0000320193-23-000106');
    assert.ok(body.data.metrics.every((m: any) => !m.revised), 'nothing revised');
    assert.equal(body.data.metrics.find((m: any) => m.metric === 'NET_INCOME').latest_value, '96995000000.000000');
    await refused(`/v1/edgar/companies/${APPLE}/statements/restatement-timeline?statement_type=INCOME_STATEMENT&fiscal_year=1950&fiscal_period=FY`, 404, 'NOT_FOUND');
  });

  it('keeps a ledger of the original and the restatement with its alert event and revisions', async () => {
    const body = await ok(`/v1/edgar/statements/restatements/ledger?ticker=AAPL&${FY2008}`);
    const d = body.data;
    assert.equal(d.cik, APPLE);
    assert.deepEqual(d.entries.map((e: any) => [e.entry_type, e.source_accession, e.revised_metrics_count]), [
      ['ORIGINAL', ORIGINAL, 0],
      ['RESTATEMENT', AMENDMENT, 10],
      ['LATER_FIGURES', LATER, 0],
    ]);
    assert.equal(d.restatements_count, 1);
    assert.equal(d.entries[2].restatement_alert_event_id, null, 'no alert for figures added later');
    assert.equal(d.entries[1].previous_version_id, d.entries[0].statement_version_id);
    assert.equal(d.entries[1].is_amendment, true);
    assert.ok(d.entries[1].restatement_alert_event_id, 'the restatement names its alert event');
    assert.equal(d.latest_statement_version_id, d.entries[2].statement_version_id);
    const single = await ok(`/v1/edgar/statements/restatements/ledger?cik=${APPLE}&${FY2023}`);
    assert.deepEqual(single.data.entries.map((e: any) => [e.entry_type, e.revisions.length]), [['ORIGINAL', 0], ['LATER_FIGURES', 0]]);
    assert.equal(single.data.restatements_count, 0);
  });

  it("names a version that recast per-share figures for a stock split, with each recast and the split, and no alert: Apple's fiscal 2019 after its 4-for-1 split", async () => {
    const d = (await ok(`/v1/edgar/statements/restatements/ledger?cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2019&fiscal_period=FY`)).data;
    assert.deepEqual(d.entries.map((e: any) => [e.entry_type, e.source_accession, e.revised_metrics_count, e.restatement_alert_event_id]), [
      ['ORIGINAL', '0000320193-19-000119', 0, null],
      ['STOCK_SPLIT_RECAST', '0000320193-20-000096', 0, null],
    ]);
    assert.equal(d.restatements_count, 0);
    const eps = d.entries[1].split_recasts.find((r: any) => r.metric === 'EPS_DILUTED');
    assert.deepEqual(eps, {
      metric: 'EPS_DILUTED',
      old_value: '11.890000',
      new_value: '2.970000',
      old_accession: '0000320193-19-000119',
      new_accession: '0000320193-20-000096',
      split_ratio: '4.000000',
      split_date: '2020-08-28',
      split_evidence: 'TAGGED_RATIO',
    });
    assert.deepEqual(d.entries[1].split_recasts.map((r: any) => r.metric), [
      'DIVIDENDS_PER_SHARE', 'EPS_BASIC', 'EPS_DILUTED', 'WEIGHTED_AVERAGE_SHARES_BASIC', 'WEIGHTED_AVERAGE_SHARES_DILUTED',
    ]);
    const alerts = await ok(`/v1/edgar/restatement-alerts?cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2019&fiscal_period=FY`);
    assert.equal(alerts.total, 0, 'the recast raised no alert');
    const restated = await ok(`/v1/edgar/restatement-alerts?cik=${APPLE}&${FY2008}`);
    assert.equal(restated.total, 1, 'the same query finds the fiscal 2008 restatement');
  });
});

describe('metric drift and version delta', () => {
  it('measures net income drift from the original 4,834M to the restated 6,119M', async () => {
    const d = (await ok(`/v1/analysis/metric-drift?ticker=AAPL&${FY2008}&metric=NET_INCOME`)).data;
    assert.equal(d.original.value, '4834000000.000000');
    assert.equal(d.original.source_accession, ORIGINAL);
    assert.equal(d.latest.value, '6119000000.000000');
    assert.equal(d.latest.source_accession, LATER, 'the latest version, which carries the amended figure');
    assert.equal(d.drift, '1285000000.000000');
    assert.equal(d.relative_drift, '0.265825');
    assert.equal(d.moved, true);
    assert.equal(d.versions_count, 3);
    assert.equal(d.revisions_count, 1);
    assert.equal(d.unit, 'USD');
  });

  it('answers a never-revised period 200 with nothing moved', async () => {
    const d = (await ok(`/v1/analysis/metric-drift?cik=${APPLE}&${FY2023}&metric=NET_INCOME`)).data;
    assert.equal(d.versions_count, 2, 'a later version added other figures');
    assert.equal(d.revisions_count, 0);
    assert.equal(d.drift, '0.000000');
    assert.equal(d.moved, false);
    assert.equal(d.status, 'UNCHANGED');
    assert.equal(d.original.value, '96995000000.000000');
    assert.equal(d.latest.value, '96995000000.000000');
  });

  it('refuses market-dependent, unknown and other-statement metrics with 400', async () => {
    const market = await refused(`/v1/analysis/metric-drift?cik=${APPLE}&${FY2008}&metric=MARKET_CAP`, 400, 'VALIDATION_ERROR');
    assert.match(market.message, /MARKET_CAP is market-dependent/);
    const ev = await refused(`/v1/analysis/version-delta?cik=${APPLE}&${FY2008}&metric=ENTERPRISE_VALUE`, 400, 'VALIDATION_ERROR');
    assert.match(ev.message, /market-dependent/);
    const unknown = await refused(`/v1/analysis/metric-drift?cik=${APPLE}&${FY2008}&metric=PROFITZ`, 400, 'VALIDATION_ERROR');
    assert.match(unknown.message, /accepted names: REVENUE/);
    const other = await refused(`/v1/analysis/metric-drift?cik=${APPLE}&${FY2008}&metric=TOTAL_ASSETS`, 400, 'VALIDATION_ERROR');
    assert.match(other.message, /TOTAL_ASSETS is a BALANCE_SHEET metric/);
  });

  it('compares the original with a chosen version, the latest by default, and 404s a version the statement lacks', async () => {
    const latest = (await ok(`/v1/analysis/version-delta?cik=${APPLE}&${FY2008}&metric=REVENUE`)).data;
    assert.equal(latest.compare_version_sequence, 3);
    assert.equal(latest.original.value, '32479000000.000000');
    assert.equal(latest.comparison.value, '37491000000.000000');
    assert.equal(latest.difference, '5012000000.000000');
    const self = (await ok(`/v1/analysis/version-delta?cik=${APPLE}&${FY2008}&metric=REVENUE&compare_version_sequence=1`)).data;
    assert.equal(self.difference, '0.000000');
    assert.equal(self.moved, false);
    const err = await refused(`/v1/analysis/version-delta?cik=${APPLE}&${FY2008}&metric=REVENUE&compare_version_sequence=4`, 404, 'NOT_FOUND');
    assert.match(err.message, /versions on record: 1, 2, 3/);
  });
});

describe('model impact', () => {
  it('recomputes margins, returns and valuation sensitivity on each version of fiscal 2008', async () => {
    const d = (await ok(`/v1/analysis/model-impact?ticker=AAPL&${FY2008}`)).data;
    assert.equal(d.versions_count, 3);
    assert.equal(d.restated, true);
    assert.equal(d.market_inputs.persisted, false);
    const bs = d.held_inputs.find((h: any) => h.statement_type === 'BALANCE_SHEET');
    assert.equal(bs.source_accession, AMENDMENT, 'the balance sheet is held at its latest version');
    const [v1, v2] = d.versions;
    assert.equal(v1.figures.NET_INCOME, '4834000000.000000');
    assert.deepEqual(v1.changes_from_original, []);
    assert.equal(v2.changes_from_original.length, 10);
    const gm = v2.derived.find((m: any) => m.metric === 'GROSS_MARGIN');
    assert.deepEqual([gm.original_value, gm.value, gm.change_from_original], ['0.343145', '0.352004', '0.008860']);
    const roe = v2.derived.find((m: any) => m.metric === 'ROE');
    assert.deepEqual([roe.original_value, roe.value], ['0.216800', '0.274432'], 'net income over period-end equity of 22,297M');
    const pe = v2.valuation_sensitivity.find((m: any) => m.multiple === 'PRICE_TO_EARNINGS');
    assert.equal(pe.factor, '0.789998', 'at an unchanged price the P/E falls to 4834/6119 of the original');
    assert.equal(v1.valuation_sensitivity.find((m: any) => m.multiple === 'PRICE_TO_EARNINGS').factor, '1.000000');
    assert.equal(v2.market_dependent, undefined, 'market outputs left out without allow_market_inputs');
  });

  it('lists market-dependent outputs as null with a reason when market inputs are allowed', async () => {
    const d = (await ok(`/v1/analysis/model-impact?cik=${APPLE}&${FY2023}&allow_market_inputs=true`)).data;
    assert.equal(d.versions_count, 2, 'a later version added figures told first later');
    assert.equal(d.restated, false, 'which is no restatement');
    const market = d.versions[0].market_dependent;
    assert.deepEqual(market.find((m: any) => m.metric === 'MARKET_CAP'), { metric: 'MARKET_CAP', value: null, reason: 'MARKET_DATA_NOT_PERSISTED' });
    assert.ok(market.some((m: any) => m.metric === 'ENTERPRISE_VALUE'), 'enterprise value listed');
    assert.ok(d.versions[0].derived.every((m: any) => m.change_from_original === null || m.change_from_original === '0.000000'), 'nothing moved on a single version');
  });

  it('a Free key reads the restatement routes for a company it holds', async () => {
    const d = (await ok(`/v1/analysis/metric-drift?cik=${APPLE}&${FY2008}&metric=NET_INCOME`, svc.keys.free)).data;
    assert.equal(d.drift, '1285000000.000000');
  });
});
