/**
 * What a filing package says, as the readers in ingest/xbrl/ produce it. An XBRL instance
 * (`*_htm.xml`, `*.xml`) and an inline XBRL document (`*.htm`) both yield a `ParsedInstance`, so
 * the two can be compared fact for fact and the normalizer never cares which it came from.
 */

/** Where a namespace has a standard prefix (us-gaap, ifrs-full, dei, srt, country, currency, ecd...) it is used; a filer extension keeps the filer's own prefix. */
export type QName = string;

export interface XbrlDimension {
  /** axis, e.g. us-gaap:StatementBusinessSegmentsAxis */
  axis: QName;
  /** explicit member, e.g. aapl:AmericasSegmentMember; null for a typed dimension */
  member: QName | null;
  /** typed dimension value as text; null for an explicit one */
  typed: string | null;
}

export interface XbrlContext {
  id: string;
  /** entity identifier (the CIK, as written) */
  entity: string;
  /** null for an instant */
  start: string | null;
  /** the instant, or the end of a duration, YYYY-MM-DD. XBRL writes duration ends as the next day's midnight only in rare filings; dates are taken as written. */
  end: string;
  /** segment and scenario dimensions, sorted by axis */
  dimensions: XbrlDimension[];
}

export interface XbrlUnit {
  id: string;
  /** SEC companyfacts spelling: USD, shares, USD/shares, pure, EUR/shares ... (measure local names, divide as a/b) */
  measure: string;
}

export interface XbrlFact {
  /** e.g. us-gaap:Revenues */
  concept: QName;
  contextRef: string;
  /** null for non-numeric facts */
  unitRef: string | null;
  /** numeric: an exact plain decimal string (inline scale and sign applied); non-numeric: the text (inline: the HTML of the fact, continuations joined); null when nil */
  value: string | null;
  numeric: boolean;
  nil: boolean;
  /** 'INF', an integer as written (e.g. '-6'), or null when absent */
  decimals: string | null;
  /** the fact's id attribute, when it has one */
  id: string | null;
  /** inline only: true when the fact sits in ix:header's ix:hidden */
  hidden?: boolean;
}

export interface XbrlFootnote {
  id: string;
  text: string;
  /** ids of the facts the footnote is linked to */
  factIds: string[];
}

export interface ParsedInstance {
  contexts: Map<string, XbrlContext>;
  units: Map<string, XbrlUnit>;
  facts: XbrlFact[];
  footnotes: XbrlFootnote[];
  /** prefix -> namespace URI as declared in the document */
  namespaces: Record<string, string>;
  /** schemaRef href (the filer's .xsd) */
  schemaRef: string | null;
}

/** One arc of a presentation or calculation tree within an extended link role (a statement or note). */
export interface LinkbaseArc {
  role: string;
  from: QName;
  to: QName;
  order: number;
  /** calculation weight (1 or -1); null for presentation arcs */
  weight: number | null;
  /** presentation preferredLabel role, when given */
  preferredLabel: string | null;
}

export interface Linkbases {
  /** presentation arcs by role URI */
  presentation: LinkbaseArc[];
  calculation: LinkbaseArc[];
  /** concept -> label role URI -> label text (standard labels under http://www.xbrl.org/2003/role/label) */
  labels: Map<QName, Map<string, string>>;
  /** role URI -> definition text from the schema (e.g. "0000002 - Statement - CONSOLIDATED BALANCE SHEETS"), when the .xsd is present */
  roleDefinitions: Map<string, string>;
}
