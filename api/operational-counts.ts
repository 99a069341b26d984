/** The database figures /metrics reads at scrape time (routes/ reach the database only through api/). */
export { operationalCounts, type OperationalCounts } from '../db/operational-counts.ts';
export { freshnessCounts, LAG_BUCKETS_S, type FreshnessCounts } from '../db/feed-state.ts';
