import type { Config } from '../config.ts';
import type { Db, Sql } from '../db/client.ts';
import { applyIdentityLoad, identityLoadCount, type CompanyProfileRow, type ObservedMapping } from '../db/identity-load.ts';
import { openSecSource, type SecSource } from './source.ts';
import { listSubmissionCiks, readSubmissions, type SubmissionsRead } from './submissions.ts';
import { readTickers, type TickerRecord } from './tickers.ts';

export interface IdentityLoadSummary {
  source: string;
  companies: number;
  mappings_seen: number;
  mappings_opened: number;
  mappings_closed: number;
  missing_history_pages: number;
  ticker_conflicts: number;
}

export interface LoadOptions {
  now?: () => Date;
  onProgress?: (message: string) => void;
  log?: (message: string) => void;
  /** read from this source instead of opening SEC_SOURCE (submissions from the bulk archives) */
  source?: SecSource;
}

/**
 * How sure we are that a ticker belongs to a CIK: both SEC ticker files and the issuer's own
 * submissions agree (1), the ticker files only (0.95 with an exchange, 0.9 without), or only the
 * issuer's submissions list it (0.8).
 */
const CONFIDENCE = { confirmed: '1.000', exchangeFile: '0.950', tickerFile: '0.900', submissionsOnly: '0.800' } as const;

export async function identityIsEmpty(sql: Db): Promise<boolean> {
  return (await identityLoadCount(sql)) === 0;
}

function profileRow(s: SubmissionsRead): CompanyProfileRow {
  const p = s.profile;
  return {
    cik: p.cik,
    name: p.name,
    entity_type: p.entityType,
    sic: p.sic,
    sic_description: p.sicDescription,
    // SEC joins several categories with <br>: "Non-accelerated filer<br>Smaller reporting company"
    category: p.category?.split('<br>').map((c) => c.trim()).filter(Boolean).join(', ') || null,
    fiscal_year_end: p.fiscalYearEnd,
    state_of_incorporation: p.stateOfIncorporation,
    ein: p.ein,
    lei: p.lei,
    description: p.description,
    website: p.website,
    investor_website: p.investorWebsite,
    phone: p.phone,
    tickers: p.tickers,
    exchanges: p.exchanges.filter((e): e is string => e !== null),
    former_names: p.formerNames,
    addresses: p.addresses,
    latest_filing_accession: s.filings[0]?.accession ?? null,
  };
}

/** Merge the ticker files with what each issuer's submissions say about its own tickers. */
export function observedMappings(tickers: readonly TickerRecord[], submissions: readonly SubmissionsRead[]): ObservedMapping[] {
  const byCik = new Map(submissions.map((s) => [s.profile.cik, s]));
  const out = new Map<string, ObservedMapping>();
  for (const t of tickers) {
    const s = byCik.get(t.cik);
    const confirmed = s?.profile.tickers.includes(t.ticker) ?? false;
    out.set(`${t.cik}|${t.ticker}`, {
      cik: t.cik,
      ticker: t.ticker,
      company_name: t.name,
      exchange: t.exchange,
      source: t.exchange !== null ? 'sec_company_tickers_exchange' : 'sec_company_tickers',
      source_filing_accession: confirmed ? (s!.filings[0]?.accession ?? null) : null,
      confidence_score: confirmed ? CONFIDENCE.confirmed : t.exchange !== null ? CONFIDENCE.exchangeFile : CONFIDENCE.tickerFile,
    });
  }
  const takenTickers = new Set(tickers.map((t) => t.ticker));
  for (const s of submissions) {
    s.profile.tickers.forEach((ticker, i) => {
      // A symbol the ticker files give to another issuer is theirs; stale submissions do not override it.
      if (takenTickers.has(ticker)) return;
      out.set(`${s.profile.cik}|${ticker}`, {
        cik: s.profile.cik,
        ticker,
        company_name: s.profile.name,
        exchange: s.profile.exchanges[i] ?? null,
        source: 'sec_submissions',
        source_filing_accession: s.filings[0]?.accession ?? null,
        confidence_score: CONFIDENCE.submissionsOnly,
      });
    });
  }
  return [...out.values()];
}

/**
 * Loads company identity from SEC_SOURCE: the two ticker files and the submissions of every issuer
 * the source holds (a mirror lists its folder; the live site cannot be listed, so there every CIK
 * of the ticker files is read, at SEC's 10 requests/second).
 */
export async function loadIdentity(sql: Sql, config: Config, options: LoadOptions = {}): Promise<IdentityLoadSummary> {
  const now = options.now ?? (() => new Date());
  const progress = options.onProgress ?? (() => {});
  const startedAt = now().toISOString();
  const source: SecSource = options.source ?? openSecSource(config.secSource, { userAgent: config.secUserAgent });

  progress('reading ticker files');
  const tickers = await readTickers(source);
  if (!tickers) throw new Error(`no ticker files (company_tickers.json, company_tickers_exchange.json) in ${source.describe()}`);
  for (const f of tickers.missingFiles) options.log?.(`identity: ${f} is missing from the source; continuing with the other file`);

  const ciks = (await listSubmissionCiks(source)) ?? [...new Set(tickers.records.map((t) => t.cik))];
  const submissions: SubmissionsRead[] = [];
  let missingPages = 0;
  for (const [i, cik] of ciks.entries()) {
    if (i % 10 === 0) progress(`reading submissions ${i + 1}/${ciks.length}`);
    const s = await readSubmissions(source, cik);
    if (!s) continue;
    missingPages += s.missingPages.length;
    submissions.push(s);
  }

  progress('writing identity');
  const mappings = observedMappings(tickers.records, submissions);
  const loadedAt = now().toISOString();
  const counts = await applyIdentityLoad(
    sql,
    { sourceRoot: source.describe(), startedAt, loadDate: loadedAt.slice(0, 10), loadedAt },
    submissions.map(profileRow),
    mappings,
  );
  return {
    source: source.describe(),
    companies: submissions.length,
    mappings_seen: mappings.length,
    mappings_opened: counts.opened,
    mappings_closed: counts.closed,
    missing_history_pages: missingPages,
    ticker_conflicts: tickers.conflicts.length,
  };
}
