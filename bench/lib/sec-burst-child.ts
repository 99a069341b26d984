/**
 * One process of the freshness bench's request-rate measure: `count` requests to SEC through the
 * live source with `concurrency` in flight, paced by this process's pacer alone (`process`) or
 * also by the fleet's budget in PostgreSQL (`fleet`). Settings arrive as JSON in argv[2].
 */
import { connect } from '../../db/client.ts';
import { useFleetBudget } from '../../ingest/sec-access.ts';
import { openSecSource } from '../../ingest/source.ts';

const s = JSON.parse(process.argv[2] ?? '{}') as { databaseUrl: string; origins: Record<string, string>; mode: 'process' | 'fleet'; count: number; concurrency: number; userAgent: string };
const sql = connect(s.databaseUrl, { max: 2 });
if (s.mode === 'fleet') useFleetBudget(sql, s.origins);
const source = openSecSource('https://www.sec.gov', { userAgent: s.userAgent, hostMap: s.origins });
let next = 0;
await Promise.all(
  Array.from({ length: s.concurrency }, async () => {
    while (next < s.count) {
      next++;
      await source.readText('https://www.sec.gov/files/company_tickers.json');
    }
  }),
);
await sql.end({ timeout: 5 });
