/**
 * IDENTITY rules of the ledger: the accounting identities of `domain/identity-checks.ts` (served as
 * `_meta.identity`, same rule ids, same tolerance, status and severity) plus a few more equalities
 * of the same kind, in the manner of XBRL US DQC_0004 (a reported total equals the sum of its
 * reported parts, within the rounding the figures' own precision allows).
 */
import { evaluateIdentityRule, IDENTITY_RULES, type IdentityRule, type IdentityTerm } from '../identity-checks.ts';
import type { ReconciliationRule, RuleOutcome, StatementSnapshot } from './types.ts';

const req = (metric: string, sign: 1 | -1 = 1): IdentityTerm => ({ metric, sign });
const opt = (metric: string, sign: 1 | -1 = 1): IdentityTerm => ({ metric, sign, optional: true });

/**
 * Equalities the ledger adds to the served identity block. Each held on the latest versions of the
 * corpus wherever its inputs were tagged, so a FAIL points at the filing or the mapping, not at
 * the rule.
 */
export const LEDGER_ONLY_IDENTITY_RULES: readonly IdentityRule[] = [
  {
    rule_id: 'BS_TOTAL_EQUITY_PARENT_PLUS_NONCONTROLLING',
    statement_type: 'BALANCE_SHEET',
    description: "Total equity equals stockholders' equity attributable to the parent plus noncontrolling interest.",
    actual: 'TOTAL_EQUITY',
    expected: [[req('STOCKHOLDERS_EQUITY'), opt('NONCONTROLLING_INTEREST')]],
  },
  {
    rule_id: 'BS_CURRENT_PLUS_NONCURRENT_ASSETS',
    statement_type: 'BALANCE_SHEET',
    description: 'Total assets equal total current assets plus total non-current assets (filers that present both subtotals).',
    actual: 'TOTAL_ASSETS',
    expected: [[req('TOTAL_CURRENT_ASSETS'), req('TOTAL_NONCURRENT_ASSETS')]],
  },
  {
    rule_id: 'BS_CURRENT_PLUS_NONCURRENT_LIABILITIES',
    statement_type: 'BALANCE_SHEET',
    description: 'Total liabilities equal total current liabilities plus total non-current liabilities (filers that present both subtotals).',
    actual: 'TOTAL_LIABILITIES',
    expected: [[req('TOTAL_CURRENT_LIABILITIES'), req('TOTAL_NONCURRENT_LIABILITIES')]],
  },
];

const VALUES = new WeakMap<StatementSnapshot, Record<string, string>>();

/** metric -> value of a statement, built once per statement for all of its identity rules */
export function valuesOf(s: StatementSnapshot): Readonly<Record<string, string>> {
  if (s.values) return s.values;
  let values = VALUES.get(s);
  if (!values) {
    values = {};
    for (const [metric, f] of Object.entries(s.figures)) values[metric] = f.value;
    VALUES.set(s, values);
  }
  return values;
}

function metricsOf(rule: IdentityRule): string[] {
  return [...new Set([rule.actual, ...rule.expected.flatMap((set) => set.map((t) => t.metric))])];
}

/** The figures the identity used: its actual metric and the terms of the alternative it chose. */
function inputsOf(rule: IdentityRule, values: Readonly<Record<string, string>>): Record<string, string> {
  const has = (m: string) => Object.hasOwn(values, m);
  const set = rule.expected.find((s) => s.every((t) => t.optional || has(t.metric))) ?? [];
  const inputs: Record<string, string> = {};
  for (const m of [rule.actual, ...set.map((t) => t.metric)]) if (has(m)) inputs[m] = values[m]!;
  return inputs;
}

function fromIdentity(rule: IdentityRule): ReconciliationRule {
  return {
    rule_id: rule.rule_id,
    rule_category: 'IDENTITY',
    statement_type: rule.statement_type,
    description: rule.description,
    metrics: metricsOf(rule),
    evaluate(subject): RuleOutcome | null {
      const values = valuesOf(subject);
      const check = evaluateIdentityRule(rule, {
        statement_type: subject.statement_type,
        fiscal_year: subject.fiscal_year,
        fiscal_period: subject.fiscal_period,
        values,
      });
      if (check.status === 'SKIPPED') return null;
      return {
        status: check.status,
        severity: check.severity,
        expected_value: check.expected_value,
        actual_value: check.actual_value,
        delta: check.delta,
        notes: { details: { tolerance: check.tolerance, inputs: inputsOf(rule, values) } },
      };
    },
  };
}

export const IDENTITY_LEDGER_RULES: readonly ReconciliationRule[] = [...IDENTITY_RULES, ...LEDGER_ONLY_IDENTITY_RULES].map(fromIdentity);
