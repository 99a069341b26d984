import { canonicalMetric } from '../../domain/catalog/index.ts';
import { quarterCoherence, type PeriodVersion } from '../../domain/statements/coherence.ts';
import { dec } from '../../domain/decimal.ts';
import type { Fact } from '../../domain/facts.ts';
import { precisionUnit, roundingSlack, sameFigure } from '../../domain/statements/versions.ts';
import type { StoredFigure } from '../../db/figure-storage.ts';
import { sameMagnitude, type Corpus } from './fidelity-measures.ts';

/**
 * Whether served quarters add up to their served year, and whether served figures are ones a
 * filer told: measured on an ingested corpus (latest versions) against the filers' own facts.
 * Used by test/series-coherence-corpus.test.ts and printed by `tsx test/helpers/fidelity-report.ts`.
 */

const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
const PERIODIC = /^(10-K|10-Q|10-KT|10-QT|20-F|40-F)(\/A)?$/;
const ANNUAL = /^(10-K|10-KT|20-F|40-F)(\/A)?$/;
/** corrections within the figure's own filing, whose tag holds `as_filed_value` */
const IN_FILING_CORRECTIONS = new Set(['COST_OF_REVENUE_CREDIT_SIGN', 'NET_CHANGE_IN_CASH_FX_EFFECT_ADDED', 'TOTAL_EQUITY_COMPONENT_REPLACED']);

/** money flows of the income and cash-flow statements: what four quarters add up to a year of */
export function isAdditiveFlow(metric: string): boolean {
  const m = canonicalMetric(metric);
  return m !== undefined && m.unit_type === 'currency' && m.period_kind === 'duration' && m.statement_type !== 'BALANCE_SHEET';
}

/** how far a sum of figures may sit from another by rounding alone: half a unit of each figure's precision (a derived one's, its inputs') */
export function roundingOf(figures: readonly StoredFigure[]): ReturnType<typeof dec> {
  let slack = dec('0');
  for (const f of figures) slack = slack.plus(f.value_origin === 'DERIVED' && f.calculation_steps ? roundingSlack(f) : precisionUnit(f).dividedBy(2));
  return slack;
}

export interface QuarterYearComparison {
  cik: string;
  statement_type: string;
  fiscal_year: number;
  metric: string;
  year: StoredFigure;
  quarters: StoredFigure[];
  sum: string;
  difference: string;
  /** |difference| / |year| (or the sum where the year is zero) */
  share: number;
  adds_up: boolean;
}

/**
 * Every fiscal year with four served quarters and a served year (latest versions), metric by
 * metric for the additive money flows both carry: the quarters' sum against the year.
 */
export function quarterYearComparisons(corpus: Corpus): QuarterYearComparison[] {
  const out: QuarterYearComparison[] = [];
  for (const [key, versions] of corpus.statements) {
    const [cik, type, fyText, fp] = key.split('|') as [string, string, string, string];
    if (fp !== 'FY' || type === 'BALANCE_SHEET') continue;
    const fy = Number(fyText);
    const latest = (p: string) => corpus.statements.get(`${cik}|${type}|${fy}|${p}`)?.at(-1);
    const quarters = QUARTERS.map(latest);
    if (quarters.some((q) => q === undefined)) continue;
    const year = versions.at(-1)!;
    for (const [metric, y] of Object.entries(year.figures)) {
      if (!isAdditiveFlow(metric)) continue;
      const qs = quarters.map((q) => q!.figures[metric]);
      if (qs.some((q) => q === undefined)) continue;
      const sum = qs.reduce((s, q) => s.plus(dec(q!.value)), dec('0'));
      const difference = sum.minus(dec(y.value));
      const base = dec(y.value).isZero() ? sum.abs() : dec(y.value).abs();
      const share = base.isZero() ? 0 : difference.abs().dividedBy(base).toNumber();
      const adds_up = difference.abs().lessThanOrEqualTo(roundingOf([y, ...(qs as StoredFigure[])]));
      out.push({ cik, statement_type: type, fiscal_year: fy, metric, year: y, quarters: qs as StoredFigure[], sum: sum.toFixed(), difference: difference.toFixed(), share, adds_up });
    }
  }
  return out;
}

export interface QuarterCoherenceMeasure {
  /** fiscal years (company, statement, year) with four served quarters and a served year */
  fiscal_years: number;
  /** (company, year, metric) comparisons of the additive flows all five carry */
  compared: number;
  /** comparisons whose quarters miss the year beyond rounding / by more than 0.1% / by more than 1% */
  mismatched: number;
  over_tenth_percent: number;
  over_one_percent: number;
  /** fiscal years (company, statement, year) with at least one mismatched metric */
  mismatched_years: number;
  /** served fourth quarters derived from a year that is not the year served (another figure of it) */
  derived_off_served_year: string[];
  /** served derived quarters netting an earlier year-to-date of another concept whose own filing told it under the later one's concept too: two lines */
  derived_two_lines: string[];
  /** mismatched beyond 0.1% without a mark (`marked` says which are) */
  unmarked_over_tenth_percent: string[];
  /** the reasons marked comparisons beyond 0.1% carry */
  reasons: Record<string, number>;
}

/**
 * Quarters against years, served (latest versions), and the derived quarters among them: a derived
 * fourth quarter must be netted from the year served (its base the same figure as the year, or its
 * as-filed value), and a derived quarter may net an earlier year-to-date of another concept only
 * where that year-to-date's filing did not tell it under the later one's concept too (a re-tag, not
 * two lines). `marked` tells, for a mismatched
 * comparison, the reason the reads mark it with (null: unmarked).
 */
export function measureQuarterCoherence(corpus: Corpus, marked: (c: QuarterYearComparison) => string | null = () => null): QuarterCoherenceMeasure {
  const comparisons = quarterYearComparisons(corpus);
  const out: QuarterCoherenceMeasure = { fiscal_years: 0, compared: comparisons.length, mismatched: 0, over_tenth_percent: 0, over_one_percent: 0, mismatched_years: 0, derived_off_served_year: [], derived_two_lines: [], unmarked_over_tenth_percent: [], reasons: {} };
  for (const [key] of corpus.statements) {
    const [cik, type, fy, fp] = key.split('|') as [string, string, string, string];
    if (fp === 'FY' && type !== 'BALANCE_SHEET' && QUARTERS.every((q) => corpus.statements.has(`${cik}|${type}|${fy}|${q}`))) out.fiscal_years++;
  }
  const mismatchedYears = new Set<string>();
  for (const c of comparisons) {
    if (c.adds_up) continue;
    out.mismatched++;
    mismatchedYears.add(`${c.cik}|${c.statement_type}|${c.fiscal_year}`);
    if (c.share > 0.01) out.over_one_percent++;
    if (c.share <= 0.001) continue;
    out.over_tenth_percent++;
    const label = `${c.cik} ${c.statement_type} ${c.fiscal_year} ${c.metric}: quarters ${c.quarters.map((q) => q.value).join(' + ')} = ${c.sum}, year ${c.year.value} (${c.year.source_accession}), ${(c.share * 100).toFixed(2)}%`;
    const reason = marked(c);
    if (reason === null) out.unmarked_over_tenth_percent.push(label);
    else out.reasons[reason] = (out.reasons[reason] ?? 0) + 1;
  }
  out.mismatched_years = mismatchedYears.size;
  // every served derived quarter, whether or not its year has four quarters
  const toldFor = tellingsByFiling(corpus);
  for (const [key, versions] of corpus.statements) {
    const [cik, type, fy, fp] = key.split('|') as [string, string, string, string];
    if (type === 'BALANCE_SHEET' || fp === 'FY') continue;
    const year = corpus.statements.get(`${cik}|${type}|${fy}|FY`)?.at(-1);
    for (const [metric, f] of Object.entries(versions.at(-1)!.figures)) {
      if (f.value_origin !== 'DERIVED' || !f.calculation_steps || f.mapping_type === 'DERIVED_IDENTITY') continue;
      const [base, ...rest] = f.calculation_steps;
      const label = `${key} ${metric} ${f.value} = ${f.calculation_steps.map((s) => `${s.value} ${s.source_xbrl_concept} ${s.source_accession}`).join(' - ')}`;
      const y = year?.figures[metric];
      if (f.mapping_type === 'DERIVED_Q4' && y && base!.period_end === y.period_end) {
        const onYear = sameFigure(base!, y) || (y.as_filed_value !== null && sameFigure(base!, { value: y.as_filed_value }));
        if (!onYear) out.derived_off_served_year.push(`${label}; year served ${y.value} (${y.source_accession})`);
      }
      for (const s of rest) {
        // the exchange-rate line a corrected change in cash adds is another metric's step
        if (s.metric !== metric || s.source_xbrl_concept === base!.source_xbrl_concept) continue;
        // the earlier year-to-date's own filing told it under the later one's concept too, as another
        // figure: the line the later figure is on
        const under = toldFor(cik).get(`${s.source_accession}|${base!.source_xbrl_concept}|${s.period_start}|${s.period_end}`);
        if (under !== undefined && !under.some((v) => sameMagnitude(v, s.value))) {
          out.derived_two_lines.push(label);
          break;
        }
      }
    }
  }
  return out;
}

/** by company: "accession|taxonomy:concept|start|end" -> the values a filing told for a period */
function tellingsByFiling(corpus: Corpus): (cik: string) => ReadonlyMap<string, string[]> {
  const cache = new Map<string, Map<string, string[]>>();
  return (cik) => {
    let map = cache.get(cik);
    if (!map) {
      cache.set(cik, (map = new Map()));
      for (const f of corpus.facts.get(cik) ?? []) {
        const k = `${f.accession}|${f.taxonomy}:${f.concept}|${f.start}|${f.end}`;
        map.set(k, [...(map.get(k) ?? []), f.value]);
      }
    }
    return map;
  };
}

/**
 * The reason the reads mark a comparison with (domain/statements/coherence.ts, the rule every read
 * follows), from the corpus' versions of the year's five periods; null where they mark nothing.
 */
export function markedBy(corpus: Corpus): (c: QuarterYearComparison) => string | null {
  return (c) => {
    const periods: Record<string, PeriodVersion[]> = {};
    for (const p of ['Q1', 'Q2', 'Q3', 'Q4', 'FY']) {
      periods[p] = (corpus.statements.get(`${c.cik}|${c.statement_type}|${c.fiscal_year}|${p}`) ?? []).map((v) => {
        const f = v.figures[c.metric];
        return {
          fiscal_period: p as PeriodVersion['fiscal_period'],
          version_sequence: v.version_sequence,
          filing_date: v.filing_date,
          figures: f ? { [c.metric]: { value: f.value, inputs: f.calculation_steps ? f.calculation_steps.map((x) => x.value) : null } } : {},
        };
      });
    }
    return quarterCoherence(c.fiscal_year, c.metric, periods)?.reason ?? null;
  };
}

export interface FirstOrLatestMeasure {
  /** served source figures (latest versions) of duration periods the filers' facts tell */
  checked: number;
  /** served figures that are neither what the first periodic filing telling the line said nor what the latest one says */
  neither: string[];
}

/**
 * Served values that are neither the first reported nor the latest: for each served source figure
 * (latest version; quarters and years), the periodic filings that told any of the metric's
 * candidate concepts for the figure's exact period, from the filers' own facts. The served value
 * must be one the first of those filings told or one the latest told (any candidate, either sign).
 * Values no filing tagged as such (in-filing corrections) are compared as tagged.
 */
export function measureFirstOrLatest(corpus: Corpus): FirstOrLatestMeasure {
  const out: FirstOrLatestMeasure = { checked: 0, neither: [] };
  for (const [cik, facts] of corpus.facts) {
    const told = new Map<string, Fact[]>();
    /** accession -> every concept it tagged */
    const usedBy = new Map<string, Set<string>>();
    for (const f of facts) {
      const used = usedBy.get(f.accession) ?? usedBy.set(f.accession, new Set()).get(f.accession)!;
      used.add(`${f.taxonomy}:${f.concept}`);
      if (f.start === null || !PERIODIC.test(f.form)) continue;
      const k = `${f.taxonomy}:${f.concept}|${f.start}|${f.end}`;
      const list = told.get(k);
      if (list) list.push(f);
      else told.set(k, [f]);
    }
    for (const [key, versions] of corpus.statements) {
      if (!key.startsWith(`${cik}|`) || key.includes('|BALANCE_SHEET|')) continue;
      for (const [metric, f] of Object.entries(versions.at(-1)!.figures)) {
        if (f.value_origin !== 'SOURCE' || f.period_start === null) continue;
        const m = canonicalMetric(metric);
        if (!m) continue;
        // a year is told by annual reports (a 10-Q's full-year cash-flow tag is no statement of the year)
        const year = key.endsWith('|FY');
        const tellings: Fact[] = [];
        for (const c of m.concepts) tellings.push(...(told.get(`${c.taxonomy}:${c.concept}|${f.period_start}|${f.period_end}`) ?? []).filter((t) => !year || ANNUAL.test(t.form)));
        if (tellings.length === 0) continue;
        out.checked++;
        const first = tellings.reduce((a, b) => (b.filed < a.filed ? b : a)).filed;
        const last = tellings.reduce((a, b) => (b.filed > a.filed ? b : a)).filed;
        const value = f.correction_rule !== null && IN_FILING_CORRECTIONS.has(f.correction_rule) ? f.as_filed_value! : f.value;
        const on = (day: string) => tellings.filter((t) => t.filed === day);
        // the latest filing telling the served line: a later filing telling only another line (an
        // annual report's quarterly table of net sales beside total revenues) tells another line
        // (not where that later filing tags the served concept for no period at all: the filer retired the tag, and re-told the line under another)
        const servedConcept = f.as_filed_concept ?? f.source_xbrl_concept;
        const line = tellings.filter((t) => `${t.taxonomy}:${t.concept}` === servedConcept);
        const retired = on(last).every((t) => !(usedBy.get(t.accession)?.has(servedConcept!) ?? false));
        const lastOfLine = line.length === 0 || retired ? null : line.reduce((a, b) => (b.filed > a.filed ? b : a)).filed;
        const ofLine = (day: string | null) => line.filter((t) => t.filed === day);
        if (on(first).some((t) => sameMagnitude(t.value, value)) || on(last).some((t) => sameMagnitude(t.value, value)) || ofLine(lastOfLine).some((t) => sameMagnitude(t.value, value))) continue;
        out.neither.push(
          `${key} ${metric}: served ${value} (${f.source_xbrl_concept}, ${f.source_accession}); first ${on(first).map((t) => `${t.value} ${t.concept} ${t.accession}`).join(', ')}; latest ${on(last).map((t) => `${t.value} ${t.concept} ${t.accession}`).join(', ')}`,
        );
      }
    }
  }
  return out;
}
