import { type Db, json } from '../../db/client.ts';
import { filedBy } from '../../db/statement-versions.ts';
import type { FiscalPeriod, StatementType } from '../../domain/statements/types.ts';
import type { FactRevisionRow } from '../../db/restatement-read.ts';

/**
 * Reads of restatement alert events and fact revisions (written by db/statement-write.ts when a
 * filing changes a statement's figures). NUMERIC values come back as strings and stay strings.
 */

export interface AlertEventRow {
  restatement_alert_event_id: string;
  cik: string;
  company_name: string | null;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  version_sequence: number;
  statement_version_id: string;
  previous_version_id: string;
  previous_version_sequence: number | null;
  accession: string;
  form: string;
  filing_date: string;
  accepted_at: string | null;
  period_start: string | null;
  period_end: string;
  revised_metrics: number;
  detected_at: string;
}

export interface AlertFilter {
  cik: string | null;
  statement_type: string | null;
  fiscal_year: number | null;
  fiscal_period: string | null;
  filed_from: string | null;
  filed_to: string | null;
  /** only events that revised this metric */
  metric: string | null;
  /** only these companies (a Free-plan key's held ones); null: every company */
  within_ciks?: string[] | null;
}

function alertSelect(sql: Db) {
  return sql`
    SELECT e.restatement_alert_event_id, e.cik, c.name AS company_name, e.statement_type, e.fiscal_year, e.fiscal_period,
      e.version_sequence, e.statement_version_id, e.previous_version_id, p.version_sequence AS previous_version_sequence,
      e.accession, e.form, e.filing_date::text AS filing_date, v.accepted_at, v.period_start::text AS period_start,
      v.period_end::text AS period_end, e.revised_metrics, e.detected_at
    FROM restatement_alert_events e
    JOIN statement_versions v ON v.statement_version_id = e.statement_version_id
    LEFT JOIN statement_versions p ON p.statement_version_id = e.previous_version_id
    LEFT JOIN companies c ON c.cik = e.cik`;
}

/** Alert events, newest filing first (then cik, statement, newest period, newest version). */
export async function listAlertEvents(sql: Db, f: AlertFilter, page: { limit: number; offset: number }): Promise<{ total: number; rows: AlertEventRow[] }> {
  const where = sql`
    WHERE TRUE
      ${f.cik ? sql`AND e.cik = ${f.cik}` : sql``}
      ${f.statement_type ? sql`AND e.statement_type = ${f.statement_type}` : sql``}
      ${f.fiscal_year !== null ? sql`AND e.fiscal_year = ${f.fiscal_year}` : sql``}
      ${f.fiscal_period ? sql`AND e.fiscal_period = ${f.fiscal_period}` : sql``}
      ${f.filed_from ? sql`AND e.filing_date >= ${f.filed_from}` : sql``}
      AND ${filedBy(sql, 'e.filing_date', f.filed_to)}
      ${f.metric ? sql`AND EXISTS (SELECT 1 FROM fact_revisions r WHERE r.statement_version_id = e.statement_version_id AND r.metric = ${f.metric})` : sql``}
      ${f.within_ciks ? sql`AND e.cik IN (SELECT jsonb_array_elements_text(${json(sql, f.within_ciks)}::jsonb))` : sql``}`;
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM restatement_alert_events e ${where}`;
  const rows = await sql<AlertEventRow[]>`
    ${alertSelect(sql)}
    ${where}
    ORDER BY e.filing_date DESC, e.cik, e.statement_type, e.fiscal_year DESC, e.fiscal_period DESC, e.version_sequence DESC, e.restatement_alert_event_id
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  return { total: count?.total ?? 0, rows };
}

export async function alertEventById(sql: Db, id: string): Promise<AlertEventRow | null> {
  const [row] = await sql<AlertEventRow[]>`${alertSelect(sql)} WHERE e.restatement_alert_event_id = ${id}`;
  return row ?? null;
}

/** The alert events of the given versions (only versions > 1 have one). */
export async function alertEventsOfVersions(sql: Db, versionIds: string[]): Promise<AlertEventRow[]> {
  if (versionIds.length === 0) return [];
  return sql<AlertEventRow[]>`${alertSelect(sql)} WHERE e.statement_version_id IN ${sql(versionIds)} ORDER BY e.version_sequence`;
}

const REVISION_COLUMNS = (sql: Db) => sql`
  fact_revision_id, statement_version_id, previous_version_id, metric, old_value::text AS old_value, new_value::text AS new_value,
  difference::text AS difference, old_accession, new_accession, old_concept, new_concept`;

/** Every fact revision of the given versions, by version then metric name. */
export async function revisionsOfVersions(sql: Db, versionIds: string[]): Promise<FactRevisionRow[]> {
  if (versionIds.length === 0) return [];
  return sql<FactRevisionRow[]>`
    SELECT ${REVISION_COLUMNS(sql)} FROM fact_revisions
    WHERE statement_version_id IN ${sql(versionIds)} ORDER BY statement_version_id, metric`;
}

/** One page of a version's fact revisions, by metric name. */
export async function revisionPage(sql: Db, versionId: string, page: { limit: number; offset: number }): Promise<{ total: number; rows: FactRevisionRow[] }> {
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM fact_revisions WHERE statement_version_id = ${versionId}`;
  const rows = await sql<FactRevisionRow[]>`
    SELECT ${REVISION_COLUMNS(sql)} FROM fact_revisions WHERE statement_version_id = ${versionId}
    ORDER BY metric LIMIT ${page.limit} OFFSET ${page.offset}`;
  return { total: count?.total ?? 0, rows };
}

export interface VersionKey {
  statement_version_id: string;
  cik: string;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  version_sequence: number;
  accession: string;
  form: string;
  filing_date: string;
}

/** Which statement a version id belongs to; null for an unknown id. */
export async function versionKeyById(sql: Db, id: string): Promise<VersionKey | null> {
  const [row] = await sql<VersionKey[]>`
    SELECT statement_version_id, cik, statement_type, fiscal_year, fiscal_period, version_sequence, accession, form,
      filing_date::text AS filing_date
    FROM statement_versions WHERE statement_version_id = ${id}`;
  return row ?? null;
}
