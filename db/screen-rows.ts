import type { Sql } from './client.ts';
import { copyRows } from './copy.ts';
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
async function companyVersions(sql: Sql, cik: string): Promise<ModelVersion[]> {
  return sql<ModelVersion[]>`
    SELECT v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.statement_version_id, v.version_sequence,
      v.period_start::text AS period_start, v.period_end::text AS period_end, v.currency, v.accounting_standard,
      v.accession, v.filing_date::text AS filing_date, v.content_hash,
      coalesce((SELECT jsonb_object_agg(e.key, jsonb_build_object('v', e.value ->> 'value', 'd', coalesce(e.value ->> 'value_origin', 'SOURCE') <> 'SOURCE'))
        FROM jsonb_each(v.figures) e), '{}'::jsonb) AS figures
    FROM statement_versions v
    WHERE v.cik = ${cik}`;
}

/** Recomputes and replaces one company's screen rows; returns how many it has. */
export async function refreshScreenRows(sql: Sql, cik: string): Promise<number> {
  const rows = screenRows(cik, await companyVersions(sql, cik));
  await sql`DELETE FROM screen_rows WHERE cik = ${cik}`;
  if (rows.length > 0) await copyRows(sql, 'screen_rows', [...COLUMNS, 'vals'], rows.map((r) => [...COLUMNS.map((c) => r[c]), valsLiteral(r.metrics)]));
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
