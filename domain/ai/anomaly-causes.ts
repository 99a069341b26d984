/**
 * Likely causes of a failed equality (an accounting identity or a reconciliation roll-forward),
 * found by arithmetic on the figures the rule compared, never by guessing: each test below asks
 * whether one specific defect, undone, would make the equality hold (within two of the rule's
 * tolerances, a rescaled figure also within half a percent, and leaving at most a tenth of the
 * gap), and the first that does is the
 * likely cause, with the arithmetic as evidence. Tests, in order:
 *
 * 1. SCALE_SLIP: the reported total is about 1,000, 1,000,000 or 1,000,000,000 times the expected
 *    one (or the reverse), or one term scaled by such a factor closes the gap.
 * 2. SIGN: the reported total is minus the expected one, or one term with its sign reversed closes it.
 * 3. UNREPORTED_COMPONENT (term left out): the reported total equals the expected one without one
 *    of its terms (the filer's total leaves that component out).
 * 4. UNREPORTED_COMPONENT (figure not in the rule): the gap equals another figure of the same
 *    statement, a component the total includes and the identity does not list.
 * 5. MIXED_SCOPE_DERIVED_QUARTER: a compared figure is derived (a fourth or discrete quarter) from
 *    inputs tagged with different concepts, so it subtracts figures of different scopes.
 * 6. RESTATED_COMPARATIVE: the compared figures come from different filings, one of them a later
 *    filing's comparative that restated the period while the other kept the original figure.
 * 7. UNREPORTED_COMPONENT (input absent): an input the rule adds was not reported at all.
 * Otherwise UNDETERMINED, and the evidence still lists every figure compared.
 * Pure; exact decimals throughout.
 */
import { Decimal } from 'decimal.js';
import { readable } from '../data-quality.ts';
import { dec } from '../decimal.ts';
import type { CalculationStep, ValueOrigin } from '../statement-types.ts';

export const LIKELY_CAUSES = [
  'SCALE_SLIP', 'SIGN', 'UNREPORTED_COMPONENT', 'MIXED_SCOPE_DERIVED_QUARTER', 'RESTATED_COMPARATIVE', 'UNDETERMINED',
] as const;
export type LikelyCause = (typeof LIKELY_CAUSES)[number];

/** A stored figure's provenance, as statement versions hold it. */
export interface FigureFacts {
  value: string;
  source_accession: string | null;
  source_xbrl_concept: string | null;
  value_origin: ValueOrigin;
  calculation_steps: readonly CalculationStep[] | null;
}

/** One figure an equality compared. */
export interface EquationTerm {
  /** the rule's name for it (a metric for identities, e.g. beginning_cash for roll-forwards) */
  name: string;
  metric: string;
  /** null: the rule's input was not reported */
  value: string | null;
  sign: 1 | -1;
  statement_version_id: string | null;
  /** filled from the version's stored figure when known */
  facts?: FigureFacts;
}

/** actual = sum(sign x term), judged with `tolerance`. */
export interface Equation {
  actual: EquationTerm;
  terms: EquationTerm[];
  expected: string;
  /** the reported total as the rule read it */
  actual_value: string;
  delta: string;
  tolerance: string;
  /** other figures of the subject statement (metric -> value), for test 4 */
  others: Readonly<Record<string, string>>;
}

export interface CauseEvidence {
  /** the test that matched, e.g. TOTAL_SCALED, TERM_SIGN, TERM_LEFT_OUT, GAP_EQUALS_FIGURE */
  test: string;
  /** what the arithmetic shows, in words and exact figures */
  detail: string;
  metric: string | null;
  value: string | null;
}

export interface CauseFinding {
  likely_cause: LikelyCause;
  evidence: CauseEvidence[];
}

const SCALES = ['1000', '1000000', '1000000000'] as const;
const SLACK = dec('1.25');
const RELATIVE_SLACK = '0.005';

/** Rounding room of an arithmetic test: two of the rule's tolerances (two figures are re-added). */
const TOLERANCES = 2;
/** A proposed fix must also leave at most this share of the original gap. */
const RESIDUAL_SHARE = '0.1';
/** A term this many times the reported total may be one keyed in too small a unit. */
const DWARFS = '100';

/** The equality holds once `fixedExpected` replaces the expected side: a exact-arithmetic test. */
function closes(actual: Decimal, fixedExpected: Decimal, tolerance: Decimal, gap: Decimal): boolean {
  const residual = actual.minus(fixedExpected).abs();
  return residual.lessThanOrEqualTo(tolerance.times(TOLERANCES)) && residual.lessThanOrEqualTo(gap.abs().times(RESIDUAL_SHARE));
}

/** As `closes`, but a rescaled figure keeps its own rounding: half a percent is allowed too. */
function closesScaled(actual: Decimal, fixedExpected: Decimal, tolerance: Decimal, gap: Decimal): boolean {
  const residual = actual.minus(fixedExpected).abs();
  const room = Decimal.max(tolerance.times(TOLERANCES), Decimal.max(actual.abs(), fixedExpected.abs()).times(RELATIVE_SLACK));
  return residual.lessThanOrEqualTo(room) && residual.lessThanOrEqualTo(gap.abs().times(RESIDUAL_SHARE));
}

const name = (t: EquationTerm) => (t.name === t.metric ? t.metric : `${t.name} (${t.metric})`);

function scaleOf(a: Decimal, b: Decimal): string | null {
  if (a.isZero() || b.isZero() || a.isNegative() !== b.isNegative()) return null;
  const ratio = a.abs().greaterThan(b.abs()) ? a.dividedBy(b).abs() : b.dividedBy(a).abs();
  return SCALES.find((s) => ratio.dividedBy(s).lessThanOrEqualTo(SLACK) && ratio.dividedBy(s).greaterThanOrEqualTo(dec('1').dividedBy(SLACK))) ?? null;
}

function present(terms: EquationTerm[]): (EquationTerm & { value: string })[] {
  return terms.filter((t): t is EquationTerm & { value: string } => t.value !== null && !dec(t.value).isZero());
}

/** Runs the tests of the module comment in order; the first match is the likely cause. */
export function diagnose(eq: Equation): CauseFinding {
  const A = dec(eq.actual_value);
  const E = dec(eq.expected);
  const tol = dec(eq.tolerance);
  const D = dec(eq.delta);
  const terms = present(eq.terms);
  const found = (likely_cause: LikelyCause, ...evidence: CauseEvidence[]): CauseFinding => ({ likely_cause, evidence });

  // 1. scale
  const totalScale = scaleOf(A, E);
  if (totalScale) {
    return found('SCALE_SLIP', {
      test: 'TOTAL_SCALED', metric: eq.actual.metric, value: eq.actual.value,
      detail: `${name(eq.actual)} (${readable(A.toFixed())}) is about ${readable(totalScale)} times apart from the ${readable(E.toFixed())} its terms give: one side was keyed in a different unit.`,
    });
  }
  for (const t of terms) {
    for (const s of SCALES) {
      // scaling a term down is indistinguishable from leaving it out (test 3) unless it dwarfs the total
      const down = dec(t.value).abs().greaterThan(A.abs().times(DWARFS));
      for (const [scaled, how] of [[dec(t.value).times(s), 'times'], ...(down ? [[dec(t.value).dividedBy(s), 'divided by'] as const] : [])] as const) {
        if (closesScaled(A, E.minus(dec(t.value).times(t.sign)).plus(scaled.times(t.sign)), tol, D)) {
          return found('SCALE_SLIP', {
            test: 'TERM_SCALED', metric: t.metric, value: t.value,
            detail: `${name(t)} ${how} ${readable(s)} (${readable(scaled.toFixed())} instead of ${readable(t.value)}) makes the equality hold: that figure was keyed in a different unit.`,
          });
        }
      }
    }
  }
  // 2. sign
  if (!A.isZero() && closes(A.negated(), E, tol, D)) {
    return found('SIGN', {
      test: 'TOTAL_SIGN', metric: eq.actual.metric, value: eq.actual.value,
      detail: `${name(eq.actual)} (${readable(A.toFixed())}) is minus the ${readable(E.toFixed())} its terms give: the total was tagged with the opposite sign.`,
    });
  }
  for (const t of terms) {
    if (closes(A, E.minus(dec(t.value).times(2 * t.sign)), tol, D)) {
      return found('SIGN', {
        test: 'TERM_SIGN', metric: t.metric, value: t.value,
        detail: `${name(t)} with its sign reversed (${readable(dec(t.value).negated().toFixed())} instead of ${readable(t.value)}) makes the equality hold: it was tagged with the opposite sign.`,
      });
    }
  }
  // 3. a term the reported total leaves out
  for (const t of terms) {
    if (terms.length > 1 && closes(A, E.minus(dec(t.value).times(t.sign)), tol, D)) {
      return found('UNREPORTED_COMPONENT', {
        test: 'TERM_LEFT_OUT', metric: t.metric, value: t.value,
        detail: `${name(eq.actual)} (${readable(A.toFixed())}) equals the other terms without ${name(t)} (${readable(t.value)}): the reported total leaves that component out.`,
      });
    }
  }
  // 4. the gap is another figure of the statement
  const gap = dec(eq.delta).abs();
  const used = new Set([eq.actual.metric, ...eq.terms.map((t) => t.metric)]);
  const matches = Object.entries(eq.others)
    .filter(([m, v]) => !used.has(m) && dec(v).abs().greaterThan(tol) && closes(dec(v).abs(), gap, tol, gap))
    .sort(([a], [b]) => a.localeCompare(b));
  if (matches.length > 0 && !gap.isZero()) {
    const [metric, value] = matches[0]!;
    return found('UNREPORTED_COMPONENT', {
      test: 'GAP_EQUALS_FIGURE', metric, value,
      detail: `The gap (${readable(eq.delta)}) equals ${metric} (${readable(value)}) on the same statement, a component the total includes and the rule does not list.`,
    });
  }
  // 5. a derived figure from inputs of different concepts
  for (const t of [eq.actual, ...eq.terms]) {
    const steps = t.facts?.value_origin === 'DERIVED' ? (t.facts.calculation_steps ?? []) : [];
    const concepts = [...new Set(steps.map((s) => s.source_xbrl_concept ?? 'none'))].sort();
    if (concepts.length > 1) {
      return found('MIXED_SCOPE_DERIVED_QUARTER', {
        test: 'DERIVED_FROM_MIXED_CONCEPTS', metric: t.metric, value: t.value,
        detail: `${name(t)} is derived from ${steps.map((s) => `${s.operation} ${s.source_xbrl_concept ?? 'an untagged figure'} ${s.period_start ?? ''}..${s.period_end} (${s.source_accession})`).join(', ')}: inputs of different concepts, so the subtraction mixes scopes.`,
      });
    }
  }
  // 6. figures from different filings
  const sources = new Map<string, string[]>();
  for (const t of [eq.actual, ...eq.terms]) {
    const acc = t.facts?.source_accession;
    if (t.value === null || !acc || t.facts?.value_origin === 'DERIVED') continue;
    sources.set(acc, [...(sources.get(acc) ?? []), t.metric]);
  }
  const sameStatement = new Set([eq.actual, ...eq.terms].map((t) => t.statement_version_id)).size === 1;
  if (sources.size > 1 && sameStatement) {
    const list = [...sources.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([acc, ms]) => `${ms.join(', ')} from ${acc}`);
    return found('RESTATED_COMPARATIVE', {
      test: 'FIGURES_FROM_DIFFERENT_FILINGS', metric: null, value: null,
      detail: `The compared figures of this one statement come from different filings (${list.join('; ')}): a later filing restated part of the period and the rest was carried forward from the original.`,
    });
  }
  // 7. an input not reported
  const absent = eq.terms.filter((t) => t.value === null);
  if (absent.length > 0) {
    return found('UNREPORTED_COMPONENT', ...absent.map((t) => ({
      test: 'INPUT_NOT_REPORTED', metric: t.metric, value: null,
      detail: `${name(t)} has no figure on the statement the rule read, so the rule counted it as zero; the gap (${readable(eq.delta)}) is at least partly that component.`,
    })));
  }
  return found('UNDETERMINED', {
    test: 'NONE_MATCHED', metric: null, value: null,
    detail: 'No single scale, sign, omitted-term, mixed-scope or restated-figure explanation closes the gap; compare the figures listed with the filing.',
  });
}
