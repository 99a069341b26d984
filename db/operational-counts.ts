import type { Db } from './client.ts';

export interface OperationalCounts {
  ingestion_runs: { status: string; runs: number }[];
  export_snapshots: { status: string; snapshots: number }[];
  /** server-side connections of this service (application_name fds) to this database, by state */
  connections: { state: string; connections: number }[];
}

/**
 * What /metrics reports from the database at scrape time: ingestion runs and export builds by
 * status (every instance's, since they share the database) and this service's connections.
 */
export async function operationalCounts(sql: Db): Promise<OperationalCounts> {
  const [ingestion_runs, export_snapshots, connections] = await Promise.all([
    sql<{ status: string; runs: number }[]>`SELECT status, count(*)::int AS runs FROM ingestion_runs GROUP BY status ORDER BY status`,
    sql<{ status: string; snapshots: number }[]>`SELECT status, count(*)::int AS snapshots FROM bulk_snapshots GROUP BY status ORDER BY status`,
    sql<{ state: string; connections: number }[]>`
      SELECT coalesce(state, 'unknown') AS state, count(*)::int AS connections FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'fds' GROUP BY 1 ORDER BY 1`,
  ]);
  return { ingestion_runs, export_snapshots, connections };
}
