import { json, type Db, type Sql } from './client.ts';
import type { ModelVersion } from '../domain/modeling/types.ts';
import { screenRows, valsLiteral, type ScreenRow } from '../domain/screens/rows.ts';

/**
 * The screen_rows writer: a company's rows are recomputed from every version it has
 * (domain/screens/rows.ts) and replaced, in the transaction that added the versions, so a screen
 * never reads a company half old and half new.
 */

const COLUMNS = [
  'cik', 'kind', 'basis', 'fiscal_year', 'fiscal_period', 'period_start', 'period_end', 'currency', 'accounting_standard',
  'filing_date', 'known_from', 'known_until', 'opens', 'sources', 'metrics', 'unavailable',
] as const satisfies readonly (keyof ScreenRow)[];

/** Every version of a company with its figures as the modeling build reads them (value, whether derived). */
async function companyVersions(sql: Db, cik: string): Promise<ModelVersion[]> {
  return sql<ModelVersion[]>`
    SELECT v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.statement_version_id, v.version_sequence,
      v.period_start::text AS period_start, v.period_end::text AS period_end, v.currency, v.accounting_standard,
      v.accession, v.filing_date::text AS filing_date, v.content_hash,
      coalesce((SELECT jsonb_object_agg(e.key, jsonb_build_object('v', e.value ->> 'value', 'd', coalesce(e.value ->> 'value_origin', 'SOURCE') <> 'SOURCE'))
        FROM jsonb_each(v.figures) e), '{}'::jsonb) AS figures
    FROM statement_versions v
    WHERE v.cik = ${cik}`;
}

/**
 * Starts a refresh of one company's screen rows inside a transaction: reads its versions and
 * deletes its rows now (statements that ride along with whatever the transaction sends next), and
 * answers the rows to insert once the versions are read. Issue it before any COPY of the same
 * transaction: a statement sent while a COPY streams would break the COPY.
 */
export async function screenRowsOf(sql: Db, cik: string): Promise<ScreenRow[]> {
  const [versions] = await Promise.all([companyVersions(sql, cik), sql`DELETE FROM screen_rows WHERE cik = ${cik}`]);
  return screenRows(cik, versions);
}

/** Inserts a company's screen rows as one statement (no COPY, so it pipelines with other writes). */
export async function insertScreenRows(sql: Db, rows: readonly ScreenRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((r) => ({ ...r, vals: valsLiteral(r.metrics) }));
  await sql`
    INSERT INTO screen_rows (${sql([...COLUMNS, 'vals'])})
    SELECT r.cik, r.kind, r.basis, r.fiscal_year, r.fiscal_period, r.period_start, r.period_end, r.currency, r.accounting_standard,
      r.filing_date, r.known_from, r.known_until, r.opens, r.sources, r.metrics, r.unavailable, r.vals::numeric[]
    FROM jsonb_to_recordset(${json(sql, records)}::jsonb) AS r(
      cik text, kind text, basis text, fiscal_year int, fiscal_period text, period_start date, period_end date, currency text,
      accounting_standard text, filing_date date, known_from date, known_until date, opens boolean, sources jsonb, metrics jsonb,
      unavailable jsonb, vals text)`;
}

/** Recomputes and replaces one company's screen rows; returns how many it has. */
export async function refreshScreenRows(sql: Db, cik: string): Promise<number> {
  const rows = await screenRowsOf(sql, cik);
  await insertScreenRows(sql, rows);
  return rows.length;
}

/** refreshScreenRows in a transaction of its own, on a connection reserved for it. */
export async function rebuildScreenRows(sql: Sql, cik: string): Promise<number> {
  const conn = await sql.reserve();
  try {
    await conn`BEGIN`;
    const n = await refreshScreenRows(conn, cik);
    await conn`COMMIT`;
    return n;
  } catch (err) {
    await conn`ROLLBACK`;
    throw err;
  } finally {
    conn.release();
  }
}

/** Companies with versions and (unless `all`) no screen rows: a database ingested before the table existed (`fds screens rebuild`). */
export async function companiesForScreenRows(sql: Sql, all: boolean): Promise<string[]> {
  const rows = await sql<{ cik: string }[]>`
    SELECT c.cik FROM companies c
    WHERE EXISTS (SELECT 1 FROM statement_versions v WHERE v.cik = c.cik)
      ${all ? sql`` : sql`AND NOT EXISTS (SELECT 1 FROM screen_rows s WHERE s.cik = c.cik)`}
    ORDER BY c.cik`;
  return rows.map((r) => r.cik);
}
