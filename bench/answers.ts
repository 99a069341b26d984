/**
 * Records the /v1 answers of the service on the ingested corpus, to compare two builds byte for
 * byte: every GET route of the registry, each with a sample of requests (its plain form, and the
 * error forms a caller meets: a version the statement does not have, an unknown id), sent with an
 * Enterprise key and a fixed clock. Writes one JSON line per request (method, URL, status, body
 * with the per-request trace and request ids blanked), sorted by URL.
 *
 *   npm run -s answers -- --out answers.jsonl [--template <database>]
 *
 * With --template the service runs on a clone of that database (two builds compared on the very
 * same rows, timestamps included); without it, on a clone of this checkout's corpus template.
 * Compare two runs with `cmp` or `diff`.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { connect } from '../db/client.ts';
import { createApiKey } from '../db/keys.ts';
import { startService } from '../service.ts';
import { ALL_TOOLS } from '../tools/index.ts';
import { corpusTemplate } from '../test/helpers/corpus-template.ts';
import { SHARED_MACRO, SHARED_SEC } from '../test/helpers/shared-data.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, template: { type: 'string' } } });
if (!values.out) throw new Error('usage: npm run -s answers -- --out <file> [--template <database>]');
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NOW = new Date('2026-06-30T12:00:00.000Z');

const admin = connect(adminUrl, { max: 1 });
const template = values.template ?? (await corpusTemplate(admin, adminUrl));
const name = `fds_answers_${randomBytes(4).toString('hex')}`;
await admin`CREATE DATABASE ${admin(name)} TEMPLATE ${admin(template)}`;
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const sql = connect(url.href);

try {
  const config: Config = { ...loadConfig({}), port: 0, host: '127.0.0.1', databaseUrl: url.href, secSource: SHARED_SEC, macroSource: SHARED_MACRO, devKeys: false };
  const running = await startService(config, { log: () => {}, database: { sql, url: url.href, embedded: false, close: async () => {} }, now: () => NOW });
  await running.ready;
  const key = (await createApiKey(sql, 'answers', 'enterprise')).key;
  const base = `http://127.0.0.1:${running.port}`;

  // sample values: the company with the most restatements, one statement of it with several versions
  const [id] = await sql<{ cik: string; statement_type: string; fiscal_year: number; fiscal_period: string }[]>`
    SELECT cik, statement_type, fiscal_year, fiscal_period FROM statement_versions WHERE version_sequence = 2
    ORDER BY cik = (SELECT cik FROM restatement_alert_events GROUP BY cik ORDER BY count(*) DESC, cik LIMIT 1) DESC, cik, statement_type, fiscal_year DESC, fiscal_period LIMIT 1`;
  if (!id) throw new Error('the corpus has no statement with two versions');
  const versions = await sql<{ statement_version_id: string; accession: string; figures: Record<string, unknown> }[]>`
    SELECT statement_version_id, accession, figures FROM statement_versions
    WHERE cik = ${id.cik} AND statement_type = ${id.statement_type} AND fiscal_year = ${id.fiscal_year} AND fiscal_period = ${id.fiscal_period}
    ORDER BY version_sequence`;
  const metric = Object.keys(versions[0]!.figures).sort()[0]!;
  const [company] = await sql<{ company_id: string }[]>`SELECT company_id FROM companies WHERE cik = ${id.cik}`;
  const [ticker] = await sql<{ ticker: string }[]>`SELECT ticker FROM identity_mappings WHERE cik = ${id.cik} ORDER BY is_active DESC, ticker LIMIT 1`;
  const [alert] = await sql<{ id: string }[]>`SELECT restatement_alert_event_id::text AS id FROM restatement_alert_events ORDER BY restatement_alert_event_id LIMIT 1`;
  const [disclosure] = await sql<{ id: string }[]>`SELECT disclosure_id::text AS id FROM disclosures ORDER BY disclosure_id LIMIT 1`;
  const [series] = await sql<{ code: string }[]>`SELECT series_code AS code FROM macro_series ORDER BY series_code LIMIT 1`;
  const sample: Record<string, string> = {
    cik: id.cik,
    ticker: ticker?.ticker ?? 'AAPL',
    accession_id: versions[0]!.accession,
    statement_version_id: versions[versions.length - 1]!.statement_version_id,
    metric,
    metric_name: metric,
    restatement_alert_event_id: alert?.id ?? '00000000-0000-0000-0000-000000000000',
    disclosure_id: disclosure?.id ?? '00000000-0000-0000-0000-000000000000',
    series_code: series?.code ?? 'CPIAUCSL',
    company_id: company?.company_id ?? '00000000-0000-0000-0000-000000000000',
    bundle_code: 'core_income_statement',
    snapshot_id: 'none',
    file_path: 'manifest.json',
    replay_token: 'none',
    date: '2024-12-31',
    target_date: '2024-06-30',
  };
  const identity = `statement_type=${id.statement_type}&fiscal_year=${id.fiscal_year}&fiscal_period=${id.fiscal_period}`;
  const statement = `cik=${id.cik}&${identity}`;

  /** The query strings each route is asked with, beyond its plain form (none). */
  const variants: Record<string, string[]> = {
    '/v1/edgar/companies:resolve': [`ticker=${sample.ticker}`, 'ticker=ZZZZZZ'],
    '/v1/identity/resolve': [`ticker=${sample.ticker}`, `ticker=${sample.ticker}&as_of_date=2015-01-01`],
    '/v1/identity/search': ['query=app', `query=${id.cik}`],
    '/v1/fundamentals/normalized-statements': [statement, `${statement}&include_version_history=true`, `${statement}&as_of_date=2020-01-01`, `cik=${id.cik}&statement_type=${id.statement_type}&fiscal_year=1990&fiscal_period=FY`],
    '/v1/edgar/companies/{cik}/metrics/{metric}/time-series': ['', 'as_reported=true', 'as_of_date=2021-06-30&include_provenance=true'],
    '/v1/edgar/companies/{cik}/statements': ['', 'latest_only=true', `${identity}&include_normalized=true`, 'as_of_date=2020-01-01'],
    '/v1/edgar/companies/{cik}/financial-state/time-series': ['', 'period_type=quarterly'],
    '/v1/edgar/as-of/{date}/financials/{cik}': ['', 'compact=true'],
    '/v1/financials/as-of-snapshot': [`cik=${id.cik}&date=2023-12-31`],
    '/v1/edgar/restatement-alerts': ['', `cik=${id.cik}`],
    '/v1/edgar/statements/restatements/delta': [statement, `${statement}&from_accession=${versions[0]!.accession}&to_statement_version_id=${sample.statement_version_id}`, `${statement}&from_accession=0000000000-00-000000`, `${statement}&from_statement_version_id=00000000-0000-0000-0000-000000000000`],
    '/v1/fundamentals/restatement-delta': [statement, `${statement}&to_accession=0000000000-00-000000`],
    '/v1/edgar/companies/{cik}/statements/restatement-timeline': [identity],
    '/v1/edgar/statements/restatements/ledger': [statement],
    '/v1/analysis/metric-drift': [`${statement}&metric=${metric}`],
    '/v1/analysis/version-delta': [`${statement}&metric=${metric}`, `${statement}&metric=${metric}&compare_version_sequence=2`, `${statement}&metric=${metric}&compare_version_sequence=99`],
    '/v1/analysis/model-impact': [statement],
    '/v1/edgar/companies/{cik}/statements/overrides/trace': [identity, `${identity}&version_sequence=1`, `${identity}&version_sequence=99`],
    '/v1/metrics/definitions': ['', 'compact=true'],
    '/v1/edgar/companies/{cik}/metric-bundles/{bundle_code}/time-series': [''],
    '/v1/edgar/derived-metrics/time-series': [`ciks=${id.cik}&metrics=gross_margin`],
    '/v1/fundamentals/time-series': [`statement_type=${id.statement_type}&ciks=${id.cik}`],
    '/v1/fundamentals/derived/time-series': [`statement_type=${id.statement_type}&ciks=${id.cik}`],
    '/v1/views/metrics/{bundle_code}': [`ciks=${id.cik}`],
    '/v1/edgar/companies/{cik}/disclosures': [''],
    '/v1/metrics/segments': [`cik=${id.cik}`],
    '/v1/fundamentals/macro/series/{series_code}': ['', 'from_date=2020-01-01&to_date=2021-01-01&as_of_date=2021-06-30'],
    '/v1/fundamentals/macro/context/{target_date}': [''],
    '/v1/fundamentals/companies/{cik}/metrics/{metric}/time-series/real': ['base_year=2020'],
    '/v1/edgar/reconciliation/summary': [`cik=${id.cik}`],
    '/v1/edgar/reconciliation/ledger': [`${statement}&version_sequence=1`, `${statement}&version_sequence=99`],
    '/v1/coverage/metrics/{metric}': [''],
    '/v1/fundamentals/normalized-statements/dq-anomalies': [statement, `${statement}&version_sequence=99`],
    '/v1/data-quality/issues': ['', `cik=${id.cik}`],
    '/v1/edgar/companies/{cik}/statements/dq/overlay': [identity, `${identity}&version_sequence=1`, `${identity}&version_sequence=99`],
    '/v1/fundamentals/normalized-statements/dq-overlay': [statement, `${statement}&statement_version_id=00000000-0000-0000-0000-000000000000`],
  };

  const lines: string[] = [];
  let routes = 0;
  for (const def of ALL_TOOLS) {
    if (def.http.method !== 'GET') continue;
    routes++;
    const path = def.http.path.replace(/\{([^}+]+)\+?\}/g, (_, p: string) => encodeURIComponent(sample[p] ?? 'x'));
    for (const query of ['', ...(variants[def.http.path] ?? [])].filter((q, i, all) => all.indexOf(q) === i)) {
      const target = `${path}${query ? `?${query}` : ''}`;
      const res = await fetch(`${base}${target}`, { headers: { 'x-api-key': key } });
      const body = (await res.text()).replace(/"(trace_id|request_id)":"[^"]*"/g, '"$1":"-"');
      lines.push(JSON.stringify({ method: 'GET', url: target, status: res.status, body }));
    }
  }
  lines.sort();
  writeFileSync(values.out, lines.join('\n') + '\n');
  console.log(`${routes} routes, ${lines.length} answers -> ${values.out}`);
  await running.close({ delayMs: 0, timeoutMs: 2000 });
} finally {
  await sql.end({ timeout: 5 });
  await admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`;
  await admin.end({ timeout: 5 });
}
