import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { trustScore, type ScoredFigure } from '../../../domain/trust-score.ts';

const src = (value: string): ScoredFigure => ({ value, value_origin: 'SOURCE', correction_rule: null });

describe('the trust score of a point-in-time read', () => {
  it('is null with a plain explanation when nothing is visible', () => {
    const t = trustScore([]);
    assert.equal(t.score, null, 'no statement, no score');
    assert.deepEqual(t.components, { identity_pass_rate: null, core_completeness: null, correction_share: null, derived_share: null });
    assert.match(t.explanation, /nothing to score/);
  });

  it('weighs identity pass rate, core completeness and the corrected and derived shares', () => {
    // gross profit holds (100 - 60 = 40); operating income does not (40 - 30 = 10, reported 5)
    const t = trustScore([
      {
        statement_type: 'INCOME_STATEMENT',
        fiscal_year: 2024,
        fiscal_period: 'FY',
        figures: {
          REVENUE: src('100'),
          COST_OF_REVENUE: { value: '60', value_origin: 'SOURCE', correction_rule: 'COST_OF_REVENUE_CREDIT_SIGN' },
          GROSS_PROFIT: src('40'),
          OPERATING_EXPENSES: src('30'),
          OPERATING_INCOME: src('5'),
          NET_INCOME: src('4'),
        },
      },
    ]);
    assert.deepEqual(t.components, {
      identity_pass_rate: '0.500000',
      // one period expects 10 core metrics (4 + 3 + 3); REVENUE, OPERATING_INCOME, NET_INCOME are there
      core_completeness: '0.300000',
      correction_share: '0.166666',
      derived_share: '0.000000',
    });
    // 0.40 * 0.5 + 0.30 * 0.3 + 0.15 * (1 - 0.166666) + 0.15 * 1 = 0.5650001
    assert.equal(t.score, '0.565000');
    assert.equal(t.counts.identity_checks_evaluated, 2, 'IS_GROSS_PROFIT and IS_OPERATING_INCOME are evaluated');
    assert.equal(t.counts.corrected_figures, 1, 'one corrected figure');
    assert.match(t.explanation, /1 of 2 evaluated accounting identities pass/);
    assert.match(t.explanation, /3 of 10 core metrics/);
  });

  it('drops a component with nothing to measure and rescales the other weights', () => {
    const t = trustScore([
      {
        statement_type: 'CASH_FLOW_STATEMENT',
        fiscal_year: 2024,
        fiscal_period: 'Q2',
        figures: {
          OPERATING_CASH_FLOW: { value: '7', value_origin: 'DERIVED', correction_rule: null },
          INVESTING_CASH_FLOW: src('-2'),
          FINANCING_CASH_FLOW: src('-3'),
        },
      },
    ]);
    assert.equal(t.components.identity_pass_rate, null, 'no net change in cash, so no identity is evaluated');
    assert.equal(t.components.derived_share, '0.333333');
    // (0.30 * 0.3 + 0.15 * 1 + 0.15 * 0.666667) / 0.60
    assert.equal(t.score, '0.566666');
    assert.match(t.explanation, /No accounting identity could be evaluated/);
  });

  it('counts either equity total as the balance-sheet equity line', () => {
    const withTotal = trustScore([{ statement_type: 'BALANCE_SHEET', fiscal_year: 2024, fiscal_period: 'FY', figures: { TOTAL_EQUITY: src('1') } }]);
    const withParent = trustScore([{ statement_type: 'BALANCE_SHEET', fiscal_year: 2024, fiscal_period: 'FY', figures: { STOCKHOLDERS_EQUITY: src('1') } }]);
    assert.equal(withTotal.counts.core_metrics_present, 1, 'TOTAL_EQUITY satisfies the equity line');
    assert.equal(withParent.counts.core_metrics_present, 1, 'STOCKHOLDERS_EQUITY satisfies the equity line');
  });
});
