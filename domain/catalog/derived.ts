/**
 * Derived metrics: formulas over canonical metric names, served by the modeling and derived-metric
 * routes (never stored on a statement). Every input is a canonical metric; a missing input makes
 * the result null (never zero) and a zero divisor makes it null.
 *
 * Period conventions, stated once here and repeated where they matter in source_notes:
 * - a ratio that divides a flow (income, cash flow) by a balance uses the average of the opening
 *   and closing balance when the prior period-end balance exists, otherwise the closing balance;
 * - flows are the period's own (a quarter is not annualized), except the day-count metrics, which
 *   use 365 for a fiscal year and the period's length in days for a shorter period;
 * - balance-only ratios use the period-end balances.
 */
import { derived } from './builders.ts';
import type { DerivedMetric } from './types.ts';

const AVERAGE_BALANCE = 'The balance is the average of opening and closing when the prior period-end balance exists, otherwise the closing balance; a quarter is not annualized.';
const DAY_COUNT = 'Uses 365 days for a fiscal year and the number of days in the period for a shorter period; the balance is averaged when the prior balance exists.';
const DEBT = 'Debt is long-term debt including current maturities (CURRENT_PORTION_LONG_TERM_DEBT + LONG_TERM_DEBT); short-term borrowings and lease liabilities are excluded, and a missing current-maturities line makes the result null.';

export const DERIVED_METRICS: DerivedMetric[] = [
  // ---- profitability
  derived({
    metric: 'GROSS_MARGIN', display_name: 'Gross margin', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'ratio',
    formula: 'GROSS_PROFIT / REVENUE',
    source_notes: 'Gross profit over revenue for the same period, as a fraction (0.45 = 45%); null when the filer presents no gross-profit line.',
  }),
  derived({
    metric: 'OPERATING_MARGIN', display_name: 'Operating margin', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'ratio',
    formula: 'OPERATING_INCOME / REVENUE',
    source_notes: 'Operating income over revenue for the same period, as a fraction.',
  }),
  derived({
    metric: 'NET_MARGIN', display_name: 'Net margin', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'ratio',
    formula: 'NET_INCOME / REVENUE',
    source_notes: 'Net income attributable to the parent over revenue for the same period, as a fraction.',
  }),
  derived({
    metric: 'EBITDA', display_name: 'EBITDA', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'currency',
    formula: 'OPERATING_INCOME + DEPRECIATION_AND_AMORTIZATION',
    source_notes: 'Operating income plus the cash-flow-statement depreciation and amortization add-back for the same period; unadjusted (impairments and share-based compensation stay in).',
  }),
  derived({
    metric: 'EBITDA_MARGIN', display_name: 'EBITDA margin', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'ratio',
    formula: '(OPERATING_INCOME + DEPRECIATION_AND_AMORTIZATION) / REVENUE',
    source_notes: 'EBITDA (operating income plus D&A) over revenue for the same period, as a fraction.',
  }),
  derived({
    metric: 'EFFECTIVE_TAX_RATE', display_name: 'Effective tax rate', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'ratio',
    formula: 'INCOME_TAX_EXPENSE / PRETAX_INCOME',
    source_notes: 'Income tax expense over pre-tax income for the same period, as a fraction; meaningless when pre-tax income is negative, where it is still computed as filed.',
  }),
  derived({
    metric: 'ROE', display_name: 'Return on equity', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'ratio',
    formula: 'NET_INCOME / STOCKHOLDERS_EQUITY',
    source_notes: `Net income attributable to the parent over parent stockholders' equity. ${AVERAGE_BALANCE}`,
  }),
  derived({
    metric: 'ROA', display_name: 'Return on assets', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'ratio',
    formula: 'NET_INCOME / TOTAL_ASSETS',
    source_notes: `Net income attributable to the parent over total assets. ${AVERAGE_BALANCE}`,
  }),
  derived({
    metric: 'ROIC', display_name: 'Return on invested capital', category: 'PROFITABILITY', statement_type: 'INCOME_STATEMENT', unit_type: 'ratio',
    formula: 'OPERATING_INCOME * (1 - INCOME_TAX_EXPENSE / PRETAX_INCOME) / (STOCKHOLDERS_EQUITY + CURRENT_PORTION_LONG_TERM_DEBT + LONG_TERM_DEBT)',
    source_notes: `NOPAT (operating income times one minus the effective tax rate) over invested capital (parent equity plus debt). ${DEBT} ${AVERAGE_BALANCE}`,
  }),
  // ---- liquidity
  derived({
    metric: 'CURRENT_RATIO', display_name: 'Current ratio', category: 'LIQUIDITY', statement_type: 'BALANCE_SHEET', unit_type: 'ratio',
    formula: 'TOTAL_CURRENT_ASSETS / TOTAL_CURRENT_LIABILITIES',
    source_notes: 'Total current assets over total current liabilities at period end.',
  }),
  derived({
    metric: 'QUICK_RATIO', display_name: 'Quick ratio', category: 'LIQUIDITY', statement_type: 'BALANCE_SHEET', unit_type: 'ratio',
    formula: '(TOTAL_CURRENT_ASSETS - INVENTORY) / TOTAL_CURRENT_LIABILITIES',
    source_notes: 'Current assets less inventory over current liabilities at period end; null for a filer that reports no inventory line (its current ratio is then the quick ratio).',
  }),
  derived({
    metric: 'CASH_RATIO', display_name: 'Cash ratio', category: 'LIQUIDITY', statement_type: 'BALANCE_SHEET', unit_type: 'ratio',
    formula: 'CASH_AND_EQUIVALENTS / TOTAL_CURRENT_LIABILITIES',
    source_notes: 'Cash and cash equivalents (excluding short-term investments) over current liabilities at period end.',
  }),
  // ---- leverage
  derived({
    metric: 'DEBT_TO_EQUITY', display_name: 'Debt to equity', category: 'LEVERAGE', statement_type: 'BALANCE_SHEET', unit_type: 'ratio',
    formula: '(CURRENT_PORTION_LONG_TERM_DEBT + LONG_TERM_DEBT) / STOCKHOLDERS_EQUITY',
    source_notes: `Debt over parent stockholders' equity at period end. ${DEBT} Negative when equity is a deficit.`,
  }),
  derived({
    metric: 'DEBT_TO_ASSETS', display_name: 'Debt to assets', category: 'LEVERAGE', statement_type: 'BALANCE_SHEET', unit_type: 'ratio',
    formula: '(CURRENT_PORTION_LONG_TERM_DEBT + LONG_TERM_DEBT) / TOTAL_ASSETS',
    source_notes: `Debt over total assets at period end. ${DEBT}`,
  }),
  derived({
    metric: 'NET_DEBT', display_name: 'Net debt', category: 'LEVERAGE', statement_type: 'BALANCE_SHEET', unit_type: 'currency',
    formula: 'CURRENT_PORTION_LONG_TERM_DEBT + LONG_TERM_DEBT - CASH_AND_EQUIVALENTS',
    source_notes: `Debt less cash and cash equivalents at period end; negative means net cash. ${DEBT}`,
  }),
  derived({
    metric: 'INTEREST_COVERAGE', display_name: 'Interest coverage', category: 'LEVERAGE', statement_type: 'INCOME_STATEMENT', unit_type: 'times',
    formula: 'OPERATING_INCOME / INTEREST_EXPENSE',
    source_notes: 'Operating income over gross interest expense for the same period.',
  }),
  // ---- efficiency
  derived({
    metric: 'ASSET_TURNOVER', display_name: 'Asset turnover', category: 'EFFICIENCY', statement_type: 'INCOME_STATEMENT', unit_type: 'times',
    formula: 'REVENUE / TOTAL_ASSETS',
    source_notes: `Revenue over total assets. ${AVERAGE_BALANCE}`,
  }),
  derived({
    metric: 'INVENTORY_TURNOVER', display_name: 'Inventory turnover', category: 'EFFICIENCY', statement_type: 'INCOME_STATEMENT', unit_type: 'times',
    formula: 'COST_OF_REVENUE / INVENTORY',
    source_notes: `Cost of revenue over inventory. ${AVERAGE_BALANCE}`,
  }),
  derived({
    metric: 'DSO', display_name: 'Days sales outstanding', category: 'EFFICIENCY', statement_type: 'BALANCE_SHEET', unit_type: 'days',
    formula: 'ACCOUNTS_RECEIVABLE / REVENUE * 365',
    source_notes: `Receivables over revenue, in days. ${DAY_COUNT}`,
  }),
  derived({
    metric: 'DIO', display_name: 'Days inventory outstanding', category: 'EFFICIENCY', statement_type: 'BALANCE_SHEET', unit_type: 'days',
    formula: 'INVENTORY / COST_OF_REVENUE * 365',
    source_notes: `Inventory over cost of revenue, in days. ${DAY_COUNT}`,
  }),
  derived({
    metric: 'DPO', display_name: 'Days payables outstanding', category: 'EFFICIENCY', statement_type: 'BALANCE_SHEET', unit_type: 'days',
    formula: 'ACCOUNTS_PAYABLE / COST_OF_REVENUE * 365',
    source_notes: `Accounts payable over cost of revenue, in days. ${DAY_COUNT}`,
  }),
  derived({
    metric: 'CASH_CONVERSION_CYCLE', display_name: 'Cash conversion cycle', category: 'EFFICIENCY', statement_type: 'BALANCE_SHEET', unit_type: 'days',
    formula: 'ACCOUNTS_RECEIVABLE / REVENUE * 365 + INVENTORY / COST_OF_REVENUE * 365 - ACCOUNTS_PAYABLE / COST_OF_REVENUE * 365',
    source_notes: `DSO + DIO - DPO, in days; null when any input is missing (e.g. no inventory line). ${DAY_COUNT}`,
  }),
  // ---- cash flow
  derived({
    metric: 'FREE_CASH_FLOW', display_name: 'Free cash flow', category: 'CASH_FLOW', statement_type: 'CASH_FLOW_STATEMENT', unit_type: 'currency',
    formula: 'OPERATING_CASH_FLOW - CAPITAL_EXPENDITURES',
    source_notes: 'Operating cash flow less capital expenditures (a positive payment) for the same period; acquisitions and lease principal are not deducted.',
  }),
  derived({
    metric: 'FCF_MARGIN', display_name: 'Free cash flow margin', category: 'CASH_FLOW', statement_type: 'CASH_FLOW_STATEMENT', unit_type: 'ratio',
    formula: '(OPERATING_CASH_FLOW - CAPITAL_EXPENDITURES) / REVENUE',
    source_notes: 'Free cash flow over revenue for the same period, as a fraction.',
  }),
  derived({
    metric: 'FCF_CONVERSION', display_name: 'Free cash flow conversion', category: 'CASH_FLOW', statement_type: 'CASH_FLOW_STATEMENT', unit_type: 'ratio',
    formula: '(OPERATING_CASH_FLOW - CAPITAL_EXPENDITURES) / NET_INCOME',
    source_notes: 'Free cash flow over net income attributable to the parent for the same period; above 1 means earnings are more than backed by cash. Not meaningful when net income is negative, where it is still computed.',
  }),
  derived({
    metric: 'CAPEX_TO_REVENUE', display_name: 'Capital expenditures to revenue', category: 'CASH_FLOW', statement_type: 'CASH_FLOW_STATEMENT', unit_type: 'ratio',
    formula: 'CAPITAL_EXPENDITURES / REVENUE',
    source_notes: 'Capital expenditures over revenue for the same period, as a fraction.',
  }),
  derived({
    metric: 'PAYOUT_RATIO', display_name: 'Dividend payout ratio', category: 'CASH_FLOW', statement_type: 'CASH_FLOW_STATEMENT', unit_type: 'ratio',
    formula: 'DIVIDENDS_PAID / NET_INCOME',
    source_notes: 'Cash dividends paid over net income attributable to the parent for the same period, as a fraction.',
  }),
  // ---- per share
  derived({
    metric: 'BOOK_VALUE_PER_SHARE', display_name: 'Book value per share', category: 'RATIOS', statement_type: 'BALANCE_SHEET', unit_type: 'per_share',
    formula: 'STOCKHOLDERS_EQUITY / SHARES_OUTSTANDING',
    source_notes: "Parent stockholders' equity over common shares outstanding, both at period end.",
  }),
];
