import { CANONICAL_METRICS } from '../domain/catalog/index.ts';
import type { Db, Sql } from './client.ts';
import { latestPerPeriod } from './statement-versions.ts';
import { FILED_FISCAL_PERIODS } from '../domain/statements/types.ts';

/** Companies in the ALL cohort's sample at most; chosen by a hash of the CIK, so the sample is stable and spread. */
export const POPULATION_SAMPLE_COMPANIES = 200;
/** Arbitrary constant: serializes refreshes of one database. */
const POPULATION_STATS_LOCK = 5_310_077;

/**
 * Recompute the ALL cohort's statistics from latest statement versions and replace its rows.
 * Sample: up to POPULATION_SAMPLE_COMPANIES companies with statements, ordered by md5(cik); every
 * fiscal year of theirs. form_type 10-K holds annual statements (FY), 10-Q the quarters Q1-Q3;
 * derived Q4 statements (never filed) and statements of 20-F/40-F reports are left out.
 * populated_rate = statements of the group carrying the metric / statements in the group, for
 * every canonical metric of the group's statement type (a zero rate is a row too).
 */
export async function refreshPopulationStats(sql: Sql, now: Date): Promise<{ rows: number; sample_companies: number }> {
  const metrics = CANONICAL_METRICS.map((m) => m.metric);
  const types = CANONICAL_METRICS.map((m) => m.statement_type);
  return sql.begin(async (tx) => {
    // two ingestion runs finishing together would otherwise both insert after both deleted
    await tx`SELECT pg_advisory_xact_lock(${POPULATION_STATS_LOCK})`;
    await tx`DELETE FROM metric_population_stats WHERE cohort = 'ALL'`;
    const inserted = await tx<{ sample_companies: number }[]>`
      WITH sample AS (
        SELECT ci.cik FROM company_ingestion ci
        WHERE EXISTS (SELECT 1 FROM statement_versions s WHERE s.cik = ci.cik)
        ORDER BY md5(ci.cik), ci.cik
        LIMIT ${POPULATION_SAMPLE_COMPANIES}
      ), latest AS (
        ${latestPerPeriod(
          sql, // fragments only: the query runs on tx
          sql`v.statement_type, v.fiscal_period, v.form, v.figures`,
          sql`v.cik IN (SELECT cik FROM sample) AND v.fiscal_period IN ${sql(FILED_FISCAL_PERIODS)}`,
        )}
      ), typed AS (
        SELECT statement_type, fiscal_period, CASE WHEN fiscal_period = 'FY' THEN '10-K' ELSE '10-Q' END AS form_type, figures
        FROM latest WHERE form !~ '^(20|40)-F'
      ), groups AS (
        SELECT statement_type, form_type, fiscal_period, count(*)::int AS sample_size FROM typed GROUP BY 1, 2, 3
      ), carried AS (
        SELECT statement_type, form_type, fiscal_period, k AS metric_name, count(*)::int AS populated_count
        FROM typed, jsonb_object_keys(figures) k GROUP BY 1, 2, 3, 4
      ), catalog AS (
        SELECT * FROM unnest(${metrics}::text[], ${types}::text[]) AS m(metric_name, statement_type)
      )
      INSERT INTO metric_population_stats
        (cohort, form_type, statement_type, fiscal_period, metric_name, populated_count, sample_size, sample_companies, populated_rate, computed_at)
      SELECT 'ALL', g.form_type, g.statement_type, g.fiscal_period, m.metric_name, COALESCE(c.populated_count, 0), g.sample_size,
        (SELECT count(*)::int FROM sample), round(COALESCE(c.populated_count, 0)::numeric / g.sample_size, 6), ${now.toISOString()}::timestamptz
      FROM groups g
      JOIN catalog m ON m.statement_type = g.statement_type
      LEFT JOIN carried c ON (c.statement_type, c.form_type, c.fiscal_period, c.metric_name) = (g.statement_type, g.form_type, g.fiscal_period, m.metric_name)
      RETURNING sample_companies`;
    return { rows: inserted.length, sample_companies: inserted[0]?.sample_companies ?? 0 };
  });
}

/** True when no cohort has statistics yet (a corpus ingested before they existed). */
export async function populationStatsMissing(sql: Db): Promise<boolean> {
  const [row] = await sql`SELECT 1 FROM metric_population_stats LIMIT 1`;
  return row === undefined;
}