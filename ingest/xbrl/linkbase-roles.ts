import type { StatementType } from '../../domain/catalog/types.ts';
import type { LinkbaseArc, Linkbases, QName } from '../../domain/xbrl.ts';

/**
 * Questions asked of parsed linkbases: which extended link roles are the face statements, how a
 * statement's lines are laid out, and what a total adds up from. Pure functions over `Linkbases`
 * so statement building can be tested without reading files.
 */

/**
 * The three statements we normalize, plus the other face statements a filer presents, kept apart
 * so a caller choosing "the balance sheet" cannot pick its parenthetical or the equity statement.
 */
export type StatementKind = StatementType | 'COMPREHENSIVE_INCOME' | 'EQUITY' | 'PARENTHETICAL' | 'OTHER';

export interface StatementRole {
  role: string;
  /** the schema definition, or the FilingSummary LongName when only that names the role */
  definition: string;
  /** the part after " - Statement - ", e.g. "CONSOLIDATED BALANCE SHEETS" */
  title: string;
  kind: StatementKind;
  /** where the filer put it: the definition's leading sort number, else the FilingSummary position */
  sequence: number;
}

/** What statementRoles needs from FilingSummary.xml reports (see filing-summary.ts). */
export interface SummaryReportLike {
  role: string | null;
  longName: string | null;
  menuCategory: string | null;
  position: number | null;
}

const STATEMENT_MARK = / - Statement - /i;

/**
 * Face statements of a filing in the filer's order. A role is a statement when its definition
 * (filer schema, or FilingSummary LongName) contains " - Statement - " — the EDGAR Filer Manual
 * requires that sort-code/type/title form — or when FilingSummary files it under "Statements".
 * Several roles can share a kind (e.g. P&G's "CASH FLOWS - ADDITIONAL INFORMATION" is OTHER, but
 * two real balance sheets would both be BALANCE_SHEET); the first in sequence is the primary one.
 */
export function statementRoles(linkbases: Pick<Linkbases, 'roleDefinitions'>, reports: readonly SummaryReportLike[] = []): StatementRole[] {
  const byRole = new Map<string, StatementRole>();
  const summaryByRole = new Map(reports.filter((r) => r.role).map((r) => [r.role as string, r]));
  const consider = (role: string, definition: string, fromSummary: SummaryReportLike | undefined) => {
    const isStatement = STATEMENT_MARK.test(definition) || fromSummary?.menuCategory === 'Statements';
    if (!isStatement || byRole.has(role)) return;
    const title = definition.split(STATEMENT_MARK).slice(1).join(' - ').trim() || definition.trim();
    const sortCode = /^\s*(\d+)\s*-/.exec(definition)?.[1];
    const sequence = sortCode !== undefined ? Number(sortCode) : (fromSummary?.position ?? Number.MAX_SAFE_INTEGER);
    byRole.set(role, { role, definition, title, kind: classifyStatementTitle(title), sequence });
  };
  for (const [role, definition] of linkbases.roleDefinitions) consider(role, definition, summaryByRole.get(role));
  for (const r of reports) if (r.role) consider(r.role, r.longName ?? '', r);
  return [...byRole.values()].sort((a, b) => a.sequence - b.sequence);
}

/**
 * Title heuristics, checked in this order because titles combine words:
 * 1. "PARENTHETICAL" -> PARENTHETICAL (share counts and par values beside a statement);
 * 2. "ADDITIONAL INFORMATION" / "SUPPLEMENTAL" -> OTHER (supplementary tables titled like a statement);
 * 3. "CASH FLOW(S)" -> CASH_FLOW_STATEMENT;
 * 4. "BALANCE SHEET", "FINANCIAL POSITION", "FINANCIAL CONDITION" -> BALANCE_SHEET;
 * 5. "EQUITY", "STOCKHOLDERS", "SHAREHOLDERS", "PARTNERS' CAPITAL", "CHANGES IN NET ASSETS" -> EQUITY
 *    (before income: "Shareholders Equity And Other Comprehensive Income" is an equity statement);
 * 6. with the phrase "COMPREHENSIVE INCOME/LOSS/EARNINGS" removed, "OPERATIONS", "INCOME", "EARNINGS"
 *    or "LOSS" -> INCOME_STATEMENT ("Operations and Comprehensive Loss" is a combined income statement);
 * 7. "COMPREHENSIVE" alone -> COMPREHENSIVE_INCOME; anything else -> OTHER.
 */
export function classifyStatementTitle(title: string): StatementKind {
  const t = title.toUpperCase().replace(/\s+/g, ' ');
  if (/PARENTHETICAL/.test(t)) return 'PARENTHETICAL';
  if (/ADDITIONAL INFORMATION|SUPPLEMENTAL/.test(t)) return 'OTHER';
  if (/CASH ?FLOWS?\b/.test(t)) return 'CASH_FLOW_STATEMENT';
  if (/BALANCE SHEETS?|FINANCIAL POSITION|FINANCIAL CONDITION/.test(t)) return 'BALANCE_SHEET';
  if (/EQUITY|STOCKHOLDERS|SHAREHOLDERS|PARTNERS'? CAPITAL|CHANGES IN NET ASSETS/.test(t)) return 'EQUITY';
  const withoutComprehensive = t.replace(/COMPREHENSIVE (?:INCOME|LOSS|EARNINGS)(?: ?\((?:INCOME|LOSS)\))?/g, ' ');
  if (/OPERATIONS|INCOME|EARNINGS|\bLOSS\b/.test(withoutComprehensive)) return 'INCOME_STATEMENT';
  if (/COMPREHENSIVE/.test(t)) return 'COMPREHENSIVE_INCOME';
  return 'OTHER';
}

export interface PresentationNode {
  concept: QName;
  /** the arc's preferredLabel role (e.g. totalLabel, periodStartLabel); null at roots and when unset */
  preferredLabel: string | null;
  children: PresentationNode[];
}

/**
 * The presentation hierarchy of one role, children in `order` (ties keep document order). Roots
 * are concepts that are never a child in the role. A concept reached again on its own path (a
 * cycle, which XBRL forbids but a broken filing may contain) is listed without descending again.
 */
export function presentationTree(linkbases: Pick<Linkbases, 'presentation'>, role: string): PresentationNode[] {
  const arcs = linkbases.presentation.filter((a) => a.role === role);
  const children = childrenByParent(arcs);
  const isChild = new Set(arcs.map((a) => a.to));
  const roots: QName[] = [];
  for (const a of arcs) if (!isChild.has(a.from) && !roots.includes(a.from)) roots.push(a.from);
  const build = (concept: QName, preferredLabel: string | null, path: Set<QName>): PresentationNode => {
    const node: PresentationNode = { concept, preferredLabel, children: [] };
    if (path.has(concept)) return node;
    path.add(concept);
    for (const arc of children.get(concept) ?? []) node.children.push(build(arc.to, arc.preferredLabel, path));
    path.delete(concept);
    return node;
  };
  return roots.map((r) => build(r, null, new Set()));
}

/** Depth-first lines of a presentation tree, the order a rendered statement shows them. */
export function flattenTree(nodes: readonly PresentationNode[], depth = 0): Array<{ concept: QName; depth: number; preferredLabel: string | null }> {
  return nodes.flatMap((n) => [{ concept: n.concept, depth, preferredLabel: n.preferredLabel }, ...flattenTree(n.children, depth + 1)]);
}

/** What `total` sums in one role's calculation linkbase, in order; [] when the role does not calculate it. */
export function calculationChildren(linkbases: Pick<Linkbases, 'calculation'>, role: string, total: QName): Array<{ concept: QName; weight: number }> {
  const arcs = linkbases.calculation.filter((a) => a.role === role && a.from === total);
  return (childrenByParent(arcs).get(total) ?? []).map((a) => ({ concept: a.to, weight: a.weight ?? 1 }));
}

function childrenByParent(arcs: readonly LinkbaseArc[]): Map<QName, LinkbaseArc[]> {
  const map = new Map<QName, LinkbaseArc[]>();
  for (const a of arcs) {
    const list = map.get(a.from);
    if (list) list.push(a);
    else map.set(a.from, [a]);
  }
  // Array.prototype.sort is stable, so equal orders keep document order
  for (const list of map.values()) list.sort((x, y) => x.order - y.order);
  return map;
}
