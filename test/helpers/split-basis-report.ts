import { connect } from '../../db/client.ts';
import { stockSplitsOfCompanies } from '../../db/stock-splits.ts';
import { computeSnapshot } from '../../jobs/modeling-build.ts';
import { emptyMeasure, measureCompany } from './split-basis-measures.ts';

/**
 * Prints, for an ingested database, how many served growth, TTM and ratio values of a modeling
 * snapshot over every company combine per-share figures or share counts of two split bases:
 * `tsx test/helpers/split-basis-report.ts <database url> [as-of date]` (default 2026-11-01).
 */
const sql = connect(process.argv[2] ?? process.env.DATABASE_URL!);
const asOf = process.argv[3] ?? '2026-11-01';
try {
  const ciks = (await sql<{ cik: string }[]>`SELECT DISTINCT cik FROM statement_versions ORDER BY cik`).map((r) => r.cik);
  const record = { snapshot_id: 'report', ciks, as_of_date: asOf, statement_types: ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'], metrics_bundle: 'all' as const };
  const { companies, versions } = await computeSnapshot(sql, record);
  const splits = await stockSplitsOfCompanies(sql, ciks);
  const m = emptyMeasure();
  for (const c of companies) {
    const bodies = (k: 'growth' | 'ttm' | 'ratios') => c.rows[k].map((r) => r.body);
    measureCompany(m, { growth: bodies('growth'), ttm: bodies('ttm'), ratios: bodies('ratios') }, versions.get(c.cik)!, splits.get(c.cik) ?? [], asOf);
  }
  console.log(JSON.stringify(m, null, 2));
} finally {
  await sql.end({ timeout: 5 });
}
