import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { SnapshotFigure } from '../../domain/ai/snapshot-view.ts';
import { catalogView } from '../../domain/normalize/catalog-view.ts';
import { buildStatementHistory } from '../../domain/normalize/history.ts';
import { statementKey, type BuiltVersion } from '../../domain/normalize/versions.ts';
import { stableUuid } from '../../domain/stable-id.ts';
import { filingsFromFacts, filingsFromSubmissions, mergeFilings, readCompanyFacts } from '../../ingest/companyfacts.ts';
import { openSecSource } from '../../ingest/source.ts';
import { readSubmissions } from '../../ingest/submissions.ts';
import { SHARED_SEC } from './shared-data.ts';

/**
 * Snapshot-shaped rows for pure tests, built from the ../shared/sec corpus by the real
 * normalization pipeline (companyfacts + submissions -> statement history) without a database:
 * for each statement, the latest version filed on or before `asOf`, one row per figure, exactly
 * the fields of the spec's snapshot build rows the AI generators read. statement_version_id is a
 * stable id of (cik, statement, version_sequence), so two builds give the same rows.
 */
const source = openSecSource(SHARED_SEC);
const catalog = catalogView();

export interface CorpusCompany {
  cik: string;
  name: string;
  sic: string | null;
  rows: SnapshotFigure[];
  /** every version of the history (not only those of the snapshot), each with its stable id */
  versions: { statement_version_id: string; version: BuiltVersion }[];
}

/** The stable test id of a version. */
export function versionId(cik: string, v: Pick<BuiltVersion, 'statement_type' | 'fiscal_year' | 'fiscal_period' | 'version_sequence'>): string {
  return stableUuid('test-statement-version', [cik, statementKey(v), String(v.version_sequence)]);
}

const cache = new Map<string, Promise<CorpusCompany>>();

/** Every CIK the mirror holds companyfacts for. */
export function corpusCiks(): string[] {
  return readdirSync(path.join(SHARED_SEC, 'data.sec.gov/api/xbrl/companyfacts'))
    .map((f) => /^CIK(\d{10})\.json$/.exec(f)?.[1])
    .filter((c): c is string => c !== undefined)
    .sort();
}

async function build(cik: string, asOf: string): Promise<CorpusCompany> {
  const [facts, submissions] = await Promise.all([readCompanyFacts(source, cik), readSubmissions(source, cik)]);
  if (!facts) throw new Error(`no companyfacts for ${cik}`);
  const filings = mergeFilings(submissions ? filingsFromSubmissions(submissions.filings) : [], filingsFromFacts(facts.facts));
  const history = buildStatementHistory(
    { cik, facts: facts.facts, filings, fiscal_year_end: submissions?.profile.fiscalYearEnd ?? null },
    catalog,
  );
  const latest = new Map<string, (typeof history.versions)[number]>();
  for (const v of history.versions) {
    if (v.filing.filing_date > asOf) continue;
    const k = statementKey(v);
    const seen = latest.get(k);
    if (!seen || seen.version_sequence < v.version_sequence) latest.set(k, v);
  }
  const rows: SnapshotFigure[] = [];
  for (const [, v] of [...latest.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const id = versionId(cik, v);
    for (const [metric, f] of [...v.figures.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      rows.push({
        statement_type: v.statement_type,
        metric_name: metric,
        metric_value: f.value,
        statement_date: v.period_end,
        period_start: v.period_start,
        fiscal_year: v.fiscal_year,
        fiscal_period: v.fiscal_period,
        statement_version_id: id,
      });
    }
  }
  const versions = history.versions.filter((v) => v.filing.filing_date <= asOf).map((version) => ({ statement_version_id: versionId(cik, version), version }));
  return { cik, name: submissions?.profile.name ?? facts.entityName ?? cik, sic: submissions?.profile.sic ?? null, rows, versions };
}

/** One company's snapshot rows as of a date (cached per process). */
export function corpusSnapshotRows(cik: string, asOf: string): Promise<CorpusCompany> {
  const k = `${cik}|${asOf}`;
  let p = cache.get(k);
  if (!p) {
    p = build(cik, asOf);
    cache.set(k, p);
  }
  return p;
}
