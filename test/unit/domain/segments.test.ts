/**
 * Segment figures of a filing (domain/segments.ts): which axes count, member labels, stable ids,
 * the selection rules on hand-built instances, and the real Apple FY2023 10-K and Tesla Q2 2024
 * 10-Q instances of shared/sec, whose segment and disaggregation rows must add up to the
 * consolidated figures the filers report. Every number pinned here was read in those files.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { balanceMetric, cashFlowMetric, incomeMetric, usgaap } from '../../../domain/catalog/builders.ts';
import { dec, plain } from '../../../domain/decimal.ts';
import { catalogView } from '../../../domain/normalize/catalog-view.ts';
import type { CatalogView } from '../../../domain/normalize/presentations.ts';
import {
  dimensionTypeOf,
  instanceCurrency,
  memberLabel,
  metricDimensionId,
  segmentFacts,
  type SegmentFact,
} from '../../../domain/segments.ts';
import type { ParsedInstance, XbrlContext, XbrlFact } from '../../../domain/xbrl.ts';
import { parseInstance } from '../../../ingest/xbrl/instance.ts';
import { parseLinkbase, STANDARD_LABEL_ROLE } from '../../../ingest/xbrl/linkbases.ts';
import { SHARED_SEC } from '../../helpers/shared-data.ts';

const ARCHIVES = path.join(SHARED_SEC, 'www.sec.gov/Archives/edgar/data');
const APPLE_FY2023 = path.join(ARCHIVES, '320193/000032019323000106/aapl-20230930_htm.xml');
const APPLE_FY2023_LABELS = path.join(ARCHIVES, '320193/000032019323000106/aapl-20230930_lab.xml');
const TESLA_Q2_2024 = path.join(ARCHIVES, '1318605/000162828024032662/tsla-20240630_htm.xml');
const TESLA_Q2_2024_LABELS = path.join(ARCHIVES, '1318605/000162828024032662/tsla-20240630_lab.xml');

const TERSE_LABEL_ROLE = 'http://www.xbrl.org/2003/role/terseLabel';

// ---------------------------------------------------------------------------------------------
// helpers

/** exact sum with decimal.js */
function sum(values: readonly string[]): string {
  return plain(values.reduce((acc, v) => acc.plus(v), dec('0')));
}

function rowsOf(
  rows: readonly SegmentFact[],
  where: { metric: string; dimension_type: SegmentFact['dimension_type']; start: string | null; end: string },
): SegmentFact[] {
  return rows.filter(
    (r) =>
      r.metric === where.metric &&
      r.dimension_type === where.dimension_type &&
      r.period_start === where.start &&
      r.period_end === where.end,
  );
}

function byMember(rows: readonly SegmentFact[]): Map<string, SegmentFact> {
  const out = new Map<string, SegmentFact>();
  for (const r of rows) {
    assert.ok(!out.has(r.member), `one row per member, ${r.member} twice`);
    out.set(r.member, r);
  }
  return out;
}

function valuesOf(members: ReadonlyMap<string, SegmentFact>, names: readonly string[]): string[] {
  return names.map((n) => {
    const row = members.get(n);
    assert.ok(row, `no row for ${n}`);
    return row.value;
  });
}

/**
 * The consolidated figure of a metric as the face statements take it: the non-dimensional fact
 * of the best-ranked candidate concept tagged for the period. Returns the concept with it.
 */
function consolidated(
  instance: ParsedInstance,
  catalog: CatalogView,
  metric: string,
  start: string | null,
  end: string,
): { concept: string; value: string } {
  const m = catalog.byName.get(metric);
  assert.ok(m, `no metric ${metric}`);
  for (const c of m.concepts) {
    const concept = `${c.taxonomy}:${c.concept}`;
    const values = new Set<string>();
    for (const f of instance.facts) {
      if (f.concept !== concept || f.value === null || f.unitRef === null) continue;
      const ctx = instance.contexts.get(f.contextRef)!;
      if (ctx.dimensions.length > 0 || ctx.start !== start || ctx.end !== end) continue;
      if (instance.units.get(f.unitRef)?.measure !== 'USD') continue;
      values.add(f.value);
    }
    if (values.size === 0) continue;
    assert.equal(values.size, 1, `${concept} is tagged with one value for ${start}..${end}`);
    return { concept, value: [...values][0]! };
  }
  assert.fail(`no consolidated ${metric} for ${start}..${end}`);
}

/** A hand-built instance: contexts by id, USD/EUR/shares/pure units, facts in the order given. */
function instanceOf(contexts: XbrlContext[], facts: Array<Partial<XbrlFact> & Pick<XbrlFact, 'concept' | 'contextRef'>>): ParsedInstance {
  return {
    contexts: new Map(contexts.map((c) => [c.id, c])),
    units: new Map([
      ['usd', { id: 'usd', measure: 'USD' }],
      ['eur', { id: 'eur', measure: 'EUR' }],
      ['shares', { id: 'shares', measure: 'shares' }],
      ['pure', { id: 'pure', measure: 'pure' }],
    ]),
    facts: facts.map((f) => ({
      unitRef: 'usd',
      value: '0',
      numeric: true,
      nil: false,
      decimals: '-6',
      id: null,
      ...f,
    })),
    footnotes: [],
    namespaces: {},
    schemaRef: null,
  };
}

function ctx(
  id: string,
  start: string | null,
  end: string,
  dimensions: XbrlContext['dimensions'] = [],
): XbrlContext {
  return { id, entity: '0000000001', start, end, dimensions };
}

const SEG = 'us-gaap:StatementBusinessSegmentsAxis';
const GEO = 'srt:StatementGeographicalAxis';

/** a small catalog: revenue with two candidates, a negated cash-flow tag, an instant metric */
const SMALL_CATALOG = catalogView([
  incomeMetric({
    metric: 'REVENUE', display_name: 'Revenue', category: 'REVENUE',
    concepts: [usgaap('Revenues'), usgaap('RevenueFromContractWithCustomerExcludingAssessedTax')],
    sign_convention: 'positive', source_notes: 'test',
  }),
  cashFlowMetric({
    metric: 'CHANGE_IN_INVENTORIES', display_name: 'Change in inventories', category: 'CASH_FLOW',
    concepts: [usgaap('IncreaseDecreaseInInventories', true)],
    sign_convention: 'cash effect', source_notes: 'test',
  }),
  balanceMetric({
    metric: 'INVENTORY', display_name: 'Inventory', category: 'ASSETS',
    concepts: [usgaap('InventoryNet')],
    sign_convention: 'positive', source_notes: 'test',
  }),
]);

// ---------------------------------------------------------------------------------------------

describe('segment axes and member labels', () => {
  it('classifies the standard business-segment, geographic, product and customer axes of us-gaap and srt', () => {
    assert.equal(dimensionTypeOf('us-gaap:StatementBusinessSegmentsAxis'), 'BUSINESS_SEGMENT');
    assert.equal(dimensionTypeOf('srt:StatementBusinessSegmentsAxis'), 'BUSINESS_SEGMENT');
    assert.equal(dimensionTypeOf('us-gaap:SegmentsAxis'), 'BUSINESS_SEGMENT');
    assert.equal(dimensionTypeOf('srt:SegmentsAxis'), 'BUSINESS_SEGMENT');
    assert.equal(dimensionTypeOf('srt:StatementGeographicalAxis'), 'GEOGRAPHIC');
    assert.equal(dimensionTypeOf('us-gaap:StatementGeographicalAxis'), 'GEOGRAPHIC');
    assert.equal(dimensionTypeOf('srt:ProductOrServiceAxis'), 'PRODUCT_SERVICE');
    assert.equal(dimensionTypeOf('us-gaap:ProductOrServiceAxis'), 'PRODUCT_SERVICE');
    assert.equal(dimensionTypeOf('srt:MajorCustomersAxis'), 'MAJOR_CUSTOMER');
    assert.equal(dimensionTypeOf('us-gaap:MajorCustomersAxis'), 'MAJOR_CUSTOMER');
  });

  it('leaves other standard axes, filer extension axes and unqualified names unclassified', () => {
    for (const axis of [
      'srt:ConsolidationItemsAxis',
      'us-gaap:StatementEquityComponentsAxis',
      'us-gaap:FairValueByFairValueHierarchyLevelAxis',
      'srt:RangeAxis',
      'aapl:StatementBusinessSegmentsAxis',
      'tsla:SegmentsAxis',
      'acme:GeographicRegionAxis',
      'dei:LegalEntityAxis',
      'StatementBusinessSegmentsAxis',
      '',
    ]) {
      assert.equal(dimensionTypeOf(axis), null, axis);
    }
  });

  it("takes a member's terse label from the filing's label linkbase, else its standard label without the taxonomy's [Member] suffix", () => {
    const labels = new Map([
      ['aapl:GreaterChinaSegmentMember', new Map([
        [STANDARD_LABEL_ROLE, 'Greater China Segment [Member]'],
        [TERSE_LABEL_ROLE, 'Greater China'],
      ])],
      ['country:US', new Map([[STANDARD_LABEL_ROLE, 'UNITED STATES']])],
      ['aapl:IPhoneMember', new Map([[STANDARD_LABEL_ROLE, 'iPhone [Member]']])],
    ]);
    assert.equal(memberLabel('aapl:GreaterChinaSegmentMember', labels), 'Greater China');
    assert.equal(memberLabel('country:US', labels), 'UNITED STATES');
    assert.equal(memberLabel('aapl:IPhoneMember', labels), 'iPhone');
  });

  it('reads a label from the local name when the linkbase has no label for the member', () => {
    const otherRoleOnly = new Map([['us-gaap:ServiceMember', new Map([['http://www.xbrl.org/2003/role/documentation', 'Services rendered']])]]);
    assert.equal(memberLabel('aapl:GreaterChinaSegmentMember', null), 'Greater China Segment');
    assert.equal(memberLabel('us-gaap:ServiceMember', otherRoleOnly), 'Service');
    assert.equal(memberLabel('country:US', new Map()), 'US');
    assert.equal(memberLabel('aapl:RestOfAsiaPacificSegmentMember', null), 'Rest Of Asia Pacific Segment');
    assert.equal(memberLabel('acme:USDollarDenominatedMember', null), 'US Dollar Denominated');
    assert.equal(memberLabel('acme:Segment2Member', null), 'Segment 2');
    assert.equal(memberLabel('acme:North_AmericaMember', null), 'North America');
  });
});

describe('metricDimensionId', () => {
  const parts = {
    cik: '0000320193',
    accession: '0000320193-23-000106',
    metric: 'REVENUE',
    axis: 'us-gaap:StatementBusinessSegmentsAxis',
    member: 'aapl:GreaterChinaSegmentMember',
    period_start: '2022-09-25' as string | null,
    period_end: '2023-09-30',
  };

  it('is stable and shaped like a version-5 RFC 4122 uuid', () => {
    const id = metricDimensionId(parts);
    assert.equal(metricDimensionId({ ...parts }), id);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('differs when any one part differs, and parts cannot run into each other', () => {
    const id = metricDimensionId(parts);
    const changed: Array<Partial<typeof parts>> = [
      { cik: '0000789019' },
      { accession: '0000320193-23-000107' },
      { metric: 'OPERATING_INCOME' },
      { axis: 'srt:StatementGeographicalAxis' },
      { member: 'aapl:JapanSegmentMember' },
      { period_start: null },
      { period_start: '2023-07-02' },
      { period_end: '2023-09-29' },
    ];
    const ids = new Set([id]);
    for (const change of changed) {
      const other = metricDimensionId({ ...parts, ...change });
      assert.notEqual(other, id, JSON.stringify(change));
      ids.add(other);
    }
    assert.equal(ids.size, changed.length + 1);
    assert.notEqual(
      metricDimensionId({ ...parts, axis: 'a|b', member: 'c' }),
      metricDimensionId({ ...parts, axis: 'a', member: 'b|c' }),
    );
    assert.notEqual(metricDimensionId({ ...parts, period_start: null }), metricDimensionId({ ...parts, period_start: '' }));
  });

  it('names the same company whether the CIK is padded or not', () => {
    assert.equal(metricDimensionId({ ...parts, cik: '320193' }), metricDimensionId(parts));
  });
});

describe('segmentFacts on hand-built instances', () => {
  const FY = ['2023-01-01', '2023-12-31'] as const;
  const contexts = [
    ctx('total', FY[0], FY[1]),
    ctx('total-i', null, FY[1]),
    ctx('a', FY[0], FY[1], [{ axis: SEG, member: 'acme:AlphaMember', typed: null }]),
    ctx('b', FY[0], FY[1], [{ axis: SEG, member: 'acme:BetaMember', typed: null }]),
    ctx('a-i', null, FY[1], [{ axis: SEG, member: 'acme:AlphaMember', typed: null }]),
    ctx('us', FY[0], FY[1], [{ axis: GEO, member: 'country:US', typed: null }]),
    ctx('a-us', FY[0], FY[1], [
      { axis: SEG, member: 'acme:AlphaMember', typed: null },
      { axis: GEO, member: 'country:US', typed: null },
    ]),
    ctx('typed', FY[0], FY[1], [{ axis: SEG, member: null, typed: 'Alpha' }]),
    ctx('ext', FY[0], FY[1], [{ axis: 'acme:RegionAxis', member: 'acme:NorthMember', typed: null }]),
  ];

  it('keeps the best-ranked concept for one metric, member and period, and counts a repeated fact once', () => {
    const inst = instanceOf(contexts, [
      { concept: 'us-gaap:Revenues', contextRef: 'total', value: '100' },
      // Alpha: the contract-revenue tag first, then the broader Revenues, which wins on rank
      { concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', contextRef: 'a', value: '55' },
      { concept: 'us-gaap:Revenues', contextRef: 'a', value: '60' },
      { concept: 'us-gaap:Revenues', contextRef: 'a', value: '61' },
      // Beta: only the narrower tag
      { concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', contextRef: 'b', value: '40' },
    ]);
    const rows = segmentFacts(inst, SMALL_CATALOG, {});
    assert.deepEqual(
      rows.map((r) => [r.member, r.concept, r.rank, r.value]),
      [
        ['acme:AlphaMember', 'us-gaap:Revenues', 0, '60'],
        ['acme:BetaMember', 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', 1, '40'],
      ],
    );
  });

  it('serves each metric in its own sign and keeps the tagged value beside it', () => {
    const inst = instanceOf(contexts, [
      { concept: 'us-gaap:Revenues', contextRef: 'total', value: '100' },
      { concept: 'us-gaap:IncreaseDecreaseInInventories', contextRef: 'a', value: '7.5', decimals: '-5' },
      { concept: 'us-gaap:IncreaseDecreaseInInventories', contextRef: 'b', value: '-2' },
    ]);
    const rows = segmentFacts(inst, SMALL_CATALOG, {});
    assert.deepEqual(
      rows.map((r) => [r.metric, r.statement_type, r.member, r.value, r.tagged_value, r.decimals]),
      [
        ['CHANGE_IN_INVENTORIES', 'CASH_FLOW_STATEMENT', 'acme:AlphaMember', '-7.5', '7.5', '-5'],
        ['CHANGE_IN_INVENTORIES', 'CASH_FLOW_STATEMENT', 'acme:BetaMember', '2', '-2', '-6'],
      ],
    );
  });

  it('takes only numeric, non-nil facts on one explicit member of a standard axis, of the period kind and unit of the metric', () => {
    const inst = instanceOf(contexts, [
      { concept: 'us-gaap:Revenues', contextRef: 'total', value: '100' },
      { concept: 'us-gaap:Revenues', contextRef: 'a-us', value: '30' }, // two dimensions
      { concept: 'us-gaap:Revenues', contextRef: 'typed', value: '30' }, // typed member
      { concept: 'us-gaap:Revenues', contextRef: 'ext', value: '30' }, // filer extension axis
      { concept: 'us-gaap:Revenues', contextRef: 'b', value: null, nil: true }, // nil
      { concept: 'us-gaap:Revenues', contextRef: 'b', value: 'n/a', numeric: false, unitRef: null }, // text
      { concept: 'us-gaap:Revenues', contextRef: 'b', value: '30', unitRef: 'eur' }, // not the reporting currency
      { concept: 'us-gaap:Revenues', contextRef: 'b', value: '30', unitRef: 'shares' }, // not money
      { concept: 'us-gaap:Revenues', contextRef: 'a-i', value: '30' }, // an instant for a duration metric
      { concept: 'us-gaap:InventoryNet', contextRef: 'a', value: '30' }, // a duration for an instant metric
      { concept: 'us-gaap:GrossProfit', contextRef: 'a', value: '30' }, // not in the catalog
      { concept: 'us-gaap:InventoryNet', contextRef: 'a-i', value: '12' },
      { concept: 'us-gaap:Revenues', contextRef: 'us', value: '70' },
    ]);
    const rows = segmentFacts(inst, SMALL_CATALOG, {});
    assert.deepEqual(
      rows.map((r) => [r.metric, r.dimension_type, r.axis, r.member, r.member_label, r.value, r.unit, r.period_start, r.period_end]),
      [
        ['INVENTORY', 'BUSINESS_SEGMENT', SEG, 'acme:AlphaMember', 'Alpha', '12', 'USD', null, FY[1]],
        ['REVENUE', 'GEOGRAPHIC', GEO, 'country:US', 'US', '70', 'USD', FY[0], FY[1]],
      ],
    );
  });

  it('reads the reporting currency from the non-dimensional facts unless told, and a null currency takes no money', () => {
    const inst = instanceOf(contexts, [
      { concept: 'us-gaap:Revenues', contextRef: 'total', value: '100', unitRef: 'eur' },
      { concept: 'us-gaap:InventoryNet', contextRef: 'total-i', value: '10', unitRef: 'eur' },
      { concept: 'us-gaap:Revenues', contextRef: 'total', value: '110' },
      // segment facts in USD outnumber the EUR ones, but do not decide the currency
      { concept: 'us-gaap:Revenues', contextRef: 'a', value: '60' },
      { concept: 'us-gaap:Revenues', contextRef: 'b', value: '50' },
      { concept: 'us-gaap:Revenues', contextRef: 'us', value: '110' },
      { concept: 'us-gaap:Revenues', contextRef: 'a', value: '55', unitRef: 'eur' },
    ]);
    assert.equal(instanceCurrency(inst), 'EUR');
    assert.deepEqual(segmentFacts(inst, SMALL_CATALOG, {}).map((r) => [r.member, r.value, r.unit]), [['acme:AlphaMember', '55', 'EUR']]);
    assert.deepEqual(
      segmentFacts(inst, SMALL_CATALOG, { currency: 'USD' }).map((r) => [r.member, r.value, r.unit]),
      [['acme:AlphaMember', '60', 'USD'], ['acme:BetaMember', '50', 'USD'], ['country:US', '110', 'USD']],
    );
    assert.deepEqual(segmentFacts(inst, SMALL_CATALOG, { currency: null }), []);
  });

  it('sorts rows by period end, period start, metric, dimension type, axis and member, whatever the order of the facts', () => {
    const facts = [
      { concept: 'us-gaap:Revenues', contextRef: 'total', value: '100' },
      { concept: 'us-gaap:Revenues', contextRef: 'us', value: '70' },
      { concept: 'us-gaap:Revenues', contextRef: 'b', value: '40' },
      { concept: 'us-gaap:Revenues', contextRef: 'a', value: '60' },
      { concept: 'us-gaap:InventoryNet', contextRef: 'a-i', value: '12' },
      { concept: 'us-gaap:IncreaseDecreaseInInventories', contextRef: 'a', value: '1' },
    ];
    const forward = segmentFacts(instanceOf(contexts, facts), SMALL_CATALOG, {});
    const backward = segmentFacts(instanceOf(contexts, [...facts].reverse()), SMALL_CATALOG, {});
    assert.deepEqual(backward, forward);
    assert.deepEqual(
      forward.map((r) => `${r.period_start ?? '-'} ${r.metric} ${r.dimension_type} ${r.member}`),
      [
        '- INVENTORY BUSINESS_SEGMENT acme:AlphaMember',
        '2023-01-01 CHANGE_IN_INVENTORIES BUSINESS_SEGMENT acme:AlphaMember',
        '2023-01-01 REVENUE BUSINESS_SEGMENT acme:AlphaMember',
        '2023-01-01 REVENUE BUSINESS_SEGMENT acme:BetaMember',
        '2023-01-01 REVENUE GEOGRAPHIC country:US',
      ],
    );
  });
});

describe("Apple's 10-K for fiscal 2023 (0000320193-23-000106)", () => {
  const FY2023 = { start: '2022-09-25', end: '2023-09-30' } as const;
  const catalog = catalogView();
  let instance: ParsedInstance;
  let rows: SegmentFact[];

  before(async () => {
    instance = await parseInstance(readFileSync(APPLE_FY2023, 'utf8'));
    const labels = await parseLinkbase('label', readFileSync(APPLE_FY2023_LABELS, 'utf8'));
    rows = segmentFacts(instance, catalog, { labels });
  });

  it("Apple's consolidated net sales for FY2023 are 383,285,000,000, tagged as contract revenue", () => {
    assert.deepEqual(consolidated(instance, catalog, 'REVENUE', FY2023.start, FY2023.end), {
      concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      value: '383285000000',
    });
  });

  it("Apple's five reportable segments' revenues sum exactly to consolidated net sales for FY2023", () => {
    const segments = byMember(rowsOf(rows, { metric: 'REVENUE', dimension_type: 'BUSINESS_SEGMENT', ...FY2023 }));
    assert.deepEqual([...segments.keys()].sort(), [
      'aapl:AmericasSegmentMember',
      'aapl:EuropeSegmentMember',
      'aapl:GreaterChinaSegmentMember',
      'aapl:JapanSegmentMember',
      'aapl:RestOfAsiaPacificSegmentMember',
    ]);
    for (const r of segments.values()) {
      assert.equal(r.axis, 'us-gaap:StatementBusinessSegmentsAxis');
      assert.equal(r.concept, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
      assert.equal(r.rank, 1);
      assert.equal(r.unit, 'USD');
      assert.equal(r.decimals, '-6');
      assert.equal(r.statement_type, 'INCOME_STATEMENT');
    }
    const china = segments.get('aapl:GreaterChinaSegmentMember')!;
    assert.equal(china.value, '72559000000');
    assert.equal(china.member_label, 'Greater China');
    assert.equal(segments.get('aapl:AmericasSegmentMember')!.value, '162560000000');
    assert.equal(sum([...segments.values()].map((r) => r.value)), consolidated(instance, catalog, 'REVENUE', FY2023.start, FY2023.end).value);
    assert.equal(sum([...segments.values()].map((r) => r.value)), '383285000000');
  });

  it("Apple's product lines and Services sum to net sales, and so do its Products subtotal and Services", () => {
    const lines = byMember(rowsOf(rows, { metric: 'REVENUE', dimension_type: 'PRODUCT_SERVICE', ...FY2023 }));
    // Apple tags the Products subtotal on the same axis as its parts: the rows are not a partition
    assert.deepEqual([...lines.keys()].sort(), [
      'aapl:IPadMember',
      'aapl:IPhoneMember',
      'aapl:MacMember',
      'aapl:WearablesHomeandAccessoriesMember',
      'us-gaap:ProductMember',
      'us-gaap:ServiceMember',
    ]);
    const total = consolidated(instance, catalog, 'REVENUE', FY2023.start, FY2023.end).value;
    const products = ['aapl:IPhoneMember', 'aapl:MacMember', 'aapl:IPadMember', 'aapl:WearablesHomeandAccessoriesMember'];
    assert.equal(sum(valuesOf(lines, [...products, 'us-gaap:ServiceMember'])), total);
    assert.equal(sum(valuesOf(lines, ['us-gaap:ProductMember', 'us-gaap:ServiceMember'])), total);
    assert.equal(sum(valuesOf(lines, products)), lines.get('us-gaap:ProductMember')!.value);
    // summing every member blindly double counts products
    assert.equal(sum([...lines.values()].map((r) => r.value)), plain(dec(total).plus('298085000000')));

    assert.equal(lines.get('aapl:IPhoneMember')!.value, '200583000000');
    assert.equal(lines.get('aapl:IPhoneMember')!.member_label, 'iPhone');
    assert.equal(lines.get('aapl:WearablesHomeandAccessoriesMember')!.member_label, 'Wearables, Home and Accessories');
    assert.equal(lines.get('us-gaap:ServiceMember')!.value, '85200000000');
    assert.equal(lines.get('us-gaap:ProductMember')!.member_label, 'Products');
  });

  it("Apple's geographic net sales (U.S., China, other countries) sum to consolidated net sales", () => {
    const areas = byMember(rowsOf(rows, { metric: 'REVENUE', dimension_type: 'GEOGRAPHIC', ...FY2023 }));
    assert.deepEqual([...areas.keys()].sort(), ['aapl:OtherCountriesMember', 'country:CN', 'country:US']);
    assert.equal(areas.get('country:US')!.value, '138573000000');
    assert.equal(areas.get('country:US')!.member_label, 'U.S.');
    assert.equal(areas.get('country:US')!.axis, 'srt:StatementGeographicalAxis');
    assert.equal(sum([...areas.values()].map((r) => r.value)), '383285000000');
  });

  it("Apple's cost of sales splits into Products and Services, summing to consolidated cost of sales", () => {
    const cost = byMember(rowsOf(rows, { metric: 'COST_OF_REVENUE', dimension_type: 'PRODUCT_SERVICE', ...FY2023 }));
    assert.deepEqual([...cost.keys()].sort(), ['us-gaap:ProductMember', 'us-gaap:ServiceMember']);
    assert.equal(cost.get('us-gaap:ProductMember')!.value, '189282000000');
    assert.equal(cost.get('us-gaap:ProductMember')!.concept, 'us-gaap:CostOfGoodsAndServicesSold');
    const total = consolidated(instance, catalog, 'COST_OF_REVENUE', FY2023.start, FY2023.end);
    assert.deepEqual(total, { concept: 'us-gaap:CostOfGoodsAndServicesSold', value: '214137000000' });
    assert.equal(sum([...cost.values()].map((r) => r.value)), total.value);
  });

  it("Apple's segment operating income does not sum to consolidated operating income: R&D and corporate costs are unallocated", () => {
    const segments = rowsOf(rows, { metric: 'OPERATING_INCOME', dimension_type: 'BUSINESS_SEGMENT', ...FY2023 });
    assert.equal(segments.length, 5);
    assert.equal(sum(segments.map((r) => r.value)), '150888000000');
    assert.equal(consolidated(instance, catalog, 'OPERATING_INCOME', FY2023.start, FY2023.end).value, '114301000000');
  });

  it("Apple's customer concentration percentages are not segment figures (three axes, a pure ratio)", () => {
    assert.equal(rows.filter((r) => r.dimension_type === 'MAJOR_CUSTOMER').length, 0);
  });

  it('every Apple row is one standard-axis member of a catalog metric, in USD, sorted and unique', () => {
    assert.ok(rows.length > 0);
    const keys = new Set<string>();
    for (const r of rows) {
      assert.equal(dimensionTypeOf(r.axis), r.dimension_type);
      assert.ok(catalog.byName.has(r.metric), r.metric);
      assert.equal(r.unit, 'USD');
      const key = `${r.metric}|${r.axis}|${r.member}|${r.period_start}|${r.period_end}`;
      assert.ok(!keys.has(key), `duplicate ${key}`);
      keys.add(key);
    }
    const years = new Set(rows.filter((r) => r.metric === 'REVENUE').map((r) => r.period_end));
    assert.deepEqual([...years], ['2021-09-25', '2022-09-24', '2023-09-30']);
  });

  it('without a label linkbase, Apple members are labelled from their local names', () => {
    const bare = segmentFacts(instance, catalog, {});
    const china = bare.find((r) => r.member === 'aapl:GreaterChinaSegmentMember')!;
    assert.equal(china.member_label, 'Greater China Segment');
    assert.equal(bare.find((r) => r.member === 'country:US')!.member_label, 'US');
    assert.deepEqual(bare.map((r) => r.value), rows.map((r) => r.value));
  });
});

describe("Tesla's 10-Q for the second quarter of 2024 (0001628280-24-032662)", () => {
  const Q2 = { start: '2024-04-01', end: '2024-06-30' } as const;
  const H1 = { start: '2024-01-01', end: '2024-06-30' } as const;
  const AUTOMOTIVE = 'tsla:AutomotiveSegmentMember';
  const ENERGY = 'tsla:EnergyGenerationAndStorageSegmentMember';
  const catalog = catalogView();
  let instance: ParsedInstance;
  let rows: SegmentFact[];

  before(async () => {
    instance = await parseInstance(readFileSync(TESLA_Q2_2024, 'utf8'));
    const labels = await parseLinkbase('label', readFileSync(TESLA_Q2_2024_LABELS, 'utf8'));
    rows = segmentFacts(instance, catalog, { labels });
  });

  it("Tesla's Automotive and Energy segment revenues sum to total revenues for the three and six months ended 2024-06-30", () => {
    const quarter = byMember(rowsOf(rows, { metric: 'REVENUE', dimension_type: 'BUSINESS_SEGMENT', ...Q2 }));
    assert.deepEqual([...quarter.keys()].sort(), [AUTOMOTIVE, ENERGY]);
    assert.equal(quarter.get(AUTOMOTIVE)!.value, '22486000000');
    assert.equal(quarter.get(AUTOMOTIVE)!.concept, 'us-gaap:Revenues');
    assert.equal(quarter.get(AUTOMOTIVE)!.member_label, 'Automotive');
    assert.equal(quarter.get(ENERGY)!.value, '3014000000');
    const total = consolidated(instance, catalog, 'REVENUE', Q2.start, Q2.end);
    assert.deepEqual(total, { concept: 'us-gaap:Revenues', value: '25500000000' });
    assert.equal(sum([...quarter.values()].map((r) => r.value)), total.value);

    const half = rowsOf(rows, { metric: 'REVENUE', dimension_type: 'BUSINESS_SEGMENT', ...H1 });
    assert.equal(sum(half.map((r) => r.value)), consolidated(instance, catalog, 'REVENUE', H1.start, H1.end).value);
    assert.equal(sum(half.map((r) => r.value)), '46801000000');
  });

  it("Tesla's segment gross profit sums to consolidated gross profit for the quarter", () => {
    const quarter = byMember(rowsOf(rows, { metric: 'GROSS_PROFIT', dimension_type: 'BUSINESS_SEGMENT', ...Q2 }));
    assert.deepEqual(valuesOf(quarter, [AUTOMOTIVE, ENERGY]), ['3838000000', '740000000']);
    assert.equal(sum([...quarter.values()].map((r) => r.value)), consolidated(instance, catalog, 'GROSS_PROFIT', Q2.start, Q2.end).value);
    assert.equal(sum([...quarter.values()].map((r) => r.value)), '4578000000');
  });

  it("Tesla's automotive revenues subtotal is sales, credits and leasing, and with energy and services makes total revenues", () => {
    const lines = byMember(rowsOf(rows, { metric: 'REVENUE', dimension_type: 'PRODUCT_SERVICE', ...Q2 }));
    // the product axis rows are tagged with the contract-revenue concept (rank 1), while the
    // segment rows use us-gaap:Revenues (rank 0): ranks are chosen per member
    assert.equal(lines.get('tsla:AutomotiveSalesMember')!.concept, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    assert.equal(lines.get('tsla:AutomotiveSalesMember')!.value, '18530000000');
    assert.equal(
      sum(valuesOf(lines, ['tsla:AutomotiveSalesMember', 'tsla:AutomotiveRegulatoryCreditsMember', 'tsla:AutomotiveLeasingMember'])),
      lines.get('tsla:AutomotiveRevenuesMember')!.value,
    );
    assert.equal(lines.get('tsla:AutomotiveRevenuesMember')!.value, '19878000000');
    assert.equal(
      sum(valuesOf(lines, ['tsla:AutomotiveRevenuesMember', 'tsla:EnergyGenerationAndStorageMember', 'tsla:ServicesAndOtherMember'])),
      '25500000000',
    );
    // the Energy product line is the Energy segment
    assert.equal(lines.get('tsla:EnergyGenerationAndStorageMember')!.value, '3014000000');
  });

  it("Tesla's geographic revenues (United States, China, other countries) sum to total revenues for the quarter", () => {
    const areas = byMember(rowsOf(rows, { metric: 'REVENUE', dimension_type: 'GEOGRAPHIC', ...Q2 }));
    assert.deepEqual(valuesOf(areas, ['country:US', 'country:CN', 'tsla:OtherCountriesMember']), ['13256000000', '4636000000', '7608000000']);
    assert.equal(sum([...areas.values()].map((r) => r.value)), '25500000000');
  });

  it("Tesla's segment inventories at 2024-06-30 sum to consolidated inventory", () => {
    const inventory = byMember(rowsOf(rows, { metric: 'INVENTORY', dimension_type: 'BUSINESS_SEGMENT', start: null, end: '2024-06-30' }));
    assert.deepEqual(valuesOf(inventory, [AUTOMOTIVE, ENERGY]), ['12192000000', '2003000000']);
    assert.equal(inventory.get(AUTOMOTIVE)!.statement_type, 'BALANCE_SHEET');
    assert.equal(sum([...inventory.values()].map((r) => r.value)), consolidated(instance, catalog, 'INVENTORY', null, '2024-06-30').value);
    assert.equal(sum([...inventory.values()].map((r) => r.value)), '14195000000');
  });
});
