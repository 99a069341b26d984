import { Decimal } from 'decimal.js';
import type { Fact, FilingInfo } from '../domain/facts.ts';
import { durationClass } from '../domain/fiscal-calendar.ts';
import { isPeriodicForm, PERIODIC_FORMS } from '../domain/normalize/history.ts';
import { isAnnualForm } from '../domain/normalize/filing-periods.ts';
import { COMPANYFACTS_FOLDER_URL } from './cik-folder.ts';
import type { FilingRef } from './filing-columns.ts';
import { asRecord, cikFrom, requiredString } from './json-shape.ts';
import type { SecSource } from './source.ts';

/** One companyfacts file (`CIK##########.json`), flattened to one Fact per reported value. */
export interface ParsedCompanyFacts {
  /** 10 digits */
  cik: string;
  entityName: string;
  /** every taxonomy's facts (us-gaap, ifrs-full, dei, srt, invest, ecd, ffd ...), in file order */
  facts: Fact[];
  /** taxonomy names as the file lists them, in file order */
  taxonomies: string[];
  /** values that were not a JSON number (null, string, missing), dropped without a log line */
  skipped: number;
  /** UTF-8 size of the text parsed */
  bytes: number;
}

export { isPeriodicForm, PERIODIC_FORMS };

/** The SEC URL of a company's companyfacts file; accepts padded or unpadded CIKs. */
export function companyFactsUrl(cik: string | number): string {
  return `${COMPANYFACTS_FOLDER_URL}CIK${cikFrom(cik, 'cik')}.json`;
}

/**
 * Every `"val": <JSON number>` in the text. A JSON string can only hold `"` escaped (`\"`), so the
 * pattern can never match inside a label or description. `+` is not JSON, but is accepted and
 * dropped so a sloppy re-serializer does not cost the file.
 */
const VAL_NUMBER = /"val"\s*:\s*([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
/**
 * The rewritten values go under a key of their own, so a `val` that was already a string (or
 * null) in the file stays distinguishable from a number and is skipped rather than trusted.
 */
const NUMERIC_VAL_KEY = 'val#';
const VAL_AS_TEXT = `"${NUMERIC_VAL_KEY}":"$1"`;
const NEGATIVE_ZERO = /^-0(?:\.0*)?$/;
/**
 * Whether any numeric `val` could lose its text through a double: 16 or more digits, an exponent,
 * a `+`, trailing fraction zeros or negative zero. SEC writes none of these in practice, so most
 * files take the fast path (plain JSON.parse, then the double's shortest text, which equals the
 * source text); a file with any of them is rewritten to exact text first.
 */
const NEEDS_EXACT_TEXT = /"val"\s*:\s*(?:\+|-?[\d.]{16,}|-?[\d.]+[eE]|-?\d+\.\d*0(?![\d.])|-0(?![\d.]))/;

/**
 * Parses a companyfacts file without ever turning a value into a JS number: JSON.parse would
 * round integers beyond 2^53 and could print fractions differently from how SEC wrote them. One
 * regex pass first rewrites each numeric `val` into a string holding its exact text; values stay
 * that text unless written with an exponent (then plain decimal via decimal.js), a leading `+`,
 * or as negative zero. Everything else in the file is read as ordinary JSON.
 *
 * This is on the ingest hot path, so the only per-fact allocation is the Fact itself: the other
 * strings are the ones JSON.parse already made. A fact missing its accession, form, end or
 * filing date is a changed format and throws with its location; a non-numeric value is skipped.
 * `bytes`: the text's UTF-8 size where the caller has it (the file's length), to save a scan.
 */
export function parseCompanyFacts(text: string, options: { exactText?: boolean; bytes?: number } = {}): ParsedCompanyFacts {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const exactPath = options.exactText === true || NEEDS_EXACT_TEXT.test(body);
  const top = asRecord(JSON.parse(exactPath ? body.replace(VAL_NUMBER, VAL_AS_TEXT) : body), 'companyfacts');
  const valKey = exactPath ? NUMERIC_VAL_KEY : 'val';
  const cik = cikFrom(top.cik, 'companyfacts.cik');
  const entityName = requiredString(top.entityName, 'companyfacts.entityName');
  const byTaxonomy = asRecord(top.facts ?? {}, 'companyfacts.facts');

  const facts: Fact[] = [];
  const taxonomies: string[] = [];
  let skipped = 0;
  for (const taxonomy of Object.keys(byTaxonomy)) {
    taxonomies.push(taxonomy);
    const concepts = asRecord(byTaxonomy[taxonomy], `companyfacts.facts.${taxonomy}`);
    for (const concept of Object.keys(concepts)) {
      const where = `companyfacts.facts.${taxonomy}.${concept}`;
      const units = asRecord(asRecord(concepts[concept], where).units ?? {}, `${where}.units`);
      for (const unit of Object.keys(units)) {
        const rows = units[unit];
        if (!Array.isArray(rows)) throw new Error(`${where}.units.${unit}: expected an array`);
        skipped += pushFacts(facts, rows, taxonomy, concept, unit, where, exactPath, valKey);
      }
    }
  }
  return { cik, entityName, facts, taxonomies, skipped, bytes: options.bytes ?? Buffer.byteLength(text, 'utf8') };
}

/**
 * One unit's rows of a concept as Facts, appended to `facts`; returns how many were skipped (not
 * a number). A function of its own so that V8 compiles this, the per-fact loop, as one small
 * function called per unit: inside parseCompanyFacts it was compiled on the fly (OSR) with the
 * whole parser around it, again after each deoptimization, 20-40 ms a time, 7-8 times a run.
 */
function pushFacts(
  facts: Fact[],
  rows: unknown[],
  taxonomy: string,
  concept: string,
  unit: string,
  where: string,
  exactPath: boolean,
  valKey: string,
): number {
  let skipped = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Record<string, unknown> | null;
    if (row === null || typeof row !== 'object') throw new Error(`${where}.units.${unit}[${i}]: expected an object`);
    const raw = row[valKey];
    if (exactPath ? typeof raw !== 'string' : typeof raw !== 'number' || !Number.isFinite(raw)) {
      skipped++;
      continue;
    }
    const { accn, end, form, filed, start, fy, fp, frame } = row;
    if (typeof accn !== 'string' || accn === '') throw bad(where, unit, i, 'accn');
    if (typeof form !== 'string' || form === '') throw bad(where, unit, i, 'form');
    if (!isDay(end)) throw bad(where, unit, i, 'end');
    if (!isDay(filed)) throw bad(where, unit, i, 'filed');
    if (start != null && !isDay(start)) throw bad(where, unit, i, 'start');
    if (fy != null && !Number.isInteger(fy)) throw bad(where, unit, i, 'fy');
    if (fp != null && typeof fp !== 'string') throw bad(where, unit, i, 'fp');
    if (frame != null && typeof frame !== 'string') throw bad(where, unit, i, 'frame');
    facts.push({
      taxonomy,
      concept,
      unit,
      start: (start as string | undefined) ?? null,
      end,
      value: exactPath ? exactValue(raw as string) : shortestText(raw as number),
      accession: accn,
      fy: (fy as number | undefined) ?? null,
      fp: (fp as string | undefined) || null,
      form,
      filed,
      frame: (frame as string | undefined) || null,
      // present on every fact (a package's decimals, else null), so all facts share one shape
      decimals: null,
    });
  }
  return skipped;
}

/**
 * A double's shortest round-trip text, which is the source text itself whenever the source had
 * at most 15 significant digits, no exponent, no sign and no trailing fraction zeros: exactly the
 * files NEEDS_EXACT_TEXT lets through.
 */
function shortestText(v: number): string {
  const t = String(v);
  return t.includes('e') ? new Decimal(t).toFixed() : t;
}

/** The number text as a plain decimal string; the common case (no sign, no exponent) returns it untouched. */
function exactValue(raw: string): string {
  let v = raw.charCodeAt(0) === 43 /* + */ ? raw.slice(1) : raw;
  if (v.includes('e') || v.includes('E')) v = new Decimal(v).toFixed();
  if (v.charCodeAt(0) === 45 /* - */ && v.charCodeAt(1) === 48 /* 0 */ && NEGATIVE_ZERO.test(v)) v = v.slice(1);
  return v;
}

/** YYYY-MM-DD by shape only: a full regex per field would be most of the per-fact cost. */
function isDay(value: unknown): value is string {
  return typeof value === 'string' && value.length === 10 && value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45;
}

function bad(where: string, unit: string, index: number, field: string): Error {
  return new Error(`${where}.units.${unit}[${index}].${field}: missing or malformed`);
}

/**
 * Reads and parses a company's companyfacts file; null when the source has none (no XBRL, or
 * not mirrored). Read as one text because the numeric rewrite needs the raw bytes.
 */
export async function readCompanyFacts(source: SecSource, cik: string): Promise<ParsedCompanyFacts | null> {
  const url = companyFactsUrl(cik);
  const text = await source.readText(url);
  if (text === null) return null;
  let parsed: ParsedCompanyFacts;
  try {
    parsed = parseCompanyFacts(text);
  } catch (err) {
    throw new Error(`${url}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (parsed.cik !== cikFrom(cik, 'cik')) throw new Error(`${url} describes CIK ${parsed.cik}, not the CIK it is filed under`);
  return parsed;
}

/** Per-accession counts; "most frequent" everywhere below breaks ties by first seen, except report dates. */
interface Tally {
  forms: Counts<string>;
  filed: Counts<string>;
  fy: Counts<number>;
  fp: Counts<string>;
  /** non-dei fact end dates, per fp ('' for none) */
  ends: Map<string, Counts<string>>;
  /** latest end of a year-long / of a quarter or year-to-date duration (non-dei) */
  yearEnd: string | null;
  interimEnd: string | null;
}

/**
 * The filings a company's facts reveal, for companies without a submissions file (and to give
 * submissions filings their fiscal focus, see mergeFilings). One per accession:
 * - form, filing_date, fiscal_year_focus, fiscal_period_focus: the most frequent value among the
 *   accession's facts (they normally all agree; fy/fp ignore nulls).
 * - report_date, only for periodic forms: the latest end of a non-dei duration of the report's own
 *   kind (a year for annual forms, a quarter or year-to-date for quarterly ones): comparatives end
 *   earlier, and cover facts (dei shares outstanding) and odd-length subsequent-event facts are
 *   ignored. Without such durations, the most frequent `end` among non-dei facts whose fp is the
 *   filing's fp. (The most-frequent rule alone picked Apple's prior year for its 2009 10-K, which
 *   tags three years of the same concepts.)
 * - accepted_at, primary_document: null (companyfacts does not carry them).
 * Sorted by filing_date, then accession.
 */
export function filingsFromFacts(facts: Fact[]): FilingInfo[] {
  const tallies = new Map<string, Tally>();
  for (const f of facts) tally(tallies, f);

  const filings: FilingInfo[] = [];
  for (const [accession, t] of tallies) {
    const form = mostFrequent(t.forms) as string;
    const fp = mostFrequent(t.fp);
    let reportDate: string | null = isPeriodicForm(form) ? (isAnnualForm(form) ? t.yearEnd : t.interimEnd) : null;
    if (isPeriodicForm(form) && reportDate === null) {
      let best = 0;
      for (const [end, { n }] of t.ends.get(fp ?? '')?.counters ?? []) {
        if (n > best || (n === best && reportDate !== null && end > reportDate)) {
          best = n;
          reportDate = end;
        }
      }
    }
    filings.push({
      accession,
      form,
      filing_date: mostFrequent(t.filed) as string,
      report_date: reportDate,
      accepted_at: null,
      primary_document: null,
      fiscal_year_focus: mostFrequent(t.fy),
      fiscal_period_focus: fp,
      source: 'companyfacts',
      filing_date_estimated: false,
    });
  }
  return filings.sort(byDateThenAccession);
}

/**
 * One fact into its accession's Tally. A function of its own, called per fact, so that V8 compiles
 * this small body once: as the loop body of filingsFromFacts it was compiled on the fly (OSR) with
 * the whole function around it, and again after each deoptimization.
 */
function tally(tallies: Map<string, Tally>, f: Fact): void {
  let t = tallies.get(f.accession);
  if (t === undefined) {
    t = { forms: new Counts(), filed: new Counts(), fy: new Counts(), fp: new Counts(), ends: new Map(), yearEnd: null, interimEnd: null };
    tallies.set(f.accession, t);
  }
  t.forms.bump(f.form);
  t.filed.bump(f.filed);
  if (f.fy !== null) t.fy.bump(f.fy);
  if (f.fp !== null) t.fp.bump(f.fp);
  if (f.taxonomy === 'dei') return;
  const key = f.fp ?? '';
  let ends = t.ends.get(key);
  if (ends === undefined) t.ends.set(key, (ends = new Counts()));
  ends.bump(f.end);
  // periods ending after the filing date are schedules (lease and debt maturities by year), not the report's own
  if (f.start !== null && f.end <= f.filed) {
    const cls = durationClass(f.start, f.end);
    if (cls === 'year') {
      if (t.yearEnd === null || f.end > t.yearEnd) t.yearEnd = f.end;
    } else if (cls !== null && (t.interimEnd === null || f.end > t.interimEnd)) {
      t.interimEnd = f.end;
    }
  }
}

/**
 * Counts per key in first-seen order. The last key's counter is kept at hand: an accession's facts
 * mostly repeat one form, filing date, fy and fp, so most bumps need no map lookup.
 */
class Counts<K> {
  readonly counters = new Map<K, { n: number }>();
  private lastKey: K | undefined = undefined;
  private last: { n: number } | null = null;

  bump(key: K): void {
    if (this.last !== null && key === this.lastKey) {
      this.last.n++;
      return;
    }
    let c = this.counters.get(key);
    if (c === undefined) this.counters.set(key, (c = { n: 0 }));
    c.n++;
    this.lastKey = key;
    this.last = c;
  }
}

function mostFrequent<K>(counts: Counts<K>): K | null {
  let best: K | null = null;
  let bestCount = 0;
  for (const [key, { n }] of counts.counters) {
    if (n > bestCount) {
      best = key;
      bestCount = n;
    }
  }
  return best;
}

/** Submissions filings as FilingInfo, in the given order; submissions carry no fiscal focus. */
export function filingsFromSubmissions(refs: FilingRef[]): FilingInfo[] {
  return refs.map((r) => ({
    accession: r.accession,
    form: r.form,
    filing_date: r.filingDate,
    report_date: r.reportDate,
    accepted_at: r.acceptanceDateTime,
    primary_document: r.primaryDocument,
    fiscal_year_focus: null,
    fiscal_period_focus: null,
    source: 'submissions',
    filing_date_estimated: false,
  }));
}

/**
 * One filing per accession. A submissions filing wins (its form, dates and documents are SEC's
 * own index), taking only fiscal_year_focus / fiscal_period_focus from the facts' version where
 * that has them. Accessions only the facts know are kept: a mirror's submissions can lack old
 * history pages. Sorted by filing_date, then accession.
 */
export function mergeFilings(fromSubmissions: FilingInfo[], fromFacts: FilingInfo[]): FilingInfo[] {
  const factsByAccession = new Map<string, FilingInfo>();
  for (const f of fromFacts) if (!factsByAccession.has(f.accession)) factsByAccession.set(f.accession, f);

  const merged = new Map<string, FilingInfo>();
  for (const s of fromSubmissions) {
    if (merged.has(s.accession)) continue;
    const f = factsByAccession.get(s.accession);
    // every field written out, in FilingInfo's order: a spread copy would get a map of its own
    merged.set(s.accession, {
      accession: s.accession,
      form: s.form,
      filing_date: s.filing_date,
      report_date: s.report_date,
      accepted_at: s.accepted_at,
      primary_document: s.primary_document,
      fiscal_year_focus: f?.fiscal_year_focus ?? s.fiscal_year_focus,
      fiscal_period_focus: f?.fiscal_period_focus ?? s.fiscal_period_focus,
      source: s.source,
      filing_date_estimated: s.filing_date_estimated,
    });
  }
  for (const [accession, f] of factsByAccession) if (!merged.has(accession)) merged.set(accession, f);
  return [...merged.values()].sort(byDateThenAccession);
}

function byDateThenAccession(a: FilingInfo, b: FilingInfo): number {
  if (a.filing_date !== b.filing_date) return a.filing_date < b.filing_date ? -1 : 1;
  return a.accession < b.accession ? -1 : a.accession > b.accession ? 1 : 0;
}
