import { json, type Sql } from './client.ts';
import type { CompanyProfileRow, ObservedMapping } from './identity-load.ts';

/**
 * One company new to the corpus (a filer the feed named before any identity load saw it): its
 * profile, and the ticker mappings its submissions give, opened on `loadDate` where no company holds
 * the ticker yet. Nothing that exists is changed: the next full identity load reconciles the rest.
 * One statement, so it needs no transaction of its own.
 */
export async function addCompanyIdentity(sql: Sql, company: CompanyProfileRow, mappings: readonly ObservedMapping[], loadDate: string, loadedAt: string): Promise<{ added: boolean; mappings_opened: number }> {
  const [row] = await sql<{ added: number; opened: number }[]>`
    WITH c AS (
      SELECT * FROM jsonb_to_recordset(${json(sql, [company])}::jsonb) AS c(
        cik text, name text, entity_type text, sic text, sic_description text, category text, fiscal_year_end text,
        state_of_incorporation text, ein text, lei text, description text, website text, investor_website text,
        phone text, tickers text[], exchanges text[], former_names jsonb, addresses jsonb, latest_filing_accession text)
    ), inserted AS (
      INSERT INTO companies (cik, name, entity_type, sic, sic_description, category, fiscal_year_end,
        state_of_incorporation, ein, lei, description, website, investor_website, phone, tickers, exchanges,
        former_names, addresses, source, source_loaded_at, latest_filing_accession)
      SELECT c.cik, c.name, c.entity_type, c.sic, c.sic_description, c.category, c.fiscal_year_end,
        c.state_of_incorporation, c.ein, c.lei, c.description, c.website, c.investor_website, c.phone,
        c.tickers, c.exchanges, c.former_names, c.addresses, 'sec_submissions', ${loadedAt}::timestamptz, c.latest_filing_accession
      FROM c
      ON CONFLICT (cik) DO NOTHING
      RETURNING company_id, cik
    ), company AS (
      SELECT company_id, cik FROM inserted UNION ALL SELECT company_id, cik FROM companies WHERE cik = ${company.cik}
    ), opened AS (
      INSERT INTO identity_mappings (company_id, cik, ticker, company_name, exchange, active_from, is_active,
        source, source_loaded_at, source_filing_accession, confidence_score)
      SELECT (SELECT company_id FROM company LIMIT 1), o.cik, o.ticker, o.company_name, o.exchange, ${loadDate}::date, true,
        o.source, ${loadedAt}::timestamptz, o.source_filing_accession, o.confidence_score
      FROM jsonb_to_recordset(${json(sql, [...mappings])}::jsonb) AS o(
        cik text, ticker text, company_name text, exchange text, source text, source_filing_accession text, confidence_score numeric)
      WHERE NOT EXISTS (SELECT 1 FROM identity_mappings im WHERE im.is_active AND im.ticker = o.ticker)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM inserted)::int AS added, (SELECT count(*) FROM opened)::int AS opened`;
  return { added: (row?.added ?? 0) > 0, mappings_opened: row?.opened ?? 0 };
}

/** Whether the corpus has a company record for `cik`. */
export async function companyKnown(sql: Sql, cik: string): Promise<boolean> {
  const [row] = await sql<{ known: boolean }[]>`SELECT EXISTS (SELECT 1 FROM companies WHERE cik = ${cik}) AS known`;
  return row?.known === true;
}
