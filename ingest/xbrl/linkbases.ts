import type { SaxesTagNS } from 'saxes';
import type { LinkbaseArc, Linkbases, QName } from '../../domain/xbrl.ts';
import type { SecSource } from '../source.ts';
import { attrNs, attrPlain, feedSax, LINK_NS, XLINK_NS, XML_NS, type XmlInput } from './xml-input.ts';
import { XmlScanParser } from './xml-scan.ts';

export { calculationChildren, flattenTree, presentationTree, statementRoles } from './linkbase-roles.ts';
export type { PresentationNode, StatementKind, StatementRole } from './linkbase-roles.ts';

/**
 * Streaming readers for a filer's presentation, calculation and label linkbases and for the
 * role definitions in its schema. Only the filer's own files are read: the base taxonomies
 * (us-gaap, dei...) are never fetched, because statements are laid out by the filer's
 * linkbases and SEC filings carry a complete copy of every label and arc they use.
 */

export type LinkbaseKind = 'presentation' | 'calculation' | 'label';
export type ConceptLabels = Map<QName, Map<string, string>>;

export const STANDARD_LABEL_ROLE = 'http://www.xbrl.org/2003/role/label';
const PARENT_CHILD = 'http://www.xbrl.org/2003/arcrole/parent-child';
const SUMMATION_ITEM = 'http://www.xbrl.org/2003/arcrole/summation-item';
const CONCEPT_LABEL = 'http://www.xbrl.org/2003/arcrole/concept-label';

const ELEMENTS: Record<LinkbaseKind, { link: string; arc: string; arcrole: string }> = {
  presentation: { link: 'presentationLink', arc: 'presentationArc', arcrole: PARENT_CHILD },
  calculation: { link: 'calculationLink', arc: 'calculationArc', arcrole: SUMMATION_ITEM },
  label: { link: 'labelLink', arc: 'labelArc', arcrole: CONCEPT_LABEL },
};

/**
 * The concept a locator points at. SEC filers' schemas (and every standard taxonomy) give each
 * element the id `prefix_LocalName`, so the fragment alone names the concept without fetching
 * the schema; splitting at the first underscore is safe because prefixes never contain one
 * while local names may. Standard taxonomies' ids already carry the standard prefix (us-gaap,
 * ifrs-full, dei, srt, country...), so no namespace lookup is needed; a filer extension keeps
 * the prefix of its own schema, which is what its instance uses too. Fragments without an
 * underscore (role and arcrole ids, XPointer) are not concepts: null.
 */
export function conceptFromHref(href: string): QName | null {
  const hash = href.indexOf('#');
  if (hash < 0) return null;
  const fragment = safeDecode(href.slice(hash + 1));
  const cut = fragment.indexOf('_');
  if (cut <= 0 || cut === fragment.length - 1) return null;
  return `${fragment.slice(0, cut)}:${fragment.slice(cut + 1)}`;
}

interface RawArc {
  from: string;
  to: string;
  order: number;
  weight: number | null;
  preferredLabel: string | null;
  prohibited: boolean;
  priority: number;
}

interface LabelResource {
  role: string;
  lang: string;
  text: string;
}

/** One extended link's locators, arcs and label resources, resolved when the link closes (arcs may precede the locators they name). */
interface OpenLink {
  role: string;
  locs: Map<string, QName[]>;
  arcs: RawArc[];
  resources: Map<string, LabelResource[]>;
}

/** Parses one presentation or calculation linkbase into arcs (document order), or a label linkbase into concept -> role -> text. */
export function parseLinkbase(kind: 'presentation' | 'calculation', input: XmlInput): Promise<LinkbaseArc[]>;
export function parseLinkbase(kind: 'label', input: XmlInput): Promise<ConceptLabels>;
export async function parseLinkbase(kind: LinkbaseKind, input: XmlInput): Promise<LinkbaseArc[] | ConceptLabels> {
  const spec = ELEMENTS[kind];
  const arcs: Array<LinkbaseArc & { prohibited: boolean; priority: number }> = [];
  const labels: ConceptLabels = new Map();
  const labelRank = new Map<string, number>();
  let link: OpenLink | null = null;
  let label: (LabelResource & { key: string }) | null = null;

  const parser = new XmlScanParser();
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (tag.uri !== LINK_NS) return;
    const a = tag.attributes;
    if (tag.local === spec.link) {
      link = { role: attrNs(a, XLINK_NS, 'role') ?? '', locs: new Map(), arcs: [], resources: new Map() };
      return;
    }
    if (!link) return;
    if (tag.local === 'loc') {
      const key = attrNs(a, XLINK_NS, 'label');
      const concept = conceptFromHref(attrNs(a, XLINK_NS, 'href') ?? '');
      // xlink labels need not be unique: an arc then joins every locator sharing the label
      if (key && concept) push(link.locs, key, concept);
    } else if (tag.local === spec.arc) {
      const arc = rawArc(a, spec.arcrole, kind === 'calculation');
      if (arc) link.arcs.push(arc);
    } else if (kind === 'label' && tag.local === 'label') {
      const key = attrNs(a, XLINK_NS, 'label') ?? '';
      label = { key, role: attrNs(a, XLINK_NS, 'role') ?? STANDARD_LABEL_ROLE, lang: attrNs(a, XML_NS, 'lang') ?? '', text: '' };
    }
  });
  const onText = (text: string) => {
    if (label) label.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag: SaxesTagNS) => {
    if (tag.uri !== LINK_NS || !link) return;
    if (tag.local === 'label' && label) {
      push(link.resources, label.key, { role: label.role, lang: label.lang, text: label.text.trim() });
      label = null;
    } else if (tag.local === spec.link) {
      if (kind === 'label') resolveLabels(link, labels, labelRank);
      else resolveArcs(link, arcs, kind);
      link = null;
    }
  });
  await feedSax(parser, input);
  return kind === 'label' ? labels : applyProhibitions(arcs);
}

function rawArc(a: SaxesTagNS['attributes'], arcrole: string, needsWeight: boolean): RawArc | null {
  // other arcroles (essence-alias, XBRL 2.1 extensions, calc 1.1) would mislabel a tree: skip them
  if (attrNs(a, XLINK_NS, 'arcrole') !== arcrole) return null;
  const from = attrNs(a, XLINK_NS, 'from');
  const to = attrNs(a, XLINK_NS, 'to');
  if (!from || !to) return null;
  const order = Number(attrPlain(a, 'order') ?? '1'); // XBRL 2.1 default order is 1
  const weightText = attrPlain(a, 'weight');
  const weight = weightText === null ? null : Number(weightText);
  if (needsWeight && (weight === null || !Number.isFinite(weight))) return null;
  return {
    from,
    to,
    order: Number.isFinite(order) ? order : 1,
    weight: needsWeight ? weight : null,
    preferredLabel: attrPlain(a, 'preferredLabel'),
    prohibited: attrPlain(a, 'use') === 'prohibited',
    priority: Number(attrPlain(a, 'priority') ?? '0') || 0,
  };
}

function resolveArcs(link: OpenLink, out: Array<LinkbaseArc & { prohibited: boolean; priority: number }>, kind: LinkbaseKind): void {
  for (const arc of link.arcs) {
    for (const from of link.locs.get(arc.from) ?? []) {
      for (const to of link.locs.get(arc.to) ?? []) {
        out.push({
          role: link.role,
          from,
          to,
          order: arc.order,
          weight: kind === 'calculation' ? arc.weight : null,
          preferredLabel: kind === 'presentation' ? arc.preferredLabel : null,
          prohibited: arc.prohibited,
          priority: arc.priority,
        });
      }
    }
  }
}

/**
 * XBRL relationship equivalence, simplified to what changes a statement: role, ends, order,
 * weight and preferred label (so an equity statement's opening and closing balance, the same
 * concept twice under one parent, stay two arcs). Among equivalent arcs the highest priority
 * wins and a prohibiting arc removes the rest; duplicates (the same role split over two link
 * elements) collapse to one. Filers rarely prohibit within their own files, but when they do
 * the statement must not show the removed line.
 */
function applyProhibitions(arcs: Array<LinkbaseArc & { prohibited: boolean; priority: number }>): LinkbaseArc[] {
  // per equivalence key: first position (document order is kept), top priority, and whether an arc at that priority prohibits
  const groups = new Map<string, { first: number; priority: number; prohibited: boolean }>();
  arcs.forEach((arc, index) => {
    const key = [arc.role, arc.from, arc.to, arc.order, arc.weight, arc.preferredLabel].join('\u0000');
    const g = groups.get(key);
    if (!g) groups.set(key, { first: index, priority: arc.priority, prohibited: arc.prohibited });
    else if (arc.priority > g.priority) Object.assign(g, { priority: arc.priority, prohibited: arc.prohibited });
    else if (arc.priority === g.priority && arc.prohibited) g.prohibited = true;
  });
  const keep = new Set<number>();
  for (const g of groups.values()) if (!g.prohibited) keep.add(g.first);
  return arcs
    .filter((_, index) => keep.has(index))
    .map(({ role, from, to, order, weight, preferredLabel }) => ({ role, from, to, order, weight, preferredLabel }));
}

/** Prefers en-US, then other English, then whatever came first: SEC filings are English, but a stray second language must not replace the filer's wording. */
function langRank(lang: string): number {
  const l = lang.toLowerCase();
  return l === 'en-us' ? 0 : l === 'en' || l.startsWith('en-') ? 1 : 2;
}

function resolveLabels(link: OpenLink, labels: ConceptLabels, rank: Map<string, number>): void {
  for (const arc of link.arcs) {
    const resources = link.resources.get(arc.to);
    if (!resources) continue; // a label in another file (via loc) is not used by SEC filers
    for (const concept of link.locs.get(arc.from) ?? []) {
      let roles = labels.get(concept);
      if (!roles) labels.set(concept, (roles = new Map()));
      for (const r of resources) {
        const key = `${concept}\u0000${r.role}`;
        const score = langRank(r.lang);
        if ((rank.get(key) ?? Infinity) <= score) continue;
        rank.set(key, score);
        roles.set(r.role, r.text);
      }
    }
  }
}

/** `link:roleType` roleURI -> `link:definition` text from the filer's schema, e.g. "0000005 - Statement - CONSOLIDATED BALANCE SHEETS". */
export async function parseSchemaRoles(input: XmlInput): Promise<Map<string, string>> {
  const roles = new Map<string, string>();
  let roleUri: string | null = null;
  let definition: string | null = null;
  const parser = new XmlScanParser();
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (tag.uri !== LINK_NS) return;
    if (tag.local === 'roleType') roleUri = attrPlain(tag.attributes, 'roleURI');
    else if (tag.local === 'definition' && roleUri) definition = '';
  });
  parser.on('text', (text: string) => {
    if (definition !== null) definition += text;
  });
  parser.on('closetag', (tag: SaxesTagNS) => {
    if (tag.uri !== LINK_NS) return;
    if (tag.local === 'definition' && roleUri && definition !== null) {
      // 2009-era files wrap the text over lines; collapse so title matching sees one line
      roles.set(roleUri, definition.replace(/\s+/g, ' ').trim());
      definition = null;
    } else if (tag.local === 'roleType') {
      if (roleUri && !roles.has(roleUri)) roles.set(roleUri, '');
      roleUri = null;
    }
  });
  await feedSax(parser, input);
  return roles;
}

/** File names (relative to the filing folder) of the parts of a filing's taxonomy; `FilingFiles` from filing-folder.ts fits. */
export interface LinkbaseFiles {
  schema?: string | null;
  presentation?: string | null;
  calculation?: string | null;
  label?: string | null;
}

/**
 * Reads whichever of the schema and linkbases a filing folder has into one `Linkbases`; a file
 * not named, or named but absent from the source, contributes nothing (inline-only folders in
 * the mirror have none), so callers can always ask and check for empty results.
 */
export async function readLinkbases(source: SecSource, folderUrl: string, files: LinkbaseFiles): Promise<Linkbases> {
  const base = folderUrl.endsWith('/') ? folderUrl : `${folderUrl}/`;
  // each file is opened, parsed and closed on its own, so one malformed file cannot leave the others' handles open
  const read = async <T>(name: string | null | undefined, parse: (input: XmlInput) => Promise<T>, empty: T): Promise<T> => {
    if (!name) return empty;
    const stream = await source.openStream(base + encodeURIComponent(name));
    if (!stream) return empty;
    try {
      return await parse(stream);
    } finally {
      stream.destroy();
    }
  };
  const [presentation, calculation, labels, roleDefinitions] = await Promise.all([
    read(files.presentation, (s) => parseLinkbase('presentation', s), [] as LinkbaseArc[]),
    read(files.calculation, (s) => parseLinkbase('calculation', s), [] as LinkbaseArc[]),
    read(files.label, (s) => parseLinkbase('label', s), new Map() as ConceptLabels),
    read(files.schema, parseSchemaRoles, new Map<string, string>()),
  ]);
  return { presentation, calculation, labels, roleDefinitions };
}

/** A malformed %-escape in one locator should cost that locator, not the whole linkbase. */
function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
