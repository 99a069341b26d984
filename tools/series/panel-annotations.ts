import { coherenceMarks, coherenceOf, type CoherenceMarks, type CoherenceWire } from '../../api/coherence.ts';
import { adjustFigure, stockSplitsOfCompanies, type SplitAdjustmentWire } from '../../api/split-adjustment.ts';
import type { CompanyIndex } from '../../api/company-versions.ts';
import type { Db } from '../../db/client.ts';
import { shareFigureBases } from '../../db/stock-splits.ts';
import { canonicalMetric } from '../../domain/catalog/index.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import type { CompanySplit } from '../../domain/statements/split-basis.ts';
import type { StatementRow } from '../../domain/series-periods.ts';
import { panelPoint } from '../../domain/series-points.ts';
import { isPrepared, prepared } from '../../api/prepared-json.ts';
import { byCatalogOrder } from '../../domain/catalog/index.ts';
import { TwoGenerations } from '../../db/version-memo.ts';

/** Coherence marks and split adjustments of a panel page: what the panel adds to each point (api/coherence.ts, api/split-adjustment.ts). */

type Point = ReturnType<typeof panelPoint> & { coherence?: Record<string, CoherenceWire>; split_adjustments?: Record<string, SplitAdjustmentWire> };

/** by CIK, the coherence marks of the fiscal years the rows serve (latest versions: a panel reads no earlier point in time) */
export async function panelMarks(sql: Db, statementType: string, rows: readonly StatementRow[], indexes: ReadonlyMap<string, CompanyIndex> | null = null): Promise<Map<string, CoherenceMarks>> {
  const years = new Map<string, number[]>();
  for (const r of rows) years.set(r.cik, [...(years.get(r.cik) ?? []), r.fiscal_year]);
  const out = new Map<string, CoherenceMarks>();
  await Promise.all(
    [...years].map(async ([cik, fys]) => out.set(cik, await coherenceMarks(sql, cik, statementType, fys, { as_of_date: null, as_reported: false }, indexes?.get(cik) ?? null))),
  );
  return out;
}

export interface PanelSplits {
  splits: Map<string, CompanySplit[]>;
  /** version id -> metric -> the filing date of its per-share figures' and share counts' source filings */
  bases: Map<string, Map<string, string>>;
}

export async function panelSplits(sql: Db, rows: readonly StatementRow[]): Promise<PanelSplits> {
  const [splits, bases] = await Promise.all([stockSplitsOfCompanies(sql, [...new Set(rows.map((r) => r.cik))]), shareFigureBases(sql, rows.map((r) => r.statement_version_id))]);
  return { splits, bases };
}

/** A panel point with its money flows' coherence marks and, with `split`, its per-share values and share counts restated. */
export function annotatePanelPoint(point: ReturnType<typeof panelPoint>, row: StatementRow, marks: Map<string, CoherenceMarks>, split: PanelSplits | null): Point {
  // the marked money flows only (a page of every metric of many companies stays small); absent: they add up
  const coherence: Record<string, CoherenceWire> = {};
  let marked = false;
  const companyMarks = marks.get(row.cik);
  const yearMarks = companyMarks?.get(row.fiscal_year);
  // a year without marks marks none of its metrics
  if (companyMarks !== undefined && yearMarks !== undefined && yearMarks.size > 0) {
    // a prepared point with the same marks of its year: the same annotated point, kept with it
    const held = split === null && isPrepared(point) ? annotated.get(point) : undefined;
    if (held !== undefined && held.marks === yearMarks) return held.point;
    for (const metric of Object.keys(point.metrics)) {
      const c = coherenceOf(companyMarks, row.fiscal_year, row.fiscal_period, metric);
      if (!c) continue;
      coherence[metric] = c;
      marked = true;
    }
  }
  // nothing to add: the point itself (it may be a prepared one, whose JSON is then written once)
  if (!marked && split === null) return point;
  const out: Point = { ...point };
  if (marked) out.coherence = coherence;
  if (marked && split === null && isPrepared(point)) {
    annotated.set(point, { marks: yearMarks!, point: prepared(out) });
    return out;
  }
  if (split !== null) {
    const adjustments: Record<string, SplitAdjustmentWire> = {};
    const metrics = { ...point.metrics };
    for (const [metric, basis] of split.bases.get(row.statement_version_id) ?? []) {
      // per-share values divide, share counts multiply: the catalog says which a metric is
      const unit = canonicalMetric(metric)?.unit_type === 'shares' ? 'shares' : 'per/shares';
      const f = row.figures[metric];
      if (f === undefined || metrics[metric] === undefined) continue;
      const adjusted = adjustFigure(f.v, unit, basis, split.splits.get(row.cik) ?? [], null);
      if (adjusted === null) continue;
      metrics[metric] = wireDecimal(adjusted.value);
      adjustments[metric] = adjusted.adjustment;
    }
    out.metrics = metrics;
    if (Object.keys(adjustments).length > 0) out.split_adjustments = adjustments;
  }
  return out;
}

/** A prepared point with its year's coherence marks added, by the point, with the marks it was made for. */
const annotated = new WeakMap<object, { marks: ReadonlyMap<string, unknown>; point: Point }>();

/**
 * Each version's panel point per metric filter, made once and prepared (api/prepared-json.ts: its
 * JSON written once): a point is a function of the version and the filter alone, and a version is
 * never rewritten. By version id, then filter; bounded in two generations (db/version-memo.ts).
 */
const points = new TwoGenerations<Map<string, ReturnType<typeof panelPoint>>>(20_000);

export function panelPointOf(row: StatementRow, filter: string): ReturnType<typeof panelPoint> {
  let byFilter = points.get(row.statement_version_id);
  if (byFilter === undefined) points.set(row.statement_version_id, (byFilter = new Map()));
  let point = byFilter.get(filter);
  if (point === undefined) byFilter.set(filter, (point = prepared(panelPoint(row, byCatalogOrder))));
  return point;
}
