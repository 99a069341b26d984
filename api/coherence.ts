import type { CompanyIndex } from './company-versions.ts';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { fiscalYearMarks } from '../db/coherence-read.ts';
import type { Db } from '../db/client.ts';
import type { Visibility } from '../db/statement-read.ts';
import { wireDecimal } from '../domain/decimal.ts';
import { COHERENCE_REASONS, isAdditiveFlow, type QuarterCoherence } from '../domain/statements/coherence.ts';
import { DecimalString } from './schemas.ts';

/**
 * The `coherence` mark every read serving quarter or year figures of a money flow attaches to them
 * (statements, the metric time series, panels, modeling rows; one shape for all, here): null where
 * the fiscal year's four served quarters add up to its served year within the figures' rounding
 * (or where not all five are served), the comparison and its reason otherwise
 * (domain/statements/coherence.ts). See docs/series-coherence.md.
 */
export const CoherenceOut = z
  .object({
    reason: z
      .enum(COHERENCE_REASONS)
      .describe(
        'YEAR_RESTATED_QUARTERS_NOT: the year served was told again as another figure and the quarters were not (two bases); ' +
          'QUARTERS_RESTATED_YEAR_NOT: the reverse; FILER_INCONSISTENT: every figure is as the filer first told it and its quarters do not add up to its year',
      ),
    fiscal_year: z.number().int(),
    served_year: DecimalString.describe('the fiscal year as served'),
    quarters_sum: DecimalString.describe('Q1 + Q2 + Q3 + Q4 as served'),
    difference: DecimalString.describe('quarters_sum - served_year'),
    tolerance: DecimalString.describe("the difference the figures' rounding alone allows (half a unit of each figure's precision)"),
    quarters: z.object({ Q1: DecimalString, Q2: DecimalString, Q3: DecimalString, Q4: DecimalString }).describe('each quarter as served'),
  })
  .describe("the fiscal year's quarters do not add up to its year: use quarters or the year, not both mixed (e.g. a TTM sum against an annual figure)");

export type CoherenceWire = z.input<typeof CoherenceOut>;

export function coherenceOut(c: QuarterCoherence): CoherenceWire {
  return {
    reason: c.reason,
    fiscal_year: c.fiscal_year,
    served_year: wireDecimal(c.served_year),
    quarters_sum: wireDecimal(c.quarters_sum),
    difference: wireDecimal(c.difference),
    tolerance: wireDecimal(c.tolerance),
    quarters: { Q1: wireDecimal(c.quarters.Q1), Q2: wireDecimal(c.quarters.Q2), Q3: wireDecimal(c.quarters.Q3), Q4: wireDecimal(c.quarters.Q4) },
  };
}

/** The marks of one company's fiscal years of one statement type: fiscal year -> metric -> mark (marked metrics only). */
export type CoherenceMarks = ReadonlyMap<number, ReadonlyMap<string, QuarterCoherence>>;

/** Reads and judges the fiscal years a read serves (as it sees them: the same visibility). */
export async function coherenceMarks(sql: Db, cik: string, statementType: string, fiscalYears: readonly number[], v: Visibility, index: CompanyIndex | null = null): Promise<CoherenceMarks> {
  return (await coherenceMarksByType(sql, cik, [statementType], fiscalYears, v, index)).get(statementType) ?? new Map();
}

/**
 * coherenceMarks of several statement types of one company at once (one read, none with the
 * company's index: api/company-versions.ts): statement type -> marks; every type asked for has an entry.
 */
export async function coherenceMarksByType(
  sql: Db,
  cik: string,
  statementTypes: readonly string[],
  fiscalYears: readonly number[],
  v: Visibility,
  index: CompanyIndex | null = null,
): Promise<Map<string, CoherenceMarks>> {
  if (index !== null) return marksFromIndex(sql, cik, statementTypes, fiscalYears, v, index);
  const judged = await fiscalYearMarks(sql, cik, statementTypes, fiscalYears, v, index);
  const out = new Map<string, CoherenceMarks>();
  for (const type of statementTypes) {
    const marks = new Map<number, ReadonlyMap<string, QuarterCoherence>>();
    for (const [fy, m] of judged.get(type) ?? []) if (m.size > 0) marks.set(fy, m);
    out.set(type, marks);
  }
  return out;
}

const NO_YEAR_MARKS: ReadonlyMap<string, QuarterCoherence> = new Map();

/**
 * coherenceMarksByType with the company's versions held (api/company-versions.ts): a year's marks
 * follow from the versions a read sees alone, so they are judged once per statement type, fiscal
 * year and set of versions seen (the date's `epochOf`, first versions only or all) and kept with
 * the index, which is replaced when the company's versions change.
 */
async function marksFromIndex(sql: Db, cik: string, statementTypes: readonly string[], fiscalYears: readonly number[], v: Visibility, index: CompanyIndex): Promise<Map<string, CoherenceMarks>> {
  // statement type -> fiscal year -> marks, of one set of versions seen
  const judgedOf = index.derived(`marks|${index.epochOf(v.as_of_date)}|${v.as_reported ? 'first' : 'all'}`, () => new Map<string, Map<number, ReadonlyMap<string, QuarterCoherence>>>());
  const years = [...new Set(fiscalYears)].sort((a, b) => a - b);
  const missingTypes = new Set<string>();
  const missingYears = new Set<number>();
  for (const type of statementTypes) {
    const ofType = judgedOf.get(type);
    for (const fy of years) {
      if (ofType?.has(fy)) continue;
      missingTypes.add(type);
      missingYears.add(fy);
    }
  }
  if (missingTypes.size > 0) {
    const judged = await fiscalYearMarks(sql, cik, [...missingTypes], [...missingYears], v, index);
    for (const type of missingTypes) {
      let ofType = judgedOf.get(type);
      if (!ofType) judgedOf.set(type, (ofType = new Map()));
      for (const fy of missingYears) if (!ofType.has(fy)) ofType.set(fy, judged.get(type)?.get(fy) ?? NO_YEAR_MARKS);
    }
  }
  const out = new Map<string, CoherenceMarks>();
  for (const type of statementTypes) {
    const ofType = judgedOf.get(type)!;
    const marks = new Map<number, ReadonlyMap<string, QuarterCoherence>>();
    for (const fy of years) {
      const m = ofType.get(fy)!;
      if (m.size > 0) marks.set(fy, m);
    }
    out.set(type, marks);
  }
  return out;
}

/**
 * A figure's mark on the wire: undefined where the metric is no money flow (no mark applies), null
 * where the year's quarters add up, the mark otherwise.
 */
export function coherenceOf(marks: CoherenceMarks, fiscalYear: number, fiscalPeriod: string, metric: string): CoherenceWire | null | undefined {
  if (!isAdditiveFlow(metric) || !/^(Q[1-4]|FY)$/.test(fiscalPeriod)) return undefined;
  const c = marks.get(fiscalYear)?.get(metric);
  return c === undefined ? null : coherenceOut(c);
}

/** A short digest of the marks of one fiscal year: what a prepared payload keyed by version id must add to its key. */
export function marksDigest(marks: CoherenceMarks, fiscalYear: number): string {
  const year = marks.get(fiscalYear);
  if (year === undefined) return 'none';
  let digest = digests.get(year);
  if (digest === undefined) digests.set(year, (digest = yearDigest(year)));
  return digest;
}

/** Digests by a year's marks (kept while the marks are: api/company-versions.ts keeps them per index). */
const digests = new WeakMap<ReadonlyMap<string, QuarterCoherence>, string>();

function yearDigest(year: ReadonlyMap<string, QuarterCoherence>): string {
  const text = [...year].map(([m, c]) => `${m}:${c.reason}:${c.served_year}:${c.quarters_sum}`).sort().join(';');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
