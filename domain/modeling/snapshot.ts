/**
 * A modeling snapshot: its identity (what a build request asks for), the rows the build computes
 * for each company, and snapshot_hash. Pure: the job in jobs/ reads the versions and stores what
 * this returns.
 *
 * snapshot_hash is the SHA-256 of, in order: MODEL_VERSION; the request identity (sorted padded
 * CIKs, as_of_date, statement types, metrics bundle); for each company by CIK, every statement
 * version read (statement identity, version_sequence, accession, filing date, content_hash) and
 * every stored row's content (values, reasons, windows, stable row ids), leaving out what a
 * database assigns (statement_version_id) and what a build run assigns (as_of_snapshot_id, times).
 * So the same request over the same corpus gives the same hash on any database, and a hash changes
 * exactly when a row or a version read changes.
 */
import { createHash, type Hash } from 'node:crypto';
import { CANONICAL_METRIC_NAMES, STATEMENT_TYPES, type StatementType } from '../catalog/index.ts';
import { wireDecimal } from '../decimal.ts';
import { comparePoints } from '../series-periods.ts';
import { stableUuid } from '../stable-id.ts';
import type { CompanySplit } from '../statements/split-basis.ts';
import type { OperandSplitAdjustment, SplitContext } from './share-basis.ts';
import { companyPeriods, type CompanyPeriods } from './company.ts';
import { growthRow } from './growth.ts';
import { MARKET_DATA_NOTE, multiYearRow } from './multi-year.ts';
import { RATIO_STATEMENT_TYPES, ratioRow } from './ratios.ts';
import { ttmQuarters, ttmRow } from './ttm.ts';
import { MODEL_FRACTION_DIGITS, MODEL_VERSION, type ComputedRow, type ModelVersion } from './types.ts';

export const METRICS_BUNDLES = ['all', 'tier1'] as const;
export type MetricsBundle = (typeof METRICS_BUNDLES)[number];

/** What a build request names, normalized: CIKs padded, sorted and unique; statement types in catalog order. */
export interface SnapshotRequest {
  ciks: string[];
  as_of_date: string;
  statement_types: StatementType[];
  metrics_bundle: MetricsBundle;
}

export function normalizeRequest(r: SnapshotRequest): SnapshotRequest {
  return {
    ciks: [...new Set(r.ciks)].sort(),
    as_of_date: r.as_of_date,
    statement_types: STATEMENT_TYPES.filter((t) => r.statement_types.includes(t)),
    metrics_bundle: r.metrics_bundle,
  };
}

/** Deterministic id of a snapshot request (also its job key): `pit-YYYYMMDD-<20 hex>`. */
export function snapshotIdOf(request: SnapshotRequest): string {
  const r = normalizeRequest(request);
  const digest = createHash('sha256').update(JSON.stringify([MODEL_VERSION, r.ciks, r.as_of_date, r.statement_types, r.metrics_bundle])).digest('hex');
  return `pit-${r.as_of_date.replace(/-/g, '')}-${digest.slice(0, 20)}`;
}

/** How the rows were computed, as the build rows' `_meta.strategy_id` names it. */
export function strategyIdOf(bundle: MetricsBundle): string {
  return `model-v${MODEL_VERSION}-${bundle}`;
}

/** The end of the as-of business date: what a snapshot's reads are "as of". */
export function asOfTimestamp(asOfDate: string): string {
  return `${asOfDate}T23:59:59.999Z`;
}

export type RowKind = 'periods' | 'ratios' | 'growth' | 'ttm' | 'multi_year';
export const ROW_KINDS: readonly RowKind[] = ['periods', 'ratios', 'growth', 'ttm', 'multi_year'];

/** One flat row of the build answer: a metric value of one statement version. */
export interface FlatRow {
  cik: string;
  statement_type: StatementType;
  metric_name: string;
  metric_value: string;
  statement_date: string;
  fiscal_year: number;
  fiscal_period: string;
  statement_version_id: string;
}

export interface CompanyModel {
  cik: string;
  rows: Record<RowKind, ComputedRow[]>;
  flat: FlatRow[];
}

const CATALOG_RANK = new Map(CANONICAL_METRIC_NAMES.map((m, i) => [m, i]));
const byCatalog = (a: string, b: string) => (CATALOG_RANK.get(a) ?? 1e9) - (CATALOG_RANK.get(b) ?? 1e9) || a.localeCompare(b);

function head(c: CompanyPeriods, v: ModelVersion) {
  return {
    company_id: c.company_id,
    cik: c.cik,
    statement_type: v.statement_type,
    accounting_standard: v.accounting_standard,
    statement_date: v.period_end,
    period_start: v.period_start,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
    currency: v.currency,
    version_sequence: v.version_sequence,
    statement_version_id: v.statement_version_id,
  };
}

const idOf = (kind: string, snapshotId: string, parts: (string | number)[]) => stableUuid(kind, [snapshotId, ...parts.map(String)]);

/** Every row the build stores for one company, and its flat rows. */
export function modelCompany(
  snapshotId: string,
  request: SnapshotRequest,
  cik: string,
  companyId: string | null,
  versions: ModelVersion[],
  splits: readonly CompanySplit[] = [],
): CompanyModel {
  const c = companyPeriods(cik, companyId, versions);
  const basis: SplitContext = { splits, as_of: request.as_of_date };
  const rows: Record<RowKind, ComputedRow[]> = { periods: [], ratios: [], growth: [], ttm: [], multi_year: [] };
  const flat: FlatRow[] = [];
  const types = request.statement_types;
  for (const g of c.groups) {
    for (const type of types) {
      const own = g.statements[type];
      if (!own || own.fiscal_period !== g.fiscal_period || own.fiscal_year !== g.fiscal_year) continue;
      const v = own as ModelVersion;
      const key = [cik, type, v.fiscal_year, v.fiscal_period];
      const statement: Record<string, string> = {};
      const names = Object.keys(v.figures).sort(byCatalog);
      for (const m of names) statement[m] = wireDecimal(v.figures[m]!.v);
      rows.periods.push({
        cik,
        reads: [`${v.fiscal_year}|${v.fiscal_period}`],
        body: {
          model_period_id: idOf('model_period', snapshotId, key),
          ...head(c, v),
          source_accession: v.accession,
          filing_date: v.filing_date,
          normalization_provenance_id: stableUuid('normalization_provenance', [cik, type, String(v.fiscal_year), v.fiscal_period, String(v.version_sequence), v.content_hash]),
          statement,
          derived_figures: names.filter((m) => v.figures[m]!.d),
        },
      });
      for (const m of names) flat.push(flatRow(v, m, statement[m]!));
      const ratio = RATIO_STATEMENT_TYPES.includes(type) ? ratioRow(g, type) : undefined;
      if (ratio) {
        rows.ratios.push({
          cik,
          reads: ratio.reads,
          body: { model_ratio_id: idOf('model_ratio', snapshotId, key), ...head(c, v), fraction_digits: MODEL_FRACTION_DIGITS, metrics: ratio.sheet.metrics, unavailable_metrics: ratio.sheet.unavailable_metrics },
        });
        for (const [m, value] of Object.entries(ratio.sheet.metrics)) flat.push(flatRow(v, m, value));
      }
      const growth = growthRow(g, type, c.byKey, basis);
      if (growth) {
        rows.growth.push({
          cik,
          reads: growth.reads,
          body: {
            model_growth_id: idOf('model_growth', snapshotId, key),
            ...head(c, v),
            cagr_years: growth.cagr_years,
            fraction_digits: MODEL_FRACTION_DIGITS,
            metrics: growth.sheet.metrics,
            unavailable_metrics: growth.sheet.unavailable_metrics,
            ...splitAdjustments(growth.split_adjustments),
          },
        });
        for (const [m, value] of Object.entries(growth.sheet.metrics)) flat.push(flatRow(v, m, value));
      }
    }
    const ttm = ttmRow(g, c.byKey, basis);
    if (ttm) {
      const metrics: Record<string, string> = {};
      for (const [m, value] of Object.entries(ttm.sheet.metrics)) metrics[m] = wireDecimal(value);
      rows.ttm.push({
        cik,
        reads: ttm.reads,
        body: {
          model_ttm_id: idOf('model_ttm', snapshotId, [cik, g.fiscal_year, g.fiscal_period]),
          company_id: companyId,
          cik,
          accounting_standard: g.accounting_standard,
          currency: g.currency,
          fiscal_year: g.fiscal_year,
          fiscal_period: g.fiscal_period,
          statement_date: g.period_end,
          ttm_window_start: ttm.window[0]!.period_start ?? ttm.window[0]!.period_end,
          ttm_window_end: g.period_end,
          window_quarters: ttmQuarters(ttm.window),
          metrics,
          unavailable_metrics: ttm.sheet.unavailable_metrics,
          ...splitAdjustments(ttm.split_adjustments),
        },
      });
    }
    if (g.fiscal_period === 'FY') {
      const my = multiYearRow(g);
      const inputs: Record<string, string | null> = {};
      for (const [m, value] of Object.entries(my.valuation_inputs)) inputs[m] = value === null ? null : wireDecimal(value);
      rows.multi_year.push({
        cik,
        reads: my.reads,
        body: {
          model_multi_year_id: idOf('model_multi_year', snapshotId, [cik, g.fiscal_year]),
          company_id: companyId,
          cik,
          accounting_standard: g.accounting_standard,
          currency: g.currency,
          fiscal_year: g.fiscal_year,
          fiscal_period: 'FY',
          period_start: g.period_start,
          statement_date: g.period_end,
          statement_versions: STATEMENT_TYPES.filter((t) => g.statements[t]).map((t) => ({
            statement_type: t,
            statement_version_id: g.statements[t]!.statement_version_id,
            version_sequence: g.statements[t]!.version_sequence,
          })),
          valuation_inputs: inputs,
          unavailable_metrics: my.unavailable_metrics,
          market_data: { persisted: false, note: MARKET_DATA_NOTE },
        },
      });
    }
  }
  return { cik, rows, flat };
}

/** a derived row's `split_adjustments`, left out where no operand was restated */
function splitAdjustments(a: Record<string, OperandSplitAdjustment[]>): { split_adjustments?: Record<string, OperandSplitAdjustment[]> } {
  return Object.keys(a).length > 0 ? { split_adjustments: a } : {};
}

function flatRow(v: ModelVersion, metric: string, value: string): FlatRow {
  return {
    cik: v.cik,
    statement_type: v.statement_type,
    metric_name: metric,
    metric_value: value,
    statement_date: v.period_end,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
    statement_version_id: v.statement_version_id,
  };
}

/** Versions in a stable order: by period, then statement type. */
export function sortVersions(versions: ModelVersion[]): ModelVersion[] {
  return [...versions].sort((a, b) => comparePoints(a, b) || STATEMENT_TYPES.indexOf(a.statement_type) - STATEMENT_TYPES.indexOf(b.statement_type));
}

const withoutDatabaseIds = (key: string, value: unknown) => (key === 'statement_version_id' ? undefined : value);

/** snapshot_hash, fed company by company in CIK order (see the module comment for what it covers). */
export class SnapshotHasher {
  private readonly h: Hash = createHash('sha256');
  constructor(request: SnapshotRequest) {
    const r = normalizeRequest(request);
    this.h.update(JSON.stringify(['fds-modeling-snapshot', MODEL_VERSION, r.ciks, r.as_of_date, r.statement_types, r.metrics_bundle]));
  }
  company(cik: string, versions: readonly ModelVersion[], model: CompanyModel): void {
    this.h.update(`\ncompany ${cik}`);
    for (const v of sortVersions([...versions])) {
      this.h.update(`\nv ${JSON.stringify([v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence, v.accession, v.filing_date, v.content_hash])}`);
    }
    for (const kind of ROW_KINDS) for (const row of model.rows[kind]) this.h.update(`\n${kind} ${JSON.stringify(row.body, withoutDatabaseIds)}`);
  }
  digest(): string {
    return this.h.digest('hex');
  }
}
