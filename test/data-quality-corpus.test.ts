import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get, post } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { compactJson } from '../api/mcp-envelope.ts';

/**
 * Data-quality findings over the ingested ../shared/sec corpus: recorded by ingestion, listed in
 * the specified order, overlaid on statements, re-checked idempotently. Expected findings are read
 * with SQL from the corpus first, then through the routes.
 */
const SUNATION = '0000022701';
const APPLE = '0000320193';
/** SUNation's fiscal 2021 Q1 balance sheet: v1 from its 10-Q 0000897101-21-000381, v2 from 0000022701-22-000009 */
const SUNATION_BS_2021_Q1 = `statement_type=BALANCE_SHEET&fiscal_year=2021&fiscal_period=Q1`;

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

const api = (path: string) => get(`${svc.baseUrl}${path}`, svc.keys.enterprise);
const SEVERITY_RANK: Record<string, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1 };

/** The specified order, written independently of the SQL: severity desc, then cik, fiscal_year, fiscal_period, rule_code, issue_id asc, nulls last. */
function compareIssues(a: any, b: any): number {
  const nullsLast = (x: unknown, y: unknown) => (x === null ? (y === null ? 0 : 1) : y === null ? -1 : 0);
  const cmp = (x: any, y: any) => (x < y ? -1 : x > y ? 1 : 0);
  return (
    SEVERITY_RANK[b.severity]! - SEVERITY_RANK[a.severity]! ||
    cmp(a.cik, b.cik) ||
    nullsLast(a.fiscal_year, b.fiscal_year) || cmp(a.fiscal_year, b.fiscal_year) ||
    nullsLast(a.fiscal_period, b.fiscal_period) || cmp(a.fiscal_period, b.fiscal_period) ||
    cmp(a.rule_code, b.rule_code) ||
    cmp(a.issue_id, b.issue_id)
  );
}

async function allIssues(query: string): Promise<{ total: number; items: any[] }> {
  const items: any[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const r = await api(`/v1/data-quality/issues?page_size=200&page=${page}${query ? `&${query}` : ''}`);
    assert.equal(r.status, 200, r.text);
    total = r.body.total;
    items.push(...r.body.items);
    if (r.body.items.length < 200) break;
  }
  return { total, items };
}

describe('findings recorded at ingestion', () => {
  it('every stored version was checked in its ingestion transaction, one ingestion dq run per company', async () => {
    const [unchecked] = await svc.sql`
      SELECT count(*)::int AS n FROM statement_versions v
      WHERE NOT EXISTS (SELECT 1 FROM dq_run_versions rv WHERE rv.statement_version_id = v.statement_version_id)`;
    assert.equal(unchecked!.n, 0);
    const [runs] = await svc.sql`
      SELECT count(*)::int AS runs, count(DISTINCT cik)::int AS ciks,
        (SELECT count(DISTINCT cik)::int FROM statement_versions) AS companies
      FROM dq_runs WHERE trigger = 'ingestion'`;
    assert.equal(runs!.ciks, runs!.companies);
    const [sum] = await svc.sql`SELECT sum(issues_new)::int AS recorded, (SELECT count(*)::int FROM dq_issues) AS issues FROM dq_runs`;
    assert.equal(sum!.recorded, sum!.issues, 'every issue was recorded by exactly one run');
  });

  it("SUNation's fiscal 2021 Q1 v2 balance sheet fails assets = liabilities and equity: 4,163,000 against 53,108,238 (CRITICAL)", async () => {
    const [v2] = await svc.sql`
      SELECT statement_version_id, figures->'TOTAL_ASSETS'->>'value' AS assets, figures->'LIABILITIES_AND_EQUITY'->>'value' AS le
      FROM statement_versions WHERE cik = ${SUNATION} AND statement_type = 'BALANCE_SHEET' AND fiscal_year = 2021 AND fiscal_period = 'Q1' AND version_sequence = 2`;
    assert.deepEqual([v2!.assets, v2!.le], ['4163000', '53108238']);
    const page = await api(`/v1/data-quality/issues?cik=22701&statement_type=BALANCE_SHEET&fiscal_year=2021&fiscal_period=Q1`);
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.total, 1);
    const issue = page.body.items[0];
    assert.equal(issue.rule_code, 'DQ_IDENTITY_BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY');
    assert.equal(issue.severity, 'CRITICAL');
    assert.equal(issue.metric, 'TOTAL_ASSETS');
    assert.equal(issue.version_sequence, 2);
    assert.equal(issue.statement_version_id, v2!.statement_version_id);
    assert.match(issue.message, /TOTAL_ASSETS is 4,163,000 but the identity expects 53,108,238/);
    assert.equal(issue.evidence.delta, '-48945238');
    // the two figures come from two filings: v2 carried liabilities and equity forward from the 10-Q
    assert.deepEqual(
      issue.evidence.compared.map((p: any) => [p.metric, p.value, p.source_accession, p.period_end]),
      [
        ['TOTAL_ASSETS', '4163000.000000', '0000022701-22-000009', '2021-03-31'],
        ['LIABILITIES_AND_EQUITY', '53108238.000000', '0000897101-21-000381', '2021-03-31'],
      ],
    );
  });

  it("SUNation's 2021 first quarter revenue (10,159,315) exceeds the year, first 7,010,060 then restated to 38,162: DQ_QUARTER_EXCEEDS_YEAR on both versions of the year", async () => {
    const rows = await svc.sql`
      SELECT version_sequence, figures->'REVENUE'->>'value' AS revenue FROM statement_versions
      WHERE cik = ${SUNATION} AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2021 AND fiscal_period = 'FY' ORDER BY version_sequence`;
    assert.deepEqual(rows.map((r) => r.revenue), ['7010060', '38162']);
    const page = await api(`/v1/data-quality/issues?cik=${SUNATION}&rule_code=DQ_QUARTER_EXCEEDS_YEAR&metric=REVENUE&fiscal_year=2021&fiscal_period=FY`);
    assert.deepEqual(page.body.items.map((i: any) => i.version_sequence).sort(), [1, 2]);
    const v2 = page.body.items.find((i: any) => i.version_sequence === 2);
    assert.deepEqual(
      v2.evidence.compared.map((p: any) => [p.role, p.fiscal_period, p.value]),
      [['subject', 'FY', '38162.000000'], ['quarter', 'Q1', '10159315.000000'], ['quarter', 'Q2', '10996802.000000']],
    );
  });
});

describe('GET /v1/data-quality/issues', () => {
  it('lists every issue in the specified order across pages, with the true total', async () => {
    const [count] = await svc.sql`SELECT count(*)::int AS n FROM dq_issues`;
    const { total, items } = await allIssues('');
    assert.ok(count!.n > 100, `the corpus has findings (${count!.n})`);
    assert.equal(total, count!.n);
    assert.equal(items.length, count!.n);
    assert.deepEqual(items.map((i) => i.issue_id), [...items].sort(compareIssues).map((i) => i.issue_id));
    assert.equal(items[0].severity, 'CRITICAL');
    assert.equal(items[items.length - 1].severity, 'LOW');
    const past = await api(`/v1/data-quality/issues?page_size=200&page=99`);
    assert.deepEqual([past.body.total, past.body.items.length], [count!.n, 0]);
  });

  it('filters by cik, rule_code (repeatable), min_severity, statement_type and fiscal_year, combined', async () => {
    const [expected] = await svc.sql`
      SELECT count(*)::int AS n FROM dq_issues
      WHERE cik = ${SUNATION} AND severity IN ('HIGH', 'CRITICAL') AND statement_type = 'INCOME_STATEMENT' AND fiscal_year = 2021
        AND rule_code IN ('DQ_QUARTER_EXCEEDS_YEAR', 'DQ_IDENTITY_IS_GROSS_PROFIT')`;
    const { total, items } = await allIssues(
      `cik=22701&min_severity=HIGH&statement_type=INCOME_STATEMENT&fiscal_year=2021&rule_code=DQ_QUARTER_EXCEEDS_YEAR,DQ_IDENTITY_IS_GROSS_PROFIT`,
    );
    assert.ok(expected!.n > 0);
    assert.equal(total, expected!.n);
    for (const i of items) {
      assert.equal(i.cik, SUNATION);
      assert.ok(['HIGH', 'CRITICAL'].includes(i.severity));
      assert.ok(['DQ_QUARTER_EXCEEDS_YEAR', 'DQ_IDENTITY_IS_GROSS_PROFIT'].includes(i.rule_code));
    }
    assert.deepEqual(items.map((i) => i.issue_id), [...items].sort(compareIssues).map((i) => i.issue_id));
    const critical = await allIssues('min_severity=CRITICAL');
    assert.ok(critical.items.every((i) => i.severity === 'CRITICAL'));
  });

  it('an item carries exactly the fields the published schema declares: no page total leaks into it', async () => {
    const spec = await get(`${svc.baseUrl}/openapi.json`);
    const schema = spec.body.paths['/v1/data-quality/issues'].get.responses['200'].content['application/json'].schema;
    const declared = Object.keys(schema.properties.items.items.properties).sort();
    assert.ok(declared.includes('issue_id') && !declared.includes('total'));
    for (const page of [1, 2]) {
      const r = await api(`/v1/data-quality/issues?page_size=1&page=${page}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.total > 1);
      assert.equal(r.body.items.length, 1);
      assert.deepEqual(Object.keys(r.body.items[0]).sort(), declared);
    }
  });

  it('refuses an unknown rule code with 400 naming the accepted codes', async () => {
    const r = await api(`/v1/data-quality/issues?rule_code=DQC_0015`);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.match(r.body.error.message, /DQ_NEGATIVE_VALUE/);
  });
});

describe('the overlay', () => {
  const overlay = (query: string) => api(`/v1/edgar/companies/${SUNATION}/statements/dq/overlay?${query}`);

  it('answers 409 EDGAR_STATEMENT_AMBIGUOUS for a statement with two versions and no version_sequence, listing both', async () => {
    const r = await overlay(SUNATION_BS_2021_Q1);
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.error.code, 'EDGAR_STATEMENT_AMBIGUOUS');
    assert.deepEqual(r.body.error.details.version_sequences, [1, 2]);
    assert.deepEqual(r.body.error.details.versions.map((v: any) => v.source_accession), ['0000897101-21-000381', '0000022701-22-000009']);
    assert.match(r.body.error.message, /version_sequence/);
  });

  it('narrowed with version_sequence=2, attaches the identity failure to TOTAL_ASSETS and summarizes it', async () => {
    const r = await overlay(`${SUNATION_BS_2021_Q1}&version_sequence=2`);
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.equal(d.version_sequence, 2);
    assert.equal(d.is_latest, true);
    const assets = d.normalized_payload.facts.find((f: any) => f.metric === 'TOTAL_ASSETS');
    assert.equal(assets.value, '4163000.000000');
    assert.deepEqual(assets.dq_findings.map((f: any) => [f.rule_code, f.severity]), [['DQ_IDENTITY_BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY', 'CRITICAL']]);
    for (const f of d.normalized_payload.facts) if (f.metric !== 'TOTAL_ASSETS') assert.deepEqual(f.dq_findings, [], f.metric);
    assert.equal(d.normalized_payload._meta.identity.checks.find((c: any) => c.rule_id === 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY').status, 'FAIL');
    assert.deepEqual(
      { ...d.dq_overlay, last_dq_run_id: null, last_checked_at: null },
      {
        checked: true, last_dq_run_id: null, last_checked_at: null, issues_count: 1, max_severity: 'CRITICAL',
        counts_by_severity: { CRITICAL: 1, HIGH: 0, MEDIUM: 0, LOW: 0 }, flagged_metrics: ['TOTAL_ASSETS'], statement_findings: [],
      },
    );
    assert.match(d.dq_overlay.last_dq_run_id, /^[0-9a-f-]{36}$/);
  });

  it('version 1 (as first reported) balances and has no finding; a version that does not exist is 404 listing those that do', async () => {
    const r = await overlay(`${SUNATION_BS_2021_Q1}&version_sequence=1`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.is_latest, false);
    assert.deepEqual([r.body.data.dq_overlay.checked, r.body.data.dq_overlay.issues_count, r.body.data.dq_overlay.max_severity], [true, 0, null]);
    const missing = await overlay(`${SUNATION_BS_2021_Q1}&version_sequence=3`);
    assert.equal(missing.status, 404);
    assert.match(missing.body.error.message, /versions on record: 1, 2/);
  });

  it('serves a statement with a single version without version_sequence', async () => {
    const [single] = await svc.sql`
      SELECT statement_type, fiscal_year, fiscal_period FROM statement_versions WHERE cik = ${APPLE}
      GROUP BY 1, 2, 3 HAVING count(*) = 1 ORDER BY fiscal_year DESC, statement_type, fiscal_period LIMIT 1`;
    const r = await get(
      `${svc.baseUrl}/v1/edgar/companies/${APPLE}/statements/dq/overlay?statement_type=${single!.statement_type}&fiscal_year=${single!.fiscal_year}&fiscal_period=${single!.fiscal_period}`,
      svc.keys.enterprise,
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.version_sequence, 1);
    assert.equal(r.body.data.dq_overlay.checked, true);
  });

  it('by statement_version_id: a missing core metric is a statement-level finding; an id of another identity is 404', async () => {
    const [missing] = await svc.sql`
      SELECT cik, statement_type, fiscal_year, fiscal_period, statement_version_id, metric FROM dq_issues
      WHERE rule_code = 'DQ_MISSING_CORE_METRIC' AND metric = 'NET_INCOME' ORDER BY cik, fiscal_year, fiscal_period LIMIT 1`;
    const q = `cik=${missing!.cik}&statement_type=${missing!.statement_type}&fiscal_year=${missing!.fiscal_year}&fiscal_period=${missing!.fiscal_period}`;
    const r = await api(`/v1/fundamentals/normalized-statements/dq-overlay?${q}&statement_version_id=${missing!.statement_version_id}`);
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.equal(d.statement_version_id, missing!.statement_version_id);
    assert.ok(!d.normalized_payload.facts.some((f: any) => f.metric === 'NET_INCOME'));
    const statementLevel = d.dq_overlay.statement_findings.find((f: any) => f.rule_code === 'DQ_MISSING_CORE_METRIC');
    assert.equal(statementLevel.metric, 'NET_INCOME');
    assert.equal(statementLevel.severity, 'HIGH');

    const [other] = await svc.sql`
      SELECT statement_version_id FROM statement_versions
      WHERE cik = ${SUNATION} AND statement_type = 'BALANCE_SHEET' AND fiscal_year = 2021 AND fiscal_period = 'Q2' AND version_sequence = 1`;
    const wrong = await api(`/v1/fundamentals/normalized-statements/dq-overlay?ticker=SUNE&${SUNATION_BS_2021_Q1}&statement_version_id=${other!.statement_version_id}`);
    assert.equal(wrong.status, 404, wrong.text);
    assert.match(wrong.body.error.message, /is not a version of BALANCE_SHEET 2021 Q1/);
    assert.equal(wrong.body.error.details.versions.length, 2);
  });
});

describe('dq_anomalies on the tool server', () => {
  async function toolsCall(args: Record<string, unknown>) {
    const r = await post(
      `${svc.baseUrl}/mcp`,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'dq_anomalies', arguments: args } }),
      svc.keys.free,
    );
    assert.equal(r.status, 200, r.text);
    return r.body.result;
  }

  it('returns the latest version with its overlay by default, and an earlier one by version_sequence', async () => {
    const latest = await toolsCall({ ticker: 'SUNE', statement_type: 'BALANCE_SHEET', fiscal_year: 2021, fiscal_period: 'Q1' });
    assert.equal(latest.isError, false, JSON.stringify(latest));
    assert.equal(latest.content[0].text, compactJson(latest.structuredContent), 'the text is the compact rendering of structuredContent');
    const d = latest.structuredContent.data;
    assert.deepEqual([d.cik, d.version_sequence, d.dq_overlay.max_severity, d.dq_overlay.flagged_metrics], [SUNATION, 2, 'CRITICAL', ['TOTAL_ASSETS']]);
    const first = await toolsCall({ cik: '22701', statement_type: 'BALANCE_SHEET', fiscal_year: 2021, fiscal_period: 'Q1', version_sequence: 1 });
    assert.deepEqual([first.structuredContent.data.version_sequence, first.structuredContent.data.dq_overlay.issues_count], [1, 0]);
  });

  it('answers isError 404 for a period the company does not have', async () => {
    const r = await toolsCall({ cik: SUNATION, statement_type: 'BALANCE_SHEET', fiscal_year: 1990, fiscal_period: 'Q1' });
    assert.equal(r.isError, true);
    assert.equal(JSON.parse(r.content[0].text).http_status, 404);
  });
});

describe('POST /v1/edgar/companies/{cik}/statements/dq/run', () => {
  const run = (body: unknown) => post(`${svc.baseUrl}/v1/edgar/companies/22701/statements/dq/run`, JSON.stringify(body), svc.keys.enterprise);

  it('re-checks the latest version of every statement and records nothing twice', async () => {
    const [before] = await svc.sql`SELECT count(*)::int AS n FROM dq_issues`;
    const [latest] = await svc.sql`SELECT count(DISTINCT (statement_type, fiscal_year, fiscal_period))::int AS n FROM statement_versions WHERE cik = ${SUNATION}`;
    const first = await run({});
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.cik, SUNATION);
    assert.equal(first.body.data.statements_checked, latest!.n);
    assert.ok(first.body.data.issues_found > 0);
    assert.equal(first.body.data.issues_new, 0, 'ingestion recorded them already');
    const second = await run({});
    assert.deepEqual(
      [second.body.data.statements_checked, second.body.data.issues_found, second.body.data.issues_new],
      [first.body.data.statements_checked, first.body.data.issues_found, 0],
    );
    assert.notEqual(second.body.data.dq_run_id, first.body.data.dq_run_id);
    const [after] = await svc.sql`SELECT count(*)::int AS n FROM dq_issues`;
    assert.equal(after!.n, before!.n);
    const [row] = await svc.sql`SELECT trigger, cik, statements_checked, issues_found, issues_new FROM dq_runs WHERE dq_run_id = ${second.body.data.dq_run_id}`;
    assert.deepEqual({ ...row }, { trigger: 'request', cik: SUNATION, statements_checked: latest!.n, issues_found: first.body.data.issues_found, issues_new: 0 });
  });

  it('a named statement re-records a finding that was removed, once', async () => {
    await svc.sql`
      DELETE FROM dq_issues WHERE cik = ${SUNATION} AND statement_type = 'BALANCE_SHEET' AND fiscal_year = 2021 AND fiscal_period = 'Q1'`;
    const body = { statement_type: 'BALANCE_SHEET', fiscal_year: 2021, fiscal_period: 'Q1' };
    const first = await run(body);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.data.requested, body);
    assert.deepEqual([first.body.data.statements_checked, first.body.data.issues_found, first.body.data.issues_new], [1, 1, 1]);
    const again = await run(body);
    assert.deepEqual([again.body.data.issues_found, again.body.data.issues_new], [1, 0]);
    const page = await api(`/v1/data-quality/issues?dq_run_id=${first.body.data.dq_run_id}`);
    assert.deepEqual(page.body.items.map((i: any) => [i.rule_code, i.version_sequence]), [['DQ_IDENTITY_BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY', 2]]);
  });

  it('re-records the reconciliation ledger rows of the checked versions that are missing, once', async () => {
    const ledger = () => svc.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM reconciliation_results r JOIN statement_versions v USING (statement_version_id)
      WHERE v.cik = ${SUNATION} AND v.statement_type = 'BALANCE_SHEET' AND v.fiscal_year = 2021 AND v.fiscal_period = 'Q1'
        AND v.version_sequence = (SELECT max(version_sequence) FROM statement_versions w
          WHERE w.cik = v.cik AND w.statement_type = v.statement_type AND w.fiscal_year = v.fiscal_year AND w.fiscal_period = v.fiscal_period)`;
    const [before] = await ledger();
    assert.ok(before!.n > 0, 'ingestion reconciled the latest version');
    await svc.sql`
      DELETE FROM reconciliation_results WHERE cik = ${SUNATION} AND statement_type = 'BALANCE_SHEET' AND fiscal_year = 2021 AND fiscal_period = 'Q1'`;
    const body = { statement_type: 'BALANCE_SHEET', fiscal_year: 2021, fiscal_period: 'Q1' };
    const first = await run(body);
    assert.equal(first.body.data.reconciliation_rows_new, before!.n);
    assert.deepEqual([...(await ledger())], [before]);
    const again = await run(body);
    assert.equal(again.body.data.reconciliation_rows_new, 0);
  });

  it('a named statement that does not exist is 404 and records no run', async () => {
    const [before] = await svc.sql`SELECT count(*)::int AS n FROM dq_runs`;
    const r = await run({ statement_type: 'BALANCE_SHEET', fiscal_year: 1990, fiscal_period: 'Q1' });
    assert.equal(r.status, 404, r.text);
    const [after] = await svc.sql`SELECT count(*)::int AS n FROM dq_runs`;
    assert.equal(after!.n, before!.n);
  });
});
