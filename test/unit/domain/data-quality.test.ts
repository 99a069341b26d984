import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  completeEvidence,
  detectQualityIssues,
  DQ_RULE_CODES,
  DQ_RULES,
  evidenceFigures,
  readable,
  severityRank,
  type QualityFigure,
  type QualityVersion,
} from '../../../domain/data-quality.ts';
import { IDENTITY_RULES } from '../../../domain/identity-checks.ts';

/** Data-quality rules, pure: each fires on the defect it names and stays quiet otherwise. */

let counter = 0;
function version(p: Partial<QualityVersion> & Pick<QualityVersion, 'statement_type' | 'fiscal_year' | 'fiscal_period'>): QualityVersion {
  counter++;
  return {
    statement_version_id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    cik: '0000000001',
    version_sequence: 1,
    filing_date: '2024-01-01',
    values: {},
    ...p,
  };
}

/** Findings on `subject` (the only version checked), with the others as neighbours. */
function check(subject: QualityVersion, ...neighbours: QualityVersion[]) {
  return detectQualityIssues([subject, ...neighbours], new Set([subject.statement_version_id]));
}

const codes = (fs: { rule_code: string; metric: string | null }[]) => fs.map((f) => `${f.rule_code}:${f.metric}`);

/** a complete, consistent income statement */
const IS_OK = { REVENUE: '1000', COST_OF_REVENUE: '600', GROSS_PROFIT: '400', NET_INCOME: '100' };
const BS_OK = { TOTAL_ASSETS: '5000', LIABILITIES_AND_EQUITY: '5000', TOTAL_LIABILITIES: '3000', TOTAL_EQUITY: '2000' };

describe('the rule catalog', () => {
  it('has unique codes, one per identity rule among them, each described with a severity', () => {
    assert.equal(new Set(DQ_RULE_CODES).size, DQ_RULE_CODES.length);
    for (const r of IDENTITY_RULES) assert.ok(DQ_RULE_CODES.includes(`DQ_IDENTITY_${r.rule_id}`), r.rule_id);
    for (const r of DQ_RULES) assert.ok(r.description.length > 20 && r.severity.length > 2, r.rule_code);
  });

  it('ranks severities LOW < MEDIUM < HIGH < CRITICAL, NONE below all', () => {
    assert.deepEqual(['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'].map((s) => severityRank(s as never)), [0, 1, 2, 3, 4]);
  });

  it('writes figures readably in messages', () => {
    assert.equal(readable('-4734605'), '-4,734,605');
    assert.equal(readable('746.300000'), '746.3');
    assert.equal(readable('0.05'), '0.05');
  });
});

describe('a clean statement', () => {
  it('has no finding', () => {
    assert.deepEqual(check(version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY', values: IS_OK })), []);
    assert.deepEqual(check(version({ statement_type: 'BALANCE_SHEET', fiscal_year: 2024, fiscal_period: 'FY', values: BS_OK })), []);
  });

  it('checks only the subjects, never their neighbours', () => {
    const neighbour = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY', values: { REVENUE: '-5' } });
    const subject = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY', values: IS_OK });
    assert.deepEqual(check(subject, neighbour), []);
  });
});

describe('DQ_NEGATIVE_VALUE (DQC_0015)', () => {
  it('fires on negative revenue (HIGH, a headline total) and negative capital expenditures (MEDIUM, a line item)', () => {
    const is = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY', values: { ...IS_OK, REVENUE: '-1000', GROSS_PROFIT: '-1600' } });
    const f = check(is).filter((x) => x.rule_code === 'DQ_NEGATIVE_VALUE');
    assert.deepEqual(codes(f), ['DQ_NEGATIVE_VALUE:REVENUE']);
    assert.equal(f[0]!.severity, 'HIGH');
    assert.match(f[0]!.message, /REVENUE is negative \(-1,000\)/);
    assert.equal((f[0]!.evidence.compared[0] as { value: string }).value, '-1000.000000');

    const cf = version({ statement_type: 'CASH_FLOW_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY', values: { OPERATING_CASH_FLOW: '10', CAPITAL_EXPENDITURES: '-3' } });
    const g = check(cf);
    assert.deepEqual(codes(g), ['DQ_NEGATIVE_VALUE:CAPITAL_EXPENDITURES']);
    assert.equal(g[0]!.severity, 'MEDIUM');
  });

  it('stays quiet on metrics that may be negative (net income, investing cash flow) and on zero', () => {
    const is = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY', values: { REVENUE: '0', NET_INCOME: '-50' } });
    assert.deepEqual(check(is), []);
    const cf = version({ statement_type: 'CASH_FLOW_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY', values: { OPERATING_CASH_FLOW: '-10', INVESTING_CASH_FLOW: '-3' } });
    assert.deepEqual(check(cf), []);
  });

  it('says why once the provenance is known: a derived Q4 means its inputs disagree', () => {
    const q4 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'Q4', values: { REVENUE: '-5', NET_INCOME: '1' } });
    const found = check(q4);
    assert.deepEqual(evidenceFigures(found), [{ statement_version_id: q4.statement_version_id, metric: 'REVENUE' }]);
    const derived: QualityFigure = {
      value: '-5', period_start: '2024-07-01', period_end: '2024-09-30', source_accession: 'A-1', value_origin: 'DERIVED', mapping_type: 'DERIVED_Q4',
      calculation_steps: [
        { operation: 'base', metric: 'REVENUE', value: '95', period_start: '2024-01-01', period_end: '2024-09-30', source_accession: 'A-1', source_xbrl_concept: 'us-gaap:Revenues' },
        { operation: 'subtract', metric: 'REVENUE', value: '100', period_start: '2024-01-01', period_end: '2024-06-30', source_accession: 'A-0', source_xbrl_concept: 'us-gaap:Revenues' },
      ],
    };
    const [done] = completeEvidence(found, () => derived);
    assert.match(done!.message, /derived \(DERIVED_Q4\), so the figures it subtracts disagree/);
    const p = done!.evidence.compared[0]!;
    assert.equal(p.source_accession, 'A-1');
    assert.equal(p.period_end, '2024-09-30');
    assert.deepEqual(p.calculation_steps!.map((s) => [s.source_accession, s.value]), [['A-1', '95.000000'], ['A-0', '100.000000']]);
    const [tagged] = completeEvidence(found, () => ({ ...derived, value_origin: 'SOURCE', mapping_type: null, calculation_steps: null }));
    assert.match(tagged!.message, /wrong sign/);
  });
});

describe('DQ_SCALE_BREAK', () => {
  const prior = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2020, fiscal_period: 'FY', values: { ...IS_OK, WEIGHTED_AVERAGE_SHARES_BASIC: '744600000' }, filing_date: '2021-03-01' });

  it("fires when shares are about 1/1,000,000 of the prior year (McDonald's 2021: 746.3, in millions, against 744,600,000), naming both values", () => {
    const v = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'FY', values: { ...IS_OK, WEIGHTED_AVERAGE_SHARES_BASIC: '746.3' }, filing_date: '2022-03-01' });
    const f = check(v, prior);
    assert.deepEqual(codes(f), ['DQ_SCALE_BREAK:WEIGHTED_AVERAGE_SHARES_BASIC']);
    assert.equal(f[0]!.severity, 'HIGH');
    assert.equal(f[0]!.evidence.scale_factor, '1000000');
    assert.deepEqual(f[0]!.evidence.compared.map((p) => [p.role, p.fiscal_year, p.value]), [['subject', 2021, '746.300000'], ['prior_period', 2020, '744600000.000000']]);
    assert.match(f[0]!.message, /1\/997,700 of the prior period's .* a 1,000,000x scale break/);
  });

  it('fires when shares are about 1,000 times the prior year (thousands against units)', () => {
    const before = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2009, fiscal_period: 'FY', values: { ...IS_OK, WEIGHTED_AVERAGE_SHARES_BASIC: '548126' }, filing_date: '2010-03-01' });
    const v = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2010, fiscal_period: 'FY', values: { ...IS_OK, WEIGHTED_AVERAGE_SHARES_BASIC: '575177000' }, filing_date: '2011-03-01' });
    const f = check(v, before);
    assert.deepEqual(codes(f), ['DQ_SCALE_BREAK:WEIGHTED_AVERAGE_SHARES_BASIC']);
    assert.equal(f[0]!.evidence.scale_factor, '1000');
    assert.equal(f[0]!.evidence.ratio, '1049.35');
    assert.match(f[0]!.message, /1,049 times the prior period's/);
  });

  it('stays quiet for ordinary growth, a 10x move, a 5,000x move, and against a prior period filed later', () => {
    for (const shares of ['750000000', '7446000000', '148920']) {
      const v = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'FY', values: { ...IS_OK, WEIGHTED_AVERAGE_SHARES_BASIC: shares }, filing_date: '2022-03-01' });
      assert.deepEqual(check(v, prior), [], shares);
    }
    const early = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'FY', values: { ...IS_OK, WEIGHTED_AVERAGE_SHARES_BASIC: '746.3' }, filing_date: '2021-01-01' });
    assert.deepEqual(check(early, prior), [], 'the prior year was not on record when this version was filed');
  });

  it('compares a quarter with the previous quarter, Q1 with the prior Q4, and a balance sheet with the previous date', () => {
    const q4 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2023, fiscal_period: 'Q4', values: { REVENUE: '250000', NET_INCOME: '1' } });
    const q1 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'Q1', values: { REVENUE: '240', NET_INCOME: '1' }, filing_date: '2024-05-01' });
    assert.deepEqual(codes(check(q1, q4)), ['DQ_SCALE_BREAK:REVENUE']);
    const fy = version({ statement_type: 'BALANCE_SHEET', fiscal_year: 2023, fiscal_period: 'FY', values: { ...BS_OK, INVENTORY: '100' } });
    const bsQ2 = version({ statement_type: 'BALANCE_SHEET', fiscal_year: 2024, fiscal_period: 'Q2', values: { ...BS_OK, INVENTORY: '100000' }, filing_date: '2024-08-01' });
    const f = check(bsQ2, fy);
    assert.deepEqual(codes(f), ['DQ_SCALE_BREAK:INVENTORY'], 'without a Q1 the previous balance-sheet date is the prior year end');
    assert.equal(f[0]!.severity, 'MEDIUM');
  });

  it('uses the latest version of the prior period known at filing: a restated prior year counts once filed', () => {
    const v1 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2020, fiscal_period: 'FY', values: { ...IS_OK, REVENUE: '1000000' }, filing_date: '2021-03-01' });
    const v2 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2020, fiscal_period: 'FY', version_sequence: 2, values: { ...IS_OK, REVENUE: '1000' }, filing_date: '2022-03-01' });
    const subject = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'FY', values: { ...IS_OK, REVENUE: '1100' }, filing_date: '2022-03-01' });
    assert.deepEqual(check(subject, v1, v2), [], 'against v2 (1,000), 1,100 is growth');
    const before = version({ ...subject, statement_version_id: 'x', filing_date: '2021-06-01' });
    assert.deepEqual(codes(check(before, v1, v2)), ['DQ_SCALE_BREAK:REVENUE'], 'against v1 (1,000,000) it is a break');
  });
});

describe('DQ_QUARTER_EXCEEDS_YEAR (DQC_0108)', () => {
  const year = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'FY', values: { ...IS_OK, REVENUE: '38162', GROSS_PROFIT: '-561838' }, filing_date: '2022-03-01' });

  it('fires on a quarter filed after its year when the quarter is larger', () => {
    const q1 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'Q1', version_sequence: 2, values: { REVENUE: '10159315', NET_INCOME: '1' }, filing_date: '2022-05-01' });
    const f = check(q1, year);
    assert.deepEqual(codes(f), ['DQ_QUARTER_EXCEEDS_YEAR:REVENUE']);
    assert.equal(f[0]!.severity, 'HIGH');
    assert.deepEqual(f[0]!.evidence.compared.map((p) => p.role), ['subject', 'fiscal_year']);
    assert.equal(f[0]!.evidence.excess, '10121153.000000');
  });

  it('fires on the year, listing every larger quarter filed before it', () => {
    const q1 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'Q1', values: { REVENUE: '10159315', NET_INCOME: '1' }, filing_date: '2021-05-01' });
    const q2 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'Q2', values: { REVENUE: '10996802', NET_INCOME: '1' }, filing_date: '2021-08-01' });
    const q3 = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'Q3', values: { REVENUE: '9000', NET_INCOME: '1' }, filing_date: '2021-11-01' });
    const f = check(year, q1, q2, q3).filter((x) => x.rule_code === 'DQ_QUARTER_EXCEEDS_YEAR');
    assert.equal(f.length, 1);
    assert.deepEqual(f[0]!.evidence.compared.map((p) => `${p.role}:${p.fiscal_period}`), ['subject:FY', 'quarter:Q1', 'quarter:Q2']);
  });

  it('stays quiet for smaller quarters, for the same figure told at another precision, for share counts, and for a year not yet filed', () => {
    const fine = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'Q1', values: { REVENUE: '30000', NET_INCOME: '1' }, filing_date: '2022-05-01' });
    assert.deepEqual(check(fine, year), []);
    const fy = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2022, fiscal_period: 'FY', values: { ...IS_OK, REVENUE: '95800000', GROSS_PROFIT: '95799400', WEIGHTED_AVERAGE_SHARES_BASIC: '10' }, filing_date: '2023-03-01' });
    const q = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2022, fiscal_period: 'Q3', values: { REVENUE: '95800400', NET_INCOME: '1', WEIGHTED_AVERAGE_SHARES_BASIC: '12' }, filing_date: '2023-05-01' });
    assert.deepEqual(check(q, fy), [], 'within the rounding of figures in thousands; weighted share counts are not additive');
    const early = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2021, fiscal_period: 'Q1', values: { REVENUE: '10159315', NET_INCOME: '1' }, filing_date: '2021-05-01' });
    assert.deepEqual(check(early, year), []);
  });
});

describe('DQ_MISSING_CORE_METRIC', () => {
  it('fires per missing core metric: REVENUE (MEDIUM) and NET_INCOME (HIGH), TOTAL_ASSETS, OPERATING_CASH_FLOW', () => {
    const is = version({ statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY', values: { COST_OF_REVENUE: '5' } });
    const f = check(is);
    assert.deepEqual(f.map((x) => `${x.metric}:${x.severity}`), ['NET_INCOME:HIGH', 'REVENUE:MEDIUM']);
    assert.equal(f[0]!.evidence.missing_metric, 'NET_INCOME');
    assert.deepEqual(codes(check(version({ statement_type: 'BALANCE_SHEET', fiscal_year: 2024, fiscal_period: 'Q1', values: { INVENTORY: '1' } }))), ['DQ_MISSING_CORE_METRIC:TOTAL_ASSETS']);
    assert.deepEqual(codes(check(version({ statement_type: 'CASH_FLOW_STATEMENT', fiscal_year: 2024, fiscal_period: 'Q1', values: { CAPITAL_EXPENDITURES: '1' } }))), ['DQ_MISSING_CORE_METRIC:OPERATING_CASH_FLOW']);
  });
});

describe('DQ_IDENTITY_* (checkIdentities FAIL)', () => {
  it("fires on SUNation's fiscal 2021 Q1 v2 balance sheet: assets 4,163,000 against liabilities and equity of 53,108,238 (CRITICAL)", () => {
    const bs = version({
      statement_type: 'BALANCE_SHEET', fiscal_year: 2021, fiscal_period: 'Q1', version_sequence: 2,
      values: { TOTAL_ASSETS: '4163000', LIABILITIES_AND_EQUITY: '53108238', TOTAL_LIABILITIES: '20000000', TOTAL_EQUITY: '33108238' },
    });
    const f = check(bs);
    assert.deepEqual(codes(f), ['DQ_IDENTITY_BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY:TOTAL_ASSETS', 'DQ_IDENTITY_BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY:TOTAL_ASSETS']);
    assert.equal(f[0]!.severity, 'CRITICAL');
    assert.equal(f[0]!.evidence.delta, '-48945238');
    assert.deepEqual(f[0]!.evidence.compared.map((p) => `${p.role}:${p.metric}`), ['subject:TOTAL_ASSETS', 'identity_term:LIABILITIES_AND_EQUITY']);
    assert.match(f[0]!.message, /TOTAL_ASSETS is 4,163,000 but the identity expects 53,108,238/);
  });

  it('stays quiet on a WARNING (a few rounding units off)', () => {
    // figures in millions: a 2,000,000 break is more than the 1,000,000 tolerance, within ten of them and under 0.1%
    const bs = version({ statement_type: 'BALANCE_SHEET', fiscal_year: 2024, fiscal_period: 'FY', values: { TOTAL_ASSETS: '352583000000', LIABILITIES_AND_EQUITY: '352581000000' } });
    assert.deepEqual(check(bs), []);
  });
});
