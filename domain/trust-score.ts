/**
 * The trust score of a point-in-time read (`_meta.trust_score` of the as-of financials): how far
 * the statements an as-of read returns can be taken at face value. Pure: statements in, a score
 * and its parts out; decimal strings, computed with decimal.js.
 *
 * Four components, each a share in 0..1 over every statement of the read:
 * - identity_pass_rate: identity checks (domain/identity-checks.ts, the same checks served under
 *   `_meta.identity`) that PASS, over the checks that could be evaluated (SKIPPED ones are left
 *   out, a WARNING counts as not passing).
 * - core_completeness: core metrics present over core metrics expected. Every period of the read
 *   expects all three statement types, each with its CORE_REQUIREMENTS (an absent statement misses
 *   all of its core metrics).
 * - correction_share: figures carrying a correction_rule (value differs from the tagged one).
 * - derived_share: figures with value_origin DERIVED (computed, e.g. a fourth quarter, not filed).
 *
 * score = (0.40 * identity_pass_rate + 0.30 * core_completeness + 0.15 * (1 - correction_share)
 *          + 0.15 * (1 - derived_share)) / (sum of the weights of the components that are not null)
 *
 * A component with nothing to measure (no evaluable check, no figure) is null and drops out, the
 * other weights rescaled to sum to one; the score is null when every component is null (nothing
 * visible). Shares and the score are rounded down to six fraction digits.
 */
import { Decimal } from 'decimal.js';
import { checkIdentities } from './identity-checks.ts';
import type { FiscalPeriod, StatementType } from './statement-types.ts';
import { STATEMENT_TYPES } from './statements/types.ts';
import { TRUST_REQUIREMENTS } from './catalog/traits.ts';

const D = Decimal.clone({ precision: 60 });

/** What the score reads of one figure. */
export interface ScoredFigure {
  value: string;
  value_origin: 'SOURCE' | 'DERIVED';
  correction_rule: string | null;
}

export interface ScoredStatement {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  figures: Record<string, ScoredFigure>;
}


/**
 * Core metrics expected on each statement type; an inner list is alternatives (either
 * STOCKHOLDERS_EQUITY or TOTAL_EQUITY satisfies the equity line). The headline totals of
 * domain/coverage.ts CORE_METRICS, counted one requirement each.
 */
export const CORE_REQUIREMENTS: Readonly<Record<StatementType, readonly (readonly string[])[]>> = TRUST_REQUIREMENTS;

export const TRUST_WEIGHTS = Object.freeze({
  identity_pass_rate: '0.40',
  core_completeness: '0.30',
  correction_share: '0.15',
  derived_share: '0.15',
});

export const TRUST_FORMULA =
  'score = (0.40 * identity_pass_rate + 0.30 * core_completeness + 0.15 * (1 - correction_share) + 0.15 * (1 - derived_share)) ' +
  '/ (sum of the weights of the non-null components); null components drop out; null when nothing is visible';

export interface TrustScore {
  /** 0..1, six fraction digits, rounded down; null when no statement was scored */
  score: string | null;
  components: {
    identity_pass_rate: string | null;
    core_completeness: string | null;
    correction_share: string | null;
    derived_share: string | null;
  };
  counts: {
    statements: number;
    periods: number;
    identity_checks_evaluated: number;
    identity_checks_passed: number;
    core_metrics_expected: number;
    core_metrics_present: number;
    figures: number;
    corrected_figures: number;
    derived_figures: number;
  };
  weights: typeof TRUST_WEIGHTS;
  formula: string;
  explanation: string;
}

function share(n: number, d: number): string | null {
  return d === 0 ? null : new D(n).div(d).toFixed(6, D.ROUND_DOWN);
}

function pct(s: string): string {
  return `${new D(s).times(100).toFixed(1, D.ROUND_DOWN)}%`;
}

/** Scores the statements of one read (any number of periods; a period is fiscal_year + fiscal_period). */
export function trustScore(statements: readonly ScoredStatement[]): TrustScore {
  let evaluated = 0;
  let passed = 0;
  let figures = 0;
  let corrected = 0;
  let derived = 0;
  const periods = new Map<string, Set<StatementType>>();
  const present = new Map<string, Set<string>>();
  for (const s of statements) {
    const values: Record<string, string> = {};
    for (const [metric, f] of Object.entries(s.figures)) {
      values[metric] = f.value;
      figures++;
      if (f.correction_rule !== null) corrected++;
      if (f.value_origin === 'DERIVED') derived++;
    }
    const identity = checkIdentities({ statement_type: s.statement_type, fiscal_year: s.fiscal_year, fiscal_period: s.fiscal_period, values });
    for (const c of identity.checks) {
      if (c.status === 'SKIPPED') continue;
      evaluated++;
      if (c.status === 'PASS') passed++;
    }
    const key = `${s.fiscal_year} ${s.fiscal_period}`;
    if (!periods.has(key)) periods.set(key, new Set());
    periods.get(key)!.add(s.statement_type);
    present.set(`${key} ${s.statement_type}`, new Set(Object.keys(s.figures)));
  }

  let expected = 0;
  let found = 0;
  for (const key of periods.keys()) {
    for (const type of STATEMENT_TYPES) {
      const have = present.get(`${key} ${type}`) ?? new Set<string>();
      for (const alternatives of CORE_REQUIREMENTS[type]) {
        expected++;
        if (alternatives.some((m) => have.has(m))) found++;
      }
    }
  }

  const components = {
    identity_pass_rate: share(passed, evaluated),
    core_completeness: share(found, expected),
    correction_share: share(corrected, figures),
    derived_share: share(derived, figures),
  };
  // each component as a 0..1 "goodness": shares of corrected and derived figures count against
  const goodness: [keyof typeof TRUST_WEIGHTS, string | null][] = [
    ['identity_pass_rate', components.identity_pass_rate],
    ['core_completeness', components.core_completeness],
    ['correction_share', components.correction_share === null ? null : new D(1).minus(components.correction_share).toString()],
    ['derived_share', components.derived_share === null ? null : new D(1).minus(components.derived_share).toString()],
  ];
  let weighted = new D(0);
  let weightSum = new D(0);
  for (const [name, value] of goodness) {
    if (value === null) continue;
    weighted = weighted.plus(new D(TRUST_WEIGHTS[name]).times(value));
    weightSum = weightSum.plus(TRUST_WEIGHTS[name]);
  }
  const score = weightSum.isZero() ? null : weighted.div(weightSum).toFixed(6, D.ROUND_DOWN);

  const explanation =
    statements.length === 0
      ? 'No statement was filed by this date, so there is nothing to score.'
      : [
          `Score ${score} over ${statements.length} statement${statements.length === 1 ? '' : 's'} in ${periods.size} period${periods.size === 1 ? '' : 's'}.`,
          evaluated === 0
            ? 'No accounting identity could be evaluated (inputs missing), so identities do not count.'
            : `${passed} of ${evaluated} evaluated accounting identities pass (${pct(components.identity_pass_rate!)}).`,
          `${found} of ${expected} core metrics are reported (${pct(components.core_completeness!)}).`,
          figures === 0
            ? 'No figures.'
            : `${corrected} of ${figures} figures were corrected from the tagged value and ${derived} were derived rather than filed.`,
        ].join(' ');

  return {
    score,
    components,
    counts: {
      statements: statements.length,
      periods: periods.size,
      identity_checks_evaluated: evaluated,
      identity_checks_passed: passed,
      core_metrics_expected: expected,
      core_metrics_present: found,
      figures,
      corrected_figures: corrected,
      derived_figures: derived,
    },
    weights: TRUST_WEIGHTS,
    formula: TRUST_FORMULA,
    explanation,
  };
}
