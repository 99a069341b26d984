import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { post, get } from './helpers/http.ts';
import { SHARED_SEC, startTestService, type TestService } from './helpers/service.ts';

/**
 * Replay after later ingestion: Apple is first ingested from a copy of its SEC files with its
 * latest filing (the 10-Q 0000320193-26-000006 filed 2026-01-30) withheld, queries are executed,
 * then Apple is ingested from the full source. Replays return the recorded bytes; re-executing
 * shows the new filing where as_of_date allows it and nothing changes where it does not.
 */
const APPLE = '0000320193';
const WITHHELD = '0000320193-26-000006';
const WITHHELD_FILED = '2026-01-30';

let svc: TestService;
let withheldRoot: string;

/** A source root whose Apple companyfacts and submissions lack one filing; filing folders are shared. */
function sourceWithout(accession: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'fds-withheld-'));
  const facts = JSON.parse(readFileSync(path.join(SHARED_SEC, 'data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json'), 'utf8'));
  let dropped = 0;
  for (const concepts of Object.values<any>(facts.facts)) {
    for (const concept of Object.values<any>(concepts)) {
      for (const [unit, list] of Object.entries<any[]>(concept.units)) {
        concept.units[unit] = list.filter((f) => f.accn !== accession);
        dropped += list.length - concept.units[unit].length;
      }
    }
  }
  assert.ok(dropped > 0, 'the withheld filing had facts');
  const subs = JSON.parse(readFileSync(path.join(SHARED_SEC, 'data.sec.gov/submissions/CIK0000320193.json'), 'utf8'));
  const recent = subs.filings.recent;
  const keep = (recent.accessionNumber as string[]).map((a) => a !== accession);
  for (const k of Object.keys(recent)) recent[k] = (recent[k] as unknown[]).filter((_, i) => keep[i]);
  mkdirSync(path.join(root, 'data.sec.gov/api/xbrl/companyfacts'), { recursive: true });
  mkdirSync(path.join(root, 'data.sec.gov/submissions'), { recursive: true });
  writeFileSync(path.join(root, 'data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json'), JSON.stringify(facts));
  writeFileSync(path.join(root, 'data.sec.gov/submissions/CIK0000320193.json'), JSON.stringify(subs));
  symlinkSync(path.join(SHARED_SEC, 'www.sec.gov'), path.join(root, 'www.sec.gov'));
  return root;
}

before(async () => {
  svc = await startTestService({ rateLimits: false, ingestOnStart: false }, undefined, { emptyDatabase: true });
  withheldRoot = sourceWithout(WITHHELD);
});
after(async () => {
  await svc?.close();
  if (withheldRoot) rmSync(withheldRoot, { recursive: true, force: true });
});

async function execute(body: Record<string, unknown>) {
  const r = await post(`${svc.baseUrl}/v1/query/execute`, JSON.stringify(body), svc.keys.free);
  assert.equal(r.status, 200, r.text);
  return r;
}

describe('replay after re-ingesting a company with a new filing', () => {
  it('returns the recorded bytes, while a re-execution shows the new filing only where as_of_date allows', async () => {
    const config = svc.running.services.config;
    const first = await runIngestion(svc.sql, { ...config, secSource: withheldRoot }, { ciks: [APPLE] });
    assert.equal(first.status, 'succeeded');
    const [none] = await svc.sql`SELECT count(*)::int AS n FROM statement_versions WHERE accession = ${WITHHELD}`;
    assert.equal(none!.n, 0);

    const panel = { query_type: 'metric_panel', parameters: { ciks: [APPLE], metrics: ['REVENUE', 'NET_INCOME'], fiscal_year_from: 2025, fiscal_year_to: 2026, period_type: 'quarterly' } };
    const today = await execute(panel);
    const dayBefore = await execute({ ...panel, as_of_date: '2026-01-29' });
    const state = await execute({ query_type: 'financial_state_time_series', parameters: { cik: APPLE, fiscal_year_from: 2024, fiscal_year_to: 2026 } });
    const periods = (r: any) => r.body.data.result.rows.map((x: any) => `${x.fiscal_year} ${x.fiscal_period}`);
    assert.ok(!periods(today).includes('2026 Q1'), 'the withheld quarter is not in the corpus yet');

    const second = await runIngestion(svc.sql, { ...config, secSource: SHARED_SEC }, { ciks: [APPLE] });
    assert.equal(second.status, 'succeeded');
    const added = await svc.sql<{ filing_date: string }[]>`SELECT DISTINCT filing_date FROM statement_versions WHERE accession = ${WITHHELD}`;
    assert.deepEqual(added.map((r) => r.filing_date), [WITHHELD_FILED], 'the new filing made versions');

    for (const recorded of [today, dayBefore, state]) {
      const replay = await get(`${svc.baseUrl}/v1/query/replay/${recorded.body.data.replay_token}`, svc.keys.free);
      assert.equal(replay.status, 200);
      assert.equal(replay.text, recorded.text, 'byte-identical to the response recorded before the new filing');
    }

    const rerun = await execute({ ...panel, as_of_date: today.body.data.manifest.as_of_date });
    assert.ok(periods(rerun).includes('2026 Q1'), 'executed again, the query sees the new quarter');
    assert.notEqual(rerun.body.data.manifest.result_hash, today.body.data.manifest.result_hash);
    const q1 = rerun.body.data.result.rows.find((x: any) => x.fiscal_year === 2026 && x.fiscal_period === 'Q1');
    const [v] = await svc.sql<{ statement_version_id: string }[]>`
      SELECT statement_version_id FROM statement_versions WHERE accession = ${WITHHELD} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2026 AND fiscal_period = 'Q1'`;
    assert.deepEqual(q1.statement_version_ids, [v!.statement_version_id]);

    const boundary = await execute({ ...panel, as_of_date: '2026-01-29' });
    assert.equal(boundary.body.data.manifest.result_hash, dayBefore.body.data.manifest.result_hash, 'a filing after as_of_date changes nothing');
    assert.deepEqual(boundary.body.data.manifest.statement_version_ids, dayBefore.body.data.manifest.statement_version_ids);
  });
});
