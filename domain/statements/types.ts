/**
 * The enumerations of a statement's identity, stated once. Every other list (zod enums, SQL
 * checks in code, loops over types) derives from these, so a new member is added in one place.
 */

/** The three statements the service normalizes, in their served order. */
export const STATEMENT_TYPES = ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'] as const;
export type StatementType = (typeof STATEMENT_TYPES)[number];

/** The filer's fiscal periods. Q4 is never filed: it exists only as a derived quarter (FY minus the first three). */
export const FISCAL_PERIODS = ['FY', 'Q1', 'Q2', 'Q3', 'Q4'] as const;
export type FiscalPeriod = (typeof FISCAL_PERIODS)[number];

/** Whether a stored or received label is one of FISCAL_PERIODS. */
export function isFiscalPeriod(p: string): p is FiscalPeriod {
  return (FISCAL_PERIODS as readonly string[]).includes(p);
}

/** The periods a filing itself reports (every period but the derived Q4). */
export type FiledFiscalPeriod = Exclude<FiscalPeriod, 'Q4'>;
export const FILED_FISCAL_PERIODS: readonly FiledFiscalPeriod[] = FISCAL_PERIODS.filter((p): p is FiledFiscalPeriod => p !== 'Q4');

/** The four quarters, in order (Q4 included: quarterly reads serve the derived one). */
export type Quarter = Exclude<FiscalPeriod, 'FY'>;
export const QUARTERS: readonly Quarter[] = FISCAL_PERIODS.filter((p): p is Quarter => p !== 'FY');

/** The accounting standards a version's figures follow. */
export const ACCOUNTING_STANDARDS = ['US_GAAP', 'IFRS'] as const;
export type AccountingStandard = (typeof ACCOUNTING_STANDARDS)[number];
