/**
 * The rows screens and comparisons read, computed from one company's whole version history. For
 * each date on which the company filed something (the dates its knowledge changed), the company
 * is seen as a point-in-time read on that date sees it (the latest version of each period knowable
 * then), and each period's metrics are computed by the same functions the modeling and derived
 * reads use: canonical figures as stored (derived Q4s included), the fourteen modeling ratios, the
 * modeling growth metrics (the prior period as known on that date), the catalog's other derived
 * metrics, and trailing-twelve-month sums. A row holds from the date its content appeared until
 * the date it changed, so a read as of any date finds exactly one row per company and slot, and
 * a restatement filed later never changes what an earlier date sees. Pure: versions in, rows out.
 */
import { CANONICAL_METRIC_NAMES, DERIVED_METRICS, definitionOf, type StatementType } from '../catalog/index.ts';
import { evaluateDerived } from '../derived-eval.ts';
import { companyPeriods, previousQuarterKey, yearAgoKey } from '../modeling/company.ts';
import { CAGR_YEARS, growthRow, GROWTH_NAMES } from '../modeling/growth.ts';
import { RATIO_NAMES, RATIO_STATEMENT_TYPES, ratioRow } from '../modeling/ratios.ts';
import { ttmRow, TTM_NAMES } from '../modeling/ttm.ts';
import { periodKey, type ModelVersion, type UnavailableReason } from '../modeling/types.ts';
import { closingFigures, periodFigures, type PeriodGroup } from '../series-periods.ts';
import { latestKnowable } from '../statements/visibility.ts';
import { STATEMENT_TYPES } from '../statements/types.ts';

export const SCREEN_BASES = ['FY', 'Q', 'TTM'] as const;
/** FY: a fiscal year; Q: a fiscal quarter (Q4 derived from the year); TTM: four quarters ending with one */
export type ScreenBasis = (typeof SCREEN_BASES)[number];

/** One statement version a row's values come from. */
export interface ScreenSource {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: string;
  statement_version_id: string;
  version_sequence: number;
  accession: string;
  filing_date: string;
}

export interface ScreenRow {
  cik: string;
  /** period: every fiscal year (basis FY); latest: the latest period of the basis */
  kind: 'period' | 'latest';
  basis: ScreenBasis;
  fiscal_year: number;
  fiscal_period: string;
  period_start: string | null;
  period_end: string;
  currency: string | null;
  accounting_standard: string;
  /** the latest filing date among the period's own statement versions */
  filing_date: string;
  known_from: string;
  /** exclusive; null while the row still holds */
  known_until: string | null;
  /** the first row of its slot: before its known_from the company had no period of the slot */
  opens: boolean;
  sources: ScreenSource[];
  /** metric -> decimal string */
  metrics: Record<string, string>;
  /** metric -> why it has no value (the modeling reasons) */
  unavailable: Record<string, UnavailableReason>;
}

/** Metrics a screen of a fiscal year or quarter can name: canonical figures, ratios, growth and the other catalog derived metrics. */
export const PERIOD_METRIC_NAMES: readonly string[] = [
  ...new Set([...RATIO_NAMES, ...GROWTH_NAMES, ...DERIVED_METRICS.filter((d) => !d.market_data_required).map((d) => d.metric)]),
];
/** Metrics of a trailing-twelve-month row (the modeling TTM route's names). */
export const TTM_METRIC_NAMES: readonly string[] = TTM_NAMES;

/**
 * Every metric a screen row can hold, in a fixed order: a row also stores its values as one
 * numeric array in this order (screen_rows.vals), which a screen reads without unpacking the
 * metrics document (a change of this list needs the rows rewritten: `fds screens rebuild`).
 */
export const SCREEN_METRICS: readonly string[] = [...new Set([...CANONICAL_METRIC_NAMES, ...PERIOD_METRIC_NAMES, ...TTM_METRIC_NAMES])];
const POSITION = new Map(SCREEN_METRICS.map((m, i) => [m, i + 1]));

/** 1-based position of a metric in SCREEN_METRICS (and in screen_rows.vals); undefined for another name. */
export function screenPosition(metric: string): number | undefined {
  return POSITION.get(metric);
}

/** A row's metrics as the PostgreSQL array literal of screen_rows.vals: '{0.5,NULL,...}'. */
export function valsLiteral(metrics: Readonly<Record<string, string>>): string {
  return `{${SCREEN_METRICS.map((m) => metrics[m] ?? 'NULL').join(',')}}`;
}

/** Whether a metric is an amount in the filer's currency (compared only within one currency), not a ratio, count or growth. */
export function isAmountMetric(metric: string): boolean {
  const unit = definitionOf(metric)?.unit_type;
  return unit === 'currency' || unit === 'per_share';
}

interface Sheet {
  metrics: Record<string, string>;
  unavailable: Record<string, UnavailableReason>;
}

function sourcesOf(statements: Iterable<ModelVersion | undefined>): ScreenSource[] {
  const out: ScreenSource[] = [];
  for (const v of statements) {
    if (!v || out.some((s) => s.statement_version_id === v.statement_version_id)) continue;
    out.push({
      statement_type: v.statement_type,
      fiscal_year: v.fiscal_year,
      fiscal_period: v.fiscal_period,
      statement_version_id: v.statement_version_id,
      version_sequence: v.version_sequence,
      accession: v.accession,
      filing_date: v.filing_date,
    });
  }
  return out.sort((a, b) => STATEMENT_TYPES.indexOf(a.statement_type) - STATEMENT_TYPES.indexOf(b.statement_type));
}

function merge(sheet: Sheet, metrics: Record<string, string>, unavailable: readonly { metric: string; reason: UnavailableReason }[]): void {
  for (const [m, v] of Object.entries(metrics)) {
    sheet.metrics[m] = v;
    delete sheet.unavailable[m];
  }
  for (const u of unavailable) {
    if (u.reason === 'NOT_ON_STATEMENT' || sheet.metrics[u.metric] !== undefined) continue;
    sheet.unavailable[u.metric] = u.reason;
  }
}

/** Every metric of one fiscal year or quarter as the modeling and derived reads compute it. */
export function periodSheet(g: PeriodGroup, byKey: ReadonlyMap<string, PeriodGroup>): Sheet {
  const sheet: Sheet = { metrics: {}, unavailable: {} };
  for (const [m, f] of Object.entries(closingFigures(g))) sheet.metrics[m] = f.v;
  for (const type of RATIO_STATEMENT_TYPES) {
    const r = ratioRow(g, type);
    if (r) merge(sheet, r.sheet.metrics, r.sheet.unavailable_metrics);
  }
  for (const type of STATEMENT_TYPES) {
    const r = growthRow(g, type, byKey);
    if (r) merge(sheet, r.sheet.metrics, r.sheet.unavailable_metrics);
  }
  const figures = periodFigures(g);
  for (const d of DERIVED_METRICS) {
    if (d.market_data_required || sheet.metrics[d.metric] !== undefined || sheet.unavailable[d.metric] !== undefined) continue;
    const r = evaluateDerived(d.metric, figures);
    if (r.value !== null) sheet.metrics[d.metric] = r.value;
    else if (r.reason === 'MISSING_INPUT' || r.reason === 'DENOMINATOR_ZERO' || r.reason === 'NOT_APPLICABLE_TO_PERIOD') sheet.unavailable[d.metric] = r.reason;
  }
  return sheet;
}

const isQuarter = (p: string) => p === 'Q1' || p === 'Q2' || p === 'Q3' || p === 'Q4';

/** The version ids a period's sheet (and TTM row) depends on: its own, its opening balance, and the comparable periods growth and TTM read. */
function dependencyKey(g: PeriodGroup, byKey: ReadonlyMap<string, PeriodGroup>): string {
  const ids = (p: PeriodGroup | undefined) => (p ? STATEMENT_TYPES.map((t) => p.statements[t]?.statement_version_id ?? '-').join(',') : 'none');
  const keys = [yearAgoKey(g), yearAgoKey(g, CAGR_YEARS)];
  let q: string | null = periodKey(g);
  for (let i = 0; i < 3 && q; i++) {
    const [fy, fp] = q.split('|');
    q = previousQuarterKey({ fiscal_year: Number(fy), fiscal_period: fp! });
    if (q) keys.push(q);
  }
  return [periodKey(g), ids(g), g.opening?.statement_version_id ?? '-', ...keys.map((k) => ids(byKey.get(k)))].join('|');
}

type Content = Omit<ScreenRow, 'cik' | 'kind' | 'basis' | 'known_from' | 'known_until' | 'opens'>;
/** a row's content and its text, compared to tell whether a slot changed on a date */
interface Held {
  c: Content;
  text: string;
}
const held = (c: Content): Held => ({ c, text: JSON.stringify(c) });

function content(g: PeriodGroup, sheet: Sheet, sources: ScreenSource[]): Content {
  return {
    fiscal_year: g.fiscal_year,
    fiscal_period: g.fiscal_period,
    period_start: g.period_start,
    period_end: g.period_end,
    currency: g.currency,
    accounting_standard: g.accounting_standard,
    filing_date: sources.reduce((d, s) => (s.filing_date > d ? s.filing_date : d), ''),
    sources,
    metrics: sheet.metrics,
    unavailable: sheet.unavailable,
  };
}

/**
 * The screen rows of one company from every version it has (any order). Dates are the versions'
 * filing dates; a row's span starts on the filing date that made its content and ends on the one
 * that changed it.
 */
export function screenRows(cik: string, versions: readonly ModelVersion[]): ScreenRow[] {
  const byPeriod = new Map<string, ModelVersion[]>();
  for (const v of versions) {
    const key = `${v.statement_type}|${v.fiscal_year}|${v.fiscal_period}`;
    const list = byPeriod.get(key) ?? [];
    list.push(v);
    byPeriod.set(key, list);
  }
  const dates = [...new Set(versions.map((v) => v.filing_date))].sort();
  const sheets = new Map<string, Held>();
  const ttms = new Map<string, Held | null>();
  const open = new Map<string, { row: ScreenRow; text: string }>();
  const out: ScreenRow[] = [];
  const hold = (slot: string, kind: ScreenRow['kind'], basis: ScreenBasis, { c, text }: Held, date: string) => {
    const current = open.get(slot);
    if (current?.text === text) return;
    if (current) current.row.known_until = date;
    const row: ScreenRow = { cik, kind, basis, ...c, known_from: date, known_until: null, opens: current === undefined };
    out.push(row);
    open.set(slot, { row, text });
  };
  for (const date of dates) {
    const seen: ModelVersion[] = [];
    for (const list of byPeriod.values()) {
      const v = latestKnowable(list, date);
      if (v) seen.push(v);
    }
    const { groups, byKey } = companyPeriods(cik, null, seen);
    let latestYear: Held | null = null;
    let latestQuarter: Held | null = null;
    let latestTtm: Held | null = null;
    const periodOf = (g: PeriodGroup, dep: string): Held => {
      let h = sheets.get(dep);
      if (!h) {
        const own = STATEMENT_TYPES.map((t) => g.statements[t] as ModelVersion | undefined).filter((v) => v && v.fiscal_year === g.fiscal_year && v.fiscal_period === g.fiscal_period);
        h = held(content(g, periodSheet(g, byKey), sourcesOf(own)));
        sheets.set(dep, h);
      }
      return h;
    };
    const ttmOf = (g: PeriodGroup, dep: string): Held | null => {
      let h = ttms.get(dep);
      if (h === undefined) {
        const t = ttmRow(g, byKey);
        h = null;
        if (t) {
          const unavailable: Sheet['unavailable'] = {};
          for (const u of t.sheet.unavailable_metrics) unavailable[u.metric] = u.reason;
          const windowVersions = t.window.flatMap((w) => STATEMENT_TYPES.map((ty) => w.statements[ty] as ModelVersion | undefined));
          h = held(content(g, { metrics: { ...t.sheet.metrics }, unavailable }, sourcesOf(windowVersions)));
        }
        ttms.set(dep, h);
      }
      return h;
    };
    // every fiscal year; of the quarters only the latest (and the latest with a trailing year), the
    // ones a slot shows: groups come in period-end order
    for (const g of groups) {
      if (g.fiscal_period !== 'FY') continue;
      latestYear = periodOf(g, dependencyKey(g, byKey));
      hold(`period|${periodKey(g)}`, 'period', 'FY', latestYear, date);
    }
    for (let i = groups.length - 1; i >= 0; i--) {
      const g = groups[i]!;
      if (!isQuarter(g.fiscal_period)) continue;
      const dep = dependencyKey(g, byKey);
      latestQuarter ??= periodOf(g, dep);
      latestTtm = ttmOf(g, dep);
      if (latestTtm) break;
    }
    if (latestYear) hold('latest|FY', 'latest', 'FY', latestYear, date);
    if (latestQuarter) hold('latest|Q', 'latest', 'Q', latestQuarter, date);
    if (latestTtm) hold('latest|TTM', 'latest', 'TTM', latestTtm, date);
  }
  return out;
}
