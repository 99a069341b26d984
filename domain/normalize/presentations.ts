import type { Fact, FilingInfo } from '../facts.ts';
import { durationClass, YTD_QUARTERS, type FiscalCalendar } from '../fiscal-calendar.ts';
import { collectCandidates, parsePeriodKey, reportingCurrency, type Candidate, type PeriodCandidates } from './candidates.ts';
import { applyBalanceSheetCorrections, applyCashFlowCorrections, applyIncomeCorrections } from './corrections.ts';
import { chooseCandidate, faceFor, NO_FACE, type FaceConcepts, type StatementConcepts } from './face-concepts.ts';
import { knownFlow, type KnownFlow } from './figures.ts';
import { filingPeriods, isAnnualForm, NO_METRICS, type FlowPeriod } from './filing-periods.ts';
import { Q4_MARK, type FlowStore } from './flow-store.ts';
import { imputeRevenue } from './imputed.ts';
import { deriveQuarter } from './quarter-derivation.ts';
import type { CatalogView } from './catalog-view.ts';
import { periodName, present, unitOf, type Chooser, type FilingConcepts, type OwnDerivations, type Presentation } from './statement-presentation.ts';

/** the types of presentFiling's signature, where its callers look for them */
export type { CatalogView } from './catalog-view.ts';
export type { Presentation } from './statement-presentation.ts';

/** No face: the same shape as a face of no statements, so choosing reads one shape (a null read first late recompiled presentFiling) */
const NO_FILING_FACE: { statements: StatementConcepts; own: boolean } = { statements: new Map(), own: false };

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
  const { balances, discrete, ytd } = filingPeriods(candidates, calendar, filing.form);

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
  // income statements whose corrections were applied as they were made (the years)
  const corrected = new Set<Presentation>();
  // the concepts an annual report tagged, for its quarterly tables (made on first use)
  let filingConcepts: FilingConcepts | undefined;
  for (const b of balances.values()) {
    out.push(present('BALANCE_SHEET', b.pos.fiscal_year, periodName(b.pos.quarter), null, b.end, b.metrics, catalog, currency, choose));
  }

  for (const type of ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT'] as const) {
    // full years (annual reports) and the fourth quarter: the filer's own three-month figures
    // (SOURCE), else derived from the year and the latest quarters
    for (const p of ytd.values()) {
      if (p.pos.quarter !== 4) continue;
      const fy = present(type, p.pos.fiscal_year, 'FY', p.start, p.end, p.metrics, catalog, currency, choose);
      if (type === 'INCOME_STATEMENT') {
        // corrected before the fourth quarter is derived from it: a residual top line replaced by
        // the revenue the gross profit proves is the year the quarter is netted from, under its concept
        correctIncome(fy, candidates);
        corrected.add(fy);
        rememberCorrectedYear(store, fy, p, filing.filing_date);
      }
      if (fy.figures.size > 0) out.push(fy);
      const own = discrete.get(`${p.pos.fiscal_year}|4`);
      // one call for both cases (no metrics: an empty presentation), so the rarer one compiles along
      const q4 = present(type, p.pos.fiscal_year, 'Q4', own?.start ?? null, own?.end ?? p.end, own?.metrics ?? NO_METRICS, catalog, currency, choose);
      const derived = deriveQuarter(type, p, 4, catalog, store, currency, filing.accession, discrete, choose);
      if (own && derived) preferYearLine(q4, derived, fy, p.metrics);
      fillFromDerived(q4, derived, ownDerivations);
      if (own) {
        q4.partial = true;
        q4.concepts = filingConcepts ??= conceptsOf(candidates);
      }
      for (const [metric, f] of q4.figures) store.set(metric, p.pos.fiscal_year, Q4_MARK, f);
      // pushed without figures too: folding checks a fourth quarter on record against the year this filing tells
      if (fy.figures.size > 0 || q4.figures.size > 0) out.push(q4);
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
        // only what was never derivable, or a restated year now that these nine months were told
        // anew after it (the pair on the new basis): a year re-netted against a later comparative
        // told as before may mix bases
        const fresh = new Map<string, Candidate[]>();
        for (const [metric, list] of p.metrics) if (!store.has(metric, p.pos.fiscal_year, Q4_MARK) || restatedPair(store, metric, p.pos.fiscal_year, filing.filing_date)) fresh.set(metric, list);
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
      if (annual) {
        stmt.partial = true;
        stmt.concepts = filingConcepts ??= conceptsOf(candidates);
      }
      if (stmt.figures.size > 0 || stmt.unavailable !== undefined) out.push(stmt);
    }
  }

  for (const p of out) {
    if (p.statement_type === 'CASH_FLOW_STATEMENT') applyCashFlowCorrections(p.figures);
    if (p.statement_type === 'BALANCE_SHEET') applyBalanceSheetCorrections(p.figures);
    if (p.statement_type !== 'INCOME_STATEMENT') continue;
    const revenueCandidates = correctIncome(p, candidates, corrected.has(p));
    imputeRevenue(p.figures, revenueCandidates.length > 0, filing.accession);
  }
  return out;
}

/** a year told again as another figure, and nine months this filing told anew (another figure than before) */
function restatedPair(store: FlowStore, metric: string, fiscalYear: number, filed: string): boolean {
  const year = store.get(metric, fiscalYear, 4);
  const nine = store.get(metric, fiscalYear, 3);
  return year?.prevSince != null && nine?.since === filed && nine.prevSince != null;
}

/** Every concept a filing's candidates carry, and those it tagged for a year-long period. */
function conceptsOf(candidates: PeriodCandidates): FilingConcepts {
  const any = new Set<string>();
  const years = new Set<string>();
  for (const [key, metrics] of candidates) {
    const { start, end } = parsePeriodKey(key);
    const year = start !== null && durationClass(start, end) === 'year';
    for (const list of metrics.values()) {
      for (const c of list) {
        any.add(c.concept);
        if (year) years.add(c.concept);
      }
    }
  }
  return { any, years };
}

/** The income corrections of a presentation (once: `done` where they were applied already); the period's revenue candidates. */
function correctIncome(p: Presentation, candidates: PeriodCandidates, done = false): readonly Candidate[] {
  const revenueCandidates = candidates.get(`${p.period_start ?? ''}|${p.period_end}`)?.get('REVENUE') ?? [];
  if (!done) applyIncomeCorrections(p.figures, revenueCandidates);
  return revenueCandidates;
}

/**
 * A year whose correction chose another of the filing's facts (REVENUE_RESIDUAL_TOP_LINE_REPLACED)
 * is known under that fact from here on: the fourth quarter is the corrected year less the nine
 * months, under one concept (SunEdison's 2011 revenue: 2,715.5M less 1,997.7M of the same line,
 * not its residual 2,268.0M top line less them).
 */
function rememberCorrectedYear(store: FlowStore, fy: Presentation, year: FlowPeriod, filed: string): void {
  for (const [metric, f] of fy.figures) {
    if (f.as_filed_concept === null || f.source_xbrl_concept === null) continue;
    const list = year.metrics.get(metric);
    const chosen = list?.find((c) => c.concept === f.source_xbrl_concept);
    if (chosen === undefined) continue;
    store.set(metric, year.pos.fiscal_year, 4, knownFlow(chosen, f.unit, filed), { list: list!, unit: f.unit, filed });
  }
}

/**
 * A fourth quarter an annual report tells in three-month figures under another concept than its
 * year, where the same filing tells that concept for the year too with another value, is another
 * line (Walmart's quarterly table of net sales beside its total revenues): the quarter of the
 * year's own line, derived from the year and the nine months under its concept, stands instead.
 */
function preferYearLine(q4: Presentation, derived: Presentation, fy: Presentation, yearMetrics: ReadonlyMap<string, readonly Candidate[]>): void {
  for (const [metric, reported] of q4.figures) {
    const year = fy.figures.get(metric);
    const d = derived.figures.get(metric);
    if (year === undefined || d === undefined || reported.value_origin !== 'SOURCE' || year.source_xbrl_concept === null) continue;
    if (reported.source_xbrl_concept === year.source_xbrl_concept) continue;
    const sameLineForYear = yearMetrics.get(metric)?.find((c) => c.concept === reported.source_xbrl_concept);
    if (sameLineForYear === undefined || sameLineForYear.value === year.value) continue;
    if (!d.calculation_steps!.every((s) => s.source_xbrl_concept === year.source_xbrl_concept)) continue;
    q4.figures.set(metric, d);
  }
}

/** whether a year-to-date's candidates tell other values than the chosen one: only then can another concept's derivation differ (FlowStore.under) */
function toldApart(list: readonly Candidate[], chosen: Candidate): boolean {
  if (list.length < 2) return false;
  for (const c of list) if (c.value !== chosen.value) return true;
  return false;
}

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
  // why a quarter the filing does not report could not be derived (a reported one needs no reason)
  if (derived.unavailable !== undefined) {
    for (const [metric, u] of derived.unavailable) if (!stmt.figures.has(metric)) (stmt.unavailable ??= new Map()).set(metric, u);
  }
  if (stmt.period_start === null) stmt.period_start = derived.period_start;
}
