import type { Fact, FilingInfo } from '../facts.ts';
import type { FiscalPeriod, StatementType } from '../statement-types.ts';
import { durationClass, FiscalCalendar, type LabelVote } from '../fiscal-calendar.ts';
import { NO_FACE, type FaceConcepts } from './face-concepts.ts';
import { FlowStore, isAnnualForm, presentFiling, type CatalogView } from './presentations.ts';
import { foldPresentation, statementKey, type BuiltVersion, type ScaleSlip } from './versions.ts';

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
  const byAccession = new Map<string, Fact[]>();
  for (const f of input.facts) {
    if (!isPeriodicForm(f.form)) continue;
    let list = byAccession.get(f.accession);
    if (!list) byAccession.set(f.accession, (list = []));
    list.push(f);
  }
  const filingByAccession = new Map(input.filings.map((f) => [f.accession, f]));
  const filings: FilingInfo[] = [];
  for (const [accession, facts] of byAccession) {
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

  const store = new FlowStore();
  const statements = new Map<string, BuiltVersion[]>();
  const versions: BuiltVersion[] = [];
  const presented: PresentedStatement[] = [];
  const slips: ScaleSlip[] = [];
  let presentations = 0;
  for (const filing of filings) {
    const facts = byAccession.get(filing.accession)!;
    for (const p of presentFiling(filing, facts, calendar, catalog, store, input.face ?? NO_FACE)) {
      presentations++;
      const key = statementKey(p);
      let list = statements.get(key);
      if (!list) statements.set(key, (list = []));
      const added = foldPresentation(list, p, filing, slips);
      if (added) versions.push(added);
      const current = list[list.length - 1]!;
      presented.push({
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
  return { calendar, versions, periodic_filings: filings.length, presentations, presented, slips };
}

function annualPeriods(filings: FilingInfo[], byAccession: Map<string, Fact[]>): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  for (const filing of filings) {
    if (!isAnnualForm(filing.form)) continue;
    for (const f of byAccession.get(filing.accession)!) {
      if (f.start === null || f.end > f.filed || durationClass(f.start, f.end) !== 'year') continue;
      // one entry per fact: how often a year end is reported tells the filer's cycle from strays
      out.push({ start: f.start, end: f.end });
    }
  }
  return out;
}

/**
 * Each periodic report names its own current period's fiscal year (fy in companyfacts, which
 * describes the filing). Its current period ends at the report date, else at the latest end
 * of a duration it reports.
 */
function labelVotes(filings: FilingInfo[], byAccession: Map<string, Fact[]>): LabelVote[] {
  const votes: LabelVote[] = [];
  for (const filing of filings) {
    const facts = byAccession.get(filing.accession)!;
    const fy = filing.fiscal_year_focus ?? mostCommonFy(facts);
    if (fy === null) continue;
    const end = (filing.source === 'submissions' ? filing.report_date : null) ?? currentPeriodEnd(filing.form, facts);
    if (!end) continue;
    const amended = filing.form.endsWith('/A');
    votes.push({ period_end: end, fiscal_year: fy, weight: isAnnualForm(filing.form) && !amended ? 3 : 1 });
  }
  return votes;
}

/**
 * The end of a periodic report's current period, read from its facts: the latest end of a
 * duration of the report's own kind (a year for annual reports, a quarter or year-to-date for
 * quarterly ones). Comparatives end earlier; cover-page (dei) facts, odd-length durations
 * (subsequent events) and periods ending after the filing date (maturity schedules by future
 * year, which made a Walmart 10-K of 2012 look like a report on fiscal 2013) are not considered.
 */
export function currentPeriodEnd(form: string, facts: readonly Fact[]): string | null {
  const annual = isAnnualForm(form);
  let end: string | null = null;
  for (const f of facts) {
    if (f.start === null || f.taxonomy === 'dei' || f.end > f.filed) continue;
    const cls = durationClass(f.start, f.end);
    if (!cls || (cls === 'year') !== annual) continue;
    if (!end || f.end > end) end = f.end;
  }
  return end;
}

function mostCommonFy(facts: readonly Fact[]): number | null {
  const tally = new Map<number, number>();
  for (const f of facts) if (f.fy !== null) tally.set(f.fy, (tally.get(f.fy) ?? 0) + 1);
  let best: number | null = null;
  let n = 0;
  for (const [fy, count] of tally) if (count > n) [best, n] = [fy, count];
  return best;
}
