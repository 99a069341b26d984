/**
 * Accounting identities of one normalized statement: the block served as
 * `normalized_payload._meta.identity`. Pure: no I/O, money only as decimal strings in and out and
 * decimal.js in between (BigInt when every value of a rule is a whole number, see judgeWhole).
 *
 * Every rule is evaluated for every statement, so `total_rules_count` is always the number of
 * rules. A rule is SKIPPED (all four values null, severity NONE, left out of `pass_rate`) when it
 * belongs to another statement type, or when the statement lacks its actual metric or a required
 * term of every alternative. Optional terms count as zero when absent.
 *
 * Status of an evaluated rule, with delta = actual - expected and tolerance from `toleranceFor`:
 * - PASS (severity NONE) when |delta| <= tolerance.
 * - WARNING (severity LOW) when tolerance < |delta| <= 10 * tolerance and the delta is under 0.1%
 *   of the larger of |actual| and |expected|: a few rounding units off, more than rounding alone
 *   explains but too small to call a break (e.g. a filer's footing plug). Neither a pass nor a
 *   failure: it lowers `pass_rate` but is not in `failed_rules_count`.
 * - FAIL otherwise, severity by |delta| / max(|actual|, |expected|):
 *   < 0.1% LOW, < 1% MEDIUM, < 10% HIGH, else CRITICAL.
 *
 * These checks are stricter than the checks that decide publication, so a published statement can
 * show a failing identity.
 */
import { D, judgeDecimal, type Judgement } from './identity-judgement.ts';
import { IDENTITY_RULES, type IdentityInput, type IdentityRule } from './identity-rules.ts';
import { judgeWhole, WHOLE_NUMBER } from './identity-whole.ts';
import type { IdentityCheck, IdentityStatus, IdentitySummary } from './statement-types.ts';

export { precisionOf } from './decimal.ts';
export { toleranceFor } from './identity-judgement.ts';
export { IDENTITY_RULES, type IdentityInput, type IdentityRule, type IdentityTerm } from './identity-rules.ts';

function present(values: Record<string, string>, metric: string): string | null {
  if (!Object.hasOwn(values, metric)) return null;
  const v = values[metric];
  return typeof v === 'string' ? v : null;
}

/** One rule's check on one statement: the rule and the statement it was judged on, and the judgement. */
function checkOf(rule: IdentityRule, input: IdentityInput, judgement: Judgement): IdentityCheck {
  return {
    rule_id: rule.rule_id,
    statement_type: rule.statement_type,
    fiscal_year: input.fiscal_year,
    fiscal_period: input.fiscal_period,
    ...judgement,
  };
}

function skipped(rule: IdentityRule, input: IdentityInput): IdentityCheck {
  return checkOf(rule, input, { status: 'SKIPPED', severity: 'NONE', expected_value: null, actual_value: null, delta: null, tolerance: null });
}

/**
 * One rule against one statement, as `checkIdentities` does for each of `IDENTITY_RULES`. Exported
 * so other rule sets (the reconciliation ledger) judge their equalities with the same tolerance,
 * status and severity.
 */
export function evaluateIdentityRule(rule: IdentityRule, input: IdentityInput): IdentityCheck {
  // a frozen values record cannot change, so each rule is judged on it once: ingestion hands the
  // same frozen record of a version to the data-quality rules and the reconciliation ledger
  if (!Object.isFrozen(input.values)) return evaluate(rule, input);
  let judged = JUDGED.get(input.values);
  if (!judged) JUDGED.set(input.values, (judged = new Map()));
  const seen = judged.get(rule);
  if (seen && seen.input.statement_type === input.statement_type && seen.input.fiscal_year === input.fiscal_year && seen.input.fiscal_period === input.fiscal_period) {
    return seen.check;
  }
  const check = evaluate(rule, input);
  judged.set(rule, { input, check });
  return check;
}

const JUDGED = new WeakMap<object, Map<IdentityRule, { input: IdentityInput; check: IdentityCheck }>>();

/**
 * `evaluateIdentityRule` on decimal.js alone, never the whole-number path: the reference a test
 * holds judgeWhole to (same statuses, severities and texts on whole-number statements).
 */
export function evaluateIdentityRuleInDecimal(rule: IdentityRule, input: IdentityInput): IdentityCheck {
  return evaluate(rule, input, false);
}

function evaluate(rule: IdentityRule, input: IdentityInput, wholeAllowed = true): IdentityCheck {
  if (rule.statement_type !== input.statement_type) return skipped(rule, input);
  const actualRaw = present(input.values, rule.actual);
  if (actualRaw === null) return skipped(rule, input);
  const terms = rule.expected.find(
    (set) => set.some((t) => !t.optional) && set.every((t) => t.optional || present(input.values, t.metric) !== null),
  );
  if (!terms) return skipped(rule, input);

  const used = [actualRaw];
  const signs: (1 | -1)[] = [];
  let whole = wholeAllowed && WHOLE_NUMBER.test(actualRaw);
  for (const term of terms) {
    const raw = present(input.values, term.metric);
    if (raw === null) continue; // an absent optional term counts as zero
    used.push(raw);
    signs.push(term.sign);
    if (whole && !WHOLE_NUMBER.test(raw)) whole = false;
  }
  return checkOf(rule, input, whole ? judgeWhole(used, signs) : judgeDecimal(used, signs));
}

/**
 * Evaluates every rule of `IDENTITY_RULES` against one statement.
 * pass_rate = PASS / supported, 6 fraction digits rounded down (so it reads "1.000000" only when
 * every supported rule passed); null when no rule was evaluated, since nothing was verified and
 * neither "1.000000" nor "0.000000" would be true.
 */
export function checkIdentities(input: IdentityInput): IdentitySummary {
  // pushed, not mapped: Array.prototype.map makes a packed array in the interpreter and a holey
  // one in optimized code, and the readers of `checks` deoptimized on meeting the other kind
  const checks: IdentityCheck[] = [];
  for (const rule of IDENTITY_RULES) checks.push(evaluateIdentityRule(rule, input));
  const count = (status: IdentityStatus) => checks.filter((c) => c.status === status).length;
  const skippedCount = count('SKIPPED');
  const supported = checks.length - skippedCount;
  return {
    pass_rate: supported === 0 ? null : new D(count('PASS')).div(supported).toFixed(6, D.ROUND_DOWN),
    total_rules_count: checks.length,
    supported_rules_count: supported,
    skipped_rules_count: skippedCount,
    failed_rules_count: count('FAIL'),
    checks,
  };
}
