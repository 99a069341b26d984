import type { DimensionType } from './segments.ts';

/** Rows filing packages yield beyond statements, as built in ingest/package-rows.ts and stored by db/package-write.ts. */

/** One segment figure as stored (db/package-write.ts). */
export interface SegmentRow {
  metric_dimension_id: string;
  accession: string;
  statement_type: string;
  fiscal_year: number | null;
  fiscal_period: string | null;
  /** the statement version it reconciles with, resolved to an id when written; null when the filing presented no such statement */
  version_sequence: number | null;
  metric: string;
  concept: string;
  dimension_type: DimensionType;
  axis: string;
  member: string;
  member_label: string;
  value: string;
  unit: string;
  period_start: string | null;
  period_end: string;
  decimals: string | null;
  filing_date: string;
}

/** One narrative disclosure as stored. */
export interface DisclosureRow {
  disclosure_id: string;
  accession: string;
  period_of_report: string | null;
  concept: string;
  title: string;
  disclosure_text: string;
  char_count: number;
  context_start: string | null;
  context_end: string;
  filing_date: string;
}
