/**
 * One company's figures as a point-in-time snapshot holds them (the spec's snapshot build rows:
 * statement_type, metric_name, metric_value, statement_date, fiscal_year, fiscal_period, the
 * statement_version_id each row came from, plus the statement's period start), indexed for what
 * the AI generators ask: a statement, the comparable periods of a period, and a derived metric with
 * the versions its inputs came from.
 *
 * Nothing here restates a period rule: fiscal periods are assembled by domain/series-periods.ts
 * (a Q4 borrows the fiscal-year balance sheet; the opening balance sheet is the one ending just
 * before the period starts), derived metrics are evaluated by domain/derived-eval.ts, and the
 * comparable periods are the modeling rows' own (domain/modeling/company.ts), so every ratio a
 * narrative cites equals the one the modeling routes serve for the same snapshot. Pure.
 */
import { DERIVED_METRICS, type StatementType } from '../catalog/index.ts';
import { conventionsOf, evaluateDerived, type DerivedValue } from '../derived-eval.ts';
import { previousQuarterKey, yearAgoKey } from '../modeling/company.ts';
import { periodKey } from '../modeling/types.ts';
import { groupPeriods, periodFigures, type PeriodGroup, type StatementRow } from '../series-periods.ts';
import type { FiscalPeriod } from '../statement-types.ts';

/** A snapshot row, as stored by the modeling build (the fields the generators read), with its statement's period start. */
export interface SnapshotFigure {
  statement_type: StatementType;
  metric_name: string;
  metric_value: string;
  /** period end */
  statement_date: string;
  /** null for a balance sheet (an instant) */
  period_start: string | null;
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

function refOf(key: string | null): PeriodRef | null {
  if (key === null) return null;
  const [year, period] = key.split('|');
  return { fiscal_year: Number(year), fiscal_period: period! };
}

/** The period of the same length just before (the modeling rows' QoQ comparable; the prior year for FY). */
export function priorPeriodOf(p: PeriodRef): PeriodRef {
  return refOf(p.fiscal_period === 'FY' ? yearAgoKey(p) : previousQuarterKey(p))!;
}

/** The same period one fiscal year earlier (the modeling rows' YoY comparable). */
export function priorYearOf(p: PeriodRef): PeriodRef {
  return refOf(yearAgoKey(p))!;
}

const key = (type: string, p: PeriodRef) => `${type}|${periodKey(p)}`;
const DERIVED = new Map(DERIVED_METRICS.map((d) => [d.metric, d]));

/** A company's snapshot rows, indexed by statement and by fiscal period. */
export class CompanyView {
  private readonly statements = new Map<string, StatementView>();
  private readonly periods = new Map<string, PeriodGroup>();

  constructor(rows: readonly SnapshotFigure[]) {
    const building = new Map<string, StatementView & { values: Record<string, string>; period_start: string | null }>();
    for (const r of rows) {
      const k = key(r.statement_type, r);
      let s = building.get(k);
      if (!s) {
        s = {
          statement_type: r.statement_type, fiscal_year: r.fiscal_year, fiscal_period: r.fiscal_period, statement_date: r.statement_date,
          period_start: r.period_start, statement_version_id: r.statement_version_id, values: {},
        };
        building.set(k, s);
      }
      if (s.statement_version_id !== r.statement_version_id) {
        throw new Error(`snapshot holds two versions of ${k}: ${s.statement_version_id} and ${r.statement_version_id}`);
      }
      s.values[r.metric_name] = r.metric_value;
    }
    const statementRows: StatementRow[] = [];
    for (const [k, s] of building) {
      this.statements.set(k, s);
      // the fields series-periods reads; the rest of a stored version plays no part in grouping
      statementRows.push({
        cik: '', statement_type: s.statement_type, fiscal_year: s.fiscal_year, fiscal_period: s.fiscal_period as FiscalPeriod,
        statement_version_id: s.statement_version_id, version_sequence: 0, period_start: s.period_start, period_end: s.statement_date,
        currency: null, accounting_standard: '', accession: '', filing_date: '',
        figures: Object.fromEntries(Object.entries(s.values).map(([m, v]) => [m, { v, d: false }])),
      });
    }
    for (const g of groupPeriods(statementRows)) this.periods.set(periodKey(g), g);
  }

  statement(type: StatementType, p: PeriodRef): StatementView | null {
    return this.statements.get(key(type, p)) ?? null;
  }

  /** Every statement of a type, newest first. */
  list(type: StatementType): StatementView[] {
    return [...this.statements.values()].filter((s) => s.statement_type === type).sort(newestFirst);
  }

  /**
   * A derived metric of the catalog at a period, evaluated by the catalog's evaluator over the
   * period as series-periods assembles it, with the statement versions whose figures it read.
   */
  derived(metric: string, p: PeriodRef): Grounded {
    const g = this.periods.get(periodKey(p));
    const def = DERIVED.get(metric);
    if (!def) throw new Error(`not a derived metric: ${metric}`);
    if (!g) return { metric, value: null, reason: 'MISSING_INPUT', missing_inputs: [...def.dependencies], statement_version_ids: [] };
    const value = evaluateDerived(metric, periodFigures(g));
    if (value.value === null) return { ...value, statement_version_ids: [] };
    const deps = def.dependencies;
    const ids = Object.values(g.statements).filter((s) => s && deps.some((m) => Object.hasOwn(s.figures, m))).map((s) => s!.statement_version_id);
    const opening = g.opening;
    if (opening && conventionsOf(def).balance_inputs_averaged.some((m) => Object.hasOwn(opening.figures, m))) ids.push(opening.statement_version_id);
    return { ...value, statement_version_ids: [...new Set(ids)].sort() };
  }
}
