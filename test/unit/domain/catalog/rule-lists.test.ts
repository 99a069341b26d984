import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MARGIN_MOVERS } from '../../../../domain/ai/narratives.ts';
import { CANONICAL_METRICS } from '../../../../domain/catalog/index.ts';
import { MARGIN_LINES, placedMetrics, SCALE_CHECKED_METRICS, TTM_BALANCE_METRICS, TTM_FLOW_METRICS, VALUATION_INPUT_METRICS } from '../../../../domain/catalog/traits.ts';
import { SCALE_CHECKED_METRICS as DQ_SCALE_CHECKED } from '../../../../domain/data-quality.ts';
import { GROWTH_DEFS } from '../../../../domain/modeling/growth.ts';
import { REPORTED_VALUATION_INPUTS, VALUATION_INPUT_NAMES } from '../../../../domain/modeling/multi-year.ts';
import { TTM_BALANCES, TTM_FLOWS, TTM_NAMES } from '../../../../domain/modeling/ttm.ts';

/**
 * The scale-break rule, the modeling rows and the margin narrative read their metric lists off the
 * catalog entries' traits. The lists are pinned here as the rules have always served them: a trait edited by
 * mistake changes a list (and, for the rows, their field order), and fails here.
 */
describe('rule lists derived from catalog traits', () => {
  it('the scale-break rule and the modeling rows use the lists the traits give, not lists of their own', () => {
    assert.equal(DQ_SCALE_CHECKED, SCALE_CHECKED_METRICS);
    assert.equal(TTM_FLOWS, TTM_FLOW_METRICS);
    assert.equal(TTM_BALANCES, TTM_BALANCE_METRICS);
    assert.equal(REPORTED_VALUATION_INPUTS, VALUATION_INPUT_METRICS);
    assert.deepEqual(MARGIN_MOVERS.map(([, lines]) => lines), [
      MARGIN_LINES.gross,
      [...MARGIN_LINES.gross, ...MARGIN_LINES.operating],
      [...MARGIN_LINES.gross, ...MARGIN_LINES.operating, ...MARGIN_LINES.below_operating],
    ]);
  });

  it('checks for scale breaks the steady lines: top lines, operating costs, totals, working capital, fixed assets, share counts', () => {
    assert.deepEqual([...SCALE_CHECKED_METRICS].sort(), [
      'ACCOUNTS_PAYABLE', 'ACCOUNTS_RECEIVABLE', 'ACCUMULATED_DEPRECIATION', 'COSTS_AND_EXPENSES', 'COST_OF_REVENUE', 'DEPRECIATION',
      'DEPRECIATION_AND_AMORTIZATION', 'GENERAL_AND_ADMINISTRATIVE', 'INVENTORY', 'LIABILITIES_AND_EQUITY', 'OPERATING_EXPENSES',
      'PROPERTY_PLANT_EQUIPMENT_GROSS', 'PROPERTY_PLANT_EQUIPMENT_NET', 'RESEARCH_AND_DEVELOPMENT', 'REVENUE', 'SELLING_AND_MARKETING',
      'SELLING_GENERAL_AND_ADMINISTRATIVE', 'SHARES_ISSUED', 'SHARES_OUTSTANDING', 'TOTAL_ASSETS', 'TOTAL_CURRENT_ASSETS',
      'TOTAL_CURRENT_LIABILITIES', 'TOTAL_LIABILITIES', 'WEIGHTED_AVERAGE_SHARES_BASIC', 'WEIGHTED_AVERAGE_SHARES_DILUTED',
    ]);
  });

  it('lays out the trailing-twelve-month row in its fixed order: flows, free cash flow, EPS, balances', () => {
    assert.deepEqual(TTM_NAMES, [
      'REVENUE', 'COST_OF_REVENUE', 'GROSS_PROFIT', 'OPERATING_INCOME', 'PRETAX_INCOME', 'INCOME_TAX_EXPENSE', 'NET_INCOME',
      'DEPRECIATION_AND_AMORTIZATION', 'OPERATING_CASH_FLOW', 'CAPITAL_EXPENDITURES', 'DIVIDENDS_PAID', 'SHARE_REPURCHASES',
      'FREE_CASH_FLOW', 'EPS_BASIC', 'EPS_DILUTED',
      'TOTAL_ASSETS', 'TOTAL_LIABILITIES', 'STOCKHOLDERS_EQUITY', 'CASH_AND_EQUIVALENTS', 'SHARES_OUTSTANDING',
    ]);
  });

  it('lays out the multi-year valuation inputs in their fixed order: reported lines, computed sums, market inputs', () => {
    assert.deepEqual(VALUATION_INPUT_NAMES, [
      'REVENUE', 'GROSS_PROFIT', 'OPERATING_INCOME', 'NET_INCOME', 'EPS_DILUTED', 'WEIGHTED_AVERAGE_SHARES_DILUTED',
      'DEPRECIATION_AND_AMORTIZATION', 'OPERATING_CASH_FLOW', 'CAPITAL_EXPENDITURES', 'DIVIDENDS_PAID', 'SHARE_REPURCHASES',
      'CASH_AND_EQUIVALENTS', 'TOTAL_ASSETS', 'TOTAL_LIABILITIES', 'STOCKHOLDERS_EQUITY', 'SHARES_OUTSTANDING',
      'EBITDA', 'FREE_CASH_FLOW', 'TOTAL_DEBT', 'NET_DEBT', 'PRICE', 'MARKET_CAPITALIZATION', 'ENTERPRISE_VALUE',
    ]);
  });

  it('explains margin moves by cost of revenue, the operating costs, and the lines between operating and net income', () => {
    assert.deepEqual(MARGIN_MOVERS.map(([margin]) => margin), ['GROSS_MARGIN', 'OPERATING_MARGIN', 'NET_MARGIN']);
    assert.deepEqual(MARGIN_LINES.gross, ['COST_OF_REVENUE']);
    assert.deepEqual(MARGIN_LINES.operating, [
      'RESEARCH_AND_DEVELOPMENT', 'SELLING_GENERAL_AND_ADMINISTRATIVE', 'SELLING_AND_MARKETING', 'GENERAL_AND_ADMINISTRATIVE',
      'RESTRUCTURING_CHARGES', 'GOODWILL_IMPAIRMENT', 'ASSET_IMPAIRMENT_CHARGES',
    ]);
    assert.deepEqual(MARGIN_LINES.below_operating, [
      'INTEREST_EXPENSE', 'INTEREST_INCOME', 'NET_INTEREST_INCOME_EXPENSE', 'OTHER_INCOME_EXPENSE', 'NON_OPERATING_INCOME_EXPENSE',
      'EQUITY_METHOD_INCOME', 'GAIN_LOSS_ON_DEBT_EXTINGUISHMENT', 'INCOME_TAX_EXPENSE', 'INCOME_FROM_DISCONTINUED_OPERATIONS',
    ]);
  });

  it('puts each growth metric on the statement type of the line it compares', () => {
    assert.deepEqual(
      GROWTH_DEFS.map((d) => [d.metric, d.statement_type]),
      [
        ['REVENUE_GROWTH_YOY', 'INCOME_STATEMENT'], ['REVENUE_GROWTH_QOQ', 'INCOME_STATEMENT'], ['GROSS_PROFIT_GROWTH_YOY', 'INCOME_STATEMENT'],
        ['OPERATING_INCOME_GROWTH_YOY', 'INCOME_STATEMENT'], ['NET_INCOME_GROWTH_YOY', 'INCOME_STATEMENT'], ['NET_INCOME_GROWTH_QOQ', 'INCOME_STATEMENT'],
        ['EPS_DILUTED_GROWTH_YOY', 'INCOME_STATEMENT'], ['REVENUE_CAGR', 'INCOME_STATEMENT'], ['NET_INCOME_CAGR', 'INCOME_STATEMENT'],
        ['OPERATING_CASH_FLOW_GROWTH_YOY', 'CASH_FLOW_STATEMENT'], ['CAPITAL_EXPENDITURES_GROWTH_YOY', 'CASH_FLOW_STATEMENT'],
        ['TOTAL_ASSETS_GROWTH_YOY', 'BALANCE_SHEET'], ['STOCKHOLDERS_EQUITY_GROWTH_YOY', 'BALANCE_SHEET'],
      ],
    );
  });

  it('refuses places that repeat or leave a gap, so no row order is left to catalog order', () => {
    const [a, b, c] = CANONICAL_METRICS;
    const place = new Map<string, number>();
    const list = () => placedMetrics([a!, b!, c!], 'example', (m) => place.get(m.metric) ?? null);
    place.set(a!.metric, 2).set(c!.metric, 1);
    assert.deepEqual(list(), [c!.metric, a!.metric]);
    place.set(b!.metric, 2);
    assert.throws(list, /example: .* has place 2 where 3 is due/);
    place.delete(b!.metric);
    place.set(a!.metric, 3);
    assert.throws(list, /example: .* has place 3 where 2 is due/);
  });

  it('sums only money flows in the trailing year and takes only balance-sheet lines at its end', () => {
    const byName = new Map(CANONICAL_METRICS.map((m) => [m.metric, m]));
    for (const m of TTM_FLOW_METRICS) {
      assert.equal(byName.get(m)?.period_kind, 'duration', m);
      assert.equal(byName.get(m)?.unit_type, 'currency', m);
    }
    for (const m of TTM_BALANCE_METRICS) assert.equal(byName.get(m)?.statement_type, 'BALANCE_SHEET', m);
  });
});
