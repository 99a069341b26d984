/**
 * Time-series points as served: panel points (one statement type, canonical metrics), derived
 * points (derived metrics computed on read from the period's statements), bundle and view points
 * (a fiscal period across statement types). Pure: assembled periods in, wire-ready objects out.
 */
import type { VersionKey } from './statements/version-ref.ts';
import type { StatementType } from './catalog/index.ts';
import { wireDecimal } from './decimal.ts';
import { conventionsFor, evaluateDerived, inputsOf, type UnavailableReason } from './derived-eval.ts';
import type { FiscalPeriod } from './statement-types.ts';
import { closingFigures, periodFigures, type PeriodGroup, type StatementRow } from './series-periods.ts';
import { STATEMENT_TYPES } from './statements/types.ts';

export type PointReason = UnavailableReason | 'NOT_REPORTED';

export interface Unavailable {
  metric: string;
  reason: PointReason;
  missing_inputs?: string[];
}

export interface VersionRef extends VersionKey {
  statement_type: StatementType;
  fiscal_period: FiscalPeriod;
  source_accession: string;
  filing_date: string;
  /** period: a statement of the point's period; opening_balance: the balance sheet at the previous period end */
  role: 'period' | 'opening_balance';
}

function ref(r: StatementRow, role: VersionRef['role'] = 'period'): VersionRef {
  return {
    statement_type: r.statement_type,
    statement_version_id: r.statement_version_id,
    version_sequence: r.version_sequence,
    fiscal_period: r.fiscal_period,
    source_accession: r.accession,
    filing_date: r.filing_date,
    role,
  };
}


/** The statement versions a period point read, closing then opening balance sheet. */
function versionsRead(g: PeriodGroup, opening: boolean): VersionRef[] {
  const out = STATEMENT_TYPES.map((t) => g.statements[t]).filter((r): r is StatementRow => r !== undefined).map((r) => ref(r));
  if (opening && g.opening) out.push(ref(g.opening, 'opening_balance'));
  return out;
}

/** A single statement version as a panel point: every projected metric, with derived figures named. */
export function panelPoint(r: StatementRow, order: (a: string, b: string) => number) {
  const names = Object.keys(r.figures).sort(order);
  const metrics: Record<string, string> = {};
  for (const m of names) metrics[m] = wireDecimal(r.figures[m]!.v);
  return {
    cik: r.cik,
    statement_type: r.statement_type,
    accounting_standard: r.accounting_standard,
    statement_date: r.period_end,
    fiscal_year: r.fiscal_year,
    fiscal_period: r.fiscal_period,
    currency: r.currency,
    period_start: r.period_start,
    statement_version_id: r.statement_version_id,
    version_sequence: r.version_sequence,
    source_accession: r.accession,
    filing_date: r.filing_date,
    metrics,
    derived_figures: names.filter((m) => r.figures[m]!.d),
  };
}

/**
 * Derived and canonical metrics of one period. Canonical names read the period's figures (null,
 * NOT_REPORTED when absent); derived names are evaluated. Every name is in `metrics`; each null has
 * an `unavailable_metrics` entry saying why.
 */
export function periodMetrics(g: PeriodGroup, names: readonly string[], isDerived: (m: string) => boolean) {
  const figures = closingFigures(g);
  const inputs = periodFigures(g);
  const metrics: Record<string, string | null> = {};
  const unavailable: Unavailable[] = [];
  const derivedFigures = new Set<string>();
  let readsOpening = false;
  for (const m of names) {
    if (isDerived(m)) {
      const r = evaluateDerived(m, inputs);
      metrics[m] = r.value === null ? null : wireDecimal(r.value);
      if (r.reason) unavailable.push(r.reason === 'MISSING_INPUT' ? { metric: m, reason: r.reason, missing_inputs: r.missing_inputs } : { metric: m, reason: r.reason });
      for (const i of inputsOf([m])) if (figures[i]?.d) derivedFigures.add(i);
      if (r.value !== null && conventionsFor(m)?.balance_inputs_averaged.some((i) => g.opening?.figures[i] !== undefined)) readsOpening = true;
    } else {
      const f = figures[m];
      metrics[m] = f ? wireDecimal(f.v) : null;
      if (!f) unavailable.push({ metric: m, reason: 'NOT_REPORTED' });
      else if (f.d) derivedFigures.add(m);
    }
  }
  return { metrics, unavailable_metrics: unavailable, derived_figures: [...derivedFigures].sort(), statement_versions: versionsRead(g, readsOpening) };
}

/** A derived-series point anchored on one statement type's row of the period. */
export function derivedPoint(g: PeriodGroup, anchor: StatementType, names: readonly string[], isDerived: (m: string) => boolean) {
  const row = g.statements[anchor]!;
  return {
    cik: g.cik,
    statement_type: anchor,
    accounting_standard: row.accounting_standard,
    statement_date: row.period_end,
    fiscal_year: g.fiscal_year,
    fiscal_period: g.fiscal_period,
    currency: row.currency,
    period_start: g.period_start,
    ...periodMetrics(g, names, isDerived),
  };
}

/** A bundle point: the bundle's canonical metrics the period reports, and the ones it does not. */
export function bundlePoint(g: PeriodGroup, names: readonly string[]) {
  const figures = closingFigures(g);
  const metrics: Record<string, string> = {};
  const derived: string[] = [];
  for (const m of names) {
    const f = figures[m];
    if (!f) continue;
    metrics[m] = wireDecimal(f.v);
    if (f.d) derived.push(m);
  }
  return {
    cik: g.cik,
    accounting_standard: g.accounting_standard,
    statement_date: g.period_end,
    fiscal_year: g.fiscal_year,
    fiscal_period: g.fiscal_period,
    currency: g.currency,
    period_start: g.period_start,
    metrics,
    missing_metrics: names.filter((m) => !(m in metrics)),
    derived_figures: derived,
    statement_versions: versionsRead(g, false),
  };
}
