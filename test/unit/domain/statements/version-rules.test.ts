/**
 * The one version rule (domain/statements/versions.ts) and what ingestion builds with it, on
 * hand-built facts: same figure, scale slips, concept continuity, quarters in annual reports,
 * later figures, imputed totals and sign flips named in provenance. The whole-corpus proofs are in
 * test/fidelity-corpus.test.ts.
 */
import assert from 'node:assert/strict';
import { Decimal } from 'decimal.js';
import { describe, it } from 'node:test';
import { filing, history, versionsOf, type Filing, type Row } from '../../../helpers/built-facts.ts';
import type { StatementHistory } from '../../../../domain/normalize/history.ts';
import type { BuiltVersion } from '../../../../domain/normalize/versions.ts';
import { leadingPlace } from '../../../../domain/decimal.ts';
import { balanceWitness, isSignSlip, jointTaxWitness, NON_NEGATIVE_METRIC, signWitness, taxIdentityWitness, TAX_IDENTITY, yearToDateWitness, YEAR_TO_DATE_IDENTITY } from '../../../../domain/statements/sign-slips.ts';
import { evidentSplit, splitFactors, splitRecastOf, stockSplits } from '../../../../domain/statements/stock-splits.ts';
import { compareFigures, isScaleSlip, morePrecise, precisionUnit, sameFigure, slippedSide } from '../../../../domain/statements/versions.ts';
import type { FiscalPeriod } from '../../../../domain/statement-types.ts';
import { seededRandom } from '../../../helpers/seeded-random.ts';

const isSplitRecast = (...args: Parameters<typeof splitRecastOf>) => splitRecastOf(...args) !== null;




const REV = 'us-gaap:Revenues';
const NI = 'us-gaap:NetIncomeLoss';
const GROSS = 'us-gaap:GrossProfit';
const COST = 'us-gaap:CostOfRevenue';
const SHARES = 'us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding';
const DA = 'us-gaap:DepreciationDepletionAndAmortization';
const DA_WIDE = 'us-gaap:DepreciationAndAmortization';
const CAPEX_PROCEEDS = 'us-gaap:ProceedsFromSaleOfPropertyPlantAndEquipment';
const K24: Filing = { accession: '0000000042-25-000005', form: '10-K', filed: '2025-02-14', fy: 2024, fp: 'FY' };
const K25: Filing = { accession: '0000000042-26-000004', form: '10-K', filed: '2026-02-13', fy: 2025, fp: 'FY' };
const Q1: Filing = { accession: '0000000042-24-000010', form: '10-Q', filed: '2024-05-02', fy: 2024, fp: 'Q1' };
const Q2: Filing = { accession: '0000000042-24-000020', form: '10-Q', filed: '2024-08-01', fy: 2024, fp: 'Q2' };
const Q3: Filing = { accession: '0000000042-24-000030', form: '10-Q', filed: '2024-10-31', fy: 2024, fp: 'Q3' };
const Y24: [string, string] = ['2024-01-01', '2024-12-31'];
const Y23: [string, string] = ['2023-01-01', '2023-12-31'];
/** the fiscal 2025 10-K's own current year, so its label votes for 2025 and its 2024 columns are comparatives */
const CURRENT25: Row = [NI, '7000000', '2025-01-01', '2025-12-31'];

describe('the same figure', () => {
  it('agrees at the coarser precision read from the text: 23,182,600,000 and 23,183,000,000 are one figure', () => {
    assert.equal(sameFigure({ value: '23182600000' }, { value: '23183000000' }), true);
    assert.equal(sameFigure({ value: '95799932' }, { value: '95800000' }), true);
    assert.equal(sameFigure({ value: '6264500000' }, { value: '6264000000' }), true, '6,264.46M rounds to both');
    assert.equal(sameFigure({ value: '95799932' }, { value: '95700000' }), false);
    assert.equal(sameFigure({ value: '95799932' }, { value: '95799933' }), false, 'one precision: only equal values agree');
  });

  it('needs two significant digits at the coarse precision: 1,700,000 and 2,000,000 are not one figure', () => {
    assert.equal(sameFigure({ value: '1700000' }, { value: '2000000' }), false);
    assert.equal(sameFigure({ value: '0' }, { value: '0.4' }), false);
  });

  it("reads precision from the instance's decimals where a package gave them", () => {
    assert.equal(precisionUnit({ value: '230000000', decimals: '-6' }).toFixed(), '1000000');
    assert.equal(precisionUnit({ value: '230000000' }).toFixed(), '10000000', 'the text alone: ten millions');
    assert.equal(sameFigure({ value: '230000000', decimals: '-6' }, { value: '231000000', decimals: '-6' }), false);
    assert.equal(sameFigure({ value: '23182600000', decimals: '-5' }, { value: '23183000000', decimals: '-6' }), true);
  });

  it('decides whole numbers told by their text alone as decimal.js does', () => {
    // decimals 'INF' reads precision from the text too, but keeps the comparison in decimal.js:
    const { rand, pick } = seededRandom(0x51de);
    const seen = new Set<boolean>();
    for (let i = 0; i < 5000; i++) {
      const base = BigInt(Math.floor(rand() * 1e9)) * 10n ** BigInt(Math.floor(rand() * 8));
      const round = (v: bigint, unit: bigint) => ((v + unit / 2n) / unit) * unit;
      const other = pick([base, base + 1n, base - 7n, round(base, 1000n), round(base, 1_000_000n), round(base, 100_000n), base + pick([1n, 5n, 49n, 50n, 500n, 5000n]) * 10n ** BigInt(Math.floor(rand() * 6)), 0n, base * 1000n]);
      const sign = rand() < 0.15 ? -1n : 1n;
      const a = String(base * sign);
      const b = String(other * (rand() < 0.05 ? -sign : sign));
      const fast = sameFigure({ value: a }, { value: b });
      assert.equal(fast, sameFigure({ value: a, decimals: 'INF' }, { value: b, decimals: 'INF' }), `${a} vs ${b}`);
      seen.add(fast);
    }
    assert.deepEqual([...seen].sort(), [false, true]);
    for (const [a, b] of [['0', '-0'], ['007', '7'], ['-0', '00'], ['1000', '999'], ['-1000', '-1049'], ['-1000', '-1050'], ['10', '14'], ['100', '95']]) {
      assert.equal(sameFigure({ value: a! }, { value: b! }), sameFigure({ value: a!, decimals: 'INF' }, { value: b!, decimals: 'INF' }), `${a} vs ${b}`);
    }
  });

  it('keeps the more precise text of one figure', () => {
    assert.equal(morePrecise({ value: '23183000000' }, { value: '23182600000' }).value, '23182600000');
    assert.equal(morePrecise({ value: '23182600000' }, { value: '23183000000' }).value, '23182600000');
  });

  it("lets a derived value differ by its inputs' rounding: a Q4 of 185,208,000 and a reported 185,207,000", () => {
    const derived = { value: '185208000', calculation_steps: [{ value: '740001000' }, { value: '554793000' }] };
    assert.equal(compareFigures(derived, { value: '185207000' }), 'SAME');
    assert.equal(compareFigures(derived, { value: '185000000', decimals: '-3' }), 'REVISED');
  });
});

describe('scale slips', () => {
  it('are a value times or divided by 1,000 or 1,000,000 of the previous one: 741,300,000 shares re-tagged as 741.3', () => {
    assert.equal(isScaleSlip({ value: '741300000' }, { value: '741.3' }), true);
    assert.equal(isScaleSlip({ value: '26.3' }, { value: '26300000' }), true);
    assert.equal(isScaleSlip({ value: '5000' }, { value: '5' }), true);
    assert.equal(isScaleSlip({ value: '1617900000' }, { value: '262500000' }), false);
    assert.equal(isScaleSlip({ value: '-741300000' }, { value: '741.3' }), false, 'a sign change is no slip');
    assert.equal(compareFigures({ value: '741300000' }, { value: '741.3' }), 'SCALE_SLIP');
  });

  it('are rejected early only where no scaling could make the same figure', () => {
    assert.deepEqual(['741300000', '-741.3', '0.05', '0.5', '10', '-0', '0.000', '007'].map(leadingPlace), [8, 2, -2, -1, 1, null, null, 0]);
    // the definition without the early reject: the value times or divided by 1,000 or 1,000,000 is the same figure
    const bySearch = (before: string, after: string) => {
      const b = new Decimal(before);
      const a = new Decimal(after);
      if (b.isZero() || a.isZero() || b.isNegative() !== a.isNegative()) return false;
      for (const f of [1000, 1_000_000]) {
        for (const scaled of [b.times(f), b.dividedBy(f)]) if (sameFigure({ value: scaled.toFixed(), decimals: null }, { value: after, decimals: null })) return true;
      }
      return false;
    };
    const { rand, pick } = seededRandom(0x511b);
    const seen = new Set<boolean>();
    for (let i = 0; i < 3000; i++) {
      const base = new Decimal(Math.floor(rand() * 1e6) + 1).times(new Decimal(10).pow(Math.floor(rand() * 14) - 6));
      const other = base.times(pick(['1', '1000', '0.001', '1000000', '0.000001', '1.04', '0.96', '1040', '0.00095', '950000', '9', '0.1', '100', '12000', '0']));
      const before = base.toFixed();
      const after = (rand() < 0.1 ? other.negated() : other).toDecimalPlaces(pick([0, 2, 4, 9])).toFixed();
      const slip = isScaleSlip({ value: before }, { value: after });
      assert.equal(slip, bySearch(before, after), `${before} -> ${after}`);
      seen.add(slip);
    }
    assert.deepEqual([...seen].sort(), [false, true]);
  });

  it('make no version and are recorded with both values and accessions', () => {
    const h = history([...filing(K24, [[SHARES, '741300000', ...Y24]]), ...filing(K25, [CURRENT25, [SHARES, '741.3', ...Y24]])]);
    assert.equal(versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY').length, 1);
    assert.deepEqual(
      h.slips.map((s) => [s.metric, s.previous.value, s.previous.source_accession, s.filed.value, s.accession, s.version_sequence]),
      [['WEIGHTED_AVERAGE_SHARES_DILUTED', '741300000', K24.accession, '741.3', K25.accession, 1]],
    );
  });

  it('keep the previous value under an override when the filing makes a version for other reasons', () => {
    const h = history([...filing(K24, [[SHARES, '741300000', ...Y24], [NI, '100000000', ...Y24]]), ...filing(K25, [CURRENT25, [SHARES, '741.3', ...Y24], [NI, '120000000', ...Y24]])]);
    const [, v2] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.ok(v2);
    const shares = v2.figures.get('WEIGHTED_AVERAGE_SHARES_DILUTED')!;
    assert.deepEqual([shares.value, shares.correction_rule, shares.as_filed_value, shares.source_accession], ['741300000', 'SCALE_SLIP_PREVIOUS_VALUE_KEPT', '741.3', K25.accession]);
    assert.deepEqual(v2.revisions.map((r) => r.metric), ['NET_INCOME'], 'the slip is no revision');
    assert.equal(h.slips[0]!.version_sequence, 2, 'the finding sits on the version the filing made');
  });
});

describe('which side slipped', () => {
  it('a later value that fits the statement corrects an earlier slip: replaced in a version that revises nothing', () => {
    const h = history([
      ...filing(K24, [[NI, '1000000000', ...Y24], [GROSS, '5000000000', ...Y24], ['us-gaap:AssetImpairmentCharges', '26.3', ...Y24]]),
      ...filing(K25, [CURRENT25, ['us-gaap:AssetImpairmentCharges', '26300000', ...Y24]]),
    ]);
    const [, v2] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.ok(v2);
    assert.equal(v2.figures.get('ASSET_IMPAIRMENT_CHARGES')!.value, '26300000');
    assert.deepEqual(v2.revisions, []);
    assert.deepEqual(h.slips.map((s) => [s.metric, s.corrects]), [['ASSET_IMPAIRMENT_CHARGES', true]]);
  });

  it('judges the slip by the typical size of the same-unit figures, the earlier value standing without them', () => {
    assert.equal(slippedSide({ value: '26.3' }, { value: '26300000' }, ['1000000000', '5000000000']), 'BEFORE');
    assert.equal(slippedSide({ value: '741300000' }, { value: '741.3' }, ['736500000']), 'AFTER');
    assert.equal(slippedSide({ value: '26.3' }, { value: '26300000' }, []), 'AFTER');
  });
});

describe('concept continuity', () => {
  it('keeps the concept while the filer keeps reporting it; a narrower tag appearing later moves nothing', () => {
    const h = history([...filing(K24, [[DA_WIDE, '1617900000', ...Y24]]), ...filing(K25, [CURRENT25, [DA, '262500000', ...Y24], [DA_WIDE, '1617900000', ...Y24], [NI, '5', ...Y24]])]);
    const vs = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'FY');
    assert.equal(vs.length, 1, 'no version: the figure the period has is still told');
  });

  it('records CONCEPT_CONTINUITY when a version made for other reasons keeps the old concept', () => {
    const h = history([
      ...filing(K24, [[DA_WIDE, '1617900000', ...Y24]]),
      ...filing(K25, [CURRENT25, [DA, '262500000', ...Y24], [DA_WIDE, '1617900000', ...Y24], [CAPEX_PROCEEDS, '7000000', ...Y24]]),
    ]);
    const [v1, v2] = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'FY');
    assert.equal(v1!.figures.get('DEPRECIATION_AND_AMORTIZATION')!.source_xbrl_concept, DA_WIDE);
    const da = v2!.figures.get('DEPRECIATION_AND_AMORTIZATION')!;
    assert.equal(da.value, '1617900000');
    assert.equal(da.source_xbrl_concept, DA_WIDE);
    assert.deepEqual(v2!.revisions, []);
  });

  it('moves when the filer stops reporting the old concept: a re-tag, a restatement naming both concepts when the value changed', () => {
    const h = history([...filing(K24, [[DA_WIDE, '1617900000', ...Y24]]), ...filing(K25, [CURRENT25, [DA, '262500000', ...Y24]])]);
    const [, v2] = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'FY');
    assert.ok(v2);
    assert.deepEqual(v2.revisions.map((r) => [r.old_concept, r.new_concept]), [[DA_WIDE, DA]]);
  });
});

describe('concept continuity after a correction', () => {
  const SALES = 'us-gaap:SalesRevenueNet';
  const GOODS = 'us-gaap:SalesRevenueGoodsNet';
  const Q1_25: Filing = { accession: '0000000042-25-000010', form: '10-Q', filed: '2025-05-01', fy: 2025, fp: 'Q1' };
  const Q1_24: [string, string] = ['2024-01-01', '2024-03-31'];
  /** the 2025 10-Q's own quarter, so its label votes for 2025 and its 2024 columns are comparatives */
  const own25: Row[] = [[SALES, '1200000000', '2025-01-01', '2025-03-31'], [NI, '1000000', '2025-01-01', '2025-03-31']];
  /** one filing's Q1 2024 income lines: total revenue under `total`, product sales under `product` */
  const lines = (total: string, product: string, extra: Row[] = []): Row[] => [
    [total, '1047702000', ...Q1_24],
    [product, '1010518000', ...Q1_24],
    [COST, '567066000', ...Q1_24],
    [GROSS, '480636000', ...Q1_24],
    ...extra,
  ];
  const revenues = (h: StatementHistory) => versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q1').map((v) => v.figures.get('REVENUE')!.value);
  const revisedRevenue = (h: StatementHistory) => versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q1').flatMap((v) => v.revisions.filter((r) => r.metric === 'REVENUE'));

  it('does not hold a concept a correction chose: tags swapped back by the next filing keep the revenue its gross profit proves, unrevised (Under Armour 2016)', () => {
    // the first 10-Q tags its total as product sales and product sales as the total; gross profit proves which is which
    const h = history([...filing(Q1, lines(GOODS, SALES)), ...filing(Q1_25, [...own25, ...lines(SALES, GOODS, [[NI, '30000000', ...Q1_24]])])]);
    const [v1] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q1');
    const first = v1!.figures.get('REVENUE')!;
    assert.deepEqual([first.value, first.correction_rule, first.as_filed_concept], ['1047702000', 'REVENUE_RESIDUAL_TOP_LINE_REPLACED', SALES]);
    assert.deepEqual(revenues(h), ['1047702000', '1047702000'], 'the version the new net income makes keeps the total, not the product line under the corrected concept');
    assert.deepEqual(revisedRevenue(h), []);
  });

  it('does not undo a correction the later filing proves by going back to the concept on record', () => {
    const h = history([...filing(Q1, lines(SALES, GOODS)), ...filing(Q1_25, [...own25, ...lines(GOODS, SALES, [[NI, '30000000', ...Q1_24]])])]);
    // the later filing's revenue (corrected to its total under GOODS) is the figure on record: nothing moves
    assert.deepEqual(revenues(h), ['1047702000', '1047702000'], 'not the product line the later filing tags under the concept on record');
    assert.deepEqual(revisedRevenue(h), []);
  });
});

describe('quarters in annual reports', () => {
  const quarters = [
    ...filing(Q1, [[NI, '10000000', '2024-01-01', '2024-03-31']]),
    ...filing(Q2, [[NI, '20000000', '2024-04-01', '2024-06-30']]),
    ...filing(Q3, [[NI, '30000000', '2024-07-01', '2024-09-30'], [NI, '60000000', '2024-01-01', '2024-09-30']]),
  ];

  it("restate a quarter like any later filing: the 10-K's three-month figure makes version 2", () => {
    const h = history([...quarters, ...filing(K24, [[NI, '100000000', ...Y24], [NI, '35000000', '2024-07-01', '2024-09-30']])]);
    const q3 = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q3');
    assert.deepEqual(q3.map((v) => v.figures.get('NET_INCOME')!.value), ['30000000', '35000000']);
    assert.equal(q3[1]!.filing.accession, K24.accession);
    assert.deepEqual(q3[1]!.revisions.map((r) => [r.old_value, r.new_value]), [['30000000', '35000000']]);
  });

  it('a Q4 the company reports is SOURCE and wins over the derived one', () => {
    const h = history([...quarters, ...filing(K24, [[NI, '100000000', ...Y24], [NI, '41000000', '2024-10-01', '2024-12-31']])]);
    const [q4] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q4');
    const ni = q4!.figures.get('NET_INCOME')!;
    assert.deepEqual([ni.value, ni.value_origin], ['41000000', 'SOURCE']);
  });

  it('a derived Q4 uses the latest year and the quarters the annual report tells', () => {
    const h = history([
      ...quarters,
      ...filing(K24, [[NI, '100000000', ...Y24], [NI, '10000000', '2024-01-01', '2024-03-31'], [NI, '20000000', '2024-04-01', '2024-06-30'], [NI, '35000000', '2024-07-01', '2024-09-30']]),
    ]);
    const ni = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q4')[0]!.figures.get('NET_INCOME')!;
    assert.equal(ni.value, '35000000', '100 - 10 - 20 - 35, not 100 - 60 (the stale nine months)');
    assert.deepEqual(ni.calculation_steps!.map((s) => [s.operation, s.value]), [['base', '100000000'], ['subtract', '10000000'], ['subtract', '20000000'], ['subtract', '35000000']]);
  });

  it('a quarterly table line under another concept is another line, not the metric re-tagged', () => {
    const h = history([...filing(Q3, [[REV, '500000000', '2024-07-01', '2024-09-30']]), ...filing(K24, [[REV, '2000000000', ...Y24], ['us-gaap:SalesRevenueNet', '480000000', '2024-07-01', '2024-09-30']])]);
    assert.equal(versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q3').length, 1);
  });
});

describe('later figures', () => {
  it('a figure no earlier version had adds a version that revises nothing, seen from its filing date', () => {
    const h = history([...filing(K24, [[NI, '100000000', ...Y24]]), ...filing(K25, [CURRENT25, [GROSS, '400000000', ...Y24]])]);
    const [, v2] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.ok(v2);
    assert.deepEqual(v2.revisions, []);
    assert.equal(v2.filing.filing_date, K25.filed);
    assert.equal(v2.figures.get('GROSS_PROFIT')!.value, '400000000');
    assert.equal(v2.figures.get('NET_INCOME')!.source_accession, K24.accession, 'figures it did not change keep their source');
  });
});

describe('imputed totals and sign conventions', () => {
  it('revenue = gross profit + cost of revenue of the same filing when no revenue tag is there, DERIVED with its steps', () => {
    const h = history(filing(K24, [[GROSS, '-214067000', ...Y24], [COST, '249906000', ...Y24], [NI, '-1', ...Y24]]));
    const rev = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY')[0]!.figures.get('REVENUE')!;
    assert.deepEqual([rev.value, rev.value_origin, rev.mapping_type], ['35839000', 'DERIVED', 'DERIVED_IDENTITY']);
    assert.deepEqual(rev.calculation_steps!.map((s) => [s.operation, s.metric]), [['base', 'GROSS_PROFIT'], ['add', 'COST_OF_REVENUE']]);
  });

  it('never imputes revenue where the filing tags one', () => {
    const h = history(filing(K24, [[REV, '40000000', ...Y24], [GROSS, '10000000', ...Y24], [COST, '20000000', ...Y24]]));
    const rev = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY')[0]!.figures.get('REVENUE')!;
    assert.deepEqual([rev.value, rev.value_origin], ['40000000', 'SOURCE']);
  });

  it('names a sign flipped by the catalog convention in mapping_type', () => {
    const h = history(filing(K24, [['us-gaap:IncreaseDecreaseInInventories', '500', ...Y24], ['us-gaap:NetCashProvidedByUsedInOperatingActivities', '900', ...Y23]]));
    const inv = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'FY')[0]!.figures.get('CHANGE_IN_INVENTORIES')!;
    assert.equal(inv.value, '-500');
    assert.equal(inv.mapping_type, 'SIGN_FLIPPED_BY_CONVENTION');
  });
});

describe('stock split recasts', () => {
  const EPS = 'us-gaap:EarningsPerShareDiluted';
  const SPLIT = 'us-gaap:StockholdersEquityNoteStockSplitConversionRatio1';
  const window = { after: '2024-02-14', upTo: '2025-02-14' };
  const perShare = (value: string) => ({ value, unit: 'USD/shares' });
  const shares = (value: string) => ({ value, unit: 'shares' });

  it("read the filer's tagged ratio as the exact factors it can stand for: whole numbers of shares that round to the tag, else the tag", () => {
    const factors = (r: string) => splitFactors(r).map((f) => (f.lessThan(1) ? `1/${new Decimal(1).dividedBy(f).toDecimalPlaces(9).toFixed()}` : f.toFixed()));
    assert.deepEqual(factors('4'), ['4'], '4-for-1');
    assert.deepEqual(factors('1.5'), ['1.5'], '3-for-2');
    assert.deepEqual(factors('20'), ['20'], 'the tag itself where its text allows too many (20 may be 15 to 25)');
    assert.deepEqual(factors('0.0667'), ['1/15'], "Herc's 1-for-15");
    assert.deepEqual(factors('0.066667'), ['1/15']);
    assert.deepEqual(factors('0.03333'), ['1/30'], "Nikola's 1-for-30");
    assert.deepEqual(factors('0.07'), ['1/14', '1/15'], 'a 1-for-15 rounded to 0.07');
    assert.deepEqual(factors('0.005'), ['1/200'], '1-for-200');
  });

  it('are listed once per ratio and date, in date order, ignoring ratios of 1, zero, negative or not numbers', () => {
    const facts = [
      { value: '10', end: '2024-06-07' }, { value: '4', end: '2021-07-19' }, { value: '10', end: '2024-06-07' },
      { value: '1', end: '2022-01-01' }, { value: '0', end: '2022-01-01' }, { value: '-2', end: '2022-01-01' }, { value: 'n/a', end: '2022-01-01' },
    ];
    assert.deepEqual(stockSplits(facts), [{ ratio: '4', date: '2021-07-19', evidence: 'TAGGED_RATIO' }, { ratio: '10', date: '2024-06-07', evidence: 'TAGGED_RATIO' }]);
  });

  it("divide per-share figures and multiply share counts by the split's factor, within both values' rounding (Apple's 7-for-1 of 2014)", () => {
    const splits = [{ ratio: '7', date: '2014-06-06' }];
    const w = { after: '2013-10-30', upTo: '2014-10-27' };
    assert.equal(isSplitRecast(perShare('39.75'), perShare('5.68'), splits, w), true, '39.75 / 7 = 5.6786');
    assert.equal(isSplitRecast(shares('931662000'), shares('6521634000'), splits, w), true);
    assert.equal(isSplitRecast(perShare('39.75'), perShare('5.71'), splits, w), false, 'three cents off is a restatement');
    assert.equal(isSplitRecast(shares('931662000'), shares('6531634000'), splits, w), false);
    assert.equal(isSplitRecast(perShare('39.75'), perShare('278.25'), splits, w), false, 'the other direction is a reverse split, which was not tagged');
    assert.equal(isSplitRecast({ value: '39750000000', unit: 'USD' }, { value: '5678571429', unit: 'USD' }, splits, w), false, 'money is never recast');
  });

  it("read a per-share value at the finer of the two precisions: companyfacts writes 3.00 as 3 (Apple's FY2018 EPS 12.01, recast 4-for-1)", () => {
    const splits = [{ ratio: '4', date: '2020-08-28' }];
    const w = { after: '2018-11-05', upTo: '2020-10-30' };
    assert.equal(isSplitRecast(perShare('12.01'), perShare('3'), splits, w), true);
    assert.equal(isSplitRecast(perShare('12.01'), perShare('4'), splits, w), false);
  });

  it("need the filer's tagged split between the two filings: none tagged, or one outside the window, and the change stays a revision", () => {
    assert.equal(isSplitRecast(perShare('1.83'), perShare('0.89'), [], window), false, "McDonald's DPS, no split");
    assert.equal(isSplitRecast(perShare('2.00'), perShare('1.00'), [{ ratio: '2', date: '2024-02-14' }], window), false, 'on the earlier filing date: already in it');
    assert.equal(isSplitRecast(perShare('2.00'), perShare('1.00'), [{ ratio: '2', date: '2025-02-15' }], window), false, 'after the later filing');
    assert.equal(isSplitRecast(perShare('2.00'), perShare('1.00'), [{ ratio: '2', date: '2025-02-14' }], window), true);
  });

  it("a reverse split tagged as rounded as 0.07 recasts by whichever whole ratio the figures show: SunAtion's 1-for-15 of 2024", () => {
    const splits = [{ ratio: '0.06', date: '2024-06-12' }, { ratio: '0.07', date: '2024-06-12' }];
    const w = { after: '2023-08-14', upTo: '2024-08-19' };
    assert.equal(isSplitRecast(shares('9948836'), shares('663256'), splits, w), true, '9,948,836 / 15 = 663,255.7');
    assert.equal(isSplitRecast(perShare('-0.16'), perShare('-2.34'), splits, w), true, '-0.16 (-0.155 to -0.165) x 15');
    assert.equal(isSplitRecast(shares('9948836'), shares('653256'), splits, w), false);
  });

  it("a reverse split tagged as new shares per old: Herc's 1-for-15 (0.0667) recasts share counts, while its EPS change (-0.12 to -0.05) stays a revision", () => {
    const splits = [{ ratio: '0.0667', date: '2016-06-30' }];
    const w = { after: '2015-07-16', upTo: '2017-03-15' };
    assert.equal(isSplitRecast(shares('454000000'), shares('30300000'), splits, w), true);
    assert.equal(isSplitRecast(perShare('-0.12'), perShare('-0.05'), splits, w), false);
    assert.equal(isSplitRecast(perShare('-0.12'), perShare('-1.80'), splits, w), true);
    assert.equal(isSplitRecast(perShare('-0.12'), perShare('1.80'), splits, w), false, 'a change of sign never is');
  });

  it('make a version that revises nothing: no alert, the recast figures served; a real revision in the same filing stays one', () => {
    const Y22: [string, string] = ['2022-01-01', '2022-12-31'];
    const K23: Filing = { accession: '0000000042-24-000001', form: '10-K', filed: '2024-02-14', fy: 2023, fp: 'FY' };
    const h = history([
      ...filing(K23, [[EPS, '8.00', ...Y24.map((d) => d.replace('2024', '2023')) as [string, string]], [SHARES, '100000000', ...Y22], [EPS, '6.00', ...Y22], [NI, '600000000', ...Y22]]),
      ...filing(K24, [
        [SPLIT, '4', null, '2024-06-07'],
        [NI, '900000000', ...Y24], [EPS, '2.25', ...Y24], [SHARES, '400000000', ...Y22], [EPS, '1.50', ...Y22], [NI, '600000000', ...Y22],
      ]),
    ]);
    assert.deepEqual(h.splits, [{ ratio: '4', date: '2024-06-07', evidence: 'TAGGED_RATIO', known_from: K24.filed }], 'known from the first filing that tagged it');
    const [v1, v2] = versionsOf(h, 'INCOME_STATEMENT', 2022, 'FY');
    assert.ok(v1 && v2, 'the recast makes a version');
    assert.deepEqual(v2.revisions, [], 'a split is no restatement');
    assert.deepEqual(
      v2.recasts.map((r) => [r.metric, r.old_value, r.new_value, r.old_accession, r.new_accession, r.split.ratio]).sort(),
      [['EPS_DILUTED', '6.00', '1.50', K23.accession, K24.accession, '4'], ['WEIGHTED_AVERAGE_SHARES_DILUTED', '100000000', '400000000', K23.accession, K24.accession, '4']],
      'each recast is recorded with both values, both filings and the split',
    );
    assert.deepEqual([v2.figures.get('EPS_DILUTED')!.value, v2.figures.get('WEIGHTED_AVERAGE_SHARES_DILUTED')!.value], ['1.50', '400000000']);
    assert.deepEqual([v1.figures.get('EPS_DILUTED')!.value, v1.figures.get('WEIGHTED_AVERAGE_SHARES_DILUTED')!.value], ['6.00', '100000000'], 'as first reported');

    const mixed = history([
      ...filing(K23, [[EPS, '6.00', ...Y22], [NI, '600000000', ...Y22], [SHARES, '100000000', ...Y22]]),
      ...filing(K24, [[SPLIT, '4', null, '2024-06-07'], [NI, '900000000', ...Y24], [EPS, '1.50', ...Y22], [NI, '640000000', ...Y22], [SHARES, '400000000', ...Y22]]),
    ]);
    const [, m2] = versionsOf(mixed, 'INCOME_STATEMENT', 2022, 'FY');
    assert.deepEqual(m2!.revisions.map((r) => [r.metric, r.old_value, r.new_value]), [['NET_INCOME', '600000000', '640000000']]);
    assert.deepEqual(m2!.recasts.map((r) => r.metric).sort(), ['EPS_DILUTED', 'WEIGHTED_AVERAGE_SHARES_DILUTED']);

    const untagged = history([
      ...filing(K23, [[EPS, '6.00', ...Y22], [NI, '600000000', ...Y22]]),
      ...filing(K24, [[NI, '900000000', ...Y24], [EPS, '1.50', ...Y22], [NI, '600000000', ...Y22]]),
    ]);
    assert.deepEqual(versionsOf(untagged, 'INCOME_STATEMENT', 2022, 'FY')[1]!.revisions.map((r) => r.metric), ['EPS_DILUTED'], 'without the tag, or share counts that show it, it is a revision');
  });

  it('are shown by a filing\'s own figures where none was tagged: a share count times a whole ratio and a per-share figure divided by it, net income the same', () => {
    const pair = (before: string, after: string, unit: string) => ({ before: { value: before, unit }, after: { value: after, unit } });
    const figures = (shares: [string, string], eps: [string, string]) =>
      new Map([['WEIGHTED_AVERAGE_SHARES_DILUTED', pair(...shares, 'shares')], ['EPS_DILUTED', pair(...eps, 'USD/shares')]]);
    assert.deepEqual(evidentSplit(figures(['51570000', '103140000'], ['1.88', '0.94']), true, '2013-02-25'), { ratio: '2', date: '2013-02-25', evidence: 'RESTATED_FIGURES' }, "Under Armour's 2-for-1 of 2012");
    assert.deepEqual(evidentSplit(figures(['10050015', '13400'], ['-0.24', '-176.35']), true, '2024-11-14'), { ratio: '0.001333', date: '2024-11-14', evidence: 'RESTATED_FIGURES' }, "SunAtion's 1-for-750 (two reverse splits told at once)");
    assert.equal(evidentSplit(figures(['51570000', '103140000'], ['1.88', '0.94']), false, '2013-02-25'), null, 'net income moved: a restatement, whatever the shares did');
    assert.equal(evidentSplit(figures(['51570000', '103140000'], ['1.88', '0.97']), true, '2013-02-25'), null, 'EPS off by three cents: not the same ratio');
    assert.equal(evidentSplit(figures(['51570000', '77355000'], ['1.88', '1.25']), true, '2013-02-25'), null, 'times 1.5 is no whole ratio');
    assert.equal(evidentSplit(new Map([['WEIGHTED_AVERAGE_SHARES_DILUTED', pair('51570000', '103140000', 'shares')]]), true, '2013-02-25'), null, 'shares alone say nothing of a split');
  });

  it('shown by one period of a filing, recast every period it tells on the old basis: no revision, the recasts name the evidence', () => {
    const Y22: [string, string] = ['2022-01-01', '2022-12-31'];
    const Q4_22: [string, string] = ['2022-10-01', '2022-12-31'];
    const K23: Filing = { accession: '0000000042-24-000001', form: '10-K', filed: '2024-02-14', fy: 2023, fp: 'FY' };
    const h = history([
      ...filing(K23, [[NI, '600000000', ...Y22], [EPS, '6.00', ...Y22], [SHARES, '100000000', ...Y22], [EPS, '1.80', ...Q4_22], [NI, '180000000', ...Q4_22]]),
      ...filing(K24, [
        [NI, '900000000', ...Y24], [EPS, '4.50', ...Y24], [SHARES, '200000000', ...Y24],
        [NI, '600000000', ...Y22], [EPS, '3.00', ...Y22], [SHARES, '200000000', ...Y22],
        [EPS, '0.90', ...Q4_22], [NI, '180000000', ...Q4_22],
      ]),
    ]);
    assert.deepEqual(h.splits, [{ ratio: '2', date: K24.filed, evidence: 'RESTATED_FIGURES' }]);
    const [, fy] = versionsOf(h, 'INCOME_STATEMENT', 2022, 'FY');
    assert.deepEqual([fy!.revisions, fy!.recasts.map((r) => [r.metric, r.new_value, r.split.evidence]).sort()], [
      [],
      [['EPS_DILUTED', '3.00', 'RESTATED_FIGURES'], ['WEIGHTED_AVERAGE_SHARES_DILUTED', '200000000', 'RESTATED_FIGURES']],
    ]);
    const [, q4] = versionsOf(h, 'INCOME_STATEMENT', 2022, 'Q4');
    assert.deepEqual([q4!.revisions, q4!.recasts.map((r) => [r.metric, r.new_value])], [[], [['EPS_DILUTED', '0.90']]], "the quarterly table's EPS alone: recast by the split its year shows");
  });
});

describe('sign slips', () => {
  const NI_TAG = 'us-gaap:NetIncomeLoss';
  const EPS_TAG = 'us-gaap:EarningsPerShareBasic';
  const COMMON_TAG = 'us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic';
  const PRETAX = 'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest';

  it('are the same figure with the opposite sign, neither zero', () => {
    assert.equal(isSignSlip({ value: '-98600000' }, { value: '98600000' }), true);
    assert.equal(isSignSlip({ value: '616800000' }, { value: '-617000000' }), true, 'the same figure at the coarser precision');
    assert.equal(isSignSlip({ value: '-98600000' }, { value: '98700000' }), false);
    assert.equal(isSignSlip({ value: '-98600000' }, { value: '-98600000' }), false);
    assert.equal(isSignSlip({ value: '0' }, { value: '-0' }), false);
  });

  it('take the sign of a witness the later filing did not flip: EPS for net income, income available to common for EPS', () => {
    const figures = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([m, value]) => [m, { value }]));
    const none = () => undefined;
    assert.deepEqual(signWitness('NET_INCOME', none, figures({ EPS_BASIC: '-0.43' }), '98600000'), { sign: -1, witness: 'EPS_BASIC' });
    assert.deepEqual(signWitness('EPS_BASIC', none, figures({ NET_INCOME_AVAILABLE_TO_COMMON: '-91800000', NET_INCOME: '5' }), '0.4'), { sign: -1, witness: 'NET_INCOME_AVAILABLE_TO_COMMON' });
    const flipped = (m: string) => (m === 'EPS_BASIC' ? { value: '0.43' } : undefined);
    assert.equal(signWitness('NET_INCOME', flipped, figures({ EPS_BASIC: '-0.43' }), '98600000'), null, 'the filing flipped EPS too: it agrees with itself');
    assert.equal(signWitness('NET_INCOME', none, figures({ EPS_BASIC: '-0.17', NET_INCOME_AVAILABLE_TO_COMMON: '-63000000' }), '657000000'), null, 'a loss per share with preferred dividends between: no word on net income');
    assert.deepEqual(signWitness('NET_INCOME', none, figures({ EPS_BASIC: '0.21', NET_INCOME_AVAILABLE_TO_COMMON: '47300000' }), '47100000'), { sign: 1, witness: 'EPS_BASIC' }, 'earnings per share mean net income');
    assert.equal(signWitness('PRETAX_INCOME', none, figures({ EPS_BASIC: '-0.43' }), '1'), null, 'no witness for other metrics');
  });

  const Q1: Filing = { accession: '0000000042-12-000047', form: '10-Q', filed: '2012-05-09', fy: 2012, fp: 'Q1' };
  const Q3: Filing = { accession: '0000000042-12-000174', form: '10-Q', filed: '2012-11-09', fy: 2012, fp: 'Q3' };
  const QUARTER: [string, string] = ['2012-01-01', '2012-03-31'];
  const NINE: Row = [NI_TAG, '-250000000', '2012-01-01', '2012-09-30'];

  it("keep the figure on record when the witness sides with it: SunEdison's Q1 2012 net loss re-tagged as income, no revision, a finding", () => {
    const h = history([
      ...filing(Q1, [[NI_TAG, '-92000000', ...QUARTER], [EPS_TAG, '-0.40', ...QUARTER], [PRETAX, '-74700000', ...QUARTER]]),
      ...filing(Q3, [NINE, [NI_TAG, '92000000', ...QUARTER], [PRETAX, '-80000000', ...QUARTER]]),
    ]);
    const [v1, v2] = versionsOf(h, 'INCOME_STATEMENT', 2012, 'Q1');
    assert.equal(v1!.figures.get('NET_INCOME')!.value, '-92000000');
    assert.ok(v2, 'the pretax revision makes a version');
    const ni = v2.figures.get('NET_INCOME')!;
    assert.deepEqual([ni.value, ni.correction_rule, ni.as_filed_value, ni.source_accession], ['-92000000', 'SIGN_SLIP_PREVIOUS_VALUE_KEPT', '92000000', Q3.accession]);
    assert.deepEqual(v2.revisions.map((r) => r.metric), ['PRETAX_INCOME'], 'the sign slip is no revision');
    assert.deepEqual(h.slips.map((s) => [s.kind, s.metric, s.previous.value, s.filed.value, s.corrects, s.witness]), [['SIGN', 'NET_INCOME', '-92000000', '92000000', false, 'EPS_BASIC']]);
  });

  it('serve the later value when the witness sides with it, in a version that revises nothing; without a witness the change is a revision', () => {
    const corrected = history([
      ...filing(Q1, [[NI_TAG, '92000000', ...QUARTER], [EPS_TAG, '-0.40', ...QUARTER]]),
      ...filing(Q3, [NINE, [NI_TAG, '-92000000', ...QUARTER]]),
    ]);
    const [, c2] = versionsOf(corrected, 'INCOME_STATEMENT', 2012, 'Q1');
    assert.deepEqual([c2!.figures.get('NET_INCOME')!.value, c2!.revisions.length], ['-92000000', 0]);
    assert.deepEqual(corrected.slips.map((s) => [s.kind, s.corrects]), [['SIGN', true]]);

    const unwitnessed = history([...filing(Q1, [[NI_TAG, '-92000000', ...QUARTER]]), ...filing(Q3, [NINE, [NI_TAG, '92000000', ...QUARTER]])]);
    const [, u2] = versionsOf(unwitnessed, 'INCOME_STATEMENT', 2012, 'Q1');
    assert.deepEqual(u2!.revisions.map((r) => [r.metric, r.old_value, r.new_value]), [['NET_INCOME', '-92000000', '92000000']]);
    assert.deepEqual(unwitnessed.slips, []);

    const common = history([
      ...filing(Q1, [[NI_TAG, '-92000000', ...QUARTER], [EPS_TAG, '-0.40', ...QUARTER], [COMMON_TAG, '-95000000', ...QUARTER]]),
      ...filing(Q3, [NINE, [NI_TAG, '92000000', ...QUARTER]]),
    ]);
    assert.deepEqual(versionsOf(common, 'INCOME_STATEMENT', 2012, 'Q1')[1]!.revisions.map((r) => r.metric), ['NET_INCOME'], 'preferred dividends between: a loss per share says nothing');
  });
});

describe('sign slips of working-capital lines, witnessed by the balance sheet', () => {
  const AR_CHANGE = 'us-gaap:IncreaseDecreaseInAccountsReceivable';
  const AR = 'us-gaap:AccountsReceivableNetCurrent';
  const ASSETS = 'us-gaap:Assets';
  const K10: Filing = { accession: '0000000042-11-000005', form: '10-K', filed: '2011-02-14', fy: 2010, fp: 'FY' };
  const K11: Filing = { accession: '0000000042-12-000005', form: '10-K', filed: '2012-02-14', fy: 2011, fp: 'FY' };
  const Y10: [string, string] = ['2010-01-01', '2010-12-31'];
  const balances = (f: Filing, rows: [end: string, receivables: string][]) =>
    filing(f, rows.flatMap(([end, receivables]): Row[] => [[AR, receivables, null, end], [ASSETS, '90000000', null, end]]));

  it('take the sign of the balance movement the line reports, where the balance moved by half to twice its amount', () => {
    assert.deepEqual(balanceWitness('CHANGE_IN_RECEIVABLES', '56400000', '202900000', '258400000'), { sign: -1, witness: 'ACCOUNTS_RECEIVABLE' }, 'receivables that grew used cash');
    assert.deepEqual(balanceWitness('CHANGE_IN_ACCRUED_LIABILITIES', '-17300000', '100000000', '84400000'), { sign: -1, witness: 'ACCRUED_LIABILITIES' }, 'accruals that shrank used cash');
    assert.deepEqual(balanceWitness('CHANGE_IN_PAYABLES', '5000000', '10000000', '19000000'), { sign: 1, witness: 'ACCOUNTS_PAYABLE' });
    assert.equal(balanceWitness('CHANGE_IN_RECEIVABLES', '56400000', '202900000', '220000000'), null, 'moved by 0.3 of the amount: says nothing');
    assert.equal(balanceWitness('CHANGE_IN_RECEIVABLES', '56400000', '202900000', '340000000'), null, 'moved by 2.4 times the amount: says nothing');
    assert.equal(balanceWitness('CHANGE_IN_RECEIVABLES', '56400000', undefined, '258400000'), null, 'no opening balance');
    assert.equal(balanceWitness('DEFERRED_INCOME_TAXES', '56400000', '1', '2'), null, 'no balance witness for other lines');
  });

  it('serve the later value where the balance sheet sides with it: a version that revises nothing and a finding', () => {
    const h = history([
      // receivables grew by 231M, tagged as a decrease (-231M, served as a cash inflow of 231M)
      ...balances(K10, [['2009-12-31', '1000000000'], ['2010-12-31', '1231000000']]),
      ...filing(K10, [[AR_CHANGE, '-231000000', ...Y10]]),
      ...balances(K11, [['2010-12-31', '1231000000'], ['2011-12-31', '1300000000']]),
      ...filing(K11, [[AR_CHANGE, '231000000', ...Y10], [AR_CHANGE, '69000000', '2011-01-01', '2011-12-31']]),
    ]);
    const [v1, v2] = versionsOf(h, 'CASH_FLOW_STATEMENT', 2010, 'FY');
    assert.equal(v1!.figures.get('CHANGE_IN_RECEIVABLES')!.value, '231000000');
    assert.ok(v2, 'the corrected sign makes a version');
    assert.deepEqual([v2.figures.get('CHANGE_IN_RECEIVABLES')!.value, v2.revisions.length], ['-231000000', 0]);
    assert.deepEqual(h.slips.map((s) => [s.kind, s.metric, s.corrects, s.witness]), [['SIGN', 'CHANGE_IN_RECEIVABLES', true, 'ACCOUNTS_RECEIVABLE']]);
  });

  it('keep the figure on record where the balance sheet sides with it, and leave a revision where the balance moved by another amount', () => {
    const flipped = (closing: string) =>
      history([
        ...balances(K10, [['2009-12-31', '1000000000'], ['2010-12-31', closing]]),
        ...filing(K10, [[AR_CHANGE, '231000000', ...Y10]]),
        ...balances(K11, [['2010-12-31', closing], ['2011-12-31', '1300000000']]),
        ...filing(K11, [[AR_CHANGE, '-231000000', ...Y10], [AR_CHANGE, '69000000', '2011-01-01', '2011-12-31']]),
      ]);
    const kept = flipped('1231000000');
    assert.deepEqual(versionsOf(kept, 'CASH_FLOW_STATEMENT', 2010, 'FY').map((v) => v.figures.get('CHANGE_IN_RECEIVABLES')!.value), ['-231000000']);
    assert.deepEqual(kept.slips.map((s) => [s.kind, s.corrects]), [['SIGN', false]]);
    const unwitnessed = flipped('1020000000');
    assert.deepEqual(versionsOf(unwitnessed, 'CASH_FLOW_STATEMENT', 2010, 'FY')[1]!.revisions.map((r) => [r.old_value, r.new_value]), [['-231000000', '231000000']]);
    assert.deepEqual(unwitnessed.slips, []);
  });
});

describe('sign slips of pretax income and the income tax, witnessed by the income statement', () => {
  const statement = (figures: Record<string, string>) => (m: string) => figures[m];
  const none = () => false;

  it('take the sign that leaves pretax income less the tax at the income from continuing operations', () => {
    // Herc's Q2 2017: pretax loss 49.8M, tax benefit 22.2M, net loss 27.6M; a later 10-K told the pretax loss as income
    assert.deepEqual(taxIdentityWitness('PRETAX_INCOME', '-49800000', statement({ INCOME_TAX_EXPENSE: '-22200000', NET_INCOME: '-27600000' }), none), { sign: -1, witness: TAX_IDENTITY });
    // Walmart's fiscal 2010 as its 10-K of 2011 tells it: pretax 22,118M, net income including noncontrolling
    // interests 14,883M of which -79M discontinued, so the tax is an expense of 7,156M, which a later 10-K tagged as a benefit
    assert.deepEqual(
      taxIdentityWitness('INCOME_TAX_EXPENSE', '-7156000000', statement({ PRETAX_INCOME: '22118000000', NET_INCOME_INCLUDING_NONCONTROLLING: '14883000000', NET_INCOME: '14370000000', INCOME_FROM_DISCONTINUED_OPERATIONS: '-79000000' }), none),
      { sign: 1, witness: TAX_IDENTITY },
    );
    assert.deepEqual(
      taxIdentityWitness('PRETAX_INCOME', '100', statement({ INCOME_TAX_EXPENSE: '20', NET_INCOME: '110', INCOME_FROM_DISCONTINUED_OPERATIONS: '30' }), none),
      { sign: 1, witness: TAX_IDENTITY },
      'income from discontinued operations lies below the tax: 110 - 30 + 20 = 100',
    );
  });

  it('say nothing where an input is missing, the filing flipped one too, or neither sign comes within a quarter of the figure', () => {
    assert.equal(taxIdentityWitness('PRETAX_INCOME', '-49800000', statement({ NET_INCOME: '-27600000' }), none), null, 'no tax on record');
    assert.equal(taxIdentityWitness('PRETAX_INCOME', '-49800000', statement({ INCOME_TAX_EXPENSE: '-22200000', NET_INCOME: '-27600000' }), (m) => m === 'NET_INCOME'), null, 'the filing flipped net income too');
    assert.equal(taxIdentityWitness('PRETAX_INCOME', '-49800000', statement({ INCOME_TAX_EXPENSE: '-22200000', NET_INCOME: '-10000000' }), none), null, 'off by 17.6M either way');
    assert.equal(taxIdentityWitness('OPERATING_INCOME', '5', statement({}), none), null, 'other metrics');
  });

  it('decide several figures one filing flipped together by the identity as a whole: Herc\'s Q1 2018 pretax loss, net loss and loss per share told as income', () => {
    const onRecord = { PRETAX_INCOME: '-15200000', INCOME_TAX_EXPENSE: '-5100000', NET_INCOME: '-10100000', EPS_BASIC: '-0.36', EPS_DILUTED: '-0.36' };
    const filed: Record<string, string> = { PRETAX_INCOME: '15200000', NET_INCOME: '10100000', EPS_BASIC: '0.36', EPS_DILUTED: '0.36' };
    const read = (side: Record<string, string>) => (m: string) => side[m];
    const flippedIn = (side: Record<string, string>) => (m: string) => side[m] !== undefined && side[m] !== (onRecord as Record<string, string>)[m];
    const joint = jointTaxWitness(read(onRecord), read(filed), flippedIn(filed));
    assert.deepEqual([joint?.served, [...(joint?.metrics ?? [])].sort()], ['previous', ['EPS_BASIC', 'EPS_DILUTED', 'NET_INCOME', 'PRETAX_INCOME']], '-15.2 + 5.1 = -10.1 holds; 15.2 + 5.1 = 10.1 does not');
    const corrected = jointTaxWitness(read({ ...onRecord, PRETAX_INCOME: '15200000', NET_INCOME: '10100000' }), read({ PRETAX_INCOME: '-15200000', NET_INCOME: '-10100000' }), () => false);
    assert.equal(corrected, null, 'nothing flipped: nothing to decide');
    const both = jointTaxWitness(read({ ...onRecord, INCOME_TAX_EXPENSE: '5100000' }), read({ PRETAX_INCOME: '15200000', NET_INCOME: '10100000', INCOME_TAX_EXPENSE: '-5100000' }), (m) => ['PRETAX_INCOME', 'NET_INCOME', 'INCOME_TAX_EXPENSE'].includes(m));
    assert.equal(both, null, 'the filing flipped every member: the identity holds on neither side or on both, and tells nothing');
    assert.equal(jointTaxWitness(read(onRecord), read({ PRETAX_INCOME: '15200000' }), (m) => m === 'PRETAX_INCOME'), null, 'one member alone is taxIdentityWitness\'s');
  });

  it('keep the pretax income on record that the statement agrees with where a later filing flips it: no revision, a finding', () => {
    const PRETAX_TAG = 'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest';
    const TAX_TAG = 'us-gaap:IncomeTaxExpenseBenefit';
    const h = history([
      ...filing(K24, [[PRETAX_TAG, '-49800000', ...Y24], [TAX_TAG, '-22200000', ...Y24], [NI, '-27600000', ...Y24]]),
      ...filing(K25, [CURRENT25, [PRETAX_TAG, '49800000', ...Y24], [TAX_TAG, '-22200000', ...Y24], [NI, '-27600000', ...Y24]]),
    ]);
    assert.deepEqual(versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY').map((v) => v.figures.get('PRETAX_INCOME')!.value), ['-49800000']);
    assert.deepEqual(h.slips.map((s) => [s.kind, s.metric, s.corrects, s.witness]), [['SIGN', 'PRETAX_INCOME', false, TAX_IDENTITY]]);

    const EPS_TAG = 'us-gaap:EarningsPerShareBasic';
    const together = history([
      ...filing(K24, [[PRETAX_TAG, '-15200000', ...Y24], [TAX_TAG, '-5100000', ...Y24], [NI, '-10100000', ...Y24], [EPS_TAG, '-0.36', ...Y24]]),
      ...filing(K25, [CURRENT25, [PRETAX_TAG, '15200000', ...Y24], [NI, '10100000', ...Y24], [EPS_TAG, '0.36', ...Y24]]),
    ]);
    assert.equal(versionsOf(together, 'INCOME_STATEMENT', 2024, 'FY').length, 1, 'pretax, net income and EPS flipped together, the tax left alone: all kept');
    assert.deepEqual(together.slips.map((s) => [s.metric, s.corrects, s.witness]).sort(), [
      ['EPS_BASIC', false, TAX_IDENTITY], ['NET_INCOME', false, TAX_IDENTITY], ['PRETAX_INCOME', false, TAX_IDENTITY],
    ]);
  });
});

describe('sign slips of quarters, witnessed by the year-to-date through them', () => {
  it("read the later filing's year-to-date less the earlier quarters on record three ways, and decide only where exactly one holds", () => {
    // Hertz's 2019 second quarter: net interest -199M (six months -382M) after a first quarter of
    // -183M; its 10-Q of 2020 told the quarter and the six months as income
    assert.deepEqual(yearToDateWitness('-199000000', '199000000', '382000000', '-183000000'), { served: 'previous', yearToDateSlipped: true, witness: YEAR_TO_DATE_IDENTITY });
    assert.deepEqual(yearToDateWitness('-199000000', '199000000', '-382000000', '-183000000'), { served: 'previous', yearToDateSlipped: false, witness: YEAR_TO_DATE_IDENTITY }, 'the six months as before: only the three-month tag slipped');
    // Hertz's 2021 second quarter: told as income by its 10-Q of 2021, as expense by that of 2022 (six months -337M, first quarter -148M)
    assert.deepEqual(yearToDateWitness('189000000', '-189000000', '-337000000', '-148000000'), { served: 'filed', yearToDateSlipped: false, witness: YEAR_TO_DATE_IDENTITY });
  });

  it('say nothing where the earlier quarters net to zero, no reading holds, or two do', () => {
    assert.equal(yearToDateWitness('-199000000', '199000000', '382000000', '0'), null, 'no earlier quarters to speak');
    assert.equal(yearToDateWitness('-199000000', '199000000', '500000000', '-183000000'), null, 'the year-to-date was re-told on another basis');
    assert.equal(yearToDateWitness('100', '-100', '-99', '1'), null, 'earlier quarters near zero leave the filing right and both slipped open');
  });

  it("keep the quarters on record a later filing flipped with its year-to-date, and derive the fourth quarter from the nine months on record: no revision, findings", () => {
    const NET_INTEREST = 'us-gaap:InterestIncomeExpenseNet';
    const Q2_25: Filing = { accession: '0000000042-25-000020', form: '10-Q', filed: '2025-08-01', fy: 2025, fp: 'Q2' };
    const Q3_25: Filing = { accession: '0000000042-25-000030', form: '10-Q', filed: '2025-10-30', fy: 2025, fp: 'Q3' };
    const facts = [
      ...filing(Q1, [[NET_INTEREST, '-183000000', '2024-01-01', '2024-03-31']]),
      ...filing(Q2, [[NET_INTEREST, '-199000000', '2024-04-01', '2024-06-30'], [NET_INTEREST, '-382000000', '2024-01-01', '2024-06-30']]),
      ...filing(Q3, [[NET_INTEREST, '-204000000', '2024-07-01', '2024-09-30'], [NET_INTEREST, '-586000000', '2024-01-01', '2024-09-30']]),
      ...filing(K24, [[NET_INTEREST, '-805000000', ...Y24]]),
      ...filing(Q2_25, [
        [NET_INTEREST, '-150000000', '2025-04-01', '2025-06-30'], [NET_INTEREST, '-300000000', '2025-01-01', '2025-06-30'],
        [NET_INTEREST, '199000000', '2024-04-01', '2024-06-30'], [NET_INTEREST, '382000000', '2024-01-01', '2024-06-30'],
      ]),
      ...filing(Q3_25, [
        [NET_INTEREST, '-160000000', '2025-07-01', '2025-09-30'], [NET_INTEREST, '-460000000', '2025-01-01', '2025-09-30'],
        [NET_INTEREST, '204000000', '2024-07-01', '2024-09-30'], [NET_INTEREST, '586000000', '2024-01-01', '2024-09-30'],
      ]),
      ...filing(K25, [[NET_INTEREST, '-610000000', '2025-01-01', '2025-12-31'], [NET_INTEREST, '-805000000', ...Y24]]),
    ];
    const h = history(facts);
    const served = (fp: FiscalPeriod) => versionsOf(h, 'INCOME_STATEMENT', 2024, fp).map((v) => v.figures.get('NET_INTEREST_INCOME_EXPENSE')!.value);
    assert.deepEqual(served('Q2'), ['-199000000']);
    assert.deepEqual(served('Q3'), ['-204000000']);
    assert.deepEqual(served('Q4'), ['-219000000'], 'not -805M - 586M: the nine months the 10-Q of 2025 flipped are taken back');
    assert.ok(h.versions.every((v) => v.revisions.length === 0), 'nothing was restated');
    assert.deepEqual(
      h.slips.filter((s) => s.fiscal_year === 2024).map((s) => [s.kind, s.fiscal_period, s.metric, s.corrects, s.witness]),
      [['SIGN', 'Q2', 'NET_INTEREST_INCOME_EXPENSE', false, YEAR_TO_DATE_IDENTITY], ['SIGN', 'Q3', 'NET_INTEREST_INCOME_EXPENSE', false, YEAR_TO_DATE_IDENTITY]],
    );
  });
});

describe('derived quarters against reported ones (rule 10) and mis-dated year-to-date', () => {
  const OCF = 'us-gaap:NetCashProvidedByUsedInOperatingActivities';
  const CAPEX = 'us-gaap:PaymentsToAcquirePropertyPlantAndEquipment';
  const DIVIDENDS = 'us-gaap:PaymentsOfDividends';
  const QA: Filing = { accession: '0000000042-11-000010', form: '10-Q', filed: '2011-05-05', fy: 2011, fp: 'Q1' };
  const QB: Filing = { accession: '0000000042-11-000020', form: '10-Q', filed: '2011-08-04', fy: 2011, fp: 'Q2' };
  const QC: Filing = { accession: '0000000042-11-000030', form: '10-Q', filed: '2011-11-03', fy: 2011, fp: 'Q3' };
  const QD: Filing = { accession: '0000000042-12-000010', form: '10-Q', filed: '2012-05-03', fy: 2012, fp: 'Q1' };
  const QE: Filing = { accession: '0000000042-12-000020', form: '10-Q', filed: '2012-08-02', fy: 2012, fp: 'Q2' };
  const QF: Filing = { accession: '0000000042-12-000030', form: '10-Q', filed: '2012-11-09', fy: 2012, fp: 'Q3' };
  const Q1_11: [string, string] = ['2011-01-01', '2011-03-31'];
  const Q2_11: [string, string] = ['2011-04-01', '2011-06-30'];
  const H1_11: [string, string] = ['2011-01-01', '2011-06-30'];
  const M9_11: [string, string] = ['2011-01-01', '2011-09-30'];
  /** each 2012 report's own current period, so its fiscal labels are its own and 2011 is a comparative */
  const current = (end: string): Row => [REV, '1', '2012-01-01', end];
  const cashFlows = (f: Filing, period: [string, string], ocf: string, capex: string, dividends: string) =>
    filing(f, [[OCF, ocf, ...period], [CAPEX, capex, ...period], [DIVIDENDS, dividends, ...period]]);
  // the next year's first 10-Q tells the first quarter of 2011 again, unchanged: year-to-date
  // figures filed more than 400 days apart are never netted (rule 4), these are within reach
  const year2011 = [
    ...cashFlows(QA, Q1_11, '100', '40', '10'),
    ...cashFlows(QB, H1_11, '210', '90', '20'),
    ...cashFlows(QC, M9_11, '330', '150', '30'),
    ...cashFlows(QD, Q1_11, '100', '40', '10'),
    ...filing(QD, [current('2012-03-31')]),
  ];
  const value = (v: BuiltVersion | undefined, metric: string) => v?.figures.get(metric)?.value;

  it("a year-to-date told with a longer one's values line for line is mis-dated: neither is read, no quarter is re-derived from them", () => {
    const misdated = [...cashFlows(QF, H1_11, '330', '150', '30'), ...cashFlows(QF, M9_11, '330', '150', '30'), ...filing(QF, [current('2012-09-30')])];
    const h = history([...year2011, ...misdated]);
    const q2 = versionsOf(h, 'CASH_FLOW_STATEMENT', 2011, 'Q2');
    const q3 = versionsOf(h, 'CASH_FLOW_STATEMENT', 2011, 'Q3');
    assert.deepEqual(q2.map((v) => value(v, 'OPERATING_CASH_FLOW')), ['110'], 'six months 210 minus 100, never 330 minus 100');
    assert.deepEqual(q3.map((v) => value(v, 'OPERATING_CASH_FLOW')), ['120'], 'nine months 330 minus 210, never 330 minus 330');
  });

  it('two year-to-dates alike in fewer than three non-zero lines, or differing in one, are both read', () => {
    const oneOff = [...cashFlows(QF, H1_11, '330', '150', '25'), ...cashFlows(QF, M9_11, '330', '150', '30'), ...filing(QF, [current('2012-09-30')])];
    const q2 = versionsOf(history([...year2011, ...oneOff]), 'CASH_FLOW_STATEMENT', 2011, 'Q2');
    assert.deepEqual(q2.map((v) => value(v, 'OPERATING_CASH_FLOW')), ['110', '230'], 'one line differs: the six months are read (and revise the quarter)');
    const twoLines = [
      ...filing(QF, [[OCF, '330', ...H1_11], [CAPEX, '150', ...H1_11], [OCF, '330', ...M9_11], [CAPEX, '150', ...M9_11], [DIVIDENDS, '0', ...H1_11], [DIVIDENDS, '0', ...M9_11]]),
      ...filing(QF, [current('2012-09-30')]),
    ];
    const q2b = versionsOf(history([...year2011, ...twoLines]), 'CASH_FLOW_STATEMENT', 2011, 'Q2');
    assert.equal(q2b.length, 2, 'two non-zero lines alike (a zero line does not count): read');
  });

  const reportedQ2 = (threeMonths: string, firstQuarterRetold = '1013') => [
    ...filing(QA, [[REV, '1013', ...Q1_11]]),
    ...filing(QB, [[REV, threeMonths, ...Q2_11], [REV, '2137', ...H1_11]]),
    ...filing(QD, [[REV, firstQuarterRetold, ...Q1_11], current('2012-03-31')]),
  ];

  it('keeps a reported quarter its own year-to-date confirmed where a later derivation nets a re-told six months against the same first quarter: no revision, a finding', () => {
    const h = history([...reportedQ2('1124'), ...filing(QE, [[REV, '2541', ...H1_11], current('2012-06-30'), [REV, '1', '2012-04-01', '2012-06-30']])]);
    const q2 = versionsOf(h, 'INCOME_STATEMENT', 2011, 'Q2');
    assert.deepEqual(q2.map((v) => [value(v, 'REVENUE'), v.revisions.length]), [['1124', 0]], 'no version: 2,541 - 1,013 = 1,528 nets a re-told six months against the same first quarter');
    assert.deepEqual(
      h.slips.map((s) => [s.kind, s.metric, s.previous.value, s.filed.value, s.implied, s.corrects, s.version_sequence]),
      [['DERIVED', 'REVENUE', '1124', '1528', '1124', false, 1]],
    );
  });

  it('a derivation whose inputs were all told again revises the reported quarter, as a restatement of the whole year-to-date does', () => {
    const h = history([...reportedQ2('1124', '1217'), ...filing(QE, [[REV, '2541', ...H1_11], current('2012-06-30'), [REV, '1', '2012-04-01', '2012-06-30']])]);
    const q2 = versionsOf(h, 'INCOME_STATEMENT', 2011, 'Q2');
    assert.deepEqual(q2.map((v) => value(v, 'REVENUE')), ['1124', '1324']);
    assert.deepEqual(q2[1]!.revisions.map((r) => [r.metric, r.old_value, r.new_value]), [['REVENUE', '1124', '1324']]);
    assert.deepEqual(h.slips.filter((s) => s.kind === 'DERIVED'), []);
  });

  it('replaces a three-month tag its own year-to-date contradicted once a later filing tells that year-to-date again unchanged: a version that revises nothing', () => {
    const h = history([...reportedQ2('9999'), ...filing(QE, [[REV, '2137', ...H1_11], current('2012-06-30'), [REV, '1', '2012-04-01', '2012-06-30']])]);
    const [v1, v2] = versionsOf(h, 'INCOME_STATEMENT', 2011, 'Q2');
    assert.equal(value(v1, 'REVENUE'), '9999', 'the filing reports the quarter itself: its own figure is served first');
    assert.ok(v2);
    assert.deepEqual([value(v2, 'REVENUE'), v2.figures.get('REVENUE')!.value_origin, v2.revisions.length], ['1124', 'DERIVED', 0]);
    assert.deepEqual(h.slips.map((s) => [s.kind, s.previous.value, s.filed.value, s.implied, s.corrects]), [['DERIVED', '9999', '1124', '1124', true]]);
  });

  it('a later derivation that agrees with neither the tag nor its own year-to-date stays a revision', () => {
    const h = history([...reportedQ2('9999'), ...filing(QE, [[REV, '2541', ...H1_11], current('2012-06-30'), [REV, '1', '2012-04-01', '2012-06-30']])]);
    const q2 = versionsOf(h, 'INCOME_STATEMENT', 2011, 'Q2');
    assert.deepEqual(q2[1]!.revisions.map((r) => [r.old_value, r.new_value]), [['9999', '1528']]);
    assert.deepEqual(h.slips, []);
  });
});

describe('concept moves, re-tags and like-with-like derivations (rule 11)', () => {
  const EQUITY = 'us-gaap:ProceedsFromIssuanceOrSaleOfEquity';
  const COMMON = 'us-gaap:ProceedsFromIssuanceOfCommonStock';
  const PLANS = 'us-gaap:ProceedsFromStockPlans';
  const OPTIONS = 'us-gaap:ProceedsFromStockOptionsExercised';
  const INTEREST = 'us-gaap:InterestExpense';
  const OTHER = 'us-gaap:OtherNonoperatingIncomeExpense';
  const RFC = 'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax';
  const H1: [string, string] = ['2024-01-01', '2024-06-30'];
  const M9: [string, string] = ['2024-01-01', '2024-09-30'];
  const proceeds = (v: BuiltVersion | undefined) => v?.figures.get('PROCEEDS_FROM_STOCK_ISSUANCE');

  it("moves a metric to a line its filing on record told beside it, unchanged, without a restatement: Nikola's FY2022 stock proceeds, a version that revises nothing and a finding", () => {
    const h = history([...filing(K24, [[COMMON, '123672000', ...Y24], [PLANS, '6867000', ...Y24]]), ...filing(K25, [CURRENT25, [PLANS, '6867000', ...Y24]])]);
    const [v1, v2] = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'FY');
    assert.equal(proceeds(v1)!.source_xbrl_concept, COMMON);
    assert.ok(v2, 'the concept moves (the filer stopped reporting the first one)');
    assert.deepEqual([proceeds(v2)!.value, proceeds(v2)!.source_xbrl_concept, v2.revisions.length], ['6867000', PLANS, 0]);
    assert.deepEqual(
      h.slips.map((s) => [s.kind, s.metric, s.previous.value, s.filed.value, s.corrects]),
      [['CONCEPT', 'PROCEEDS_FROM_STOCK_ISSUANCE', '123672000', '6867000', true]],
    );
  });

  it("reads the line by its figure where the filing on record tagged it with another candidate: Nikola's FY2021 option proceeds, told under two concepts, no restatement", () => {
    const h = history([...filing(K24, [[COMMON, '163788000', ...Y24], [OPTIONS, '4785000', ...Y24]]), ...filing(K25, [CURRENT25, [PLANS, '4785000', ...Y24]])]);
    const [, v2] = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'FY');
    assert.deepEqual([proceeds(v2)!.value, proceeds(v2)!.source_xbrl_concept, v2!.revisions.length], ['4785000', PLANS, 0]);
    assert.deepEqual(h.slips.map((s) => [s.kind, s.previous.value, s.filed.value]), [['CONCEPT', '163788000', '4785000']]);
  });

  it('a move to a line told differently now, or not told beside the figure on record, stays a revision', () => {
    const changed = history([...filing(K24, [[COMMON, '123672000', ...Y24], [PLANS, '6867000', ...Y24]]), ...filing(K25, [CURRENT25, [PLANS, '7100000', ...Y24]])]);
    assert.deepEqual(versionsOf(changed, 'CASH_FLOW_STATEMENT', 2024, 'FY')[1]!.revisions.map((r) => [r.old_value, r.new_value, r.old_concept, r.new_concept]), [['123672000', '7100000', COMMON, PLANS]]);
    const alone = history([...filing(K24, [[COMMON, '123672000', ...Y24]]), ...filing(K25, [CURRENT25, [PLANS, '6867000', ...Y24]])]);
    assert.deepEqual(versionsOf(alone, 'CASH_FLOW_STATEMENT', 2024, 'FY')[1]!.revisions.map((r) => r.new_value), ['6867000']);
    assert.deepEqual([...changed.slips, ...alone.slips], []);
  });

  it("takes the candidate telling the figure on record where the filer stopped reporting its concept, over the catalog's first choice: a re-tag (CONCEPT_RETAGGED), no revision", () => {
    const h = history([
      ...filing(K24, [[OPTIONS, '9650000', ...Y24]]),
      ...filing(K25, [CURRENT25, [COMMON, '0', ...Y24], [PLANS, '9650000', ...Y24], [CAPEX_PROCEEDS, '7000000', ...Y24]]),
    ]);
    const [, v2] = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'FY');
    assert.ok(v2, 'a version for the proceeds from the sale of equipment');
    assert.deepEqual([proceeds(v2)!.value, proceeds(v2)!.source_xbrl_concept], ['9650000', OPTIONS], 'the same figure: the one on record is carried');
    assert.deepEqual(v2.revisions, [], 'not 9,650,000 -> 0: the zero is another line');
    const finer = history([...filing(K24, [[OPTIONS, '9700000', ...Y24]]), ...filing(K25, [CURRENT25, [COMMON, '0', ...Y24], [PLANS, '9650000', ...Y24], [CAPEX_PROCEEDS, '7000000', ...Y24]])]);
    const [, f2] = versionsOf(finer, 'CASH_FLOW_STATEMENT', 2024, 'FY');
    assert.deepEqual([proceeds(f2)!.value, proceeds(f2)!.source_xbrl_concept, proceeds(f2)!.selection_rule, f2!.revisions.length], ['9650000', PLANS, 'CONCEPT_RETAGGED', 0], 'the re-tag told more precisely: its text is kept');
  });

  it("keeps the positive side of a never-negative metric told with both signs: Disney's FY2022 interest expense re-tagged as -1,549M, a finding, no revision", () => {
    const h = history([...filing(K24, [[INTEREST, '1549000000', ...Y24]]), ...filing(K25, [CURRENT25, [INTEREST, '-1549000000', ...Y24]])]);
    assert.equal(versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY').length, 1);
    assert.deepEqual(h.slips.map((s) => [s.kind, s.metric, s.witness, s.corrects]), [['SIGN', 'INTEREST_EXPENSE', NON_NEGATIVE_METRIC, false]]);
    const corrected = history([...filing(K24, [[INTEREST, '-1549000000', ...Y24]]), ...filing(K25, [CURRENT25, [INTEREST, '1549000000', ...Y24]])]);
    const [, c2] = versionsOf(corrected, 'INCOME_STATEMENT', 2024, 'FY');
    assert.deepEqual([c2!.figures.get('INTEREST_EXPENSE')!.value, c2!.revisions.length], ['1549000000', 0]);
    const either = history([...filing(K24, [[OTHER, '15000000', ...Y24]]), ...filing(K25, [CURRENT25, [OTHER, '-15000000', ...Y24]])]);
    assert.deepEqual(
      versionsOf(either, 'INCOME_STATEMENT', 2024, 'FY')[1]!.revisions.map((r) => [r.metric, r.new_value]),
      [['OTHER_INCOME_EXPENSE', '-15000000']],
      'other income may be either sign: without a witness the change is a revision',
    );
  });

  it('derives a never-negative quarter that two concepts net below zero under one concept where a filing told it: 9M 2,204,000 minus 6M 1,884,000, not minus 50,349,000', () => {
    const h = history([...filing(Q2, [[COMMON, '50349000', ...H1], [PLANS, '1884000', ...H1]]), ...filing(Q3, [[PLANS, '2204000', ...M9]])]);
    const q3 = proceeds(versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q3')[0]);
    assert.equal(q3!.value, '320000');
    assert.deepEqual(q3!.calculation_steps!.map((s) => [s.operation, s.value, s.source_xbrl_concept]), [['base', '2204000', PLANS], ['subtract', '1884000', PLANS]]);
  });

  it('derives no never-negative quarter where two concepts net below zero and no filing told one of them for both', () => {
    const h = history([...filing(Q2, [[COMMON, '50349000', ...H1], [NI, '1', ...H1]]), ...filing(Q3, [[PLANS, '2204000', ...M9], [NI, '2', ...M9]])]);
    const [q3] = versionsOf(h, 'CASH_FLOW_STATEMENT', 2024, 'Q3');
    assert.equal(proceeds(q3), undefined);
    const same = history([...filing(Q2, [[EQUITY, '50349000', ...H1]]), ...filing(Q3, [[EQUITY, '52553000', ...M9]])]);
    assert.equal(proceeds(versionsOf(same, 'CASH_FLOW_STATEMENT', 2024, 'Q3')[0])!.value, '2204000', 'one concept: derived as ever');
  });

  it("lets a derivation across two concepts stand where it nets to zero or more: Herc's 2022 revenue, the 10-K's total against the nine months its 10-Q tagged under the contract-revenue concept", () => {
    const h = history([...filing(Q3, [[RFC, '1953000000', ...M9]]), ...filing(K24, [[REV, '2738800000', ...Y24], [RFC, '358000000', ...Y24]])]);
    const revenue = versionsOf(h, 'INCOME_STATEMENT', 2024, 'Q4')[0]!.figures.get('REVENUE')!;
    assert.equal(revenue.value, '785800000', 'not 358,000,000 - 1,953,000,000: the 10-K tells the contract revenue as a part');
    assert.deepEqual(revenue.calculation_steps!.map((s) => s.source_xbrl_concept), [REV, RFC]);
  });

  it("derives no quarter from year-to-date figures of a never-negative metric told with both signs: Disney's year of interest tagged -1,973M against nine months of 1,472M", () => {
    const slipped = history([...filing(Q3, [[INTEREST, '1472000000', ...M9]]), ...filing(K24, [[INTEREST, '-1973000000', ...Y24], [NI, '5', ...Y24]])]);
    assert.equal(versionsOf(slipped, 'INCOME_STATEMENT', 2024, 'Q4')[0]?.figures.get('INTEREST_EXPENSE'), undefined, 'not -3,445M');
    const told = history([...filing(Q3, [[INTEREST, '1472000000', ...M9]]), ...filing(K24, [[INTEREST, '1973000000', ...Y24]])]);
    assert.equal(versionsOf(told, 'INCOME_STATEMENT', 2024, 'Q4')[0]!.figures.get('INTEREST_EXPENSE')!.value, '501000000');
  });
});
