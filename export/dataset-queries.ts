import { CsvPartPlanner, type PartSink, type PlannedFile } from './csv-plan.ts';
import type { DatasetName } from '../domain/bulk/datasets.ts';
import type { Db, Fragment } from '../db/client.ts';
import { latestPerPeriod } from '../db/statement-versions.ts';

/**
 * The rows of each bulk dataset as CSV straight out of PostgreSQL's COPY: the partition value, then
 * the dataset's columns exactly as domain/bulk/datasets.ts lists them, in file order (each query
 * sorts once, by the dataset's partition and key). Every value leaves as
 * text (NUMERIC keeps every digit, timestamps their offset), so
 * nothing passes through a JS number, and no cell passes through JS at all: the Parquet writer
 * reads the CSV itself. File order is partition, then key, so the same corpus yields the same files.
 */
function query(sql: Db, dataset: DatasetName, only: Only) {
  // the rows of the partitions `only` names (a year, or '' for rows without one), as index ranges;
  // COPY takes no bind parameters, so the years (integers, checked) are written into the query
  const years = (only ?? []).filter((p) => p !== '').map((p) => {
    if (!/^-?\d{1,6}$/.test(p)) throw new Error(`not a partition year: ${JSON.stringify(p)}`);
    return Number(p);
  });
  const nulls = (year: Fragment) => (only?.includes('') ? sql` OR ${year} IS NULL` : sql``);
  const inYears = (year: Fragment) => (only === null ? sql`TRUE` : sql`(${year} = ANY(${sql.unsafe(`'{${years.join(',')}}'`)}::int[])${nulls(year)})`);
  const inDateYears = (date: Fragment) =>
    only === null
      ? sql`TRUE`
      : sql`(${years.reduce((or, y) => sql`${or} OR (${date} >= ${sql.unsafe(`'${y}-01-01'`)}::date AND ${date} < ${sql.unsafe(`'${y + 1}-01-01'`)}::date)`, sql`FALSE`)}${nulls(date)})`;
  switch (dataset) {
    case 'companies':
      return sql`
        SELECT '' AS part, cik, company_id::text, name,
               array_to_string(tickers, ','), array_to_string(exchanges, ','),
               entity_type, sic, sic_description, category, fiscal_year_end, state_of_incorporation, ein, lei,
               latest_filing_accession, source, source_loaded_at::text
        FROM companies ORDER BY cik`;
    case 'filings':
      // the sort keys lead each sorted row (here and in financials): PostgreSQL then finds them at a
      // fixed place instead of walking the row's text columns on every comparison
      return sql`
        SELECT part, accession, cik, form, fd, est, rd, acc, primary_document, fy, fiscal_period_focus, periodic, source, facts, part
        FROM (SELECT filing_date, accession, extract(year FROM filing_date)::int AS part, cik, form, filing_date::text AS fd,
                     filing_date_estimated::text AS est, report_date::text AS rd, accepted_at::text AS acc, primary_document,
                     fiscal_year_focus::text AS fy, fiscal_period_focus, is_periodic::text AS periodic, source, facts_count::text AS facts
              FROM filings WHERE ${inDateYears(sql`filing_date`)} ORDER BY filing_date, accession) f
        ORDER BY filing_date, accession`;
    case 'statements':
      // the metric count is stored with the version (db/migrations/000033): counting the figures'
      // keys here decompressed every version's figures once more; a version stored before the
      // column existed (NULL) is counted here as before
      return sql`
        SELECT fiscal_year AS part,
               statement_version_id::text, cik, statement_type, fiscal_year::text, fiscal_period,
               version_sequence::text, period_start::text, period_end::text, accession, form, filing_date::text,
               accepted_at::text, currency, accounting_standard, previous_version_id::text,
               coalesce(metric_count, (SELECT count(*) FROM jsonb_object_keys(figures)))::text, created_at::text
        FROM (${served(sql, inYears(sql`v.fiscal_year`))}) v ORDER BY fiscal_year, statement_version_id`;
    case 'financials':
      // figures are stored packed (db/figure-storage.ts): an absent field repeats the version row.
      // The version's own columns are turned into text once per version, not once per figure. The
      // versions come sorted, and each version's figures are sorted by metric on their own (a
      // small sort of its ~23 keys and values per version, inside the lateral subquery), so the
      // rows come out in file order with no sort over the whole dataset: the outer ORDER BY is the
      // versions' order, which the sorted subquery already gives (no sort node; PostgreSQL never
      // reorders a nested loop's inner rows), and the figure's fields are read after the sort.
      // This took ~10% less of PostgreSQL's CPU than one incremental sort of every figure row by
      // (year, version, metric), whose rows carried the version's columns. The metric sorts
      // COLLATE "C": byte order without a strcoll call per comparison, and the same file order
      // whatever the database's collation (on a C.UTF-8 database, the order it always had; a
      // database with a linguistic default collation rewrites its financials parts once).
      return sql`
        SELECT part, id, cik, statement_type, fy, fiscal_period, metric, fig->>'value', coalesce(fig->>'unit', currency, ''),
               CASE WHEN fig ? 'period_start' THEN fig->>'period_start' ELSE ps END,
               coalesce(fig->>'period_end', pe),
               coalesce(fig->>'source_accession', accession),
               fig->>'source_xbrl_concept', fig->>'mapping_type',
               coalesce(fig->>'selection_rule', CASE WHEN coalesce(fig->>'value_origin', 'SOURCE') = 'SOURCE' THEN 'CANDIDATE_ORDER' END),
               coalesce(fig->>'value_origin', 'SOURCE'), fig->>'correction_rule', fig->>'as_filed_value', fd
        FROM (SELECT v.fiscal_year AS part, v.statement_version_id, v.statement_version_id::text AS id, v.cik, v.statement_type,
                     v.fiscal_year::text AS fy, v.fiscal_period, v.currency, v.period_start::text AS ps,
                     v.period_end::text AS pe, v.accession, v.filing_date::text AS fd, v.figures
              FROM (${served(sql, inYears(sql`v.fiscal_year`))}) v ORDER BY v.fiscal_year, v.statement_version_id) v,
             LATERAL (SELECT f.key AS metric, f.value AS fig FROM jsonb_each(v.figures) f ORDER BY f.key COLLATE "C") f
        ORDER BY part, statement_version_id`;
    case 'segments':
      // a row without a fiscal year has no partition to go to; ingestion always sets one
      return sql`
        SELECT fiscal_year AS part,
               metric_dimension_id::text, cik, accession, statement_version_id::text, statement_type,
               fiscal_year::text, fiscal_period, metric, concept, dimension_type, axis, member, member_label,
               value::text, unit, period_start::text, period_end::text, decimals, filing_date::text, extracted_at::text
        FROM segment_facts WHERE fiscal_year IS NOT NULL AND ${inYears(sql`fiscal_year`)} ORDER BY fiscal_year, metric_dimension_id`;
    case 'disclosures':
      return sql`
        SELECT extract(year FROM coalesce(period_of_report, context_end))::int AS part,
               disclosure_id::text, cik, accession, period_of_report::text, concept, title, disclosure_text,
               char_count::text, context_start::text, context_end::text, filing_date::text, extracted_at::text,
               extract(year FROM coalesce(period_of_report, context_end))::int
        FROM disclosures WHERE ${inYears(sql`extract(year FROM coalesce(period_of_report, context_end))::int`)}
        ORDER BY extract(year FROM coalesce(period_of_report, context_end)), disclosure_id`;
  }
}

/**
 * The order the build streams the datasets in: the largest first, so DuckDB writes its parts while
 * PostgreSQL streams the smaller ones, and little is left to write once the last rows arrive.
 */
export const STREAM_ORDER: readonly DatasetName[] = ['financials', 'filings', 'statements', 'disclosures', 'segments', 'companies'];

/**
 * The same datasets over two transactions reading one snapshot side by side (export/build.ts):
 * financials alone takes PostgreSQL about twice as long as the other five together (~0.26 s of its
 * CPU against ~0.13 s on the corpus).
 */
export const STREAM_LANES: readonly (readonly DatasetName[])[] = [['financials'], ['filings', 'statements', 'disclosures', 'segments', 'companies']];

/**
 * Makes this (repeatable-read, not yet read anything) transaction see the snapshot another one
 * exported with pg_export_snapshot(), which must still be open: the same committed rows exactly.
 */
export async function importSnapshot(tx: Db, snapshot: string): Promise<void> {
  // SET takes no bind parameter; an exported snapshot id is hex words and dashes
  if (!/^[0-9A-F]+(-[0-9A-F]+)+$/i.test(snapshot)) throw new Error(`not a snapshot id: ${JSON.stringify(snapshot)}`);
  await tx.unsafe(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
}

/** The served version of each statement: the highest version_sequence of its identity. */
function served(sql: Db, where: Fragment) {
  return latestPerPeriod(sql, sql`v.*`, where);
}

/**
 * Sorts in memory and without JIT for the rest of the export transaction: the financials sort
 * spills to disk at the default work_mem, and JIT compiles each COPY's expressions for longer than
 * it saves on a corpus this size. Both settings end with the transaction.
 */
export async function tuneExportTransaction(tx: Db): Promise<void> {
  await tx`SELECT set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`;
}

/** The partitions to read (their values as the manifest names them, '' for none), or null for all. */
export type Only = readonly string[] | null;

const BATCH_BYTES = 1 << 20;

/**
 * Streams one dataset's rows (CSV, no header, NULL as an unquoted empty field) into `sink` part by
 * part and returns the part files with their row counts and hashes (export/csv-plan.ts); with `only`,
 * the rows of those partitions alone.
 */
export async function exportParts(sql: Db, dataset: DatasetName, rowsPerFile: number, sink: PartSink, only: Only = null): Promise<PlannedFile[]> {
  const planner = new CsvPartPlanner(rowsPerFile, sink);
  const readable = await sql`COPY (${query(sql, dataset, only)}) TO STDOUT WITH (FORMAT csv)`.readable();
  // Consumed synchronously, never paused: postgres.js leaves the connection's socket paused when a
  // COPY stream saw backpressure, and the transaction's next query then never gets an answer (and
  // see the end below: rows buffered before this listener are backpressure too).
  // postgres.js hands over each row as its own chunk (one CopyData message): they are gathered into
  // batches of about a megabyte, so the planner, the hash and the file writes work on large runs.
  // A planner or sink failure lets the COPY run out (the connection stays usable) and fails after.
  let failed: unknown = null;
  let batch: Buffer[] = [];
  let batched = 0;
  const flush = () => {
    if (batched === 0 || failed !== null) return;
    try {
      planner.push(batch.length === 1 ? batch[0]! : Buffer.concat(batch, batched));
    } catch (err) {
      failed = err;
    }
    batch = [];
    batched = 0;
  };
  await new Promise<void>((resolve, reject) => {
    readable.on('data', (chunk: Buffer) => {
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= BATCH_BYTES) flush();
    });
    readable.once('end', () => {
      // postgres.js pauses the connection's socket whenever a push fills the stream's buffer, and
      // only the stream's next read resumes it. When a whole small COPY (past the buffer's 16 KB,
      // within one socket read) arrives before this listener, every row is buffered, the socket is
      // paused, and the stream has already ended: no read comes, so the COPY's CommandComplete and
      // ReadyForQuery, and the answer of every later query on this connection (the transaction's
      // COMMIT), are never read. Its read hook (`socket.resume()`) resumes it; a no-op otherwise.
      readable._read(0);
      resolve();
    });
    readable.once('error', (err) => {
      readable._read(0); // the same for a COPY that failed after its rows were buffered
      reject(err);
    });
  });
  flush();
  if (failed !== null) throw failed;
  return planner.end();
}
