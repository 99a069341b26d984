import { equalAtReportedPrecision, sub } from '../decimal.ts';
import type { FilingInfo } from '../facts.ts';
import type { FiscalPeriod, StatementFigure, StatementType } from '../statement-types.ts';
import type { Presentation } from './presentations.ts';

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
}

export function statementKey(p: { statement_type: string; fiscal_year: number; fiscal_period: string }): string {
  return `${p.statement_type}|${p.fiscal_year}|${p.fiscal_period}`;
}

/**
 * Fold a filing's presentation into a statement's version list. The first presentation makes
 * version 1. A later one adds a version only when a value it presents differs from the latest
 * version's value for that metric; the new version carries the new figures and, for metrics it
 * does not present, the previous figures with their original provenance. Equal values add
 * nothing, so re-presenting a period in the next report's comparative columns is silent; so does
 * the same figure told at another precision (95799932 in dollars, 95800000 in thousands).
 * A metric the latest version lacks does not by itself make a version (it is not a restatement),
 * but rides along when a version is made.
 */
export function foldPresentation(versions: BuiltVersion[], p: Presentation, filing: FilingInfo): BuiltVersion | null {
  const latest = versions[versions.length - 1];
  if (!latest) {
    const v: BuiltVersion = { ...identityOf(p), version_sequence: 1, period_start: p.period_start, period_end: p.period_end, currency: p.currency, filing, figures: p.figures, revisions: [] };
    versions.push(v);
    return v;
  }
  const revisions: FactRevision[] = [];
  for (const [metric, figure] of p.figures) {
    const before = latest.figures.get(metric);
    if (!before || equalAtReportedPrecision(before.value, figure.value)) continue;
    revisions.push({
      metric,
      old_value: before.value,
      new_value: figure.value,
      difference: sub(figure.value, before.value),
      old_accession: before.source_accession,
      new_accession: figure.source_accession,
      old_concept: before.source_xbrl_concept,
      new_concept: figure.source_xbrl_concept,
    });
  }
  if (revisions.length === 0) return null;
  const figures = new Map(latest.figures);
  for (const [metric, figure] of p.figures) {
    const before = latest.figures.get(metric);
    // a figure merely re-told at another precision keeps its original value and provenance
    if (before && equalAtReportedPrecision(before.value, figure.value)) continue;
    figures.set(metric, figure);
  }
  const v: BuiltVersion = {
    ...identityOf(p),
    version_sequence: latest.version_sequence + 1,
    period_start: p.period_start ?? latest.period_start,
    period_end: p.period_end,
    currency: p.currency ?? latest.currency,
    filing,
    figures,
    revisions,
  };
  versions.push(v);
  return v;
}

function identityOf(p: Presentation) {
  return { statement_type: p.statement_type, fiscal_year: p.fiscal_year, fiscal_period: p.fiscal_period };
}
