import { decEquals, isNegative, negate, sub } from '../decimal.ts';
import type { StatementFigure } from '../statement-types.ts';
import type { Candidate } from './candidates.ts';
import { statementFigure } from './figures.ts';

/**
 * The only two places a served value differs from the tagged one. Both keep what was filed
 * (as_filed_value / as_filed_concept) and both fire only when the filer's own gross profit
 * proves the reading: a correction never guesses.
 */
export function applyIncomeCorrections(
  figures: Map<string, StatementFigure>,
  revenueCandidates: readonly Candidate[],
): void {
  const revenue = figures.get('REVENUE');
  const cost = figures.get('COST_OF_REVENUE');
  const gross = figures.get('GROSS_PROFIT');
  if (!revenue || !cost || !gross) return;
  if (revenue.value_origin !== 'SOURCE' || cost.value_origin !== 'SOURCE' || gross.value_origin !== 'SOURCE') return;

  // cost tagged as a credit: revenue + cost = gross profit
  if (isNegative(cost.value) && !decEquals(sub(revenue.value, cost.value), gross.value) && decEquals(sub(revenue.value, negate(cost.value)), gross.value)) {
    figures.set(
      'COST_OF_REVENUE',
      statementFigure({ ...cost, value: negate(cost.value), correction_rule: 'COST_OF_REVENUE_CREDIT_SIGN', as_filed_value: cost.value, as_filed_concept: null }),
    );
    return;
  }

  // a residual top line (e.g. "other revenue" tagged as the total) replaced by the revenue that
  // reconciles with gross profit in the same filing and period
  if (decEquals(sub(revenue.value, cost.value), gross.value)) return;
  const fitting = revenueCandidates.find(
    (c) => c.concept !== revenue.source_xbrl_concept && decEquals(sub(c.value, cost.value), gross.value),
  );
  if (!fitting) return;
  figures.set(
    'REVENUE',
    statementFigure({
      ...revenue,
      value: fitting.value,
      source_accession: fitting.fact.accession,
      source_xbrl_concept: fitting.concept,
      mapping_type: 'CORRECTION',
      correction_rule: 'REVENUE_RESIDUAL_TOP_LINE_REPLACED',
      as_filed_value: null,
      as_filed_concept: revenue.source_xbrl_concept,
    }),
  );
}
