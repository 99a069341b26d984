import { z } from 'zod';
import { ServiceError } from '../../domain/service-error.ts';
import { type IdentityRow, resolveTicker } from '../../db/identity.ts';
import { companyByCik, firstIdentityLoad, firstObservation, mappingsForCik, mappingsForTicker, searchIdentity } from './queries.ts';
import { defineTool } from '../../api/define-tool.ts';
import { Cik, CikOut, dataEnvelope, IsoDate, PageParams, pageOf, paginated, Ticker, Timestamp } from '../../api/schemas.ts';
import type { Services } from '../../api/services.ts';

const IdentityRecord = z.object({
  id: z.string().describe('mapping record id'),
  company_id: z.string().nullable().describe('our company UUID; null when the filer is not in the company reference'),
  cik: CikOut,
  ticker: z.string(),
  company_name: z.string(),
  exchange: z.string().nullable(),
  active_from: z.string().describe('date a load first observed this mapping (not a listing date)'),
  active_to: z.string().nullable().describe('date a later load showed the mapping ended; null while live'),
  is_active: z.boolean(),
  source: z.string().describe('sec_company_tickers_exchange, sec_company_tickers or sec_submissions'),
  source_loaded_at: Timestamp,
  source_filing_accession: z.string().nullable().describe('latest periodic filing of the issuer whose submissions confirmed the mapping'),
  confidence_score: z.number().nullable(),
});

function identityOut(r: IdentityRow): z.infer<typeof IdentityRecord> {
  return { ...r, confidence_score: r.confidence_score === null ? null : Number(r.confidence_score) };
}

function today(services: Services): string {
  return services.now().toISOString().slice(0, 10);
}

/** Shared by the light and the full resolve: one mapping, or a NOT_FOUND that says what to do. */
async function resolveOrExplain(services: Services, ticker: string, asOf: string | null): Promise<IdentityRow> {
  const row = await resolveTicker(services.sql, ticker, asOf);
  if (row) return row;
  const first = asOf ? await firstObservation(services.sql, ticker) : null;
  if (first) {
    throw new ServiceError(
      'NOT_FOUND',
      `No mapping for ticker ${ticker} was live on ${asOf}. Our loads first observed it on ${first}; ask for a date on or after that.`,
      { ticker, as_of: asOf, first_observed: first },
    );
  }
  throw new ServiceError('NOT_FOUND', `No company has ticker ${ticker}. Search by name with identity_search (HTTP: /v1/identity/search?query=...)`, { ticker });
}

/**
 * A date before our first identity load has no observation at all, so "which CIK did the ticker
 * name then" has no observed answer. We carry the mapping back when nothing we hold contradicts
 * it: the ticker has named one CIK in every load, that mapping is live today, and it was there
 * at the first load. Otherwise (it named another issuer, ended, or appeared later) we answer
 * NOT_FOUND as for any unobserved date. The answer says it was carried back, and from when.
 */
async function carriedBack(services: Services, ticker: string, asOf: string): Promise<{ row: IdentityRow; from: string } | null> {
  const first = await firstIdentityLoad(services.sql);
  if (!first || asOf >= first) return null;
  const mappings = await mappingsForTicker(services.sql, ticker);
  const live = mappings.find((m) => m.is_active);
  if (!live || mappings.some((m) => m.cik !== live.cik)) return null;
  const observed = mappings.map((m) => m.active_from).sort()[0]!;
  return observed === first ? { row: live, from: observed } : null;
}

export const companiesResolve = defineTool({
  name: 'companies.resolve',
  title: 'Resolve a ticker to a CIK',
  description:
    'Which company is this ticker? Returns the SEC CIK (10-digit issuer key) of an exchange ticker such as AAPL or BRK-B. Call it first: every company tool takes a CIK. ' +
    'as_of (YYYY-MM-DD) resolves the mapping live on that date. Our mappings are observed from our first identity load on; for an earlier date the ticker resolves when it has named the same CIK ' +
    'in every load since (carried_back_from then gives the first observation), else NOT_FOUND. Unknown ticker: NOT_FOUND; find names with identity_search.',
  http: { method: 'GET', path: '/v1/edgar/companies:resolve' },
  tool: true,
  listedAs: 'spec',
  plan: 'free',
  input: z.object({
    ticker: Ticker,
    as_of: IsoDate.optional().describe('resolve the mapping live on this date (YYYY-MM-DD); default today'),
  }),
  output: z.object({
    cik: CikOut,
    ticker: z.string(),
    exchange: z.null().describe('not populated on this light route; use /v1/identity/resolve for the exchange'),
    as_of: z.string().describe('the date the mapping was resolved for'),
    carried_back_from: z
      .string()
      .optional()
      .describe('present when as_of is before our first identity load: the date the mapping was first observed; the ticker has named only this CIK since'),
  }),
  handler: async ({ services }, input) => {
    const back = input.as_of ? await carriedBack(services, input.ticker, input.as_of) : null;
    if (back) return { cik: back.row.cik, ticker: back.row.ticker, exchange: null, as_of: input.as_of!, carried_back_from: back.from };
    const row = await resolveOrExplain(services, input.ticker, input.as_of ?? null);
    return { cik: row.cik, ticker: row.ticker, exchange: null, as_of: input.as_of ?? today(services) };
  },
});

export const identityResolve = defineTool({
  name: 'identity.resolve',
  title: 'Full identity record for a ticker',
  description:
    'The full identity mapping (CIK, company_id, name, exchange, active span, source, confidence) for a ticker, as live on as_of_date (default today).',
  http: { method: 'GET', path: '/v1/identity/resolve' },
  tool: false,
  plan: 'free',
  input: z.object({
    ticker: Ticker,
    as_of_date: IsoDate.optional().describe('the mapping live on this date (YYYY-MM-DD); default today'),
  }),
  output: dataEnvelope(z.object({ as_of_date: z.string(), identity: IdentityRecord })),
  handler: async ({ services }, input) => {
    const row = await resolveOrExplain(services, input.ticker, input.as_of_date ?? null);
    return { data: { as_of_date: input.as_of_date ?? today(services), identity: identityOut(row) } };
  },
});

export const identitySearch = defineTool({
  name: 'identity.search',
  title: 'Search companies by name, ticker or CIK',
  description:
    'Which company is meant? Finds issuers by ticker, CIK or part of a name (exact ticker first, then CIK, name prefix, ticker prefix, name containing), live mappings before ended ones: CIK, ticker, name, exchange and the span each mapping was observed. ' +
    'Use it when companies_resolve does not know a ticker or you only have a name. Paginated.',
  http: { method: 'GET', path: '/v1/identity/search' },
  tool: true,
  listedAs: 'extension',
  plan: 'free',
  input: z.object({
    query: z.string().trim().min(1).max(200).describe('text to find: a ticker, a CIK, or part of a company name'),
    ...PageParams,
  }),
  output: paginated(IdentityRecord),
  handler: async ({ services }, input) => {
    const { total, rows } = await searchIdentity(services.sql, input.query, input.page, input.page_size);
    return pageOf(rows.map(identityOut), total, input.page, input.page_size);
  },
});

export const identityCompany = defineTool({
  name: 'identity.companies',
  title: 'Every ticker mapping of an issuer',
  description: 'All ticker mappings of a CIK, live ones first, then ended ones. { data: [] } when the issuer has none.',
  http: { method: 'GET', path: '/v1/identity/companies/{cik}' },
  tool: false,
  plan: 'free',
  input: z.object({ cik: Cik }),
  output: dataEnvelope(z.array(IdentityRecord)),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => ({ data: (await mappingsForCik(services.sql, input.cik)).map(identityOut) }),
});

export const identityTicker = defineTool({
  name: 'identity.tickers',
  title: 'Every issuer a ticker has mapped to',
  description: 'All mappings of a ticker, live ones first. { data: [] } when no load ever saw the ticker.',
  http: { method: 'GET', path: '/v1/identity/tickers/{ticker}' },
  tool: false,
  plan: 'free',
  input: z.object({ ticker: Ticker }),
  output: dataEnvelope(z.array(IdentityRecord)),
  handler: async ({ services }, input) => ({ data: (await mappingsForTicker(services.sql, input.ticker)).map(identityOut) }),
});

const Address = z.record(z.string(), z.unknown());

export const companiesProfile = defineTool({
  name: 'companies.profile',
  title: 'Company profile',
  description:
    'Profile of an issuer from its SEC submissions: name, SIC code and description, fiscal year end (MMDD), tickers, exchanges, former names, addresses, and our company_id.',
  http: { method: 'GET', path: '/v1/edgar/companies/{cik}' },
  tool: false,
  plan: 'free',
  input: z.object({ cik: Cik }),
  output: dataEnvelope(
    z.object({
      company_id: z.string(),
      cik: CikOut,
      name: z.string(),
      entity_type: z.string().nullable(),
      sic: z.string().nullable(),
      sic_description: z.string().nullable(),
      category: z.string().nullable().describe('SEC filer category, e.g. Large accelerated filer'),
      fiscal_year_end: z.string().nullable().describe('MMDD, e.g. 0926; 52/53-week filers end near it'),
      state_of_incorporation: z.string().nullable(),
      ein: z.string().nullable(),
      lei: z.string().nullable(),
      description: z.string().nullable(),
      website: z.string().nullable(),
      investor_website: z.string().nullable(),
      phone: z.string().nullable(),
      tickers: z.array(z.string()),
      exchanges: z.array(z.string()),
      former_names: z.array(z.object({ name: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
      addresses: z.object({ mailing: Address.nullable().optional(), business: Address.nullable().optional() }),
      source: z.string(),
      source_loaded_at: Timestamp,
      latest_filing_accession: z.string().nullable(),
    }),
  ),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const row = await companyByCik(services.sql, input.cik);
    if (!row) {
      throw new ServiceError(
        'NOT_FOUND',
        `No company profile for CIK ${input.cik}: the source holds no SEC submissions for it. Check the CIK with companies_resolve or /v1/identity/search.`,
        { cik: input.cik },
      );
    }
    return { data: row };
  },
});

export const IDENTITY_TOOLS = [companiesResolve, companiesProfile, identityResolve, identitySearch, identityCompany, identityTicker];
