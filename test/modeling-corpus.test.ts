import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startJobWorker, type JobWorker } from '../jobs/runner.ts';
import { get, post } from './helpers/http.ts';
import { buildSnapshot, snapshotBody } from './helpers/modeling.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const APPLE = '0000320193';
const MICROSOFT = '0000789019';

let svc: TestService;
let worker: JobWorker;

async function companyId(cik: string): Promise<string> {
  const [row] = await svc.sql<{ company_id: string }[]>`SELECT company_id FROM companies WHERE cik = ${cik}`;
  return row!.company_id;
}

describe('modeling snapshots on the real corpus', () => {
  before(async () => {
    svc = await startTestService({ jobsWorker: false, exportSchedule: false, buildStaleSeconds: 2 });
    worker = await startJobWorker({
      databaseUrl: svc.running.database.url, sql: svc.sql, bulkStore: svc.running.services.bulkStore, bulkDir: svc.running.services.config.bulkDir,
      concurrency: 1, buildStaleSeconds: 2, exportSchedule: false, now: () => new Date(), log: () => {},
    });
  });
  after(async () => {
    await worker?.stop();
    await svc?.close();
  });

  it('smoke', async () => {
    const { reply, statuses } = await buildSnapshot(svc.baseUrl, svc.keys.growth, { ciks: [APPLE, '789019'], as_of_date: '2025-12-31' });
    console.log(statuses, reply.body.total, reply.body.items.slice(0, 2));
    const id = await companyId(APPLE);
    for (const route of ['periods', 'ratios', 'growth', 'ttm', 'multi-year']) {
      const r = await get(`${svc.baseUrl}/v1/modeling/companies/${id}/${route}?as_of=2025-12-31&page_size=2`, svc.keys.growth);
      console.log(route, r.status, JSON.stringify(r.body).slice(0, 1500));
    }
  });
});
