import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Sql } from '../../db/client.ts';
import { unpackFigure, type StoredFigure } from '../../db/figure-storage.ts';
import { CANONICAL_METRICS, canonicalMetric } from '../../domain/catalog/index.ts';
import { NON_NEGATIVE_METRICS } from '../../domain/catalog/traits.ts';
import { addDays, daysBetween } from '../../domain/dates.ts';
import { durationClass, YTD_QUARTERS } from '../../domain/fiscal-calendar.ts';
import { dec } from '../../domain/decimal.ts';
import type { Fact } from '../../domain/facts.ts';
import { isScaleSlip, sameFigure } from '../../domain/statements/versions.ts';
import { parseCompanyFacts } from '../../ingest/companyfacts.ts';
import { SHARED_SEC } from './shared-data.ts';

/**
 * Fidelity measures over an ingested corpus database, against the filers' own facts (companyfacts)
 * and SEC's Financial Statement Data Sets: restatement alerts and how many are artifacts
 * (precision, scale slips, concept flips), quarters restated by annual reports and whether they
 * are served restated, derived Q4s against the Q4 filers report, frames and FSDS agreement.
 * Used by test/fidelity-corpus.test.ts and printable with `tsx test/helpers/fidelity-report.ts`.
 */

export { SHARED_SEC };
const FACTS_DIR = path.join(SHARED_SEC, 'data.sec.gov/api/xbrl/companyfacts');
const FSDS_DIR = path.join(SHARED_SEC, 'www.sec.gov/files/dera/data/financial-statement-data-sets/2009q3');
const ANNUAL = /^(10-K|10-KT|20-F|40-F)(\/A)?$/;
const PERIODIC = /^(10-K|10-Q|10-KT|10-QT|20-F|40-F)(\/A)?$/;

interface StoredVersion {
  cik: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  version_sequence: number;
  accession: string;
  filing_date: string;
  period_start: string | null;
  period_end: string;
  figures: Record<string, StoredFigure>;
}

export interface Corpus {
  /** statement key -> versions, oldest first */
  statements: Map<string, StoredVersion[]>;
  /** cik -> every companyfacts fact of the company */
  facts: Map<string, Fact[]>;
}

const abs = (v: string) => (v.startsWith('-') ? v.slice(1) : v);
/** the same figure whatever sign convention the catalog served it in */
export const sameMagnitude = (a: string, b: string) => sameFigure({ value: abs(a) }, { value: abs(b) });

export async function loadCorpus(sql: Sql): Promise<Corpus> {
  const rows = await sql<(Omit<StoredVersion, 'figures'> & { figures: Record<string, Partial<StoredFigure>>; currency: string | null })[]>`
    SELECT cik, statement_type, fiscal_year, fiscal_period, version_sequence, accession, filing_date::text AS filing_date,
      period_start::text AS period_start, period_end::text AS period_end, currency, figures
    FROM statement_versions ORDER BY cik, statement_type, fiscal_year, fiscal_period, version_sequence`;
  const statements = new Map<string, StoredVersion[]>();
  for (const r of rows) {
    const figures: Record<string, StoredFigure> = {};
    for (const [m, f] of Object.entries(r.figures)) figures[m] = unpackFigure(f, r);
    const key = `${r.cik}|${r.statement_type}|${r.fiscal_year}|${r.fiscal_period}`;
    const list = statements.get(key) ?? [];
    list.push({ ...r, figures });
    statements.set(key, list);
  }
  const facts = new Map<string, Fact[]>();
  for (const name of readdirSync(FACTS_DIR)) {
    const parsed = parseCompanyFacts(readFileSync(path.join(FACTS_DIR, name), 'utf8'));
    facts.set(parsed.cik, parsed.facts.filter((f) => f.taxonomy === 'us-gaap' || f.taxonomy === 'ifrs-full'));
  }
  return { statements, facts };
}

export interface AlertMeasure {
  alerts: number;
  revisions: number;
  artifact_revisions: number;
  /** alerts whose revised figures are all precision, scale or concept-flip artifacts */
  false_alerts: number;
  false_examples: string[];
}

/**
 * Every restatement alert with its fact revisions, classified: a revision is an artifact when the
 * two values are the same figure at the coarser precision, a scale slip, or a concept flip (the
 * concepts differ and the new filing still reports the old concept with the old value).
 */
export async function measureAlerts(sql: Sql, corpus: Corpus): Promise<AlertMeasure> {
  const rows = await sql<{ cik: string; statement_version_id: string; metric: string; old_value: string; new_value: string; old_concept: string | null; new_concept: string | null; new_accession: string; period_start: string | null; period_end: string; label: string }[]>`
    SELECT e.cik, e.statement_version_id, r.metric, r.old_value::text, r.new_value::text, r.old_concept, r.new_concept, r.new_accession,
      v.period_start::text AS period_start, v.period_end::text AS period_end,
      e.cik || ' ' || e.statement_type || ' ' || e.fiscal_year || ' ' || e.fiscal_period || ' v' || e.version_sequence AS label
    FROM restatement_alert_events e JOIN fact_revisions r ON r.statement_version_id = e.statement_version_id
    JOIN statement_versions v ON v.statement_version_id = e.statement_version_id`;
  const [count] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM restatement_alert_events`;
  const n = count!.n;
  const told = new Map<string, Map<string, string[]>>();
  const toldBy = (cik: string) => {
    let m = told.get(cik);
    if (!m) {
      told.set(cik, (m = new Map()));
      for (const f of corpus.facts.get(cik) ?? []) {
        const k = `${f.accession}|${f.taxonomy}:${f.concept}|${f.start ?? ''}|${f.end}`;
        m.set(k, [...(m.get(k) ?? []), f.value]);
      }
    }
    return m;
  };
  const artifactOf = new Map<string, boolean>();
  const labels = new Map<string, string>();
  let artifacts = 0;
  for (const r of rows) {
    const scale = isScaleSlip({ value: r.old_value }, { value: r.new_value });
    const precision = sameFigure({ value: r.old_value }, { value: r.new_value });
    let flip = false;
    if (!scale && !precision && r.old_concept && r.new_concept && r.old_concept !== r.new_concept) {
      const values = toldBy(r.cik).get(`${r.new_accession}|${r.old_concept}|${r.period_start ?? ''}|${r.period_end}`) ?? [];
      flip = values.some((v) => sameMagnitude(v, r.old_value));
    }
    const artifact = scale || precision || flip;
    if (artifact) artifacts++;
    artifactOf.set(r.statement_version_id, (artifactOf.get(r.statement_version_id) ?? true) && artifact);
    labels.set(r.statement_version_id, `${r.label} ${r.metric} ${r.old_value} -> ${r.new_value} (${r.old_concept} -> ${r.new_concept})`);
  }
  const falseIds = [...artifactOf].filter(([, a]) => a).map(([id]) => id);
  return { alerts: n, revisions: rows.length, artifact_revisions: artifacts, false_alerts: falseIds.length, false_examples: falseIds.slice(0, 10).map((id) => labels.get(id)!) };
}

export interface SplitRecastMeasure {
  /** the splits the companies tagged (ratio facts), by CIK */
  splits: Map<string, { ratio: string; date: string }[]>;
  /** per-share or share-count figures changed between consecutive versions by exactly a split's factor, the split tagged between the two filings */
  recasts: number;
  /** of those, the ones recorded as a fact revision (a split is no restatement): should be none */
  recorded: string[];
  /** restatement alerts whose every revision is such a recast (recorded): should be none */
  split_only_alerts: number;
}

/** digits after the decimal point of a value's text */
const decimalsOf = (v: string) => (v.includes('.') ? v.length - v.indexOf('.') - 1 : 0);
const PER_SHARE_METRIC = /^(EPS_|DIVIDENDS_PER_SHARE$)/;
const SHARE_COUNT_METRIC = /^(WEIGHTED_AVERAGE_SHARES_|SHARES_OUTSTANDING$|SHARES_ISSUED$)/;

/**
 * Stock split recasts, measured from the filers' raw facts apart from the ingestion's rule: every
 * metric named a per-share amount or a share count whose value changed from one version to the
 * next by exactly the factor of a split the company tagged (us-gaap StockSplitConversionRatio
 * facts, new shares per old) dated after the earlier figure's filing and by the later version's:
 * per-share, the earlier value over the factor rounded to the later value's cents (or finer
 * digits); share counts, the earlier value times the factor rounded to the later value's trailing
 * zeros. Each such change, and every alert made only of them, is counted.
 */
export async function measureSplitRecasts(sql: Sql, corpus: Corpus): Promise<SplitRecastMeasure> {
  const splits = new Map<string, { ratio: string; date: string }[]>();
  for (const [cik, facts] of corpus.facts) {
    const list = facts.filter((f) => f.taxonomy === 'us-gaap' && /^StockholdersEquityNoteStockSplitConversionRatio1?$/.test(f.concept) && PERIODIC.test(f.form));
    const unique = new Map(list.map((f) => [`${f.value}|${f.end}`, { ratio: f.value, date: f.end }]));
    if (unique.size > 0) splits.set(cik, [...unique.values()]);
  }
  const filed = new Map((await sql<{ accession: string; filing_date: string }[]>`SELECT accession, filing_date::text AS filing_date FROM filings`).map((r) => [r.accession, r.filing_date]));
  const revised = new Set(
    (await sql<{ metric: string; key: string }[]>`
      SELECT r.metric, e.cik || '|' || e.statement_type || '|' || e.fiscal_year || '|' || e.fiscal_period || '|' || e.version_sequence AS key
      FROM fact_revisions r JOIN restatement_alert_events e ON e.statement_version_id = r.statement_version_id`).map((r) => `${r.key}|${r.metric}`),
  );
  const revisionsPerAlert = new Map<string, number>();
  for (const k of revised) {
    const alert = k.slice(0, k.lastIndexOf('|'));
    revisionsPerAlert.set(alert, (revisionsPerAlert.get(alert) ?? 0) + 1);
  }
  const factor = (ratio: string) => {
    const r = dec(ratio);
    return r.greaterThanOrEqualTo(1) ? r.toDecimalPlaces(0) : dec('1').dividedBy(dec('1').dividedBy(r).toDecimalPlaces(0));
  };
  const zerosOf = (v: string) => v.length - v.replace(/0+$/, '').length;
  let recasts = 0;
  const recorded: string[] = [];
  const recastPerAlert = new Map<string, number>();
  for (const [key, versions] of corpus.statements) {
    const cik = key.slice(0, 10);
    const tagged = splits.get(cik);
    if (!tagged) continue;
    for (let i = 1; i < versions.length; i++) {
      const before = versions[i - 1]!;
      const after = versions[i]!;
      for (const [metric, f] of Object.entries(after.figures)) {
        const perShare = PER_SHARE_METRIC.test(metric);
        if (!perShare && !SHARE_COUNT_METRIC.test(metric)) continue;
        const old = before.figures[metric];
        if (!old || old.value === f.value) continue;
        const from = filed.get(old.source_accession) ?? before.filing_date;
        const exact = tagged.some((s) => {
          if (!(s.date > from && s.date <= after.filing_date)) return false;
          const k = factor(s.ratio);
          if (perShare) return dec(old.value).dividedBy(k).toDecimalPlaces(Math.max(2, decimalsOf(f.value))).equals(dec(f.value));
          const unit = dec(`1e${zerosOf(f.value)}`);
          return dec(old.value).times(k).dividedBy(unit).toDecimalPlaces(0).times(unit).equals(dec(f.value));
        });
        if (!exact) continue;
        recasts++;
        const label = `${key}|${after.version_sequence}`;
        if (!revised.has(`${label}|${metric}`)) continue;
        recorded.push(`${label} ${metric} ${old.value} -> ${f.value}`);
        recastPerAlert.set(label, (recastPerAlert.get(label) ?? 0) + 1);
      }
    }
  }
  let splitOnly = 0;
  for (const [alert, n] of revisionsPerAlert) if (recastPerAlert.get(alert) === n) splitOnly++;
  return { splits, recasts, recorded, split_only_alerts: splitOnly };
}

/** The quarter statement (any type) whose latest or first version carries `concept` for the period. */
function quarterFigures(corpus: Corpus, cik: string, concept: string, start: string, end: string): { first: StoredFigure; latest: StoredFigure | undefined; key: string } | null {
  for (const [key, versions] of corpus.statements) {
    if (!key.startsWith(`${cik}|`) || key.endsWith('|FY')) continue;
    const v1 = versions[0]!;
    if (Math.abs(daysBetween(v1.period_end, end)) > 3) continue;
    for (const [metric, f] of Object.entries(v1.figures)) {
      if (f.source_xbrl_concept !== concept || f.period_start !== start || f.period_end !== end) continue;
      return { first: f, latest: versions[versions.length - 1]!.figures[metric], key };
    }
  }
  return null;
}

export interface QuarterMeasure {
  /** three-month figures an annual report told differently from the 10-Q that first reported them */
  restated: number;
  /** of those, ones the service served as first reported from that 10-Q (version 1 carries the concept) */
  checkable: number;
  /** served restated (latest) and original (as_reported) */
  served_right: number;
  stale_examples: string[];
}

/** Quarters restated in annual reports: served restated (latest) and original (version 1)? */
export function measureRestatedQuarters(corpus: Corpus): QuarterMeasure {
  const out: QuarterMeasure = { restated: 0, checkable: 0, served_right: 0, stale_examples: [] };
  for (const [cik, facts] of corpus.facts) {
    const byPeriod = new Map<string, Fact[]>();
    for (const f of facts) {
      if (f.start === null || !PERIODIC.test(f.form)) continue;
      const days = daysBetween(f.start, f.end);
      if (days < 80 || days > 100) continue;
      const k = `${f.taxonomy}:${f.concept}|${f.unit}|${f.start}|${f.end}`;
      byPeriod.set(k, [...(byPeriod.get(k) ?? []), f]);
    }
    for (const [k, list] of byPeriod) {
      list.sort((a, b) => a.filed.localeCompare(b.filed) || a.accession.localeCompare(b.accession));
      const original = list.find((f) => !ANNUAL.test(f.form));
      if (!original) continue;
      const restating = list.filter((f) => ANNUAL.test(f.form) && f.filed >= original.filed && !sameFigure({ value: f.value }, { value: original.value }));
      if (restating.length === 0) continue;
      out.restated++;
      const [concept, , start, end] = k.split('|') as [string, string, string, string];
      const served = quarterFigures(corpus, cik, concept, start, end);
      if (!served || !sameMagnitude(served.first.value, original.value)) continue;
      out.checkable++;
      // the filer's latest word on the quarter: under the same concept, or under the one it re-tagged to
      const retagged = served.latest && served.latest.source_xbrl_concept !== concept ? served.latest.source_xbrl_concept : null;
      const lastOf = (c: string) => byPeriod.get(`${c}|${k.split('|')[1]}|${start}|${end}`)?.at(-1);
      const latest = (retagged ? lastOf(retagged) : undefined) ?? list[list.length - 1]!;
      if (served.latest && sameMagnitude(served.latest.value, latest.value)) out.served_right++;
      else if (out.stale_examples.length < 10) out.stale_examples.push(`${served.key} ${concept} served ${served.latest?.value} restated ${latest.value} (${latest.accession})`);
    }
  }
  return out;
}

export interface AgreementMeasure {
  compared: number;
  agree: number;
  differ_examples: string[];
  /** differences by cause (frames only) */
  causes?: Record<string, number>;
}

/**
 * Company-reported Q4s (three-month facts ending at the year end, in a 10-K) against the Q4 the
 * service serves for the same concept's metric.
 */
export function measureQ4(corpus: Corpus): AgreementMeasure {
  const out: AgreementMeasure = { compared: 0, agree: 0, differ_examples: [] };
  const q4ByCik = new Map<string, StoredVersion[]>();
  for (const [key, versions] of corpus.statements) {
    if (!key.endsWith('|Q4')) continue;
    const cik = key.split('|')[0]!;
    q4ByCik.set(cik, [...(q4ByCik.get(cik) ?? []), versions[versions.length - 1]!]);
  }
  for (const [cik, facts] of corpus.facts) {
    const q4s = q4ByCik.get(cik) ?? [];
    const seen = new Set<string>();
    for (const f of facts.filter((x) => x.start !== null && ANNUAL.test(x.form)).sort((a, b) => b.filed.localeCompare(a.filed))) {
      const days = daysBetween(f.start!, f.end);
      if (days < 80 || days > 100) continue;
      const v = q4s.find((q) => Math.abs(daysBetween(q.period_end, f.end)) <= 3);
      if (!v) continue;
      const concept = `${f.taxonomy}:${f.concept}`;
      const metric = Object.entries(v.figures).find(([, g]) => g.source_xbrl_concept === concept || g.calculation_steps?.[0]?.source_xbrl_concept === concept);
      const id = `${concept}|${f.end}`;
      if (!metric || seen.has(id)) continue;
      seen.add(id);
      out.compared++;
      if (sameMagnitude(metric[1].value, f.value)) out.agree++;
      else if (out.differ_examples.length < 10) out.differ_examples.push(`${cik} Q4 ${f.end} ${metric[0]} served ${metric[1].value} reported ${f.value} (${f.accession})`);
    }
  }
  return out;
}

/** companyfacts `frame` values (SEC's last-filed value per calendar year) against the latest FY figure of the same us-gaap concept and dates. */
/** corrections within the figure's own filing, whose tag holds `as_filed_value` (the kept slips hold another filing's value there) */
const IN_FILING_CORRECTIONS = new Set(['COST_OF_REVENUE_CREDIT_SIGN', 'NET_CHANGE_IN_CASH_FX_EFFECT_ADDED', 'TOTAL_EQUITY_COMPONENT_REPLACED']);
/** the value the figure's tag holds in its filing: frames, like FSDS, are the tags as filed */
const asTagged = (f: StoredFigure) => (f.correction_rule !== null && IN_FILING_CORRECTIONS.has(f.correction_rule) ? f.as_filed_value! : f.value);

export function measureFrames(corpus: Corpus): AgreementMeasure {
  const out: AgreementMeasure = { compared: 0, agree: 0, differ_examples: [], causes: {} };
  for (const [cik, facts] of corpus.facts) {
    const framed = new Map<string, Fact>();
    for (const f of facts) if (f.frame && /^CY\d{4}$/.test(f.frame) && f.taxonomy === 'us-gaap') framed.set(`us-gaap:${f.concept}|${f.start}|${f.end}`, f);
    for (const [key, versions] of corpus.statements) {
      if (!key.startsWith(`${cik}|`) || !key.endsWith('|FY') || key.includes('BALANCE_SHEET')) continue;
      for (const [metric, f] of Object.entries(versions[versions.length - 1]!.figures)) {
        if (f.value_origin !== 'SOURCE' || !f.source_xbrl_concept?.startsWith('us-gaap:')) continue;
        const frame = framed.get(`${f.source_xbrl_concept}|${f.period_start}|${f.period_end}`);
        if (frame === undefined) continue;
        out.compared++;
        if (sameMagnitude(asTagged(f), frame.value)) {
          out.agree++;
          continue;
        }
        const cause = frameDifferenceCause(f, frame, facts);
        out.causes![cause] = (out.causes![cause] ?? 0) + 1;
        if (out.differ_examples.length < 40) out.differ_examples.push(`${cause} ${key} ${metric} served ${f.value} (${f.source_accession}) frame ${frame.value} (${frame.accession} ${frame.form})`);
      }
    }
  }
  return out;
}

/**
 * Why a served figure differs from SEC's frame value (the last value filed for the period):
 * - SCALE_SLIP_KEPT: the frame is a later scale slip; the service keeps the previous value;
 * - RECAST_OUTSIDE_PERIODIC_REPORTS: the frame comes from an 8-K or another non-periodic form, which never makes a version;
 * - SAME_FILING_OTHER_VALUE: the frame's filing is the served figure's own, which tells another value for the tag (a duplicate context);
 * - LATER_PERIODIC_FILING: a later periodic report re-told the tag, but the service chose another figure or tag there;
 * - OTHER.
 */
function frameDifferenceCause(served: StoredFigure, frame: Fact, facts: readonly Fact[]): string {
  if (isScaleSlip({ value: served.value }, { value: frame.value })) return 'SCALE_SLIP_KEPT';
  if (!PERIODIC.test(frame.form)) return 'RECAST_OUTSIDE_PERIODIC_REPORTS';
  if (frame.accession === served.source_accession) return 'SAME_FILING_OTHER_VALUE';
  const servedFiled = facts.find((f) => f.accession === served.source_accession)?.filed ?? '';
  if (frame.filed > servedFiled) return 'LATER_PERIODIC_FILING';
  return 'OTHER';
}

/**
 * FSDS 2009q3: every face value (pre.txt IS/BS/CF lines, num.txt without segments or co-registrant)
 * of the corpus companies' filings, against the figure of the same tag and period on the version
 * current right after that filing (as reported by it). Year-to-date columns of quarterly reports
 * (qtrs 2, 3) are not statements the service serves and are left out.
 */
export function measureFsds(corpus: Corpus): AgreementMeasure & { companies: number } {
  const out = { compared: 0, agree: 0, differ_examples: [] as string[], companies: 0 };
  const lines = (name: string) => readFileSync(path.join(FSDS_DIR, name), 'utf8').split('\n').slice(1).filter((l) => l.length > 0).map((l) => l.split('\t'));
  const corpusCiks = new Set([...corpus.statements.keys()].map((k) => k.split('|')[0]!));
  const subs = new Map<string, { cik: string; filed: string }>();
  for (const s of lines('sub.txt')) {
    const cik = s[1]!.padStart(10, '0');
    if (corpusCiks.has(cik)) subs.set(s[0]!, { cik, filed: `${s[29]!.slice(0, 4)}-${s[29]!.slice(4, 6)}-${s[29]!.slice(6, 8)}` });
  }
  const face = new Set<string>();
  for (const p of lines('pre.txt')) if (subs.has(p[0]!) && ['IS', 'BS', 'CF'].includes(p[3]!)) face.add(`${p[0]}|${p[6]}`);
  const companies = new Set<string>();
  for (const n of lines('num.txt')) {
    const [adsh, tag, version, ddate, qtrs, , segments, coreg, value] = n as [string, string, string, string, string, string, string, string, string];
    const sub = subs.get(adsh);
    if (!sub || !face.has(`${adsh}|${tag}`) || segments || coreg || !version.startsWith('us-gaap') || !['0', '1', '4'].includes(qtrs)) continue;
    const end = `${ddate.slice(0, 4)}-${ddate.slice(4, 6)}-${ddate.slice(6, 8)}`;
    const concept = `us-gaap:${tag}`;
    let served: StoredFigure | undefined;
    for (const [key, versions] of corpus.statements) {
      if (!key.startsWith(`${sub.cik}|`) || (qtrs === '4') !== key.endsWith('|FY') || (qtrs === '0') !== key.includes('BALANCE_SHEET')) continue;
      if (qtrs === '1' && key.endsWith('|FY')) continue;
      const current = versions.filter((v) => v.filing_date <= sub.filed).pop();
      if (!current || Math.abs(daysBetween(current.period_end, end)) > 3) continue;
      served = Object.values(current.figures).find((f) => (f.as_filed_concept ?? f.source_xbrl_concept) === concept && (qtrs === '0' || f.period_start !== null));
      if (served) break;
    }
    if (!served) continue;
    companies.add(sub.cik);
    out.compared++;
    const v = dec(value).toFixed();
    if (sameMagnitude(served.as_filed_value ?? served.value, v)) out.agree++;
    else if (out.differ_examples.length < 15) out.differ_examples.push(`${sub.cik} ${adsh} ${concept} ${end} q${qtrs}: served ${served.value} FSDS ${v}`);
  }
  out.companies = companies.size;
  return out;
}

export interface MisdatedMeasure {
  /** "cik accession start..shorter end = start..longer end (n lines)" for every such pair of the corpus */
  pairs: string[];
  /** served figures (any version) computed from either period of such a pair */
  figures_from_them: string[];
}

/**
 * Year-to-date periods a quarterly report tells with the values of a longer year-to-date of the
 * same start, concept for concept (at least three non-zero, none differing), found in the raw
 * companyfacts apart from the normalizer (which compares catalog metrics); and every figure of any
 * stored version whose calculation steps take a value of such a period from that filing.
 */
export function measureMisdatedYearToDate(corpus: Corpus): MisdatedMeasure {
  const pairs: string[] = [];
  const misdated = new Set<string>();
  for (const [cik, facts] of corpus.facts) {
    // accession|start -> end -> concept|unit -> value
    const periods = new Map<string, Map<string, Map<string, string>>>();
    for (const f of facts) {
      if (f.start === null || !/^10-Q(\/A)?$/.test(f.form)) continue;
      const days = daysBetween(f.start, f.end);
      if (days < 80 || days > 290) continue;
      const id = `${f.accession}|${f.start}`;
      let ends = periods.get(id);
      if (!ends) periods.set(id, (ends = new Map()));
      let values = ends.get(f.end);
      if (!values) ends.set(f.end, (values = new Map()));
      values.set(`${f.concept}|${f.unit}`, f.value);
    }
    for (const [id, ends] of periods) {
      const sorted = [...ends.keys()].sort();
      for (let i = 0; i < sorted.length; i++) {
        for (let j = i + 1; j < sorted.length; j++) {
          const a = ends.get(sorted[i]!)!;
          const b = ends.get(sorted[j]!)!;
          let alike = 0;
          let differ = 0;
          for (const [k, v] of a) {
            const w = b.get(k);
            if (w === undefined) continue;
            if (!dec(v).equals(dec(w))) differ++;
            else if (!dec(v).isZero()) alike++;
          }
          if (differ > 0 || alike < 3) continue;
          const [accession, start] = id.split('|') as [string, string];
          pairs.push(`${cik} ${accession} ${start}..${sorted[i]} = ${start}..${sorted[j]} (${alike} lines)`);
          misdated.add(`${accession}|${start}|${sorted[i]}`);
          misdated.add(`${accession}|${start}|${sorted[j]}`);
        }
      }
    }
  }
  const figures: string[] = [];
  for (const [key, versions] of corpus.statements) {
    for (const v of versions) {
      for (const [metric, f] of Object.entries(v.figures)) {
        if (f.calculation_steps?.some((s) => misdated.has(`${s.source_accession}|${s.period_start}|${s.period_end}`))) figures.push(`${key}|${v.version_sequence} ${metric} ${f.value}`);
      }
    }
  }
  return { pairs, figures_from_them: figures };
}

export interface DerivedOverReportedMeasure {
  /** fact revisions where a later version's derived quarter replaced a figure the company reported */
  revisions: number;
  versions: number;
  /** DQ_DERIVED_QUARTER_CONFLICT findings, and those whose statement does not serve the side the finding says */
  findings: number;
  served_otherwise: string[];
}

/** Derived quarters against reported ones (version rule 10): what still revises, and whether each finding's served side is served. */
export async function measureDerivedOverReported(sql: Sql): Promise<DerivedOverReportedMeasure> {
  const [revised] = await sql<{ revisions: number; versions: number }[]>`
    SELECT count(*)::int AS revisions, count(DISTINCT r.statement_version_id)::int AS versions
    FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      JOIN statement_versions p ON p.statement_version_id = r.previous_version_id
    WHERE v.figures -> r.metric ->> 'value_origin' = 'DERIVED'
      AND coalesce(p.figures -> r.metric ->> 'value_origin',
        (SELECT coalesce(u -> 'withdrawn' ->> 'value_origin', 'SOURCE') FROM jsonb_array_elements(coalesce(p.unavailable_figures, '[]')) u WHERE u ->> 'metric' = r.metric),
        'SOURCE') = 'SOURCE'`;
  const findings = await sql<{ label: string; served: string; previous: string; filed: string; latest: string | null }[]>`
    SELECT i.cik || ' ' || i.statement_type || ' ' || i.fiscal_year || ' ' || i.fiscal_period || ' ' || i.metric AS label,
      i.evidence ->> 'served' AS served, i.evidence -> 'previous' ->> 'value' AS previous, i.evidence -> 'filed' ->> 'value' AS filed,
      (SELECT l.figures -> i.metric ->> 'value' FROM statement_versions l
        WHERE (l.cik, l.statement_type, l.fiscal_year, l.fiscal_period) = (i.cik, i.statement_type, i.fiscal_year, i.fiscal_period)
        ORDER BY l.version_sequence DESC LIMIT 1) AS latest
    FROM dq_issues i WHERE i.rule_code = 'DQ_DERIVED_QUARTER_CONFLICT'`;
  const servedOtherwise = findings
    .filter((f) => f.latest === null || !dec(f.latest).equals(dec(f.served === 'filed' ? f.filed : f.previous)))
    .map((f) => `${f.label}: served ${f.latest}, finding says ${f.served}`);
  return { revisions: revised!.revisions, versions: revised!.versions, findings: findings.length, served_otherwise: servedOtherwise };
}

export interface WorkingCapitalSignMeasure {
  /** working-capital periods two periodic filings tagged with the same digits and opposite signs */
  flipped: number;
  /** of those, served where the balance sheet moved by half to twice the amount over the period */
  decidable: number;
  /** served with the sign opposite to that movement's cash effect */
  served_against_balance: string[];
}

/** tagged concept -> the served metric, its balance-sheet line and the cash effect of that line's growth (1 or -1) */
const WORKING_CAPITAL: Readonly<Record<string, { metric: string; balance: string; growth: 1 | -1 }>> = {
  IncreaseDecreaseInReceivables: { metric: 'CHANGE_IN_RECEIVABLES', balance: 'ACCOUNTS_RECEIVABLE', growth: -1 },
  IncreaseDecreaseInAccountsReceivable: { metric: 'CHANGE_IN_RECEIVABLES', balance: 'ACCOUNTS_RECEIVABLE', growth: -1 },
  IncreaseDecreaseInInventories: { metric: 'CHANGE_IN_INVENTORIES', balance: 'INVENTORY', growth: -1 },
  IncreaseDecreaseInPrepaidDeferredExpenseAndOtherAssets: { metric: 'CHANGE_IN_PREPAID_AND_OTHER_ASSETS', balance: 'PREPAID_EXPENSES_AND_OTHER_CURRENT_ASSETS', growth: -1 },
  IncreaseDecreaseInAccountsPayable: { metric: 'CHANGE_IN_PAYABLES', balance: 'ACCOUNTS_PAYABLE', growth: 1 },
  IncreaseDecreaseInAccruedLiabilities: { metric: 'CHANGE_IN_ACCRUED_LIABILITIES', balance: 'ACCRUED_LIABILITIES', growth: 1 },
};

/**
 * Working-capital lines whose sign two filings disagree on, measured from the raw companyfacts:
 * every period a company tagged with a value and its negation (periodic forms), where the service
 * serves that very period and tag; the balance sheets the service serves at the period's start and
 * end tell the cash effect's sign where the balance moved by half to twice the amount. Each served
 * figure against it is listed.
 */
export function measureWorkingCapitalSigns(corpus: Corpus): WorkingCapitalSignMeasure {
  const out: WorkingCapitalSignMeasure = { flipped: 0, decidable: 0, served_against_balance: [] };
  for (const [cik, facts] of corpus.facts) {
    const told = new Map<string, Set<string>>();
    for (const f of facts) {
      if (f.start === null || !(f.concept in WORKING_CAPITAL) || !PERIODIC.test(f.form)) continue;
      const id = `${f.concept}|${f.start}|${f.end}`;
      const values = told.get(id) ?? new Set<string>();
      values.add(dec(f.value).toString());
      told.set(id, values);
    }
    // the latest version of each of the company's statements, by type and period
    const latest: StoredVersion[] = [];
    for (const [key, versions] of corpus.statements) if (key.startsWith(`${cik}|`)) latest.push(versions[versions.length - 1]!);
    const balanceAt = (metric: string, date: string) => {
      const v = latest.find((s) => s.statement_type === 'BALANCE_SHEET' && Math.abs(daysBetween(s.period_end, date)) <= 7);
      return v?.figures[metric]?.value;
    };
    for (const [id, values] of told) {
      if (![...values].some((v) => v !== '0' && values.has(dec(v).negated().toString()))) continue;
      const [concept, start, end] = id.split('|') as [string, string, string];
      const wc = WORKING_CAPITAL[concept]!;
      const statement = latest.find((s) => s.statement_type === 'CASH_FLOW_STATEMENT' && s.period_start === start && s.period_end === end);
      const served = statement?.figures[wc.metric];
      if (!statement || !served || served.source_xbrl_concept !== `us-gaap:${concept}`) continue;
      out.flipped++;
      const opening = balanceAt(wc.balance, addDays(start, -1));
      const closing = balanceAt(wc.balance, end);
      if (opening === undefined || closing === undefined) continue;
      const moved = dec(closing).minus(dec(opening));
      const ratio = moved.abs().dividedBy(dec(served.value).abs());
      if (moved.isZero() || ratio.lessThan(0.5) || ratio.greaterThan(2)) continue;
      out.decidable++;
      const expected = (moved.isNegative() ? -1 : 1) * wc.growth;
      if ((dec(served.value).isNegative() ? -1 : 1) !== expected) out.served_against_balance.push(`${cik} ${statement.fiscal_year} ${statement.fiscal_period} ${wc.metric} ${served.value} (${wc.balance} ${opening} -> ${closing})`);
    }
  }
  return out;
}

export interface UntaggedSplitMeasure {
  /** consecutive versions whose share counts moved by one whole ratio with net income the same */
  version_pairs: number;
  /** per-share figures and share counts of those versions that moved by exactly that ratio */
  recasts: number;
  /** of those, recorded as fact revisions */
  recorded: string[];
}

/**
 * Splits nobody tagged, measured from the stored versions apart from the folding rule: consecutive
 * versions of an income statement where a share count grew or shrank by a whole ratio k of at least
 * 2 (and at most 1,000: any larger ratio is whole to 0.1%) to within 0.1%, net income unchanged; each per-share figure that moved by 1/k (to the later
 * value's cents) and each share count that moved by k (to 0.1%) is a recast, and none should be a
 * fact revision.
 */
export async function measureUntaggedSplits(sql: Sql, corpus: Corpus): Promise<UntaggedSplitMeasure> {
  const revised = new Set(
    (await sql<{ key: string }[]>`
      SELECT e.cik || '|' || e.statement_type || '|' || e.fiscal_year || '|' || e.fiscal_period || '|' || e.version_sequence || '|' || r.metric AS key
      FROM fact_revisions r JOIN restatement_alert_events e ON e.statement_version_id = r.statement_version_id`).map((r) => r.key),
  );
  const out: UntaggedSplitMeasure = { version_pairs: 0, recasts: 0, recorded: [] };
  for (const [key, versions] of corpus.statements) {
    if (!key.includes('|INCOME_STATEMENT|')) continue;
    for (let i = 1; i < versions.length; i++) {
      const before = versions[i - 1]!.figures;
      const after = versions[i]!.figures;
      if (!before.NET_INCOME || !after.NET_INCOME || !dec(before.NET_INCOME.value).equals(dec(after.NET_INCOME.value))) continue;
      let k: ReturnType<typeof dec> | null = null;
      let up = true;
      for (const m of ['WEIGHTED_AVERAGE_SHARES_BASIC', 'WEIGHTED_AVERAGE_SHARES_DILUTED']) {
        const b = before[m];
        const a = after[m];
        if (!b || !a || dec(b.value).isZero() || dec(a.value).isZero()) continue;
        const r = dec(a.value).dividedBy(dec(b.value));
        const whole = (r.greaterThan(1) ? r : dec('1').dividedBy(r)).toDecimalPlaces(0);
        if (whole.lessThan(2) || whole.greaterThan(1000) || (r.greaterThan(1) ? r : dec('1').dividedBy(r)).minus(whole).abs().greaterThan(whole.times('0.001'))) continue;
        k = whole;
        up = r.greaterThan(1);
      }
      if (k === null) continue;
      out.version_pairs++;
      for (const [metric, f] of Object.entries(after)) {
        const old = before[metric];
        if (!old || old.value === f.value) continue;
        let exact = false;
        if (PER_SHARE_METRIC.test(metric)) {
          const expected = up ? dec(old.value).dividedBy(k) : dec(old.value).times(k);
          exact = expected.minus(dec(f.value)).abs().lessThanOrEqualTo(dec(`1e-${Math.max(2, decimalsOf(f.value))}`));
        } else if (SHARE_COUNT_METRIC.test(metric)) {
          const expected = up ? dec(old.value).times(k) : dec(old.value).dividedBy(k);
          exact = expected.minus(dec(f.value)).abs().lessThanOrEqualTo(expected.abs().times('0.001'));
        }
        if (!exact) continue;
        out.recasts++;
        const label = `${key}|${versions[i]!.version_sequence}|${metric}`;
        if (revised.has(label)) out.recorded.push(`${label} ${old.value} -> ${f.value}`);
      }
    }
  }
  return out;
}

export interface LineMoveMeasure {
  /** fact revisions between two concepts where the old figure's own filing told the new figure for the period under a concept of the metric's: a line told as before, no restatement */
  revisions_of_unchanged_lines: string[];
  /** DQ_CONCEPT_MOVED findings, and those the filers' facts do not bear out (the earlier filing told no other line at the later value) */
  findings: number;
  unsupported: string[];
}

/**
 * Rule 11 from the filers' own facts and the catalog's concept lists, apart from the rule: a
 * revision between two concepts is a move between lines where the filing of the old figure told
 * the new figure for the same period under another concept of the metric; each DQ_CONCEPT_MOVED
 * finding must be such a move.
 */
export async function measureLineMoves(sql: Sql, corpus: Corpus): Promise<LineMoveMeasure> {
  const conceptsOf = (metric: string) => new Set((canonicalMetric(metric)?.concepts ?? []).map((c) => `${c.taxonomy}:${c.concept}`));
  const toldBy = (cik: string, metric: string, accession: string, except: string, start: string | null, end: string, value: string) => {
    const concepts = conceptsOf(metric);
    return (corpus.facts.get(cik) ?? []).some((f) => {
      const concept = `${f.taxonomy}:${f.concept}`;
      return f.accession === accession && concept !== except && concepts.has(concept) && f.start === start && f.end === end && sameMagnitude(f.value, value);
    });
  };
  const revisions = await sql<{ label: string; cik: string; metric: string; start: string | null; end: string; old_accession: string; old_concept: string; new_value: string }[]>`
    SELECT v.cik || ' ' || v.statement_type || ' ' || v.fiscal_year || ' ' || v.fiscal_period || ' ' || r.metric || ' ' || r.old_value || ' -> ' || r.new_value AS label,
      v.cik, r.metric, v.period_start::text AS start, v.period_end::text AS end, r.old_accession, r.old_concept, r.new_value
    FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
    WHERE r.old_concept IS NOT NULL AND r.new_concept IS NOT NULL AND r.old_concept <> r.new_concept`;
  const findings = await sql<{ label: string; cik: string; metric: string; start: string | null; end: string; previous_accession: string; previous_concept: string; filed_value: string }[]>`
    SELECT i.cik || ' ' || i.statement_type || ' ' || i.fiscal_year || ' ' || i.fiscal_period || ' ' || i.metric AS label, i.cik, i.metric,
      v.period_start::text AS start, v.period_end::text AS end, i.evidence -> 'previous' ->> 'accession' AS previous_accession,
      i.evidence -> 'previous' ->> 'concept' AS previous_concept, i.evidence -> 'filed' ->> 'value' AS filed_value
    FROM dq_issues i JOIN statement_versions v ON v.statement_version_id = i.statement_version_id
    WHERE i.rule_code = 'DQ_CONCEPT_MOVED'`;
  return {
    revisions_of_unchanged_lines: revisions.filter((r) => toldBy(r.cik, r.metric, r.old_accession, r.old_concept, r.start, r.end, r.new_value)).map((r) => r.label),
    findings: findings.length,
    unsupported: findings.filter((f) => !toldBy(f.cik, f.metric, f.previous_accession, f.previous_concept, f.start, f.end, f.filed_value)).map((f) => f.label),
  };
}

export interface NeverNegativeDerivationMeasure {
  /** served derived quarters of metrics the catalog says are never negative */
  derived: number;
  /** of them, those netting two concepts below zero (two lines), and those netting inputs of opposite signs (a sign slip netted) */
  mixed_below_zero: string[];
  opposite_signs: string[];
  /** below zero from one concept's inputs of one sign: the filer's own year-to-date figures fell (kept, as the filer told them) */
  below_zero_same_concept: number;
}

/** Rule 11's derivations, over the latest version of every statement, from the calculation steps. */
export function measureNeverNegativeDerivations(corpus: Corpus): NeverNegativeDerivationMeasure {
  const out: NeverNegativeDerivationMeasure = { derived: 0, mixed_below_zero: [], opposite_signs: [], below_zero_same_concept: 0 };
  for (const [key, versions] of corpus.statements) {
    for (const [metric, f] of Object.entries(versions[versions.length - 1]!.figures)) {
      if (!NON_NEGATIVE_METRICS.has(metric) || f.mapping_type !== 'DERIVED_DISCRETE_QUARTER' && f.mapping_type !== 'DERIVED_Q4') continue;
      const steps = f.calculation_steps ?? [];
      out.derived++;
      const label = `${key} ${metric} ${f.value} (${steps.map((s) => `${s.operation} ${s.value} ${s.source_xbrl_concept}`).join(', ')})`;
      const negative = steps.filter((s) => dec(s.value).isNegative() && !dec(s.value).isZero()).length;
      const positive = steps.filter((s) => dec(s.value).isPositive() && !dec(s.value).isZero()).length;
      if (negative > 0 && positive > 0) out.opposite_signs.push(label);
      else if (dec(f.value).isNegative() && !dec(f.value).isZero()) {
        if (new Set(steps.map((s) => s.source_xbrl_concept)).size > 1) out.mixed_below_zero.push(label);
        else out.below_zero_same_concept++;
      }
    }
  }
  return out;
}

export interface YearToDateSignMeasure {
  /** quarters (Q2-Q4) a later filing told with the opposite sign and the same digits, with the year-to-date through them in the same filing */
  flips: number;
  /** of them, those the year-to-date less the served earlier quarters decides one way only */
  decidable: number;
  /** decidable flips still recorded as revisions (restatement alerts) */
  revisions: string[];
  /** decidable flips whose served figure is not the side the identity gives */
  served_otherwise: string[];
}

/**
 * Version rule 9's year-to-date witness, measured apart from its code, from the filers' facts: for
 * every quarter a later filing told with the opposite sign of an earlier filing's figure (the same
 * digits), where the later filing also tells the year-to-date through that quarter under the same
 * concept and every earlier quarter of the year is served from other filings, the three readings
 * (the later filing right; only its quarter slipped; its year-to-date slipped with it) are worked
 * out on the served earlier quarters. Where exactly one holds, the flip must not be a revision and
 * the served quarter must be that reading's side.
 */
export async function measureYearToDateSigns(sql: Sql, corpus: Corpus): Promise<YearToDateSignMeasure> {
  const out: YearToDateSignMeasure = { flips: 0, decidable: 0, revisions: [], served_otherwise: [] };
  const revised = new Set(
    (await sql<{ key: string }[]>`
      SELECT v.cik || '|' || v.statement_type || '|' || v.fiscal_year || '|' || v.fiscal_period || '|' || r.metric AS key
      FROM fact_revisions r JOIN statement_versions v ON v.statement_version_id = r.statement_version_id
      WHERE r.old_value = -r.new_value AND r.old_value <> 0`).map((r) => r.key),
  );
  for (const [key, versions] of corpus.statements) {
    const [cik, type, fy, fp] = key.split('|') as [string, string, string, string];
    const k = { Q2: 2, Q3: 3, Q4: 4 }[fp];
    if (k === undefined || type === 'BALANCE_SHEET') continue;
    const served = versions[versions.length - 1]!;
    const facts = corpus.facts.get(cik) ?? [];
    for (const [metric, f] of Object.entries(served.figures)) {
      const concept = f.source_xbrl_concept;
      if (f.value_origin !== 'SOURCE' || concept === null) continue;
      const [taxonomy, name] = concept.split(':') as [string, string];
      // the quarter's three-month facts under the served concept, and the flips among them
      const told = facts.filter((x) => x.taxonomy === taxonomy && x.concept === name && x.end === f.period_end && x.start === f.period_start);
      for (const later of told) {
        const earlierFiling = told.find((x) => x.accession !== later.accession && x.filed < later.filed && x.value === negate(later.value) && !dec(x.value).isZero());
        if (earlierFiling === undefined) continue;
        const ytd = facts.find((x) => x.accession === later.accession && x.taxonomy === taxonomy && x.concept === name && x.end === f.period_end && x.start !== null && isYearToDate(x.start, x.end, k));
        if (ytd === undefined) continue;
        let earlier = dec('0');
        let complete = true;
        for (let q = 1; q < k; q++) {
          const list = corpus.statements.get(`${cik}|${type}|${fy}|Q${q}`);
          const e = list?.[list.length - 1]!.figures[metric];
          if (e === undefined || e.source_accession === later.accession) complete = false;
          else earlier = earlier.plus(dec(e.value));
        }
        if (!complete || earlier.isZero()) continue;
        out.flips++;
        const size = dec(later.value).abs();
        const near = (a: ReturnType<typeof dec>, b: string) => a.minus(dec(b)).abs().lessThanOrEqualTo(size.dividedBy(10));
        const readings = [
          near(dec(ytd.value).minus(earlier), later.value) ? later.value : null,
          near(dec(ytd.value).minus(earlier), earlierFiling.value) ? earlierFiling.value : null,
          near(dec(ytd.value).negated().minus(earlier), earlierFiling.value) ? earlierFiling.value : null,
        ].filter((r): r is string => r !== null);
        if (readings.length !== 1) continue;
        out.decidable++;
        const label = `${key} ${metric}: ${earlierFiling.value} (${earlierFiling.accession}) then ${later.value} (${later.accession}), year-to-date ${ytd.value}, earlier quarters ${earlier.toFixed()}`;
        if (revised.has(`${key}|${metric}`)) out.revisions.push(label);
        if (!sameFigure({ value: f.value }, { value: readings[0]! })) out.served_otherwise.push(`${label}: served ${f.value}`);
      }
    }
  }
  return out;
}

const negate = (v: string) => (v.startsWith('-') ? v.slice(1) : `-${v}`);

/** a duration as long as the year-to-date through the k-th quarter (6, 9 or 12 months) */
function isYearToDate(start: string, end: string, k: number): boolean {
  const cls = durationClass(start, end);
  return cls !== null && YTD_QUARTERS[cls] === k;
}

export interface NetChangeBeforeFxMeasure {
  /** a filing's tellings of a period whose tagged change in cash is its three section totals exactly, beside a non-zero exchange-rate line */
  told_before_fx: number;
  /** companies with such tellings */
  companies: string[];
  /** of those, where the same filing tells the cash balance at both ends: the balance moved by the subtotal plus the effect / by something else */
  balance_agrees: number;
  balance_disagrees: string[];
  /** served source figures of the change in cash from such a telling: served as the subtotal plus the effect / otherwise */
  served_right: number;
  served_otherwise: string[];
  /** latest cash-flow statements whose served change in cash is their served section totals exactly beside a non-zero exchange-rate line of the same telling (derived quarters included) */
  served_before_fx: string[];
  /** the same, where the exchange-rate line is carried from another filing's telling than the change in cash (a later filing re-told the period without it) */
  carried_effect: string[];
}

/** the filings a figure was read from: its own, or its derivation's inputs' */
const tellingOf = (f: StoredFigure) => (f.value_origin === 'SOURCE' ? f.source_accession : (f.calculation_steps ?? []).map((s) => s.source_accession).join('+'));

/** the us-gaap candidate concepts of a catalog metric, in catalog order (bare names, as companyfacts facts carry them) */
const usGaapConcepts = (metric: string) => (canonicalMetric(metric)?.concepts ?? []).filter((c) => c.taxonomy === 'us-gaap').map((c) => c.concept);

/** the change in cash, the three section totals and the exchange-rate line, each in catalog order */
const CASH_CHANGE = {
  net: usGaapConcepts('NET_CHANGE_IN_CASH'),
  sections: ['OPERATING_CASH_FLOW', 'INVESTING_CASH_FLOW', 'FINANCING_CASH_FLOW'].map(usGaapConcepts),
  fx: usGaapConcepts('EFFECT_OF_EXCHANGE_RATE_ON_CASH'),
  /** the balance each change-in-cash tag reconciles: its restricted-cash scope, or cash alone */
  balance: (net: string) => usGaapConcepts(/RestrictedCash/.test(net) ? 'CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH' : 'CASH_AND_EQUIVALENTS')[0]!,
};

/**
 * The change in cash tagged before the exchange-rate effect, measured apart from the correction's
 * code: from the filers' facts, every filing's telling of a period where the tagged change in cash
 * (a tag that includes the effect) is exactly the operating, investing and financing totals the
 * same filing tells beside a non-zero exchange-rate line; the balance sheet's cash at both ends,
 * where the filing tells it, says what cash moved by. Served source figures from such a telling
 * must be the subtotal plus the effect, and no latest cash-flow statement may serve a change in
 * cash that is its own sections exactly beside a non-zero effect (derived quarters included).
 */
export function measureNetChangeBeforeFx(corpus: Corpus): NetChangeBeforeFxMeasure {
  const out: NetChangeBeforeFxMeasure = { told_before_fx: 0, companies: [], balance_agrees: 0, balance_disagrees: [], served_right: 0, served_otherwise: [], served_before_fx: [], carried_effect: [] };
  const companies = new Set<string>();
  for (const [cik, facts] of corpus.facts) {
    const durations = new Map<string, Map<string, string>>();
    const instants = new Map<string, string>();
    for (const f of facts) {
      if (f.taxonomy !== 'us-gaap' || !PERIODIC.test(f.form)) continue;
      if (f.start === null) {
        const id = `${f.accession}|${f.concept}|${f.end}`;
        if (!instants.has(id)) instants.set(id, f.value);
        continue;
      }
      const id = `${f.accession}|${f.start}|${f.end}`;
      const concepts = durations.get(id) ?? new Map<string, string>();
      if (!concepts.has(f.concept)) concepts.set(f.concept, f.value);
      durations.set(id, concepts);
    }
    /** by accession, start and end: the tagged subtotal and the effect */
    const beforeFx = new Map<string, { net: string; fx: string }>();
    for (const [id, concepts] of durations) {
      const first = (names: readonly string[]) => names.find((n) => concepts.has(n));
      const netConcept = first(CASH_CHANGE.net);
      const fxConcept = first(CASH_CHANGE.fx);
      const sectionConcepts = CASH_CHANGE.sections.map(first);
      if (netConcept === undefined || fxConcept === undefined || sectionConcepts.some((c) => c === undefined)) continue;
      const fx = dec(concepts.get(fxConcept)!);
      const net = dec(concepts.get(netConcept)!);
      const sections = sectionConcepts.reduce((sum, c) => sum.plus(dec(concepts.get(c!)!)), dec('0'));
      if (fx.isZero() || !net.equals(sections)) continue;
      out.told_before_fx++;
      companies.add(cik);
      beforeFx.set(id, { net: net.toFixed(), fx: fx.toFixed() });
      const [accession, start, end] = id.split('|') as [string, string, string];
      const balance = CASH_CHANGE.balance(netConcept);
      const opening = instants.get(`${accession}|${balance}|${addDays(start, -1)}`);
      const closing = instants.get(`${accession}|${balance}|${end}`);
      if (opening === undefined || closing === undefined) continue;
      if (dec(closing).minus(dec(opening)).equals(net.plus(fx))) out.balance_agrees++;
      else out.balance_disagrees.push(`${cik} ${id}: ${balance} ${opening} -> ${closing}, tagged change ${net.toFixed()}, effect ${fx.toFixed()}`);
    }
    for (const [key, versions] of corpus.statements) {
      if (!key.startsWith(`${cik}|CASH_FLOW_STATEMENT|`)) continue;
      const figures = versions[versions.length - 1]!.figures;
      const net = figures.NET_CHANGE_IN_CASH;
      if (net === undefined) continue;
      const telling = net.value_origin === 'SOURCE' ? beforeFx.get(`${net.source_accession}|${net.period_start}|${net.period_end}`) : undefined;
      if (telling !== undefined) {
        const expected = dec(telling.net).plus(dec(telling.fx));
        if (dec(net.value).equals(expected)) out.served_right++;
        else out.served_otherwise.push(`${key}: served ${net.value}, tagged ${telling.net} before an effect of ${telling.fx}`);
      }
      const fx = figures.EFFECT_OF_EXCHANGE_RATE_ON_CASH;
      const sections = ['OPERATING_CASH_FLOW', 'INVESTING_CASH_FLOW', 'FINANCING_CASH_FLOW'].map((m) => figures[m]);
      if (fx === undefined || dec(fx.value).isZero() || sections.some((s) => s === undefined)) continue;
      if (sections.reduce((sum, s) => sum.plus(dec(s!.value)), dec('0')).equals(dec(net.value))) {
        const label = `${key}: change in cash ${net.value} = its sections, beside an effect of ${fx.value}`;
        if (tellingOf(fx) === tellingOf(net)) out.served_before_fx.push(label);
        else out.carried_effect.push(`${label} (${tellingOf(fx)}) carried from another telling than the change (${tellingOf(net)})`);
      }
    }
  }
  out.companies = [...companies].sort();
  return out;
}

export interface ResidualRevenueMeasure {
  /** latest income statements whose served revenue, cost of revenue and gross profit are all tagged figures */
  checked: number;
  /** of those, where revenue less cost is not the gross profit while the revenue's own filing tagged another revenue candidate for the period that makes it so */
  served_residual: string[];
}

/**
 * The revenue a filing's gross profit proves, measured on what is served: where the served revenue
 * less the served cost of revenue misses the served gross profit, and the filing the revenue was
 * read from also tagged another of the metric's candidate concepts for the period with the value
 * that closes it, the served revenue is a residual line (Under Armour's product sales, which its
 * 10-Qs of 2016 tagged as the total and its 10-Qs of 2017 as product sales again).
 */
export function measureResidualRevenue(corpus: Corpus): ResidualRevenueMeasure {
  const out: ResidualRevenueMeasure = { checked: 0, served_residual: [] };
  const candidates = new Set((canonicalMetric('REVENUE')?.concepts ?? []).map((c) => `${c.taxonomy}:${c.concept}`));
  for (const [key, versions] of corpus.statements) {
    if (!key.includes('|INCOME_STATEMENT|')) continue;
    const figures = versions[versions.length - 1]!.figures;
    const [revenue, cost, gross] = [figures.REVENUE, figures.COST_OF_REVENUE, figures.GROSS_PROFIT];
    if (!revenue || !cost || !gross || [revenue, cost, gross].some((f) => f.value_origin !== 'SOURCE')) continue;
    out.checked++;
    const missing = dec(gross.value).plus(dec(cost.value));
    if (missing.equals(dec(revenue.value))) continue;
    const cik = key.split('|')[0]!;
    const closing = (corpus.facts.get(cik) ?? []).find(
      (f) => f.accession === revenue.source_accession && f.start === revenue.period_start && f.end === revenue.period_end && candidates.has(`${f.taxonomy}:${f.concept}`) && dec(f.value).equals(missing),
    );
    if (closing) out.served_residual.push(`${key}: revenue ${revenue.value} (${revenue.source_xbrl_concept}, ${revenue.source_accession}) less cost ${cost.value} misses gross profit ${gross.value}; the same filing tagged ${closing.value} as ${closing.concept}`);
  }
  return out;
}

export interface EquityComponentTotalMeasure {
  /** a filing's tellings of a date where its total-equity tag is not its stockholders' equity plus noncontrolling interest but exactly a line of its equity section */
  told_as_component: number;
  companies: string[];
  /** served total equity from such a telling: its stockholders' equity plus noncontrolling interest / otherwise */
  served_right: number;
  served_otherwise: string[];
}

/** us-gaap lines of the equity section: the catalog's equity metrics other than the totals, temporary equity and noncontrolling interest */
const EQUITY_LINES = CANONICAL_METRICS.filter(
  (m) => m.category === 'EQUITY' && !['TOTAL_EQUITY', 'STOCKHOLDERS_EQUITY', 'LIABILITIES_AND_EQUITY', 'TEMPORARY_EQUITY', 'NONCONTROLLING_INTEREST'].includes(m.metric),
).flatMap((m) => usGaapConcepts(m.metric));

/**
 * Total equity tagged with a component's value, measured apart from the correction's code: from
 * the filers' facts, every filing's date where StockholdersEquityIncludingPortionAttributableTo-
 * NoncontrollingInterest is not StockholdersEquity plus MinorityInterest (none tagged: none) but
 * exactly the value of a line of the equity section the same filing tags at that date. The total
 * equity served from such a telling must be the stockholders' equity plus noncontrolling interest.
 */
export function measureEquityComponentTotals(corpus: Corpus): EquityComponentTotalMeasure {
  const out: EquityComponentTotalMeasure = { told_as_component: 0, companies: [], served_right: 0, served_otherwise: [] };
  const companies = new Set<string>();
  for (const [cik, facts] of corpus.facts) {
    const at = new Map<string, Map<string, string>>();
    for (const f of facts) {
      if (f.taxonomy !== 'us-gaap' || f.start !== null || !PERIODIC.test(f.form)) continue;
      const id = `${f.accession}|${f.end}`;
      const concepts = at.get(id) ?? new Map<string, string>();
      if (!concepts.has(f.concept)) concepts.set(f.concept, f.value);
      at.set(id, concepts);
    }
    const expected = new Map<string, string>();
    for (const [id, c] of at) {
      const total = c.get('StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest');
      const parent = c.get('StockholdersEquity');
      if (total === undefined || parent === undefined) continue;
      const sum = dec(parent).plus(dec(c.get('MinorityInterest') ?? '0'));
      if (sum.equals(dec(total)) || !EQUITY_LINES.some((line) => c.has(line) && dec(c.get(line)!).equals(dec(total)))) continue;
      out.told_as_component++;
      companies.add(cik);
      expected.set(id, sum.toFixed());
    }
    for (const [key, versions] of corpus.statements) {
      if (!key.startsWith(`${cik}|BALANCE_SHEET|`)) continue;
      const total = versions[versions.length - 1]!.figures.TOTAL_EQUITY;
      const sum = total === undefined ? undefined : expected.get(`${total.source_accession}|${total.period_end}`);
      if (sum === undefined) continue;
      if (dec(total!.value).equals(dec(sum))) out.served_right++;
      else out.served_otherwise.push(`${key}: total equity ${total!.value} (${total!.source_accession}), stockholders' equity plus noncontrolling interest ${sum}`);
    }
  }
  out.companies = [...companies].sort();
  return out;
}
