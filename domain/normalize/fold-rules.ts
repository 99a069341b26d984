/**
 * Rules folding applies to one figure against the statement on record: a fourth quarter derived
 * from the year as served (or withdrawn), an imputed total against the line the filer reported,
 * and which side of a share count told a thousandfold apart is the count.
 */
import { dec, sub } from '../decimal.ts';
import type { StatementFigure } from '../statement-types.ts';
import { compareFigures } from '../statements/versions.ts';
import { stepOf } from './figures.ts';
import type { Presentation, UnavailableFigure, UnavailableReason } from './statement-presentation.ts';
import type { FactRevision } from './versions.ts';

/**
 * Why a fourth quarter derived from the year is not on the year as served: its base is another
 * line (OTHER_LINE_THAN_SERVED_YEAR: the year's served concept is not the one the derivation
 * netted, Walmart's fiscal 2012 depreciation kept under DepreciationAndAmortization while its 10-K
 * of 2014 told the year's DepreciationDepletionAndAmortization) or another figure of it
 * (YEAR_RETOLD_WITHOUT_NINE_MONTHS: the year was told again, Home Depot's fiscal 2018 operating
 * cash flow, 13,038M then 13,165M). Null for any other figure, and where the quarter is on it: its
 * base is the year's figure, under whichever tag (Herc's 2010 operating cash flow, the same
 * 2,208,679,000 re-tagged as continuing operations by its 10-K of 2012).
 */
export function notOnServedYear(f: StatementFigure, year: StatementFigure | undefined): UnavailableReason | null {
  if (f.mapping_type !== 'DERIVED_Q4' || f.value_origin !== 'DERIVED' || year === undefined) return null;
  const base = f.calculation_steps?.[0];
  if (base === undefined || base.period_end !== year.period_end) return null;
  // the same figure is the year served, whatever tag told it (a re-tag of the line)
  if (compareFigures(base, year) === 'SAME' || (year.as_filed_value !== null && compareFigures(base, { value: year.as_filed_value }) === 'SAME')) return null;
  // an imputed year (gross profit plus cost of revenue) has no tag: another figure of it is the year told again
  if (year.value_origin === 'SOURCE' && base.source_xbrl_concept !== year.source_xbrl_concept && base.source_xbrl_concept !== year.as_filed_concept) return 'OTHER_LINE_THAN_SERVED_YEAR';
  return 'YEAR_RETOLD_WITHOUT_NINE_MONTHS';
}

/** why a derived fourth quarter is not served: the year it would have to be netted from, and what it netted */
export function unavailableQuarter(f: StatementFigure, reason: UnavailableReason, year: StatementFigure, accession: string): UnavailableFigure {
  return { metric: f.metric, reason, value: null, calculation_steps: [stepOf('base', year), ...(f.calculation_steps ?? []).slice(1)], source_accession: accession, withdrawn: f };
}

/** a fourth quarter's presentation without the derived figures that are not on the year as served, their reasons noted instead */
export function onServedYear(p: Presentation, servedYear: (metric: string) => StatementFigure | undefined): Presentation {
  let figures: Map<string, StatementFigure> | null = null;
  let unavailable: Map<string, UnavailableFigure> | null = null;
  for (const [metric, f] of p.figures) {
    const year = servedYear(metric);
    const reason = notOnServedYear(f, year);
    if (reason === null) continue;
    (figures ??= new Map(p.figures)).delete(metric);
    (unavailable ??= new Map(p.unavailable ?? [])).set(metric, { metric, reason, value: f.value, calculation_steps: f.calculation_steps ?? [], source_accession: f.source_accession, withdrawn: null });
  }
  return figures === null ? p : { ...p, figures, unavailable: unavailable! };
}

/** every input of a derived figure is on record as another figure than the one it was derived from */
export function inputsRetold(figure: StatementFigure, onRecord: ReadonlyMap<string, StatementFigure>): boolean {
  for (const step of figure.calculation_steps ?? []) {
    const known = onRecord.get(step.metric);
    if (known === undefined || compareFigures(known, step) === 'SAME') return false;
  }
  return true;
}

/**
 * Of a share count told a thousand or a million times apart, the larger is the count: a filer
 * writes its share table in thousands or millions, and the slip is that figure tagged as units
 * (NVIDIA's fiscal 2010 weighted shares, 549,574 in its 10-Ks of 2010 and 2011, 549,574,000 in that of 2012;
 * McDonald's 741,300,000 diluted shares re-tagged as 741.3 by a later 10-K). Every share figure of
 * such a statement slipped alike, so the statement's other figures cannot tell which side is right.
 */
export function largerCount(before: StatementFigure, filed: StatementFigure): boolean {
  return dec(filed.value).abs().greaterThan(dec(before.value).abs());
}

/** A fact revision of `metric` from the figure on record to the later one. */
export function revisionOf(metric: string, before: StatementFigure, figure: StatementFigure): FactRevision {
  return {
    metric,
    old_value: before.value,
    new_value: figure.value,
    difference: sub(figure.value, before.value),
    old_accession: before.source_accession,
    new_accession: figure.source_accession,
    old_concept: before.source_xbrl_concept,
    new_concept: figure.source_xbrl_concept,
  };
}
