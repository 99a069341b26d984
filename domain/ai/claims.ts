/**
 * Claims: the structured facts behind every generated sentence. A claim holds exact decimal
 * values, the periods they belong to and the statement versions they came from; `rendered` holds
 * the exact strings the text prints for them. A sentence may print a numeral only when one of its
 * claims renders it (`groundingViolations` checks this for every narrative before it is returned),
 * so an analyst can check every number against the statement versions it names.
 */
import { dec } from '../decimal.ts';
import { numeralsIn, renderGrowth, renderMoney, renderMultiple, renderPeriod, renderPoints, renderRatio, } from './render.ts';
import type { PeriodRef } from './snapshot-view.ts';

/** What a claim's numbers measure. */
export type ClaimMeasure =
  /** the metric itself (an amount, a ratio or a multiple) */
  | 'LEVEL'
  /** a line divided by revenue of the same period */
  | 'SHARE_OF_REVENUE'
  /** the part of another metric's change one factor accounts for (`of_metric`) */
  | 'EFFECT';

export type ClaimUnit = 'currency' | 'ratio' | 'times';

export interface ClaimPoint extends PeriodRef {
  /** exact decimal string */
  value: string;
}

export interface Claim {
  /** c1, c2, ... in the order the text first uses them */
  claim_id: string;
  metric: string;
  measure: ClaimMeasure;
  unit: ClaimUnit;
  /** for an EFFECT: the metric whose change it explains */
  of_metric: string | null;
  /** the earlier period (null for an EFFECT) */
  from: ClaimPoint | null;
  /** the later period; for an EFFECT its value is the effect */
  to: ClaimPoint;
  /** to - from (an EFFECT: the effect itself) */
  change: string;
  /** (to - from) / |from| for amounts; null for ratios, effects and a zero base */
  relative_change: string | null;
  /** the statement versions the values were read or computed from, sorted */
  statement_version_ids: string[];
  /** how each value is printed: keys among from, to, change, relative_change, from_period, to_period */
  rendered: Record<string, string>;
}

export interface Sentence {
  text: string;
  claim_ids: string[];
}

function renderValue(unit: ClaimUnit, value: string, extra = 0): string {
  return unit === 'currency' ? renderMoney(value, extra) : unit === 'ratio' ? renderRatio(value, extra) : renderMultiple(value, extra);
}

/** A ratio's or multiple's change at the values' decimals; an amount's change in its own unit of thousand. */
function renderChange(unit: ClaimUnit, change: string, extra = 0): string {
  if (unit === 'ratio') return renderPoints(change, extra);
  if (unit === 'times') return `${dec(change).isNegative() ? '' : '+'}${renderMultiple(change, extra)}`;
  const money = renderMoney(change);
  return money.startsWith('-') ? money : `+${money}`;
}

const printsZero = (rendered: string) => /^[+-]?0(\.0+)?(?![.\d])/.test(rendered);

/**
 * Decimals beyond the unit's default that two different values need to print differently, and
 * (ratios, multiples) their change to print as a move rather than zero: "fell from 26.0% to 26.0%
 * (-0.1 pp)" would read as wrong, "fell from 26.04% to 25.96% (-0.08 pp)" does not. 0 when the
 * values are equal or already print apart; finite, since the values are exact decimals.
 */
export function extraPlaces(unit: ClaimUnit, from: string, to: string): number {
  const change = dec(to).minus(from);
  if (change.isZero()) return 0;
  let extra = 0;
  while (renderValue(unit, from, extra) === renderValue(unit, to, extra) || (unit !== 'currency' && printsZero(renderChange(unit, change.toFixed(), extra)))) extra++;
  return extra;
}

/** Decimals beyond the default a growth that is not zero needs to print as one: "rose 0.03%", not "rose 0.0%". */
export function growthPlaces(relative: string): number {
  if (dec(relative).isZero()) return 0;
  let extra = 0;
  while (printsZero(renderGrowth(relative, extra))) extra++;
  return extra;
}

/** Collects a narrative's claims, numbering them in order of first use. */
export class ClaimBook {
  readonly claims: Claim[] = [];

  /** A metric at two periods. */
  level(
    metric: string,
    measure: 'LEVEL' | 'SHARE_OF_REVENUE',
    unit: ClaimUnit,
    from: ClaimPoint,
    to: ClaimPoint,
    statementVersionIds: readonly string[],
  ): Claim {
    const change = dec(to.value).minus(from.value);
    const base = dec(from.value).abs();
    const relative = unit === 'currency' && !base.isZero() ? change.dividedBy(base).toDecimalPlaces(12).toFixed() : null;
    const extra = extraPlaces(unit, from.value, to.value);
    const rendered: Record<string, string> = {
      from: renderValue(unit, from.value, extra),
      to: renderValue(unit, to.value, extra),
      change: renderChange(unit, change.toFixed(), extra),
      from_period: renderPeriod(from),
      to_period: renderPeriod(to),
    };
    if (relative !== null) rendered.relative_change = renderGrowth(relative, growthPlaces(relative));
    return this.add({
      metric, measure, unit, of_metric: null, from, to, change: change.toFixed(), relative_change: relative,
      statement_version_ids: [...new Set(statementVersionIds)].sort(), rendered,
    });
  }

  /** The part of `ofMetric`'s change between two periods that one factor accounts for. */
  effect(metric: string, ofMetric: string, from: PeriodRef, to: PeriodRef, value: string, statementVersionIds: readonly string[]): Claim {
    return this.add({
      metric, measure: 'EFFECT', unit: 'ratio', of_metric: ofMetric, from: null,
      to: { fiscal_year: to.fiscal_year, fiscal_period: to.fiscal_period, value }, change: value, relative_change: null,
      statement_version_ids: [...new Set(statementVersionIds)].sort(),
      rendered: { change: renderPoints(value), from_period: renderPeriod(from), to_period: renderPeriod(to) },
    });
  }

  /** an identical claim (same metric, measure and values) is made once and cited again */
  private add(c: Omit<Claim, 'claim_id'>): Claim {
    const same = this.claims.find((x) => JSON.stringify({ ...x, claim_id: undefined }) === JSON.stringify({ claim_id: undefined, ...c }));
    if (same) return same;
    const claim = { claim_id: `c${this.claims.length + 1}`, ...c };
    this.claims.push(claim);
    return claim;
  }
}

/**
 * Numerals a sentence prints that none of its claims renders (claim ids like "c1" are not text).
 * Empty for a grounded narrative; the generator refuses any text for which it is not.
 */
export function groundingViolations(sentences: readonly Sentence[], claims: readonly Claim[]): string[] {
  const byId = new Map(claims.map((c) => [c.claim_id, c]));
  const out: string[] = [];
  for (const s of sentences) {
    const allowed = new Set<string>();
    for (const id of s.claim_ids) {
      const c = byId.get(id);
      if (!c) {
        out.push(`unknown claim ${id}`);
        continue;
      }
      for (const r of Object.values(c.rendered)) for (const n of numeralsIn(r)) allowed.add(n);
    }
    for (const n of numeralsIn(s.text)) if (!allowed.has(n)) out.push(`"${n}" in "${s.text}"`);
  }
  return out;
}
