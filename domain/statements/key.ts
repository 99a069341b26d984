import type { FiscalPeriod, StatementType } from './types.ts';

/** What names one statement of one company: a company, a statement type and a fiscal period label. */
export interface StatementIdentity {
  cik: string;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
}

/** The part of an identity that names a statement within one company. */
export type StatementLabel = Pick<StatementIdentity, 'statement_type' | 'fiscal_year' | 'fiscal_period'>;

/**
 * The map key of a statement within one company ("BALANCE_SHEET|2024|Q2"): the one place that
 * spells it, so every index, grouping and lookup of statements agrees on it. Takes plain strings
 * so callers holding unchecked labels (ingestion, writers) can key by it too.
 */
export function statementKey(s: { statement_type: string; fiscal_year: number; fiscal_period: string }): string {
  return `${s.statement_type}|${s.fiscal_year}|${s.fiscal_period}`;
}
