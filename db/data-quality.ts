import { randomUUID } from 'node:crypto';
import { completeEvidence, detectQualityIssues, evidenceFigures, type QualityFinding, type QualityVersion } from '../domain/data-quality.ts';
import { type Db, json } from './client.ts';
import { copyRows } from './copy.ts';
import { type FigureContext, type StoredFigure, unpackFigure } from './figure-storage.ts';
import { latestPerPeriod } from './statement-versions.ts';
import type { StoredVersionRef, WrittenVersion } from './statement-write.ts';

/**
 * Data-quality findings: computing them for a company's versions (at ingestion, and on request)
 * and recording them (tools/data-quality/queries.ts reads them back). A check on request is at most three statements whatever the number of
 * versions: one read of the values of the versions to check and of their neighbours, one read of
 * the provenance of the figures the findings name (skipped when there are none), and one write of
 * the findings, the checked versions and the run row together. The check at ingestion
 * (`checkWrittenVersions`) reads only what the transaction did not just write: neighbours stored
 * before and their provenance (both skipped when there are none), then writes the run row and
 * streams the findings and checked versions by COPY.
 */

/** Which versions a check covers. */
export type CheckScope =
  | { kind: 'ingestion'; ingestion_run_id: number }
  | { kind: 'latest'; statement_type: string | null; fiscal_year: number | null; fiscal_period: string | null };

export interface CheckSummary {
  dq_run_id: string;
  statements_checked: number;
  issues_found: number;
  issues_new: number;
  started_at: string;
  finished_at: string;
}

type LoadedRow = Omit<QualityVersion, 'values'> & { values: Record<string, string> | null; is_subject: boolean };

/**
 * The versions of `scope` (subjects) and every version of the same and the prior fiscal year of
 * their statement types (the neighbours the cross-period rules compare with), in one query.
 */
export async function loadForChecks(sql: Db, cik: string, scope: CheckScope): Promise<{ versions: QualityVersion[]; subjects: Set<string> }> {
  const subject =
    scope.kind === 'ingestion'
      ? sql`SELECT statement_version_id, statement_type, fiscal_year FROM statement_versions
            WHERE cik = ${cik} AND ingestion_run_id = ${scope.ingestion_run_id}`
      : latestPerPeriod(
          sql,
          sql`v.statement_version_id, v.statement_type, v.fiscal_year`,
          sql`v.cik = ${cik}
            ${scope.statement_type !== null ? sql`AND v.statement_type = ${scope.statement_type}` : sql``}
            ${scope.fiscal_year !== null ? sql`AND v.fiscal_year = ${scope.fiscal_year}` : sql``}
            ${scope.fiscal_period !== null ? sql`AND v.fiscal_period = ${scope.fiscal_period}` : sql``}`,
        );
  const rows = await sql<LoadedRow[]>`
    WITH subject AS (${subject}),
    span AS (
      SELECT statement_type, fiscal_year FROM subject
      UNION SELECT statement_type, fiscal_year - 1 FROM subject
    )
    SELECT v.statement_version_id, v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence,
      v.filing_date, (SELECT jsonb_object_agg(key, value -> 'value') FROM jsonb_each(v.figures)) AS values,
      -- a hashed subplan: a join on the CTE would be planned as a nested loop over it
      v.statement_version_id IN (SELECT statement_version_id FROM subject) AS is_subject
    FROM statement_versions v
    WHERE v.cik = ${cik} AND (v.statement_type, v.fiscal_year) IN (SELECT statement_type, fiscal_year FROM span)`;
  const subjects = new Set<string>();
  const versions = rows.map((r): QualityVersion => {
    if (r.is_subject) subjects.add(r.statement_version_id);
    return qualityVersion(r);
  });
  return { versions, subjects };
}

/** Provenance of the figures the findings compare, in one query, added to their evidence. */
export async function withProvenance(sql: Db, findings: QualityFinding[]): Promise<QualityFinding[]> {
  const refs = evidenceFigures(findings);
  if (refs.length === 0) return findings;
  const byRef = await storedProvenance(sql, refs);
  return completeEvidence(findings, (id, metric) => byRef.get(`${id}|${metric}`));
}

/** The stored figures `refs` name, unpacked, by `statement_version_id|metric` (absent figures are left out). */
async function storedProvenance(sql: Db, refs: { statement_version_id: string; metric: string }[]): Promise<Map<string, StoredFigure>> {
  if (refs.length === 0) return new Map();
  const rows = await sql<(FigureContext & { statement_version_id: string; metric: string; figure: Partial<StoredFigure> | null })[]>`
    SELECT r.statement_version_id, r.metric, v.figures -> r.metric AS figure, v.period_start, v.period_end, v.accession, v.currency
    FROM jsonb_to_recordset(${json(sql, refs)}) AS r(statement_version_id uuid, metric text)
    JOIN statement_versions v ON v.statement_version_id = r.statement_version_id`;
  return new Map(rows.filter((r) => r.figure).map((r) => [`${r.statement_version_id}|${r.metric}`, unpackFigure(r.figure!, r)]));
}

/** What loadForChecks reads of a version, from the version ingestion just wrote. */
function writtenQualityVersion(cik: string, v: WrittenVersion): QualityVersion {
  return {
    statement_version_id: v.statement_version_id,
    cik,
    statement_type: v.statement_type,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
    version_sequence: v.version_sequence,
    filing_date: v.filing_date,
    values: v.values,
  };
}

/**
 * The ingestion check: findings for the versions one company's ingestion just wrote (`written.added`,
 * the subjects), recorded in the same transaction. The same versions and neighbours as
 * `checkQuality` with scope `ingestion` (every version of the same and the prior fiscal year of a
 * subject's statement type), the same rules and the same rows; only the subjects are not read back:
 * their values and provenance come from what was just written, and only neighbours stored by
 * earlier ingestions are read (none on a company's first ingestion). The findings (all new: their
 * versions are) and the checked versions stream by COPY.
 */
export async function checkWrittenVersions(
  tx: Db,
  cik: string,
  runId: number,
  written: { added: readonly WrittenVersion[]; stored: readonly StoredVersionRef[] },
): Promise<CheckSummary> {
  const span = new Set<string>();
  for (const v of written.added) span.add(`${v.statement_type}|${v.fiscal_year}`).add(`${v.statement_type}|${v.fiscal_year - 1}`);
  const neighbourIds = written.stored.filter((r) => span.has(`${r.statement_type}|${r.fiscal_year}`)).map((r) => r.statement_version_id);
  const versions = written.added.map((v) => writtenQualityVersion(cik, v));
  if (neighbourIds.length > 0) versions.push(...(await loadQualityVersions(tx, cik, neighbourIds)));
  const subjects = new Set(written.added.map((v) => v.statement_version_id));
  const detected = detectQualityIssues(versions, subjects);

  const byId = new Map(written.added.map((v) => [v.statement_version_id, v]));
  const refs = evidenceFigures(detected);
  const fromStore = await storedProvenance(tx, refs.filter((r) => !byId.has(r.statement_version_id)));
  const findings = completeEvidence(detected, (id, metric) => {
    const v = byId.get(id);
    if (!v) return fromStore.get(`${id}|${metric}`);
    const f = v.figures[metric];
    return f ? unpackFigure(f, v) : undefined;
  });

  const id = randomUUID();
  // the run row first (the findings and checked versions refer to it), sent ahead of them without
  // waiting for its answer (pipelined); no finding can be on record yet (their versions were
  // written in this transaction), so every one of them is new
  const run = tx<CheckSummary[]>`
    INSERT INTO dq_runs (dq_run_id, trigger, cik, ingestion_run_id, statement_type, fiscal_year, fiscal_period,
      started_at, finished_at, statements_checked, issues_found, issues_new)
    VALUES (${id}::uuid, 'ingestion', ${cik}, ${runId}::bigint, null, null, null, now(), clock_timestamp(),
      ${subjects.size}::integer, ${findings.length}::integer, ${findings.length}::integer)
    RETURNING dq_run_id, statements_checked, issues_found, issues_new, started_at, finished_at`.execute();
  // when the insert fails, the COPYs below fail too (the transaction is aborted) and throw before
  // `run` is awaited; a handler from the start keeps its rejection from ever counting as unhandled,
  // which would end the process (postgres.js did not report one in test/dq-run-pipelined.test.ts,
  // but that rests on its internals)
  run.catch(() => {});
  if (findings.length > 0) {
    await copyRows(tx, 'dq_issues', ISSUE_COPY_COLUMNS, findings.map((f) => [
      id, f.rule_code, f.severity, f.cik, f.statement_type, f.fiscal_year, f.fiscal_period, f.version_sequence,
      f.statement_version_id, f.metric, f.message, f.evidence,
    ]));
  }
  await copyRows(tx, 'dq_run_versions', ['statement_version_id', 'dq_run_id'], [...subjects].map((v) => [v, id]));
  return (await run)[0]!;
}

const ISSUE_COPY_COLUMNS = [
  'dq_run_id', 'rule_code', 'severity', 'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'version_sequence',
  'statement_version_id', 'metric', 'message', 'evidence',
] as const;

/** Stored versions by id, read as loadForChecks reads them (values only). */
async function loadQualityVersions(sql: Db, cik: string, ids: readonly string[]): Promise<QualityVersion[]> {
  const rows = await sql<Omit<LoadedRow, 'is_subject'>[]>`
    SELECT v.statement_version_id, v.cik, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence,
      v.filing_date, (SELECT jsonb_object_agg(key, value -> 'value') FROM jsonb_each(v.figures)) AS values
    FROM statement_versions v
    WHERE v.cik = ${cik} AND v.statement_version_id IN (SELECT jsonb_array_elements_text(${json(sql, [...ids])})::uuid)`;
  return rows.map(qualityVersion);
}

/** A stored version row as the rules read it (a version without figures has no values). */
function qualityVersion(r: Omit<LoadedRow, 'is_subject'>): QualityVersion {
  return {
    statement_version_id: r.statement_version_id,
    cik: r.cik,
    statement_type: r.statement_type,
    fiscal_year: r.fiscal_year,
    fiscal_period: r.fiscal_period,
    version_sequence: r.version_sequence,
    filing_date: r.filing_date,
    values: r.values ?? {},
  };
}

/** Findings, checked versions and the run row in one statement; findings already on record are kept as they are. */
export async function recordRun(
  sql: Db,
  cik: string,
  scope: CheckScope,
  findings: QualityFinding[],
  subjects: Set<string>,
): Promise<CheckSummary> {
  const id = randomUUID();
  const named = scope.kind === 'latest' ? scope : { statement_type: null, fiscal_year: null, fiscal_period: null };
  const [run] = await sql<CheckSummary[]>`
    WITH issues AS (
      INSERT INTO dq_issues (dq_run_id, rule_code, severity, cik, statement_type, fiscal_year, fiscal_period,
        version_sequence, statement_version_id, metric, message, evidence)
      SELECT ${id}::uuid, rule_code, severity, cik, statement_type, fiscal_year, fiscal_period, version_sequence,
        statement_version_id, metric, message, evidence
      FROM jsonb_to_recordset(${json(sql, findings)}) AS r(
        rule_code text, severity text, cik char(10), statement_type text, fiscal_year integer, fiscal_period text,
        version_sequence integer, statement_version_id uuid, metric text, message text, evidence jsonb)
      ON CONFLICT ON CONSTRAINT dq_issues_finding_key DO NOTHING
      RETURNING 1
    ), checked AS (
      INSERT INTO dq_run_versions (statement_version_id, dq_run_id)
      SELECT value::uuid, ${id}::uuid FROM jsonb_array_elements_text(${json(sql, [...subjects])})
    )
    INSERT INTO dq_runs (dq_run_id, trigger, cik, ingestion_run_id, statement_type, fiscal_year, fiscal_period,
      started_at, finished_at, statements_checked, issues_found, issues_new)
    SELECT ${id}::uuid, ${scope.kind === 'ingestion' ? 'ingestion' : 'request'}, ${cik},
      ${scope.kind === 'ingestion' ? scope.ingestion_run_id : null}::bigint,
      ${named.statement_type}::text, ${named.fiscal_year}::integer, ${named.fiscal_period}::text,
      now(), clock_timestamp(), ${subjects.size}::integer, ${findings.length}::integer, (SELECT count(*)::int FROM issues)
    RETURNING dq_run_id, statements_checked, issues_found, issues_new, started_at, finished_at`;
  return run!;
}

/**
 * Checks what `scope` names for one company and records the findings. Call it inside the
 * transaction that wrote the versions (ingestion) or in its own (a request).
 */
export async function checkQuality(sql: Db, cik: string, scope: CheckScope): Promise<CheckSummary> {
  const { versions, subjects } = await loadForChecks(sql, cik, scope);
  const findings = await withProvenance(sql, detectQualityIssues(versions, subjects));
  return recordRun(sql, cik, scope, findings, subjects);
}
