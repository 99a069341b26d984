/**
 * Narratives generated from a snapshot's own figures: CHANGE_SUMMARY (what moved most against
 * the prior period and the prior year), MARGINS_MOVE (gross, operating and net margin moves and
 * the income-statement lines, as shares of revenue, that moved them) and ROIC_CHANGE (the change
 * of return on invested capital split into margin, turnover and tax effects).
 *
 * Deterministic and grounded: each narrative is a few template sentences over claims (claims.ts);
 * every printed number is a rendering of a claim's exact value; derived metrics come from the
 * catalog's evaluator (domain/derived-eval.ts), the same one the modeling rows use; ties are
 * broken by metric name. The same snapshot rows give byte-identical narratives, and a narrative
 * whose text is not grounded in its claims is never returned.
 */
import { Decimal } from 'decimal.js';
import { canonicalMetric, derivedMetric, metricsForStatement } from '../catalog/index.ts';
import { MARGIN_LINES } from '../catalog/traits.ts';
import { dec } from '../decimal.ts';
import { stableUuid } from '../stable-id.ts';
import type { StatementType } from '../statement-types.ts';
import { ClaimBook, groundingViolations, type Claim, type Sentence } from './claims.ts';
import { CompanyView, priorPeriodOf, priorYearOf, type PeriodRef, type StatementView } from './snapshot-view.ts';

export const NARRATIVE_TYPES = ['CHANGE_SUMMARY', 'MARGINS_MOVE', 'ROIC_CHANGE'] as const;
export type NarrativeType = (typeof NARRATIVE_TYPES)[number];

/**
 * Which generator wrote a text: the deterministic templates are the only one that ships. Version
 * 2: two values that one decimal prints alike get the decimals that tell them apart (render.ts).
 */
export const TEMPLATE_GENERATOR = { generator_id: 'fds-template-narratives', generator_version: '2' } as const;

export interface Narrative {
  /** stable: the same company, type, statement and period give the same id in every build */
  narrative_id: string;
  narrative_type: NarrativeType;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: string;
  statement_version_id: string;
  /** the sentences joined by one space */
  text: string;
  sentences: Sentence[];
  claims: Claim[];
  generator_id: string;
  generator_version: string;
}

/** A line counts in a change summary when it reaches this share of the statement's anchor. */
export const MATERIALITY = '0.05';
/** How many of the largest moves a change summary names per comparison. */
export const SUMMARY_MOVES = 3;

const ANCHOR: Record<StatementType, string> = {
  INCOME_STATEMENT: 'REVENUE',
  BALANCE_SHEET: 'TOTAL_ASSETS',
  CASH_FLOW_STATEMENT: 'OPERATING_CASH_FLOW',
};

/**
 * The lines whose share of revenue explains each margin's move (catalog trait `margin_line`): cost
 * of revenue for the gross margin, with the operating costs for the operating margin, and with the
 * lines between operating and net income for the net margin.
 */
export const MARGIN_MOVERS: readonly [string, readonly string[]][] = [
  ['GROSS_MARGIN', [...MARGIN_LINES.gross]],
  ['OPERATING_MARGIN', [...MARGIN_LINES.gross, ...MARGIN_LINES.operating]],
  ['NET_MARGIN', [...MARGIN_LINES.gross, ...MARGIN_LINES.operating, ...MARGIN_LINES.below_operating]],
];

const SHARE_SCALE = 12;
/** A share-of-revenue move smaller than this prints as 0.0 pp and explains nothing. */
const VISIBLE_SHARE_MOVE = '0.0005';

function displayName(metric: string): string {
  return canonicalMetric(metric)?.display_name ?? derivedMetric(metric)?.display_name ?? metric;
}

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const point = (p: PeriodRef, value: string) => ({ fiscal_year: p.fiscal_year, fiscal_period: p.fiscal_period, value });

function verb(change: string): string {
  const d = dec(change);
  return d.isZero() ? 'was unchanged at' : d.isPositive() ? 'rose' : 'fell';
}

/** "Revenue fell -2.8% to 383.3B in FY2023 from 394.3B in FY2022" without the repeated sign */
function amountMove(c: Claim): string {
  const name = displayName(c.metric);
  const r = c.rendered;
  if (dec(c.change).isZero()) return `${name} was unchanged at ${r.to} in ${r.to_period}`;
  const by = r.relative_change !== undefined && dec(c.from!.value).isPositive() && dec(c.to.value).isPositive() ? ` ${r.relative_change!.replace(/^[+-]/, '')}` : '';
  return `${name} ${verb(c.change)}${by} to ${r.to} in ${r.to_period} from ${r.from} in ${r.from_period} (${r.change})`;
}

// ---- CHANGE_SUMMARY

function currencyLines(type: StatementType): string[] {
  return metricsForStatement(type).filter((m) => m.unit_type === 'currency').map((m) => m.metric);
}

/** The lines that moved most between two statements: material ones, by relative change, ties by name. */
function largestMoves(type: StatementType, from: StatementView, to: StatementView, anchor: string): string[] {
  const base = dec(to.values[anchor] ?? from.values[anchor] ?? '0').abs();
  const threshold = base.times(MATERIALITY);
  const scored: { metric: string; score: Decimal }[] = [];
  for (const metric of currencyLines(type)) {
    if (metric === anchor) continue;
    const a = from.values[metric];
    const b = to.values[metric];
    if (a === undefined || b === undefined || dec(a).isZero()) continue;
    if (dec(a).abs().lessThan(threshold) && dec(b).abs().lessThan(threshold)) continue;
    scored.push({ metric, score: dec(b).minus(a).dividedBy(dec(a).abs()).abs() });
  }
  scored.sort((x, y) => y.score.comparedTo(x.score) || x.metric.localeCompare(y.metric));
  return scored.filter((s) => !s.score.isZero()).slice(0, SUMMARY_MOVES).map((s) => s.metric);
}

function changeSummary(view: CompanyView, type: StatementType, s: StatementView, book: ClaimBook): Sentence[] {
  const comparisons = s.fiscal_period === 'FY' ? [priorYearOf(s)] : [priorPeriodOf(s), priorYearOf(s)];
  const anchor = ANCHOR[type];
  const out: Sentence[] = [];
  for (const p of comparisons) {
    const prior = view.statement(type, p);
    if (!prior) continue;
    const claims: Claim[] = [];
    const lineClaim = (metric: string) =>
      book.level(metric, 'LEVEL', 'currency', point(prior, prior.values[metric]!), point(s, s.values[metric]!), [prior.statement_version_id, s.statement_version_id]);
    if (prior.values[anchor] !== undefined && s.values[anchor] !== undefined) claims.push(lineClaim(anchor));
    for (const metric of largestMoves(type, prior, s, anchor)) claims.push(lineClaim(metric));
    if (claims.length === 0) continue;
    const anchored = claims[0]!.metric === anchor;
    const lead = anchored ? `${amountMove(claims[0]!)}.` : '';
    const others = (anchored ? claims.slice(1) : claims).map((c) => lower(amountMove(c)));
    const moves = others.length > 0 ? `Largest moves among material lines: ${others.join('; ')}.` : '';
    const text = [lead, moves].filter((x) => x !== '').join(' ');
    out.push({ text, claim_ids: claims.map((c) => c.claim_id) });
  }
  return out;
}

// ---- MARGINS_MOVE

function shareClaim(book: ClaimBook, metric: string, from: StatementView, to: StatementView): Claim | null {
  const [ra, rb, a, b] = [from.values.REVENUE, to.values.REVENUE, from.values[metric], to.values[metric]];
  if (ra === undefined || rb === undefined || a === undefined || b === undefined || dec(ra).isZero() || dec(rb).isZero()) return null;
  const share = (v: string, r: string) => dec(v).dividedBy(r).toDecimalPlaces(SHARE_SCALE, Decimal.ROUND_HALF_UP).toFixed();
  return book.level(metric, 'SHARE_OF_REVENUE', 'ratio', point(from, share(a, ra)), point(to, share(b, rb)), [from.statement_version_id, to.statement_version_id]);
}

/** Lines among `candidates` whose share of revenue moved most (at most `n`), by |change|, ties by name. */
function movers(candidates: readonly string[], from: StatementView, to: StatementView, n: number): string[] {
  const moved: { metric: string; by: Decimal }[] = [];
  for (const m of candidates) {
    const [ra, rb, a, b] = [from.values.REVENUE, to.values.REVENUE, from.values[m], to.values[m]];
    if (ra === undefined || rb === undefined || a === undefined || b === undefined || dec(ra).isZero() || dec(rb).isZero()) continue;
    const by = dec(b).dividedBy(rb).minus(dec(a).dividedBy(ra)).abs();
    if (by.greaterThanOrEqualTo(VISIBLE_SHARE_MOVE)) moved.push({ metric: m, by });
  }
  moved.sort((x, y) => y.by.comparedTo(x.by) || x.metric.localeCompare(y.metric));
  return moved.slice(0, n).map((x) => x.metric);
}

function marginClaim(view: CompanyView, book: ClaimBook, metric: string, from: PeriodRef, to: PeriodRef): Claim | null {
  const a = view.derived(metric, from);
  const b = view.derived(metric, to);
  if (a.value === null || b.value === null) return null;
  return book.level(metric, 'LEVEL', 'ratio', point(from, a.value), point(to, b.value), [...a.statement_version_ids, ...b.statement_version_ids]);
}

function marginMove(c: Claim): string {
  const r = c.rendered;
  const how = dec(c.change).isZero() ? 'held' : dec(c.change).isPositive() ? 'rose' : 'fell';
  return `${displayName(c.metric)} ${how} from ${r.from} in ${r.from_period} to ${r.to} in ${r.to_period} (${r.change})`;
}

const shareMove = (c: Claim) => `${lower(displayName(c.metric))} went from ${c.rendered.from} to ${c.rendered.to} of revenue (${c.rendered.change})`;

function marginsMove(view: CompanyView, s: StatementView, book: ClaimBook): Sentence[] {
  const prior = view.statement('INCOME_STATEMENT', priorYearOf(s));
  if (!prior) return [];
  // each margin is revenue less the lines above it, so those lines' shares of revenue move it
  const out: Sentence[] = [];
  for (const [metric, lines] of MARGIN_MOVERS) {
    const margin = marginClaim(view, book, metric, prior, s);
    if (!margin) continue;
    const shares = movers(lines, prior, s, 2).map((m) => shareClaim(book, m, prior, s)).filter((c): c is Claim => c !== null);
    const why = shares.length > 0 ? `; ${shares.length > 1 ? 'the lines that moved most' : 'the line that moved most'}: ${shares.map(shareMove).join(', and ')}` : '';
    out.push({ text: `${marginMove(margin)}${why}.`, claim_ids: [margin.claim_id, ...shares.map((c) => c.claim_id)] });
  }
  return out;
}

// ---- ROIC_CHANGE

/**
 * ROIC = operating margin x invested-capital turnover x (1 - effective tax rate). The margin and
 * tax rate are the catalog's; turnover is ROIC / (margin x (1 - tax rate)), i.e. revenue over the
 * (averaged) invested capital ROIC itself used. The change is split by sequential substitution:
 * margin effect = dm x t0 x k0, turnover effect = m1 x dt x k0, tax effect = the rest (m1 x t1 x dk
 * up to the 12-digit rounding of the inputs), so the three effects add up to the change exactly.
 */
function roicChange(view: CompanyView, s: StatementView, book: ClaimBook): Sentence[] {
  const p0 = priorYearOf(s);
  const get = (metric: string, p: PeriodRef) => view.derived(metric, p);
  const [roic0, roic1, m0, m1, etr0, etr1] = [get('ROIC', p0), get('ROIC', s), get('OPERATING_MARGIN', p0), get('OPERATING_MARGIN', s), get('EFFECTIVE_TAX_RATE', p0), get('EFFECTIVE_TAX_RATE', s)];
  if ([roic0, roic1, m0, m1, etr0, etr1].some((g) => g.value === null)) return [];
  const k0 = dec('1').minus(etr0.value!);
  const k1 = dec('1').minus(etr1.value!);
  const mk0 = dec(m0.value!).times(k0);
  const mk1 = dec(m1.value!).times(k1);
  if (mk0.isZero() || mk1.isZero()) return [];
  const t0 = dec(roic0.value!).dividedBy(mk0).toDecimalPlaces(SHARE_SCALE, Decimal.ROUND_HALF_UP);
  const t1 = dec(roic1.value!).dividedBy(mk1).toDecimalPlaces(SHARE_SCALE, Decimal.ROUND_HALF_UP);
  const total = dec(roic1.value!).minus(roic0.value!);
  const marginEffect = dec(m1.value!).minus(m0.value!).times(t0).times(k0);
  const turnoverEffect = dec(m1.value!).times(t1.minus(t0)).times(k0);
  const taxEffect = total.minus(marginEffect).minus(turnoverEffect);
  const ids0 = roic0.statement_version_ids;
  const ids1 = roic1.statement_version_ids;
  const both = [...ids0, ...ids1];
  const roic = book.level('ROIC', 'LEVEL', 'ratio', point(p0, roic0.value!), point(s, roic1.value!), both);
  const margin = book.level('OPERATING_MARGIN', 'LEVEL', 'ratio', point(p0, m0.value!), point(s, m1.value!), [...m0.statement_version_ids, ...m1.statement_version_ids]);
  const me = book.effect('OPERATING_MARGIN', 'ROIC', p0, s, marginEffect.toDecimalPlaces(SHARE_SCALE, Decimal.ROUND_HALF_UP).toFixed(), both);
  const turnover = book.level('INVESTED_CAPITAL_TURNOVER', 'LEVEL', 'times', point(p0, t0.toFixed()), point(s, t1.toFixed()), both);
  const te = book.effect('INVESTED_CAPITAL_TURNOVER', 'ROIC', p0, s, turnoverEffect.toDecimalPlaces(SHARE_SCALE, Decimal.ROUND_HALF_UP).toFixed(), both);
  const tax = book.level('EFFECTIVE_TAX_RATE', 'LEVEL', 'ratio', point(p0, etr0.value!), point(s, etr1.value!), [...etr0.statement_version_ids, ...etr1.statement_version_ids]);
  const xe = book.effect('EFFECTIVE_TAX_RATE', 'ROIC', p0, s, taxEffect.toDecimalPlaces(SHARE_SCALE, Decimal.ROUND_HALF_UP).toFixed(), both);
  return [
    { text: `${marginMove(roic)}.`, claim_ids: [roic.claim_id] },
    { text: `Operating margin went from ${margin.rendered.from} to ${margin.rendered.to}, which accounts for ${me.rendered.change} of the change.`, claim_ids: [margin.claim_id, me.claim_id] },
    { text: `Invested-capital turnover (revenue over average equity plus debt) went from ${turnover.rendered.from} to ${turnover.rendered.to}, accounting for ${te.rendered.change}.`, claim_ids: [turnover.claim_id, te.claim_id] },
    { text: `The effective tax rate went from ${tax.rendered.from} to ${tax.rendered.to}, accounting for ${xe.rendered.change}.`, claim_ids: [tax.claim_id, xe.claim_id] },
  ];
}

// ---- generation

const APPLIES: Record<NarrativeType, (t: StatementType) => boolean> = {
  CHANGE_SUMMARY: () => true,
  MARGINS_MOVE: (t) => t === 'INCOME_STATEMENT',
  ROIC_CHANGE: (t) => t === 'INCOME_STATEMENT',
};

/**
 * Every narrative of one type for one company and statement type: one per statement of the
 * snapshot that has something to compare with, newest first. None (an empty list) when the
 * snapshot holds no comparable periods or the type does not apply to the statement type.
 */
export function generateNarratives(cik: string, view: CompanyView, type: NarrativeType, statementType: StatementType): Narrative[] {
  if (!APPLIES[type](statementType)) return [];
  const out: Narrative[] = [];
  for (const s of view.list(statementType)) {
    const book = new ClaimBook();
    const sentences =
      type === 'CHANGE_SUMMARY' ? changeSummary(view, statementType, s, book) : type === 'MARGINS_MOVE' ? marginsMove(view, s, book) : roicChange(view, s, book);
    if (sentences.length === 0) continue;
    const violations = groundingViolations(sentences, book.claims);
    if (violations.length > 0) throw new Error(`ungrounded narrative ${type} ${s.fiscal_year} ${s.fiscal_period}: ${violations.join('; ')}`);
    out.push({
      narrative_id: stableUuid('ai-narrative', [cik, type, statementType, String(s.fiscal_year), s.fiscal_period, s.statement_version_id]),
      narrative_type: type,
      statement_type: statementType,
      fiscal_year: s.fiscal_year,
      fiscal_period: s.fiscal_period,
      statement_version_id: s.statement_version_id,
      text: sentences.map((x) => x.text).join(' '),
      sentences,
      claims: book.claims,
      ...TEMPLATE_GENERATOR,
    });
  }
  return out;
}
