/**
 * Canonical cash-flow-statement metrics. Section totals keep the filer's sign (negative = net
 * outflow); named payments (capital expenditures, dividends, repurchases, acquisitions) are served
 * as positive payments; reconciliation items and working-capital changes carry their effect on
 * cash (negative = uses cash), which is why several us-gaap IncreaseDecrease tags are negated.
 */
import { cashFlowMetric, ifrs, usgaap } from './builders.ts';
import type { CanonicalMetric } from './types.ts';

const PAYMENT = 'positive payment (cash outflow)';
const PROCEEDS = 'positive proceeds (cash inflow)';
const CASH_EFFECT = 'effect on cash: positive adds to operating cash flow, negative uses cash';
const SECTION_TOTAL = 'as filed: positive net inflow, negative net outflow';
const ASSET_CHANGE_NEGATED = 'The us-gaap IncreaseDecrease tag is positive when the asset grew, so it is negated; the IFRS adjustment tag already carries the cash effect.';

export const CASH_FLOW_METRICS: CanonicalMetric[] = [
  // ---- operating activities: non-cash items
  cashFlowMetric({
    metric: 'DEPRECIATION_AND_AMORTIZATION', display_name: 'Depreciation and amortization', category: 'OPERATING_ACTIVITIES',
    traits: { non_negative: true, scale_checked: true, ttm: { as: 'flow', place: 8 }, valuation_input: 7 },
    concepts: [usgaap('DepreciationAmortizationAndAccretionNet'), usgaap('DepreciationDepletionAndAmortization'), usgaap('DepreciationAndAmortization'), ifrs('DepreciationAndAmortisationExpense')],
    sign_convention: 'positive add-back',
    source_notes: 'The cash-flow add-back: DepreciationAmortizationAndAccretionNet (a cash-flow-only element), then DepreciationDepletionAndAmortization, then DepreciationAndAmortization, which some filers use for a narrower income-statement line excluding D&A inside cost of sales; IFRS DepreciationAndAmortisationExpense.',
  }),
  cashFlowMetric({
    metric: 'DEPRECIATION', display_name: 'Depreciation', category: 'OPERATING_ACTIVITIES',
    traits: { non_negative: true, scale_checked: true },
    concepts: [usgaap('Depreciation'), ifrs('DepreciationExpense')],
    sign_convention: 'positive expense',
    source_notes: 'Depreciation of property, plant and equipment, often from the PP&E note: Depreciation (IFRS DepreciationExpense). Segment-specific tags such as non-rental depreciation are not used.',
  }),
  cashFlowMetric({
    metric: 'AMORTIZATION_OF_INTANGIBLES', display_name: 'Amortization of intangible assets', category: 'OPERATING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('AmortizationOfIntangibleAssets'), ifrs('AmortisationExpense')],
    sign_convention: 'positive expense',
    source_notes: 'AmortizationOfIntangibleAssets (IFRS AmortisationExpense).',
  }),
  cashFlowMetric({
    metric: 'SHARE_BASED_COMPENSATION', display_name: 'Share-based compensation', category: 'OPERATING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('ShareBasedCompensation'), usgaap('AllocatedShareBasedCompensationExpense'), ifrs('AdjustmentsForSharebasedPayments')],
    sign_convention: 'positive add-back',
    source_notes: 'The non-cash add-back ShareBasedCompensation, then the expense recognized per the stock-compensation note (AllocatedShareBasedCompensationExpense, pre-tax); IFRS AdjustmentsForSharebasedPayments.',
  }),
  cashFlowMetric({
    metric: 'DEFERRED_INCOME_TAXES', display_name: 'Deferred income taxes', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('DeferredIncomeTaxesAndTaxCredits'), usgaap('DeferredIncomeTaxExpenseBenefit'), ifrs('DeferredTaxExpenseIncome')],
    sign_convention: 'positive deferred expense (added back), negative deferred benefit',
    source_notes: 'The cash-flow deferred-tax adjustment: DeferredIncomeTaxesAndTaxCredits (used only on the cash-flow statement, so it wins where tagged), then DeferredIncomeTaxExpenseBenefit, the deferred part of the tax provision; IFRS DeferredTaxExpenseIncome.',
  }),
  cashFlowMetric({
    metric: 'OTHER_NONCASH_ITEMS', display_name: 'Other non-cash items', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('OtherNoncashIncomeExpense', true), usgaap('OtherNoncashExpense'), ifrs('OtherAdjustmentsToReconcileProfitLoss')],
    sign_convention: CASH_EFFECT,
    source_notes: 'The "other" reconciling line. us-gaap OtherNoncashIncomeExpense is positive for non-cash income, which reduces cash flow, so it is negated; OtherNoncashExpense is already an add-back; IFRS OtherAdjustmentsToReconcileProfitLoss.',
  }),
  // ---- operating activities: working capital
  cashFlowMetric({
    metric: 'CHANGE_IN_RECEIVABLES', display_name: 'Change in receivables', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('IncreaseDecreaseInReceivables', true), usgaap('IncreaseDecreaseInAccountsReceivable', true), ifrs('AdjustmentsForDecreaseIncreaseInTradeAccountReceivable')],
    sign_convention: CASH_EFFECT,
    source_notes: `IncreaseDecreaseInReceivables (all receivables), then IncreaseDecreaseInAccountsReceivable; negative when receivables grew. ${ASSET_CHANGE_NEGATED}`,
  }),
  cashFlowMetric({
    metric: 'CHANGE_IN_INVENTORIES', display_name: 'Change in inventories', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('IncreaseDecreaseInInventories', true), ifrs('AdjustmentsForDecreaseIncreaseInInventories')],
    sign_convention: CASH_EFFECT,
    source_notes: `IncreaseDecreaseInInventories; negative when inventory grew. ${ASSET_CHANGE_NEGATED}`,
  }),
  cashFlowMetric({
    metric: 'CHANGE_IN_PREPAID_AND_OTHER_ASSETS', display_name: 'Change in prepaid expenses and other assets', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('IncreaseDecreaseInPrepaidDeferredExpenseAndOtherAssets', true)],
    sign_convention: CASH_EFFECT,
    source_notes: 'IncreaseDecreaseInPrepaidDeferredExpenseAndOtherAssets, negated: the tag is positive when the assets grew, which uses cash.',
  }),
  cashFlowMetric({
    metric: 'CHANGE_IN_PAYABLES', display_name: 'Change in accounts payable', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('IncreaseDecreaseInAccountsPayable'), usgaap('IncreaseDecreaseInAccountsPayableTrade'), ifrs('AdjustmentsForIncreaseDecreaseInTradeAccountPayable')],
    sign_convention: CASH_EFFECT,
    source_notes: 'IncreaseDecreaseInAccountsPayable, then the trade-payables variant (IFRS trade payables adjustment); positive when payables grew, as tagged.',
  }),
  cashFlowMetric({
    metric: 'CHANGE_IN_ACCRUED_LIABILITIES', display_name: 'Change in accrued liabilities', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('IncreaseDecreaseInAccruedLiabilities')],
    sign_convention: CASH_EFFECT,
    source_notes: 'IncreaseDecreaseInAccruedLiabilities; positive when accruals grew, as tagged.',
  }),
  cashFlowMetric({
    metric: 'CHANGE_IN_PAYABLES_AND_ACCRUED_LIABILITIES', display_name: 'Change in payables and accrued liabilities', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('IncreaseDecreaseInAccountsPayableAndAccruedLiabilities')],
    sign_convention: CASH_EFFECT,
    source_notes: 'The combined line for filers that do not split payables from accruals (Texas Instruments, Home Depot, Disney): IncreaseDecreaseInAccountsPayableAndAccruedLiabilities, as tagged.',
  }),
  cashFlowMetric({
    metric: 'CHANGE_IN_DEFERRED_REVENUE', display_name: 'Change in deferred revenue', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('IncreaseDecreaseInContractWithCustomerLiability'), usgaap('IncreaseDecreaseInDeferredRevenue')],
    sign_convention: CASH_EFFECT,
    source_notes: 'IncreaseDecreaseInContractWithCustomerLiability (ASC 606), then the pre-2018 IncreaseDecreaseInDeferredRevenue; positive when deferred revenue grew, as tagged.',
  }),
  cashFlowMetric({
    metric: 'CHANGE_IN_INCOME_TAXES_PAYABLE', display_name: 'Change in income taxes payable', category: 'OPERATING_ACTIVITIES',
    concepts: [usgaap('IncreaseDecreaseInAccruedIncomeTaxesPayable'), usgaap('IncreaseDecreaseInIncomeTaxesPayableNetOfIncomeTaxesReceivable')],
    sign_convention: CASH_EFFECT,
    source_notes: 'IncreaseDecreaseInAccruedIncomeTaxesPayable, then the variant net of income taxes receivable; positive when the liability grew, as tagged.',
  }),
  cashFlowMetric({
    metric: 'OPERATING_CASH_FLOW', display_name: 'Net cash from operating activities', category: 'OPERATING_ACTIVITIES',
    traits: { quality_required: 'HIGH', coverage_core: true, trust_requirement: 'OPERATING_CASH_FLOW', ttm: { as: 'flow', place: 9 }, valuation_input: 8 },
    concepts: [usgaap('NetCashProvidedByUsedInOperatingActivities'), usgaap('NetCashProvidedByUsedInOperatingActivitiesContinuingOperations'), ifrs('CashFlowsFromUsedInOperatingActivities')],
    sign_convention: SECTION_TOTAL,
    source_notes: 'NetCashProvidedByUsedInOperatingActivities, then the continuing-operations element, which filers without discontinued operations used for their total in 2012-2018 (a filer with discontinued-operations cash flows tags the total, which wins); IFRS CashFlowsFromUsedInOperatingActivities.',
  }),
  // ---- investing activities
  cashFlowMetric({
    metric: 'CAPITAL_EXPENDITURES', display_name: 'Capital expenditures', category: 'INVESTING_ACTIVITIES',
    traits: { non_negative: true, ttm: { as: 'flow', place: 10 }, valuation_input: 9 },
    concepts: [usgaap('PaymentsToAcquirePropertyPlantAndEquipment'), usgaap('PaymentsToAcquireProductiveAssets'), ifrs('PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities')],
    sign_convention: PAYMENT,
    source_notes: 'Cash paid for property, plant and equipment as a positive payment: PaymentsToAcquirePropertyPlantAndEquipment, then PaymentsToAcquireProductiveAssets (capital expenditures including other productive assets); IFRS PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities.',
  }),
  cashFlowMetric({
    metric: 'PROCEEDS_FROM_SALE_OF_PPE', display_name: 'Proceeds from sale of property and equipment', category: 'INVESTING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('ProceedsFromSaleOfPropertyPlantAndEquipment'), usgaap('ProceedsFromSaleOfProductiveAssets'), ifrs('ProceedsFromSalesOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities')],
    sign_convention: PROCEEDS,
    source_notes: 'ProceedsFromSaleOfPropertyPlantAndEquipment, then ProceedsFromSaleOfProductiveAssets (IFRS proceeds from sales of PP&E).',
  }),
  cashFlowMetric({
    metric: 'ACQUISITIONS_NET_OF_CASH', display_name: 'Acquisitions, net of cash acquired', category: 'INVESTING_ACTIVITIES',
    concepts: [usgaap('PaymentsToAcquireBusinessesNetOfCashAcquired'), ifrs('CashFlowsUsedInObtainingControlOfSubsidiariesOrOtherBusinessesClassifiedAsInvestingActivities')],
    sign_convention: PAYMENT,
    source_notes: 'PaymentsToAcquireBusinessesNetOfCashAcquired (IFRS cash used in obtaining control of subsidiaries), a positive payment.',
  }),
  cashFlowMetric({
    metric: 'PURCHASES_OF_INTANGIBLE_ASSETS', display_name: 'Purchases of intangible assets', category: 'INVESTING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('PaymentsToAcquireIntangibleAssets'), ifrs('PurchaseOfIntangibleAssetsClassifiedAsInvestingActivities')],
    sign_convention: PAYMENT,
    source_notes: 'PaymentsToAcquireIntangibleAssets (IFRS PurchaseOfIntangibleAssetsClassifiedAsInvestingActivities), a positive payment.',
  }),
  cashFlowMetric({
    metric: 'PURCHASES_OF_INVESTMENTS', display_name: 'Purchases of investments', category: 'INVESTING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('PaymentsToAcquireInvestments'), usgaap('PaymentsToAcquireMarketableSecurities'), usgaap('PaymentsToAcquireAvailableForSaleSecurities'), usgaap('PaymentsToAcquireAvailableForSaleSecuritiesDebt'), usgaap('PaymentsToAcquireShortTermInvestments'), ifrs('PurchaseOfInvestmentsOtherThanInvestmentsAccountedForUsingEquityMethod')],
    sign_convention: PAYMENT,
    source_notes: 'PaymentsToAcquireInvestments (all investments), then the filer\'s single purchases line by security class (marketable, available-for-sale, short-term); a filer with several purchase lines is served only its broadest tagged one.',
  }),
  cashFlowMetric({
    metric: 'PROCEEDS_FROM_INVESTMENTS', display_name: 'Proceeds from sales and maturities of investments', category: 'INVESTING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('ProceedsFromSaleMaturityAndCollectionsOfInvestments'), usgaap('ProceedsFromSaleAndMaturityOfMarketableSecurities'), usgaap('ProceedsFromSaleAndMaturityOfAvailableForSaleSecurities')],
    sign_convention: PROCEEDS,
    source_notes: 'Only combined sale-and-maturity tags; filers that present sales and maturities on separate lines have none, since one of them would understate the total.',
  }),
  cashFlowMetric({
    metric: 'OTHER_INVESTING_ACTIVITIES', display_name: 'Other investing activities', category: 'INVESTING_ACTIVITIES',
    concepts: [usgaap('PaymentsForProceedsFromOtherInvestingActivities', true), ifrs('OtherInflowsOutflowsOfCashClassifiedAsInvestingActivities')],
    sign_convention: 'effect on cash: positive inflow, negative outflow',
    source_notes: 'us-gaap PaymentsForProceedsFromOtherInvestingActivities is positive for a net payment, so it is negated; IFRS OtherInflowsOutflowsOfCashClassifiedAsInvestingActivities already carries the cash effect.',
  }),
  cashFlowMetric({
    metric: 'INVESTING_CASH_FLOW', display_name: 'Net cash from investing activities', category: 'INVESTING_ACTIVITIES',
    traits: { coverage_core: true, trust_requirement: 'INVESTING_CASH_FLOW' },
    concepts: [usgaap('NetCashProvidedByUsedInInvestingActivities'), usgaap('NetCashProvidedByUsedInInvestingActivitiesContinuingOperations'), ifrs('CashFlowsFromUsedInInvestingActivities')],
    sign_convention: SECTION_TOTAL,
    source_notes: 'NetCashProvidedByUsedInInvestingActivities as filed (negative = net outflow), then the continuing-operations element used as the total by filers without discontinued operations; IFRS CashFlowsFromUsedInInvestingActivities.',
  }),
  // ---- financing activities
  cashFlowMetric({
    metric: 'PROCEEDS_FROM_DEBT', display_name: 'Proceeds from issuance of debt', category: 'FINANCING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('ProceedsFromIssuanceOfLongTermDebt'), usgaap('ProceedsFromIssuanceOfLongTermDebtAndCapitalSecuritiesNet'), usgaap('ProceedsFromDebtNetOfIssuanceCosts'), usgaap('ProceedsFromIssuanceOfDebt')],
    sign_convention: PROCEEDS,
    source_notes: 'Proceeds from long-term borrowings: ProceedsFromIssuanceOfLongTermDebt, then its variant net of costs; then the all-debt lines of filers that present one borrowing line. Net short-term flows are NET_CHANGE_IN_SHORT_TERM_DEBT. TSMC splits bonds and bank loans with no total, so it has none.',
  }),
  cashFlowMetric({
    metric: 'REPAYMENTS_OF_DEBT', display_name: 'Repayments of debt', category: 'FINANCING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('RepaymentsOfLongTermDebt'), usgaap('RepaymentsOfLongTermDebtAndCapitalSecurities'), usgaap('RepaymentsOfDebt')],
    sign_convention: PAYMENT,
    source_notes: 'RepaymentsOfLongTermDebt, then the variant including capital securities, then RepaymentsOfDebt for filers that present one repayment line; a positive payment.',
  }),
  cashFlowMetric({
    metric: 'NET_CHANGE_IN_SHORT_TERM_DEBT', display_name: 'Net change in short-term borrowings', category: 'FINANCING_ACTIVITIES',
    concepts: [usgaap('ProceedsFromRepaymentsOfShortTermDebt'), usgaap('ProceedsFromRepaymentsOfCommercialPaper'), usgaap('ProceedsFromRepaymentsOfShortTermDebtMaturingInThreeMonthsOrLess'), ifrs('CashFlowsFromUsedInIncreaseDecreaseInCurrentBorrowings')],
    sign_convention: 'positive net borrowing, negative net repayment',
    source_notes: 'Net short-term borrowing flows as filed: ProceedsFromRepaymentsOfShortTermDebt, then commercial paper net, then the 90-days-or-less net line; IFRS increase (decrease) in current borrowings.',
  }),
  cashFlowMetric({
    metric: 'PROCEEDS_FROM_STOCK_ISSUANCE', display_name: 'Proceeds from issuance of stock', category: 'FINANCING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('ProceedsFromIssuanceOrSaleOfEquity'), usgaap('ProceedsFromIssuanceOfCommonStock'), usgaap('ProceedsFromStockPlans'), usgaap('ProceedsFromIssuanceOfSharesUnderIncentiveAndShareBasedCompensationPlansIncludingStockOptions'), usgaap('ProceedsFromIssuanceOfSharesUnderIncentiveAndShareBasedCompensationPlans'), usgaap('ProceedsFromStockOptionsExercised'), ifrs('ProceedsFromIssuingShares'), ifrs('ProceedsFromExerciseOfOptions')],
    sign_convention: PROCEEDS,
    source_notes: 'Cash from issuing shares, including employee plans: ProceedsFromIssuanceOrSaleOfEquity, ProceedsFromIssuanceOfCommonStock, then the employee-plan and option-exercise lines for filers whose only issuance line is one of those.',
  }),
  cashFlowMetric({
    metric: 'SHARE_REPURCHASES', display_name: 'Repurchases of common stock', category: 'FINANCING_ACTIVITIES',
    traits: { non_negative: true, ttm: { as: 'flow', place: 12 }, valuation_input: 11 },
    concepts: [usgaap('PaymentsForRepurchaseOfCommonStock'), usgaap('PaymentsForRepurchaseOfEquity'), ifrs('PaymentsToAcquireOrRedeemEntitysShares')],
    sign_convention: PAYMENT,
    source_notes: 'PaymentsForRepurchaseOfCommonStock as a positive payment, then PaymentsForRepurchaseOfEquity for filers that tag buybacks only that way; IFRS PaymentsToAcquireOrRedeemEntitysShares.',
  }),
  cashFlowMetric({
    metric: 'DIVIDENDS_PAID', display_name: 'Dividends paid', category: 'FINANCING_ACTIVITIES',
    traits: { non_negative: true, ttm: { as: 'flow', place: 11 }, valuation_input: 10 },
    concepts: [usgaap('PaymentsOfDividends'), usgaap('PaymentsOfDividendsCommonStock'), ifrs('DividendsPaidClassifiedAsFinancingActivities')],
    sign_convention: PAYMENT,
    source_notes: 'PaymentsOfDividends, then PaymentsOfDividendsCommonStock; IFRS DividendsPaidClassifiedAsFinancingActivities. A positive payment; dividends to noncontrolling holders shown on a separate line are excluded.',
  }),
  cashFlowMetric({
    metric: 'TAX_WITHHOLDING_ON_SHARE_BASED_COMPENSATION', display_name: 'Taxes paid for net share settlement', category: 'FINANCING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('PaymentsRelatedToTaxWithholdingForShareBasedCompensation')],
    sign_convention: PAYMENT,
    source_notes: 'PaymentsRelatedToTaxWithholdingForShareBasedCompensation: employee taxes paid by withholding shares, economically a repurchase; a positive payment.',
  }),
  cashFlowMetric({
    metric: 'FINANCE_LEASE_PRINCIPAL_PAYMENTS', display_name: 'Finance lease principal payments', category: 'FINANCING_ACTIVITIES',
    traits: { non_negative: true },
    concepts: [usgaap('FinanceLeasePrincipalPayments'), usgaap('RepaymentsOfLongTermCapitalLeaseObligations')],
    sign_convention: PAYMENT,
    source_notes: 'FinanceLeasePrincipalPayments, then the pre-2019 RepaymentsOfLongTermCapitalLeaseObligations; a positive payment.',
  }),
  cashFlowMetric({
    metric: 'OTHER_FINANCING_ACTIVITIES', display_name: 'Other financing activities', category: 'FINANCING_ACTIVITIES',
    concepts: [usgaap('ProceedsFromPaymentsForOtherFinancingActivities')],
    sign_convention: 'effect on cash: positive inflow, negative outflow',
    source_notes: 'ProceedsFromPaymentsForOtherFinancingActivities, as tagged (positive = net inflow).',
  }),
  cashFlowMetric({
    metric: 'FINANCING_CASH_FLOW', display_name: 'Net cash from financing activities', category: 'FINANCING_ACTIVITIES',
    traits: { coverage_core: true, trust_requirement: 'FINANCING_CASH_FLOW' },
    concepts: [usgaap('NetCashProvidedByUsedInFinancingActivities'), usgaap('NetCashProvidedByUsedInFinancingActivitiesContinuingOperations'), ifrs('CashFlowsFromUsedInFinancingActivities')],
    sign_convention: SECTION_TOTAL,
    source_notes: 'NetCashProvidedByUsedInFinancingActivities as filed (negative = net outflow), then the continuing-operations element used as the total by filers without discontinued operations; IFRS CashFlowsFromUsedInFinancingActivities.',
  }),
  // ---- change in cash
  cashFlowMetric({
    metric: 'EFFECT_OF_EXCHANGE_RATE_ON_CASH', display_name: 'Effect of exchange rates on cash', category: 'CASH',
    concepts: [usgaap('EffectOfExchangeRateOnCashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsIncludingDisposalGroupAndDiscontinuedOperations'), usgaap('EffectOfExchangeRateOnCashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents'), usgaap('EffectOfExchangeRateOnCashAndCashEquivalents'), ifrs('EffectOfExchangeRateChangesOnCashAndCashEquivalents')],
    sign_convention: 'as filed: positive increases cash',
    source_notes: 'The FX line of the cash reconciliation: the restricted-cash variants (including disposal groups first), then the pre-2018 EffectOfExchangeRateOnCashAndCashEquivalents; IFRS EffectOfExchangeRateChangesOnCashAndCashEquivalents.',
  }),
  cashFlowMetric({
    metric: 'NET_CHANGE_IN_CASH', display_name: 'Net change in cash', category: 'CASH',
    concepts: [usgaap('CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsPeriodIncreaseDecreaseIncludingExchangeRateEffect'), usgaap('CashAndCashEquivalentsPeriodIncreaseDecrease'), ifrs('IncreaseDecreaseInCashAndCashEquivalents')],
    sign_convention: 'as filed: positive increase, negative decrease',
    source_notes: 'Change in cash including the FX effect: the restricted-cash total (2018+), then CashAndCashEquivalentsPeriodIncreaseDecrease; IFRS IncreaseDecreaseInCashAndCashEquivalents. The before-FX subtotal is never used: where a filer tagged it with one of these (the three section totals exactly, beside a non-zero exchange-rate line), the effect is added (correction NET_CHANGE_IN_CASH_FX_EFFECT_ADDED).',
  }),
  // ---- supplemental disclosures
  cashFlowMetric({
    metric: 'INCOME_TAXES_PAID', display_name: 'Income taxes paid', category: 'SUPPLEMENTAL',
    concepts: [usgaap('IncomeTaxesPaidNet'), usgaap('IncomeTaxesPaid'), ifrs('IncomeTaxesPaidClassifiedAsOperatingActivities')],
    sign_convention: PAYMENT,
    source_notes: 'Supplemental cash paid for income taxes: IncomeTaxesPaidNet (net of refunds), then IncomeTaxesPaid; IFRS income taxes paid classified as operating.',
  }),
  cashFlowMetric({
    metric: 'INTEREST_PAID', display_name: 'Interest paid', category: 'SUPPLEMENTAL',
    traits: { non_negative: true },
    concepts: [usgaap('InterestPaidNet'), usgaap('InterestPaid'), ifrs('InterestPaidClassifiedAsOperatingActivities'), ifrs('InterestPaidClassifiedAsFinancingActivities')],
    sign_convention: PAYMENT,
    source_notes: 'Supplemental cash paid for interest: InterestPaidNet (net of capitalized interest), then InterestPaid; IFRS interest paid, classified as operating or financing.',
  }),
];
