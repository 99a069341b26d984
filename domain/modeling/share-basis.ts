/**
 * One split basis for the operands of a derived row. A per-share figure or share count is on the
 * share basis of the filing it was read from (domain/statements/split-basis.ts); a growth rate of
 * such a line, or a TTM per-share figure over share counts of four quarters, combines figures
 * several filings told, so before comparing or combining them each operand of an older basis is
 * restated to the newest operand's basis: by the splits dated after its own filing and on or before
 * the newest operand's filing, known at the snapshot's date (no lookahead), exactly (integer ratios,
 * decimal arithmetic). Money is never restated. Where a split is on record and an operand's
 * basis is not known, the operands cannot be put on one basis and the row says so instead of
 * serving a figure. Pure.
 */
import { canonicalMetric } from '../catalog/index.ts';
import { wireDecimal } from '../decimal.ts';
import { splitAdjusted, splitFactorBetween, type CompanySplit } from '../statements/split-basis.ts';
import type { SplitEvidence } from '../statements/stock-splits.ts';

/** The company's splits and the snapshot's date: what a build knows of the share bases. */
export interface SplitContext {
  splits: readonly CompanySplit[];
  /** the snapshot's as-of date: a split told by no filing by then is not applied */
  as_of: string;
}

export const NO_SPLITS: SplitContext = { splits: [], as_of: '9999-12-31' };

/** One figure a derived row reads, with the filing date of the filing it was read from (its basis). */
export interface ShareOperand {
  /** the canonical line (a per-share or share-count metric) */
  line: string;
  fiscal_year: number;
  fiscal_period: string;
  value: string;
  /** filing date of the figure's source filing; undefined where not known */
  basis: string | undefined;
}

/** How one operand of a derived row was restated: the split_adjustment shape, naming the operand. */
export interface OperandSplitAdjustment {
  /** the canonical line restated */
  input: string;
  fiscal_year: number;
  fiscal_period: string;
  /** the operand on the row's basis, as the row used it */
  value: string;
  as_filed_value: string;
  factor: string;
  operation: 'DIVIDED' | 'MULTIPLIED';
  rounded: boolean;
  splits: { split_date: string; ratio: string; numerator: number; denominator: number; evidence: SplitEvidence }[];
}

export type OneBasis =
  | { ok: true; values: string[]; adjustments: OperandSplitAdjustment[] }
  /** a split is on record and an operand's basis is unknown: no figure */
  | { ok: false };

function unitOf(line: string): string | null {
  const unit = canonicalMetric(line)?.unit_type;
  return unit === 'shares' ? 'shares' : unit === 'per_share' ? 'per/shares' : null;
}

/**
 * The operands on one split basis, the newest operand's (the latest source filing among them):
 * each older one restated by the splits dated after its filing and by the newest's, known at
 * `ctx.as_of`, with how. Operands of a line that is neither per share nor shares pass as they are.
 */
export function onOneBasis(operands: readonly ShareOperand[], ctx: SplitContext): OneBasis {
  const splits = ctx.splits.filter((s) => s.known_from <= ctx.as_of);
  const scaled = operands.map((o) => unitOf(o.line));
  if (splits.length === 0 || scaled.every((u) => u === null)) return { ok: true, values: operands.map((o) => o.value), adjustments: [] };
  if (operands.some((o, i) => scaled[i] !== null && o.basis === undefined)) return { ok: false };
  const target = operands.reduce((t, o, i) => (scaled[i] !== null && o.basis! > t ? o.basis! : t), '');
  const values: string[] = [];
  const adjustments: OperandSplitAdjustment[] = [];
  operands.forEach((o, i) => {
    const unit = scaled[i];
    const factor = unit === null ? null : splitFactorBetween(splits, o.basis!, target, ctx.as_of);
    const adjusted = factor === null ? null : splitAdjusted(o.value, unit!, factor);
    if (factor === null || adjusted === null) {
      values.push(o.value);
      return;
    }
    values.push(adjusted.value);
    adjustments.push({
      input: o.line,
      fiscal_year: o.fiscal_year,
      fiscal_period: o.fiscal_period,
      value: wireDecimal(adjusted.value),
      as_filed_value: wireDecimal(o.value),
      factor: `${factor.numerator}/${factor.denominator}`,
      operation: unit === 'shares' ? 'MULTIPLIED' : 'DIVIDED',
      rounded: adjusted.rounded,
      splits: factor.splits.map((s) => ({ split_date: s.split_date, ratio: s.ratio, numerator: s.numerator, denominator: s.denominator, evidence: s.evidence })),
    });
  });
  return { ok: true, values, adjustments };
}
