/**
 * Shapes shared by the modeling rows (spec "Modeling rows"): the nine reasons a metric can be
 * unavailable, the statement versions a build reads, and the row bodies it stores. Pure types and
 * tiny helpers; every row kind lists each metric of its route in `metrics` or in
 * `unavailable_metrics`, never both, never neither.
 */
import type { StatementRow } from '../series-periods.ts';

/** The spec's nine reasons, in its order. */
export const UNAVAILABLE_REASONS = [
  'NOT_REPORTED',
  'NOT_ON_STATEMENT',
  'MISSING_INPUT',
  'DENOMINATOR_ZERO',
  'NON_POSITIVE_VALUE',
  'NO_COMPARABLE_PERIOD',
  'NOT_APPLICABLE_TO_PERIOD',
  'INCOMPLETE_TRAILING_YEAR',
  'PENDING_REBUILD',
] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

export interface Unavailable {
  metric: string;
  reason: UnavailableReason;
  /** present for MISSING_INPUT (and kept when PENDING_REBUILD replaces it): the unreported inputs */
  missing_inputs?: string[];
  /** why, where the reason alone does not say it (kept when PENDING_REBUILD replaces the reason) */
  detail?: UnavailableDetail;
}

/**
 * SPLIT_BASIS_UNDETERMINED: the figures compared or combined are per-share figures or share counts
 * of filings whose share bases cannot be brought to one (a split is on record and a figure's
 * source filing is not), so no figure is served rather than one mixing two bases.
 */
export const UNAVAILABLE_DETAILS = ['SPLIT_BASIS_UNDETERMINED'] as const;
export type UnavailableDetail = (typeof UNAVAILABLE_DETAILS)[number];

/** Fraction digits of every ratio and growth value (rounded half-up, always all of them). */
export const MODEL_FRACTION_DIGITS = 12;

/**
 * Bumped whenever a formula, a row shape or a convention of the build changes: it is part of the
 * snapshot identity and of snapshot_hash, so rows computed by different rules never share a hash.
 */
export const MODEL_VERSION = 2;

/** A statement version as a build reads it: the latest knowable at the snapshot's date. */
export interface ModelVersion extends StatementRow {
  /** hash of the version's figures as ingested (statement_versions.content_hash) */
  content_hash: string;
  /**
   * per-share figures and share counts -> the filing date of the filing each was read from (its
   * split basis; a version carries figures of earlier filings); absent where not known
   */
  share_bases?: Readonly<Record<string, string>>;
}

/** "2019|FY": a fiscal period of one company, as rows name what they read. */
export function periodKey(p: { fiscal_year: number; fiscal_period: string }): string {
  return `${p.fiscal_year}|${p.fiscal_period}`;
}

/** A metric map and its unavailable entries, filled in metric order by `put`/`miss`. */
export class MetricSheet {
  readonly metrics: Record<string, string> = {};
  readonly unavailable_metrics: Unavailable[] = [];
  put(metric: string, value: string): void {
    this.metrics[metric] = value;
  }
  miss(metric: string, reason: UnavailableReason, missing_inputs?: string[]): void {
    this.unavailable_metrics.push(missing_inputs && missing_inputs.length > 0 ? { metric, reason, missing_inputs } : { metric, reason });
  }
  /** unavailable for a reason `detail` explains */
  missBecause(metric: string, reason: UnavailableReason, detail: UnavailableDetail): void {
    this.unavailable_metrics.push({ metric, reason, detail });
  }
}

/** A computed row before the snapshot's own fields are added: its body and the periods it read. */
export interface ComputedRow {
  cik: string;
  reads: string[];
  body: Record<string, unknown>;
}
