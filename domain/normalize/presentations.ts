import type { CanonicalMetric, StatementType } from '../catalog/types.ts';
import { isNegative, leadingPlace, sub } from '../decimal.ts';
import { addDays, daysBetween } from '../dates.ts';
import type { Fact, FilingInfo } from '../facts.ts';
import { durationClass, YTD_QUARTERS, type FiscalCalendar, type FiscalPosition } from '../fiscal-calendar.ts';
import type { FiscalPeriod, SelectionRule, StatementFigure } from '../statement-types.ts';
import { collectCandidates, parsePeriodKey, reportingCurrency, type Candidate, type ConceptIndex } from './candidates.ts';
import { applyBalanceSheetCorrections, applyCashFlowCorrections, applyIncomeCorrections } from './corrections.ts';
import { chooseCandidate, faceFor, NO_FACE, type FaceConcepts, type StatementConcepts } from './face-concepts.ts';
import { derivedFigure, knownFlow, sourceFigure, stepOf, type KnownFlow } from './figures.ts';
import { imputeRevenue } from './imputed.ts';

/** What one filing says about one statement period: the figures it presents (or derives). */
export interface Presentation {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  period_start: string | null;
  period_end: string;
  currency: string | null;
  figures: Map<string, StatementFigure>;
  /**
   * every candidate the filing tagged for a metric of the period, best first, where there is more
   * than one: what concept continuity picks from when the period already has another concept
   */
  alternatives?: Map<string, Alternatives>;
  /**
   * a quarter an annual report tells in a table of selected lines (selected quarterly data, a
   * restatement note): a line there under another concept is another line, never a re-tag
   */
  partial?: boolean;
}

/** Every candidate a filing tagged for one metric and period, and whether its own presentation linkbase puts a concept on the statement. */
export interface Alternatives {
  list: readonly Candidate[];
  presented: (concept: string) => boolean;
}

export interface CatalogView {
  byName: ReadonlyMap<string, CanonicalMetric>;
  index: ConceptIndex;
}

/**
 * Year-to-date flows known so far, by metric, fiscal year and quarters covered (1 = first
 * quarter, 4 = full year). The latest filing presenting a value wins, as it would for a reader on
 * that day. Slot `Q4_MARK` marks a fourth quarter already derived (or reported) for the metric.
 * Keyed by numbers under each metric: a string built per lookup was a hot spot of the normalizer.
 */
export class FlowStore {
  private readonly byMetric = new Map<string, Map<number, KnownFlow>>();
  /** the candidates of the filing that set a slot, where it told more than one (rule 11: same-concept derivations) */
  private readonly told = new Map<string, Map<number, ToldFlows>>();
  /** by metric and slot, the flow a later filing's opposite-signed telling replaced (rare: made on first use) */
  private flipped: Map<string, { flow: KnownFlow; told: ToldFlows | null }> | null = null;

  get(metric: string, fiscalYear: number, slot: number): KnownFlow | undefined {
    return this.byMetric.get(metric)?.get(fiscalYear * 8 + slot);
  }

  has(metric: string, fiscalYear: number, slot: number): boolean {
    return this.byMetric.get(metric)?.has(fiscalYear * 8 + slot) ?? false;
  }

  /** `told`: every candidate the same filing told for the slot (more than one); a later set without them forgets the earlier filing's */
  set(metric: string, fiscalYear: number, slot: number, flow: KnownFlow, told: ToldFlows | null = null): void {
    const key = fiscalYear * 8 + slot;
    let slots = this.byMetric.get(metric);
    if (!slots) this.byMetric.set(metric, (slots = new Map()));
    const old = slots.get(key);
    // another filing's figure told again with the opposite sign: kept, in case folding finds the later one slipped
    if (old !== undefined && old.source_accession !== flow.source_accession && negates(old.value, flow.value)) {
      (this.flipped ??= new Map()).set(`${metric}|${key}`, { flow: old, told: this.told.get(metric)?.get(key) ?? null });
    }
    slots.set(key, flow);
    if (told !== null) {
      let kept = this.told.get(metric);
      if (!kept) this.told.set(metric, (kept = new Map()));
      kept.set(key, told);
    } else this.told.get(metric)?.delete(key);
  }

  /**
   * Takes back what filing `accession` set for the slot where it told an earlier filing's figure
   * with the opposite sign and folding found the later telling slipped (sign-slips.ts
   * yearToDateWitness): later derivations start from the figure on record again. False where the
   * slot holds another filing's flow or no flipped one was kept.
   */
  restore(metric: string, fiscalYear: number, slot: number, accession: string): boolean {
    const key = fiscalYear * 8 + slot;
    const current = this.get(metric, fiscalYear, slot);
    const id = `${metric}|${key}`;
    const before = this.flipped?.get(id);
    if (current === undefined || before === undefined || current.source_accession !== accession) return false;
    this.flipped!.delete(id);
    this.byMetric.get(metric)!.set(key, before.flow);
    if (before.told !== null) this.told.get(metric)!.set(key, before.told);
    else this.told.get(metric)?.delete(key);
    return true;
  }

  /** the slot's flow under `concept`: the chosen one, or another candidate the same filing told */
  under(metric: string, fiscalYear: number, slot: number, concept: string | null): KnownFlow | undefined {
    const chosen = this.get(metric, fiscalYear, slot);
    if (chosen === undefined || chosen.source_xbrl_concept === concept) return chosen;
    const told = this.told.get(metric)?.get(fiscalYear * 8 + slot);
    const c = told?.list.find((x) => x.concept === concept);
    return c === undefined ? undefined : knownFlow(c, told!.unit, told!.filed);
  }
}

/** whether one decimal text is the other negated (the same digits, opposite signs, neither zero) */
function negates(a: string, b: string): boolean {
  return a.length === b.length + 1 ? a.charCodeAt(0) === 45 && a.endsWith(b) : b.length === a.length + 1 && b.charCodeAt(0) === 45 && b.endsWith(a);
}

/** a year-to-date's candidates as one filing told them, made into flows only when asked for */
interface ToldFlows {
  list: readonly Candidate[];
  unit: string;
  filed: string;
}

/** the FlowStore slot that marks a metric's fourth quarter as derived or reported (1-4 are year-to-date quarters) */
const Q4_MARK = 5;

const ANNUAL_FORMS = /^(10-K|10-KT|20-F|40-F)(\/A)?$/;
const DOMESTIC_ANNUAL_FORMS = /^(10-K|10-KT)(\/A)?$/;
/** a balance sheet is presented only where the filing tags one of its totals at that instant */
const BALANCE_ANCHORS = ['TOTAL_ASSETS', 'LIABILITIES_AND_EQUITY', 'TOTAL_LIABILITIES', 'TOTAL_CURRENT_ASSETS'];
/** how far a year-to-date period may start from the fiscal-year start (52/53-week drift) */
const START_TOLERANCE_DAYS = 20;
/** how much older than the later year-to-date the earlier one may be to derive a quarter from both */
const YTD_REACH_DAYS = 400;

export function isAnnualForm(form: string): boolean {
  return ANNUAL_FORMS.test(form);
}

/** the fiscal period a position's quarter names: FY for the fourth (a year end), else Q1-Q3 */
export function periodName(quarter: number): FiscalPeriod {
  return quarter === 4 ? 'FY' : (`Q${quarter}` as FiscalPeriod);
}

function unitOf(m: CanonicalMetric, currency: string | null): string {
  return m.unit_type === 'currency' ? currency ?? 'USD' : m.unit_type === 'per_share' ? `${currency ?? 'USD'}/shares` : 'shares';
}

/** The candidates of one period of a filing; a balance sheet's instant has no start. */
interface Period {
  pos: FiscalPosition;
  start: string | null;
  end: string;
  metrics: Map<string, Candidate[]>;
}

interface FlowPeriod extends Period {
  start: string;
}

/** No face: the same shape as a face of no statements, so choosing reads one shape (a null read first late recompiled presentFiling) */
const NO_FILING_FACE: { statements: StatementConcepts; own: boolean } = { statements: new Map(), own: false };

/** the candidates of a quarter the filing tells only year-to-date: present() of none is an empty presentation */
const NO_METRICS: Map<string, Candidate[]> = new Map();

/**
 * Turn one periodic filing into statement presentations. Periods come from the facts' own dates
 * (never from the filing's fy/fp tags); discrete quarters missing from the filing are derived
 * from its year-to-date figures, and the derived fourth quarter from its full-year figures.
 * `currency` is the filing's reportingCurrency, where the caller counted it already.
 */
export function presentFiling(
  filing: FilingInfo,
  facts: readonly Fact[],
  calendar: FiscalCalendar,
  catalog: CatalogView,
  store: FlowStore,
  face: FaceConcepts = NO_FACE,
  currency: string | null = reportingCurrency(facts),
  ownDerivations: OwnDerivations | null = null,
): Presentation[] {
  const filingFace = faceFor(face, filing.accession, filing.filing_date) ?? NO_FILING_FACE;
  const choose: Chooser = (list, type) => chooseCandidate(list, type, filingFace);
  choose.presented = (concept, type) => filingFace.own && (filingFace.statements.get(type)?.has(concept) ?? false);
  const candidates = collectCandidates(facts, catalog.index, currency);
  const annual = isAnnualForm(filing.form);
  // a 10-K's quarters are those of a filer with quarterly reports; a 20-F/40-F filer has none to restate
  const quarterly = DOMESTIC_ANNUAL_FORMS.test(filing.form);

  // balances keep the FlowPeriod shape (start null) so that keepLargest, already hot, compares them
  const balances = new Map<string, Period>();
  const discrete = new Map<string, FlowPeriod>();
  const ytd = new Map<string, FlowPeriod>();

  for (const [key, metrics] of candidates) {
    const { start, end } = parsePeriodKey(key);
    const pos = calendar.locate(end);
    const fp = periodName(pos.quarter);
    if (start === null) {
      if (annual && pos.quarter !== 4) continue;
      if (!hasAny(metrics, BALANCE_ANCHORS)) continue;
      keepLargest(balances, `${pos.fiscal_year}|${fp}`, { pos, start: null, end, metrics });
      continue;
    }
    const cls = durationClass(start, end);
    if (!cls) continue;
    const fromYearStart = Math.abs(daysBetween(pos.year_start, start)) <= START_TOLERANCE_DAYS;
    if (annual) {
      // an annual report presents its full years and every quarter it tells in three-month facts
      // (selected quarterly data, the quarterly table of a restatement, a Q4 of its own)
      if (cls === 'year' && pos.quarter === 4) keepLargest(ytd, `${pos.fiscal_year}|4`, { pos, start, end, metrics });
      else if (cls === 'quarter' && quarterly) keepLargest(discrete, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
      continue;
    }
    if (cls === 'year') continue;
    if (cls === 'quarter' && pos.quarter <= 3) keepLargest(discrete, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
    if (fromYearStart && YTD_QUARTERS[cls] === pos.quarter && pos.quarter <= 3) {
      keepLargest(ytd, `${pos.fiscal_year}|${pos.quarter}`, { pos, start, end, metrics });
    }
  }

  if (!annual && ytd.size > 1) dropMisdatedYearToDate(ytd);

  // what this filing says year-to-date becomes the latest knowledge before anything is derived
  for (const p of ytd.values()) {
    const quarters = YTD_QUARTERS[durationClass(p.start, p.end)!];
    for (const [metric, list] of p.metrics) {
      const m = catalog.byName.get(metric)!;
      if (m.unit_type !== 'currency') continue;
      const chosen = choose(list, m.statement_type).candidate;
      const unit = unitOf(m, currency);
      store.set(metric, p.pos.fiscal_year, quarters, knownFlow(chosen, unit, filing.filing_date), toldApart(list, chosen) ? { list, unit, filed: filing.filing_date } : null);
    }
  }

  const out: Presentation[] = [];
  for (const b of balances.values()) {
    out.push(present('BALANCE_SHEET', b.pos.fiscal_year, periodName(b.pos.quarter), null, b.end, b.metrics, catalog, currency, choose));
  }

  for (const type of ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT'] as const) {
    // full years (annual reports) and the fourth quarter: the filer's own three-month figures
    // (SOURCE), else derived from the year and the latest quarters
    for (const p of ytd.values()) {
      if (p.pos.quarter !== 4) continue;
      const fy = present(type, p.pos.fiscal_year, 'FY', p.start, p.end, p.metrics, catalog, currency, choose);
      if (fy.figures.size > 0) out.push(fy);
      const own = discrete.get(`${p.pos.fiscal_year}|4`);
      // one call for both cases (no metrics: an empty presentation), so the rarer one compiles along
      const q4 = present(type, p.pos.fiscal_year, 'Q4', own?.start ?? null, own?.end ?? p.end, own?.metrics ?? NO_METRICS, catalog, currency, choose);
      const derived = deriveQuarter(type, p, 4, catalog, store, currency, filing.accession, discrete, choose);
      fillFromDerived(q4, derived, ownDerivations);
      if (own) q4.partial = true;
      for (const [metric, f] of q4.figures) store.set(metric, p.pos.fiscal_year, Q4_MARK, f);
      if (q4.figures.size > 0) out.push(q4);
    }
    // a nine-month year-to-date of a year already closed (a quarterly report's comparative) makes
    // that year's Q4 derivable, or re-derivable from the latest nine months
    if (!annual) {
      for (const p of ytd.values()) {
        if (p.pos.quarter !== 3) continue;
        let closed: KnownFlow | undefined;
        for (const metric of p.metrics.keys()) if ((closed = store.get(metric, p.pos.fiscal_year, 4)) !== undefined) break;
        if (!closed) continue;
        const yearPos = calendar.locate(closed.period_end);
        if (yearPos.quarter !== 4 || yearPos.fiscal_year !== p.pos.fiscal_year) continue;
        // only what was never derivable: a year re-netted against a later comparative may mix bases
        const fresh = new Map<string, Candidate[]>();
        for (const [metric, list] of p.metrics) if (!store.has(metric, p.pos.fiscal_year, Q4_MARK)) fresh.set(metric, list);
        if (fresh.size === 0) continue;
        // a literal, not a spread copy of p: one FlowPeriod shape for deriveQuarter
        const year: FlowPeriod = { pos: yearPos, start: p.start, end: closed.period_end, metrics: fresh };
        const q4 = deriveQuarter(type, year, 4, catalog, store, currency, filing.accession);
        if (q4 && q4.figures.size > 0) out.push(q4);
      }
    }
    // quarters: the filing's own three-month figures, else year-to-date minus the previous year-to-date
    const quarters = new Set([...discrete.entries(), ...ytd.entries()].filter(([, p]) => p.pos.quarter <= 3).map(([k]) => k));
    for (const id of quarters) {
      const own = discrete.get(id);
      const cumulative = ytd.get(id);
      const anyPeriod = (own ?? cumulative)!;
      const q = anyPeriod.pos.quarter;
      // anyPeriod is own when there is one; without, an empty presentation (see Q4 above)
      const stmt = present(type, anyPeriod.pos.fiscal_year, periodName(q), own?.start ?? null, anyPeriod.end, own?.metrics ?? NO_METRICS, catalog, currency, choose);
      fillFromDerived(stmt, cumulative && q > 1 ? deriveQuarter(type, cumulative, q, catalog, store, currency, filing.accession) : null, ownDerivations);
      if (annual) stmt.partial = true;
      if (stmt.figures.size > 0) out.push(stmt);
    }
  }

  for (const p of out) {
    if (p.statement_type === 'CASH_FLOW_STATEMENT') applyCashFlowCorrections(p.figures);
    if (p.statement_type === 'BALANCE_SHEET') applyBalanceSheetCorrections(p.figures);
    if (p.statement_type !== 'INCOME_STATEMENT') continue;
    const revenueCandidates = candidates.get(`${p.period_start ?? ''}|${p.period_end}`)?.get('REVENUE') ?? [];
    applyIncomeCorrections(p.figures, revenueCandidates);
    imputeRevenue(p.figures, revenueCandidates.length > 0, filing.accession);
  }
  return out;
}

/** Chooses a metric's candidate for a statement, and tells whether the filing's own presentation shows a concept there. */
type Chooser = ((list: readonly Candidate[], type: StatementType) => { candidate: Candidate; rule: SelectionRule }) & {
  presented?: (concept: string, type: StatementType) => boolean;
};

/**
 * A quarterly report telling a year-to-date with the values of a longer year-to-date of the same
 * year, line for line (SunEdison's 10-Q of 2012-11-09 tagged its nine months of 2011 also as six
 * months, 38 lines alike): no quarter adds nothing to every line, so one of the two is mis-dated and
 * the filing does not say which. Neither is read; what earlier filings told of both stays the
 * knowledge quarters are derived from. At least three lines of a non-zero value must agree, and none
 * may differ: one-off items (a gain in the first quarter only) legitimately repeat a few lines.
 */
function dropMisdatedYearToDate(ytd: Map<string, FlowPeriod>): void {
  for (const [key, shorter] of ytd) {
    for (let q = shorter.pos.quarter + 1; q <= 3; q++) {
      const longerKey = `${shorter.pos.fiscal_year}|${q}`;
      const longer = ytd.get(longerKey);
      if (longer === undefined || !sameLineForLine(shorter.metrics, longer.metrics)) continue;
      ytd.delete(key);
      ytd.delete(longerKey);
      break;
    }
  }
}

/** every metric both periods tell has the same value in both, and at least three of them are not zero */
function sameLineForLine(a: ReadonlyMap<string, Candidate[]>, b: ReadonlyMap<string, Candidate[]>): boolean {
  let nonZero = 0;
  for (const [metric, list] of a) {
    const other = b.get(metric);
    if (other === undefined) continue;
    const value = list[0]!.value;
    if (value !== other[0]!.value) return false;
    if (!isZero(value)) nonZero++;
  }
  return nonZero >= 3;
}

function isZero(value: string): boolean {
  return /^-?0*(\.0*)?$/.test(value);
}

function hasAny(metrics: ReadonlyMap<string, unknown>, names: readonly string[]): boolean {
  for (const name of names) if (metrics.has(name)) return true;
  return false;
}

/**
 * Stands for "nothing kept yet" so keepLargest reads a size on every call: a first duplicate
 * period, late in a run, otherwise met an unread load and recompiled presentFiling.
 */
const NOTHING_KEPT: Period = {
  pos: Object.freeze({ fiscal_year: 0, quarter: 4, year_start: '', year_end: '' }),
  start: null,
  end: '',
  metrics: NO_METRICS,
};

/**
 * Year-to-date flows of quarters q and q-1 under one concept, from what the filings that told them
 * told (FlowStore.under), that net to zero or more; null where there are none.
 */
function sameConceptPair(store: FlowStore, metric: string, fy: number, q: number, through: KnownFlow, before: KnownFlow): [KnownFlow, KnownFlow] | null {
  const earlier = store.under(metric, fy, q - 1, through.source_xbrl_concept);
  if (earlier !== undefined && !isNegative(sub(through.value, earlier.value))) return [through, earlier];
  const later = store.under(metric, fy, q, before.source_xbrl_concept);
  if (later !== undefined && !isNegative(sub(later.value, before.value))) return [later, before];
  return null;
}

/** whether a year-to-date's candidates tell other values than the chosen one: only then can another concept's derivation differ (FlowStore.under) */
function toldApart(list: readonly Candidate[], chosen: Candidate): boolean {
  if (list.length < 2) return false;
  for (const c of list) if (c.value !== chosen.value) return true;
  return false;
}

/** one value below zero and the other above; read from the text (this runs for every derived never-negative figure; leadingPlace is null for zero) */
function oppositeSigns(a: string, b: string): boolean {
  const aNegative = a.charCodeAt(0) === 45; /* - */
  if (aNegative === (b.charCodeAt(0) === 45)) return false;
  return leadingPlace(a) !== null && leadingPlace(b) !== null;
}

function keepLargest<P extends Period>(map: Map<string, P>, id: string, p: P): void {
  const seen = map.get(id) ?? NOTHING_KEPT;
  const larger = p.metrics.size > seen.metrics.size;
  if (seen === NOTHING_KEPT || larger) map.set(id, p);
}

/**
 * For a quarter's figure the filing reports (SOURCE), what the same filing's year-to-date figures
 * derive for that quarter, where they derive it: whether a company's three-month figure agreed
 * with its own year-to-date is what tells a later filing's derivation of the quarter from a
 * re-basing (version rule 10, domain/normalize/versions.ts). Keyed by the figure itself, which
 * versions carry unchanged until a filing changes it.
 */
export type OwnDerivations = WeakMap<StatementFigure, StatementFigure>;

/**
 * Adds to a statement what its derived quarter knows and it does not: figures, a start date; of
 * the figures the filing reports itself, what the derivation says is noted in `own`. One function
 * for the Q4 and the quarter paths, called on every pass (derived null or not), so that the path a
 * run meets first gives the type feedback for both: a quarter's first derived figures, late in a
 * run, otherwise recompiled presentFiling.
 */
function fillFromDerived(stmt: Presentation, derived: Presentation | null, own: OwnDerivations | null): void {
  if (derived === null) return;
  for (const [metric, figure] of derived.figures) {
    const reported = stmt.figures.get(metric);
    if (reported === undefined) stmt.figures.set(metric, figure);
    else if (own !== null && reported.value_origin === 'SOURCE') own.set(reported, figure);
  }
  if (stmt.period_start === null) stmt.period_start = derived.period_start;
}

function emptyPresentation(
  type: StatementType,
  fiscalYear: number,
  fp: FiscalPeriod,
  start: string | null,
  end: string,
  currency: string | null,
): Presentation {
  // alternatives and partial are set on some presentations later: present from the start on all,
  // so every presentation foldPresentation reads has one shape (each added field made another map)
  return { statement_type: type, fiscal_year: fiscalYear, fiscal_period: fp, period_start: start, period_end: end, currency, figures: new Map(), alternatives: undefined, partial: false };
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
  choose: Chooser,
): Presentation {
  const p = emptyPresentation(type, fiscalYear, fp, start, end, currency);
  for (const [metric, list] of metrics) {
    const m = catalog.byName.get(metric)!;
    if (m.statement_type !== type) continue;
    const { candidate, rule } = choose(list, type);
    const unit = unitOf(m, currency);
    p.figures.set(metric, sourceFigure(candidate, unit, rule));
    if (list.length > 1) {
      p.alternatives ??= new Map();
      p.alternatives.set(metric, { list, presented: (concept) => choose.presented?.(concept, type) ?? false });
    }
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
  told: ReadonlyMap<string, FlowPeriod> | null = null,
  choose?: Chooser,
): Presentation | null {
  const fy = cumulative.pos.fiscal_year;
  // the three quarters this very filing tells (a Q4 from an annual report): looked up here, not
  // passed as an array, whose element kind varied with how it was made (Array.prototype.map in
  // the interpreter or inlined in optimized code) and deoptimized this function on each new one
  const told1 = choose && told ? told.get(`${fy}|1`) : undefined;
  const told2 = told1 ? told!.get(`${fy}|2`) : undefined;
  const told3 = told2 ? told!.get(`${fy}|3`) : undefined;
  let start: string | null = null;
  const p = emptyPresentation(type, fy, q === 4 ? 'Q4' : periodName(q), null, cumulative.end, currency);
  for (const [metric, yearList] of cumulative.metrics) {
    const m = catalog.byName.get(metric)!;
    if (m.statement_type !== type || m.unit_type !== 'currency') continue;
    // the year minus the three quarters this very filing tells (restated or not): the latest quarters
    const l1 = told1?.metrics.get(metric);
    const l2 = l1 !== undefined ? told2?.metrics.get(metric) : undefined;
    const l3 = l2 !== undefined ? told3?.metrics.get(metric) : undefined;
    if (l3 !== undefined) {
      const unit = unitOf(m, currency);
      const year = sourceFigure(choose!(yearList, type).candidate, unit);
      const parts: StatementFigure[] = [
        sourceFigure(choose!(l1!, type).candidate, unit),
        sourceFigure(choose!(l2!, type).candidate, unit),
        sourceFigure(choose!(l3, type).candidate, unit),
      ];
      const value = sub(sub(sub(year.value, parts[0]!.value), parts[1]!.value), parts[2]!.value);
      const from = addDays(parts[2]!.period_end, 1);
      start ??= from;
      store.set(metric, fy, Q4_MARK, year);
      p.figures.set(
        metric,
        derivedFigure(metric, value, year.unit, { start: from, end: year.period_end }, accession, 'DERIVED_Q4', [
          stepOf('base', year),
          ...parts.map((f) => stepOf('subtract', f)),
        ]),
      );
      continue;
    }
    let through = store.get(metric, fy, q);
    let before = store.get(metric, fy, q - 1);
    if (!through || !before) continue;
    if (through.source_xbrl_concept !== before.source_xbrl_concept && m.traits.non_negative && isNegative(sub(through.value, before.value))) {
      // two concepts netting below zero for a metric that cannot be negative: two lines (rule 11).
      // Like with like where a filing told it, the earlier year-to-date under the later one's
      // concept or the later one under the earlier one's; else not derived
      const pair = sameConceptPair(store, metric, fy, q, through, before);
      if (pair === null) continue;
      through = pair[0];
      before = pair[1];
    }
    // a metric that cannot be negative, told with both signs: one of the two is a sign slip, and
    // netting them makes a quarter of neither's size
    if (m.traits.non_negative && oppositeSigns(through.value, before.value)) continue;
    // a year re-told years later (a restated third-year comparative) is not netted against a
    // year-to-date nobody re-told with it: mixed bases make a number no filer reported
    if (through.filed && before.filed && daysBetween(before.filed, through.filed) > YTD_REACH_DAYS) continue;
    if (through.period_start !== null && before.period_start !== null && Math.abs(daysBetween(through.period_start, before.period_start)) > START_TOLERANCE_DAYS) continue;
    const from = addDays(before.period_end, 1);
    start ??= from;
    // remembered (slot Q4_MARK), so a later comparative does not re-derive it
    if (q === 4) store.set(metric, fy, Q4_MARK, through);
    p.figures.set(
      metric,
      derivedFigure(
        metric,
        sub(through.value, before.value),
        through.unit,
        { start: from, end: through.period_end },
        accession,
        q === 4 ? 'DERIVED_Q4' : 'DERIVED_DISCRETE_QUARTER',
        [stepOf('base', through), stepOf('subtract', before)],
      ),
    );
  }
  p.period_start = start;
  return p.figures.size > 0 ? p : null;
}
