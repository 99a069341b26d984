import { normalizeTicker } from '../domain/cik.ts';
import { asArray, asRecord, cikFrom, optionalString, requiredString } from './json-shape.ts';
import type { SecSource } from './source.ts';

/** SEC's ticker-to-CIK map for all current filers; the authority on which company owns a symbol. */
export const COMPANY_TICKERS_URL = 'https://www.sec.gov/files/company_tickers.json';
/** The same map with exchanges; produced separately, so it can lag or lead the plain file. */
export const COMPANY_TICKERS_EXCHANGE_URL = 'https://www.sec.gov/files/company_tickers_exchange.json';

/** One ticker symbol and the company that trades under it; a CIK may own many tickers. */
export interface TickerRecord {
  /** 10-digit zero-padded */
  cik: string;
  /** uppercase, share classes with '-' (BRK-B), as the API normalizes lookups */
  ticker: string;
  name: string;
  /** null when SEC gives none (company_tickers.json never does; the exchange file sometimes has null) */
  exchange: string | null;
}

/**
 * company_tickers.json: `{"0": {cik_str, ticker, title}, ...}`. One record per entry, in file
 * order (SEC orders it roughly by market value, which makes a sensible default ranking).
 */
export function parseCompanyTickers(json: unknown): TickerRecord[] {
  const rows = asRecord(json, 'company_tickers.json');
  return Object.entries(rows).map(([key, value]) => {
    const where = `company_tickers.json[${key}]`;
    const row = asRecord(value, where);
    return {
      cik: cikFrom(row.cik_str, `${where}.cik_str`),
      ticker: normalizeTicker(requiredString(row.ticker, `${where}.ticker`)),
      name: requiredString(row.title, `${where}.title`),
      exchange: null,
    };
  });
}

/**
 * company_tickers_exchange.json: `{fields: [...], data: [[cik, name, ticker, exchange], ...]}`.
 * Columns are located through `fields` rather than fixed positions, so a reordered file still
 * parses correctly instead of silently swapping names and tickers.
 */
export function parseCompanyTickersExchange(json: unknown): TickerRecord[] {
  const file = asRecord(json, 'company_tickers_exchange.json');
  const fields = asArray(file.fields, 'company_tickers_exchange.json.fields');
  const col = (name: string): number => {
    const i = fields.indexOf(name);
    if (i < 0) throw new Error(`company_tickers_exchange.json.fields: no "${name}" column`);
    return i;
  };
  const [iCik, iName, iTicker, iExchange] = [col('cik'), col('name'), col('ticker'), col('exchange')];
  return asArray(file.data, 'company_tickers_exchange.json.data').map((value, n) => {
    const where = `company_tickers_exchange.json.data[${n}]`;
    const row = asArray(value, where);
    return {
      cik: cikFrom(row[iCik], `${where}.cik`),
      ticker: normalizeTicker(requiredString(row[iTicker], `${where}.ticker`)),
      name: requiredString(row[iName], `${where}.name`),
      exchange: optionalString(row[iExchange], `${where}.exchange`),
    };
  });
}

/** A ticker both files give, but to different companies; `dropped` did not make it into records. */
export interface TickerConflict {
  ticker: string;
  kept: TickerRecord;
  dropped: TickerRecord;
}

/** Merge result; conflicts are returned, not logged, so the loader decides how loudly to report them. */
export interface MergedTickers {
  /** one record per ticker */
  records: TickerRecord[];
  conflicts: TickerConflict[];
}

/**
 * Combines both ticker files into one record per ticker.
 *
 * - company_tickers.json decides which CIK owns a ticker and the company name: it is SEC's
 *   documented ticker map, and the two files are produced separately and can disagree (a
 *   ticker moving to a new holding company or being reassigned; see conflicts).
 * - The exchange file supplies `exchange`, but only where it names the same CIK: copying the
 *   exchange of a different company that once used the symbol would be wrong data.
 * - Tickers only in company_tickers.json keep exchange null; tickers only in the exchange file
 *   are added with their exchange. Duplicate tickers within a file: first wins, rest are conflicts.
 */
export function mergeTickers(tickers: readonly TickerRecord[], withExchange: readonly TickerRecord[]): MergedTickers {
  const conflicts: TickerConflict[] = [];
  const exchangeRows = new Map<string, TickerRecord>();
  for (const row of withExchange) {
    const seen = exchangeRows.get(row.ticker);
    if (seen) conflicts.push({ ticker: row.ticker, kept: seen, dropped: row });
    else exchangeRows.set(row.ticker, row);
  }

  const merged = new Map<string, TickerRecord>();
  for (const row of tickers) {
    const seen = merged.get(row.ticker);
    if (seen) {
      conflicts.push({ ticker: row.ticker, kept: seen, dropped: row });
      continue;
    }
    const ex = exchangeRows.get(row.ticker);
    if (ex && ex.cik !== row.cik) conflicts.push({ ticker: row.ticker, kept: row, dropped: ex });
    merged.set(row.ticker, { ...row, exchange: ex && ex.cik === row.cik ? ex.exchange : null });
  }
  for (const row of exchangeRows.values()) {
    if (!merged.has(row.ticker)) merged.set(row.ticker, { ...row });
  }
  return { records: [...merged.values()], conflicts };
}

/** readTickers result: the merge plus which of the two files the source lacked. */
export interface TickerFiles extends MergedTickers {
  /** URLs of ticker files the source did not have */
  missingFiles: string[];
}

/**
 * Reads and merges both ticker files. Either file alone is still useful (names and CIKs, or
 * exchanges), so one missing file is reported rather than fatal; null only when both are absent.
 */
export async function readTickers(source: SecSource): Promise<TickerFiles | null> {
  const [plain, withExchange] = await Promise.all([
    source.readJson(COMPANY_TICKERS_URL),
    source.readJson(COMPANY_TICKERS_EXCHANGE_URL),
  ]);
  if (plain === null && withExchange === null) return null;
  const missingFiles = [
    ...(plain === null ? [COMPANY_TICKERS_URL] : []),
    ...(withExchange === null ? [COMPANY_TICKERS_EXCHANGE_URL] : []),
  ];
  const merged = mergeTickers(
    plain === null ? [] : parseCompanyTickers(plain),
    withExchange === null ? [] : parseCompanyTickersExchange(withExchange),
  );
  return { ...merged, missingFiles };
}
