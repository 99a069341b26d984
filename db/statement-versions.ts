import type postgres from 'postgres';
import type { CalculationEvidence } from '../domain/calculation-evidence.ts';
import type { UnavailableFigure } from '../domain/normalize/statement-presentation.ts';
import type { AccountingStandard } from '../domain/statements/types.ts';
import type { VersionRef } from '../domain/statements/version-ref.ts';
import type { Sql } from './client.ts';
import { unpackFigure, type StoredFigure } from './figure-storage.ts';

/**
 * The statement_versions table as reads see it: its one row type (a header row is a VersionRef,
 * so rows pass wherever a reference is wanted without mapping or casts), its column list, and the
 * knowable-at rule and "latest version per period" as SQL fragments. Queries elsewhere compose these fragments instead of retyping the rules; by convention
 * the table is always aliased `v` in a query that uses them.
 */

/** A stored version without its figures: every column a read selects (content_hash and ingestion_run_id are the writer's). */
export interface VersionHeader extends VersionRef {
  period_start: string | null;
  period_end: string;
  currency: string | null;
  accounting_standard: AccountingStandard;
  previous_version_id: string | null;
  created_at: string;
}

/** A stored version with its figures unpacked (see db/figure-storage.ts). */
export interface VersionRow extends VersionHeader {
  figures: Record<string, StoredFigure>;
  /** the filer's calculation trees checked against the figures; null without a calculation linkbase */
  calculation_evidence: CalculationEvidence[] | null;
  /** quarter figures the version does not serve and why; null or absent where there are none (or the read did not select them) */
  unavailable_figures?: UnavailableFigure[] | null;
}

/** The header columns, in the order every header read selects them. */
export const HEADER_COLUMNS = [
  'statement_version_id', 'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'version_sequence', 'period_start',
  'period_end', 'accession', 'form', 'filing_date', 'accepted_at', 'currency', 'accounting_standard',
  'previous_version_id', 'created_at',
] as const satisfies readonly (keyof VersionHeader)[];

/** `v.statement_version_id, v.cik, ...`: the header columns of `statement_versions v`. */
export function headerColumns(sql: Sql) {
  return sql`${sql(HEADER_COLUMNS.map((c) => `v.${c}`))}`;
}

/** A nested sql`` fragment (postgres.js inlines it where it is interpolated). */
export type Fragment = postgres.PendingQuery<postgres.Row[]>;

/** Where a date goes: a bound date or a fragment (a column of the enclosing query). */
type DateOperand = string | Fragment;

/**
 * The knowable-at rule in SQL (domain/statements/visibility.ts states it in TypeScript): a version
 * is seen on `asOf` when its SEC filing date is on or before it. A boolean expression over
 * `statement_versions v`; with `asOf` null every version is seen (TRUE).
 */
export function visible(sql: Sql, asOf: DateOperand | null) {
  return asOf === null ? sql`TRUE` : sql`v.filing_date <= ${asOf}`;
}

/**
 * The same rule for any other table's filing date column (filings, restatement events): a row is
 * known on `asOf` when that date is on or before it.
 */
export function filedBy(sql: Sql, column: string, asOf: string | null) {
  return asOf === null ? sql`TRUE` : sql`${sql(column)} <= ${asOf}`;
}

/**
 * "The latest version of each statement period": the highest version_sequence per (cik, statement
 * type, fiscal year, fiscal period) among the rows `where` keeps (apply `visible` there for a
 * point-in-time read). Selects `columns` of `statement_versions v`; rows come in identity order.
 */
export function latestPerPeriod(sql: Sql, columns: Fragment, where: Fragment) {
  return sql`
    SELECT DISTINCT ON (v.cik, v.statement_type, v.fiscal_year, v.fiscal_period) ${columns}
    FROM statement_versions v
    WHERE ${where}
    ORDER BY v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence DESC`;
}

/** Puts back what the stored figures leave out (they are packed against their row). */
export function unpackVersion<T extends { figures?: Record<string, StoredFigure> | undefined; period_start: string | null; period_end: string; accession: string; currency: string | null }>(row: T): T {
  if (row.figures) for (const m of Object.keys(row.figures)) row.figures[m] = unpackFigure(row.figures[m]!, row);
  return row;
}
