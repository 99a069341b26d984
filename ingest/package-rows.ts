import type { FilingInfo } from '../domain/facts.ts';
import { htmlToText, titleFromConcept } from '../domain/html-text.ts';
import type { PresentedStatement, StatementHistory } from '../domain/normalize/history.ts';
import type { CatalogView } from '../domain/normalize/catalog-view.ts';
import { durationClass } from '../domain/fiscal-calendar.ts';
import type { DisclosureRow, SegmentRow } from '../domain/package-rows.ts';
import { metricDimensionId, segmentFacts } from '../domain/segments.ts';
import { stableUuid } from '../domain/stable-id.ts';
import type { FilingPackage } from './packages.ts';

export type { DisclosureRow, SegmentRow };
import { STANDARD_LABEL_ROLE } from './xbrl/linkbases.ts';
import { isStandardPrefix } from './xbrl/qnames.ts';


/**
 * Segment rows of every package: each dimensional fact on a segment, geographic, product or
 * customer axis, tied to the consolidated statement the same filing presented for the same
 * period (same dates), so a breakdown is only ever compared with the total it was filed beside.
 */
export function segmentRows(cik: string, packages: readonly FilingPackage[], filings: ReadonlyMap<string, FilingInfo>, history: StatementHistory | null, catalog: CatalogView): SegmentRow[] {
  const presented = new Map<string, PresentedStatement>();
  for (const p of history?.presented ?? []) presented.set(`${p.accession}|${p.statement_type}|${p.period_start ?? ''}|${p.period_end}`, p);
  const rows: SegmentRow[] = [];
  for (const pkg of packages) {
    const filing = filings.get(pkg.accession);
    if (!filing) continue;
    for (const s of segmentFacts(pkg.instance, catalog, { labels: pkg.linkbases?.labels ?? null })) {
      // a schedule of future amounts (maturities by year) is not a reported period
      if (s.period_end > filing.filing_date && !filing.filing_date_estimated) continue;
      const match = presented.get(`${pkg.accession}|${s.statement_type}|${s.period_start ?? ''}|${s.period_end}`);
      const fiscal = match ?? fiscalOf(history, s.period_start, s.period_end);
      rows.push({
        metric_dimension_id: metricDimensionId({ cik, accession: pkg.accession, metric: s.metric, axis: s.axis, member: s.member, period_start: s.period_start, period_end: s.period_end }),
        accession: pkg.accession,
        statement_type: s.statement_type,
        fiscal_year: fiscal?.fiscal_year ?? null,
        fiscal_period: fiscal?.fiscal_period ?? null,
        version_sequence: match?.version_sequence ?? null,
        metric: s.metric,
        concept: s.concept,
        dimension_type: s.dimension_type,
        axis: s.axis,
        member: s.member,
        member_label: s.member_label,
        value: s.value,
        unit: s.unit,
        period_start: s.period_start,
        period_end: s.period_end,
        decimals: s.decimals,
        filing_date: filing.filing_date,
      });
    }
  }
  return rows;
}

/** The fiscal label of a period no statement of the filing presented (a comparative the normalizer did not fold). */
function fiscalOf(history: StatementHistory | null, start: string | null, end: string): { fiscal_year: number; fiscal_period: string | null } | null {
  if (!history) return null;
  const pos = history.calendar.locate(end);
  if (start === null) return { fiscal_year: pos.fiscal_year, fiscal_period: pos.quarter === 4 ? 'FY' : `Q${pos.quarter}` };
  const cls = durationClass(start, end);
  if (cls === 'year') return { fiscal_year: pos.fiscal_year, fiscal_period: 'FY' };
  if (cls === 'quarter') return { fiscal_year: pos.fiscal_year, fiscal_period: `Q${pos.quarter}` };
  // nine months, half years: labelled by year only, as no statement period is that long
  return { fiscal_year: pos.fiscal_year, fiscal_period: null };
}


const TEXT_BLOCK = /TextBlock$/;
const TERSE_LABEL_ROLE = 'http://www.xbrl.org/2003/role/terseLabel';
/** label suffixes that describe the XBRL type rather than the note: "Income Taxes [Text Block]" */
const TYPE_SUFFIX = /\s*[[(](?:Text Block|Policy Text Block|Abstract)[\])]\s*$/i;
const DISCLOSURE_MARK = / - Disclosure - /i;

/**
 * Every TextBlock fact of every package as a disclosure: its text as readable plain text, its
 * title from the filing's terse label, else the heading of the role the note is presented in,
 * else its standard label, else the concept's own words. A filer's extension concept is named `src:<local name>`: its prefix is the
 * filer's choice and means nothing outside the filing.
 */
export function disclosureRows(packages: readonly FilingPackage[], filings: ReadonlyMap<string, FilingInfo>): DisclosureRow[] {
  const rows: DisclosureRow[] = [];
  for (const pkg of packages) {
    const filing = filings.get(pkg.accession);
    if (!filing) continue;
    const roleTitles = noteRoleTitles(pkg);
    const seen = new Set<string>();
    for (const f of pkg.instance.facts) {
      if (f.numeric || f.nil || f.value === null || !TEXT_BLOCK.test(f.concept)) continue;
      const ctx = pkg.instance.contexts.get(f.contextRef);
      if (!ctx) continue;
      const text = htmlToText(f.value);
      if (text.length === 0) continue;
      const [prefix, local] = splitQName(f.concept);
      const concept = isStandardPrefix(prefix, pkg.instance.namespaces) ? f.concept : `src:${local}`;
      const dims = ctx.dimensions.map((d) => `${d.axis}=${d.member ?? d.typed}`).join(',');
      const id = stableUuid('disclosure', [pkg.accession, f.concept, ctx.start, ctx.end, dims]);
      if (seen.has(id)) continue;
      seen.add(id);
      const labels = pkg.linkbases?.labels.get(f.concept);
      const terse = labels?.get(TERSE_LABEL_ROLE)?.replace(TYPE_SUFFIX, '').trim();
      const standard = labels?.get(STANDARD_LABEL_ROLE)?.replace(TYPE_SUFFIX, '').trim();
      rows.push({
        disclosure_id: id,
        accession: pkg.accession,
        period_of_report: filing.report_date,
        concept,
        // the filer's terse label and its note heading name the note as the filing does ("Income
        // Taxes"); the standard label often names the element ("Income Tax Disclosure")
        title: terse || roleTitles.get(f.concept) || standard || titleFromConcept(f.concept),
        disclosure_text: text,
        char_count: codePointCount(text),
        context_start: ctx.start,
        context_end: ctx.end,
        filing_date: filing.filing_date,
      });
    }
  }
  return rows;
}

/** concept -> title of the "Disclosure" role whose presentation holds it ("0000012 - Disclosure - Income Taxes" -> "Income Taxes") */
function noteRoleTitles(pkg: FilingPackage): Map<string, string> {
  const out = new Map<string, string>();
  const lb = pkg.linkbases;
  if (!lb) return out;
  for (const arc of lb.presentation) {
    if (!TEXT_BLOCK.test(arc.to) || out.has(arc.to)) continue;
    const definition = lb.roleDefinitions.get(arc.role);
    if (definition && DISCLOSURE_MARK.test(definition)) out.set(arc.to, definition.split(DISCLOSURE_MARK).slice(1).join(' - ').trim());
  }
  return out;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Characters as the string iterator counts them ([...text].length: a surrogate pair is one, a
 * lone surrogate one), without spreading a note of many thousand characters into an array.
 */
export function codePointCount(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

function splitQName(q: string): [string, string] {
  const i = q.indexOf(':');
  return i < 0 ? ['', q] : [q.slice(0, i), q.slice(i + 1)];
}
