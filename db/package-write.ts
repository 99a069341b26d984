import type { DisclosureRow, SegmentRow } from '../domain/package-rows.ts';
import { type Db, json } from './client.ts';
import { latestVersionOf, visible } from './statement-versions.ts';

/**
 * Segment rows and disclosures of a company's packages. Ids are derived from what a row is, so a
 * re-ingestion updates rows in place (only where something changed) and never duplicates them;
 * rows of a filing the packages no longer yield are removed with it.
 */

export interface StoredSegmentRow extends SegmentRow {
  /** content hash of the built version the row reconciles with, to find its stored id */
  content_hash: string | null;
}

export async function replaceSegments(tx: Db, cik: string, rows: readonly StoredSegmentRow[], now: Date): Promise<number> {
  const ids = rows.map((r) => r.metric_dimension_id);
  // issued together with the insert (pipelined): the insert touches none of the rows it removes
  const removed = tx`DELETE FROM segment_facts WHERE cik = ${cik} AND NOT (metric_dimension_id = ANY(${ids}::uuid[]))`.execute();
  if (rows.length === 0) {
    await removed;
    return 0;
  }
  const inserted = tx`
    INSERT INTO segment_facts (metric_dimension_id, cik, accession, statement_version_id, statement_type, fiscal_year,
      fiscal_period, metric, concept, dimension_type, axis, member, member_label, value, unit, period_start, period_end,
      decimals, filing_date, extracted_at)
    SELECT r.metric_dimension_id, ${cik}, r.accession, v.statement_version_id, r.statement_type, r.fiscal_year,
      r.fiscal_period, r.metric, r.concept, r.dimension_type, r.axis, r.member, r.member_label, r.value, r.unit,
      r.period_start, r.period_end, r.decimals, r.filing_date, ${now}
    FROM jsonb_to_recordset(${json(tx, rows)}) AS r(
      metric_dimension_id uuid, accession text, statement_type text, fiscal_year integer, fiscal_period text,
      version_sequence integer, content_hash text, metric text, concept text, dimension_type text, axis text,
      member text, member_label text, value numeric, unit text, period_start date, period_end date, decimals text,
      filing_date date)
    -- the version built from this filing where it is stored as built; otherwise (history stored by an
    -- older normalizer) the one a reader saw on the filing date
    LEFT JOIN LATERAL (${latestVersionOf(
      tx,
      tx`v.statement_version_id`,
      tx`v.cik = ${cik} AND v.statement_type = r.statement_type AND v.fiscal_year = r.fiscal_year
        AND v.fiscal_period = r.fiscal_period AND ${visible(tx, tx`r.filing_date`)}`,
      tx`v.content_hash = r.content_hash AND v.version_sequence = r.version_sequence`,
    )}) v ON r.version_sequence IS NOT NULL
    ON CONFLICT (metric_dimension_id) DO UPDATE SET
      statement_version_id = EXCLUDED.statement_version_id, fiscal_year = EXCLUDED.fiscal_year,
      fiscal_period = EXCLUDED.fiscal_period, concept = EXCLUDED.concept, member_label = EXCLUDED.member_label,
      value = EXCLUDED.value, unit = EXCLUDED.unit, decimals = EXCLUDED.decimals, filing_date = EXCLUDED.filing_date,
      extracted_at = EXCLUDED.extracted_at
    WHERE (segment_facts.statement_version_id, segment_facts.fiscal_year, segment_facts.fiscal_period, segment_facts.concept,
           segment_facts.member_label, segment_facts.value, segment_facts.unit, segment_facts.decimals, segment_facts.filing_date)
      IS DISTINCT FROM (EXCLUDED.statement_version_id, EXCLUDED.fiscal_year, EXCLUDED.fiscal_period, EXCLUDED.concept,
           EXCLUDED.member_label, EXCLUDED.value, EXCLUDED.unit, EXCLUDED.decimals, EXCLUDED.filing_date)`;
  const [, result] = await Promise.all([removed, inserted]);
  return result.count;
}

export async function replaceDisclosures(tx: Db, cik: string, rows: readonly DisclosureRow[], now: Date): Promise<number> {
  const ids = rows.map((r) => r.disclosure_id);
  // issued together with the insert (pipelined): the insert touches none of the rows it removes
  const removed = tx`DELETE FROM disclosures WHERE cik = ${cik} AND NOT (disclosure_id = ANY(${ids}::uuid[]))`.execute();
  if (rows.length === 0) {
    await removed;
    return 0;
  }
  const inserted = tx`
    INSERT INTO disclosures (disclosure_id, cik, accession, period_of_report, concept, title, disclosure_text, char_count,
      context_start, context_end, filing_date, extracted_at)
    SELECT r.disclosure_id, ${cik}, r.accession, r.period_of_report, r.concept, r.title, r.disclosure_text, r.char_count,
      r.context_start, r.context_end, r.filing_date, ${now}
    FROM jsonb_to_recordset(${json(tx, rows)}) AS r(
      disclosure_id uuid, accession text, period_of_report date, concept text, title text, disclosure_text text,
      char_count integer, context_start date, context_end date, filing_date date)
    ON CONFLICT (disclosure_id) DO UPDATE SET
      period_of_report = EXCLUDED.period_of_report, concept = EXCLUDED.concept, title = EXCLUDED.title,
      disclosure_text = EXCLUDED.disclosure_text, char_count = EXCLUDED.char_count, filing_date = EXCLUDED.filing_date,
      extracted_at = EXCLUDED.extracted_at
    WHERE (disclosures.period_of_report, disclosures.concept, disclosures.title, disclosures.disclosure_text, disclosures.filing_date)
      IS DISTINCT FROM (EXCLUDED.period_of_report, EXCLUDED.concept, EXCLUDED.title, EXCLUDED.disclosure_text, EXCLUDED.filing_date)`;
  const [, result] = await Promise.all([removed, inserted]);
  return result.count;
}
