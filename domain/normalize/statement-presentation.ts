import type { CanonicalMetric, StatementType } from '../catalog/types.ts';
import type { CalculationStep, FiscalPeriod, SelectionRule, StatementFigure } from '../statement-types.ts';
import type { Candidate } from './candidates.ts';
import type { CatalogView } from './catalog-view.ts';
import { sourceFigure } from './figures.ts';

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
  /** for a partial presentation, the concepts its filing tagged (FilingConcepts): whether a line under another concept is the line re-tagged */
  concepts?: FilingConcepts;
  /** quarters the filing's figures could not derive on one basis, or only as a value the line cannot take: not served, and why */
  unavailable?: Map<string, UnavailableFigure>;
}

/**
 * Why a quarter derived from year-to-date figures is not served:
 * - YEAR_RETOLD_WITHOUT_NINE_MONTHS: the year was told again (restated) by a filing more than 400
 *   days after the latest nine months, which nobody re-told on its basis: the year less those nine
 *   months would mix two bases, and a fourth quarter derived from the year as first told no longer
 *   adds up to the year served;
 * - OTHER_LINE_THAN_SERVED_YEAR: the year-to-date figures a fourth quarter would be derived from
 *   are another line (another concept) than the year as served (kept by concept continuity, or
 *   the correction's line);
 * - NEGATIVE_DERIVATION: the year-to-date figures net below zero for a line that is never negative
 *   (a re-classification between two tellings, not a quarter anyone reported).
 */
export const UNAVAILABLE_REASONS = ['YEAR_RETOLD_WITHOUT_NINE_MONTHS', 'OTHER_LINE_THAN_SERVED_YEAR', 'NEGATIVE_DERIVATION'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** A figure a statement does not serve, why, and the inputs that were weighed (as calculation steps). */
export interface UnavailableFigure {
  metric: string;
  reason: UnavailableReason;
  /** what the derivation would have given; null where it was not computed */
  value: string | null;
  calculation_steps: CalculationStep[];
  /** the filing whose figures left the quarter unavailable */
  source_accession: string;
  /** the figure a version served before and withdrew for this reason; null where none was served */
  withdrawn: StatementFigure | null;
}

/** The concepts one filing tagged: for any period, and for a full year (the lines of its statements). */
export interface FilingConcepts {
  any: ReadonlySet<string>;
  years: ReadonlySet<string>;
}

/** Every candidate a filing tagged for one metric and period, and whether its own presentation linkbase puts a concept on the statement. */
export interface Alternatives {
  list: readonly Candidate[];
  presented: (concept: string) => boolean;
}

/** the fiscal period a position's quarter names: FY for the fourth (a year end), else Q1-Q3 */
export function periodName(quarter: number): FiscalPeriod {
  return quarter === 4 ? 'FY' : (`Q${quarter}` as FiscalPeriod);
}

/** the unit a metric's figures carry in a filing of `currency`: the currency, per share of it, or shares */
export function unitOf(m: CanonicalMetric, currency: string | null): string {
  return m.unit_type === 'currency' ? currency ?? 'USD' : m.unit_type === 'per_share' ? `${currency ?? 'USD'}/shares` : 'shares';
}

/** Chooses a metric's candidate for a statement, and tells whether the filing's own presentation shows a concept there. */
export type Chooser = ((list: readonly Candidate[], type: StatementType) => { candidate: Candidate; rule: SelectionRule }) & {
  presented?: (concept: string, type: StatementType) => boolean;
};

/**
 * For a quarter's figure the filing reports (SOURCE), what the same filing's year-to-date figures
 * derive for that quarter, where they derive it: whether a company's three-month figure agreed
 * with its own year-to-date is what tells a later filing's derivation of the quarter from a
 * re-basing (version rule 10, domain/normalize/versions.ts). Keyed by the figure itself, which
 * versions carry unchanged until a filing changes it.
 */
export type OwnDerivations = WeakMap<StatementFigure, StatementFigure>;

/** a presentation of no figures yet, in the one shape every presentation has */
export function emptyPresentation(
  type: StatementType,
  fiscalYear: number,
  fp: FiscalPeriod,
  start: string | null,
  end: string,
  currency: string | null,
): Presentation {
  // alternatives and partial are set on some presentations later: present from the start on all,
  // so every presentation foldPresentation reads has one shape (each added field made another map)
  return { statement_type: type, fiscal_year: fiscalYear, fiscal_period: fp, period_start: start, period_end: end, currency, figures: new Map(), alternatives: undefined, partial: false, concepts: undefined, unavailable: undefined };
}

/** the presentation of one statement of a period: each metric of `type` among `metrics`, from the candidate `choose` picks */
export function present(
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
