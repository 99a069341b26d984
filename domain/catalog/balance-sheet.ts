/**
 * Canonical balance-sheet metrics: balances at period end (instants), plus the share counts that
 * are stated as of the balance-sheet date. A total is never filled from a narrower tag: a filer
 * that does not tag the total has no value for it.
 */
import { balanceMetric, dei, ifrs, usgaap } from './builders.ts';
import type { CanonicalMetric } from './types.ts';

const BALANCE = 'positive balance, as tagged';
const NO_NARROWER = 'A line item or a narrower total never stands in for this total.';

export const BALANCE_SHEET_METRICS: CanonicalMetric[] = [
  // ---- current assets
  balanceMetric({
    metric: 'CASH_AND_EQUIVALENTS', display_name: 'Cash and cash equivalents', category: 'ASSETS',
    concepts: [usgaap('CashAndCashEquivalentsAtCarryingValue'), ifrs('CashAndCashEquivalents')],
    sign_convention: BALANCE,
    source_notes: 'The balance-sheet cash line, CashAndCashEquivalentsAtCarryingValue (IFRS CashAndCashEquivalents); restricted cash is excluded (see CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH).',
  }),
  balanceMetric({
    metric: 'CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH', display_name: 'Cash, cash equivalents and restricted cash', category: 'ASSETS',
    concepts: [usgaap('CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents')],
    sign_convention: BALANCE,
    source_notes: 'The cash balance the cash-flow statement reconciles to (ASU 2016-18, 2018+), CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents; its change over a period is NET_CHANGE_IN_CASH.',
  }),
  balanceMetric({
    metric: 'SHORT_TERM_INVESTMENTS', display_name: 'Short-term investments', category: 'ASSETS',
    concepts: [usgaap('ShortTermInvestments'), usgaap('MarketableSecuritiesCurrent'), usgaap('AvailableForSaleSecuritiesCurrent'), usgaap('AvailableForSaleSecuritiesDebtSecuritiesCurrent')],
    sign_convention: BALANCE,
    source_notes: 'ShortTermInvestments, then current marketable securities, then current available-for-sale securities (the line filers such as Apple and Nike present); no IFRS total exists for current financial assets held as investments.',
  }),
  balanceMetric({
    metric: 'ACCOUNTS_RECEIVABLE', display_name: 'Accounts receivable, net', category: 'ASSETS',
    concepts: [usgaap('AccountsReceivableNetCurrent'), usgaap('ReceivablesNetCurrent'), usgaap('AccountsNotesAndLoansReceivableNetCurrent'), ifrs('CurrentTradeReceivables')],
    sign_convention: BALANCE,
    source_notes: 'Trade receivables net of allowances: AccountsReceivableNetCurrent, then the balance-sheet receivables line for filers that present one combined line (ReceivablesNetCurrent, AccountsNotesAndLoansReceivableNetCurrent); IFRS CurrentTradeReceivables.',
  }),
  balanceMetric({
    metric: 'INVENTORY', display_name: 'Inventory', category: 'ASSETS',
    concepts: [usgaap('InventoryNet'), ifrs('Inventories')],
    sign_convention: BALANCE,
    source_notes: 'InventoryNet (IFRS Inventories); components such as finished goods are never used for the total.',
  }),
  balanceMetric({
    metric: 'PREPAID_EXPENSES_AND_OTHER_CURRENT_ASSETS', display_name: 'Prepaid expenses and other current assets', category: 'ASSETS',
    concepts: [usgaap('PrepaidExpenseAndOtherAssetsCurrent')],
    sign_convention: BALANCE,
    source_notes: 'The combined line PrepaidExpenseAndOtherAssetsCurrent; filers that present other current assets separately have OTHER_CURRENT_ASSETS instead.',
  }),
  balanceMetric({
    metric: 'OTHER_CURRENT_ASSETS', display_name: 'Other current assets', category: 'ASSETS',
    concepts: [usgaap('OtherAssetsCurrent'), ifrs('OtherCurrentAssets')],
    sign_convention: BALANCE,
    source_notes: 'OtherAssetsCurrent (IFRS OtherCurrentAssets).',
  }),
  balanceMetric({
    metric: 'TOTAL_CURRENT_ASSETS', display_name: 'Total current assets', category: 'ASSETS',
    concepts: [usgaap('AssetsCurrent'), ifrs('CurrentAssets')],
    sign_convention: BALANCE,
    source_notes: `AssetsCurrent (IFRS CurrentAssets). ${NO_NARROWER}`,
  }),
  // ---- non-current assets
  balanceMetric({
    metric: 'PROPERTY_PLANT_EQUIPMENT_GROSS', display_name: 'Property, plant and equipment, gross', category: 'ASSETS',
    concepts: [usgaap('PropertyPlantAndEquipmentGross'), usgaap('PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetBeforeAccumulatedDepreciationAndAmortization')],
    sign_convention: BALANCE,
    source_notes: 'Cost before accumulated depreciation: PropertyPlantAndEquipmentGross, then the variant including finance-lease right-of-use assets for filers that present them together.',
  }),
  balanceMetric({
    metric: 'ACCUMULATED_DEPRECIATION', display_name: 'Accumulated depreciation', category: 'ASSETS',
    concepts: [usgaap('AccumulatedDepreciationDepletionAndAmortizationPropertyPlantAndEquipment'), usgaap('PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetAccumulatedDepreciationAndAmortization')],
    sign_convention: 'positive amount deducted from gross PP&E',
    source_notes: 'AccumulatedDepreciationDepletionAndAmortizationPropertyPlantAndEquipment, then the variant including finance-lease assets; a positive contra-asset amount.',
  }),
  balanceMetric({
    metric: 'PROPERTY_PLANT_EQUIPMENT_NET', display_name: 'Property, plant and equipment, net', category: 'ASSETS',
    concepts: [usgaap('PropertyPlantAndEquipmentNet'), usgaap('PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetAfterAccumulatedDepreciationAndAmortization'), ifrs('PropertyPlantAndEquipment')],
    sign_convention: BALANCE,
    source_notes: 'PropertyPlantAndEquipmentNet, then the net line including finance-lease right-of-use assets for filers that present one combined line (Home Depot, Alphabet); IFRS PropertyPlantAndEquipment.',
  }),
  balanceMetric({
    metric: 'OPERATING_LEASE_RIGHT_OF_USE_ASSET', display_name: 'Operating lease right-of-use assets', category: 'ASSETS',
    concepts: [usgaap('OperatingLeaseRightOfUseAsset')],
    sign_convention: BALANCE,
    source_notes: 'OperatingLeaseRightOfUseAsset (ASC 842, 2019+). IFRS 16 has no operating/finance split, so IFRS RightofuseAssets is not mapped here.',
  }),
  balanceMetric({
    metric: 'FINANCE_LEASE_RIGHT_OF_USE_ASSET', display_name: 'Finance lease right-of-use assets', category: 'ASSETS',
    concepts: [usgaap('FinanceLeaseRightOfUseAsset')],
    sign_convention: BALANCE,
    source_notes: 'FinanceLeaseRightOfUseAsset, often disclosed only in the lease note because the asset sits inside PP&E.',
  }),
  balanceMetric({
    metric: 'GOODWILL', display_name: 'Goodwill', category: 'ASSETS',
    concepts: [usgaap('Goodwill'), ifrs('Goodwill')],
    sign_convention: BALANCE,
    source_notes: 'Goodwill (IFRS Goodwill); a combined goodwill-and-intangibles line is never split or used.',
  }),
  balanceMetric({
    metric: 'INTANGIBLE_ASSETS_NET', display_name: 'Intangible assets, net (excluding goodwill)', category: 'ASSETS',
    concepts: [usgaap('IntangibleAssetsNetExcludingGoodwill'), usgaap('FiniteLivedIntangibleAssetsNet'), ifrs('IntangibleAssetsOtherThanGoodwill')],
    sign_convention: BALANCE,
    source_notes: 'IntangibleAssetsNetExcludingGoodwill, then FiniteLivedIntangibleAssetsNet for filers whose balance-sheet line holds only finite-lived intangibles; IFRS IntangibleAssetsOtherThanGoodwill.',
  }),
  balanceMetric({
    metric: 'LONG_TERM_INVESTMENTS', display_name: 'Long-term investments', category: 'ASSETS',
    concepts: [usgaap('LongTermInvestments'), usgaap('MarketableSecuritiesNoncurrent'), usgaap('AvailableForSaleSecuritiesNoncurrent'), usgaap('AvailableForSaleSecuritiesDebtSecuritiesNoncurrent')],
    sign_convention: BALANCE,
    source_notes: 'LongTermInvestments, then non-current marketable or available-for-sale securities for filers whose line holds only those; equity-method stakes are EQUITY_METHOD_INVESTMENTS.',
  }),
  balanceMetric({
    metric: 'EQUITY_METHOD_INVESTMENTS', display_name: 'Equity-method investments', category: 'ASSETS',
    concepts: [usgaap('EquityMethodInvestments'), ifrs('InvestmentAccountedForUsingEquityMethod')],
    sign_convention: BALANCE,
    source_notes: 'EquityMethodInvestments (IFRS InvestmentAccountedForUsingEquityMethod).',
  }),
  balanceMetric({
    metric: 'DEFERRED_TAX_ASSETS', display_name: 'Deferred tax assets', category: 'ASSETS',
    concepts: [usgaap('DeferredTaxAssetsNetNoncurrent'), usgaap('DeferredIncomeTaxAssetsNet'), ifrs('DeferredTaxAssets')],
    sign_convention: BALANCE,
    source_notes: 'The balance-sheet deferred tax asset: the pre-2017 DeferredTaxAssetsNetNoncurrent (before then DeferredIncomeTaxAssetsNet was often a tax-note figure), then DeferredIncomeTaxAssetsNet; IFRS DeferredTaxAssets. The tax-note DeferredTaxAssetsNet is not used.',
  }),
  balanceMetric({
    metric: 'OTHER_NONCURRENT_ASSETS', display_name: 'Other non-current assets', category: 'ASSETS',
    concepts: [usgaap('OtherAssetsNoncurrent'), ifrs('OtherNoncurrentAssets')],
    sign_convention: BALANCE,
    source_notes: 'OtherAssetsNoncurrent (IFRS OtherNoncurrentAssets).',
  }),
  balanceMetric({
    metric: 'TOTAL_NONCURRENT_ASSETS', display_name: 'Total non-current assets', category: 'ASSETS',
    concepts: [usgaap('AssetsNoncurrent'), ifrs('NoncurrentAssets')],
    sign_convention: BALANCE,
    source_notes: `AssetsNoncurrent (IFRS NoncurrentAssets). us-gaap NoncurrentAssets is the long-lived-assets-by-geography disclosure, not this total, and is not used. ${NO_NARROWER}`,
  }),
  balanceMetric({
    metric: 'TOTAL_ASSETS', display_name: 'Total assets', category: 'ASSETS',
    concepts: [usgaap('Assets'), ifrs('Assets')],
    sign_convention: BALANCE,
    source_notes: `Assets (IFRS Assets). ${NO_NARROWER}`,
  }),
  // ---- current liabilities
  balanceMetric({
    metric: 'ACCOUNTS_PAYABLE', display_name: 'Accounts payable', category: 'LIABILITIES',
    concepts: [usgaap('AccountsPayableCurrent'), usgaap('AccountsPayableTradeCurrent'), usgaap('AccountsPayableAndAccruedLiabilitiesCurrent'), ifrs('TradeAndOtherCurrentPayablesToTradeSuppliers')],
    sign_convention: BALANCE,
    source_notes: 'AccountsPayableCurrent, then trade payables; the combined payables-and-accrued line is used only for filers that present no separate payables line (Disney), and then includes accrued liabilities. IFRS payables to trade suppliers.',
  }),
  balanceMetric({
    metric: 'ACCRUED_LIABILITIES', display_name: 'Accrued liabilities', category: 'LIABILITIES',
    concepts: [usgaap('AccruedLiabilitiesCurrent'), ifrs('CurrentAccruedExpensesAndOtherCurrentLiabilities')],
    sign_convention: BALANCE,
    source_notes: 'AccruedLiabilitiesCurrent (IFRS accrued expenses and other current liabilities).',
  }),
  balanceMetric({
    metric: 'EMPLOYEE_RELATED_LIABILITIES', display_name: 'Accrued compensation', category: 'LIABILITIES',
    concepts: [usgaap('EmployeeRelatedLiabilitiesCurrent')],
    sign_convention: BALANCE,
    source_notes: 'EmployeeRelatedLiabilitiesCurrent: accrued salaries, bonuses and benefits due within a year.',
  }),
  balanceMetric({
    metric: 'INCOME_TAXES_PAYABLE', display_name: 'Income taxes payable', category: 'LIABILITIES',
    concepts: [usgaap('AccruedIncomeTaxesCurrent'), usgaap('TaxesPayableCurrent'), ifrs('CurrentTaxLiabilitiesCurrent')],
    sign_convention: BALANCE,
    source_notes: 'AccruedIncomeTaxesCurrent, then TaxesPayableCurrent (may include non-income taxes) for filers that present one taxes line; IFRS CurrentTaxLiabilitiesCurrent.',
  }),
  balanceMetric({
    metric: 'DEFERRED_REVENUE_CURRENT', display_name: 'Deferred revenue, current', category: 'LIABILITIES',
    concepts: [usgaap('ContractWithCustomerLiabilityCurrent'), usgaap('DeferredRevenueCurrent')],
    sign_convention: BALANCE,
    source_notes: 'Current contract liabilities (ASC 606, ContractWithCustomerLiabilityCurrent), then the pre-2018 DeferredRevenueCurrent.',
  }),
  balanceMetric({
    metric: 'SHORT_TERM_DEBT', display_name: 'Short-term borrowings', category: 'LIABILITIES',
    concepts: [usgaap('ShortTermBorrowings'), usgaap('CommercialPaper'), ifrs('ShorttermBorrowings')],
    sign_convention: BALANCE,
    source_notes: 'ShortTermBorrowings, then CommercialPaper for filers whose only short-term borrowing line is commercial paper (Apple); IFRS ShorttermBorrowings. Excludes current maturities of long-term debt (CURRENT_PORTION_LONG_TERM_DEBT).',
  }),
  balanceMetric({
    metric: 'CURRENT_PORTION_LONG_TERM_DEBT', display_name: 'Current portion of long-term debt', category: 'LIABILITIES',
    concepts: [usgaap('LongTermDebtCurrent'), usgaap('LongTermDebtAndCapitalLeaseObligationsCurrent'), ifrs('CurrentPortionOfNoncurrentBorrowings')],
    sign_convention: BALANCE,
    source_notes: 'LongTermDebtCurrent, then the variant including finance-lease obligations; IFRS CurrentPortionOfNoncurrentBorrowings. TSMC splits bonds and bank loans with no total, so it has none.',
  }),
  balanceMetric({
    metric: 'OPERATING_LEASE_LIABILITY_CURRENT', display_name: 'Operating lease liabilities, current', category: 'LIABILITIES',
    concepts: [usgaap('OperatingLeaseLiabilityCurrent')],
    sign_convention: BALANCE,
    source_notes: 'OperatingLeaseLiabilityCurrent (ASC 842, 2019+).',
  }),
  balanceMetric({
    metric: 'FINANCE_LEASE_LIABILITY_CURRENT', display_name: 'Finance lease liabilities, current', category: 'LIABILITIES',
    concepts: [usgaap('FinanceLeaseLiabilityCurrent'), usgaap('CapitalLeaseObligationsCurrent')],
    sign_convention: BALANCE,
    source_notes: 'FinanceLeaseLiabilityCurrent, then the pre-2019 CapitalLeaseObligationsCurrent.',
  }),
  balanceMetric({
    metric: 'OTHER_CURRENT_LIABILITIES', display_name: 'Other current liabilities', category: 'LIABILITIES',
    concepts: [usgaap('OtherLiabilitiesCurrent')],
    sign_convention: BALANCE,
    source_notes: 'OtherLiabilitiesCurrent.',
  }),
  balanceMetric({
    metric: 'TOTAL_CURRENT_LIABILITIES', display_name: 'Total current liabilities', category: 'LIABILITIES',
    concepts: [usgaap('LiabilitiesCurrent'), ifrs('CurrentLiabilities')],
    sign_convention: BALANCE,
    source_notes: `LiabilitiesCurrent (IFRS CurrentLiabilities). ${NO_NARROWER}`,
  }),
  // ---- non-current liabilities
  balanceMetric({
    metric: 'LONG_TERM_DEBT', display_name: 'Long-term debt, non-current', category: 'LIABILITIES',
    concepts: [usgaap('LongTermDebtNoncurrent'), usgaap('LongTermDebtAndCapitalLeaseObligations'), ifrs('NoncurrentPortionOfNoncurrentBorrowings')],
    sign_convention: BALANCE,
    source_notes: 'The balance-sheet long-term debt line excluding current maturities: LongTermDebtNoncurrent, then LongTermDebtAndCapitalLeaseObligations (non-current, including finance leases); IFRS NoncurrentPortionOfNoncurrentBorrowings. us-gaap LongTermDebt includes current maturities and is LONG_TERM_DEBT_INCLUDING_CURRENT.',
  }),
  balanceMetric({
    metric: 'LONG_TERM_DEBT_INCLUDING_CURRENT', display_name: 'Long-term debt including current maturities', category: 'LIABILITIES',
    concepts: [usgaap('LongTermDebt'), usgaap('LongTermDebtAndCapitalLeaseObligationsIncludingCurrentMaturities')],
    sign_convention: BALANCE,
    source_notes: `Carrying amount of all long-term debt, current and non-current, usually from the debt note: LongTermDebt, then the variant including finance leases. ${NO_NARROWER}`,
  }),
  balanceMetric({
    metric: 'OPERATING_LEASE_LIABILITY_NONCURRENT', display_name: 'Operating lease liabilities, non-current', category: 'LIABILITIES',
    concepts: [usgaap('OperatingLeaseLiabilityNoncurrent')],
    sign_convention: BALANCE,
    source_notes: 'OperatingLeaseLiabilityNoncurrent (ASC 842, 2019+).',
  }),
  balanceMetric({
    metric: 'OPERATING_LEASE_LIABILITY', display_name: 'Operating lease liabilities, total', category: 'LIABILITIES',
    concepts: [usgaap('OperatingLeaseLiability')],
    sign_convention: BALANCE,
    source_notes: `Present value of operating lease payments, current plus non-current, from the lease note: OperatingLeaseLiability. ${NO_NARROWER}`,
  }),
  balanceMetric({
    metric: 'FINANCE_LEASE_LIABILITY_NONCURRENT', display_name: 'Finance lease liabilities, non-current', category: 'LIABILITIES',
    concepts: [usgaap('FinanceLeaseLiabilityNoncurrent'), usgaap('CapitalLeaseObligationsNoncurrent')],
    sign_convention: BALANCE,
    source_notes: 'FinanceLeaseLiabilityNoncurrent, then the pre-2019 CapitalLeaseObligationsNoncurrent.',
  }),
  balanceMetric({
    metric: 'FINANCE_LEASE_LIABILITY', display_name: 'Finance lease liabilities, total', category: 'LIABILITIES',
    concepts: [usgaap('FinanceLeaseLiability'), usgaap('CapitalLeaseObligations')],
    sign_convention: BALANCE,
    source_notes: `Current plus non-current finance lease liabilities from the lease note: FinanceLeaseLiability, then the pre-2019 CapitalLeaseObligations. ${NO_NARROWER}`,
  }),
  balanceMetric({
    metric: 'DEFERRED_REVENUE_NONCURRENT', display_name: 'Deferred revenue, non-current', category: 'LIABILITIES',
    concepts: [usgaap('ContractWithCustomerLiabilityNoncurrent'), usgaap('DeferredRevenueNoncurrent')],
    sign_convention: BALANCE,
    source_notes: 'ContractWithCustomerLiabilityNoncurrent, then the pre-2018 DeferredRevenueNoncurrent.',
  }),
  balanceMetric({
    metric: 'DEFERRED_TAX_LIABILITIES', display_name: 'Deferred tax liabilities', category: 'LIABILITIES',
    concepts: [usgaap('DeferredTaxLiabilitiesNoncurrent'), usgaap('DeferredIncomeTaxLiabilitiesNet'), ifrs('DeferredTaxLiabilities')],
    sign_convention: BALANCE,
    source_notes: 'The balance-sheet deferred tax liability: the pre-2017 DeferredTaxLiabilitiesNoncurrent (before then DeferredIncomeTaxLiabilitiesNet was often the tax-note net figure), then DeferredIncomeTaxLiabilitiesNet; IFRS DeferredTaxLiabilities. The gross tax-note us-gaap DeferredTaxLiabilities is not used.',
  }),
  balanceMetric({
    metric: 'OTHER_NONCURRENT_LIABILITIES', display_name: 'Other non-current liabilities', category: 'LIABILITIES',
    concepts: [usgaap('OtherLiabilitiesNoncurrent'), ifrs('OtherNoncurrentLiabilities')],
    sign_convention: BALANCE,
    source_notes: 'OtherLiabilitiesNoncurrent (IFRS OtherNoncurrentLiabilities).',
  }),
  balanceMetric({
    metric: 'TOTAL_NONCURRENT_LIABILITIES', display_name: 'Total non-current liabilities', category: 'LIABILITIES',
    concepts: [usgaap('LiabilitiesNoncurrent'), ifrs('NoncurrentLiabilities')],
    sign_convention: BALANCE,
    source_notes: `LiabilitiesNoncurrent (IFRS NoncurrentLiabilities); most US filers present no such subtotal. ${NO_NARROWER}`,
  }),
  balanceMetric({
    metric: 'TOTAL_LIABILITIES', display_name: 'Total liabilities', category: 'LIABILITIES',
    concepts: [usgaap('Liabilities'), ifrs('Liabilities')],
    sign_convention: BALANCE,
    source_notes: `Liabilities (IFRS Liabilities). Filers that present no total-liabilities line (Walmart, McDonald's, Nike) have none; current liabilities never stand in for it. ${NO_NARROWER}`,
  }),
  // ---- temporary and permanent equity
  balanceMetric({
    metric: 'TEMPORARY_EQUITY', display_name: 'Temporary (mezzanine) equity', category: 'EQUITY',
    concepts: [usgaap('TemporaryEquityCarryingAmountIncludingPortionAttributableToNoncontrollingInterests'), usgaap('TemporaryEquityCarryingAmount'), usgaap('TemporaryEquityCarryingAmountAttributableToParent'), usgaap('RedeemableNoncontrollingInterestEquityCarryingAmount')],
    sign_convention: BALANCE,
    source_notes: 'Redeemable securities between liabilities and equity: the total including noncontrolling interests, then the older TemporaryEquityCarryingAmount, then redeemable preferred (parent) or redeemable noncontrolling interest for filers that have only one kind.',
  }),
  balanceMetric({
    metric: 'PREFERRED_STOCK_VALUE', display_name: 'Preferred stock', category: 'EQUITY',
    concepts: [usgaap('PreferredStockValue')],
    sign_convention: BALANCE,
    source_notes: 'PreferredStockValue in permanent equity (often zero: authorized, none issued).',
  }),
  balanceMetric({
    metric: 'COMMON_STOCK_VALUE', display_name: 'Common stock (par or stated value)', category: 'EQUITY',
    concepts: [usgaap('CommonStockValue'), ifrs('IssuedCapital')],
    sign_convention: BALANCE,
    source_notes: 'CommonStockValue at par or stated value (IFRS IssuedCapital); filers that combine common stock with paid-in capital have COMMON_STOCK_INCLUDING_APIC instead.',
  }),
  balanceMetric({
    metric: 'COMMON_STOCK_INCLUDING_APIC', display_name: 'Common stock and additional paid-in capital', category: 'EQUITY',
    concepts: [usgaap('CommonStocksIncludingAdditionalPaidInCapital'), usgaap('CommonStockIncludingAdditionalPaidInCapital')],
    sign_convention: BALANCE,
    source_notes: 'The combined line presented by Apple, Microsoft, Alphabet and Disney: CommonStocksIncludingAdditionalPaidInCapital, then the older singular element.',
  }),
  balanceMetric({
    metric: 'ADDITIONAL_PAID_IN_CAPITAL', display_name: 'Additional paid-in capital', category: 'EQUITY',
    concepts: [usgaap('AdditionalPaidInCapital'), usgaap('AdditionalPaidInCapitalCommonStock'), ifrs('AdditionalPaidinCapital')],
    sign_convention: BALANCE,
    source_notes: 'AdditionalPaidInCapital, then the common-stock-only element (IFRS AdditionalPaidinCapital, capital surplus).',
  }),
  balanceMetric({
    metric: 'RETAINED_EARNINGS', display_name: 'Retained earnings (accumulated deficit)', category: 'EQUITY',
    concepts: [usgaap('RetainedEarningsAccumulatedDeficit'), ifrs('RetainedEarnings')],
    sign_convention: 'positive retained earnings, negative accumulated deficit',
    source_notes: 'RetainedEarningsAccumulatedDeficit (IFRS RetainedEarnings); an accumulated deficit is negative.',
  }),
  balanceMetric({
    metric: 'ACCUMULATED_OCI', display_name: 'Accumulated other comprehensive income (loss)', category: 'EQUITY',
    concepts: [usgaap('AccumulatedOtherComprehensiveIncomeLossNetOfTax')],
    sign_convention: 'positive gain, negative loss',
    source_notes: 'AccumulatedOtherComprehensiveIncomeLossNetOfTax; IFRS "other reserves" can hold items beyond OCI and is not mapped.',
  }),
  balanceMetric({
    metric: 'TREASURY_STOCK', display_name: 'Treasury stock, at cost', category: 'EQUITY',
    concepts: [usgaap('TreasuryStockValue'), usgaap('TreasuryStockCommonValue'), ifrs('TreasuryShares')],
    sign_convention: 'positive cost, deducted from equity',
    source_notes: 'TreasuryStockValue, then the common-only TreasuryStockCommonValue (IFRS TreasuryShares); a positive amount that reduces equity. Filers that retire repurchased shares have none.',
  }),
  balanceMetric({
    metric: 'STOCKHOLDERS_EQUITY', display_name: 'Stockholders\' equity attributable to parent', category: 'EQUITY',
    concepts: [usgaap('StockholdersEquity'), ifrs('EquityAttributableToOwnersOfParent')],
    sign_convention: 'positive equity, negative deficit',
    source_notes: 'Parent-only equity: StockholdersEquity (IFRS EquityAttributableToOwnersOfParent); excludes noncontrolling interest and temporary equity.',
  }),
  balanceMetric({
    metric: 'NONCONTROLLING_INTEREST', display_name: 'Noncontrolling interest', category: 'EQUITY',
    concepts: [usgaap('MinorityInterest'), ifrs('NoncontrollingInterests')],
    sign_convention: BALANCE,
    source_notes: 'Noncontrolling interest in permanent equity: MinorityInterest (IFRS NoncontrollingInterests); redeemable noncontrolling interest sits in TEMPORARY_EQUITY.',
  }),
  balanceMetric({
    metric: 'TOTAL_EQUITY', display_name: 'Total equity including noncontrolling interest', category: 'EQUITY',
    concepts: [usgaap('StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest'), ifrs('Equity')],
    sign_convention: 'positive equity, negative deficit',
    source_notes: `StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest (IFRS Equity). It does not fall back to StockholdersEquity: parent-only equity is a narrower total, so a filer that tags only that has no TOTAL_EQUITY. ${NO_NARROWER}`,
  }),
  balanceMetric({
    metric: 'LIABILITIES_AND_EQUITY', display_name: 'Total liabilities and equity', category: 'EQUITY',
    concepts: [usgaap('LiabilitiesAndStockholdersEquity'), ifrs('EquityAndLiabilities')],
    sign_convention: BALANCE,
    source_notes: `LiabilitiesAndStockholdersEquity (IFRS EquityAndLiabilities); equals TOTAL_ASSETS. ${NO_NARROWER}`,
  }),
  // ---- share counts at the balance-sheet date
  balanceMetric({
    metric: 'SHARES_OUTSTANDING', display_name: 'Common shares outstanding', category: 'SHARES', unit_type: 'shares',
    concepts: [usgaap('CommonStockSharesOutstanding'), dei('EntityCommonStockSharesOutstanding')],
    sign_convention: 'positive share count',
    source_notes: 'Shares outstanding at the balance-sheet date, CommonStockSharesOutstanding. The cover-page dei:EntityCommonStockSharesOutstanding is stated at a later date (near filing) and only matches when no balance-sheet count is tagged for the date.',
  }),
  balanceMetric({
    metric: 'SHARES_ISSUED', display_name: 'Common shares issued', category: 'SHARES', unit_type: 'shares',
    concepts: [usgaap('CommonStockSharesIssued'), ifrs('NumberOfSharesIssuedAndFullyPaid')],
    sign_convention: 'positive share count',
    source_notes: 'CommonStockSharesIssued (IFRS NumberOfSharesIssuedAndFullyPaid); includes treasury shares, so it never stands in for SHARES_OUTSTANDING.',
  }),
];
