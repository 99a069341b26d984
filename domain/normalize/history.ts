import type { Fact, FilingInfo } from '../facts.ts';
import type { FiscalPeriod, StatementFigure, StatementType } from '../statement-types.ts';
import { durationClass, FiscalCalendar, type LabelVote } from '../fiscal-calendar.ts';
import { NO_FACE, type FaceConcepts } from './face-concepts.ts';
import { CurrencyTally } from './candidates.ts';
import type { CatalogView } from './catalog-view.ts';
import { isAnnualForm } from './filing-periods.ts';
import { FlowStore } from './flow-store.ts';
import { presentFiling } from './presentations.ts';
import { periodName, type Presentation } from './statement-presentation.ts';
import { addDays, daysBetween } from '../dates.ts';
import { evidentSplit, isSplitRatioFact, splitScaling, stockSplits, type StockSplit } from '../statements/stock-splits.ts';
import { compareFigures } from '../statements/versions.ts';
import { foldPresentation, statementKey, type BuiltVersion, type FoldContext, type ScaleSlip } from './versions.ts';

/** Only periodic reports build statements; proxies, 8-Ks and registration statements never do. */
export const PERIODIC_FORMS: ReadonlySet<string> = new Set([
  '10-K', '10-K/A', '10-Q', '10-Q/A', '10-KT', '10-KT/A', '10-QT', '10-QT/A', '20-F', '20-F/A', '40-F', '40-F/A',
]);

export function isPeriodicForm(form: string): boolean {
  // the set's own spelling first: nearly every form comes as SEC writes it, and trimming and
  // upper-casing made two strings per fact of every filing (this runs once per fact)
  return PERIODIC_FORMS.has(form) || PERIODIC_FORMS.has(form.trim().toUpperCase());
}

export interface CompanyFacts {
  cik: string;
  facts: readonly Fact[];
  /** every filing known for the company (submissions merged with what the facts reveal) */
  filings: readonly FilingInfo[];
  /** MMDD from submissions, or null */
  fiscal_year_end: string | null;
  /** statement concepts from the filings' presentation linkbases, where packages were read */
  face?: FaceConcepts;
}

/**
 * A statement period one filing presented, and the version of that statement current right after
 * the filing was folded in (the one its figures live in, whether the filing added it or merely
 * confirmed it). Segment figures of the filing for the same period reconcile with that version.
 */
export interface PresentedStatement {
  accession: string;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  period_start: string | null;
  period_end: string;
  version_sequence: number;
}

export interface StatementHistory {
  calendar: FiscalCalendar;
  /** every version, in the order the filings that made them were filed */
  versions: BuiltVersion[];
  periodic_filings: number;
  presentations: number;
  presented: PresentedStatement[];
  /** later figures 1,000 or 1,000,000 times off the one on record: data-quality findings, never versions */
  slips: ScaleSlip[];
  /** the stock splits the company's periodic filings tagged or showed (evidentSplit): a figure recast for one is not a revision */
  splits: StockSplit[];
}

/** SEC filing order: filing date, then acceptance time, then accession. */
export function compareFilings(a: FilingInfo, b: FilingInfo): number {
  return (
    a.filing_date.localeCompare(b.filing_date) ||
    (a.accepted_at ?? '').localeCompare(b.accepted_at ?? '') ||
    a.accession.localeCompare(b.accession)
  );
}

/**
 * Replay a company's periodic filings in the order they were filed and fold what each one
 * presents into versioned statements. Pure and deterministic: the same facts give the same
 * history, which is what makes re-ingestion a no-op.
 */
export function buildStatementHistory(input: CompanyFacts, catalog: CatalogView): StatementHistory {
  // one pass over the company's facts, in their order, gathers everything the calendar and the
  // currency need besides grouping them by filing: a filing's facts lie scattered through memory,
  // and each further pass over them (annual periods, current period ends, currency) cost about as
  // much as the grouping pass over all facts
  const byAccession = new Map<string, FilingFacts>();
  const splitFacts: Fact[] = [];
  let lastForm = '';
  let lastPeriodic = false;
  for (const f of input.facts) {
    if (f.form !== lastForm) {
      lastForm = f.form;
      lastPeriodic = isPeriodicForm(f.form);
    }
    if (!lastPeriodic) continue;
    gatherFact(byAccession, f);
    if (isSplitRatioFact(f)) splitFacts.push(f);
  }
  const filingByAccession = new Map(input.filings.map((f) => [f.accession, f]));
  const filings: FilingInfo[] = [];
  for (const [accession, { facts }] of byAccession) {
    const known = filingByAccession.get(accession);
    const first = facts[0]!;
    filings.push(
      known ?? {
        accession,
        form: first.form,
        filing_date: first.filed,
        report_date: null,
        accepted_at: null,
        primary_document: null,
        fiscal_year_focus: first.fy,
        fiscal_period_focus: first.fp,
        source: 'companyfacts',
        filing_date_estimated: false,
      },
    );
  }
  filings.sort(compareFilings);

  const calendar = new FiscalCalendar({
    annual_periods: annualPeriods(filings, byAccession),
    labels: labelVotes(filings, byAccession),
    fiscal_year_end: input.fiscal_year_end,
  });

  const splits = stockSplits(splitFacts);
  const filedOn = new Map(filings.map((f) => [f.accession, f.filing_date]));
  const statements = new Map<string, BuiltVersion[]>();
  const store = new FlowStore();
  const folding: Folding = {
    store,
    statements,
    versions: [],
    presented: [],
    slips: [],
    presentations: 0,
    splits,
    filedOn,
    ownDerivations: new WeakMap(),
    offeredWith: new Map(),
    balanceAt: (metric, date) => balanceAt(statements, calendar, metric, date),
    quarterOnRecord: (statement_type, fiscal_year, fiscal_period, metric) => {
      const list = statements.get(statementKey({ statement_type, fiscal_year, fiscal_period }));
      return list?.[list.length - 1]!.figures.get(metric);
    },
    yearToDate: (metric, fiscalYear, quarter) => store.get(metric, fiscalYear, quarter),
    restoreYearToDate: (metric, fiscalYear, quarter, accession) => store.restore(metric, fiscalYear, quarter, accession),
  };
  for (const filing of filings) foldFiling(folding, filing, byAccession.get(filing.accession)!, calendar, catalog, input.face ?? NO_FACE);
  const { versions, presentations, presented, slips } = folding;
  return { calendar, versions, periodic_filings: filings.length, presentations, presented, slips, splits };
}

/**
 * A balance-sheet figure at a date as the statements folded so far stand: the latest version of the
 * balance sheet of the fiscal period the date falls in, where its date is within a week of it
 * (52/53-week years end on a weekday near the month's end).
 */
function balanceAt(statements: ReadonlyMap<string, BuiltVersion[]>, calendar: FiscalCalendar, metric: string, date: string): string | undefined {
  const pos = calendar.locate(date);
  const list = statements.get(statementKey({ statement_type: 'BALANCE_SHEET', fiscal_year: pos.fiscal_year, fiscal_period: periodName(pos.quarter) }));
  const latest = list?.[list.length - 1];
  if (latest === undefined || Math.abs(daysBetween(latest.period_end, date)) > 7) return undefined;
  return latest.figures.get(metric)?.value;
}

/** What buildStatementHistory has folded so far, filing by filing. */
interface Folding extends FoldContext {
  /** the tagged splits, and those filings' own figures show as they are folded (noteEvidentSplit) */
  splits: StockSplit[];
  store: FlowStore;
  /** versions by statementKey, oldest first */
  statements: Map<string, BuiltVersion[]>;
  versions: BuiltVersion[];
  presented: PresentedStatement[];
  presentations: number;
}

/**
 * Folds what one filing presents into the versioned statements. A function of its own, called per
 * filing, so that V8 compiles it once as a function: as the loop body of buildStatementHistory it
 * was compiled on the fly (OSR) with the whole history builder around it, and again after each
 * deoptimization.
 */
function foldFiling(h: Folding, filing: FilingInfo, filed: FilingFacts, calendar: FiscalCalendar, catalog: CatalogView, face: FaceConcepts): void {
  const presentations = presentFiling(filing, filed.facts, calendar, catalog, h.store, face, filed.currency.currency(), h.ownDerivations);
  noteEvidentSplit(h, filing, presentations);
  for (const p of presentations) {
    // a fourth quarter's presentation may carry no figure (folding checks the one on record against the year)
    if (p.figures.size > 0) h.presentations++;
    const key = statementKey(p);
    let list = h.statements.get(key);
    if (!list) h.statements.set(key, (list = []));
    const added = foldPresentation(list, p, filing, h);
    if (added) h.versions.push(added);
    const current = list[list.length - 1];
    // a presentation of reasons alone (quarters it could not derive) makes no statement
    if (current === undefined) {
      h.statements.delete(key);
      continue;
    }
    if (p.figures.size === 0) continue;
    h.presented.push({
      accession: filing.accession,
      statement_type: p.statement_type,
      fiscal_year: p.fiscal_year,
      fiscal_period: p.fiscal_period,
      period_start: p.period_start,
      period_end: p.period_end,
      version_sequence: current.version_sequence,
    });
  }
}

/**
 * A split the filing's own figures show (stock-splits.ts evidentSplit) joins the company's splits
 * before the filing is folded, so its recasts of every period it tells are recasts, not revisions;
 * unless a split of the same ratio (tagged, or shown by an earlier filing) is already on record
 * within the year before.
 */
function noteEvidentSplit(h: Folding, filing: FilingInfo, presentations: readonly Presentation[]): void {
  for (const p of presentations) {
    if (p.statement_type !== 'INCOME_STATEMENT') continue;
    const list = h.statements.get(statementKey(p));
    const latest = list?.[list.length - 1];
    if (latest === undefined) continue;
    let pairs: Map<string, { before: StatementFigure; after: StatementFigure }> | null = null;
    for (const [metric, after] of p.figures) {
      if (splitScaling(after.unit) === null) continue;
      const before = latest.figures.get(metric);
      if (before === undefined || before.value === after.value) continue;
      (pairs ??= new Map()).set(metric, { before, after });
    }
    if (pairs === null || pairs.size < 2) continue;
    const income = latest.figures.get('NET_INCOME');
    const told = p.figures.get('NET_INCOME');
    const split = evidentSplit(pairs, income !== undefined && told !== undefined && compareFigures(income, told) === 'SAME', filing.filing_date);
    if (split === null) continue;
    const yearBefore = addDays(filing.filing_date, -400);
    if (!h.splits.some((s) => s.ratio === split.ratio && s.date <= filing.filing_date && s.date > yearBefore)) h.splits.push(split);
    return;
  }
}

/** One filing's facts, and what the calendar and the currency read of them, gathered in the pass that groups them. */
interface FilingFacts {
  facts: Fact[];
  currency: CurrencyTally;
  /** one entry per fact of a year's duration ending by the filing date */
  years: { start: string; end: string }[];
  /**
   * The end of the filing's current period, for an annual form and for a quarterly one: the
   * latest end of a duration of the report's own kind (a year for annual reports, a quarter or
   * year-to-date for quarterly ones). Comparatives end earlier; cover-page (dei) facts, odd-length
   * durations (subsequent events) and periods ending after the filing date (maturity schedules by
   * future year, which made a Walmart 10-K of 2012 look like a report on fiscal 2013) are not
   * considered.
   */
  yearEnd: string | null;
  quarterEnd: string | null;
}

/**
 * One periodic filing's fact into its FilingFacts. A function of its own, called per fact, so that
 * V8 compiles this small body once: as the loop body of buildStatementHistory it was compiled on
 * the fly (OSR) with the whole history builder around it, and again after each deoptimization.
 */
function gatherFact(byAccession: Map<string, FilingFacts>, f: Fact): void {
  let filed = byAccession.get(f.accession);
  if (!filed) byAccession.set(f.accession, (filed = filingFacts()));
  filed.facts.push(f);
  filed.currency.add(f.unit);
  if (f.start === null || f.end > f.filed) return;
  const cls = durationClass(f.start, f.end);
  if (cls === 'year') filed.years.push({ start: f.start, end: f.end });
  // current period ends of both kinds (FilingFacts.yearEnd): the filing's form picks one once it is known
  if (cls === null || f.taxonomy === 'dei') return;
  if (cls === 'year') {
    if (filed.yearEnd === null || f.end > filed.yearEnd) filed.yearEnd = f.end;
  } else if (filed.quarterEnd === null || f.end > filed.quarterEnd) filed.quarterEnd = f.end;
}

function filingFacts(): FilingFacts {
  return { facts: [], currency: new CurrencyTally(), years: [], yearEnd: null, quarterEnd: null };
}

function annualPeriods(filings: FilingInfo[], byAccession: Map<string, FilingFacts>): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  for (const filing of filings) {
    if (!isAnnualForm(filing.form)) continue;
    // one entry per fact: how often a year end is reported tells the filer's cycle from strays
    for (const period of byAccession.get(filing.accession)!.years) out.push(period);
  }
  return out;
}

/**
 * Each periodic report names its own current period's fiscal year (fy in companyfacts, which
 * describes the filing). Its current period ends at the report date, else at the latest end
 * of a duration it reports (FilingFacts.yearEnd or quarterEnd).
 */
function labelVotes(filings: FilingInfo[], byAccession: Map<string, FilingFacts>): LabelVote[] {
  const votes: LabelVote[] = [];
  for (const filing of filings) {
    const filed = byAccession.get(filing.accession)!;
    const fy = filing.fiscal_year_focus ?? mostCommonFy(filed.facts);
    if (fy === null) continue;
    const end = (filing.source === 'submissions' ? filing.report_date : null) ?? (isAnnualForm(filing.form) ? filed.yearEnd : filed.quarterEnd);
    if (!end) continue;
    const amended = filing.form.endsWith('/A');
    votes.push({ period_end: end, fiscal_year: fy, weight: isAnnualForm(filing.form) && !amended ? 3 : 1 });
  }
  return votes;
}

function mostCommonFy(facts: readonly Fact[]): number | null {
  const tally = new Map<number, number>();
  for (const f of facts) if (f.fy !== null) tally.set(f.fy, (tally.get(f.fy) ?? 0) + 1);
  let best: number | null = null;
  let n = 0;
  for (const [fy, count] of tally) if (count > n) [best, n] = [fy, count];
  return best;
}
