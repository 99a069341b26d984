/**
 * Named groups of metrics a client can ask for in one request. Bundles hold canonical metrics only
 * (what a statement carries); views may mix canonical and derived metrics.
 */
import type { MetricBundle } from './types.ts';

export const METRIC_BUNDLES: MetricBundle[] = [
  {
    code: 'core_income_statement',
    label: 'Core income statement',
    description: 'Revenue down to net income and EPS: the lines nearly every filer tags.',
    metrics: [
      'REVENUE', 'COST_OF_REVENUE', 'GROSS_PROFIT', 'RESEARCH_AND_DEVELOPMENT', 'SELLING_GENERAL_AND_ADMINISTRATIVE',
      'OPERATING_EXPENSES', 'OPERATING_INCOME', 'INTEREST_EXPENSE', 'PRETAX_INCOME', 'INCOME_TAX_EXPENSE',
      'NET_INCOME', 'EPS_BASIC', 'EPS_DILUTED', 'WEIGHTED_AVERAGE_SHARES_BASIC', 'WEIGHTED_AVERAGE_SHARES_DILUTED',
    ],
  },
  {
    code: 'core_balance_sheet',
    label: 'Core balance sheet',
    description: 'The main asset, liability and equity lines and their totals at period end.',
    metrics: [
      'CASH_AND_EQUIVALENTS', 'SHORT_TERM_INVESTMENTS', 'ACCOUNTS_RECEIVABLE', 'INVENTORY', 'TOTAL_CURRENT_ASSETS',
      'PROPERTY_PLANT_EQUIPMENT_NET', 'GOODWILL', 'INTANGIBLE_ASSETS_NET', 'TOTAL_ASSETS', 'ACCOUNTS_PAYABLE',
      'TOTAL_CURRENT_LIABILITIES', 'LONG_TERM_DEBT', 'TOTAL_LIABILITIES', 'STOCKHOLDERS_EQUITY', 'TOTAL_EQUITY',
      'LIABILITIES_AND_EQUITY',
    ],
  },
  {
    code: 'core_cash_flow',
    label: 'Core cash flow statement',
    description: 'The three section totals, the largest named flows and the change in cash.',
    metrics: [
      'OPERATING_CASH_FLOW', 'DEPRECIATION_AND_AMORTIZATION', 'SHARE_BASED_COMPENSATION', 'CAPITAL_EXPENDITURES',
      'ACQUISITIONS_NET_OF_CASH', 'INVESTING_CASH_FLOW', 'DIVIDENDS_PAID', 'SHARE_REPURCHASES', 'FINANCING_CASH_FLOW',
      'EFFECT_OF_EXCHANGE_RATE_ON_CASH', 'NET_CHANGE_IN_CASH',
    ],
  },
  {
    code: 'cash_flow_quality',
    label: 'Cash flow quality',
    description: 'Inputs for judging how well earnings turn into cash: net income against operating cash flow, its non-cash add-backs and working-capital swings, and capital spending.',
    metrics: [
      'NET_INCOME', 'OPERATING_CASH_FLOW', 'DEPRECIATION_AND_AMORTIZATION', 'SHARE_BASED_COMPENSATION', 'DEFERRED_INCOME_TAXES',
      'OTHER_NONCASH_ITEMS', 'CHANGE_IN_RECEIVABLES', 'CHANGE_IN_INVENTORIES', 'CHANGE_IN_PAYABLES', 'CHANGE_IN_DEFERRED_REVENUE',
      'CAPITAL_EXPENDITURES',
    ],
  },
  {
    code: 'profitability_inputs',
    label: 'Profitability inputs',
    description: 'Everything the margin and return ratios read: revenue, profit lines, tax, and the balances they are measured against.',
    metrics: [
      'REVENUE', 'GROSS_PROFIT', 'OPERATING_INCOME', 'PRETAX_INCOME', 'INCOME_TAX_EXPENSE', 'NET_INCOME',
      'DEPRECIATION_AND_AMORTIZATION', 'TOTAL_ASSETS', 'STOCKHOLDERS_EQUITY', 'CURRENT_PORTION_LONG_TERM_DEBT', 'LONG_TERM_DEBT',
    ],
  },
  {
    code: 'working_capital',
    label: 'Liquidity and working capital',
    description: 'Current assets and liabilities behind the liquidity ratios and the cash conversion cycle, with the revenue and cost figures the day counts use.',
    metrics: [
      'CASH_AND_EQUIVALENTS', 'SHORT_TERM_INVESTMENTS', 'ACCOUNTS_RECEIVABLE', 'INVENTORY', 'OTHER_CURRENT_ASSETS',
      'TOTAL_CURRENT_ASSETS', 'ACCOUNTS_PAYABLE', 'ACCRUED_LIABILITIES', 'DEFERRED_REVENUE_CURRENT', 'SHORT_TERM_DEBT',
      'CURRENT_PORTION_LONG_TERM_DEBT', 'TOTAL_CURRENT_LIABILITIES', 'REVENUE', 'COST_OF_REVENUE',
    ],
  },
  {
    code: 'leverage',
    label: 'Leverage and capital structure',
    description: 'Debt, leases and equity at period end, with the interest and operating income that service them.',
    metrics: [
      'SHORT_TERM_DEBT', 'CURRENT_PORTION_LONG_TERM_DEBT', 'LONG_TERM_DEBT', 'LONG_TERM_DEBT_INCLUDING_CURRENT',
      'OPERATING_LEASE_LIABILITY', 'FINANCE_LEASE_LIABILITY', 'CASH_AND_EQUIVALENTS', 'TOTAL_ASSETS', 'TOTAL_LIABILITIES',
      'STOCKHOLDERS_EQUITY', 'NONCONTROLLING_INTEREST', 'TOTAL_EQUITY', 'OPERATING_INCOME', 'INTEREST_EXPENSE',
    ],
  },
  {
    code: 'per_share',
    label: 'Per share and shareholder returns',
    description: 'EPS, dividends per share, share counts, and the cash returned through dividends and buybacks.',
    metrics: [
      'EPS_BASIC', 'EPS_DILUTED', 'DIVIDENDS_PER_SHARE', 'WEIGHTED_AVERAGE_SHARES_BASIC', 'WEIGHTED_AVERAGE_SHARES_DILUTED',
      'SHARES_OUTSTANDING', 'DIVIDENDS_PAID', 'SHARE_REPURCHASES', 'TAX_WITHHOLDING_ON_SHARE_BASED_COMPENSATION',
    ],
  },
];

export const METRIC_VIEWS: MetricBundle[] = [
  {
    code: 'core_fundamentals',
    label: 'Core fundamentals',
    description: 'A one-screen summary: the headline statement figures with the margin, return, liquidity, leverage and cash-flow ratios built from them.',
    metrics: [
      'REVENUE', 'GROSS_PROFIT', 'OPERATING_INCOME', 'NET_INCOME', 'EPS_DILUTED', 'TOTAL_ASSETS', 'STOCKHOLDERS_EQUITY',
      'CASH_AND_EQUIVALENTS', 'OPERATING_CASH_FLOW', 'CAPITAL_EXPENDITURES',
      'GROSS_MARGIN', 'OPERATING_MARGIN', 'NET_MARGIN', 'ROE', 'ROA', 'CURRENT_RATIO', 'DEBT_TO_EQUITY', 'FREE_CASH_FLOW',
    ],
  },
  {
    code: 'earnings_quality',
    label: 'Earnings quality',
    description: 'Net income against the cash it produced, with the conversion ratios and working-capital days.',
    metrics: [
      'NET_INCOME', 'OPERATING_CASH_FLOW', 'CAPITAL_EXPENDITURES', 'SHARE_BASED_COMPENSATION', 'CHANGE_IN_RECEIVABLES',
      'FREE_CASH_FLOW', 'FCF_CONVERSION', 'FCF_MARGIN', 'DSO', 'DIO', 'DPO', 'CASH_CONVERSION_CYCLE',
    ],
  },
  {
    code: 'balance_sheet_health',
    label: 'Balance sheet health',
    description: 'Liquidity and leverage at period end, with the debt and equity balances behind the ratios.',
    metrics: [
      'CASH_AND_EQUIVALENTS', 'TOTAL_CURRENT_ASSETS', 'TOTAL_CURRENT_LIABILITIES', 'LONG_TERM_DEBT', 'STOCKHOLDERS_EQUITY',
      'CURRENT_RATIO', 'QUICK_RATIO', 'CASH_RATIO', 'DEBT_TO_EQUITY', 'DEBT_TO_ASSETS', 'NET_DEBT', 'INTEREST_COVERAGE',
    ],
  },
];
