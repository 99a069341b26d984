import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calculationEvidence, type CalculationArc, type FactLookup } from '../../../domain/calculation-evidence.ts';
import type { Fact, FilingInfo } from '../../../domain/facts.ts';
import type { Candidate } from '../../../domain/normalize/candidates.ts';
import { chooseCandidate, faceFor, FACE_REACH_DAYS, type FaceConcepts } from '../../../domain/normalize/face-concepts.ts';
import { factsFromInstance, mergePackageFacts } from '../../../domain/package-facts.ts';
import { stableUuid } from '../../../domain/stable-id.ts';
import type { StatementFigure } from '../../../domain/statement-types.ts';
import type { ParsedInstance } from '../../../domain/xbrl.ts';

const filing: FilingInfo = {
  accession: '0000000042-24-000001',
  form: '10-K',
  filing_date: '2024-02-15',
  report_date: '2023-12-31',
  accepted_at: null,
  primary_document: null,
  fiscal_year_focus: 2023,
  fiscal_period_focus: 'FY',
  source: 'package',
  filing_date_estimated: true,
};

function instance(): ParsedInstance {
  return {
    contexts: new Map([
      ['FY', { id: 'FY', entity: '42', start: '2023-01-01', end: '2023-12-31', dimensions: [] }],
      ['FY_dup', { id: 'FY_dup', entity: '42', start: '2023-01-01', end: '2023-12-31', dimensions: [] }],
      ['FY_seg', { id: 'FY_seg', entity: '42', start: '2023-01-01', end: '2023-12-31', dimensions: [{ axis: 'us-gaap:StatementBusinessSegmentsAxis', member: 'acme:WestMember', typed: null }] }],
      ['END', { id: 'END', entity: '42', start: null, end: '2023-12-31', dimensions: [] }],
    ]),
    units: new Map([
      ['usd', { id: 'usd', measure: 'USD' }],
      ['shares', { id: 'shares', measure: 'shares' }],
    ]),
    facts: [
      { concept: 'us-gaap:Revenues', contextRef: 'FY', unitRef: 'usd', value: '1000', numeric: true, nil: false, decimals: '-6', id: null },
      { concept: 'us-gaap:Revenues', contextRef: 'FY_dup', unitRef: 'usd', value: '1000', numeric: true, nil: false, decimals: '-6', id: null },
      { concept: 'us-gaap:Revenues', contextRef: 'FY_seg', unitRef: 'usd', value: '400', numeric: true, nil: false, decimals: '-6', id: null },
      { concept: 'acme:CloudRevenue', contextRef: 'FY', unitRef: 'usd', value: '300', numeric: true, nil: false, decimals: '-6', id: null },
      { concept: 'us-gaap:Assets', contextRef: 'END', unitRef: 'usd', value: null, numeric: true, nil: true, decimals: null, id: null },
      { concept: 'us-gaap:IncomeTaxDisclosureTextBlock', contextRef: 'FY', unitRef: null, value: '<p>Taxes</p>', numeric: false, nil: false, decimals: null, id: null },
    ],
    footnotes: [],
    namespaces: {},
    schemaRef: null,
  };
}

describe('package facts', () => {
  it('takes numeric facts without dimensions, once per concept, period and unit, described by the filing', () => {
    const facts = factsFromInstance(instance(), filing);
    assert.deepEqual(
      facts.map((f) => [f.taxonomy, f.concept, f.unit, f.start, f.end, f.value]),
      [
        ['us-gaap', 'Revenues', 'USD', '2023-01-01', '2023-12-31', '1000'],
        ['acme', 'CloudRevenue', 'USD', '2023-01-01', '2023-12-31', '300'],
      ],
    );
    assert.ok(facts.every((f) => f.accession === filing.accession && f.form === '10-K' && f.filed === '2024-02-15' && f.fy === 2023 && f.fp === 'FY'), 'filing fields');
  });

  it('merges a package into company facts of the same filing without telling a fact twice, and keeps the company-facts copy', () => {
    const fromPackage = factsFromInstance(instance(), filing);
    const { decimals: _fromInstance, ...told } = fromPackage[0]!;
    const companyFact: Fact = { ...told, fy: 2023, fp: 'FY', frame: 'CY2023', filed: '2024-02-02' };
    const merged = mergePackageFacts([companyFact], new Map([[filing.accession, fromPackage]]));
    assert.equal(merged.duplicates, 1);
    assert.equal(merged.added, 1);
    assert.equal(merged.facts.length, 2);
    assert.deepEqual(merged.facts[0], { ...companyFact, decimals: '-6' }, 'the company-facts copy, with the instance decimals that tell its precision');
    assert.equal(merged.facts[0]!.filed, '2024-02-02');
    assert.equal(merged.facts[1]!.concept, 'CloudRevenue');
  });

  it('adds every fact of a package whose filing company facts never saw', () => {
    const other: Fact = { ...factsFromInstance(instance(), filing)[0]!, accession: '0000000042-23-000009' };
    const merged = mergePackageFacts([other], new Map([[filing.accession, factsFromInstance(instance(), filing)]]));
    assert.deepEqual([merged.added, merged.duplicates, merged.facts.length], [2, 0, 3]);
  });
});

function candidate(concept: string, rank: number, value: string): Candidate {
  return { metric: 'REVENUE', rank, value, tagged_value: value, concept, fact: {} as Fact };
}

describe('concept choice by presentation', () => {
  const list = [candidate('us-gaap:Revenues', 0, '1000'), candidate('us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', 1, '990')];
  const face: FaceConcepts = {
    byAccession: new Map([
      ['A-2024', { filing_date: '2024-02-15', statements: new Map([['INCOME_STATEMENT', new Set(['us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'])]]) }],
    ]),
  };

  it("prefers the candidate the filing's own presentation puts on the statement over the catalog's first", () => {
    const chosen = chooseCandidate(list, 'INCOME_STATEMENT', faceFor(face, 'A-2024', '2024-02-15'));
    assert.equal(chosen.candidate.concept, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    assert.equal(chosen.rule, 'PRESENTATION_LINKBASE');
  });

  it('keeps catalog order among presented candidates, so a total stays ahead of a component', () => {
    const both: FaceConcepts = { byAccession: new Map([['A', { filing_date: '2024-02-15', statements: new Map([['INCOME_STATEMENT', new Set(list.map((c) => c.concept))]]) }]]) };
    const chosen = chooseCandidate(list, 'INCOME_STATEMENT', faceFor(both, 'A', '2024-02-15'));
    assert.equal(chosen.candidate.concept, 'us-gaap:Revenues');
    assert.equal(chosen.rule, 'PRESENTATION_LINKBASE');
  });

  it('borrows the nearest filing\'s face within reach, and falls back to catalog order beyond it or on another statement', () => {
    const near = chooseCandidate(list, 'INCOME_STATEMENT', faceFor(face, 'Q-2024', '2024-05-01'));
    assert.deepEqual([near.candidate.rank, near.rule], [1, 'COMPANY_PRESENTATION']);
    const far = faceFor(face, 'K-2015', '2015-02-15');
    assert.equal(far, null);
    const farChoice = chooseCandidate(list, 'INCOME_STATEMENT', far);
    assert.deepEqual([farChoice.candidate.rank, farChoice.rule], [0, 'CANDIDATE_ORDER']);
    const edge = new Date(Date.parse('2024-02-15T00:00:00Z') + (FACE_REACH_DAYS + 1) * 86_400_000).toISOString().slice(0, 10);
    assert.equal(faceFor(face, 'X', edge), null);
    const otherStatement = chooseCandidate(list, 'BALANCE_SHEET', faceFor(face, 'A-2024', '2024-02-15'));
    assert.equal(otherStatement.rule, 'CANDIDATE_ORDER');
  });
});

function figure(metric: string, concept: string, value: string, extra: Partial<StatementFigure> = {}): StatementFigure {
  return {
    metric, value, unit: 'USD', period_start: null, period_end: '2023-12-31', source_accession: 'A', source_xbrl_concept: concept,
    mapping_type: null, selection_rule: 'PRESENTATION_LINKBASE', value_origin: 'SOURCE', correction_rule: null, as_filed_value: null,
    as_filed_concept: null, calculation_steps: null, ...extra,
  };
}

describe('calculation evidence', () => {
  const arcs: CalculationArc[] = [
    { from: 'us-gaap:Assets', to: 'us-gaap:AssetsCurrent', weight: 1 },
    { from: 'us-gaap:Assets', to: 'us-gaap:AssetsNoncurrent', weight: 1 },
    { from: 'us-gaap:Liabilities', to: 'us-gaap:LiabilitiesCurrent', weight: 1 },
    { from: 'us-gaap:Liabilities', to: 'acme:Other', weight: -1 },
  ];
  const values: Record<string, { value: string; decimals: string | null }> = {
    'us-gaap:Assets': { value: '352583000000', decimals: '-6' },
    'us-gaap:AssetsCurrent': { value: '143566000000', decimals: '-6' },
    'us-gaap:AssetsNoncurrent': { value: '209017000000', decimals: '-6' },
    'us-gaap:Liabilities': { value: '100', decimals: '0' },
    'us-gaap:LiabilitiesCurrent': { value: '150', decimals: '0' },
    'acme:Other': { value: '48', decimals: '0' },
  };
  const lookup: FactLookup = (concept) => values[concept] ?? null;

  it("sums a total's declared children from the filing's facts and says whether the filer's calculation holds", () => {
    const figures = new Map([
      ['TOTAL_ASSETS', figure('TOTAL_ASSETS', 'us-gaap:Assets', '352583000000')],
      ['TOTAL_LIABILITIES', figure('TOTAL_LIABILITIES', 'us-gaap:Liabilities', '100')],
    ]);
    const [assets, liabilities] = calculationEvidence('BALANCE_SHEET', figures, arcs, lookup);
    assert.equal(assets!.metric, 'TOTAL_ASSETS');
    assert.deepEqual([assets!.computed_value, assets!.delta, assets!.tolerance, assets!.holds], ['352583000000', '0', '1000000', true]);
    assert.deepEqual(assets!.identity_rules, ['BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY', 'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY']);
    // 150 - 48 = 102 against a reported 100 at units: off by 2, more than one unit
    assert.deepEqual([liabilities!.computed_value, liabilities!.delta, liabilities!.holds], ['102', '-2', false]);
  });

  it('gives no evidence for derived or corrected figures, or for totals the calculation does not define', () => {
    const figures = new Map([
      ['TOTAL_ASSETS', figure('TOTAL_ASSETS', 'us-gaap:Assets', '352583000000', { value_origin: 'DERIVED', source_xbrl_concept: null })],
      ['TOTAL_LIABILITIES', figure('TOTAL_LIABILITIES', 'us-gaap:Liabilities', '100', { correction_rule: 'COST_OF_REVENUE_CREDIT_SIGN' })],
      ['CASH_AND_EQUIVALENTS', figure('CASH_AND_EQUIVALENTS', 'us-gaap:Cash', '5')],
    ]);
    assert.deepEqual(calculationEvidence('BALANCE_SHEET', figures, arcs, lookup), []);
  });
});

describe('stable ids', () => {
  it('are uuid-shaped, the same for the same parts, and differ when any part (or a null) differs', () => {
    const a = stableUuid('disclosure', ['0000320193-23-000106', 'us-gaap:IncomeTaxDisclosureTextBlock', '2022-09-25', '2023-09-30']);
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(stableUuid('disclosure', ['0000320193-23-000106', 'us-gaap:IncomeTaxDisclosureTextBlock', '2022-09-25', '2023-09-30']), a);
    assert.notEqual(stableUuid('disclosure', ['0000320193-23-000106', 'us-gaap:IncomeTaxDisclosureTextBlock', null, '2023-09-30']), a);
    assert.notEqual(stableUuid('segment', ['0000320193-23-000106', 'us-gaap:IncomeTaxDisclosureTextBlock', '2022-09-25', '2023-09-30']), a);
    assert.notEqual(stableUuid('disclosure', ['0000320193-23-000106', 'us-gaap:IncomeTaxDisclosureTextBlock2022-09-25', '', '2023-09-30']), a);
  });
});
