import type { CanonicalMetric, StatementType } from '../catalog/types.ts';
import { sub } from '../decimal.ts';
import { addDays, daysBetween } from '../dates.ts';
import type { Fact, FilingInfo } from '../facts.ts';
import { durationClass, YTD_QUARTERS, type FiscalCalendar, type FiscalPosition } from '../fiscal-calendar.ts';
import type { FiscalPeriod, SelectionRule, StatementFigure } from '../statement-types.ts';
import { collectCandidates, parsePeriodKey, reportingCurrency, type Candidate, type ConceptIndex } from './candidates.ts';
import { applyIncomeCorrections } from './corrections.ts';
import { chooseCandidate, faceFor, NO_FACE, type FaceConcepts } from './face-concepts.ts';
import { derivedFigure, sourceFigure, stepOf, type KnownFlow } from './figures.ts';

/** What one filing says about one statement period: the figures it presents (or derives). */
export interface Presentation {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  period_start: string | null;
  period_end: string;
  currency: string | null;
  figures: Map<string, StatementFigure>;
}

export interface CatalogView {
  byName: ReadonlyMap<string, CanonicalMetric>;
  index: ConceptIndex;
}

/**
 * Year-to-date flows known so far, keyed `metric|fiscal_year|quarters` (1 = first quarter,
 * 4 = full year). The latest filing presenting a value wins, as it would for a reader on that day.
 */
export type FlowStore = Map<string, KnownFlow>;

const ANNUAL_FORMS = /^(10-K|10-KT|20-F|40-F)(\/A)?$/;
/** a balance sheet is presented only where the filing tags one of its totals at that instant */
const BALANCE_ANCHORS = ['TOTAL_ASSETS', 'LIABILITIES_AND_EQUITY', 'TOTAL_LIABILITIES', 'TOTAL_CURRENT_ASSETS'];
/** how far a year-to-date period may start from the fiscal-year start (52/53-week drift) */
const START_TOLERANCE_DAYS = 20;

export function isAnnualForm(form: string): boolean {
  return ANNUAL_FORMS.test(form);
}

function periodName(quarter: number): FiscalPeriod {
  return quarter === 4 ? 'FY' : (`Q${quarter}` as FiscalPeriod);
}

function unitOf(m: CanonicalMetric, currency: string | null): string {
  return m.unit_type === 'currency' ? currency ?? 'USD' : m.unit_type === 'per_share' ? `${currency ?? 'USD'}/shares` : 'shares';
}

interface FlowPeriod {
  pos: FiscalPosition;
  start: string;
  end: string;
  metrics: Map<string, Candidate[]>;
}

/**
 * Turn one periodic filing into statement presentations. Periods come from the facts' own dates
 * (never from the filing's fy/fp tags); discrete quarters missing from the filing are derived
 * from its year-to-date figures, and the derived fourth quarter from its full-year figures.
 */
export function presentFiling(
  filing: FilingInfo,
  facts: readonly Fact[],
  calendar: FiscalCalendar,
  catalog: CatalogView,
  store: FlowStore,
  face: FaceConcepts = NO_FACE,
): Presentation[] {
  const currency = reportingCurrency(facts);
  const filingFace = faceFor(face, filing.accession, filing.filing_date);
  const choose = (list: readonly Candidate[], type: StatementType) => chooseCandidate(list, type, filingFace);
  const candidates = collectCandidates(facts, catalog.index, currency);
  const annual = isAnnualForm(filing.form);

  const balances = new Map<string, { pos: FiscalPosition; end: string; metrics: Map<string, Candidate[]> }>();
  const discrete = new Map<string, FlowPeriod>();
  const ytd = new Map<string, FlowPeriod>();

  for (const [key, metrics] of candidates) {
    const { start, end } = parsePeriodKey(key);
    const pos = calendar.locate(end);
    const fp = periodName(pos.quarter);
    if (start === null) {
      if (annual && pos.quarter !== 4) continue;
      if (!BALANCE_ANCHORS.some((m) => metrics.has(m))) continue;
      const id = `${pos.fiscal_year}|${fp}`;
      const seen = balances.get(id);
      if (!seen || metrics.size > seen.metrics.size) balances.set(id, { pos, end, metrics });
      continue;
    }
    const cls = durationClass(start, end);
    if (!cls) continue;
    const fromYearStart = Math.abs(daysBetween(pos.year_start, start)) <= START_TOLERANCE_DAYS;
    if (annual) {
      if (cls !== 'year' || pos.quarter !== 4) continue;
      keepLargest(ytd, `${pos.fiscal_year}|4`, { pos, start, end, metrics });
      continue;
    }
    if (cls === 'year') continue;
    if (cls === 'quarter' && pos.quarter <= 3) keepLargest(discrete, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
    if (fromYearStart && YTD_QUARTERS[cls] === pos.quarter && pos.quarter <= 3) {
      keepLargest(ytd, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
    }
  }

  // what this filing says year-to-date becomes the latest knowledge before anything is derived
  for (const p of ytd.values()) {
    for (const [metric, list] of p.metrics) {
      const m = catalog.byName.get(metric)!;
      if (m.unit_type !== 'currency') continue;
      const { candidate, rule } = choose(list, m.statement_type);
      store.set(`${metric}|${p.pos.fiscal_year}|${YTD_QUARTERS[durationClass(p.start, p.end)!]}`, {
        ...sourceFigure(candidate, unitOf(m, currency), rule),
      });
    }
  }

  const out: Presentation[] = [];
  for (const b of balances.values()) {
    out.push(present('BALANCE_SHEET', b.pos.fiscal_year, periodName(b.pos.quarter), null, b.end, b.metrics, catalog, currency, choose));
  }

  for (const type of ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT'] as const) {
    // full years (annual reports) and, from them, the derived fourth quarter
    for (const p of ytd.values()) {
      if (p.pos.quarter !== 4) continue;
      const fy = present(type, p.pos.fiscal_year, 'FY', p.start, p.end, p.metrics, catalog, currency, choose);
      if (fy.figures.size > 0) out.push(fy);
      const q4 = deriveQuarter(type, p, 4, catalog, store, currency, filing.accession);
      if (q4 && q4.figures.size > 0) out.push(q4);
    }
    // quarters: the filing's own three-month figures, else year-to-date minus the previous year-to-date
    const quarters = new Set([...discrete.keys(), ...[...ytd.entries()].filter(([, p]) => p.pos.quarter <= 3).map(([k]) => k)]);
    for (const id of quarters) {
      const own = discrete.get(id);
      const cumulative = ytd.get(id);
      const anyPeriod = (own ?? cumulative)!;
      const q = anyPeriod.pos.quarter;
      const stmt = own
        ? present(type, own.pos.fiscal_year, periodName(q), own.start, own.end, own.metrics, catalog, currency, choose)
        : emptyPresentation(type, anyPeriod.pos.fiscal_year, periodName(q), null, anyPeriod.end, currency);
      if (cumulative && q > 1) {
        const derived = deriveQuarter(type, cumulative, q, catalog, store, currency, filing.accession);
        for (const [metric, figure] of derived?.figures ?? []) if (!stmt.figures.has(metric)) stmt.figures.set(metric, figure);
        if (stmt.period_start === null && derived) stmt.period_start = derived.period_start;
      }
      if (stmt.figures.size > 0) out.push(stmt);
    }
  }

  for (const p of out) {
    if (p.statement_type !== 'INCOME_STATEMENT') continue;
    const revenueCandidates = candidates.get(`${p.period_start ?? ''}|${p.period_end}`)?.get('REVENUE') ?? [];
    applyIncomeCorrections(p.figures, revenueCandidates);
  }
  return out;
}

function keepLargest(map: Map<string, FlowPeriod>, id: string, p: FlowPeriod): void {
  const seen = map.get(id);
  if (!seen || p.metrics.size > seen.metrics.size) map.set(id, p);
}

function emptyPresentation(
  type: StatementType,
  fiscalYear: number,
  fp: FiscalPeriod,
  start: string | null,
  end: string,
  currency: string | null,
): Presentation {
  return { statement_type: type, fiscal_year: fiscalYear, fiscal_period: fp, period_start: start, period_end: end, currency, figures: new Map() };
}

function present(
  type: StatementType,
  fiscalYear: number,
  fp: FiscalPeriod,
  start: string | null,
  end: string,
  metrics: Map<string, Candidate[]>,
  catalog: CatalogView,
  currency: string | null,
  choose: (list: readonly Candidate[], type: StatementType) => { candidate: Candidate; rule: SelectionRule },
): Presentation {
  const p = emptyPresentation(type, fiscalYear, fp, start, end, currency);
  for (const [metric, list] of metrics) {
    const m = catalog.byName.get(metric)!;
    if (m.statement_type !== type) continue;
    const { candidate, rule } = choose(list, type);
    p.figures.set(metric, sourceFigure(candidate, unitOf(m, currency), rule));
  }
  return p;
}

/**
 * Discrete quarter q = year-to-date(q) - year-to-date(q-1); the fourth quarter = full year minus
 * nine months. Only additive money flows are derived: per-share figures and share counts are not.
 */
function deriveQuarter(
  type: StatementType,
  cumulative: FlowPeriod,
  q: number,
  catalog: CatalogView,
  store: FlowStore,
  currency: string | null,
  accession: string,
): Presentation | null {
  const fy = cumulative.pos.fiscal_year;
  let start: string | null = null;
  const p = emptyPresentation(type, fy, q === 4 ? 'Q4' : periodName(q), null, cumulative.end, currency);
  for (const [metric] of cumulative.metrics) {
    const m = catalog.byName.get(metric)!;
    if (m.statement_type !== type || m.unit_type !== 'currency') continue;
    const through = store.get(`${metric}|${fy}|${q}`);
    const before = store.get(`${metric}|${fy}|${q - 1}`);
    if (!through || !before) continue;
    if (through.period_start !== null && before.period_start !== null && Math.abs(daysBetween(through.period_start, before.period_start)) > START_TOLERANCE_DAYS) continue;
    start ??= addDays(before.period_end, 1);
    p.figures.set(
      metric,
      derivedFigure(
        metric,
        sub(through.value, before.value),
        through.unit,
        { start: addDays(before.period_end, 1), end: through.period_end },
        accession,
        q === 4 ? 'DERIVED_Q4' : 'DERIVED_DISCRETE_QUARTER',
        [stepOf('base', through), stepOf('subtract', before)],
      ),
    );
  }
  p.period_start = start;
  return p.figures.size > 0 ? p : null;
}
