import { Decimal } from 'decimal.js';
import type { BuiltVersion } from '../domain/normalize/versions.ts';
import { exactRatio, type CompanySplit } from '../domain/statements/split-basis.ts';
import { splitFactors, splitRecastOf, type StockSplit } from '../domain/statements/stock-splits.ts';
import { CANONICAL_METRICS, canonicalMetric } from '../domain/catalog/index.ts';
import { daysBetween } from '../domain/dates.ts';
import type { Db } from './client.ts';

/**
 * A company's splits as stock_splits holds them, one entry per split: each with its exact ratio (a
 * tag that allows two whole ratios takes the one the company's recorded recasts bear out) and the
 * first filing date that told it. Filers tell one split several times: at its announcement and
 * its effective date (Alphabet's 20-for-1 of 2022 on 1 February and 15 July, NVIDIA's 10-for-1 of
 * 2024 under May and June), as ratios rounded differently on one date (SunAtion's 1-for-15 as 0.06
 * and 0.07), and, where its figures showed it, once more as the product of the splits it had
 * tagged (SunAtion's 1-for-15 and 1-for-50 shown at once as 1-for-750; Nikola's 1-for-30 shown
 * again by its late 10-K of 2025). Those are one split each.
 */
export function companySplits(splits: readonly StockSplit[], versions: readonly BuiltVersion[]): CompanySplit[] {
  const recasts = versions.flatMap((v) => v.recasts);
  const shown = splits.filter((s) => s.evidence === 'RESTATED_FIGURES').map((s) => ({ s, ratio: exactRatio(s) }));
  const told: (CompanySplit & { confirmed: boolean })[] = shown.map(({ s, ratio }) => ({ ...entryOf(s), ...ratio, confirmed: true }));
  // the tags of one date are one split: of the whole ratios they allow, the one most of the recasts of
  // that date bear out, else one the figures showed within SAME_SPLIT_DAYS after, else the first tag's nearest
  const byDate = new Map<string, StockSplit[]>();
  for (const s of splits) if (s.evidence === 'TAGGED_RATIO') byDate.set(s.date, [...(byDate.get(s.date) ?? []), s]);
  for (const [date, tags] of byDate) {
    const candidates = tags.flatMap((t) => splitFactors(t.ratio).map((f) => ({ f, fraction: f.toFraction(1_000_000).map((x) => x.toNumber()) as [number, number] })));
    const fits = (f: Decimal) =>
      recasts.filter((r) => {
        if (r.split.date !== date) return false;
        const unit = canonicalMetric(r.metric)?.unit_type === 'shares' ? 'shares' : 'USD/shares';
        return splitRecastOf({ value: r.old_value, unit }, { value: r.new_value, unit }, [{ ratio: f.toFixed(), date }], { after: '0000-00-00', upTo: '9999-12-31' }) !== null;
      }).length;
    const showing = (c: { fraction: [number, number] }) =>
      shown.some(({ s, ratio }) => s.date >= date && daysBetween(date, s.date) <= SAME_SPLIT_DAYS && ratio.numerator === c.fraction[0] && ratio.denominator === c.fraction[1]);
    const scored = candidates.map((c, i) => ({ ...c, score: fits(c.f) * 2 + (showing(c) ? 1 : 0), i }));
    const best = scored.reduce((a, b) => (b.score > a.score ? b : a), scored[0]!);
    const first = exactRatio(tags[0]!);
    const [numerator, denominator] = best.score > 0 ? best.fraction : [first.numerator, first.denominator];
    const known = tags.reduce((a, t) => (t.known_from !== undefined && (a === undefined || t.known_from < a) ? t.known_from : a), undefined as string | undefined);
    told.push({ ...entryOf({ ...tags[0]!, known_from: known }), numerator, denominator, confirmed: best.score > 0 });
  }
  told.sort((a, b) => a.split_date.localeCompare(b.split_date) || Number(b.confirmed) - Number(a.confirmed) || a.ratio.localeCompare(b.ratio));
  return oneEach(told).map(({ confirmed: _, ...s }) => s);
}

function entryOf(s: StockSplit): Omit<CompanySplit, 'numerator' | 'denominator'> {
  return { split_date: s.date, known_from: s.known_from ?? s.date, ratio: s.ratio, evidence: s.evidence };
}

/** days within which two tellings of one exact ratio are one split (an announcement and the effective date) */
const SAME_SPLIT_DAYS = 200;

function oneEach<S extends CompanySplit & { confirmed: boolean }>(splits: readonly S[]): S[] {
  const out: S[] = [];
  for (const s of splits) {
    // one date, two rounded tags: the ratio the recasts bore out (sorted first), else the first
    const sameDay = out.find((o) => o.split_date === s.split_date && o.evidence === 'TAGGED_RATIO' && s.evidence === 'TAGGED_RATIO');
    const same =
      sameDay ??
      out.find((o) => o.numerator === s.numerator && o.denominator === s.denominator && daysBetween(o.split_date, s.split_date) <= SAME_SPLIT_DAYS) ??
      (s.evidence === 'RESTATED_FIGURES' ? productOfTagged(out, s) : undefined);
    if (same === undefined) {
      out.push({ ...s });
      continue;
    }
    if (s.known_from < same.known_from) same.known_from = s.known_from;
    // the later date of one split told twice: the effective date, after which filings tell the new basis
    if (!sameDay && s.evidence === same.evidence && s.split_date > same.split_date) same.split_date = s.split_date;
  }
  return out;
}

/**
 * A split shown by a filing's figures that the company's tagged splits before it account for:
 * one of them alone (the same ratio, told again later), or all those of the 500 days before it at
 * once (their product). The latest of them stands for it.
 */
function productOfTagged<S extends CompanySplit>(out: readonly S[], s: S): S | undefined {
  const before = out.filter((o) => o.evidence === 'TAGGED_RATIO' && o.split_date <= s.split_date);
  const same = before.filter((o) => o.numerator === s.numerator && o.denominator === s.denominator).at(-1);
  if (same !== undefined) return same;
  const recent = before.filter((o) => daysBetween(o.split_date, s.split_date) <= 500);
  if (recent.length < 2) return undefined;
  let n = 1n;
  let d = 1n;
  for (const o of recent) {
    n *= BigInt(o.numerator);
    d *= BigInt(o.denominator);
  }
  return n * BigInt(s.denominator) === d * BigInt(s.numerator) ? recent.at(-1) : undefined;
}

/** Replaces a company's stored splits (inside its ingestion transaction). */
export async function replaceStockSplits(tx: Db, cik: string, splits: readonly CompanySplit[]): Promise<void> {
  await tx`DELETE FROM stock_splits WHERE cik = ${cik}`;
  if (splits.length === 0) return;
  await tx`INSERT INTO stock_splits ${tx(splits.map((s) => ({ cik, ...s })), 'cik', 'split_date', 'ratio', 'numerator', 'denominator', 'evidence', 'known_from')}`;
}

/** A company's splits, oldest first. */
export async function stockSplitsOf(sql: Db, cik: string): Promise<CompanySplit[]> {
  return sql<CompanySplit[]>`
    SELECT split_date::text AS split_date, known_from::text AS known_from, ratio, numerator, denominator, evidence
    FROM stock_splits WHERE cik = ${cik} ORDER BY split_date, ratio`;
}

/** Several companies' splits by CIK. */
export async function stockSplitsOfCompanies(sql: Db, ciks: readonly string[]): Promise<Map<string, CompanySplit[]>> {
  const out = new Map<string, CompanySplit[]>(ciks.map((c) => [c, []]));
  if (ciks.length === 0) return out;
  const rows = await sql<(CompanySplit & { cik: string })[]>`
    SELECT cik, split_date::text AS split_date, known_from::text AS known_from, ratio, numerator, denominator, evidence
    FROM stock_splits WHERE cik IN ${sql([...ciks])} ORDER BY cik, split_date, ratio`;
  for (const r of rows) out.get(r.cik)?.push({ split_date: r.split_date, known_from: r.known_from, ratio: r.ratio, numerator: r.numerator, denominator: r.denominator, evidence: r.evidence });
  return out;
}

/** The SEC filing dates of the named filings, by accession (those on record). */
export async function filingDatesOf(sql: Db, accessions: readonly string[]): Promise<Map<string, string>> {
  if (accessions.length === 0) return new Map();
  const rows = await sql<{ accession: string; filing_date: string }[]>`
    SELECT accession, filing_date::text AS filing_date FROM filings WHERE accession IN ${sql([...new Set(accessions)])}`;
  return new Map(rows.map((r) => [r.accession, r.filing_date]));
}

/**
 * For the named versions, the filing date of the filing each per-share figure or share count was
 * read from (a version carries figures of earlier filings): version id -> metric -> date.
 */
export async function shareFigureBases(sql: Db, versionIds: readonly string[]): Promise<Map<string, Map<string, string>>> {
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
