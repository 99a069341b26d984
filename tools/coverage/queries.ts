import { ALL_CORE_METRICS, type PeriodicReport, type StatementPeriod } from '../../domain/coverage.ts';
import { type Db, json } from '../../db/client.ts';
import { latestPerPeriod } from '../../db/statement-versions.ts';

const universe = (sql: Db) => sql`
  SELECT u.cik, c.company_id, c.name AS company_name, ci.ingested_at AS last_ingested_at
  FROM (SELECT cik FROM companies UNION SELECT cik FROM company_ingestion) u
  LEFT JOIN companies c ON c.cik = u.cik
  LEFT JOIN company_ingestion ci ON ci.cik = u.cik`;

/**
 * Whether the statement period of the version row `v` was restated: one of its versions revised
 * figures (recorded an alert event); a version that only added later figures is no restatement.
 * Company coverage and completeness count restated periods by this one rule.
 */
const restatedPeriod = (sql: Db) => sql`EXISTS (SELECT 1 FROM restatement_alert_events e
  WHERE e.cik = v.cik AND e.statement_type = v.statement_type AND e.fiscal_year = v.fiscal_year AND e.fiscal_period = v.fiscal_period)`;

/** A company the coverage routes know: in the company reference, or ingested (or both). */
export interface CoverageCompanyRow {
  cik: string;
  company_id: string | null;
  company_name: string | null;
  last_ingested_at: string | null;
}

/** What company coverage is computed from, per CIK. */
export interface CoverageInputs {
  reports: PeriodicReport[];
  statements: StatementPeriod[];
}

/**
 * One page of known companies, by CIK (then the company row); with `withinCiks`, only those (a
 * Free-plan key's held companies), null for all.
 */
export async function coverageCompanies(
  sql: Db,
  page: { limit: number; offset: number },
  withinCiks: string[] | null = null,
): Promise<{ total: number; rows: CoverageCompanyRow[] }> {
  const within = withinCiks ? sql`WHERE cik IN (SELECT jsonb_array_elements_text(${json(sql, withinCiks)}::jsonb))` : sql``;
  const rows = await sql<(CoverageCompanyRow & { total: number })[]>`
    SELECT *, count(*) OVER ()::int AS total FROM (${universe(sql)}) k ${within}
    ORDER BY cik, company_id NULLS LAST
    LIMIT ${page.limit} OFFSET ${page.offset}`;
  if (rows.length > 0 || page.offset === 0) return { total: rows[0]?.total ?? 0, rows: rows.map(({ total: _, ...r }) => r) };
  const [count] = await sql<{ total: number }[]>`SELECT count(*)::int AS total FROM (${universe(sql)}) k ${within}`;
  return { total: count?.total ?? 0, rows: [] };
}

/**
 * The company as the coverage routes know it, or null when the CIK is unknown entirely: not in
 * the company reference, never ingested, no filing on record.
 */
export async function coverageCompany(sql: Db, cik: string): Promise<CoverageCompanyRow | null> {
  const [row] = await sql<CoverageCompanyRow[]>`
    SELECT ${cik}::text AS cik, c.company_id, c.name AS company_name, ci.ingested_at AS last_ingested_at
    FROM (SELECT 1) one
    LEFT JOIN companies c ON c.cik = ${cik}
    LEFT JOIN company_ingestion ci ON ci.cik = ${cik}
    WHERE c.cik IS NOT NULL OR ci.cik IS NOT NULL OR EXISTS (SELECT 1 FROM filings f WHERE f.cik = ${cik})`;
  return row ?? null;
}

/**
 * Periodic reports and statement periods (latest versions, with the core metrics they carry) of
 * each CIK. A report's fiscal year and period are those of its current period as the statements
 * label it (the latest period it built a version for), so reports and statements count years
 * alike even where a filer's fiscal-year focus disagrees with the label (NVIDIA's 10-Q of
 * 2014-04-27 says fiscal 2014; its year, ended 2015-01-25, is labelled 2015). A report that built
 * no version (an amendment repeating its figures) keeps its own fiscal-year focus; one with
 * neither (no XBRL facts) has no fiscal year.
 */
export async function coverageInputs(sql: Db, ciks: string[]): Promise<Map<string, CoverageInputs>> {
  const out = new Map<string, CoverageInputs>(ciks.map((c) => [c, { reports: [], statements: [] }]));
  if (ciks.length === 0) return out;
  const [reports, statements] = await Promise.all([
    sql<(PeriodicReport & { cik: string })[]>`
      SELECT f.cik, f.form, f.filing_date,
        COALESCE(cur.fiscal_year, f.fiscal_year_focus) AS fiscal_year,
        COALESCE(cur.fiscal_period, f.fiscal_period_focus) AS fiscal_period
      FROM filings f
      LEFT JOIN LATERAL (
        SELECT s.fiscal_year, s.fiscal_period FROM statement_versions s WHERE s.accession = f.accession
        ORDER BY s.period_end DESC, (s.fiscal_period = 'FY') DESC, s.fiscal_year DESC LIMIT 1
      ) cur ON true
      WHERE f.cik IN ${sql(ciks)} AND f.is_periodic
      ORDER BY f.cik, f.filing_date, f.accession`,
    sql<(StatementPeriod & { cik: string })[]>`
      ${latestPerPeriod(
        sql,
        sql`v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.period_end,
          count(*) OVER (PARTITION BY v.cik, v.statement_type, v.fiscal_year, v.fiscal_period)::int AS versions,
          ${restatedPeriod(sql)} AS restated,
          ARRAY(SELECT k FROM jsonb_object_keys(v.figures) k WHERE k = ANY(${[...ALL_CORE_METRICS]}::text[]) ORDER BY k) AS metrics`,
        sql`v.cik IN ${sql(ciks)}`,
      )}`,
  ]);
  for (const { cik, ...r } of reports) out.get(cik)?.reports.push(r);
  for (const { cik, ...s } of statements) out.get(cik)?.statements.push(s);
  return out;
}

export interface FilingRef {
  accession: string;
  form: string;
  filing_date: string;
  report_date: string | null;
}

export interface CompletenessRow {
  latest_filing: FilingRef | null;
  latest_periodic_filing: FilingRef | null;
  counts: { statement_type: string; versions: number; periods: number; restated_periods: number }[];
}

/** The latest filing on record (any form, and the latest periodic report) and version counts by statement type. */
export async function companyCompleteness(sql: Db, cik: string): Promise<CompletenessRow> {
  const latest = (periodicOnly: boolean) => sql<FilingRef[]>`
    SELECT accession, form, filing_date, report_date FROM filings
    WHERE cik = ${cik} ${periodicOnly ? sql`AND is_periodic` : sql``}
    ORDER BY filing_date DESC, accepted_at DESC NULLS LAST, accession DESC LIMIT 1`;
  const [[any], [periodic], counts] = await Promise.all([
    latest(false),
    latest(true),
    sql<CompletenessRow['counts']>`
      SELECT statement_type, sum(n)::int AS versions, count(*)::int AS periods, count(*) FILTER (WHERE restated)::int AS restated_periods
      FROM (SELECT v.statement_type, count(*) AS n,
              ${restatedPeriod(sql)} AS restated
            FROM statement_versions v WHERE v.cik = ${cik}
            GROUP BY v.cik, v.statement_type, v.fiscal_year, v.fiscal_period) p
      GROUP BY statement_type`,
  ]);
  return { latest_filing: any ?? null, latest_periodic_filing: periodic ?? null, counts };
}

/**
 * How widely a canonical metric is carried, on latest statement versions of its statement type:
 * companies with at least one such statement, distinct fiscal years, and statements; plus the
 * companies with any statement of that type (the base of company_count).
 */
export async function metricCoverage(
  sql: Db,
  metric: string,
  statementType: string,
): Promise<{ company_count: number; years_covered: number; statement_count: number; statement_type_company_count: number }> {
  const [row] = await sql<{ company_count: number; years_covered: number; statement_count: number; statement_type_company_count: number }[]>`
    SELECT count(DISTINCT cik) FILTER (WHERE carried)::int AS company_count,
      count(DISTINCT fiscal_year) FILTER (WHERE carried)::int AS years_covered,
      count(*) FILTER (WHERE carried)::int AS statement_count,
      count(DISTINCT cik)::int AS statement_type_company_count
    FROM (
      ${latestPerPeriod(sql, sql`v.cik, v.fiscal_year, v.figures ? ${metric} AS carried`, sql`v.statement_type = ${statementType}`)}
    ) latest`;
  return row ?? { company_count: 0, years_covered: 0, statement_count: 0, statement_type_company_count: 0 };
}

export interface PopulationStatRow {
  metric_name: string;
  statement_type: string;
  form_type: string;
  fiscal_period: string;
  cohort: string;
  populated_rate: string;
  populated_count: number;
  sample_size: number;
  sample_companies: number;
  computed_at: string;
}

/** Cohorts that have precomputed statistics, by name. */
export async function populationCohorts(sql: Db): Promise<string[]> {
  const rows = await sql<{ cohort: string }[]>`SELECT DISTINCT cohort FROM metric_population_stats ORDER BY cohort`;
  return rows.map((r) => r.cohort);
}

/** One page of a cohort's statistics for a form type, by statement type, fiscal period, metric. */
export async function populationStats(
  sql: Db,
  cohort: string,
  formType: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: PopulationStatRow[] }> {
  const [rows, [count]] = await Promise.all([
    sql<PopulationStatRow[]>`
      SELECT metric_name, statement_type, form_type, fiscal_period, cohort, populated_rate::text AS populated_rate,
        populated_count, sample_size, sample_companies, computed_at
      FROM metric_population_stats WHERE cohort = ${cohort} AND form_type = ${formType}
      ORDER BY statement_type COLLATE "C", fiscal_period COLLATE "C", metric_name COLLATE "C"
      LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql<{ total: number }[]>`SELECT count(*)::int AS total FROM metric_population_stats WHERE cohort = ${cohort} AND form_type = ${formType}`,
  ]);
  return { total: count?.total ?? 0, rows };
}

/**
 * Frees a slot at once. True when the company was held (a live slot); releasing a company not
 * held changes nothing and answers false. An expired row it finds is removed either way.
 */
export async function releaseSlot(sql: Db, keyId: string, cik: string, now: Date): Promise<boolean> {
  const [row] = await sql<{ live: boolean }[]>`
    DELETE FROM coverage_slots WHERE key_id = ${keyId} AND cik = ${cik}
    RETURNING expires_at > ${now.toISOString()}::timestamptz AS live`;
  return row?.live ?? false;
}
