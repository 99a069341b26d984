import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../db/database.ts';
import { loadAnomalyInputs } from '../tools/ai/queries.ts';
import { explainAnomalies } from '../domain/ai/anomalies.ts';
import { createTestDatabase } from './helpers/database.ts';

/**
 * Anomaly explanations over the findings and ledger rows ingestion stored for the ../shared/sec
 * corpus, read through tools/ai/queries.ts: the rows as stored are explained, point in time.
 */
const SUNATION = '0000022701';
const APPLE = '0000320193';

let db: Database;
before(async () => {
  db = await createTestDatabase({ corpus: true });
});
after(async () => {
  await db?.close();
});

describe('explanations of stored findings and ledger failures', () => {
  it('explain every stored failure and finding of every company once', async () => {
    const ciks = (await db.sql<{ cik: string }[]>`SELECT DISTINCT cik FROM statement_versions ORDER BY cik`).map((r) => r.cik);
    const [stored] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (
        SELECT statement_version_id, rule_id FROM reconciliation_results WHERE status = 'FAIL'
        UNION SELECT statement_version_id, regexp_replace(rule_code, '^DQ_IDENTITY_', '') FROM dq_issues) x`;
    let explained = 0;
    for (const cik of ciks) {
      const inputs = await loadAnomalyInputs(db.sql, cik, '2100-01-01', null);
      explained += new Set(explainAnomalies(inputs.findings, inputs.failures, inputs.context).map((e) => `${e.statement_version_id}|${e.rule}`)).size;
    }
    assert.equal(explained, stored!.n);
  });

  it("SunAtion's stored FY2021 failure: the re-told change in cash leaves out the exchange-rate effect carried beside it", async () => {
    const inputs = await loadAnomalyInputs(db.sql, SUNATION, '2100-01-01', null);
    const x = explainAnomalies(inputs.findings, inputs.failures, inputs.context)
      .find((e) => e.rule === 'CF_NET_CHANGE_IN_CASH' && e.fiscal_year === 2021 && e.fiscal_period === 'FY')!;
    assert.equal(x.likely_cause, 'UNREPORTED_COMPONENT');
    assert.equal(x.evidence[0]!.metric, 'EFFECT_OF_EXCHANGE_RATE_ON_CASH');
    assert.deepEqual(x.sources.map((s) => s.kind), ['DATA_QUALITY', 'RECONCILIATION']);
    const [stored] = await db.sql<{ delta: string }[]>`
      SELECT delta::text FROM reconciliation_results r JOIN statement_versions v USING (statement_version_id)
      WHERE r.cik = ${SUNATION} AND r.rule_id = 'CF_NET_CHANGE_IN_CASH' AND v.statement_version_id = ${x.statement_version_id}`;
    assert.equal(x.amount!.delta, stored!.delta);
  });

  it('see only versions knowable at the date: nothing filed after it, and the served version is the latest filed by then', async () => {
    const early = await loadAnomalyInputs(db.sql, APPLE, '2013-12-31', null);
    const late = await loadAnomalyInputs(db.sql, APPLE, '2100-01-01', null);
    const ids = (xs: { statement_version_id: string | null }[]) => xs.map((x) => x.statement_version_id);
    const [visible] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM dq_issues i JOIN statement_versions v USING (statement_version_id) WHERE i.cik = ${APPLE} AND v.filing_date <= '2013-12-31'`;
    assert.equal(early.findings.length, visible!.n);
    assert.ok(early.findings.length < late.findings.length);
    assert.ok(ids(early.findings).every((id) => ids(late.findings).includes(id)));
    const fy2013 = early.context.served('BALANCE_SHEET', 2013, 'FY');
    const [latestThen] = await db.sql<{ v: number }[]>`
      SELECT max(version_sequence)::int AS v FROM statement_versions
      WHERE cik = ${APPLE} AND statement_type = 'BALANCE_SHEET' AND fiscal_year = 2013 AND fiscal_period = 'FY' AND filing_date <= '2013-12-31'`;
    assert.equal(fy2013?.version_sequence, latestThen!.v);
  });

  it('narrow to the findings one data-quality run recorded', async () => {
    const [run] = await db.sql<{ dq_run_id: string; n: number }[]>`SELECT dq_run_id, count(*)::int AS n FROM dq_issues WHERE cik = ${APPLE} GROUP BY dq_run_id LIMIT 1`;
    const inputs = await loadAnomalyInputs(db.sql, APPLE, '2100-01-01', run!.dq_run_id);
    assert.equal(inputs.findings.length, run!.n);
    assert.deepEqual(inputs.failures, []);
  });
});
