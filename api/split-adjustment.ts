import { z } from 'zod';
import { stockSplitsOf, stockSplitsOfCompanies } from '../db/stock-splits.ts';

import { wireDecimal } from '../domain/decimal.ts';
import { splitAdjusted, splitFactorSince, type CompanySplit } from '../domain/statements/split-basis.ts';
import { SPLIT_EVIDENCE } from '../domain/statements/stock-splits.ts';
import { DecimalString } from './schemas.ts';

/**
 * split_adjusted=true on the time-series, panel, statement and modeling reads: per-share figures and
 * share counts restated to the company's latest split basis (domain/statements/split-basis.ts),
 * each with the factor and the splits it applied; the default is as filed. One parameter and one
 * provenance shape for every read, here.
 */
export const SplitAdjustedParam = z
  .boolean()
  .default(false)
  .describe(
    'true restates per-share figures and share counts to the latest split basis, from the splits the filings report (each adjusted figure says by which factor and splits); ' +
      'false (default) serves them as filed, each on the share basis of its own filing',
  );

export const SplitAdjustmentOut = z
  .object({
    as_filed_value: DecimalString.describe('the figure as filed (on the share basis of its source filing)'),
    factor: z.string().describe('new shares per old share since the source filing, an exact ratio "numerator/denominator" (10/1 for a 10-for-1 split, 1/15 for a 1-for-15 reverse split)'),
    operation: z.enum(['DIVIDED', 'MULTIPLIED']).describe('per-share values are divided by the factor, share counts multiplied'),
    rounded: z.boolean().describe(`true where the division does not terminate: the value is rounded half-up to 12 fraction digits`),
    splits: z.array(
      z.object({
        split_date: z.string(),
        ratio: z.string().describe('the ratio as the filer told it (a tag like 0.0667) or its figures showed it'),
        numerator: z.number().int(),
        denominator: z.number().int(),
        evidence: z.enum(SPLIT_EVIDENCE).describe("TAGGED_RATIO: the filer's split ratio fact; RESTATED_FIGURES: its own figures told again on the new basis"),
      }),
    ),
  })
  .describe('the figure restated to the latest split basis: value = as_filed_value divided (per share) or multiplied (shares) by factor');

export type SplitAdjustmentWire = z.input<typeof SplitAdjustmentOut>;

/**
 * An operand of a derived modeling row (a growth rate, a TTM per-share figure) restated to the
 * row's split basis before the row compared or combined it: the split_adjustment shape, naming the
 * operand. Stored with the row by the build (domain/modeling/share-basis.ts).
 */
export const OperandSplitAdjustmentOut = SplitAdjustmentOut.extend({
  input: z.string().describe('the canonical per-share or share-count line restated'),
  fiscal_year: z.number().int().describe("the operand's fiscal year"),
  fiscal_period: z.string().describe("the operand's fiscal period"),
  value: DecimalString.describe("the operand on the row's basis, as the row used it"),
}).describe(
  "an operand filed on an older share basis than the row's (the newest operand's filing), restated by the splits dated between the two filings and known at the snapshot's date: value = as_filed_value divided (per share) or multiplied (shares) by factor",
);

/**
 * A figure restated for the splits after its source filing (`basisDate`) known by `asOf`, with
 * its provenance; null where no split applies or the unit is neither per share nor shares.
 */
export function adjustFigure(
  value: string,
  unit: string,
  basisDate: string,
  splits: readonly CompanySplit[],
  asOf: string | null,
): { value: string; adjustment: SplitAdjustmentWire } | null {
  if (splits.length === 0) return null;
  const factor = splitFactorSince(splits, basisDate, asOf);
  if (factor === null) return null;
  const adjusted = splitAdjusted(value, unit, factor);
  if (adjusted === null) return null;
  return {
    value: adjusted.value,
    adjustment: {
      as_filed_value: wireDecimal(value),
      factor: `${factor.numerator}/${factor.denominator}`,
      operation: unit === 'shares' ? 'MULTIPLIED' : 'DIVIDED',
      rounded: adjusted.rounded,
      splits: factor.splits.map((s) => ({ split_date: s.split_date, ratio: s.ratio, numerator: s.numerator, denominator: s.denominator, evidence: s.evidence })),
    },
  };
}

export { stockSplitsOf, stockSplitsOfCompanies };
