/**
 * Derived quarters from one line and one basis, reported lines before our arithmetic, quarterly
 * tables re-telling a line under a retired tag, and share counts told a thousandfold apart: the
 * rules on hand-built facts (domain/normalize). The whole-corpus cases are in
 * test/series-coherence-corpus.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filing, history, versionsOf, type Filing, type Row } from './helpers/built-facts.ts';
import type { BuiltVersion } from '../domain/normalize/versions.ts';
import { TAX_IDENTITY } from '../domain/statements/sign-slips.ts';



const value = (v: BuiltVersion | undefined, metric: string) => v?.figures.get(metric)?.value;

const REV = 'us-gaap:Revenues';
const NET_SALES = 'us-gaap:SalesRevenueNet';
const COST = 'us-gaap:CostOfRevenue';
const GROSS = 'us-gaap:GrossProfit';
const OCF = 'us-gaap:NetCashProvidedByUsedInOperatingActivities';
const CAPEX = 'us-gaap:PaymentsToAcquirePropertyPlantAndEquipment';
const DA = 'us-gaap:DepreciationDepletionAndAmortization';
const DA_WIDE = 'us-gaap:DepreciationAndAmortization';
const NI = 'us-gaap:NetIncomeLoss';

const Q1: Filing = { accession: '0000000042-24-000010', form: '10-Q', filed: '2024-05-02', fy: 2024, fp: 'Q1' };
const Q2: Filing = { accession: '0000000042-24-000020', form: '10-Q', filed: '2024-08-01', fy: 2024, fp: 'Q2' };
const Q3: Filing = { accession: '0000000042-24-000030', form: '10-Q', filed: '2024-10-31', fy: 2024, fp: 'Q3' };
const K24: Filing = { accession: '0000000042-25-000005', form: '10-K', filed: '2025-02-14', fy: 2024, fp: 'FY' };
const Q3_25: Filing = { accession: '0000000042-25-000030', form: '10-Q', filed: '2025-10-30', fy: 2025, fp: 'Q3' };
const K25: Filing = { accession: '0000000042-26-000004', form: '10-K', filed: '2026-02-13', fy: 2025, fp: 'FY' };
const K26: Filing = { accession: '0000000042-27-000004', form: '10-K', filed: '2027-02-12', fy: 2026, fp: 'FY' };
const Y24: [string, string] = ['2024-01-01', '2024-12-31'];
const M9: [string, string] = ['2024-01-01', '2024-09-30'];
const H1: [string, string] = ['2024-01-01', '2024-06-30'];
const QUARTER = (n: 1 | 2 | 3 | 4): [string, string] => [['2024-01-01', '2024-04-01', '2024-07-01', '2024-10-01'][n - 1]!, ['2024-03-31', '2024-06-30', '2024-09-30', '2024-12-31'][n - 1]!];
/** each later report's own current period, so its labels are its own and 2024 is a comparative */
const current = (f: Filing): Row => [NI, '1', `${f.fy}-01-01`, f.form === '10-K' ? `${f.fy}-12-31` : '2025-09-30'];

describe('a derived fourth quarter uses the year as served: one line', () => {
  it("nets the nine months from the year a correction chose, under its concept: SunEdison's 2011 revenue, 2,715.5M less 1,997.7M, not the residual 2,268.0M top line", () => {
    const h = history([
      ...filing(Q3, [[NET_SALES, '1997700000', ...M9]]),
      ...filing(K24, [[REV, '2268000000', ...Y24], [NET_SALES, '2715500000', ...Y24], [COST, '2300000000', ...Y24], [GROSS, '415500000', ...Y24]]),
    ]);
    const fy = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY')[0]!.figures.get('REVENUE')!;
    assert.deepEqual([fy.value, fy.correction_rule], ['2715500000', 'REVENUE_RESIDUAL_TOP_LINE_REPLACED']);
    const q4 = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q4')[0]!.figures.get('REVENUE')!;
    assert.equal(q4.value, '717800000');
    assert.deepEqual(q4.calculation_steps!.map((s) => [s.value, s.source_xbrl_concept]), [['2715500000', NET_SALES], ['1997700000', NET_SALES]]);
  });

  it("takes the fourth quarter of the year's own line over a reported three-month figure of another line the filing tells beside it: Walmart's fiscal 2011 total revenues, not its net sales", () => {
    const h = history([
      ...filing(Q3, [[REV, '305489000000', ...M9], [NET_SALES, '303352000000', ...M9]]),
      ...filing(K24, [
        [REV, '421849000000', ...Y24], [NET_SALES, '418952000000', ...Y24], [NET_SALES, '115600000000', ...QUARTER(4)],
        [NET_SALES, '99097000000', ...QUARTER(1)], [NET_SALES, '103016000000', ...QUARTER(2)], [NET_SALES, '101239000000', ...QUARTER(3)],
      ]),
    ]);
    const q4 = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q4')[0]!.figures.get('REVENUE')!;
    assert.deepEqual([q4.value, q4.value_origin], ['116360000000', 'DERIVED'], '421,849M - 305,489M, not 115,600M of net sales');
    const alone = history([...filing(Q3, [[REV, '305489000000', ...M9]]), ...filing(K24, [[REV, '421849000000', ...Y24], [NET_SALES, '116360000000', ...QUARTER(4)]])]);
    const reported = versionsOf(alone, 'INCOME_STATEMENT', 2024, 'Q4')[0]!.figures.get('REVENUE')!;
    assert.deepEqual([reported.value, reported.value_origin], ['116360000000', 'SOURCE'], 'a three-month figure of a tag the filing does not tell for the year is the line re-tagged: reported stands');
  });

  it('does not net an annual report\'s quarterly table of another line against the year: the year less the nine months of its own line', () => {
    const h = history([
      ...filing(Q3, [[REV, '300', ...M9]]),
      ...filing(K24, [[REV, '420', ...Y24], [NET_SALES, '90', ...QUARTER(1)], [NET_SALES, '95', ...QUARTER(2)], [NET_SALES, '97', ...QUARTER(3)]]),
    ]);
    const q4 = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q4')[0]!.figures.get('REVENUE')!;
    assert.deepEqual(q4.calculation_steps!.map((s) => [s.value, s.source_xbrl_concept]), [['420', REV], ['300', REV]]);
  });

  it("nets the nine months of the year's own line where the ten-Q told two: McDonald's 2019 depreciation, and never a later filing's other line of the year (OTHER_LINE_THAN_SERVED_YEAR)", () => {
    const h = history([
      ...filing(Q3, [[DA_WIDE, '1204', ...M9], [DA, '193', ...M9]]),
      ...filing(K24, [[DA_WIDE, '1617', ...Y24]]),
      ...filing(K25, [current(K25), [DA_WIDE, '1617', ...Y24], [DA, '262', ...Y24]]),
    ]);
    const q4 = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4');
    assert.deepEqual(q4.map((v) => value(v, 'DEPRECIATION_AND_AMORTIZATION')), ['413'], '1,617 - 1,204 under DepreciationAndAmortization; not 262 - 193 of the narrower line');
    assert.deepEqual(q4[0]!.figures.get('DEPRECIATION_AND_AMORTIZATION')!.calculation_steps!.map((s) => s.source_xbrl_concept), [DA_WIDE, DA_WIDE]);
    const told = history([
      ...filing(Q3, [[DA_WIDE, '1204', ...M9], [DA, '193', ...M9]]),
      ...filing(K24, [[DA_WIDE, '1617', ...Y24]]),
      ...filing(K25, [current(K25), [DA_WIDE, '1617', ...Y24], [DA, '262', ...Y24], [OCF, '5', ...Y24]]),
    ]);
    assert.deepEqual(versionsOf(told, 'CASH_FLOW_STATEMENT', 2024, 'Q4').map((v) => value(v, 'DEPRECIATION_AND_AMORTIZATION')), ['413']);
  });

  it("withdraws a fourth quarter derived from the year as first told once the year served (kept under its line by concept continuity) is another figure: Walmart's fiscal 2012 depreciation, a version that revises nothing", () => {
    const h = history([
      ...filing(Q3, [[DA_WIDE, '6067', ...M9]]),
      ...filing(K24, [[DA_WIDE, '8130', ...Y24]]),
      ...filing(K25, [current(K25), [DA_WIDE, '8106', ...Y24], [DA, '8130', ...Y24]]),
    ]);
    const [q4a, q4b] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q4').concat(versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4'));
    assert.equal(value(q4a, 'DEPRECIATION_AND_AMORTIZATION') ?? value(q4b, 'DEPRECIATION_AND_AMORTIZATION'), '2063');
    const cf = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4');
    const last = cf.at(-1)!;
    assert.equal(last.figures.has('DEPRECIATION_AND_AMORTIZATION'), false, 'the year served is 8,106 under DepreciationAndAmortization; 8,130 - 6,067 nets another telling');
    assert.equal(last.unavailable.get('DEPRECIATION_AND_AMORTIZATION')?.reason, 'YEAR_RETOLD_WITHOUT_NINE_MONTHS');
    assert.deepEqual(last.revisions, []);
  });
});

describe('a derived fourth quarter uses the year as served: one basis', () => {
  const quarterly = [...filing(Q1, [[OCF, '3981', ...QUARTER(1)]]), ...filing(Q2, [[OCF, '7907', ...H1]]), ...filing(Q3, [[OCF, '10036', ...M9]])];

  it("withdraws a fourth quarter whose year a later report told again without nine months on its basis: Home Depot's fiscal 2018 operating cash flow, 13,038M then 13,165M", () => {
    const h = history([...quarterly, ...filing(K24, [[OCF, '13038', ...Y24]]), ...filing(K26, [current(K26), [OCF, '13165', ...Y24]])]);
    const q4 = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4');
    assert.deepEqual(q4.map((v) => value(v, 'OPERATING_CASH_FLOW')), ['3002', undefined]);
    const u = q4[1]!.unavailable.get('OPERATING_CASH_FLOW')!;
    assert.equal(u.reason, 'YEAR_RETOLD_WITHOUT_NINE_MONTHS');
    assert.deepEqual(u.calculation_steps.map((s) => [s.operation, s.value]), [['base', '13165'], ['subtract', '10036']], 'the year served and the nine months it would mix with');
    assert.deepEqual([q4[1]!.revisions, q4[1]!.filing.accession], [[], K26.accession], 'no revision, no alert: seen from the re-telling filing on');
    const fy = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'FY');
    assert.deepEqual(fy.map((v) => value(v, 'OPERATING_CASH_FLOW')), ['13038', '13165']);
  });

  it("brings the fourth quarter back once nine months on the restated year's basis are told, as a revision of the one withdrawn: Apple's fiscal 2009 revenue, 9,870M, withdrawn by its 10-K/A, 12,207M from its 10-Q of July 2010", () => {
    const KA: Filing = { accession: '0000000042-25-000007', form: '10-K/A', filed: '2025-03-20', fy: 2024, fp: 'FY' };
    const h = history([
      ...quarterly,
      ...filing(K24, [[OCF, '13038', ...Y24]]),
      ...filing(KA, [[OCF, '13165', ...Y24]]),
      ...filing(Q3_25, [current(Q3_25), [OCF, '10102', ...M9]]),
    ]);
    const q4 = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4');
    assert.deepEqual(q4.map((v) => value(v, 'OPERATING_CASH_FLOW')), ['3002', undefined, '3063']);
    assert.deepEqual(q4[1]!.revisions, [], 'withdrawn: nothing revised yet');
    assert.deepEqual(q4[2]!.revisions.map((r) => [r.old_value, r.new_value]), [['3002', '3063']], 'the quarter served before, revised by the restated pair');
    assert.equal(q4[2]!.unavailable.has('OPERATING_CASH_FLOW'), false);
  });

  it('re-derives the fourth quarter where the nine months were told anew before the year was: a restated pair', () => {
    const h = history([...quarterly, ...filing(K24, [[OCF, '13038', ...Y24]]), ...filing(Q3_25, [current(Q3_25), [OCF, '10100', ...M9]]), ...filing(K25, [current(K25), [OCF, '13165', ...Y24]])]);
    assert.deepEqual(versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4').map((v) => value(v, 'OPERATING_CASH_FLOW')), ['3002', '3065'], '13,165 - 10,100');
  });

  it("withdraws it where the year was told again once more after the pair: Kraft Heinz's 2017, re-told by its 10-Ks of 2019 and 2020", () => {
    const h = history([
      ...quarterly,
      ...filing(K24, [[OCF, '13038', ...Y24]]),
      ...filing(K25, [current(K25), [OCF, '13165', ...Y24], [OCF, '10100', ...M9]]),
      ...filing(K26, [current(K26), [OCF, '13207', ...Y24]]),
    ]);
    const q4 = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4');
    assert.deepEqual(q4.map((v) => value(v, 'OPERATING_CASH_FLOW')), ['3002', '3065', undefined], "the 10-K of 2025's own year and nine months, then nothing");
    assert.equal(q4[2]!.unavailable.get('OPERATING_CASH_FLOW')!.reason, 'YEAR_RETOLD_WITHOUT_NINE_MONTHS');
  });

  it("reads an annual report's six and nine months and derives its quarters from them: the restatement note's basis", () => {
    const h = history([...quarterly, ...filing(K25, [current(K25), [OCF, '3905', ...QUARTER(1)], [OCF, '7803', ...H1], [OCF, '10012', ...M9], [OCF, '13019', ...Y24]])]);
    assert.deepEqual(versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q3').map((v) => value(v, 'OPERATING_CASH_FLOW')), ['2129', '2209'], '10,036 - 7,907, then 10,012 - 7,803');
    assert.deepEqual(versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q2').map((v) => value(v, 'OPERATING_CASH_FLOW')), ['3926', '3898'], 'its six months less its own first quarter');
    assert.deepEqual(versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4').map((v) => value(v, 'OPERATING_CASH_FLOW')), ['3007'], '13,019 - 10,012, one filing');
  });
});

describe('a derivation a never-negative line cannot take is not served', () => {
  it('records NEGATIVE_DERIVATION where the year-to-date of capital expenditures shrank, and serves no quarter', () => {
    const h = history([...filing(Q2, [[CAPEX, '500', ...H1], [NI, '1', ...H1]]), ...filing(Q3, [[CAPEX, '420', ...M9], [NI, '2', ...M9]])]);
    const [q3] = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q3');
    assert.equal(q3?.figures.has('CAPITAL_EXPENDITURES') ?? false, false);
    const h2 = history([...filing(Q2, [[CAPEX, '500', ...H1], [OCF, '7', ...H1]]), ...filing(Q3, [[CAPEX, '420', ...M9], [OCF, '9', ...M9]])]);
    const v = versionsOf(h2, 'CASH_FLOW_STATEMENT', 2024, 'Q3')[0]!;
    assert.equal(value(v, 'OPERATING_CASH_FLOW'), '2', 'the statement stands for its other lines');
    assert.deepEqual([v.unavailable.get('CAPITAL_EXPENDITURES')?.reason, v.unavailable.get('CAPITAL_EXPENDITURES')?.value], ['NEGATIVE_DERIVATION', '-80']);
  });
});

describe('reported beats imputed', () => {
  const Q1_25: Filing = { accession: '0000000042-25-000010', form: '10-Q', filed: '2025-05-07', fy: 2025, fp: 'Q1' };
  const first = filing(Q1, [['us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', '11117000', ...QUARTER(1)], [COST, '44027000', ...QUARTER(1)], [GROSS, '-32910000', ...QUARTER(1)]]);
  const later = (gross: string, cost: string) => filing(Q1_25, [[GROSS, gross, ...QUARTER(1)], [COST, cost, ...QUARTER(1)], [NI, '1', '2025-01-01', '2025-03-31']]);

  it('keeps the revenue the filer reported where a later filing only implies another through a gross profit or a cost it did not re-tell', () => {
    const h = history([...first, ...later('-32470000', '44027000')]);
    const q1 = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q1');
    assert.deepEqual(q1.map((v) => value(v, 'REVENUE')), ['11117000', '11117000']);
    assert.deepEqual(q1.flatMap((v) => v.revisions.map((r) => r.metric)), ['GROSS_PROFIT']);
  });

  it("takes the imputed revenue as a revision where the filer re-told both its inputs: Nikola's Q1 2023, 11,117,000 then 10,677,000", () => {
    const h = history([...first, ...later('-22697000', '33374000')]);
    const q1 = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q1');
    assert.deepEqual(q1.map((v) => value(v, 'REVENUE')), ['11117000', '10677000']);
    assert.deepEqual(q1[1]!.figures.get('REVENUE')!.mapping_type, 'DERIVED_IDENTITY');
  });
});

describe('concept continuity through tag changes', () => {
  const COGS_OLD = 'us-gaap:CostOfGoodsSold';
  const COGS_NEW = 'us-gaap:CostOfGoodsAndServicesSold';

  it("reads a quarterly table's line under a tag the filer retired as the line re-told: Kraft Heinz's Q2 2017 cost of revenue, 4,204M then 4,227M", () => {
    const h = history([...filing(Q2, [[COGS_OLD, '4204000000', ...QUARTER(2)]]), ...filing(K25, [current(K25), [COGS_NEW, '17000000000', '2025-01-01', '2025-12-31'], [COGS_NEW, '4227000000', ...QUARTER(2)]])]);
    const q2 = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q2');
    assert.deepEqual(q2.map((v) => value(v, 'COST_OF_REVENUE')), ['4204000000', '4227000000']);
    assert.deepEqual(q2[1]!.revisions.map((r) => [r.old_concept, r.new_concept]), [[COGS_OLD, COGS_NEW]]);
    const stillTold = history([
      ...filing(Q2, [[COGS_OLD, '4204000000', ...QUARTER(2)]]),
      ...filing(K25, [current(K25), [COGS_OLD, '16000000000', '2025-01-01', '2025-12-31'], [COGS_NEW, '17000000000', '2025-01-01', '2025-12-31'], [COGS_NEW, '4227000000', ...QUARTER(2)]]),
    ]);
    assert.equal(versionsOf(stillTold, 'INCOME_STATEMENT', 2024, 'Q2').length, 1, 'the old tag still told by the filing: another line');
  });

  it("keeps the figure on record where its tag now tells a part and a wider candidate tells the figure: Herc's 2021 revenue, 2,073.1M under Revenues, not 273M", () => {
    const RFC = 'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax';
    const h = history([...filing(K24, [[RFC, '2073100000', ...Y24]]), ...filing(K26, [current(K26), [REV, '2073100000', ...Y24], [RFC, '273000000', ...Y24]])]);
    const fy = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.deepEqual(fy.map((v) => value(v, 'REVENUE')), ['2073100000']);
  });
});

describe('share counts told a thousandfold apart', () => {
  const SHARES = 'us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding';
  const BASIC = 'us-gaap:WeightedAverageNumberOfSharesOutstandingBasic';

  it("take the larger as the count: NVIDIA's fiscal 2010 weighted shares, 549,574 then 549,574,000, served in a version that revises nothing, with a finding", () => {
    const h = history([...filing(K24, [[SHARES, '549574', ...Y24], [BASIC, '549574', ...Y24], [NI, '-60000000', ...Y24]]), ...filing(K25, [current(K25), [SHARES, '549574000', ...Y24], [BASIC, '549574000', ...Y24]])]);
    const fy = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.deepEqual(fy.map((v) => value(v, 'WEIGHTED_AVERAGE_SHARES_DILUTED')), ['549574', '549574000']);
    assert.deepEqual(fy[1]!.revisions, []);
    assert.deepEqual(h.slips.map((s) => [s.kind, s.metric, s.corrects]).sort(), [['SCALE', 'WEIGHTED_AVERAGE_SHARES_BASIC', true], ['SCALE', 'WEIGHTED_AVERAGE_SHARES_DILUTED', true]]);
  });

  it("keep the larger on record where the later filing tells the thousandth: McDonald's 741,300,000 re-tagged as 741.3", () => {
    const h = history([...filing(K24, [[SHARES, '741300000', ...Y24], [NI, '7', ...Y24]]), ...filing(K25, [current(K25), [SHARES, '741.3', ...Y24]])]);
    assert.deepEqual(versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY').map((v) => value(v, 'WEIGHTED_AVERAGE_SHARES_DILUTED')), ['741300000']);
    assert.deepEqual(h.slips.map((s) => s.corrects), [false]);
  });
});

describe('net income told with the opposite sign alone, with its per-share figures', () => {
  it("is decided by pretax income less the tax where neither moved: Herc's Q2 2018 net loss of 0.3M stays a loss, no revision", () => {
    const PRETAX = 'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest';
    const TAX = 'us-gaap:IncomeTaxExpenseBenefit';
    const EPS = 'us-gaap:EarningsPerShareDiluted';
    const h = history([
      ...filing(Q2, [[PRETAX, '500000', ...QUARTER(2)], [TAX, '800000', ...QUARTER(2)], [NI, '-300000', ...QUARTER(2)], [EPS, '-0.01', ...QUARTER(2)]]),
      ...filing(K25, [current(K25), [NI, '300000', ...QUARTER(2)], [EPS, '0.01', ...QUARTER(2)], [PRETAX, '500000', ...QUARTER(2)], [TAX, '800000', ...QUARTER(2)]]),
    ]);
    const q2 = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q2');
    assert.ok(q2.every((v) => value(v, 'NET_INCOME') === '-300000' && v.revisions.length === 0));
    assert.ok(h.slips.some((s) => s.kind === 'SIGN' && s.metric === 'NET_INCOME' && s.witness === TAX_IDENTITY && !s.corrects));
  });
});
