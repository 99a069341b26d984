import { readCacheOf } from '../../api/read-cache.ts';
import type { Services } from '../../api/services.ts';
import type { Db } from '../../db/client.ts';
import { NEWEST_FILING_FIRST } from './queries.ts';
import { LEDGER_COLUMNS, type LedgerCounts } from './state-queries.ts';

/**
 * What a point-in-time read takes besides the statement versions, kept per company and instance
 * while the read caches are on (api/read-cache.ts): the company's periodic filings, and its
 * reconciliation ledger. Each is one query per company, dropped when its table changes (a filing
 * or a ledger row written by any instance: migration 000050's notifications) and after 10 s at
 * most; a read then picks from memory what it would have asked PostgreSQL for. Null when the
 * caches are off: the read queries instead.
 */

/** The fields of a periodic filing an as-of read shows. */
export interface PeriodicFiling {
  accession_id: string;
  form: string;
  filing_date: string;
  report_date: string | null;
}

const MAX_COMPANIES = 256;

const filingsCache = (services: Services) =>
  readCacheOf<PeriodicFiling[]>(services, 'filings.periodic-by-company', 'filings', { max: MAX_COMPANIES, maxAgeMs: 10_000 });

/** A company's ledger rows by version id, each with its place in the whole ledger's order. */
type Ledger = Map<string, { at: number; row: LedgerCounts }[]>;

const ledgerCache = (services: Services) =>
  readCacheOf<Ledger>(services, 'ledger.by-company', 'reconciliation_results', { max: MAX_COMPANIES, maxAgeMs: 10_000 });

async function ledgerByVersion(sql: Db, cik: string): Promise<Ledger> {
  const out: Ledger = new Map();
  for (const [at, row] of (await companyLedger(sql, cik)).entries()) {
    let rows = out.get(row.statement_version_id);
    if (!rows) out.set(row.statement_version_id, (rows = []));
    rows.push({ at, row });
  }
  return out;
}

/** Newest first, in latestPeriodicFiling's order. */
function periodicFilings(sql: Db, cik: string): Promise<PeriodicFiling[]> {
  return sql<PeriodicFiling[]>`
    SELECT f.accession AS accession_id, f.form, f.filing_date, f.report_date FROM filings f
    WHERE f.cik = ${cik} AND f.is_periodic
    ORDER BY ${NEWEST_FILING_FIRST(sql)}`;
}

/** In ledgerOfVersions's order (fiscal year, period, statement type, rule category, rule id). */
function companyLedger(sql: Db, cik: string): Promise<LedgerCounts[]> {
  return sql<LedgerCounts[]>`
    SELECT ${LEDGER_COLUMNS(sql)}
    FROM reconciliation_results r
    WHERE r.cik = ${cik}
    ORDER BY r.fiscal_year, r.fiscal_period, r.statement_type, r.rule_category, r.rule_id, r.statement_version_id`;
}

export interface CompanyRecords {
  /** the newest periodic report filed by `asOf` (latestPeriodicFiling's answer) */
  latestPeriodicFiling(asOf: string): PeriodicFiling | null;
  /** the ledger rows of these versions (ledgerOfVersions's answer) */
  ledgerOf(ids: readonly string[]): LedgerCounts[];
}

/** The company's filings and ledger from memory, or null when the read caches are off. */
export async function companyRecordsOf(services: Services, cik: string): Promise<CompanyRecords | null> {
  const [filings, ledger] = await Promise.all([
    services.changes.generation('filings') === null ? null : filingsCache(services).memo(cik, () => periodicFilings(services.sql, cik)),
    services.changes.generation('reconciliation_results') === null ? null : ledgerCache(services).memo(cik, () => ledgerByVersion(services.sql, cik)),
  ]);
  if (filings === null || ledger === null) return null;
  return {
    latestPeriodicFiling: (asOf) => {
      // newest first: the first filed by the date, by halving
      let lo = 0;
      let hi = filings.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (filings[mid]!.filing_date <= asOf) hi = mid;
        else lo = mid + 1;
      }
      return filings[lo] ?? null;
    },
    ledgerOf: (ids) =>
      [...new Set(ids)]
        .flatMap((id) => ledger.get(id) ?? [])
        .sort((a, b) => a.at - b.at)
        .map((r) => r.row),
  };
}
