import type { SegmentRow } from '../../domain/package-rows.ts';
import type { Db } from '../../db/client.ts';
import type { FiscalPeriod, StatementType } from '../../domain/statements/types.ts';

/** Reads of segment rows and narrative disclosures (written by db/package-write.ts). */

export interface DisclosureListRow {
  disclosure_id: string;
  accession_id: string;
  cik: string;
  period_of_report: string | null;
  concept: string;
  title: string;
  char_count: number;
}

export interface DisclosureRow extends DisclosureListRow {
  disclosure_text: string;
  extracted_at: string;
  form: string;
  filing_date: string;
}

/** `text` anywhere in the value, with LIKE's wildcards taken literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listDisclosures(
  sql: Db,
  f: { cik: string; period_of_report?: string; accession?: string; search?: string; page: number; page_size: number },
): Promise<{ total: number; rows: DisclosureListRow[] }> {
  const where = sql`cik = ${f.cik}
    ${f.period_of_report ? sql`AND period_of_report = ${f.period_of_report}` : sql``}
    ${f.accession ? sql`AND accession = ${f.accession}` : sql``}
    ${f.search ? sql`AND (title ILIKE ${likePattern(f.search)} OR concept ILIKE ${likePattern(f.search)})` : sql``}`;
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM disclosures WHERE ${where}`;
  const rows = await sql<DisclosureListRow[]>`
    SELECT disclosure_id, accession AS accession_id, cik, period_of_report::text, concept, title, char_count
    FROM disclosures WHERE ${where}
    ORDER BY period_of_report DESC NULLS LAST, accession DESC, concept, disclosure_id
    LIMIT ${f.page_size} OFFSET ${(f.page - 1) * f.page_size}`;
  return { total: count!.total, rows };
}

export async function disclosureById(sql: Db, id: string): Promise<DisclosureRow | null> {
  const [row] = await sql<DisclosureRow[]>`
    SELECT d.disclosure_id, d.accession AS accession_id, d.cik, d.period_of_report::text, d.concept, d.title, d.char_count,
      d.disclosure_text, to_char(d.extracted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS extracted_at,
      f.form, d.filing_date::text
    FROM disclosures d JOIN filings f USING (accession)
    WHERE d.disclosure_id = ${id}`;
  return row ?? null;
}

/** A stored segment row as read: the row's fields plus the company, the version id and the consolidated figure. */
export interface SegmentReadRow extends Omit<SegmentRow, 'accession' | 'version_sequence' | 'statement_type' | 'fiscal_period'> {
  /** the column's CHECK holds it to the statement types and fiscal periods */
  statement_type: StatementType;
  fiscal_period: FiscalPeriod | null;
  statement_version_id: string | null;
  cik: string;
  company_id: string | null;
  accession_id: string;
  consolidated_value: string | null;
}

export interface SegmentFilter {
  cik: string;
  period_end?: string;
  fiscal_year?: number;
  fiscal_period?: string;
  dimension_type?: string;
  metric?: string;
  page: number;
  page_size: number;
}

export async function listSegments(sql: Db, f: SegmentFilter): Promise<{ total: number; rows: SegmentReadRow[] }> {
  const where = sql`s.cik = ${f.cik}
    ${f.period_end ? sql`AND s.period_end = ${f.period_end}` : sql``}
    ${f.fiscal_year !== undefined ? sql`AND s.fiscal_year = ${f.fiscal_year}` : sql``}
    ${f.fiscal_period ? sql`AND s.fiscal_period = ${f.fiscal_period}` : sql``}
    ${f.dimension_type ? sql`AND s.dimension_type = ${f.dimension_type}` : sql``}
    ${f.metric ? sql`AND s.metric = ${f.metric}` : sql``}`;
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM segment_facts s WHERE ${where}`;
  const rows = await sql<SegmentReadRow[]>`
    SELECT s.metric_dimension_id, s.statement_version_id, s.cik, c.company_id, s.accession AS accession_id,
      s.filing_date::text, s.statement_type, s.fiscal_year, s.fiscal_period, s.metric, s.concept, s.dimension_type,
      s.axis, s.member, s.member_label, s.value::text, s.unit, s.period_start::text, s.period_end::text, s.decimals,
      sv.figures -> s.metric ->> 'value' AS consolidated_value
    FROM segment_facts s
    LEFT JOIN companies c ON c.cik = s.cik
    LEFT JOIN statement_versions sv ON sv.statement_version_id = s.statement_version_id
    WHERE ${where}
    ORDER BY s.period_end DESC, s.period_start DESC NULLS LAST, s.metric, s.dimension_type, s.axis, s.member_label, s.accession DESC
    LIMIT ${f.page_size} OFFSET ${(f.page - 1) * f.page_size}`;
  return { total: count!.total, rows };
}

export async function cikOfCompanyId(sql: Db, companyId: string): Promise<string | null> {
  const [row] = await sql<{ cik: string }[]>`SELECT cik FROM companies WHERE company_id = ${companyId}`;
  return row?.cik ?? null;
}
