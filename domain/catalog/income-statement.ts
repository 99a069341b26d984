/**
 * Canonical income-statement metrics (including per-share figures, share counts and comprehensive
 * income). Candidates are ordered: the first one the filing tagged for the period wins, so totals
 * come before narrower tags, us-gaap before the ifrs-full equivalent.
 */
import { ifrs, incomeMetric, usgaap } from './builders.ts';
import type { CanonicalMetric } from './types.ts';

const EXPENSE_POSITIVE = 'positive expense, as tagged';

export const INCOME_STATEMENT_METRICS: CanonicalMetric[] = [
  // ---- revenue and cost of revenue
  incomeMetric({
    metric: 'REVENUE', display_name: 'Revenue', category: 'REVENUE',
    // banks and insurers report no revenue total, so its absence is less telling than net income's
    traits: { non_negative: true, headline: true, quality_required: 'MEDIUM', coverage_core: true, trust_requirement: 'REVENUE', scale_checked: true, ttm: { as: 'flow', place: 1 }, valuation_input: 1 },
    concepts: [usgaap('Revenues'), usgaap('RevenueFromContractWithCustomerExcludingAssessedTax'), usgaap('RevenueFromContractWithCustomerIncludingAssessedTax'), usgaap('SalesRevenueNet'), usgaap('SalesRevenueGoodsNet'), ifrs('Revenue')],
    sign_convention: 'positive, as tagged',
    source_notes: 'Total revenue: us-gaap Revenues first, then the ASC 606 contract-revenue tags (excluding, then including, assessed tax), then the pre-2018 SalesRevenueNet; SalesRevenueGoodsNet is used only by filers that tagged nothing broader (net sales of goods-only companies); IFRS Revenue last.',
  }),
  incomeMetric({
    metric: 'COST_OF_REVENUE', display_name: 'Cost of revenue', category: 'EXPENSES',
    traits: { non_negative: true, scale_checked: true, ttm: { as: 'flow', place: 2 }, margin_line: 'gross' },
    concepts: [usgaap('CostOfRevenue'), usgaap('CostOfGoodsAndServicesSold'), usgaap('CostOfGoodsSold'), usgaap('CostOfServices'), ifrs('CostOfSales')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'CostOfRevenue, then CostOfGoodsAndServicesSold, CostOfGoodsSold, CostOfServices (IFRS CostOfSales); a positive expense. Depreciation a filer shows outside cost of sales is not added back in.',
  }),
  incomeMetric({
    metric: 'GROSS_PROFIT', display_name: 'Gross profit', category: 'PROFITABILITY',
    traits: { ttm: { as: 'flow', place: 3 }, valuation_input: 2 },
    concepts: [usgaap('GrossProfit'), ifrs('GrossProfit')],
    sign_convention: 'positive profit, negative loss',
    source_notes: 'GrossProfit as tagged; filers that do not present a gross-profit line (retailers, service companies) have none, and it is not computed here.',
  }),
  // ---- operating expenses
  incomeMetric({
    metric: 'RESEARCH_AND_DEVELOPMENT', display_name: 'Research and development', category: 'EXPENSES',
    traits: { non_negative: true, scale_checked: true, margin_line: 'operating' },
    concepts: [usgaap('ResearchAndDevelopmentExpense'), ifrs('ResearchAndDevelopmentExpense')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'ResearchAndDevelopmentExpense (IFRS ResearchAndDevelopmentExpense); a positive expense. Acquired in-process R&D written off separately is not included.',
  }),
  incomeMetric({
    metric: 'SELLING_GENERAL_AND_ADMINISTRATIVE', display_name: 'Selling, general and administrative', category: 'EXPENSES',
    traits: { non_negative: true, scale_checked: true, margin_line: 'operating' },
    concepts: [usgaap('SellingGeneralAndAdministrativeExpense'), ifrs('SellingGeneralAndAdministrativeExpense')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'SellingGeneralAndAdministrativeExpense only; filers that present selling/marketing and G&A as separate lines have those two metrics instead, and their sum is not substituted here.',
  }),
  incomeMetric({
    metric: 'SELLING_AND_MARKETING', display_name: 'Selling and marketing', category: 'EXPENSES',
    traits: { non_negative: true, scale_checked: true, margin_line: 'operating' },
    concepts: [usgaap('SellingAndMarketingExpense'), ifrs('SalesAndMarketingExpense')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'SellingAndMarketingExpense (IFRS SalesAndMarketingExpense), for filers that split SG&A; a positive expense.',
  }),
  incomeMetric({
    metric: 'GENERAL_AND_ADMINISTRATIVE', display_name: 'General and administrative', category: 'EXPENSES',
    traits: { non_negative: true, scale_checked: true, margin_line: 'operating' },
    concepts: [usgaap('GeneralAndAdministrativeExpense'), ifrs('GeneralAndAdministrativeExpense')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'GeneralAndAdministrativeExpense (IFRS GeneralAndAdministrativeExpense), for filers that split SG&A; a positive expense.',
  }),
  incomeMetric({
    metric: 'OPERATING_EXPENSES', display_name: 'Operating expenses', category: 'EXPENSES',
    traits: { non_negative: true, scale_checked: true },
    concepts: [usgaap('OperatingExpenses'), ifrs('OperatingExpenseExcludingCostOfSales')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'Total operating expenses excluding cost of revenue: us-gaap OperatingExpenses (IFRS OperatingExpenseExcludingCostOfSales). CostsAndExpenses includes cost of revenue and is a different total (COSTS_AND_EXPENSES); a single expense line never stands in for this total.',
  }),
  incomeMetric({
    metric: 'COSTS_AND_EXPENSES', display_name: 'Total costs and expenses', category: 'EXPENSES',
    traits: { non_negative: true, scale_checked: true },
    concepts: [usgaap('CostsAndExpenses'), usgaap('OperatingCostsAndExpenses')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'Total costs and expenses including cost of revenue, for filers that present one expense total above operating income: CostsAndExpenses, then OperatingCostsAndExpenses.',
  }),
  incomeMetric({
    metric: 'RESTRUCTURING_CHARGES', display_name: 'Restructuring charges', category: 'EXPENSES',
    traits: { margin_line: 'operating' },
    concepts: [usgaap('RestructuringCharges')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'RestructuringCharges; a combined restructuring-and-impairment line (RestructuringCostsAndAssetImpairmentCharges) is broader and is not used.',
  }),
  incomeMetric({
    metric: 'GOODWILL_IMPAIRMENT', display_name: 'Goodwill impairment', category: 'EXPENSES',
    traits: { non_negative: true, margin_line: 'operating' },
    concepts: [usgaap('GoodwillImpairmentLoss'), ifrs('ImpairmentLossRecognisedInProfitOrLossGoodwill')],
    sign_convention: 'positive charge, as tagged',
    source_notes: 'GoodwillImpairmentLoss (IFRS ImpairmentLossRecognisedInProfitOrLossGoodwill), often tagged only in the goodwill note or cash-flow reconciliation.',
  }),
  incomeMetric({
    metric: 'ASSET_IMPAIRMENT_CHARGES', display_name: 'Asset impairment charges', category: 'EXPENSES',
    traits: { margin_line: 'operating' },
    concepts: [usgaap('AssetImpairmentCharges')],
    sign_convention: 'positive charge, as tagged',
    source_notes: 'AssetImpairmentCharges (total impairment of long-lived assets, often the cash-flow add-back); narrower held-for-use impairment tags are not used.',
  }),
  // ---- operating income and non-operating items
  incomeMetric({
    metric: 'OPERATING_INCOME', display_name: 'Operating income', category: 'PROFITABILITY',
    traits: { coverage_core: true, trust_requirement: 'OPERATING_INCOME', ttm: { as: 'flow', place: 4 }, valuation_input: 3 },
    concepts: [usgaap('OperatingIncomeLoss'), ifrs('ProfitLossFromOperatingActivities')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'OperatingIncomeLoss (IFRS ProfitLossFromOperatingActivities); filers that present no operating-income line have none.',
  }),
  incomeMetric({
    metric: 'INTEREST_EXPENSE', display_name: 'Interest expense', category: 'EXPENSES',
    traits: { non_negative: true, margin_line: 'below_operating' },
    concepts: [usgaap('InterestExpense'), usgaap('InterestExpenseNonoperating'), usgaap('InterestAndDebtExpense'), ifrs('FinanceCosts')],
    sign_convention: EXPENSE_POSITIVE,
    source_notes: 'Gross interest expense: InterestExpense, then InterestExpenseNonoperating (the 2023+ tag), InterestAndDebtExpense (IFRS FinanceCosts). Components such as InterestExpenseDebt alone are not used; net interest is NET_INTEREST_INCOME_EXPENSE.',
  }),
  incomeMetric({
    metric: 'INTEREST_INCOME', display_name: 'Interest income', category: 'NON_OPERATING',
    traits: { margin_line: 'below_operating' },
    concepts: [usgaap('InvestmentIncomeInterest'), usgaap('InvestmentIncomeInterestAndDividend'), ifrs('RevenueFromInterest')],
    sign_convention: 'positive income, as tagged',
    source_notes: 'Interest income on cash and investments: InvestmentIncomeInterest, then InvestmentIncomeInterestAndDividend (includes dividends, used when the filer presents them together); IFRS RevenueFromInterest.',
  }),
  incomeMetric({
    metric: 'NET_INTEREST_INCOME_EXPENSE', display_name: 'Interest income (expense), net', category: 'NON_OPERATING',
    traits: { margin_line: 'below_operating' },
    concepts: [usgaap('InterestIncomeExpenseNonoperatingNet'), usgaap('InterestIncomeExpenseNet')],
    sign_convention: 'positive net income, negative net expense',
    source_notes: 'Net interest for filers that present one net line: InterestIncomeExpenseNonoperatingNet, then InterestIncomeExpenseNet; negative when interest expense exceeds interest income.',
  }),
  incomeMetric({
    metric: 'OTHER_INCOME_EXPENSE', display_name: 'Other income (expense), net', category: 'NON_OPERATING',
    traits: { margin_line: 'below_operating' },
    concepts: [usgaap('OtherNonoperatingIncomeExpense')],
    sign_convention: 'positive income, negative expense',
    source_notes: 'The "other, net" non-operating line, OtherNonoperatingIncomeExpense; total non-operating income is NON_OPERATING_INCOME_EXPENSE.',
  }),
  incomeMetric({
    metric: 'NON_OPERATING_INCOME_EXPENSE', display_name: 'Total non-operating income (expense)', category: 'NON_OPERATING',
    traits: { margin_line: 'below_operating' },
    concepts: [usgaap('NonoperatingIncomeExpense')],
    sign_convention: 'positive income, negative expense',
    source_notes: 'Total non-operating income (expense) between operating and pre-tax income, NonoperatingIncomeExpense; its "other" component alone never stands in for it.',
  }),
  incomeMetric({
    metric: 'EQUITY_METHOD_INCOME', display_name: 'Income from equity-method investments', category: 'NON_OPERATING',
    traits: { margin_line: 'below_operating' },
    concepts: [usgaap('IncomeLossFromEquityMethodInvestments'), ifrs('ShareOfProfitLossOfAssociatesAndJointVenturesAccountedForUsingEquityMethod'), ifrs('ShareOfProfitLossOfAssociatesAccountedForUsingEquityMethod')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'IncomeLossFromEquityMethodInvestments (IFRS share of profit of associates and joint ventures, then of associates only).',
  }),
  incomeMetric({
    metric: 'GAIN_LOSS_ON_DEBT_EXTINGUISHMENT', display_name: 'Gain (loss) on extinguishment of debt', category: 'NON_OPERATING',
    traits: { margin_line: 'below_operating' },
    concepts: [usgaap('GainsLossesOnExtinguishmentOfDebt')],
    sign_convention: 'positive gain, negative loss',
    source_notes: 'GainsLossesOnExtinguishmentOfDebt as tagged: a loss on early repayment is negative.',
  }),
  // ---- pre-tax income, taxes, net income
  incomeMetric({
    metric: 'PRETAX_INCOME', display_name: 'Income before income taxes', category: 'PROFITABILITY',
    traits: { ttm: { as: 'flow', place: 5 } },
    concepts: [usgaap('IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest'), usgaap('IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments'), ifrs('ProfitLossBeforeTax')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'Income from continuing operations before tax: the standard total first, then the before-equity-method variant most filers used for the same line until about 2020 (it differs only when equity-method income sits below it). The domestic/foreign split is never used.',
  }),
  incomeMetric({
    metric: 'INCOME_TAX_EXPENSE', display_name: 'Income tax expense (benefit)', category: 'EXPENSES',
    traits: { ttm: { as: 'flow', place: 6 }, margin_line: 'below_operating' },
    concepts: [usgaap('IncomeTaxExpenseBenefit'), usgaap('IncomeTaxExpenseBenefitContinuingOperations'), ifrs('IncomeTaxExpenseContinuingOperations')],
    sign_convention: 'positive expense, negative benefit, as tagged',
    source_notes: 'IncomeTaxExpenseBenefit, then the older IncomeTaxExpenseBenefitContinuingOperations (IFRS IncomeTaxExpenseContinuingOperations); a tax benefit is negative.',
  }),
  incomeMetric({
    metric: 'CURRENT_INCOME_TAX_EXPENSE', display_name: 'Current income tax expense', category: 'EXPENSES',
    concepts: [usgaap('CurrentIncomeTaxExpenseBenefit'), ifrs('CurrentTaxExpenseIncomeAndAdjustmentsForCurrentTaxOfPriorPeriods'), ifrs('CurrentTaxExpenseIncome')],
    sign_convention: 'positive expense, negative benefit, as tagged',
    source_notes: 'Current (cash-basis) part of the tax provision from the tax note: CurrentIncomeTaxExpenseBenefit (IFRS current tax including prior-period adjustments, then current tax). The deferred part is DEFERRED_INCOME_TAXES.',
  }),
  incomeMetric({
    metric: 'INCOME_FROM_CONTINUING_OPERATIONS', display_name: 'Income from continuing operations', category: 'PROFITABILITY',
    concepts: [usgaap('IncomeLossFromContinuingOperations')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'IncomeLossFromContinuingOperations, after tax and attributable to the parent (the us-gaap element excludes the noncontrolling share); usually tagged only by filers that also report discontinued operations.',
  }),
  incomeMetric({
    metric: 'INCOME_FROM_DISCONTINUED_OPERATIONS', display_name: 'Income from discontinued operations', category: 'PROFITABILITY',
    traits: { margin_line: 'below_operating' },
    concepts: [usgaap('IncomeLossFromDiscontinuedOperationsNetOfTax'), usgaap('IncomeLossFromDiscontinuedOperationsNetOfTaxAttributableToReportingEntity'), ifrs('ProfitLossFromDiscontinuedOperations')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'IncomeLossFromDiscontinuedOperationsNetOfTax, then the parent-attributable variant (IFRS ProfitLossFromDiscontinuedOperations); net of tax.',
  }),
  incomeMetric({
    metric: 'NET_INCOME_INCLUDING_NONCONTROLLING', display_name: 'Net income including noncontrolling interest', category: 'PROFITABILITY',
    concepts: [usgaap('ProfitLoss'), ifrs('ProfitLoss')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'Consolidated net income before the noncontrolling share: ProfitLoss (IFRS ProfitLoss). Parent-only NetIncomeLoss never stands in for it; filers without noncontrolling interests often tag only NetIncomeLoss.',
  }),
  incomeMetric({
    metric: 'NET_INCOME_NONCONTROLLING', display_name: 'Net income attributable to noncontrolling interest', category: 'PROFITABILITY',
    concepts: [usgaap('NetIncomeLossAttributableToNoncontrollingInterest'), ifrs('ProfitLossAttributableToNoncontrollingInterests')],
    sign_convention: 'positive when the minority holders earn income',
    source_notes: 'NetIncomeLossAttributableToNoncontrollingInterest (IFRS ProfitLossAttributableToNoncontrollingInterests); NET_INCOME_INCLUDING_NONCONTROLLING = NET_INCOME + this.',
  }),
  incomeMetric({
    metric: 'NET_INCOME', display_name: 'Net income attributable to parent', category: 'PROFITABILITY',
    traits: { quality_required: 'HIGH', coverage_core: true, trust_requirement: 'NET_INCOME', ttm: { as: 'flow', place: 7 }, valuation_input: 4 },
    concepts: [usgaap('NetIncomeLoss'), ifrs('ProfitLossAttributableToOwnersOfParent')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'Net income attributable to the parent\'s shareholders: us-gaap NetIncomeLoss (IFRS ProfitLossAttributableToOwnersOfParent). ProfitLoss includes the noncontrolling share and is NET_INCOME_INCLUDING_NONCONTROLLING.',
  }),
  incomeMetric({
    metric: 'NET_INCOME_AVAILABLE_TO_COMMON', display_name: 'Net income available to common shareholders', category: 'PROFITABILITY',
    concepts: [usgaap('NetIncomeLossAvailableToCommonStockholdersBasic'), ifrs('ProfitLossAttributableToOrdinaryEquityHoldersOfParentEntity')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'Numerator of basic EPS after preferred dividends and participating-security allocations: NetIncomeLossAvailableToCommonStockholdersBasic (IFRS profit attributable to ordinary equity holders).',
  }),
  // ---- per share and share counts
  incomeMetric({
    metric: 'EPS_BASIC', display_name: 'Earnings per share, basic', category: 'PER_SHARE', unit_type: 'per_share',
    concepts: [usgaap('EarningsPerShareBasic'), usgaap('EarningsPerShareBasicAndDiluted'), ifrs('BasicEarningsLossPerShare')],
    sign_convention: 'positive earnings, negative loss per share',
    source_notes: 'EarningsPerShareBasic, then EarningsPerShareBasicAndDiluted (filers with a loss present one figure for both); IFRS BasicEarningsLossPerShare. In the currency of the filing per share.',
  }),
  incomeMetric({
    metric: 'EPS_DILUTED', display_name: 'Earnings per share, diluted', category: 'PER_SHARE', unit_type: 'per_share',
    traits: { coverage_core: true, trust_requirement: 'EPS_DILUTED', valuation_input: 5 },
    concepts: [usgaap('EarningsPerShareDiluted'), usgaap('EarningsPerShareBasicAndDiluted'), ifrs('DilutedEarningsLossPerShare')],
    sign_convention: 'positive earnings, negative loss per share',
    source_notes: 'EarningsPerShareDiluted, then EarningsPerShareBasicAndDiluted (one figure stated for both, so it serves basic and diluted alike); IFRS DilutedEarningsLossPerShare.',
  }),
  incomeMetric({
    metric: 'EPS_CONTINUING_OPERATIONS_BASIC', display_name: 'EPS from continuing operations, basic', category: 'PER_SHARE', unit_type: 'per_share',
    concepts: [usgaap('IncomeLossFromContinuingOperationsPerBasicShare'), ifrs('BasicEarningsLossPerShareFromContinuingOperations')],
    sign_convention: 'positive earnings, negative loss per share',
    source_notes: 'IncomeLossFromContinuingOperationsPerBasicShare (IFRS BasicEarningsLossPerShareFromContinuingOperations); tagged mainly by filers with discontinued operations.',
  }),
  incomeMetric({
    metric: 'EPS_CONTINUING_OPERATIONS_DILUTED', display_name: 'EPS from continuing operations, diluted', category: 'PER_SHARE', unit_type: 'per_share',
    concepts: [usgaap('IncomeLossFromContinuingOperationsPerDilutedShare'), ifrs('DilutedEarningsLossPerShareFromContinuingOperations')],
    sign_convention: 'positive earnings, negative loss per share',
    source_notes: 'IncomeLossFromContinuingOperationsPerDilutedShare (IFRS DilutedEarningsLossPerShareFromContinuingOperations).',
  }),
  incomeMetric({
    metric: 'WEIGHTED_AVERAGE_SHARES_BASIC', display_name: 'Weighted average shares, basic', category: 'SHARES', unit_type: 'shares',
    traits: { non_negative: true, headline: true, scale_checked: true },
    concepts: [usgaap('WeightedAverageNumberOfSharesOutstandingBasic'), usgaap('WeightedAverageNumberOfShareOutstandingBasicAndDiluted'), ifrs('WeightedAverageShares')],
    sign_convention: 'positive share count',
    source_notes: 'Weighted average shares over the period for basic EPS: WeightedAverageNumberOfSharesOutstandingBasic, then the basic-and-diluted tag; IFRS WeightedAverageShares.',
  }),
  incomeMetric({
    metric: 'WEIGHTED_AVERAGE_SHARES_DILUTED', display_name: 'Weighted average shares, diluted', category: 'SHARES', unit_type: 'shares',
    traits: { non_negative: true, headline: true, scale_checked: true, valuation_input: 6 },
    concepts: [usgaap('WeightedAverageNumberOfDilutedSharesOutstanding'), usgaap('WeightedAverageNumberOfShareOutstandingBasicAndDiluted'), ifrs('AdjustedWeightedAverageShares')],
    sign_convention: 'positive share count',
    source_notes: 'WeightedAverageNumberOfDilutedSharesOutstanding, then the basic-and-diluted tag (one count stated for both); IFRS AdjustedWeightedAverageShares.',
  }),
  incomeMetric({
    metric: 'DIVIDENDS_PER_SHARE', display_name: 'Dividends declared per share', category: 'PER_SHARE', unit_type: 'per_share',
    traits: { non_negative: true },
    concepts: [usgaap('CommonStockDividendsPerShareDeclared'), usgaap('CommonStockDividendsPerShareCashPaid'), ifrs('DividendsRecognisedAsDistributionsToOwnersPerShare')],
    sign_convention: 'positive amount per common share',
    source_notes: 'Dividends per common share declared in the period (CommonStockDividendsPerShareDeclared), then paid (CommonStockDividendsPerShareCashPaid) for filers that disclose only that; IFRS dividends recognised per share.',
  }),
  // ---- comprehensive income
  incomeMetric({
    metric: 'OTHER_COMPREHENSIVE_INCOME', display_name: 'Other comprehensive income', category: 'COMPREHENSIVE_INCOME',
    concepts: [usgaap('OtherComprehensiveIncomeLossNetOfTax'), ifrs('OtherComprehensiveIncome')],
    sign_convention: 'positive gain, negative loss, net of tax',
    source_notes: 'Total other comprehensive income net of tax: OtherComprehensiveIncomeLossNetOfTax (IFRS OtherComprehensiveIncome).',
  }),
  incomeMetric({
    metric: 'COMPREHENSIVE_INCOME', display_name: 'Comprehensive income attributable to parent', category: 'COMPREHENSIVE_INCOME',
    concepts: [usgaap('ComprehensiveIncomeNetOfTax'), ifrs('ComprehensiveIncomeAttributableToOwnersOfParent')],
    sign_convention: 'positive income, negative loss',
    source_notes: 'Net income plus OCI attributable to the parent: ComprehensiveIncomeNetOfTax (IFRS ComprehensiveIncomeAttributableToOwnersOfParent); the total including noncontrolling interest is not used.',
  }),
];
