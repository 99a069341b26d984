/**
 * Rule 10: a quarter a later filing only derives, against one the company reported. Whether the
 * later derivation nets year-to-date figures told on two bases.
 */
import { add, sub } from '../decimal.ts';
import { sameFigure } from '../statements/versions.ts';
import type { CalculationStep, StatementFigure } from '../statement-types.ts';

/**
 * Whether a later derivation of a quarter takes one side as the reported quarter's own filing had
 * it and the other told differently since: the year-to-date it starts from (the base) and what is
 * subtracted (the earlier year-to-date, or the quarters an annual report told), each compared as
 * the same figure. A re-told year-to-date netted against one nobody re-told with it.
 */
export function mixesBases(own: StatementFigure, later: StatementFigure): boolean {
  const a = own.calculation_steps;
  const b = later.calculation_steps;
  if (!a || !b || a.length < 2 || b.length < 2) return false;
  const baseKept = sameFigure(a[0]!, b[0]!);
  const subtractedKept = sameFigure({ value: subtracted(a) }, { value: subtracted(b) });
  return baseKept !== subtractedKept;
}

/** what a derivation subtracts from its base, in all */
function subtracted(steps: readonly CalculationStep[]): string {
  let total = '0';
  for (let i = 1; i < steps.length; i++) total = steps[i]!.operation === 'subtract' ? add(total, steps[i]!.value) : sub(total, steps[i]!.value);
  return total;
}

/** a discrete quarter or Q4 derived from year-to-date figures (not an imputed total) */
export function isDerivedQuarter(f: StatementFigure): boolean {
  return f.value_origin === 'DERIVED' && (f.mapping_type === 'DERIVED_DISCRETE_QUARTER' || f.mapping_type === 'DERIVED_Q4');
}
