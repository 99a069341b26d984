import type { Db } from './client.ts';

/**
 * Refreshes the planner statistics of the tables a run changed enough to need it, by the rule
 * autovacuum's own analyze follows (rows changed since the last ANALYZE above 50 plus a tenth of
 * the table). After a bulk load the statistics otherwise describe the corpus as it was before, or
 * nothing at all when autovacuum is off or has not reached the table yet: the planner then guesses
 * row counts and picks parallel scans of whole tables for reads that touch a few rows. ANALYZE reads
 * a fixed-size sample, so this costs seconds whatever the corpus size. Returns the tables analyzed.
 */
export async function refreshStaleStatistics(sql: Db): Promise<string[]> {
  const stale = await sql<{ schemaname: string; relname: string }[]>`
    SELECT schemaname, relname FROM pg_stat_user_tables
    WHERE n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0)
    ORDER BY schemaname, relname`;
  for (const t of stale) await sql`ANALYZE ${sql(`${t.schemaname}.${t.relname}`)}`;
  return stale.map((t) => `${t.schemaname}.${t.relname}`);
}
