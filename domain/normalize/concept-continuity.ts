/**
 * Which line a later filing's figure for a metric is: the concept the period keeps (concept
 * continuity), the old line re-tagged, or another line the metric moved to (rule 11).
 */
import { sameFigure } from '../statements/versions.ts';
import type { StatementFigure } from '../statement-types.ts';
import { sourceFigure } from './figures.ts';
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
  return sourceFigure(old, offered.unit, 'CONCEPT_CONTINUITY');
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
  if (p.partial && figure.value_origin === 'SOURCE' && before.value_origin === 'SOURCE' && figure.source_xbrl_concept !== before.source_xbrl_concept) return undefined;
  return figure;
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
