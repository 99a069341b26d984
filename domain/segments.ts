/**
 * Segment and disaggregation figures of one filing: the facts a filer tags on one standard axis
 * (business segments, geographic areas, products and services, major customers) for a concept
 * that maps to a canonical metric, in that metric's sign. Pure: it reads a parsed instance and
 * the filing's labels, never the database or the network.
 *
 * The members of an axis are what the filer tagged, no more: an axis often carries a subtotal
 * beside its parts (Apple tags Products beside iPhone, Mac, iPad and Wearables on
 * ProductOrServiceAxis; Tesla tags Automotive Revenues beside its sales, credits and leasing), so
 * the rows of one axis are not a partition and must never be summed blindly.
 */
import type { StatementType } from './catalog/types.ts';
import { negate } from './decimal.ts';
import type { Fact } from './facts.ts';
import { reportingCurrency, unitFits } from './normalize/candidates.ts';
import { stableUuid } from './stable-id.ts';
import type { CatalogView } from './normalize/catalog-view.ts';
import type { ParsedInstance, QName, XbrlFact } from './xbrl.ts';

export const DIMENSION_TYPES = ['BUSINESS_SEGMENT', 'GEOGRAPHIC', 'PRODUCT_SERVICE', 'MAJOR_CUSTOMER'] as const;
export type DimensionType = (typeof DIMENSION_TYPES)[number];

/** concept -> label role URI -> text, as parseLinkbase('label', ...) gives it */
export type MemberLabels = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** the standard label role (ingest/xbrl/linkbases.ts has the same constant; domain does not import ingest) */
export const STANDARD_LABEL_ROLE = 'http://www.xbrl.org/2003/role/label';
const TERSE_LABEL_ROLE = 'http://www.xbrl.org/2003/role/terseLabel';

const AXIS_LOCAL_NAMES: ReadonlyMap<string, DimensionType> = new Map([
  ['StatementBusinessSegmentsAxis', 'BUSINESS_SEGMENT'],
  ['SegmentsAxis', 'BUSINESS_SEGMENT'],
  ['StatementGeographicalAxis', 'GEOGRAPHIC'],
  ['ProductOrServiceAxis', 'PRODUCT_SERVICE'],
  ['MajorCustomersAxis', 'MAJOR_CUSTOMER'],
]);

/** srt took over several of these axes from us-gaap in 2018; filings of either era are read alike */
const AXIS_TAXONOMIES = new Set(['us-gaap', 'srt']);

/**
 * What a standard axis disaggregates by, or null. Only the us-gaap and srt axes count: a filer's
 * extension axis (aapl:..., tsla:...) means whatever the filer's schema says it means, and a
 * name that reads like "RegionAxis" or "SegmentAxis" may slice a single line item, a plan or a
 * legal entity. Guessing from the name would present such slices as segment data; a filer that
 * reports segments under ASC 280 uses the standard axes, so nothing real is lost.
 */
export function dimensionTypeOf(axis: string): DimensionType | null {
  const colon = axis.indexOf(':');
  if (colon <= 0 || !AXIS_TAXONOMIES.has(axis.slice(0, colon))) return null;
  return AXIS_LOCAL_NAMES.get(axis.slice(colon + 1)) ?? null;
}

/** the "[Member]" / "[Domain]" type suffix taxonomies put on standard labels of members */
const TYPE_SUFFIX = /\s*\[(?:Member|Domain)\]\s*$/;

/**
 * A member's display name: its standard label from the filing's label linkbase (without the
 * taxonomy's " [Member]" suffix: "Greater China Segment [Member]" -> "Greater China Segment"),
 * else one read from the local name: aapl:GreaterChinaSegmentMember -> "Greater China Segment",
 * us-gaap:ServiceMember -> "Service", country:US -> "US".
 */
export function memberLabel(member: string, labels: MemberLabels | null): string {
  // a member's terse label is how the filer names it in tables ("Greater China"); the standard one
  // often adds the kind ("Greater China Segment")
  const byRole = labels?.get(member);
  const standard = (byRole?.get(TERSE_LABEL_ROLE) ?? byRole?.get(STANDARD_LABEL_ROLE))?.trim();
  if (standard) {
    const bare = standard.replace(TYPE_SUFFIX, '').trim();
    if (bare !== '') return bare;
  }
  return labelFromLocalName(member);
}

function labelFromLocalName(qname: string): string {
  const local = qname.slice(qname.indexOf(':') + 1);
  const stem = local.length > 'Member'.length && local.endsWith('Member') ? local.slice(0, -'Member'.length) : local;
  const words = stem
    .replace(/_+/g, ' ')
    // aB -> a B; 1B -> 1 B; a1 -> a 1
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    // an acronym before a word: USDollar -> US Dollar
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .replace(/\s+/g, ' ');
  return words === '' ? qname : words;
}

/** One tagged value of a canonical metric for one member of one standard axis, for one period. */
export interface SegmentFact {
  metric: string;
  statement_type: StatementType;
  /** the concept as the instance names it, e.g. us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax */
  concept: QName;
  /** position of the concept in the metric's candidate list; lower wins */
  rank: number;
  axis: QName;
  member: QName;
  member_label: string;
  dimension_type: DimensionType;
  /** in the metric's sign convention */
  value: string;
  /** exactly as tagged */
  tagged_value: string;
  /** SEC companyfacts spelling: USD, shares, USD/shares ... */
  unit: string;
  /** null for an instant */
  period_start: string | null;
  period_end: string;
  /** 'INF', an integer as written, or null */
  decimals: string | null;
}

export interface SegmentOptions {
  /** the filing's label linkbase; null or absent: labels are read from member local names */
  labels?: MemberLabels | null;
  /** the reporting currency; undefined: the most used currency among the non-dimensional facts */
  currency?: string | null;
}

function splitQName(qname: string): [taxonomy: string, local: string] | null {
  const colon = qname.indexOf(':');
  return colon <= 0 ? null : [qname.slice(0, colon), qname.slice(colon + 1)];
}

/** The reporting currency of an instance, by reportingCurrency over its non-dimensional numeric facts. */
export function instanceCurrency(instance: ParsedInstance): string | null {
  const facts: Fact[] = [];
  for (const f of instance.facts) {
    if (!f.numeric || f.nil || f.value === null || f.unitRef === null) continue;
    const ctx = instance.contexts.get(f.contextRef);
    const unit = instance.units.get(f.unitRef);
    if (!ctx || !unit || ctx.dimensions.length > 0) continue;
    const [taxonomy, concept] = splitQName(f.concept) ?? ['', f.concept];
    // reportingCurrency reads the unit only; the filing fields are not known from an instance alone
    facts.push({
      taxonomy,
      concept,
      unit: unit.measure,
      start: ctx.start,
      end: ctx.end,
      value: f.value,
      accession: '',
      fy: null,
      fp: null,
      form: '',
      filed: '',
      frame: null,
      decimals: null,
    });
  }
  return reportingCurrency(facts);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareSegmentFacts(a: SegmentFact, b: SegmentFact): number {
  return (
    compareText(a.period_end, b.period_end) ||
    compareText(a.period_start ?? '', b.period_start ?? '') ||
    compareText(a.metric, b.metric) ||
    compareText(a.dimension_type, b.dimension_type) ||
    compareText(a.axis, b.axis) ||
    compareText(a.member, b.member)
  );
}

/**
 * Every single-dimension fact of a standard axis that serves a canonical metric, as
 * collectCandidates would take it on the face statements: the metric's period kind, a unit that
 * fits (money in the reporting currency), the metric's sign. For one metric, member and period
 * the best-ranked concept wins, as it does for the consolidated figure; a fact repeated in the
 * instance counts once (the first seen). Facts with two or more dimensions are slices of a slice
 * (a segment's product line, a receivable's benchmark) and are left out. There is no filing date
 * here, so future-period schedules are not filtered; callers that know it can drop them.
 */
export function segmentFacts(instance: ParsedInstance, catalog: CatalogView, opts: SegmentOptions = {}): SegmentFact[] {
  const currency = opts.currency === undefined ? instanceCurrency(instance) : opts.currency;
  const labels = opts.labels ?? null;
  const best = new Map<string, SegmentFact>();
  const labelCache = new Map<string, string>();

  for (const fact of instance.facts) {
    const row = factParts(instance, fact);
    if (!row) continue;
    const uses = catalog.index.get(row.taxonomy)?.get(row.local);
    if (!uses) continue;
    for (const use of uses) {
      const m = use.metric;
      if ((m.period_kind === 'instant') !== (row.start === null)) continue;
      if (!unitFits(m, row.unit, currency)) continue;
      const key = JSON.stringify([m.metric, row.axis, row.member, row.start, row.end]);
      const held = best.get(key);
      if (held && held.rank <= use.rank) continue;
      let label = labelCache.get(row.member);
      if (label === undefined) labelCache.set(row.member, (label = memberLabel(row.member, labels)));
      best.set(key, {
        metric: m.metric,
        statement_type: m.statement_type,
        concept: fact.concept,
        rank: use.rank,
        axis: row.axis,
        member: row.member,
        member_label: label,
        dimension_type: row.type,
        value: use.negate ? negate(row.value) : row.value,
        tagged_value: row.value,
        unit: row.unit,
        period_start: row.start,
        period_end: row.end,
        decimals: fact.decimals,
      });
    }
  }
  return [...best.values()].sort(compareSegmentFacts);
}

interface FactParts {
  taxonomy: string;
  local: string;
  axis: QName;
  member: QName;
  type: DimensionType;
  value: string;
  unit: string;
  start: string | null;
  end: string;
}

/** the parts of a numeric, non-nil fact on exactly one explicit member of a standard axis; else null */
function factParts(instance: ParsedInstance, fact: XbrlFact): FactParts | null {
  if (!fact.numeric || fact.nil || fact.value === null || fact.unitRef === null) return null;
  const ctx = instance.contexts.get(fact.contextRef);
  if (!ctx || ctx.dimensions.length !== 1) return null;
  const dim = ctx.dimensions[0]!;
  if (dim.member === null) return null;
  const type = dimensionTypeOf(dim.axis);
  if (type === null) return null;
  const unit = instance.units.get(fact.unitRef);
  const name = splitQName(fact.concept);
  if (!unit || !name) return null;
  return {
    taxonomy: name[0],
    local: name[1],
    axis: dim.axis,
    member: dim.member,
    type,
    value: fact.value,
    unit: unit.measure,
    start: ctx.start,
    end: ctx.end,
  };
}

/** namespace of metricDimensionId: changing it (or the parts) changes every id */
const ID_NAMESPACE = 'filings-data-service/metric-dimension/v1';

/**
 * A stable id for one segment figure of one filing: the same filing ingested again gives the
 * same ids. Shaped like a name-based UUID (RFC 4122 variant, version 5) but hashed with SHA-256
 * over the parts as a JSON array, so no two different sets of parts share an input. The CIK is
 * taken zero-padded, so '320193' and '0000320193' name the same company.
 */
export function metricDimensionId(parts: {
  cik: string;
  accession: string;
  metric: string;
  axis: string;
  member: string;
  period_start: string | null;
  period_end: string;
}): string {
  return stableUuid(ID_NAMESPACE, [
    parts.cik.trim().padStart(10, '0'),
    parts.accession,
    parts.metric,
    parts.axis,
    parts.member,
    parts.period_start,
    parts.period_end,
  ]);
}
