import type { StatementFigure } from '../domain/statement-types.ts';

export type StoredFigure = Omit<StatementFigure, 'metric'>;

/** What a version row already says, so its figures need not repeat it. */
export interface FigureContext {
  period_start: string | null;
  period_end: string;
  accession: string;
  currency: string | null;
}

/**
 * statement_versions.figures holds one entry per metric, left out wherever it repeats the row:
 * null fields, the row's period, its accession, its currency, value_origin SOURCE. Most figures
 * shrink to value and tag, which cuts what ingestion writes (and reads) about fourfold.
 * `unpackFigure` puts everything back; the pair is tested to round-trip.
 *
 * A left-out field is undefined, which JSON leaves out of the stored text; the object itself has
 * every field, always in this order. Adding only the fields a figure needs made one object shape
 * per combination, and each new one deoptimized the version writer that packs them.
 */
export function packFigure(f: StatementFigure, ctx: FigureContext): Partial<StoredFigure> {
  return {
    value: f.value,
    unit: f.unit !== ctx.currency ? f.unit : undefined,
    period_start: f.period_start !== ctx.period_start ? f.period_start : undefined,
    period_end: f.period_end !== ctx.period_end ? f.period_end : undefined,
    source_accession: f.source_accession !== ctx.accession ? f.source_accession : undefined,
    source_xbrl_concept: f.source_xbrl_concept ?? undefined,
    mapping_type: f.mapping_type ?? undefined,
    // the usual rule of a source figure is implied, so only the presentation rules take room
    selection_rule: f.selection_rule !== null && f.selection_rule !== 'CANDIDATE_ORDER' ? f.selection_rule : undefined,
    value_origin: f.value_origin !== 'SOURCE' ? f.value_origin : undefined,
    correction_rule: f.correction_rule ?? undefined,
    as_filed_value: f.as_filed_value ?? undefined,
    as_filed_concept: f.as_filed_concept ?? undefined,
    calculation_steps: f.calculation_steps ?? undefined,
  };
}

export function unpackFigure(s: Partial<StoredFigure>, ctx: FigureContext): StoredFigure {
  return {
    value: s.value!,
    unit: s.unit ?? ctx.currency ?? '',
    period_start: s.period_start === undefined ? ctx.period_start : s.period_start,
    period_end: s.period_end ?? ctx.period_end,
    source_accession: s.source_accession ?? ctx.accession,
    source_xbrl_concept: s.source_xbrl_concept ?? null,
    mapping_type: s.mapping_type ?? null,
    selection_rule: s.selection_rule ?? ((s.value_origin ?? 'SOURCE') === 'SOURCE' ? 'CANDIDATE_ORDER' : null),
    value_origin: s.value_origin ?? 'SOURCE',
    correction_rule: s.correction_rule ?? null,
    as_filed_value: s.as_filed_value ?? null,
    as_filed_concept: s.as_filed_concept ?? null,
    calculation_steps: s.calculation_steps ?? null,
  };
}
