import postgres from 'postgres';
import { checkTarget, type Target } from './load.ts';

/**
 * A random mix of reads over one database's companies and periods: normalized statements, one
 * company's time series, 5-company panels, as-of reads and figure provenance, in equal shares,
 * shuffled; panels over companies that have statements. Drawn with a fixed seed, so every run
 * (and each scale) draws the same way. Paths that do not answer 200 on the server (a metric the
 * company lacks in a series) are dropped before measuring, and counted.
 */
export async function randomMix(databaseUrl: string, baseUrl: string, apiKey: string, size = 300): Promise<{ target: Target; dropped: number }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  let rows: { cik: string; fiscal_year: number; id: string; metric: string | null }[];
  let ciks: string[];
  try {
    await sql`SELECT setseed(0.42)`;
    rows = await sql`
      WITH picked AS (
        SELECT statement_version_id FROM statement_versions
        WHERE statement_type = 'INCOME_STATEMENT' AND fiscal_period = 'FY'
        ORDER BY random() LIMIT ${size})
      SELECT v.cik, v.fiscal_year, v.statement_version_id::text AS id,
        (SELECT k FROM jsonb_object_keys(v.figures) k ORDER BY k LIMIT 1) AS metric
      FROM picked p JOIN statement_versions v USING (statement_version_id)`;
    // panels draw among companies with statements: the mirror's companies without any (submissions
    // only) are many at 1x and few at larger scales, which would make panels cheaper at 1x alone
    ciks = (
      await sql<{ cik: string }[]>`
        SELECT c.cik FROM company_ingestion c
        WHERE EXISTS (SELECT 1 FROM statement_versions v WHERE v.cik = c.cik)
        ORDER BY random() LIMIT ${size}`
    ).map((r) => r.cik);
  } finally {
    await sql.end({ timeout: 2 });
  }
  const paths: string[] = [];
  rows.forEach((r, i) => {
    const cik = Number(r.cik);
    const panel = [0, 1, 2, 3, 4].map((k) => `ciks=${Number(ciks[(i * 5 + k) % ciks.length])}`).join('&');
    const kinds = [
      `/v1/fundamentals/normalized-statements?cik=${cik}&statement_type=INCOME_STATEMENT&fiscal_year=${r.fiscal_year}&fiscal_period=FY`,
      `/v1/edgar/companies/${cik}/metrics/${r.metric ?? 'REVENUE'}/time-series?period_type=annual`,
      `/v1/fundamentals/time-series?statement_type=INCOME_STATEMENT&${panel}&from=${r.fiscal_year - 4}-01-01&to=${r.fiscal_year}-12-31&page_size=50`,
      `/v1/edgar/as-of/${r.fiscal_year + 1}-06-30/financials/${cik}`,
      ...(r.metric ? [`/v1/edgar/statements/${r.id}/metrics/${r.metric}/provenance`] : []),
    ];
    paths.push(kinds[i % kinds.length]!);
  });
  const headers = { 'x-api-key': apiKey };
  const ok: string[] = [];
  for (const path of paths) {
    const problem = await checkTarget(baseUrl, { name: 'mix', method: 'GET', path, headers, check: (status) => (status === 200 ? null : `answered ${status}`) });
    if (problem === null) ok.push(path);
  }
  if (ok.length < paths.length / 2) throw new Error(`the random mix: only ${ok.length} of ${paths.length} reads answer 200`);
  return {
    target: { name: 'random mix', method: 'GET', path: ok[0]!, paths: ok, headers, check: (status) => (status === 200 ? null : `answered ${status}`) },
    dropped: paths.length - ok.length,
  };
}
