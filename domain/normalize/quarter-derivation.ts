import type { StatementType } from '../catalog/types.ts';
import { isNegative, leadingPlace, sub } from '../decimal.ts';
import { addDays, daysBetween } from '../dates.ts';
import type { StatementFigure } from '../statement-types.ts';
import { START_TOLERANCE_DAYS, type FlowPeriod } from './filing-periods.ts';
import { derivedFigure, sourceFigure, stepOf, type KnownFlow } from './figures.ts';
import { Q4_MARK, type FlowStore } from './flow-store.ts';
import type { CatalogView } from './catalog-view.ts';
import { emptyPresentation, periodName, unitOf, type Chooser, type Presentation, type UnavailableReason } from './statement-presentation.ts';

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

/**
 * Whether a year and the nine months it is netted against are on one basis. A year told as first
 * reported pairs with the latest nine months. A year told again as another figure (restated) pairs
 * only with nine months whose own figure was told anew (restated too) after the year's previous
 * figure began, by the filing that re-told the year or before it (or told anew after it: Apple's
 * 10-Q of 2010 re-told the nine months of fiscal 2009 its 10-K/A had restated the year of): the
 * fourth quarter is then the restated year less the restated nine months. Nine months last told before that (Home Depot's fiscal 2018,
 * whose 10-K of 2021 re-told the year's operating cash flow as 13,165M where its nine months stayed
 * as its 10-Qs of 2018 and 2019 told them), or a year re-told once more after the nine months were
 * (Kraft Heinz's 2017, re-told by its 10-Ks of 2019 and 2020), would net two bases.
 */
function pairedBasis(year: KnownFlow, nine: KnownFlow): boolean {
  if (year.prevSince === null || year.prevSince === undefined || year.since === undefined) return true;
  const since = nine.since ?? nine.filed;
  if (since === undefined) return true;
  return year.prevSince < since && (since <= year.since || nine.prevSince !== null);
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
    // like with like: the three quarters under the concept the year is served under (the year as
    // this filing's corrections left it, FlowStore slot 4), else the year less the nine months
    const yearConcept = l3 === undefined ? null : (store.get(metric, fy, 4)?.source_xbrl_concept ?? choose!(yearList, type).candidate.concept);
    const c1 = yearConcept === null ? undefined : l1!.find((c) => c.concept === yearConcept);
    const c2 = c1 === undefined ? undefined : l2!.find((c) => c.concept === yearConcept);
    const c3 = c2 === undefined ? undefined : l3!.find((c) => c.concept === yearConcept);
    const cy = c3 === undefined ? undefined : yearList.find((c) => c.concept === yearConcept);
    if (cy !== undefined) {
      const unit = unitOf(m, currency);
      const year = sourceFigure(cy, unit);
      const parts: StatementFigure[] = [sourceFigure(c1!, unit), sourceFigure(c2!, unit), sourceFigure(c3!, unit)];
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
    if (through.source_xbrl_concept !== before.source_xbrl_concept) {
      // two concepts: the earlier year-to-date under the later one's concept where its filing told
      // that too (the line the later figure is served under; netted with another line it makes a
      // number nobody reported). Where it did not, the filer re-tagged one line and the two stand,
      // unless they net below zero for a metric that cannot be negative: two lines after all
      // (rule 11), derived under one concept where either filing told it, else not at all
      const earlier = store.under(metric, fy, q - 1, through.source_xbrl_concept);
      if (earlier !== undefined && (!m.traits.non_negative || !isNegative(sub(through.value, earlier.value)))) before = earlier;
      else if (m.traits.non_negative && isNegative(sub(through.value, before.value))) {
        const pair = sameConceptPair(store, metric, fy, q, through, before);
        if (pair === null) {
          unavailable(p, metric, 'NEGATIVE_DERIVATION', sub(through.value, before.value), through, before, accession);
          continue;
        }
        through = pair[0];
        before = pair[1];
      }
    }
    // a metric that cannot be negative, told with both signs: one of the two is a sign slip, and
    // netting them makes a quarter of neither's size
    if (m.traits.non_negative && oppositeSigns(through.value, before.value)) continue;
    // a year re-told years later (a restated third-year comparative), or re-told without nine months
    // on its basis, is not netted against a year-to-date nobody re-told with it: mixed bases make a
    // number no filer reported
    if ((through.filed && before.filed && daysBetween(before.filed, through.filed) > YTD_REACH_DAYS) || (q === 4 && !pairedBasis(through, before))) {
      if (q === 4) unavailable(p, metric, 'YEAR_RETOLD_WITHOUT_NINE_MONTHS', null, through, before, accession);
      continue;
    }
    if (through.period_start !== null && before.period_start !== null && Math.abs(daysBetween(through.period_start, before.period_start)) > START_TOLERANCE_DAYS) continue;
    // a year-to-date that shrank for a line that is never negative: the two tellings classify the
    // line differently, and the difference is no quarter anyone reported
    if (m.traits.non_negative && isNegative(sub(through.value, before.value))) {
      unavailable(p, metric, 'NEGATIVE_DERIVATION', sub(through.value, before.value), through, before, accession);
      continue;
    }
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
  return p.figures.size > 0 || p.unavailable !== undefined ? p : null;
}

/** records on the derived presentation why `metric`'s quarter is not served, with the two year-to-date figures weighed */
function unavailable(p: Presentation, metric: string, reason: UnavailableReason, value: string | null, through: KnownFlow, before: KnownFlow, accession: string): void {
  (p.unavailable ??= new Map()).set(metric, { metric, reason, value, calculation_steps: [stepOf('base', through), stepOf('subtract', before)], source_accession: accession, withdrawn: null });
}
