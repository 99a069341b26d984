/**
 * Data-quality rules that read one version alone: negative values, missing core metrics and
 * failing accounting identities.
 */
import { NON_NEGATIVE_METRICS } from './catalog/traits.ts';
import { dec } from './decimal.ts';
import { CORE_METRICS, IDENTITY_RULE_PREFIX, type IssueSeverity, type QualityFinding, type QualityVersion } from './data-quality-rules.ts';
import { finding, label, point, readable, tierOf } from './data-quality-findings.ts';
import { evaluateIdentityRule, IDENTITY_RULES, type IdentityInput } from './identity-checks.ts';
import type { FiscalPeriod, StatementType } from './statement-types.ts';

/** DQ_NEGATIVE_VALUE */
export function negativeValues(v: QualityVersion): QualityFinding[] {
  const out: QualityFinding[] = [];
  for (const metric in v.values) {
    const value = v.values[metric]!;
    if (!NON_NEGATIVE_METRICS.has(metric) || !value.startsWith('-') || dec(value).isZero()) continue;
    // completeEvidence adds why, once the figure's origin is known
    out.push(
      finding(v, 'DQ_NEGATIVE_VALUE', tierOf(metric), metric,
        `${metric} is negative (${readable(value)}) on ${label(v)}, but it is never negative (DQC_0015).`,
        { compared: [point('subject', v, metric)] }),
    );
  }
  return out;
}

/** DQ_MISSING_CORE_METRIC */
export function missingCore(v: QualityVersion): QualityFinding[] {
  const core = CORE_METRICS[v.statement_type as StatementType] ?? [];
  return core
    .filter((c) => !Object.hasOwn(v.values, c.metric))
    .map((c) =>
      finding(v, 'DQ_MISSING_CORE_METRIC', c.severity, c.metric,
        `${label(v)} has no ${c.metric}, a core metric of every ${v.statement_type}; ratios and growth that need it are unavailable for this period.`,
        { compared: [], missing_metric: c.metric, metrics_present: Object.keys(v.values).length }),
    );
}

/** DQ_IDENTITY_<rule_id>: every FAIL of checkIdentities */
export function identityFailures(v: QualityVersion): QualityFinding[] {
  const input: IdentityInput = {
    statement_type: v.statement_type as StatementType,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period as FiscalPeriod,
    values: v.values as Record<string, string>,
  };
  const out: QualityFinding[] = [];
  // the checks of checkIdentities, one rule at a time: its summary (a pass rate divided out in
  // 1,000-digit decimal.js) is not what a finding needs, nor are the rules of other statement
  // types (SKIPPED there)
  for (const rule of IDENTITY_RULES) {
    if (rule.statement_type !== v.statement_type) continue;
    const check = evaluateIdentityRule(rule, input);
    if (check.status !== 'FAIL') continue;
    const involved = [rule.actual, ...new Set(rule.expected.flat().map((t) => t.metric))].filter((m) => Object.hasOwn(v.values, m));
    out.push(
      finding(v, `${IDENTITY_RULE_PREFIX}${check.rule_id}`, check.severity as IssueSeverity, rule.actual,
        `${check.rule_id} fails on ${label(v)}: ${rule.actual} is ${readable(check.actual_value!)} but the identity expects ${readable(check.expected_value!)} ` +
          `(delta ${readable(check.delta!)}, tolerance ${readable(check.tolerance!)}). ${rule.description}`,
        {
          compared: [point('subject', v, rule.actual), ...involved.slice(1).map((m) => point('identity_term', v, m))],
          rule_id: check.rule_id,
          expected_value: check.expected_value,
          actual_value: check.actual_value,
          delta: check.delta,
          tolerance: check.tolerance,
        }),
    );
  }
  return out;
}
