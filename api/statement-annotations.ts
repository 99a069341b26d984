import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { StoredFigure } from '../db/figure-storage.ts';
import { filingDatesOf, stockSplitsOf } from '../db/stock-splits.ts';
import type { CompanySplit } from '../domain/statements/split-basis.ts';
import { splitScaling } from '../domain/statements/stock-splits.ts';
import { coherenceOf, type CoherenceMarks } from './coherence.ts';
import { adjustFigure } from './split-adjustment.ts';
import type { StatementVersionOut } from './statement-shapes.ts';
import { wireDecimal } from '../domain/decimal.ts';

type VersionWire = z.input<typeof StatementVersionOut>;

/** What a read splits figures to: the company's splits, the read's point in time, and each source filing's date. */
export interface SplitContext {
  splits: readonly CompanySplit[];
  asOf: string | null;
  filedOn: ReadonlyMap<string, string>;
}

/**
 * The split context of a read of `versions` (one company), or null where it asks for figures as
 * filed or the company told no split: the splits, and the filing date of every filing a per-share
 * figure or share count of those versions was read from.
 */
export async function splitContextOf(
  sql: Db,
  cik: string,
  figures: Iterable<Pick<StoredFigure, 'unit' | 'source_accession'>>,
  asOf: string | null,
): Promise<SplitContext | null> {
  const splits = await stockSplitsOf(sql, cik);
  if (splits.length === 0) return null;
  const accessions: string[] = [];
  for (const f of figures) if (splitScaling(f.unit) !== null) accessions.push(f.source_accession);
  return { splits, asOf, filedOn: await filingDatesOf(sql, accessions) };
}

/**
 * A statement payload with each money flow's coherence mark (`marks`; null: not marked) and, with
 * a split context, its per-share figures and share counts restated to the latest split basis,
 * each with its adjustment. The payload itself is not changed (it may be a prepared, frozen one).
 */
export function annotateVersion(out: VersionWire, marks: CoherenceMarks | null, split: SplitContext | null): VersionWire {
  if (marks === null && split === null) return out;
  const facts = out.normalized_payload.facts.map((f) => {
    let fact = f;
    if (marks !== null) {
      const coherence = coherenceOf(marks, out.fiscal_year, out.fiscal_period, f.metric);
      if (coherence !== undefined) fact = { ...fact, coherence };
    }
    if (split !== null && f.source_accession !== undefined) {
      const basis = split.filedOn.get(f.source_accession);
      const adjusted = basis === undefined ? null : adjustFigure(f.value, f.unit, basis, split.splits, split.asOf);
      if (adjusted !== null) fact = { ...fact, value: wireDecimal(adjusted.value), split_adjustment: adjusted.adjustment };
    }
    return fact;
  });
  return { ...out, normalized_payload: { ...out.normalized_payload, facts } };
}
