import type { FilingInfo } from '../facts.ts';
import type { FiscalPeriod, StatementFigure, StatementType } from '../statement-types.ts';
import { NON_NEGATIVE_METRICS } from '../catalog/traits.ts';
import { isSignSlip, jointTaxWitness, nonNegativeWitness, signWitness, taxIdentityWitness } from '../statements/sign-slips.ts';
import { splitRecastOf, type StockSplit } from '../statements/stock-splits.ts';
import { compareFigures, morePrecise, slippedSide } from '../statements/versions.ts';
import { comparedFigure, movedLine, rememberOffered, takenFrom } from './concept-continuity.ts';
import { statementFigure, type KnownFlow } from './figures.ts';
import { inputsRetold, largerCount, notOnServedYear, onServedYear, revisionOf, unavailableQuarter } from './fold-rules.ts';
import { isDerivedQuarter, mixesBases } from './rebased-quarters.ts';
import { balanceSignWitness, flippedBy, jointWitness, quarterNumber, signOf, yearToDateSignWitness } from './sign-witnesses.ts';
import type { Alternatives, OwnDerivations, Presentation, UnavailableFigure } from './statement-presentation.ts';

/** A metric whose value a later filing changed: what it was, what it became, and both filings. */
export interface FactRevision {
  metric: string;
  old_value: string;
  new_value: string;
  difference: string;
  old_accession: string;
  new_accession: string;
  old_concept: string | null;
  new_concept: string | null;
}

/** A per-share figure or share count a later filing told again on a stock split's new share basis: no revision. */
export interface SplitRecast {
  metric: string;
  old_value: string;
  new_value: string;
  old_accession: string;
  new_accession: string;
  split: StockSplit;
}

/** One version of one statement, exactly as built; a later version never alters it. */
export interface BuiltVersion {
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  version_sequence: number;
  period_start: string | null;
  period_end: string;
  currency: string | null;
  /** the filing whose presentation created this version (visibility follows its filing date) */
  filing: FilingInfo;
  figures: Map<string, StatementFigure>;
  /** empty for version 1 */
  revisions: FactRevision[];
  /** figures this version recast for a stock split (no revisions); empty for version 1 */
  recasts: SplitRecast[];
  /**
   * quarters not served and why (a derivation on two bases, or of a value the line cannot take):
   * carried like figures until a figure for the metric arrives; an entry a filing added over a
   * derived figure withdrew that figure (the version revises nothing)
   */
  unavailable: ReadonlyMap<string, UnavailableFigure>;
}

export function statementKey(p: { statement_type: string; fiscal_year: number; fiscal_period: string }): string {
  return `${p.statement_type}|${p.fiscal_year}|${p.fiscal_period}`;
}

/**
 * A later filing's figure 1,000 or 1,000,000 times off the one on record (kind SCALE), the same
 * figure with the opposite sign where a witness tells which side is right (kind SIGN,
 * domain/statements/sign-slips.ts), a quarter a later filing only derives against one the
 * company reported (kind DERIVED, version rule 10), or a metric moved to another line the filing
 * on record told beside it, unchanged (kind CONCEPT, rule 11): a data-quality finding, never a revision.
 */
export interface ScaleSlip {
  kind: 'SCALE' | 'SIGN' | 'DERIVED' | 'CONCEPT';
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  metric: string;
  /** the version on record when the slip was filed (the finding is attached to it) */
  version_sequence: number;
  previous: StatementFigure;
  filed: StatementFigure;
  accession: string;
  /** true when the earlier value was the slip and the later one replaced it */
  corrects: boolean;
  /** SIGN: the metric whose sign told which side is right; null otherwise */
  witness: string | null;
  /** DERIVED: what the reported figure's own filing derived for the quarter from its year-to-date; null otherwise */
  implied: string | null;
}

/**
 * Fold a filing's presentation into a statement's version list. The first presentation makes
 * version 1. A later one is compared metric by metric with the latest version by the one rule of
 * `domain/statements/versions.ts`: the same figure (at the coarser precision) changes nothing, a
 * scale slip, or a sign slip a witness decides (domain/statements/sign-slips.ts), is recorded in
 * `slips` and changes nothing unless the later value is the right one, so does a derived quarter
 * against a reported one where the reported figure's own filing decides (rule 10: `ownDerivations`,
 * what that filing's year-to-date derived for it), a revised figure makes a version with a
 * fact revision, and a figure no earlier version had, one recast for a stock split the company
 * tagged (`splits`, after the filing of the figure on record, whose date `filedOn` tells by
 * accession, domain/statements/stock-splits.ts), or a metric moved to a line the figure on
 * record's own filing told beside it and the later filing tells alike (rule 11: `offeredWith`),
 * makes a version that revises nothing. A new
 * version carries the new figures and, for metrics the filing does not present, the previous
 * figures with their original provenance; a same figure keeps the more precise text, a slipped
 * one the previous value under the SCALE_SLIP_PREVIOUS_VALUE_KEPT (SIGN_SLIP_PREVIOUS_VALUE_KEPT) override.
 */
export function foldPresentation(versions: BuiltVersion[], p: Presentation, filing: FilingInfo, context: Partial<FoldContext> = {}): BuiltVersion | null {
  const { slips = [], splits = NO_SPLITS, filedOn = NO_DATES, ownDerivations = NO_DERIVATIONS, balanceAt = NOTHING_ON_RECORD, offeredWith = new Map() } = context;
  const { quarterOnRecord = NOTHING_ON_RECORD, yearToDate = NOTHING_ON_RECORD, restoreYearToDate = NO_RESTORE } = context;
  // a fourth quarter is derived from the year as served (its line and its figure), or not served
  const servedYear = p.fiscal_period === 'Q4' ? (metric: string) => quarterOnRecord(p.statement_type, p.fiscal_year, 'FY', metric) : null;
  if (servedYear !== null) p = onServedYear(p, servedYear);
  const latest = versions[versions.length - 1];
  if (!latest) {
    // reasons alone make no statement: a version needs a figure
    if (p.figures.size === 0) return null;
    const v: BuiltVersion = {
      statement_type: p.statement_type,
      fiscal_year: p.fiscal_year,
      fiscal_period: p.fiscal_period,
      version_sequence: 1,
      period_start: p.period_start,
      period_end: p.period_end,
      currency: p.currency,
      filing,
      figures: p.figures,
      revisions: [],
      recasts: [],
      unavailable: p.unavailable ?? NONE_UNAVAILABLE,
    };
    rememberOffered(offeredWith, p, p.figures);
    versions.push(v);
    return v;
  }
  const revisions: FactRevision[] = [];
  const recasts: SplitRecast[] = [];
  // what the new version would change, metric by metric; the map is built only when one is made
  const changes: [string, StatementFigure][] = [];
  let added = false;
  const slipped: ScaleSlip[] = [];
  // several figures of the tax identity flipped by this filing at once: decided together, if at all
  const joint =
    p.statement_type === 'INCOME_STATEMENT'
      ? jointTaxWitness((m) => latest.figures.get(m)?.value, (m) => takenFrom(p, latest, m)?.value, (m) => flippedBy(p, latest, m))
      : null;
  for (const [metric, offered] of p.figures) {
    const before = latest.figures.get(metric);
    if (!before) {
      // a quarter withdrawn earlier comes back: another figure than the one withdrawn is a revision of it
      const gone = latest.unavailable.get(metric)?.withdrawn;
      if (gone != null && compareFigures(gone, offered) === 'REVISED') revisions.push(revisionOf(metric, gone, offered));
      changes.push([metric, offered]);
      added = true;
      continue;
    }
    const figure = comparedFigure(p, metric, before, offered);
    if (figure === undefined) continue;
    const verdict = compareFigures(before, figure);
    if (verdict === 'SAME') {
      // a fourth quarter on record netted from a year no longer served, told again within its
      // inputs' rounding from the year served: the same figure, on the year's current inputs
      if (servedYear !== null && notOnServedYear(before, servedYear(metric)) !== null) {
        changes.push([metric, figure]);
        added = true;
        continue;
      }
      const kept = morePrecise(before, figure);
      if (kept !== before) {
        changes.push([metric, kept]);
        // the same reported figure: what its first filing's year-to-date said of it still holds
        const own = ownDerivations.get(before);
        if (own !== undefined && !ownDerivations.has(kept)) ownDerivations.set(kept, own);
      }
      continue;
    }
    // the metric moved to another line its earlier filing told beside it, unchanged (rule 11):
    // the new line is served, in a version that revises nothing
    if (movedLine(before, figure, offeredWith)) {
      slipped.push(scaleSlip(p, metric, latest.version_sequence, before, figure, filing.accession, true, 'CONCEPT', null, null));
      changes.push([metric, figure]);
      added = true;
      continue;
    }
    // an imputed total against the line the filer reported for the period: our arithmetic never
    // stands where the filer told the figure, unless the filing told every input of it again
    // differently (the line re-told as a whole: Nikola's Q1 2023 revenue, 11,117,000 in its 10-Q,
    // is the 10,677,000 its gross profit and cost of revenue give once both were re-told)
    if (figure.mapping_type === 'DERIVED_IDENTITY' && before.value_origin === 'SOURCE' && !inputsRetold(figure, latest.figures)) continue;
    // a quarter this filing only derives against one the company reported (rule 10): the reported
    // figure's own filing decides whether the difference is a re-basing or a mis-tagged quarter
    const implied = isDerivedQuarter(figure) && before.value_origin === 'SOURCE' ? ownDerivations.get(before) : undefined;
    if (implied !== undefined) {
      // confirmed: the company's quarter agreed with its own year-to-date; the later derivation
      // nets a re-told year-to-date against one told as before (a re-classified nine months
      // against the same year, a mis-dated six months against the same first quarter): two
      // bases, a number nobody reported, so the reported quarter stays. Where every input was
      // told again differently the company re-told the whole year-to-date: a revision, as ever.
      // Not confirmed, and the later year-to-date nets to what the first one did: nothing was
      // restated, the three-month tag was the odd one out and the derived quarter replaces it
      const confirmed = compareFigures(before, implied) === 'SAME';
      const kept = confirmed && mixesBases(implied, figure);
      const corrects = !confirmed && compareFigures(implied, figure) === 'SAME';
      if (kept || corrects) {
        slipped.push(scaleSlip(p, metric, latest.version_sequence, before, figure, filing.accession, corrects, 'DERIVED', null, implied.value));
        if (corrects) {
          changes.push([metric, figure]);
          added = true;
        }
        continue;
      }
    }
    if (verdict === 'SCALE_SLIP') {
      const corrects = before.unit === 'shares' ? largerCount(before, figure) : slippedSide(before, figure, sameUnitValues(latest.figures, metric, before.unit)) === 'BEFORE';
      slipped.push(scaleSlip(p, metric, latest.version_sequence, before, figure, filing.accession, corrects, 'SCALE', null, null));
      if (corrects) {
        // the figure on record was the slip: the later value fits the statement and replaces it,
        // in a version that revises nothing (no alert: nobody restated anything)
        changes.push([metric, figure]);
        added = true;
      } else {
        const kept = statementFigure({ ...figure, value: before.value, correction_rule: 'SCALE_SLIP_PREVIOUS_VALUE_KEPT', as_filed_value: figure.value, as_filed_concept: null, decimals: before.decimals ?? null });
        changes.push([metric, kept]);
      }
      continue;
    }
    // the same figure with the opposite sign: one of the two filings tagged the sign wrong, and a
    // figure whose sign must agree (not flipped by this filing too) tells which; without one it
    // stays a revision below
    const witness = isSignSlip(before, figure)
      ? (signWitness(metric, (m) => takenFrom(p, latest, m), latest.figures, before.value) ??
        balanceSignWitness(metric, before, p, figure, balanceAt) ??
        taxIdentityWitness(metric, before.value, (m) => (takenFrom(p, latest, m) ?? latest.figures.get(m))?.value, (m) => flippedBy(p, latest, m)) ??
        jointWitness(joint, metric, before, figure) ??
        yearToDateSignWitness(p, metric, before, figure, filing.accession, quarterOnRecord, yearToDate) ??
        nonNegativeWitness(NON_NEGATIVE_METRICS.has(metric)))
      : null;
    if (witness !== null) {
      const corrects = signOf(figure.value) === witness.sign;
      // the filing's year-to-date slipped with its quarter: later derivations start from the one on record
      if ('yearToDateSlipped' in witness && witness.yearToDateSlipped) restoreYearToDate(metric, p.fiscal_year, quarterNumber(p.fiscal_period)!, filing.accession);
      slipped.push(scaleSlip(p, metric, latest.version_sequence, before, figure, filing.accession, corrects, 'SIGN', witness.witness, null));
      if (corrects) {
        changes.push([metric, figure]);
        added = true;
      } else {
        changes.push([metric, statementFigure({ ...figure, value: before.value, correction_rule: 'SIGN_SLIP_PREVIOUS_VALUE_KEPT', as_filed_value: figure.value, as_filed_concept: null, decimals: before.decimals ?? null })]);
      }
      continue;
    }
    // the split must fall between the filing that told the figure on record and this one
    const split =
      splits.length === 0
        ? null
        : splitRecastOf(before, figure, splits, { after: filedOn.get(before.source_accession) ?? latest.filing.filing_date, upTo: filing.filing_date });
    if (split !== null) {
      // the same figure on the new share basis: carried, so the series is on one basis, and
      // recorded as a recast, not a revision (nobody restated anything: no alert)
      recasts.push({ metric, old_value: before.value, new_value: figure.value, old_accession: before.source_accession, new_accession: figure.source_accession, split });
      changes.push([metric, figure]);
      added = true;
      continue;
    }
    revisions.push(revisionOf(metric, before, figure));
    changes.push([metric, figure]);
  }
  // quarters this filing could not derive: a fourth quarter on record derived from a year this
  // filing told again differently is withdrawn (it no longer adds up to the year served); otherwise
  // the reason is kept where the version has no figure for the metric
  const withdrawn: string[] = [];
  let reasons: Map<string, UnavailableFigure> | null = null;
  if (servedYear !== null) {
    for (const [metric, before] of latest.figures) {
      if (p.figures.has(metric)) continue;
      const year = servedYear(metric);
      const reason = notOnServedYear(before, year);
      if (reason === null) continue;
      withdrawn.push(metric);
      added = true;
      (reasons ??= new Map()).set(metric, unavailableQuarter(before, reason, year!, filing.accession));
    }
  }
  if (p.unavailable !== undefined) {
    for (const [metric, u] of p.unavailable) {
      if (p.figures.has(metric) || latest.figures.has(metric) || latest.unavailable.get(metric)?.reason === u.reason) continue;
      (reasons ??= new Map()).set(metric, u);
    }
  }
  if (revisions.length === 0 && !added) {
    slips.push(...slipped);
    return null;
  }
  const figures = new Map(latest.figures);
  for (const [metric, figure] of changes) figures.set(metric, figure);
  for (const metric of withdrawn) figures.delete(metric);
  let unavailable = latest.unavailable;
  if (reasons !== null || [...figures.keys()].some((m) => unavailable.has(m))) {
    const next = new Map(unavailable);
    for (const [metric, u] of reasons ?? []) next.set(metric, u);
    for (const metric of figures.keys()) next.delete(metric);
    unavailable = next;
  }
  rememberOffered(offeredWith, p, changes);
  const v: BuiltVersion = {
    statement_type: p.statement_type,
    fiscal_year: p.fiscal_year,
    fiscal_period: p.fiscal_period,
    version_sequence: latest.version_sequence + 1,
    period_start: p.period_start ?? latest.period_start,
    period_end: p.period_end,
    currency: p.currency ?? latest.currency,
    filing,
    figures,
    revisions,
    recasts,
    unavailable,
  };
  for (const s of slipped) slips.push(scaleSlip(s, s.metric, v.version_sequence, s.previous, s.filed, s.accession, s.corrects, s.kind, s.witness, s.implied));
  versions.push(v);
  return v;
}

/** What folding knows beside the statement's own versions, and where it records its findings. */
export interface FoldContext {
  /** scale, sign and derived-quarter findings (ScaleSlip), appended */
  slips: ScaleSlip[];
  /** the stock splits the company tagged, and those its filings' figures showed (stock-splits.ts evidentSplit) */
  splits: readonly StockSplit[];
  /** filing dates by accession: when the figure a later filing recasts was filed */
  filedOn: ReadonlyMap<string, string>;
  /** what each reported quarter's own filing derived for it (rule 10) */
  ownDerivations: OwnDerivations;
  /** a balance-sheet figure at a date (within a week) as the statements stand, for the working-capital sign witness */
  balanceAt: (metric: string, date: string) => string | undefined;
  /**
   * the candidates a figure's own filing offered for its metric and period (rule 11), filled as
   * presentations are folded: a Map, not a WeakMap, as it lives only while one company's history
   * is built (ephemeron tables cost the collector more)
   */
  offeredWith: Map<StatementFigure, Alternatives>;
  /** a figure of a statement as folded so far (its latest version), for the year-to-date sign witness */
  quarterOnRecord: (type: StatementType, fiscalYear: number, period: FiscalPeriod, metric: string) => StatementFigure | undefined;
  /** the latest known year-to-date flow through a quarter (4: the year), as presentations left it */
  yearToDate: (metric: string, fiscalYear: number, quarter: number) => KnownFlow | undefined;
  /** takes back a year-to-date a filing told with the opposite sign of the one before it (FlowStore.restore) */
  restoreYearToDate: (metric: string, fiscalYear: number, quarter: number, accession: string) => boolean;
}

const NO_SPLITS: readonly StockSplit[] = [];
const NONE_UNAVAILABLE: ReadonlyMap<string, UnavailableFigure> = new Map();


const NO_DATES: ReadonlyMap<string, string> = new Map();
const NO_DERIVATIONS: OwnDerivations = new WeakMap();
/** the default of every lookup of the fold context (balances, quarters, year-to-dates): nothing on record */
const NOTHING_ON_RECORD = (): undefined => undefined;
const NO_RESTORE = (): boolean => false;

/** the other figures of a version in one unit: the typical size a scale slip is judged against */
function sameUnitValues(figures: ReadonlyMap<string, StatementFigure>, except: string, unit: string): string[] {
  const out: string[] = [];
  for (const [metric, f] of figures) if (metric !== except && f.unit === unit && f.correction_rule === null) out.push(f.value);
  return out;
}

/** every ScaleSlip is made here, so slips have one shape (a spread copy would make another map) */
function scaleSlip(
  at: Pick<ScaleSlip, 'statement_type' | 'fiscal_year' | 'fiscal_period'>,
  metric: string,
  versionSequence: number,
  previous: StatementFigure,
  filed: StatementFigure,
  accession: string,
  corrects: boolean,
  kind: ScaleSlip['kind'],
  witness: string | null,
  implied: string | null,
): ScaleSlip {
  return {
    kind,
    statement_type: at.statement_type,
    fiscal_year: at.fiscal_year,
    fiscal_period: at.fiscal_period,
    metric,
    version_sequence: versionSequence,
    previous,
    filed,
    accession,
    corrects,
    witness,
    implied,
  };
}
