/** Helpers of the modeling suites: build a snapshot through the real route, page company rows, read filed figures. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from '../../db/client.ts';
import { get, post, type Reply } from './http.ts';

export interface BuildBody {
  ciks: string[];
  as_of_date: string;
  statement_types?: string[];
  metrics_bundle?: 'all' | 'tier1';
  page?: number;
  page_size?: number;
}

export function snapshotBody(b: BuildBody): string {
  return JSON.stringify({ statement_types: ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'], metrics_bundle: 'all', ...b });
}

/** POSTs the build request until it answers 200 (the worker finished); every status seen is returned too. */
export async function buildSnapshot(baseUrl: string, key: string, b: BuildBody, timeoutMs = 120_000): Promise<{ reply: Reply; statuses: number[] }> {
  const statuses: number[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const reply = await post(`${baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody(b), key);
    statuses.push(reply.status);
    if (reply.status !== 202) return { reply, statuses };
    if (Date.now() > until) throw new Error(`snapshot still computing after ${timeoutMs} ms`);
    await sleep(150);
  }
}

/** Every row of one company route, all pages. */
export async function allRows(baseUrl: string, key: string, companyId: string, route: string, asOf: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await get(`${baseUrl}/v1/modeling/companies/${companyId}/${route}?as_of=${asOf}&page_size=200&page=${page}`, key);
    if (r.status !== 200) throw new Error(`${route}: ${r.status} ${r.text}`);
    out.push(...r.body.items);
    if (page * 200 >= r.body.total) return out;
  }
}

export interface Filed {
  cik: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  period_start: string | null;
  period_end: string;
  version_sequence: number;
  /** metric -> value, plus whether it was derived */
  values: Record<string, string>;
  derived: Set<string>;
  /** metric -> filing date of the filing the figure was read from (its share basis) */
  bases: Record<string, string>;
}

/** The filings' own figures as knowable at the end of `asOf`: the latest version of each statement, read straight from the table. */
export async function filedAsOf(sql: Sql, asOf: string): Promise<Map<string, Filed>> {
  const rows = await sql<{ cik: string; statement_type: string; fiscal_year: number; fiscal_period: string; period_start: string | null; period_end: string; version_sequence: number; accession: string; figures: Record<string, { value: string; value_origin?: string; source_accession?: string }> }[]>`
    SELECT DISTINCT ON (cik, statement_type, fiscal_year, fiscal_period) cik, statement_type, fiscal_year, fiscal_period, period_start, period_end, version_sequence, accession, figures
    FROM statement_versions WHERE filing_date <= ${asOf}
    ORDER BY cik, statement_type, fiscal_year, fiscal_period, version_sequence DESC`;
  const filingDates = new Map((await sql<{ accession: string; filing_date: string }[]>`SELECT accession, filing_date::text AS filing_date FROM filings`).map((f) => [f.accession, f.filing_date]));
  const out = new Map<string, Filed>();
  for (const { accession, ...r } of rows) {
    const values: Record<string, string> = {};
    const derived = new Set<string>();
    const bases: Record<string, string> = {};
    for (const [m, f] of Object.entries(r.figures)) {
      values[m] = f.value;
      if ((f.value_origin ?? 'SOURCE') !== 'SOURCE') derived.add(m);
      const basis = filingDates.get(f.source_accession ?? accession);
      if (basis) bases[m] = basis;
    }
    out.set(filedKey(r.cik, r.statement_type, r.fiscal_year, r.fiscal_period), { ...r, values, derived, bases });
  }
  return out;
}

export function filedKey(cik: string, type: string, fy: number, fp: string): string {
  return `${cik}|${type}|${fy}|${fp}`;
}
