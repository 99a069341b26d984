import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../config.ts';
import type { Sql } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import { loadForChecks, withProvenance } from '../db/data-quality.ts';
import { storedLedgerRows } from '../db/reconciliation.ts';
import { detectQualityIssues } from '../domain/data-quality.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { createTestDatabase } from './helpers/database.ts';
import { SHARED_SEC } from './helpers/service.ts';

/**
 * Ingestion checks the versions it just wrote from memory (db/data-quality.ts checkWrittenVersions,
 * db/reconciliation.ts reconcileWrittenVersions) and reads back only versions stored by earlier
 * ingestions. These tests pin that this writes exactly what reading every version back from
 * PostgreSQL gives: on the whole corpus (first ingestion: nothing stored before), and on companies
 * re-ingested on top of their older stored versions (the neighbours then come from the store).
 */
const SUNATION = '0000022701';
const APPLE = '0000320193';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Version ids (also inside evidence and notes) replaced by what names the version: cik|type|year|period|sequence. */
async function naturalIds(sql: Sql): Promise<(value: unknown) => string> {
  const rows = await sql<{ id: string; key: string }[]>`
    SELECT statement_version_id AS id, concat_ws('|', cik, statement_type, fiscal_year, fiscal_period, version_sequence) AS key
    FROM statement_versions`;
  const keys = new Map(rows.map((r) => [r.id, r.key]));
  return (value) => canonical(value).replace(UUID, (id) => `version:${keys.get(id) ?? `unknown ${id}`}`);
}

/** JSON with object keys sorted, as jsonb compares (it keeps no key order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const ISSUE_FIELDS = ['rule_code', 'severity', 'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'version_sequence', 'statement_version_id', 'metric', 'message', 'evidence'] as const;
const LEDGER_FIELDS = [
  'statement_version_id', 'rule_id', 'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'version_sequence', 'rule_category',
  'status', 'severity', 'expected_value', 'actual_value', 'delta', 'notes',
] as const;

function lines<T extends object>(rows: readonly T[], fields: readonly (keyof T)[], natural: (v: unknown) => string): string[] {
  // through JSON, so a finding built in memory compares as its jsonb column reads back
  return rows.map((r) => natural(fields.map((f) => JSON.parse(JSON.stringify(r[f] ?? null))))).sort();
}

/** What ingestion stored for one company: its findings and ledger rows, without run ids and timestamps. */
async function storedChecks(sql: Sql, cik: string): Promise<{ issues: string[]; ledger: string[] }> {
  const natural = await naturalIds(sql);
  const issues = await sql`SELECT ${sql([...ISSUE_FIELDS])} FROM dq_issues WHERE cik = ${cik}`;
  const ledger = await sql`
    SELECT ${sql([...LEDGER_FIELDS.filter((f) => !f.endsWith('_value') && f !== 'delta')])},
      expected_value::text, actual_value::text, delta::text
    FROM reconciliation_results WHERE cik = ${cik}`;
  return { issues: lines(issues, ISSUE_FIELDS, natural), ledger: lines(ledger, LEDGER_FIELDS, natural) };
}

describe('checks of the versions ingestion wrote', () => {
  let db: Database;
  before(async () => {
    db = await createTestDatabase({ corpus: true });
  });
  after(async () => {
    await db?.close();
  });

  it('record on the whole corpus exactly the findings and ledger rows that checking the stored versions gives', async () => {
    const sql = db.sql;
    const natural = await naturalIds(sql);
    const runs = await sql<{ cik: string; ingestion_run_id: number; dq_run_id: string; issues_new: number }[]>`
      SELECT cik, ingestion_run_id::int, dq_run_id, issues_new FROM dq_runs WHERE trigger = 'ingestion' AND statements_checked > 0 ORDER BY cik`;
    assert.ok(runs.length >= 20, `${runs.length} companies checked`);
    let issues = 0;
    let ledger = 0;
    for (const run of runs) {
      const scope = { kind: 'ingestion', ingestion_run_id: run.ingestion_run_id } as const;
      const { versions, subjects } = await loadForChecks(sql, run.cik, scope);
      const expected = await withProvenance(sql, detectQualityIssues(versions, subjects));
      const stored = await sql`SELECT ${sql([...ISSUE_FIELDS])} FROM dq_issues WHERE dq_run_id = ${run.dq_run_id}`;
      assert.deepEqual(lines(stored, ISSUE_FIELDS, natural), lines(expected, ISSUE_FIELDS, natural), `findings of ${run.cik}`);
      assert.equal(run.issues_new, expected.length);
      const [checked] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM dq_run_versions WHERE dq_run_id = ${run.dq_run_id}`;
      assert.equal(checked!.n, subjects.size, `versions checked for ${run.cik}`);

      const rows = await storedLedgerRows(sql, run.cik, sql`ingestion_run_id = ${run.ingestion_run_id}`);
      const storedRows = await sql`
        SELECT ${sql([...LEDGER_FIELDS.filter((f) => !f.endsWith('_value') && f !== 'delta')])},
          expected_value::text, actual_value::text, delta::text
        FROM reconciliation_results r
        WHERE statement_version_id IN (SELECT statement_version_id FROM statement_versions WHERE cik = ${run.cik} AND ingestion_run_id = ${run.ingestion_run_id})`;
      assert.deepEqual(lines(storedRows, LEDGER_FIELDS, natural), lines(rows, LEDGER_FIELDS, natural), `ledger of ${run.cik}`);
      issues += expected.length;
      ledger += rows.length;
    }
    assert.ok(issues > 500 && ledger > 10_000, `${issues} findings, ${ledger} ledger rows compared`);
  });

  for (const [cik, cutoff] of [[SUNATION, '2021-01-01'], [APPLE, '2019-01-01']] as const) {
    it(`re-ingesting ${cik} after removing its versions filed from ${cutoff} on writes the same findings and ledger rows again, with the older versions read from the store`, async () => {
      const sql = db.sql;
      const before = await storedChecks(sql, cik);
      // a removed version takes every later version of its statement with it, so what stays is a prefix of each statement's history
      const removed = await sql<{ id: string }[]>`
        SELECT v.statement_version_id AS id FROM statement_versions v
        WHERE v.cik = ${cik} AND EXISTS (
          SELECT 1 FROM statement_versions e
          WHERE e.cik = v.cik AND e.statement_type = v.statement_type AND e.fiscal_year = v.fiscal_year
            AND e.fiscal_period = v.fiscal_period AND e.version_sequence <= v.version_sequence AND e.filing_date >= ${cutoff})`;
      const ids = removed.map((r) => r.id);
      const [kept] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM statement_versions WHERE cik = ${cik} AND NOT (statement_version_id = ANY(${ids}::uuid[]))`;
      assert.ok(ids.length > 50 && kept!.n > 50, `${ids.length} versions removed, ${kept!.n} kept`);
      await sql.begin(async (tx) => {
        await tx`DELETE FROM dq_issues WHERE statement_version_id = ANY(${ids}::uuid[])`;
        await tx`DELETE FROM dq_run_versions WHERE statement_version_id = ANY(${ids}::uuid[])`;
        await tx`DELETE FROM reconciliation_results WHERE statement_version_id = ANY(${ids}::uuid[])`;
        await tx`DELETE FROM fact_revisions WHERE statement_version_id = ANY(${ids}::uuid[])`;
        await tx`DELETE FROM split_recasts WHERE statement_version_id = ANY(${ids}::uuid[])`;
        await tx`DELETE FROM restatement_alert_events WHERE statement_version_id = ANY(${ids}::uuid[])`;
        await tx`UPDATE segment_facts SET statement_version_id = NULL WHERE statement_version_id = ANY(${ids}::uuid[])`;
        await tx`DELETE FROM statement_versions WHERE statement_version_id = ANY(${ids}::uuid[])`;
        await tx`DELETE FROM company_ingestion WHERE cik = ${cik}`;
      });

      const summary = await runIngestion(sql, { ...loadConfig({}), databaseUrl: db.url, secSource: SHARED_SEC }, { ciks: [cik] });
      assert.equal(summary.status, 'succeeded', JSON.stringify(summary.errors));
      assert.equal(summary.counters.versions_added, ids.length);
      assert.deepEqual(await storedChecks(sql, cik), before);
    });
  }
});
