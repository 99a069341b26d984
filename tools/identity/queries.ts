import type { Db } from '../../db/client.ts';
import type { CompanyProfileRow } from '../../db/identity-load.ts';
import { IDENTITY_COLUMNS, type IdentityRow } from '../../db/identity.ts';

/** The first date any load observed this ticker, to explain an as-of read before it. */
export async function firstObservation(sql: Db, ticker: string): Promise<string | null> {
  const [row] = await sql<{ first: string | null }[]>`
    SELECT min(active_from) AS first FROM identity_mappings WHERE ticker = ${ticker}`;
  return row?.first ?? null;
}

/** The date of our first identity load: no mapping can have been observed before it. */
export async function firstIdentityLoad(sql: Db): Promise<string | null> {
  const [row] = await sql<{ first: string | null }[]>`SELECT min(active_from)::text AS first FROM identity_mappings`;
  return row?.first ?? null;
}

export async function mappingsForCik(sql: Db, cik: string): Promise<IdentityRow[]> {
  return sql<IdentityRow[]>`
    SELECT ${sql(IDENTITY_COLUMNS)} FROM identity_mappings WHERE cik = ${cik}
    ORDER BY is_active DESC, active_from DESC, ticker`;
}

export async function mappingsForTicker(sql: Db, ticker: string): Promise<IdentityRow[]> {
  return sql<IdentityRow[]>`
    SELECT ${sql(IDENTITY_COLUMNS)} FROM identity_mappings WHERE ticker = ${ticker}
    ORDER BY is_active DESC, active_from DESC, cik`;
}

/**
 * Search over ticker, CIK and company name. Ranked: exact ticker, exact CIK, name prefix, ticker
 * prefix, then name containing the text; live mappings before ended ones.
 */
export async function searchIdentity(
  sql: Db,
  text: string,
  page: number,
  pageSize: number,
): Promise<{ total: number; rows: IdentityRow[] }> {
  const upper = text.trim().toUpperCase();
  const lower = text.trim().toLowerCase();
  const cik = /^\d{1,10}$/.test(upper) ? upper.padStart(10, '0') : null;
  const escaped = lower.replace(/[\\%_]/g, (c) => `\\${c}`);
  const contains = `%${escaped}%`;
  const prefix = `${escaped}%`;
  const tickerPrefix = `${upper.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await sql<(IdentityRow & { total: string })[]>`
    SELECT ${sql(IDENTITY_COLUMNS)}, count(*) OVER () AS total FROM identity_mappings
    WHERE ticker = ${upper} OR cik = ${cik} OR lower(company_name) LIKE ${contains} OR ticker LIKE ${tickerPrefix}
    ORDER BY
      CASE WHEN ticker = ${upper} THEN 0
           WHEN cik = ${cik} THEN 1
           WHEN lower(company_name) LIKE ${prefix} THEN 2
           WHEN ticker LIKE ${tickerPrefix} THEN 3
           ELSE 4 END,
      is_active DESC, (company_id IS NULL), length(company_name), company_name, ticker, id
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  const total = rows.length > 0 ? Number(rows[0]!.total) : await countSearch(sql, upper, cik, contains, tickerPrefix, page);
  return { total, rows: rows.map(({ total: _t, ...r }) => r as IdentityRow) };
}

/** A page past the end still reports the true total. */
async function countSearch(sql: Db, upper: string, cik: string | null, contains: string, tickerPrefix: string, page: number): Promise<number> {
  if (page === 1) return 0;
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM identity_mappings
    WHERE ticker = ${upper} OR cik = ${cik} OR lower(company_name) LIKE ${contains} OR ticker LIKE ${tickerPrefix}`;
  return row?.n ?? 0;
}

/** A company of the reference: its profile as last loaded, plus our id and where it came from. */
export interface CompanyRow extends CompanyProfileRow {
  company_id: string;
  source: string;
  source_loaded_at: string;
}

export async function companyByCik(sql: Db, cik: string): Promise<CompanyRow | undefined> {
  const [row] = await sql<CompanyRow[]>`SELECT * FROM companies WHERE cik = ${cik}`;
  return row;
}
