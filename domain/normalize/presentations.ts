import type { Fact, FilingInfo } from '../facts.ts';
import { durationClass, YTD_QUARTERS, type FiscalCalendar } from '../fiscal-calendar.ts';
import { collectCandidates, reportingCurrency, type Candidate } from './candidates.ts';
import { applyBalanceSheetCorrections, applyCashFlowCorrections, applyIncomeCorrections } from './corrections.ts';
import { chooseCandidate, faceFor, NO_FACE, type FaceConcepts, type StatementConcepts } from './face-concepts.ts';
import { knownFlow, type KnownFlow } from './figures.ts';
import { filingPeriods, isAnnualForm, NO_METRICS, type FlowPeriod } from './filing-periods.ts';
import { Q4_MARK, type FlowStore } from './flow-store.ts';
import { imputeRevenue } from './imputed.ts';
import { deriveQuarter } from './quarter-derivation.ts';
import type { CatalogView } from './catalog-view.ts';
import { periodName, present, unitOf, type Chooser, type OwnDerivations, type Presentation } from './statement-presentation.ts';

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
  if (stmt.period_start === null) stmt.period_start = derived.period_start;
}
