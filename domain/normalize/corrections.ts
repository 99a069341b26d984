import { add, decEquals, isNegative, leadingPlace, negate, sub } from '../decimal.ts';
import type { CalculationStep, StatementFigure } from '../statement-types.ts';
import type { Candidate } from './candidates.ts';
import { statementFigure } from './figures.ts';

/**
 * The income statement's corrections. Every correction keeps what was filed (as_filed_value /
 * as_filed_concept) and fires only when the filer's own figures prove the reading (here its gross
 * profit; for the cash flow, applyCashFlowCorrections, its sections and exchange-rate line; for the
 * balance sheet, applyBalanceSheetCorrections, its stockholders' equity and the lines of its equity
 * section): a correction never guesses.
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

const CASH_SECTIONS = ['OPERATING_CASH_FLOW', 'INVESTING_CASH_FLOW', 'FINANCING_CASH_FLOW'] as const;

/**
 * The change in cash tagged before the exchange-rate effect. `NET_CHANGE_IN_CASH` is the change
 * including that effect (us-gaap CashAndCashEquivalentsPeriodIncreaseDecrease and its
 * restricted-cash successor say so). A filing whose tagged change equals exactly its operating,
 * investing and financing totals while it also tells a non-zero exchange-rate line for the same
 * period tagged the subtotal before that line (Home Depot, 2008-2018: its "increase in cash"
 * above the effect of exchange rates): served as the subtotal plus the effect, which is what the
 * balance sheet's cash moved by, with `as_filed_value` the tagged subtotal. The five figures must
 * be one telling: source figures of one filing and period, or quarters derived alike (the same
 * operations on the same filings' periods), whose arithmetic is then the same; a derived figure
 * gets the exchange-rate line's steps after its own.
 */
export function applyCashFlowCorrections(figures: Map<string, StatementFigure>): void {
  const net = figures.get('NET_CHANGE_IN_CASH');
  const fx = figures.get('EFFECT_OF_EXCHANGE_RATE_ON_CASH');
  if (net === undefined || fx === undefined || net.correction_rule !== null || fx.correction_rule !== null) return;
  if (leadingPlace(fx.value) === null || !oneTelling(net, fx)) return;
  let sections = '0';
  for (const metric of CASH_SECTIONS) {
    const f = figures.get(metric);
    if (f === undefined || f.correction_rule !== null || !oneTelling(net, f)) return;
    sections = add(sections, f.value);
  }
  if (!decEquals(sections, net.value)) return;
  const steps = net.calculation_steps === null ? null : [...net.calculation_steps, ...fx.calculation_steps!.map(asAdded)];
  figures.set(
    'NET_CHANGE_IN_CASH',
    statementFigure({ ...net, value: add(net.value, fx.value), correction_rule: 'NET_CHANGE_IN_CASH_FX_EFFECT_ADDED', as_filed_value: net.value, as_filed_concept: null, calculation_steps: steps }),
  );
}

/** a step of the exchange-rate line's derivation, as a term added to the change in cash's */
function asAdded(step: CalculationStep): CalculationStep {
  return step.operation === 'base' ? { ...step, operation: 'add' } : step;
}

/** whether two figures come from one telling: one filing and period as tagged, or the same derivation from the same filings' periods */
function oneTelling(a: StatementFigure, b: StatementFigure): boolean {
  if (a.value_origin !== b.value_origin || a.unit !== b.unit || a.period_start !== b.period_start || a.period_end !== b.period_end) return false;
  if (a.value_origin === 'SOURCE') return a.source_accession === b.source_accession;
  const x = a.calculation_steps;
  const y = b.calculation_steps;
  if (a.mapping_type !== b.mapping_type || x === null || y === null || x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const s = x[i]!;
    const t = y[i]!;
    if (s.operation !== t.operation || s.source_accession !== t.source_accession || s.period_start !== t.period_start || s.period_end !== t.period_end) return false;
  }
  return true;
}

/** the lines of the equity section that make up stockholders' equity: a total tagged with one of their values is that line */
const EQUITY_COMPONENTS = ['PREFERRED_STOCK_VALUE', 'COMMON_STOCK_VALUE', 'COMMON_STOCK_INCLUDING_APIC', 'ADDITIONAL_PAID_IN_CAPITAL', 'RETAINED_EARNINGS', 'ACCUMULATED_OCI', 'TREASURY_STOCK'] as const;

/**
 * A component of equity tagged as total equity. `TOTAL_EQUITY` (stockholders' equity including
 * noncontrolling interest) is the parent's equity plus the noncontrolling interest. Where the
 * filing tags it at a value that is not the parent's equity plus the noncontrolling interest it
 * tells (none told: none held) but exactly the value of a line of its own equity section at the
 * same date, the tag holds that line (Nike, 2014-2016: its accumulated other comprehensive income,
 * 85M against 10,824M of equity): served as the parent's equity plus the noncontrolling interest,
 * `as_filed_value` the tagged value. All figures must be one filing's, at one date.
 */
export function applyBalanceSheetCorrections(figures: Map<string, StatementFigure>): void {
  const total = figures.get('TOTAL_EQUITY');
  const parent = figures.get('STOCKHOLDERS_EQUITY');
  if (total === undefined || parent === undefined || total.value_origin !== 'SOURCE' || total.correction_rule !== null || parent.correction_rule !== null || !oneTelling(total, parent)) return;
  const nci = figures.get('NONCONTROLLING_INTEREST');
  if (nci !== undefined && (nci.correction_rule !== null || !oneTelling(total, nci))) return;
  const expected = nci === undefined ? parent.value : add(parent.value, nci.value);
  if (decEquals(expected, total.value)) return;
  const tagsALine = EQUITY_COMPONENTS.some((metric) => {
    const f = figures.get(metric);
    return f !== undefined && oneTelling(total, f) && decEquals(f.value, total.value);
  });
  if (!tagsALine) return;
  figures.set(
    'TOTAL_EQUITY',
    statementFigure({ ...total, value: expected, correction_rule: 'TOTAL_EQUITY_COMPONENT_REPLACED', as_filed_value: total.value, as_filed_concept: null }),
  );
}
