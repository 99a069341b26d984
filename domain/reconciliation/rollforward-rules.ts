/**
 * ROLLFORWARD rules: relations across statements (cash flow against balance sheet) and across
 * periods (opening balance + movement = closing balance). Related statements are the latest
 * versions that were filed by the subject version's filing date (see `RelatedStatements`), so a
 * result depends only on what was knowable when the subject was filed and never changes later.
 *
 * Equalities are judged by `evaluateIdentityRule`, so tolerance, status and severity are exactly
 * those of the accounting identities: tolerance = max(n * rounding unit / 2, 1 ppm of the largest
 * figure), WARNING (LOW) within ten tolerances and under 0.1%, FAIL otherwise, severity by
 * |delta| / magnitude. A rule that declines to compare answers WARNING, severity NONE, delta null
 * and notes.details.reason.
 */
import { addDays } from '../dates.ts';
import { dec, plain } from '../decimal.ts';
import { evaluateIdentityRule, type IdentityRule } from '../identity-checks.ts';
import type { FiscalPeriod, IdentityCheck, StatementType } from '../statement-types.ts';
import type { ReconciliationRule, ReconFigure, RelatedStatements, ResultDetails, RuleOutcome, StatementSnapshot } from './types.ts';

// ---- shared helpers

interface Term {
  name: string;
  value: string | null;
  sign?: 1 | -1;
}

/** actual = sum of sign * term, judged like an accounting identity; a null term counts as absent (zero). */
function equality(type: StatementType, actual: { name: string; value: string }, terms: Term[]): IdentityCheck {
  const values: Record<string, string> = { [actual.name]: actual.value };
  for (const t of terms) if (t.value !== null) values[t.name] = t.value;
  const rule: IdentityRule = {
    rule_id: 'ROLLFORWARD',
    statement_type: type,
    description: '',
    actual: actual.name,
    expected: [terms.map((t) => ({ metric: t.name, sign: t.sign ?? 1, optional: t.value === null }))],
  };
  return evaluateIdentityRule(rule, { statement_type: type, fiscal_year: 0, fiscal_period: 'FY', values });
}

function outcomeOf(check: IdentityCheck, details: ResultDetails): RuleOutcome {
  return {
    status: check.status as RuleOutcome['status'],
    severity: check.severity,
    expected_value: check.expected_value,
    actual_value: check.actual_value,
    delta: check.delta,
    notes: { details: { tolerance: check.tolerance, ...details } },
  };
}

/** The rule declined to compare: WARNING with severity NONE, no delta, and why. */
export function declined(reason: string, expected: string | null, actual: string | null, details: ResultDetails): RuleOutcome {
  return { status: 'WARNING', severity: 'NONE', expected_value: expected, actual_value: actual, delta: null, notes: { details: { reason, ...details } } };
}

function valueOf(s: StatementSnapshot | null, metric: string): string | null {
  return s?.figures[metric]?.value ?? null;
}

/** Where an input came from, for notes.details.inputs. */
function input(s: StatementSnapshot, metric: string) {
  return {
    metric,
    value: s.figures[metric]?.value ?? null,
    statement_type: s.statement_type,
    fiscal_year: s.fiscal_year,
    fiscal_period: s.fiscal_period,
    version_sequence: s.version_sequence,
    statement_version_id: s.statement_version_id,
    period_end: s.period_end,
  };
}

// ---- cash

const CCE = 'CASH_AND_EQUIVALENTS';
const CCERC = 'CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH';
const NET_CHANGE = 'NET_CHANGE_IN_CASH';

/**
 * The cash a cash-flow statement reconciles: CASH_AND_EQUIVALENTS (us-gaap
 * CashAndCashEquivalentsPeriodIncreaseDecrease, ifrs-full IncreaseDecreaseInCashAndCashEquivalents)
 * or, since ASU 2016-18, cash, cash equivalents and restricted cash (us-gaap
 * CashCashEquivalentsRestrictedCash...PeriodIncreaseDecrease...). MIXED: a derived quarter whose
 * inputs were tagged on different scopes.
 */
export type CashScope = typeof CCE | typeof CCERC | 'MIXED';

/** The scope of a NET_CHANGE_IN_CASH figure, read from its tag (or its inputs' tags); null when unknown. */
export function cashScopeOf(f: ReconFigure): CashScope | null {
  const concepts = f.source_xbrl_concept !== null ? [f.source_xbrl_concept] : (f.calculation_steps ?? []).map((s) => s.source_xbrl_concept);
  if (concepts.length === 0 || concepts.some((c) => c === null)) return null;
  const scopes = new Set(concepts.map((c) => (/RestrictedCash/.test(c!) ? CCERC : CCE)));
  return scopes.size === 1 ? [...scopes][0]! : 'MIXED';
}

/** the balance sheet at the cash-flow period's end: the same fiscal period, or the year for a fourth quarter */
function closingBalanceSheet(cf: StatementSnapshot, related: RelatedStatements): StatementSnapshot | null {
  const fiscal_period: FiscalPeriod = cf.fiscal_period === 'Q4' ? 'FY' : cf.fiscal_period;
  return related.endingOn('BALANCE_SHEET', cf.period_end, { fiscal_year: cf.fiscal_year, fiscal_period });
}

const INCOMPARABLE_CASH_SCOPES = 'INCOMPARABLE_CASH_SCOPES';

/**
 * Cash at the end of the cash-flow period against cash on the balance sheet at the same date.
 * The cash-flow statement ends on the balance of its own scope: for the restricted-cash scope that
 * is CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH (the tag of the statement's closing line), compared
 * with the balance sheet's cash line CASH_AND_EQUIVALENTS:
 * - equal within tolerance: PASS (no restricted cash outside the cash line);
 * - the balance sheet has only cash and equivalents (no restricted-cash-inclusive balance at that
 *   date), or the inclusive balance exceeds the cash line (restricted cash held elsewhere on the
 *   balance sheet): the scopes differ and the rule declines, INCOMPARABLE_CASH_SCOPES;
 * - the inclusive balance below the cash line: FAIL (a total including restricted cash cannot be
 *   smaller than cash alone).
 * A cash-flow statement on the cash-and-equivalents scope ends on the balance-sheet line itself,
 * so there is nothing to compare and no result; its arithmetic is RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END.
 */
export const CF_ENDING_CASH_EQUALS_BS_CASH: ReconciliationRule = {
  rule_id: 'RF_CF_ENDING_CASH_EQUALS_BS_CASH',
  rule_category: 'ROLLFORWARD',
  statement_type: 'CASH_FLOW_STATEMENT',
  description:
    'Cash at the end of the cash-flow period, on the scope the statement reconciles, equals the cash on the balance sheet at the same date; declines (INCOMPARABLE_CASH_SCOPES) when the cash flow includes restricted cash and the balance sheet cash line does not.',
  metrics: [NET_CHANGE, CCE, CCERC],
  evaluate(cf, related) {
    const change = cf.figures[NET_CHANGE];
    if (!change) return null;
    const scope = cashScopeOf(change);
    if (scope === null || scope === CCE) return null;
    const bs = closingBalanceSheet(cf, related);
    const bsCash = valueOf(bs, CCE);
    if (!bs || bsCash === null) return null;
    const ending = valueOf(bs, CCERC);
    const details = {
      cash_flow_scope: scope,
      balance_sheet_scope: CCE,
      inputs: { cash_flow_ending_cash: ending === null ? null : input(bs, CCERC), balance_sheet_cash: input(bs, CCE) },
    };
    if (scope === 'MIXED' || ending === null) return declined(INCOMPARABLE_CASH_SCOPES, ending, bsCash, details);
    const check = equality('CASH_FLOW_STATEMENT', { name: CCE, value: bsCash }, [{ name: CCERC, value: ending }]);
    if (check.status !== 'PASS' && dec(check.delta!).isNegative()) {
      // the inclusive balance exceeds the cash line: the difference is restricted cash
      return declined(INCOMPARABLE_CASH_SCOPES, check.expected_value, check.actual_value, {
        ...details,
        restricted_cash_implied: plain(dec(ending).minus(bsCash)),
      });
    }
    return outcomeOf(check, details);
  },
};

/**
 * Beginning cash + net change in cash = ending cash: the balance at the day before the cash-flow
 * period starts (the prior period's closing balance sheet) plus NET_CHANGE_IN_CASH equals the
 * balance at its end, both on the cash-flow statement's own scope (CASH_AND_EQUIVALENTS, or
 * CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH for the restricted-cash scope). Declines with
 * INCOMPARABLE_CASH_SCOPES when the scope is restricted-cash-inclusive but a balance sheet has
 * only cash and equivalents, or the net change mixes scopes. No result without both balance
 * sheets.
 */
export const CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END: ReconciliationRule = {
  rule_id: 'RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END',
  rule_category: 'ROLLFORWARD',
  statement_type: 'CASH_FLOW_STATEMENT',
  description:
    "The prior period's ending cash (balance sheet at the day before the cash-flow period starts) plus the net change in cash equals the ending cash (balance sheet at the period end), on the cash-flow statement's scope.",
  metrics: [NET_CHANGE, CCE, CCERC],
  evaluate(cf, related) {
    const change = cf.figures[NET_CHANGE];
    if (!change || cf.period_start === null) return null;
    const scope = cashScopeOf(change);
    if (scope === null) return null;
    const opening = related.endingOn('BALANCE_SHEET', addDays(cf.period_start, -1));
    const closing = closingBalanceSheet(cf, related);
    if (!opening || !closing) return null;
    if (scope === 'MIXED') {
      return declined(INCOMPARABLE_CASH_SCOPES, null, null, { cash_flow_scope: scope, inputs: { net_change_in_cash: input(cf, NET_CHANGE) } });
    }
    const begin = valueOf(opening, scope);
    const end = valueOf(closing, scope);
    if (begin === null || end === null) {
      // a balance sheet lacks the scope's balance: incomparable when it has the narrower cash line
      const lacking = [opening, closing].filter((s) => valueOf(s, scope) === null);
      if (scope === CCERC && lacking.every((s) => valueOf(s, CCE) !== null)) {
        return declined(INCOMPARABLE_CASH_SCOPES, null, end, {
          cash_flow_scope: scope,
          balance_sheet_scope: CCE,
          balance_sheets_without_scope: lacking.map((s) => s.period_end),
          inputs: { net_change_in_cash: input(cf, NET_CHANGE) },
        });
      }
      return null;
    }
    const check = equality('CASH_FLOW_STATEMENT', { name: 'ENDING_CASH', value: end }, [
      { name: 'BEGINNING_CASH', value: begin },
      { name: NET_CHANGE, value: change.value },
    ]);
    return outcomeOf(check, {
      cash_flow_scope: scope,
      inputs: { beginning_cash: input(opening, scope), net_change_in_cash: input(cf, NET_CHANGE), ending_cash: input(closing, scope) },
    });
  },
};

// ---- retained earnings

const RE = 'RETAINED_EARNINGS';
const NET_INCOME = 'NET_INCOME';
const DIVIDENDS = 'DIVIDENDS_PAID';
const REPURCHASES = 'SHARE_REPURCHASES';
const WITHHOLDING = 'TAX_WITHHOLDING_ON_SHARE_BASED_COMPENSATION';
/**
 * Retained earnings move by more than net income and dividends paid: dividends are declared (the
 * charge to retained earnings) a period before or after they are paid, and some filers take
 * adoption adjustments, preferred dividends or option exercises through them. A residual within
 * 1% of the largest input is a WARNING (LOW), not a failure.
 */
export const RETAINED_EARNINGS_MATERIALITY = '0.01';

/** the balance sheet a period's retained earnings roll forward from */
function priorLabel(fiscal_year: number, period: FiscalPeriod): { fiscal_year: number; fiscal_period: FiscalPeriod } | null {
  switch (period) {
    case 'FY':
    case 'Q1':
      return { fiscal_year: fiscal_year - 1, fiscal_period: 'FY' };
    case 'Q2':
      return { fiscal_year, fiscal_period: 'Q1' };
    case 'Q3':
      return { fiscal_year, fiscal_period: 'Q2' };
    default:
      return null;
  }
}

/**
 * Prior retained earnings + net income attributable to the parent - dividends paid = retained
 * earnings (balance sheet of FY, Q1, Q2 or Q3; the prior balance sheet is the previous year for FY
 * and Q1, the previous quarter otherwise; net income and dividends from the income and cash-flow
 * statements of the same fiscal period). No result without both retained-earnings balances.
 * - PASS within the rounding tolerance; WARNING (LOW) within 1% of the largest input.
 * - Declines with MISSING_INPUTS when net income or the cash-flow statement of the period is
 *   missing (a cash-flow statement without DIVIDENDS_PAID means none were paid), and with
 *   NONCONTIGUOUS_PERIODS when those statements do not cover exactly the days between the two
 *   balance sheets.
 * - Declines with OTHER_EQUITY_MOVEMENTS (details.explained_by) when a movement this roll-forward
 *   does not model, bounded by the cash-flow statement, covers the residual (plus the 1%):
 *   SHARE_REPURCHASES, a decrease (with repurchases in the period) no larger than the period's
 *   repurchases plus shares withheld for taxes plus dividends paid (filers that retire
 *   repurchased shares charge the excess over par to retained earnings, and dividends declared
 *   can exceed those paid by a period's worth); DIVIDENDS, an increase no larger than the
 *   dividends paid (declared, and so charged, in an earlier period, or charged to paid-in capital
 *   by a filer with a deficit).
 * - FAIL otherwise, severity by |delta| / magnitude as for the identities. Dividends declared in
 *   one quarter and paid over the next ones (Walmart declares its annual dividend in Q1) still
 *   FAIL the quarters: the declared amount is not a catalog metric.
 */
export const RETAINED_EARNINGS_ROLLFORWARD: ReconciliationRule = {
  rule_id: 'RF_RETAINED_EARNINGS_ROLLFORWARD',
  rule_category: 'ROLLFORWARD',
  statement_type: 'BALANCE_SHEET',
  description:
    "The prior period's retained earnings plus net income attributable to the parent minus dividends paid equal retained earnings; declines when an input is missing, the periods are not contiguous, or share repurchases charged to retained earnings explain the difference.",
  metrics: [RE, NET_INCOME, DIVIDENDS, REPURCHASES, WITHHOLDING],
  evaluate(bs, related) {
    const end = valueOf(bs, RE);
    const label = priorLabel(bs.fiscal_year, bs.fiscal_period);
    if (end === null || !label) return null;
    const prior = related.labelled('BALANCE_SHEET', label.fiscal_year, label.fiscal_period);
    const begin = valueOf(prior, RE);
    if (!prior || begin === null) return null;
    const is = related.labelled('INCOME_STATEMENT', bs.fiscal_year, bs.fiscal_period);
    const cf = related.labelled('CASH_FLOW_STATEMENT', bs.fiscal_year, bs.fiscal_period);
    const netIncome = valueOf(is, NET_INCOME);
    const dividends = cf ? valueOf(cf, DIVIDENDS) : null;
    const inputs: Record<string, unknown> = {
      beginning_retained_earnings: input(prior, RE),
      net_income: is && netIncome !== null ? input(is, NET_INCOME) : null,
      dividends_paid: cf && dividends !== null ? input(cf, DIVIDENDS) : null,
      ending_retained_earnings: input(bs, RE),
    };
    const missing = [...(netIncome === null ? [NET_INCOME] : []), ...(cf ? [] : [DIVIDENDS])];
    if (missing.length > 0) return declined('MISSING_INPUTS', null, end, { missing, inputs });
    const from = addDays(prior.period_end, 1);
    const uncovered = [is!, cf!].filter((s) => s.period_start !== from || s.period_end !== bs.period_end);
    if (uncovered.length > 0) {
      return declined('NONCONTIGUOUS_PERIODS', null, end, {
        expected_period: { start: from, end: bs.period_end },
        statements: uncovered.map((s) => ({ statement_type: s.statement_type, period_start: s.period_start, period_end: s.period_end })),
        inputs,
      });
    }
    const check = equality('BALANCE_SHEET', { name: 'ENDING_RE', value: end }, [
      { name: 'BEGINNING_RE', value: begin },
      { name: NET_INCOME, value: netIncome },
      { name: DIVIDENDS, value: dividends, sign: -1 },
    ]);
    const largest = [begin, end, netIncome!, dividends ?? '0'].map((v) => dec(v).abs()).reduce((a, b) => (a.greaterThan(b) ? a : b));
    const materiality = largest.times(RETAINED_EARNINGS_MATERIALITY);
    const details = { tolerance: check.tolerance, materiality: plain(materiality), dividends_paid_presented: dividends !== null, inputs };
    const delta = dec(check.delta!);
    if (check.status === 'PASS') return outcomeOf(check, details);
    if (delta.abs().lessThanOrEqualTo(materiality)) return { ...outcomeOf(check, details), status: 'WARNING', severity: 'LOW' };
    // movements the roll-forward does not model, bounded by what the cash-flow statement shows
    const repurchased = dec(valueOf(cf, REPURCHASES) ?? '0').plus(valueOf(cf, WITHHOLDING) ?? '0');
    const paid = dec(dividends ?? '0');
    const explainedBy = delta.isNegative()
      ? repurchased.greaterThan(0) && delta.abs().lessThanOrEqualTo(repurchased.plus(paid).plus(materiality)) && 'SHARE_REPURCHASES'
      : paid.greaterThan(0) && delta.lessThanOrEqualTo(paid.plus(materiality)) && 'DIVIDENDS';
    if (explainedBy) {
      return declined('OTHER_EQUITY_MOVEMENTS', check.expected_value, check.actual_value, {
        ...details,
        residual: check.delta,
        explained_by: explainedBy,
        share_repurchases: valueOf(cf, REPURCHASES),
        tax_withholding_on_share_based_compensation: valueOf(cf, WITHHOLDING),
      });
    }
    return { ...outcomeOf(check, details), status: 'FAIL' };
  },
};

export const ROLLFORWARD_RULES: readonly ReconciliationRule[] = [
  CF_ENDING_CASH_EQUALS_BS_CASH,
  CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END,
  RETAINED_EARNINGS_ROLLFORWARD,
];
