import type { Db } from './client.ts';

export interface IdentityRow {
  id: string;
  company_id: string | null;
  cik: string;
  ticker: string;
  company_name: string;
  exchange: string | null;
  active_from: string;
  active_to: string | null;
  is_active: boolean;
  source: string;
  source_loaded_at: string;
  source_filing_accession: string | null;
  confidence_score: string | null;
}

export const IDENTITY_COLUMNS = [
  'id', 'company_id', 'cik', 'ticker', 'company_name', 'exchange', 'active_from', 'active_to', 'is_active',
  'source', 'source_loaded_at', 'source_filing_accession', 'confidence_score',
];

/**
 * The mapping live on `asOf`: opened on or before it and not closed by then. Without a date, the
 * mapping live now. When a ticker maps to several issuers at once, the most confident and most
 * recently opened wins.
 */
export async function resolveTicker(sql: Db, ticker: string, asOf: string | null): Promise<IdentityRow | undefined> {
  const when = asOf
    ? sql`active_from <= ${asOf}::date AND (active_to IS NULL OR active_to > ${asOf}::date)`
    : sql`is_active`;
  const [row] = await sql<IdentityRow[]>`
    SELECT ${sql(IDENTITY_COLUMNS)} FROM identity_mappings
    WHERE ticker = ${ticker} AND ${when}
    ORDER BY confidence_score DESC NULLS LAST, active_from DESC, cik
    LIMIT 1`;
  return row;
}