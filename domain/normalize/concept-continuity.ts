/**
 * Which line a later filing's figure for a metric is: the concept the period keeps (concept
 * continuity), the old line re-tagged, or another line the metric moved to (rule 11).
 */
import { dec } from '../decimal.ts';
import { sameFigure } from '../statements/versions.ts';
import type { StatementFigure } from '../statement-types.ts';
import { sourceFigure } from './figures.ts';
import type { Candidate } from './candidates.ts';
import type { Alternatives, Presentation } from './statement-presentation.ts';
import type { BuiltVersion, FoldContext } from './versions.ts';

/**
 * Concept continuity: the figure a filing offers for a metric, unless the period already has
 * another concept that the filing still reports. Then the period keeps its concept
 * (CONCEPT_CONTINUITY) unless the filing's own presentation linkbase puts the new concept, and not
 * the old one, on the statement face (evidence beats continuity). A filer that stopped reporting
 * the old concept re-tagged: the new concept moves in. A concept a correction chose, on either
 * side (`as_filed_concept` set), holds nothing: the correction's identity decides the line.
 */
export function continuedFigure(before: StatementFigure, offered: StatementFigure, alternatives: Alternatives | undefined): StatementFigure {
  if (before.value_origin !== 'SOURCE' || offered.value_origin !== 'SOURCE') return offered;
  if (before.source_xbrl_concept === offered.source_xbrl_concept || before.source_xbrl_concept === null) return offered;
  // a concept a correction chose (the filing's own gross profit showed its tagged top line to be
  // another line) is no line the filer kept, and a correction the later filing's own figures
  // prove is not undone by going back to the line on record (Under Armour swapped its total and
  // product revenue tags in 2016 and put them back in 2017)
  if (before.as_filed_concept !== null || offered.as_filed_concept !== null) return offered;
  if (alternatives === undefined) return offered;
  const old = alternatives.list.find((c) => c.concept === before.source_xbrl_concept);
  if (!old) return retaggedFigure(before, offered, alternatives);
  if (offered.selection_rule === 'PRESENTATION_LINKBASE' && !alternatives.presented(old.concept)) return offered;
  const moved = movedToWiderTag(before, old, alternatives);
  if (moved !== null) return sourceFigure(moved, offered.unit, 'CONCEPT_RETAGGED');
  return sourceFigure(old, offered.unit, 'CONCEPT_CONTINUITY');
}

/**
 * The concept on record now tells another figure, while a candidate the catalog ranks before it (a
 * wider line) tells the figure on record: the filer moved the line to that tag and uses the old one
 * for a part of it (Herc's 10-K of 2024 told its 2021 total revenue of 2,073.1M under Revenues and
 * 273M of it under the contract-revenue concept its 10-K of 2022 had used for the total). The line
 * keeps its figure under the new tag; continuity would have read the part. A part is at most half
 * the figure on record: a tag telling a figure of about the same size re-told the line (Walmart's
 * fiscal 2012 depreciation, 8,130M then 8,106M), a revision as ever.
 */
function movedToWiderTag(before: StatementFigure, old: Candidate, alternatives: Alternatives): Candidate | null {
  // a part: at most half the figure on record (a re-told total of the same size is a restatement)
  if (dec(old.value).abs().times(2).greaterThan(dec(before.value).abs())) return null;
  for (const c of alternatives.list) {
    if (c.rank < old.rank && sameFigure(before, { value: c.value, decimals: c.fact.decimals ?? null })) return c;
  }
  return null;
}

/**
 * The filer stopped reporting the period's concept: where another candidate of the filing tells
 * the same figure as the one on record, that candidate is the old line re-tagged (rule 11), and
 * not the catalog's first choice, which may be another line: CONCEPT_RETAGGED.
 */
function retaggedFigure(before: StatementFigure, offered: StatementFigure, alternatives: Alternatives): StatementFigure {
  if (sameFigure(before, offered)) return offered;
  for (const c of alternatives.list) {
    if (c.concept === offered.source_xbrl_concept) continue;
    const f = sourceFigure(c, offered.unit, 'CONCEPT_RETAGGED');
    if (sameFigure(before, f)) return f;
  }
  return offered;
}

/**
 * What folding compares with the figure on record (`before`) for a metric the presentation
 * offers: the offered figure after concept continuity, or undefined where a quarterly table's line
 * under another concept is another line, not this metric re-tagged.
 */
export function comparedFigure(p: Presentation, metric: string, before: StatementFigure, offered: StatementFigure): StatementFigure | undefined {
  const figure = continuedFigure(before, offered, p.alternatives?.get(metric));
  if (p.partial && figure.value_origin === 'SOURCE' && before.value_origin === 'SOURCE' && figure.source_xbrl_concept !== before.source_xbrl_concept && !retagged(p, before, figure)) return undefined;
  return figure;
}

/**
 * A quarterly table's line under another concept is the line on record re-tagged, not another
 * line, where the filing tags the concept on record for no period at all (the filer retired the
 * tag) and tags the new one for a full year (its statements carry the line under it): Kraft Heinz's
 * 10-K of 2019 re-told its 2017 quarters' cost of revenue under CostOfGoodsAndServicesSold, the tag
 * its reports had used since November 2018 in place of CostOfGoodsSold.
 */
function retagged(p: Presentation, before: StatementFigure, figure: StatementFigure): boolean {
  const told = p.concepts;
  return told !== undefined && !told.any.has(before.source_xbrl_concept!) && told.years.has(figure.source_xbrl_concept!);
}

/**
 * Notes, for the figures a version takes from a presentation, the other lines their filing told
 * for the metric and period (rule 11 reads them once a figure is on record): only where another
 * candidate has another value, the one case movedLine can use, so few presentations stay alive.
 */
export function rememberOffered(offeredWith: FoldContext['offeredWith'], p: Presentation, taken: Iterable<[string, StatementFigure]>): void {
  if (p.alternatives === undefined) return;
  for (const [metric, figure] of taken) {
    const alternatives = p.alternatives.get(metric);
    if (alternatives !== undefined && alternatives.list.some((c) => c.value !== figure.value)) offeredWith.set(figure, alternatives);
  }
}

/**
 * Rule 11: the filing no longer reports the concept of the figure on record, and the metric moves
 * to another candidate (concept continuity) whose figure the figure on record's own filing told
 * beside it, as another line (another value; under this concept, or under another candidate the
 * line was tagged with then). Nothing was restated: the metric moved from one line to another,
 * both told as before.
 */
export function movedLine(before: StatementFigure, figure: StatementFigure, offeredWith: FoldContext['offeredWith']): boolean {
  if (figure.value_origin !== 'SOURCE' || before.value_origin !== 'SOURCE' || figure.source_xbrl_concept === before.source_xbrl_concept) return false;
  const told = offeredWith.get(before)?.list;
  if (told === undefined) return false;
  // `figure` is not the same figure as `before` (folding compared them first), so a line told at
  // its figure then was another line than the one on record
  for (const c of told) if (c.concept !== before.source_xbrl_concept && sameFigure({ value: c.value, decimals: c.fact.decimals ?? null }, figure)) return true;
  return false;
}

/** The figure a presentation offers for `metric` as folding would take it (see comparedFigure), else undefined. */
export function takenFrom(p: Presentation, latest: BuiltVersion, metric: string): StatementFigure | undefined {
  const offered = p.figures.get(metric);
  const before = latest.figures.get(metric);
  return offered && before ? comparedFigure(p, metric, before, offered) : offered;
}
