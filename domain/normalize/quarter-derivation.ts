import type { StatementType } from '../catalog/types.ts';
import { isNegative, leadingPlace, sub } from '../decimal.ts';
import { addDays, daysBetween } from '../dates.ts';
import type { StatementFigure } from '../statement-types.ts';
import { START_TOLERANCE_DAYS, type FlowPeriod } from './filing-periods.ts';
import { derivedFigure, sourceFigure, stepOf, type KnownFlow } from './figures.ts';
import { Q4_MARK, type FlowStore } from './flow-store.ts';
import type { CatalogView } from './catalog-view.ts';
import { emptyPresentation, periodName, unitOf, type Chooser, type Presentation } from './statement-presentation.ts';

/** how much older than the later year-to-date the earlier one may be to derive a quarter from both */
const YTD_REACH_DAYS = 400;

/**
 * Year-to-date flows of quarters q and q-1 under one concept, from what the filings that told them
 * told (FlowStore.under), that net to zero or more; null where there are none.
 */
function sameConceptPair(store: FlowStore, metric: string, fy: number, q: number, through: KnownFlow, before: KnownFlow): [KnownFlow, KnownFlow] | null {
  const earlier = store.under(metric, fy, q - 1, through.source_xbrl_concept);
  if (earlier !== undefined && !isNegative(sub(through.value, earlier.value))) return [through, earlier];
  const later = store.under(metric, fy, q, before.source_xbrl_concept);
  if (later !== undefined && !isNegative(sub(later.value, before.value))) return [later, before];
  return null;
}

/** one value below zero and the other above; read from the text (this runs for every derived never-negative figure; leadingPlace is null for zero) */
function oppositeSigns(a: string, b: string): boolean {
  const aNegative = a.charCodeAt(0) === 45; /* - */
  if (aNegative === (b.charCodeAt(0) === 45)) return false;
  return leadingPlace(a) !== null && leadingPlace(b) !== null;
}

/**
 * Discrete quarter q = year-to-date(q) - year-to-date(q-1); the fourth quarter = full year minus
 * nine months. Only additive money flows are derived: per-share figures and share counts are not.
 */
export function deriveQuarter(
  type: StatementType,
  cumulative: FlowPeriod,
  q: number,
  catalog: CatalogView,
  store: FlowStore,
  currency: string | null,
  accession: string,
  told: ReadonlyMap<string, FlowPeriod> | null = null,
  choose?: Chooser,
): Presentation | null {
  const fy = cumulative.pos.fiscal_year;
  // the three quarters this very filing tells (a Q4 from an annual report): looked up here, not
  // passed as an array, whose element kind varied with how it was made (Array.prototype.map in
  // the interpreter or inlined in optimized code) and deoptimized this function on each new one
  const told1 = choose && told ? told.get(`${fy}|1`) : undefined;
  const told2 = told1 ? told!.get(`${fy}|2`) : undefined;
  const told3 = told2 ? told!.get(`${fy}|3`) : undefined;
  let start: string | null = null;
  const p = emptyPresentation(type, fy, q === 4 ? 'Q4' : periodName(q), null, cumulative.end, currency);
  for (const [metric, yearList] of cumulative.metrics) {
    const m = catalog.byName.get(metric)!;
    if (m.statement_type !== type || m.unit_type !== 'currency') continue;
    // the year minus the three quarters this very filing tells (restated or not): the latest quarters
    const l1 = told1?.metrics.get(metric);
    const l2 = l1 !== undefined ? told2?.metrics.get(metric) : undefined;
    const l3 = l2 !== undefined ? told3?.metrics.get(metric) : undefined;
    if (l3 !== undefined) {
      const unit = unitOf(m, currency);
      const year = sourceFigure(choose!(yearList, type).candidate, unit);
      const parts: StatementFigure[] = [
        sourceFigure(choose!(l1!, type).candidate, unit),
        sourceFigure(choose!(l2!, type).candidate, unit),
        sourceFigure(choose!(l3, type).candidate, unit),
      ];
      const value = sub(sub(sub(year.value, parts[0]!.value), parts[1]!.value), parts[2]!.value);
      const from = addDays(parts[2]!.period_end, 1);
      start ??= from;
      store.set(metric, fy, Q4_MARK, year);
      p.figures.set(
        metric,
        derivedFigure(metric, value, year.unit, { start: from, end: year.period_end }, accession, 'DERIVED_Q4', [
          stepOf('base', year),
          ...parts.map((f) => stepOf('subtract', f)),
        ]),
      );
      continue;
    }
    let through = store.get(metric, fy, q);
    let before = store.get(metric, fy, q - 1);
    if (!through || !before) continue;
    if (through.source_xbrl_concept !== before.source_xbrl_concept && m.traits.non_negative && isNegative(sub(through.value, before.value))) {
      // two concepts netting below zero for a metric that cannot be negative: two lines (rule 11).
      // Like with like where a filing told it, the earlier year-to-date under the later one's
      // concept or the later one under the earlier one's; else not derived
      const pair = sameConceptPair(store, metric, fy, q, through, before);
      if (pair === null) continue;
      through = pair[0];
      before = pair[1];
    }
    // a metric that cannot be negative, told with both signs: one of the two is a sign slip, and
    // netting them makes a quarter of neither's size
    if (m.traits.non_negative && oppositeSigns(through.value, before.value)) continue;
    // a year re-told years later (a restated third-year comparative) is not netted against a
    // year-to-date nobody re-told with it: mixed bases make a number no filer reported
    if (through.filed && before.filed && daysBetween(before.filed, through.filed) > YTD_REACH_DAYS) continue;
    if (through.period_start !== null && before.period_start !== null && Math.abs(daysBetween(through.period_start, before.period_start)) > START_TOLERANCE_DAYS) continue;
    const from = addDays(before.period_end, 1);
    start ??= from;
    // remembered (slot Q4_MARK), so a later comparative does not re-derive it
    if (q === 4) store.set(metric, fy, Q4_MARK, through);
    p.figures.set(
      metric,
      derivedFigure(
        metric,
        sub(through.value, before.value),
        through.unit,
        { start: from, end: through.period_end },
        accession,
        q === 4 ? 'DERIVED_Q4' : 'DERIVED_DISCRETE_QUARTER',
        [stepOf('base', through), stepOf('subtract', before)],
      ),
    );
  }
  p.period_start = start;
  return p.figures.size > 0 ? p : null;
}
