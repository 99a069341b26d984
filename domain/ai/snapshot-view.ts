/**
 * One company's figures as a point-in-time snapshot holds them (the spec's snapshot build rows:
 * statement_type, metric_name, metric_value, statement_date, fiscal_year, fiscal_period and the
 * statement_version_id each row came from), indexed for what the AI generators ask: a statement,
 * the period before it, the same period a year before, and the inputs of a derived metric with the
 * versions they came from. Pure; values stay decimal strings.
 */
import { DERIVED_METRICS } from '../catalog/index.ts';
import { conventionsOf, evaluateDerived, type DerivedValue, type PeriodFigures } from '../derived-eval.ts';
import type { StatementType } from '../statement-types.ts';

/** A snapshot row, as stored by the modeling build (only the fields the generators read). */
export interface SnapshotFigure {
  statement_type: StatementType;
  metric_name: string;
  metric_value: string;
  /** period end */
  statement_date: string;
  fiscal_year: number;
  fiscal_period: string;
  statement_version_id: string;
}

/** One statement of the snapshot: its version and its figures. */
export interface StatementView {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: string;
  statement_date: string;
  statement_version_id: string;
  values: Readonly<Record<string, string>>;
}

export interface PeriodRef {
  fiscal_year: number;
  fiscal_period: string;
}

/** A derived metric's value at one period and every statement version its inputs came from. */
export interface Grounded extends DerivedValue {
  statement_version_ids: string[];
}

const PERIOD_ORDER: Record<string, number> = { Q1: 1, Q2: 2, Q3: 3, Q4: 4, FY: 5 };

/** Newest first: later period end first; at one date the year before its fourth quarter. */
export function newestFirst(a: StatementView, b: StatementView): number {
  return (
    b.statement_date.localeCompare(a.statement_date) ||
    b.fiscal_year - a.fiscal_year ||
    (PERIOD_ORDER[b.fiscal_period] ?? 0) - (PERIOD_ORDER[a.fiscal_period] ?? 0)
  );
}

/** The period of the same length just before: the prior year for FY, the prior quarter for a quarter. */
export function priorPeriodOf(p: PeriodRef): PeriodRef {
  if (p.fiscal_period === 'FY') return { fiscal_year: p.fiscal_year - 1, fiscal_period: 'FY' };
  const q = Number(p.fiscal_period.slice(1));
  return q === 1 ? { fiscal_year: p.fiscal_year - 1, fiscal_period: 'Q4' } : { fiscal_year: p.fiscal_year, fiscal_period: `Q${q - 1}` };
}

/** The same period one fiscal year earlier. */
export function priorYearOf(p: PeriodRef): PeriodRef {
  return { fiscal_year: p.fiscal_year - 1, fiscal_period: p.fiscal_period };
}

/** Balance sheets exist at FY and Q1-Q3 ends; a fourth quarter closes on the year's balance sheet. */
function balanceSheetPeriod(p: PeriodRef): PeriodRef {
  return p.fiscal_period === 'Q4' ? { fiscal_year: p.fiscal_year, fiscal_period: 'FY' } : p;
}

/** The balance sheet at the previous period end: the opening balances of a flow period. */
function openingBalanceSheetPeriod(p: PeriodRef): PeriodRef {
  if (p.fiscal_period === 'FY' || p.fiscal_period === 'Q1') return { fiscal_year: p.fiscal_year - 1, fiscal_period: 'FY' };
  return { fiscal_year: p.fiscal_year, fiscal_period: `Q${Number(p.fiscal_period.slice(1)) - 1}` };
}

const key = (type: string, p: PeriodRef) => `${type}|${p.fiscal_year}|${p.fiscal_period}`;

/** A company's snapshot rows, indexed by statement. */
export class CompanyView {
  private readonly statements = new Map<string, StatementView>();

  constructor(rows: readonly SnapshotFigure[]) {
    const building = new Map<string, StatementView & { values: Record<string, string> }>();
    for (const r of rows) {
      const k = key(r.statement_type, r);
      let s = building.get(k);
      if (!s) {
        s = {
          statement_type: r.statement_type,
          fiscal_year: r.fiscal_year,
          fiscal_period: r.fiscal_period,
          statement_date: r.statement_date,
          statement_version_id: r.statement_version_id,
          values: {},
        };
        building.set(k, s);
      }
      if (s.statement_version_id !== r.statement_version_id) {
        throw new Error(`snapshot holds two versions of ${k}: ${s.statement_version_id} and ${r.statement_version_id}`);
      }
      s.values[r.metric_name] = r.metric_value;
    }
    for (const [k, s] of building) this.statements.set(k, s);
  }

  statement(type: StatementType, p: PeriodRef): StatementView | null {
    return this.statements.get(key(type, p)) ?? null;
  }

  /** Every statement of a type, newest first. */
  list(type: StatementType): StatementView[] {
    return [...this.statements.values()].filter((s) => s.statement_type === type).sort(newestFirst);
  }

  /**
   * A derived metric of the catalog at a period, evaluated by the catalog's own evaluator
   * (domain/derived-eval.ts: averaged balances, no annualizing) over the snapshot's figures, with
   * the statement versions that supplied its inputs.
   */
  derived(metric: string, p: PeriodRef): Grounded {
    const used: StatementView[] = [];
    const closing: Record<string, string> = {};
    for (const s of [this.statement('INCOME_STATEMENT', p), this.statement('CASH_FLOW_STATEMENT', p), this.statement('BALANCE_SHEET', balanceSheetPeriod(p))]) {
      if (!s) continue;
      used.push(s);
      Object.assign(closing, s.values);
    }
    const openingSheet = this.statement('BALANCE_SHEET', openingBalanceSheetPeriod(p));
    const figures: PeriodFigures = { fiscal_period: p.fiscal_period, days: null, closing, opening: openingSheet?.values ?? {} };
    const value = evaluateDerived(metric, figures);
    if (value.value === null) return { ...value, statement_version_ids: [] };
    // only the versions whose figures the formula read
    const def = DERIVED.get(metric)!;
    const deps = new Set(def.dependencies);
    const averaged = conventionsOf(def).balance_inputs_averaged;
    const ids = used.filter((s) => Object.keys(s.values).some((m) => deps.has(m))).map((s) => s.statement_version_id);
    if (openingSheet && averaged.some((m) => Object.hasOwn(openingSheet.values, m))) ids.push(openingSheet.statement_version_id);
    return { ...value, statement_version_ids: [...new Set(ids)].sort() };
  }
}

const DERIVED = new Map(DERIVED_METRICS.map((d) => [d.metric, d]));
