import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateDerived, type PeriodFigures } from '../../../domain/derived-eval.ts';

describe('derived-metric evaluation', () => {
  const period = (closing: Record<string, string>, opening: Record<string, string> = {}, fiscal_period = 'FY', days: number | null = 365): PeriodFigures => ({
    fiscal_period,
    days,
    closing,
    opening,
  });

  it('gives null with DENOMINATOR_ZERO for a zero divisor', () => {
    assert.deepEqual(evaluateDerived('GROSS_MARGIN', period({ GROSS_PROFIT: '5', REVENUE: '0' })), { metric: 'GROSS_MARGIN', value: null, reason: 'DENOMINATOR_ZERO', missing_inputs: [] });
  });

  it('averages opening and closing balances for a flow-over-balance ratio, and counts a quarter in its own days', () => {
    assert.equal(evaluateDerived('ROE', period({ NET_INCOME: '30', STOCKHOLDERS_EQUITY: '100' }, { STOCKHOLDERS_EQUITY: '200' })).value, '0.200000000000');
    assert.equal(evaluateDerived('ROE', period({ NET_INCOME: '30', STOCKHOLDERS_EQUITY: '100' })).value, '0.300000000000', 'closing balance without an opening one');
    assert.equal(evaluateDerived('DSO', period({ ACCOUNTS_RECEIVABLE: '10', REVENUE: '91' }, {}, 'Q2', 91)).value, '10.000000000000');
    assert.equal(evaluateDerived('DSO', period({ ACCOUNTS_RECEIVABLE: '10', REVENUE: '365' })).value, '10.000000000000');
  });

  it('keeps money exact and rounds ratios half-up to 12 places', () => {
    assert.equal(evaluateDerived('NET_DEBT', period({ CURRENT_PORTION_LONG_TERM_DEBT: '0.5', LONG_TERM_DEBT: '100', CASH_AND_EQUIVALENTS: '200' })).value, '-99.5');
    assert.equal(evaluateDerived('NET_MARGIN', period({ NET_INCOME: '2', REVENUE: '3' })).value, '0.666666666667');
  });
});
