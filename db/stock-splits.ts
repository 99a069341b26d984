import { Decimal } from 'decimal.js';
import type { BuiltVersion } from '../domain/normalize/versions.ts';
import { exactRatio, type CompanySplit } from '../domain/statements/split-basis.ts';
import { splitFactors, splitRecastOf, type StockSplit } from '../domain/statements/stock-splits.ts';
import { CANONICAL_METRICS, canonicalMetric } from '../domain/catalog/index.ts';
import { daysBetween } from '../domain/dates.ts';
import type { Sql } from './client.ts';

/**
 * A company's splits as stock_splits holds them: each with its exact ratio (a tag that allows two
 * whole ratios takes the one the company's recorded recasts bear out) and the first filing date
 * that told it (`filedOn` by accession where the split does not carry it).
 */
export function companySplits(splits: readonly StockSplit[], versions: readonly BuiltVersion[]): CompanySplit[] {
  const out = new Map<string, CompanySplit>();
  for (const s of splits) {
    const shown: Decimal[] = [];
    if (splitFactors(s.ratio).length > 1) {
      for (const v of versions) {
        for (const r of v.recasts) {
          if (r.split.date !== s.date || r.split.ratio !== s.ratio) continue;
          const unit = canonicalMetric(r.metric)?.unit_type === 'shares' ? 'shares' : 'USD/shares';
          for (const f of splitFactors(s.ratio)) {
            if (splitRecastOf({ value: r.old_value, unit }, { value: r.new_value, unit }, [{ ratio: f.toFixed(), date: s.date }], { after: '0000-00-00', upTo: '9999-12-31' })) shown.push(f);
          }
        }
      }
    }
    const { numerator, denominator } = exactRatio(s, shown);
    const key = `${s.date}|${s.ratio}`;
    if (!out.has(key)) out.set(key, { split_date: s.date, known_from: s.known_from ?? s.date, ratio: s.ratio, numerator, denominator, evidence: s.evidence });
  }
  return oneEach([...out.values()].sort((a, b) => a.split_date.localeCompare(b.split_date) || a.ratio.localeCompare(b.ratio)));
}

/** days within which two tellings of one exact ratio are one split */
const SAME_SPLIT_DAYS = 120;

/**
 * One entry per split: filers tag one split several times, at dates some weeks apart (NVIDIA's
 * 10-for-1 of 2024 under the months of May and of June, its 4-for-1 of 2021 on 3 June and 19
 * July) or as ratios rounded differently (Herc's 1-for-15: 0.0667 and 0.066667). Tellings of the
 * same exact ratio within SAME_SPLIT_DAYS are one split, dated by the earliest, known from the
 * earliest filing that told any of them.
 */
function oneEach(splits: readonly CompanySplit[]): CompanySplit[] {
  const out: CompanySplit[] = [];
  for (const s of splits) {
    const same = out.find((o) => o.numerator === s.numerator && o.denominator === s.denominator && daysBetween(o.split_date, s.split_date) <= SAME_SPLIT_DAYS);
    if (same === undefined) out.push({ ...s });
    else if (s.known_from < same.known_from) same.known_from = s.known_from;
  }
  return out;
}

/** Replaces a company's stored splits (inside its ingestion transaction). */
export async function replaceStockSplits(tx: Sql, cik: string, splits: readonly CompanySplit[]): Promise<void> {
  await tx`DELETE FROM stock_splits WHERE cik = ${cik}`;
  if (splits.length === 0) return;
  await tx`INSERT INTO stock_splits ${tx(splits.map((s) => ({ cik, ...s })), 'cik', 'split_date', 'ratio', 'numerator', 'denominator', 'evidence', 'known_from')}`;
}

/** A company's splits, oldest first. */
export async function stockSplitsOf(sql: Sql, cik: string): Promise<CompanySplit[]> {
  return sql<CompanySplit[]>`
    SELECT split_date::text AS split_date, known_from::text AS known_from, ratio, numerator, denominator, evidence
    FROM stock_splits WHERE cik = ${cik} ORDER BY split_date, ratio`;
}

/** Several companies' splits by CIK. */
export async function stockSplitsOfCompanies(sql: Sql, ciks: readonly string[]): Promise<Map<string, CompanySplit[]>> {
  const out = new Map<string, CompanySplit[]>(ciks.map((c) => [c, []]));
  if (ciks.length === 0) return out;
  const rows = await sql<(CompanySplit & { cik: string })[]>`
    SELECT cik, split_date::text AS split_date, known_from::text AS known_from, ratio, numerator, denominator, evidence
    FROM stock_splits WHERE cik IN ${sql([...ciks])} ORDER BY cik, split_date, ratio`;
  for (const r of rows) out.get(r.cik)?.push({ split_date: r.split_date, known_from: r.known_from, ratio: r.ratio, numerator: r.numerator, denominator: r.denominator, evidence: r.evidence });
  return out;
}

/** The SEC filing dates of the named filings, by accession (those on record). */
export async function filingDatesOf(sql: Sql, accessions: readonly string[]): Promise<Map<string, string>> {
  if (accessions.length === 0) return new Map();
  const rows = await sql<{ accession: string; filing_date: string }[]>`
    SELECT accession, filing_date::text AS filing_date FROM filings WHERE accession IN ${sql([...new Set(accessions)])}`;
  return new Map(rows.map((r) => [r.accession, r.filing_date]));
}

/**
 * For the named versions, the filing date of the filing each per-share figure or share count was
 * read from (a version carries figures of earlier filings): version id -> metric -> date.
 */
export async function shareFigureBases(sql: Sql, versionIds: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  if (versionIds.length === 0) return out;
  const rows = await sql<{ statement_version_id: string; metric: string; filing_date: string }[]>`
    SELECT v.statement_version_id, e.key AS metric, f.filing_date::text AS filing_date
    FROM statement_versions v CROSS JOIN LATERAL jsonb_each(v.figures) e
      JOIN filings f ON f.accession = coalesce(e.value ->> 'source_accession', v.accession)
    WHERE v.statement_version_id IN ${sql([...new Set(versionIds)])} AND e.key IN ${sql(SHARE_METRICS)}`;
  for (const r of rows) {
    let m = out.get(r.statement_version_id);
    if (!m) out.set(r.statement_version_id, (m = new Map()));
    m.set(r.metric, r.filing_date);
  }
  return out;
}

/** the metrics a split restates: per-share amounts and share counts */
const SHARE_METRICS = CANONICAL_METRICS.filter((m) => m.unit_type === 'per_share' || m.unit_type === 'shares').map((m) => m.metric);
