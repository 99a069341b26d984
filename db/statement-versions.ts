import type { CalculationEvidence } from '../domain/calculation-evidence.ts';
import type { UnavailableFigure } from '../domain/normalize/statement-presentation.ts';
import { ACCOUNTING_STANDARDS, FISCAL_PERIODS, STATEMENT_TYPES, type AccountingStandard } from '../domain/statements/types.ts';
import type { VersionRef } from '../domain/statements/version-ref.ts';
import type { Db, Fragment } from './client.ts';
import { unpackFigure, type StoredFigure } from './figure-storage.ts';

/**
 * The statement_versions table as reads see it: its one row type (a header row is a VersionRef,
 * so rows pass wherever a reference is wanted without mapping or casts), its column list, and the
 * knowable-at rule and the version-selection rules as SQL fragments: the latest version per period, the latest of one
 * statement, whether a row is the latest of those selected or has been superseded, and whether a
 * version is newer than one a reader recorded. This is the only module that selects versions by
 * version_sequence (test/unit/code-shape.test.ts keeps it so); queries elsewhere compose these
 * fragments. By convention the table is aliased `v` in a query that uses them.
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
export function headerColumns(sql: Db) {
  return sql`${sql(HEADER_COLUMNS.map((c) => `v.${c}`))}`;
}

export type { Fragment };

/** Where a date goes: a bound date or a fragment (a column of the enclosing query). */
type DateOperand = string | Fragment;

/**
 * The knowable-at rule in SQL (domain/statements/visibility.ts states it in TypeScript): a version
 * is seen on `asOf` when its SEC filing date is on or before it. A boolean expression over
 * `statement_versions v`; with `asOf` null every version is seen (TRUE).
 */
export function visible(sql: Db, asOf: DateOperand | null) {
  return asOf === null ? sql`TRUE` : sql`v.filing_date <= ${asOf}`;
}

/**
 * The same rule for any other table's filing date column (filings, restatement events): a row is
 * known on `asOf` when that date is on or before it.
 */
export function filedBy(sql: Db, column: string, asOf: string | null) {
  return asOf === null ? sql`TRUE` : sql`${sql(column)} <= ${asOf}`;
}

/**
 * "The latest version of each statement period": the highest version_sequence per (cik, statement
 * type, fiscal year, fiscal period) among the rows `where` keeps (apply `visible` there for a
 * point-in-time read). Selects `columns` of `statement_versions v`; rows come in identity order.
 */
export function latestPerPeriod(sql: Db, columns: Fragment, where: Fragment) {
  return sql`
    SELECT DISTINCT ON (v.cik, v.statement_type, v.fiscal_year, v.fiscal_period) ${columns}
    FROM statement_versions v
    WHERE ${where}
    ORDER BY v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence DESC`;
}

/**
 * "The latest version of one statement": `columns` of the row with the highest version_sequence
 * among the rows of `statement_versions v` that `where` keeps (name the statement there, and apply
 * `visible` for a point-in-time read); no row when none is kept. With `prefer`, rows for which it is
 * true come first (the latest of those), then the latest of the rest.
 */
export function latestVersionOf(sql: Db, columns: Fragment, where: Fragment, prefer?: Fragment) {
  return sql`
    SELECT ${columns} FROM statement_versions v
    WHERE ${where}
    ORDER BY ${prefer ? sql`(${prefer}) DESC, ` : sql``}v.version_sequence DESC
    LIMIT 1`;
}

/**
 * True for a row of `statement_versions v` that is the latest of its statement among the rows the
 * enclosing query selected (a window over them: filter the statement's rows there, e.g. by `visible`).
 */
export function latestAmongSelected(sql: Db) {
  return sql`v.version_sequence = max(v.version_sequence) OVER (PARTITION BY v.cik, v.statement_type, v.fiscal_year, v.fiscal_period)`;
}

/** True for a row of `statement_versions v` that a later version of the same statement has superseded (any filing date). */
export function newerVersionExists(sql: Db) {
  return sql`EXISTS (
    SELECT 1 FROM statement_versions n
    WHERE n.cik = v.cik AND n.statement_type = v.statement_type AND n.fiscal_year = v.fiscal_year
      AND n.fiscal_period = v.fiscal_period AND n.version_sequence > v.version_sequence
  )`;
}

/**
 * True for a row of `statement_versions v` newer than what a reader recorded having read: no row of
 * `readTable` (aliased `r`, with the statement identity and version_sequence columns) that `readBy`
 * keeps names the same statement at this version or later. A modeling build records the versions it
 * read in modeling_snapshot_versions; a version it did not read arrived after it.
 */
export function newerThanRead(sql: Db, readTable: string, readBy: Fragment) {
  return sql`NOT EXISTS (
    SELECT 1 FROM ${sql(readTable)} r
    WHERE ${readBy} AND r.cik = v.cik AND r.statement_type = v.statement_type
      AND r.fiscal_year = v.fiscal_year AND r.fiscal_period = v.fiscal_period AND r.version_sequence >= v.version_sequence)`;
}

/** Puts back what the stored figures leave out (they are packed against their row). */
export function unpackVersion<T extends { figures?: Record<string, StoredFigure> | undefined; period_start: string | null; period_end: string; accession: string; currency: string | null }>(row: T): T {
  if (row.figures) for (const m of Object.keys(row.figures)) row.figures[m] = unpackFigure(row.figures[m]!, row);
  return row;
}

/**
 * Every version of one company, headers only: what a per-company index holds
 * (api/company-versions.ts, domain/statements/company-versions.ts applies the rules above to it).
 * Read as one text value (a line per version, its columns between tabs, timestamps written in SQL
 * as the client's parser writes them): a few hundred rows of sixteen columns parsed one field at a
 * time cost the client several times more. A line that does not split into sixteen columns (a
 * value with a tab or a line break in it; none is stored) or names a statement type, fiscal period
 * or accounting standard the domain does not list makes the company's rows read as rows instead.
 */
export async function companyVersionHeaders(sql: Db, cik: string): Promise<VersionHeader[]> {
  return (await companyVersionHeadersRead(sql, cik)).headers;
}

/**
 * companyVersionHeaders, with the snapshot they were read in (pg_snapshot as text): no version the
 * headers lack was committed before it, so companiesChangedSince(that snapshot) tells whether they
 * are still all of the company's versions.
 */
export async function companyVersionHeadersRead(sql: Db, cik: string): Promise<{ headers: VersionHeader[]; snapshot: string }> {
  const [row] = await sql<{ text: string; snapshot: string }[]>`
    SELECT coalesce(string_agg(concat_ws(E'\t', v.statement_version_id, v.cik, v.statement_type, v.fiscal_year, v.fiscal_period,
      v.version_sequence, coalesce(v.period_start::text, ${NULL_MARK}), v.period_end, v.accession, v.form, v.filing_date,
      coalesce(${isoUtc(sql, 'v.accepted_at')}, ${NULL_MARK}), coalesce(v.currency, ${NULL_MARK}), v.accounting_standard,
      coalesce(v.previous_version_id::text, ${NULL_MARK}), ${isoUtc(sql, 'v.created_at')}), E'\n'), '') AS text,
      pg_current_snapshot()::text AS snapshot
    FROM statement_versions v WHERE v.cik = ${cik}`;
  const { text, snapshot } = row!;
  if (text === '') return { headers: [], snapshot };
  const out: VersionHeader[] = [];
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    // known values only: anything else is read as rows, where the column types decide
    const statementType = STATEMENT_TYPES.find((t) => t === f[2]);
    const fiscalPeriod = FISCAL_PERIODS.find((p) => p === f[4]);
    const standard = ACCOUNTING_STANDARDS.find((a) => a === f[13]);
    // the rows read later than the snapshot: at worst a version both hold makes the next check reload
    if (f.length !== HEADER_COLUMNS.length || !statementType || !fiscalPeriod || !standard) return { headers: await companyVersionHeaderRows(sql, cik), snapshot };
    out.push({
      statement_version_id: f[0]!,
      cik: f[1]!,
      statement_type: statementType,
      fiscal_year: Number(f[3]),
      fiscal_period: fiscalPeriod,
      version_sequence: Number(f[5]),
      period_start: nullable(f[6]!),
      period_end: f[7]!,
      accession: f[8]!,
      form: f[9]!,
      filing_date: f[10]!,
      accepted_at: nullable(f[11]!),
      currency: nullable(f[12]!),
      accounting_standard: standard,
      previous_version_id: nullable(f[14]!),
      created_at: f[15]!,
    });
  }
  return { headers: out, snapshot };
}

const nullable = (x: string): string | null => (x === NULL_MARK ? null : x);

/** What stands for NULL in companyVersionHeaders's text (no column it marks holds it). */
const NULL_MARK = '\\N';

/** A timestamptz as ISO 8601 UTC with milliseconds, as db/client.ts parses one. */
function isoUtc(sql: Db, column: 'v.accepted_at' | 'v.created_at') {
  return sql`to_char(${sql(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** companyVersionHeaders's rows as rows, each column parsed by the client. */
export async function companyVersionHeaderRows(sql: Db, cik: string): Promise<VersionHeader[]> {
  return sql<VersionHeader[]>`SELECT ${headerColumns(sql)} FROM statement_versions v WHERE v.cik = ${cik}`;
}

/**
 * Which of these companies had statement versions written (inserted, updated, deleted, or the table
 * truncated) by a transaction their snapshot (from companyVersionHeadersRead) does not see and that
 * has committed since: a short backward range of company_version_changes per company (migration
 * 000051), from the snapshot's xmin on.
 */
export async function companiesChangedSince(sql: Db, read: readonly { cik: string; snapshot: string }[]): Promise<Set<string>> {
  const rows = await sql<{ cik: string }[]>`
    SELECT c.cik FROM unnest(${read.map((r) => r.cik)}::text[], ${read.map((r) => r.snapshot)}::pg_snapshot[]) AS c(cik, snap)
    WHERE EXISTS (
      SELECT 1 FROM company_version_changes x
      WHERE x.cik IN (c.cik, '*') AND x.xid >= pg_snapshot_xmin(c.snap) AND NOT pg_visible_in_snapshot(x.xid, c.snap))`;
  return new Set(rows.map((r) => r.cik));
}
