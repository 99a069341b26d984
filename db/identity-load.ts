import { type Db, json, type Sql } from './client.ts';

export interface CompanyProfileRow {
  cik: string;
  name: string;
  entity_type: string | null;
  sic: string | null;
  sic_description: string | null;
  category: string | null;
  fiscal_year_end: string | null;
  state_of_incorporation: string | null;
  ein: string | null;
  lei: string | null;
  description: string | null;
  website: string | null;
  investor_website: string | null;
  phone: string | null;
  tickers: string[];
  exchanges: string[];
  former_names: { name: string; from: string | null; to: string | null }[];
  addresses: Record<string, unknown>;
  latest_filing_accession: string | null;
}

export interface ObservedMapping {
  cik: string;
  ticker: string;
  company_name: string;
  exchange: string | null;
  source: string;
  source_filing_accession: string | null;
  confidence_score: string;
}

export interface LoadCounts {
  opened: number;
  closed: number;
}

export async function identityLoadCount(sql: Db): Promise<number> {
  const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM identity_loads`;
  return row?.n ?? 0;
}

/**
 * One identity load, in one transaction: company profiles are the current state (upserted);
 * mappings are spans: pairs no longer observed close on `loadDate`, new pairs open on it, live
 * pairs keep their span and take the load's attributes. Rows travel as one JSON parameter.
 */
export async function applyIdentityLoad(
  sql: Sql,
  load: { sourceRoot: string; startedAt: string; loadDate: string; loadedAt: string },
  companies: CompanyProfileRow[],
  mappings: ObservedMapping[],
): Promise<LoadCounts> {
  return sql.begin(async (tx) => {
    await tx`
      INSERT INTO companies (cik, name, entity_type, sic, sic_description, category, fiscal_year_end,
        state_of_incorporation, ein, lei, description, website, investor_website, phone, tickers, exchanges,
        former_names, addresses, source, source_loaded_at, latest_filing_accession)
      SELECT c.cik, c.name, c.entity_type, c.sic, c.sic_description, c.category, c.fiscal_year_end,
        c.state_of_incorporation, c.ein, c.lei, c.description, c.website, c.investor_website, c.phone,
        c.tickers, c.exchanges, c.former_names, c.addresses, 'sec_submissions', ${load.loadedAt}::timestamptz,
        c.latest_filing_accession
      FROM jsonb_to_recordset(${json(tx, companies)}::jsonb) AS c(
        cik text, name text, entity_type text, sic text, sic_description text, category text, fiscal_year_end text,
        state_of_incorporation text, ein text, lei text, description text, website text, investor_website text,
        phone text, tickers text[], exchanges text[], former_names jsonb, addresses jsonb, latest_filing_accession text)
      ON CONFLICT (cik) DO UPDATE SET
        name = EXCLUDED.name, entity_type = EXCLUDED.entity_type, sic = EXCLUDED.sic,
        sic_description = EXCLUDED.sic_description, category = EXCLUDED.category,
        fiscal_year_end = EXCLUDED.fiscal_year_end, state_of_incorporation = EXCLUDED.state_of_incorporation,
        ein = EXCLUDED.ein, lei = EXCLUDED.lei, description = EXCLUDED.description, website = EXCLUDED.website,
        investor_website = EXCLUDED.investor_website, phone = EXCLUDED.phone, tickers = EXCLUDED.tickers,
        exchanges = EXCLUDED.exchanges, former_names = EXCLUDED.former_names, addresses = EXCLUDED.addresses,
        source_loaded_at = EXCLUDED.source_loaded_at, latest_filing_accession = EXCLUDED.latest_filing_accession`;

    await tx`
      CREATE TEMP TABLE observed ON COMMIT DROP AS
      SELECT * FROM jsonb_to_recordset(${json(tx, mappings)}::jsonb) AS m(
        cik text, ticker text, company_name text, exchange text, source text,
        source_filing_accession text, confidence_score numeric)`;

    const closed = await tx`
      UPDATE identity_mappings im SET active_to = ${load.loadDate}::date, is_active = false
      WHERE im.is_active AND NOT EXISTS (SELECT 1 FROM observed o WHERE o.cik = im.cik AND o.ticker = im.ticker)`;

    await tx`
      UPDATE identity_mappings im SET
        company_name = o.company_name, exchange = o.exchange, source = o.source,
        source_filing_accession = o.source_filing_accession, confidence_score = o.confidence_score,
        source_loaded_at = ${load.loadedAt}::timestamptz,
        company_id = (SELECT company_id FROM companies c WHERE c.cik = o.cik)
      FROM observed o
      WHERE im.is_active AND o.cik = im.cik AND o.ticker = im.ticker`;

    const opened = await tx`
      INSERT INTO identity_mappings (company_id, cik, ticker, company_name, exchange, active_from, is_active,
        source, source_loaded_at, source_filing_accession, confidence_score)
      SELECT c.company_id, o.cik, o.ticker, o.company_name, o.exchange, ${load.loadDate}::date, true,
        o.source, ${load.loadedAt}::timestamptz, o.source_filing_accession, o.confidence_score
      FROM observed o LEFT JOIN companies c ON c.cik = o.cik
      WHERE NOT EXISTS (SELECT 1 FROM identity_mappings im WHERE im.is_active AND im.cik = o.cik AND im.ticker = o.ticker)`;

    await tx`
      INSERT INTO identity_loads (source_root, started_at, finished_at, companies, mappings_seen, mappings_opened, mappings_closed)
      VALUES (${load.sourceRoot}, ${load.startedAt}::timestamptz, ${load.loadedAt}::timestamptz, ${companies.length},
        ${mappings.length}, ${opened.count}, ${closed.count})`;
    return { opened: opened.count, closed: closed.count };
  });
}
