import { createHash } from 'node:crypto';
import type { Sql } from '../db/client.ts';
import { companyIngestionState, ensureCompany, recordCompanyIngestion } from '../db/ingestion-runs.ts';
import { appendVersions, upsertFilings, type VersionToStore } from '../db/statement-write.ts';
import { buildStatementHistory, isPeriodicForm } from '../domain/normalize/history.ts';
import type { CatalogView } from '../domain/normalize/presentations.ts';
import type { BuiltVersion } from '../domain/normalize/versions.ts';
import { companyFactsUrl, filingsFromFacts, filingsFromSubmissions, mergeFilings, parseCompanyFacts } from './companyfacts.ts';
import type { SecSource } from './source.ts';
import { checkAddedVersions } from './version-checks.ts';
import { readSubmissions } from './submissions.ts';

/**
 * Bump when normalization rules change: every company is then re-normalized on the next run,
 * and any statement whose figures move gets a new version (stored versions are never rewritten).
 */
export const NORMALIZER_VERSION = 1;

export interface CompanyResult {
  cik: string;
  name: string | null;
  status: 'ingested' | 'unchanged' | 'no_data';
  facts: number;
  bytes: number;
  filings: number;
  periodic_filings: number;
  versions_added: number;
  restatements_added: number;
  ms: number;
}

/**
 * One company, read, normalized and written in one transaction: a crash leaves it either fully
 * written or untouched, and an unchanged source (same bytes, same normalizer) is skipped.
 */
export async function ingestCompany(
  sql: Sql,
  source: SecSource,
  cik: string,
  runId: number,
  catalog: CatalogView,
  now: () => Date,
): Promise<CompanyResult> {
  const started = performance.now();
  const [text, submissions] = await Promise.all([source.readText(companyFactsUrl(cik)), readSubmissions(source, cik)]);
  const base = { cik, facts: 0, bytes: 0, filings: 0, periodic_filings: 0, versions_added: 0, restatements_added: 0 };
  if (text === null && submissions === null) {
    return { ...base, name: null, status: 'no_data', ms: performance.now() - started };
  }
  const bytes = text === null ? 0 : Buffer.byteLength(text);
  const hash = createHash('sha256')
    .update(`normalizer:${NORMALIZER_VERSION}\n`)
    .update(text ?? '')
    .update(submissions ? JSON.stringify([submissions.profile.fiscalYearEnd, submissions.filings]) : '')
    .digest('hex');
  const state = await companyIngestionState(sql, cik);
  const name = submissions?.profile.name ?? null;
  if (state && state.source_hash === hash && state.normalizer_version === NORMALIZER_VERSION) {
    return { ...base, name, bytes, status: 'unchanged', ms: performance.now() - started };
  }

  const parsed = text === null ? null : parseCompanyFacts(text);
  const fromFacts = parsed ? filingsFromFacts(parsed.facts) : [];
  const filings = mergeFilings(submissions ? filingsFromSubmissions(submissions.filings) : [], fromFacts);
  const fiscalYearEnd = submissions?.profile.fiscalYearEnd ?? null;
  const history = parsed
    ? buildStatementHistory({ cik, facts: parsed.facts, filings, fiscal_year_end: fiscalYearEnd }, catalog)
    : null;
  const toStore = (history?.versions ?? []).map(versionToStore);
  const factCounts = new Map<string, number>();
  for (const f of parsed?.facts ?? []) factCounts.set(f.accession, (factCounts.get(f.accession) ?? 0) + 1);

  const counts = await sql.begin(async (tx) => {
    if (parsed) await ensureCompany(tx as unknown as Sql, cik, parsed.entityName, fiscalYearEnd, now());
    await upsertFilings(tx as unknown as Sql, cik, filings, isPeriodicForm, factCounts);
    const written = await appendVersions(tx as unknown as Sql, cik, toStore, runId);
    if (written.versions_added > 0) await checkAddedVersions(tx as unknown as Sql, cik, runId);
    await recordCompanyIngestion(
      tx as unknown as Sql,
      { cik, source_hash: hash, normalizer_version: NORMALIZER_VERSION, run_id: runId, facts: parsed?.facts.length ?? 0, filings: filings.length, versions: toStore.length },
      now(),
    );
    return written;
  });
  return {
    ...base,
    name: name ?? parsed?.entityName ?? null,
    status: 'ingested',
    facts: parsed?.facts.length ?? 0,
    bytes,
    filings: filings.length,
    periodic_filings: history?.periodic_filings ?? 0,
    versions_added: counts.versions_added,
    restatements_added: counts.restatements_added,
    ms: performance.now() - started,
  };
}

function versionToStore(v: BuiltVersion): VersionToStore {
  let ifrs = 0;
  const entries = [...v.figures.values()].sort((a, b) => a.metric.localeCompare(b.metric));
  for (const f of entries) {
    if (f.source_xbrl_concept?.startsWith('ifrs-full:')) ifrs++;
  }
  // what identifies a version's content: period, filing, and each figure's value and provenance
  const h = createHash('sha256').update(`${v.period_start}|${v.period_end}|${v.filing.accession}|${v.currency}`);
  for (const f of entries) {
    h.update(`\n${f.metric}=${f.value}|${f.unit}|${f.source_accession}|${f.source_xbrl_concept}|${f.mapping_type}|${f.correction_rule}|${f.as_filed_value}|${f.as_filed_concept}`);
    for (const step of f.calculation_steps ?? []) h.update(`|${step.operation}:${step.value}@${step.source_accession}`);
  }
  const content_hash = h.digest('hex');
  return { built: v, accounting_standard: ifrs * 2 > entries.length ? 'IFRS' : 'US_GAAP', content_hash };
}
