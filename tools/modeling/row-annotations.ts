import { coherenceMarks, coherenceOf, type CoherenceMarks, type CoherenceWire } from '../../api/coherence.ts';
import { adjustFigure, stockSplitsOf, type SplitAdjustmentWire } from '../../api/split-adjustment.ts';
import type { Db } from '../../db/client.ts';
import { shareFigureBases } from '../../db/stock-splits.ts';
import { canonicalMetric } from '../../domain/catalog/index.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import type { RowKind } from '../../domain/modeling/snapshot.ts';
import { isAdditiveFlow } from '../../domain/statements/coherence.ts';

/**
 * What a modeling read adds to stored rows, looked up at the snapshot's own point in time (like
 * PENDING_REBUILD): the coherence marks of the money flows of period rows (per metric) and TTM
 * rows (the marks of the fiscal years of the window's quarters), and with split_adjusted=true, the
 * per-share figures and share counts of period and multi-year rows restated to the latest split
 * basis known at the snapshot's date.
 */

type Body = Record<string, unknown>;
interface WindowQuarter {
  fiscal_year: number;
  fiscal_period: string;
}

/** by statement type, the marks of every fiscal year the rows name */
async function marksOf(sql: Db, cik: string, asOf: string, bodies: readonly Body[]): Promise<Map<string, CoherenceMarks>> {
  const years = new Map<string, Set<number>>();
  const add = (type: string, fy: number) => (years.get(type) ?? years.set(type, new Set()).get(type)!).add(fy);
  for (const b of bodies) {
    if (typeof b.statement_type === 'string' && typeof b.fiscal_year === 'number') add(b.statement_type, b.fiscal_year);
    for (const q of (b.window_quarters as WindowQuarter[] | undefined) ?? []) for (const t of ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT']) add(t, q.fiscal_year);
  }
  const out = new Map<string, CoherenceMarks>();
  await Promise.all([...years].map(async ([type, fys]) => out.set(type, await coherenceMarks(sql, cik, type, [...fys], { as_of_date: asOf, as_reported: false }))));
  return out;
}

export async function annotateRows(sql: Db, kind: RowKind, cik: string, asOf: string, bodies: Body[], splitAdjusted: boolean): Promise<Body[]> {
  if (kind === 'periods' || kind === 'ttm') {
    const marks = await marksOf(sql, cik, asOf, bodies);
    bodies = bodies.map((b) => (kind === 'periods' ? periodCoherence(b, marks) : ttmCoherence(b, marks)));
  }
  if (splitAdjusted && (kind === 'periods' || kind === 'multi_year')) bodies = await splitRows(sql, cik, asOf, kind, bodies);
  return bodies;
}

function periodCoherence(b: Body, marks: Map<string, CoherenceMarks>): Body {
  const statement = b.statement as Record<string, string> | undefined;
  const m = marks.get(b.statement_type as string);
  if (!statement || !m) return b;
  const coherence: Record<string, CoherenceWire> = {};
  for (const metric of Object.keys(statement)) {
    const c = coherenceOf(m, b.fiscal_year as number, b.fiscal_period as string, metric);
    if (c) coherence[metric] = c;
  }
  return Object.keys(coherence).length > 0 ? { ...b, coherence } : b;
}

/** a TTM row's summed flows, each with the marks of the fiscal years its window's quarters belong to (only the marked ones) */
function ttmCoherence(b: Body, marks: Map<string, CoherenceMarks>): Body {
  const metrics = b.metrics as Record<string, string> | undefined;
  const quarters = (b.window_quarters as WindowQuarter[] | undefined) ?? [];
  if (!metrics) return b;
  const coherence: Record<string, CoherenceWire[]> = {};
  for (const metric of Object.keys(metrics)) {
    if (!isAdditiveFlow(metric)) continue;
    const type = canonicalMetric(metric)!.statement_type;
    const found: CoherenceWire[] = [];
    for (const fy of new Set(quarters.map((q) => q.fiscal_year))) {
      const c = coherenceOf(marks.get(type) ?? new Map(), fy, 'FY', metric);
      if (c) found.push(c);
    }
    if (found.length > 0) coherence[metric] = found;
  }
  return Object.keys(coherence).length > 0 ? { ...b, coherence } : b;
}

/** per-share figures and share counts of period rows (`statement`) and multi-year rows (`valuation_inputs`) restated, each with its adjustment */
async function splitRows(sql: Db, cik: string, asOf: string, kind: RowKind, bodies: Body[]): Promise<Body[]> {
  const splits = (await stockSplitsOf(sql, cik)).filter((s) => s.known_from <= asOf);
  if (splits.length === 0) return bodies;
  const versionIds = bodies.flatMap((b) =>
    kind === 'periods' ? [b.statement_version_id as string] : ((b.statement_versions as { statement_version_id: string }[] | undefined) ?? []).map((v) => v.statement_version_id),
  );
  const bases = await shareFigureBases(sql, versionIds);
  return bodies.map((b) => {
    const field = kind === 'periods' ? 'statement' : 'valuation_inputs';
    const values = b[field] as Record<string, string | null> | undefined;
    if (!values) return b;
    const ids = kind === 'periods' ? [b.statement_version_id as string] : ((b.statement_versions as { statement_version_id: string }[] | undefined) ?? []).map((v) => v.statement_version_id);
    const adjusted: Record<string, string | null> = { ...values };
    const adjustments: Record<string, SplitAdjustmentWire> = {};
    for (const [metric, value] of Object.entries(values)) {
      const unitType = canonicalMetric(metric)?.unit_type;
      if (value === null || (unitType !== 'per_share' && unitType !== 'shares')) continue;
      const basis = ids.map((id) => bases.get(id)?.get(metric)).find((d) => d !== undefined);
      if (basis === undefined) continue;
      const a = adjustFigure(value, unitType === 'shares' ? 'shares' : 'per/shares', basis, splits, asOf);
      if (a === null) continue;
      adjusted[metric] = wireDecimal(a.value);
      adjustments[metric] = a.adjustment;
    }
    return Object.keys(adjustments).length > 0 ? { ...b, [field]: adjusted, split_adjustments: adjustments } : b;
  });
}
