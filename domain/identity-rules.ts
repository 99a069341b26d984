/**
 * The accounting identities checked on every normalized statement (domain/identity-checks.ts):
 * each rule names the metric a statement reports and the sum of terms it must equal.
 */
import type { FiscalPeriod, StatementType } from './statement-types.ts';

export interface IdentityInput {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  /** metric name -> decimal string, only metrics present on the statement (frozen: see evaluateIdentityRule) */
  values: Readonly<Record<string, string>>;
}

/** One term of the expected side: `sign` * value of `metric`; an absent optional term counts as zero. */
export interface IdentityTerm {
  metric: string;
  sign: 1 | -1;
  optional?: boolean;
}

export interface IdentityRule {
  /** stable, SCREAMING_SNAKE */
  rule_id: string;
  statement_type: StatementType;
  description: string;
  /** the metric the statement reports, compared against the sum of the terms */
  actual: string;
  /**
   * Alternative term sets for the expected side, tried in order: the first whose required terms
   * are all present is used. Each set has at least one required term.
   */
  expected: readonly (readonly IdentityTerm[])[];
}

const req = (metric: string, sign: 1 | -1 = 1): IdentityTerm => ({ metric, sign });
const opt = (metric: string, sign: 1 | -1 = 1): IdentityTerm => ({ metric, sign, optional: true });

/** Total equity: the reported total, else stockholders' equity plus noncontrolling interest. */
const EQUITY_ALTERNATIVES: readonly (readonly IdentityTerm[])[] = [
  [req('TOTAL_EQUITY')],
  [req('STOCKHOLDERS_EQUITY'), opt('NONCONTROLLING_INTEREST')],
];
const liabilitiesPlusEquity = (): (readonly IdentityTerm[])[] =>
  EQUITY_ALTERNATIVES.map((equity) => [req('TOTAL_LIABILITIES'), opt('TEMPORARY_EQUITY'), ...equity]);

export const IDENTITY_RULES: readonly IdentityRule[] = [
  {
    rule_id: 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY',
    statement_type: 'BALANCE_SHEET',
    description: 'Total assets equal the reported total of liabilities and equity.',
    actual: 'TOTAL_ASSETS',
    expected: [[req('LIABILITIES_AND_EQUITY')]],
  },
  {
    rule_id: 'BS_LIABILITIES_PLUS_EQUITY',
    statement_type: 'BALANCE_SHEET',
    description:
      'The reported total of liabilities and equity equals total liabilities plus temporary equity plus total equity ' +
      "(or, without a reported total equity, stockholders' equity plus noncontrolling interest).",
    actual: 'LIABILITIES_AND_EQUITY',
    expected: liabilitiesPlusEquity(),
  },
  {
    rule_id: 'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY',
    statement_type: 'BALANCE_SHEET',
    description:
      'Total assets equal total liabilities plus temporary equity plus total equity ' +
      "(or, without a reported total equity, stockholders' equity plus noncontrolling interest).",
    actual: 'TOTAL_ASSETS',
    expected: liabilitiesPlusEquity(),
  },
  {
    rule_id: 'IS_GROSS_PROFIT',
    statement_type: 'INCOME_STATEMENT',
    description: 'Gross profit equals revenue minus cost of revenue.',
    actual: 'GROSS_PROFIT',
    expected: [[req('REVENUE'), req('COST_OF_REVENUE', -1)]],
  },
  {
    rule_id: 'IS_OPERATING_INCOME',
    statement_type: 'INCOME_STATEMENT',
    description: 'Operating income equals gross profit minus operating expenses.',
    actual: 'OPERATING_INCOME',
    expected: [[req('GROSS_PROFIT'), req('OPERATING_EXPENSES', -1)]],
  },
  {
    rule_id: 'IS_NET_INCOME_ATTRIBUTION',
    statement_type: 'INCOME_STATEMENT',
    description:
      'Net income including noncontrolling interest equals net income attributable to the parent plus net income attributable to noncontrolling interest.',
    actual: 'NET_INCOME_INCLUDING_NONCONTROLLING',
    expected: [[req('NET_INCOME'), opt('NET_INCOME_NONCONTROLLING')]],
  },
  {
    rule_id: 'CF_NET_CHANGE_IN_CASH',
    statement_type: 'CASH_FLOW_STATEMENT',
    description:
      'The net change in cash equals operating plus investing plus financing cash flow plus the effect of exchange rates on cash.',
    actual: 'NET_CHANGE_IN_CASH',
    expected: [
      [
        req('OPERATING_CASH_FLOW'),
        req('INVESTING_CASH_FLOW'),
        req('FINANCING_CASH_FLOW'),
        opt('EFFECT_OF_EXCHANGE_RATE_ON_CASH'),
      ],
    ],
  },
];
