import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { createTestDatabase } from './helpers/database.ts';
import { SHARED_SEC } from './helpers/service.ts';

/**
 * A stored history that is no prefix of the one the normalizer builds now (a rule changed since it
 * was written) keeps every stored version and gets one version on top, carrying the built latest
 * figures, with revisions and stock split recasts computed against the stored latest by the same
 * rules as folding (db/statement-write.ts appendVersions). Pinned on Apple's fiscal 2019 income
 * statement of the corpus: its version 1 (10-K of 2019-10-31) made to look written by an older
 * normalizer, its version 2 (the 10-K of 2020-10-30, after the 4-for-1 split) removed.
 */
const APPLE = '0000320193';
const FY2019 = { statement_type: 'INCOME_STATEMENT', fiscal_year: 2019, fiscal_period: 'FY' };

describe('a stored history the normalizer no longer builds', () => {
  let db: Database;
  before(async () => {
    db = await createTestDatabase({ corpus: true });
  });
  after(async () => {
    await db?.close();
  });

  it('gets one version on top whose split-adjusted figures are split recasts, not revisions, and raises no alert', async () => {
    const sql = db.sql;
    const stored = await sql<{ id: string; version_sequence: number }[]>`
      SELECT statement_version_id AS id, version_sequence FROM statement_versions
      WHERE cik = ${APPLE} AND statement_type = ${FY2019.statement_type} AND fiscal_year = ${FY2019.fiscal_year} AND fiscal_period = ${FY2019.fiscal_period}
      ORDER BY version_sequence`;
    assert.deepEqual(stored.map((v) => v.version_sequence), [1, 2]);
    const [v1, v2] = stored.map((v) => v.id);
    await sql.begin(async (tx) => {
      for (const table of ['dq_issues', 'dq_run_versions', 'reconciliation_results', 'fact_revisions', 'split_recasts', 'restatement_alert_events']) {
        await tx`DELETE FROM ${tx(table)} WHERE statement_version_id = ${v2!}`;
      }
      await tx`UPDATE segment_facts SET statement_version_id = NULL WHERE statement_version_id = ${v2!}`;
      await tx`DELETE FROM statement_versions WHERE statement_version_id = ${v2!}`;
      await tx`UPDATE statement_versions SET content_hash = 'written by an older normalizer' WHERE statement_version_id = ${v1!}`;
      await tx`DELETE FROM company_ingestion WHERE cik = ${APPLE}`;
    });

    const summary = await runIngestion(sql, { ...loadConfig({}), databaseUrl: db.url, secSource: SHARED_SEC }, { ciks: [APPLE] });
    assert.equal(summary.status, 'succeeded', JSON.stringify(summary.errors));
    assert.equal(summary.counters.versions_added, 1, 'only the diverged statement gets a version');
    assert.equal(summary.counters.restatements_added, 0);

    const after = await sql<{ id: string; version_sequence: number; accession: string; previous_version_id: string | null; eps: string }[]>`
      SELECT statement_version_id AS id, version_sequence, accession, previous_version_id, figures -> 'EPS_DILUTED' ->> 'value' AS eps FROM statement_versions
      WHERE cik = ${APPLE} AND statement_type = ${FY2019.statement_type} AND fiscal_year = ${FY2019.fiscal_year} AND fiscal_period = ${FY2019.fiscal_period}
      ORDER BY version_sequence`;
    assert.deepEqual(after.map((v) => [v.version_sequence, v.accession, v.eps]), [
      [1, '0000320193-19-000119', '11.89'],
      [2, '0000320193-20-000096', '2.97'],
    ]);
    assert.equal(after[0]!.id, v1, 'the stored version stays');
    assert.equal(after[1]!.previous_version_id, v1);
    const recasts = await sql<{ metric: string; old_value: string; new_value: string; split_ratio: string; split_date: string; old_accession: string }[]>`
      SELECT metric, old_value::text, new_value::text, split_ratio::text, split_date::text, old_accession FROM split_recasts
      WHERE statement_version_id = ${after[1]!.id} ORDER BY metric`;
    assert.deepEqual(recasts.find((r) => r.metric === 'EPS_DILUTED'), {
      metric: 'EPS_DILUTED', old_value: '11.89', new_value: '2.97', split_ratio: '4', split_date: '2020-08-28', old_accession: '0000320193-19-000119',
    });
    assert.deepEqual(recasts.map((r) => r.metric), ['DIVIDENDS_PER_SHARE', 'EPS_BASIC', 'EPS_DILUTED', 'WEIGHTED_AVERAGE_SHARES_BASIC', 'WEIGHTED_AVERAGE_SHARES_DILUTED']);
    const [counts] = await sql<{ revisions: number; alerts: number }[]>`
      SELECT (SELECT count(*)::int FROM fact_revisions WHERE statement_version_id = ${after[1]!.id}) AS revisions,
        (SELECT count(*)::int FROM restatement_alert_events WHERE statement_version_id = ${after[1]!.id}) AS alerts`;
    assert.deepEqual(counts, { revisions: 0, alerts: 0 });
  });
});
