import { CANONICAL_METRIC_NAMES } from '../domain/catalog/index.ts';
import { addDays } from '../domain/dates.ts';
import { type LedgerEntry, reconcileVersions, RECONCILIATION_METRICS, type StatementSnapshot } from '../domain/reconciliation/index.ts';
import { type Db, type Fragment, json } from './client.ts';
import { copyRows } from './copy.ts';
import { type FigureContext, type StoredFigure, unpackFigure } from './figure-storage.ts';
import type { StoredVersionRef, WrittenVersion } from './statement-write.ts';

/**
 * Days before the earliest added period end that related statements are loaded from: the longest
 * reach of a rule is the balance sheet a year (52 or 53 weeks) before a fiscal year's end.
 */
const RELATED_WINDOW_DAYS = 400;

/** Catalog metrics no rule reads, left out of the read (a key subtraction is cheaper than picking keys). */
const UNREAD_METRICS = CANONICAL_METRIC_NAMES.filter((m) => !RECONCILIATION_METRICS.includes(m));

type LoadedRow = Omit<StatementSnapshot, 'figures'> &
  FigureContext & { added: boolean; figures: Record<string, Partial<StoredFigure>> };

/**
 * Reconciles the versions one company's ingestion just wrote (`written.added`) and stores their
 * ledger rows, inside the ingestion transaction. The same statements as a read of the stored
 * versions would give (every version whose period ends within RELATED_WINDOW_DAYS before the
 * earliest added period end and the latest), the same rules and rows; only the added versions are
 * not read back: they come from what was just written, and only versions stored by earlier
 * ingestions are read (none on a company's first ingestion). The rows (all new: their versions
 * are) stream by COPY.
 */
export async function reconcileWrittenVersions(
  tx: Db,
  cik: string,
  written: { added: readonly WrittenVersion[]; stored: readonly StoredVersionRef[] },
): Promise<number> {
  if (written.added.length === 0) return 0;
  let lo = written.added[0]!.period_end;
  let hi = lo;
  for (const v of written.added) {
    if (v.period_end < lo) lo = v.period_end;
    if (v.period_end > hi) hi = v.period_end;
  }
  lo = addDays(lo, -RELATED_WINDOW_DAYS);
  const added = written.added.map(writtenSnapshot);
  const relatedIds = written.stored.filter((r) => r.period_end >= lo && r.period_end <= hi).map((r) => r.statement_version_id);
  const all = relatedIds.length === 0 ? added : [...added, ...(await loadSnapshots(tx, cik, tx`statement_version_id IN (SELECT jsonb_array_elements_text(${json(tx, relatedIds)})::uuid)`)).all];
  const rows = ledgerRows(cik, added, all);
  if (rows.length === 0) return 0;
  return copyRows(tx, 'reconciliation_results', LEDGER_COLUMNS, rows.map((r) => LEDGER_COLUMNS.map((c) => r[c])));
}

const LEDGER_COLUMNS = [
  'statement_version_id', 'rule_id', 'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'version_sequence',
  'rule_category', 'status', 'severity', 'expected_value', 'actual_value', 'delta', 'notes',
] as const;

/** A written version as `loadSnapshots` reads it: the row's fields, the figures rules read, unpacked. */
function writtenSnapshot(v: WrittenVersion): StatementSnapshot {
  const figures: StatementSnapshot['figures'] = {};
  for (const metric in v.figures) if (!UNREAD.has(metric)) figures[metric] = unpackFigure(v.figures[metric]!, v);
  return {
    statement_version_id: v.statement_version_id,
    statement_type: v.statement_type,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
    version_sequence: v.version_sequence,
    period_start: v.period_start,
    period_end: v.period_end,
    filing_date: v.filing_date,
    figures,
    values: v.values,
  };
}
const UNREAD = new Set(UNREAD_METRICS);

/**
 * Reconciles the stored versions `subject` selects (a condition on statement_versions) and records
 * their ledger rows; rows already on record stay as they are. Returns the rows added.
 */
export async function reconcile(tx: Db, cik: string, subject: Fragment): Promise<number> {
  const results = await storedLedgerRows(tx, cik, subject);
  if (results.length === 0) return 0;
  const inserted = await tx`
    INSERT INTO reconciliation_results (statement_version_id, rule_id, cik, statement_type, fiscal_year, fiscal_period,
      version_sequence, rule_category, status, severity, expected_value, actual_value, delta, notes)
    SELECT statement_version_id, rule_id, cik, statement_type, fiscal_year, fiscal_period, version_sequence,
      rule_category, status, severity, expected_value, actual_value, delta, notes
    FROM jsonb_to_recordset(${json(tx, results)}) AS r(
      statement_version_id uuid, rule_id text, cik char(10), statement_type text, fiscal_year integer,
      fiscal_period text, version_sequence integer, rule_category text, status text, severity text,
      expected_value numeric, actual_value numeric, delta numeric, notes jsonb)
    ON CONFLICT (statement_version_id, rule_id) DO NOTHING`;
  // rows already on record (a re-run) are not counted
  return inserted.count;
}

/**
 * The ledger rows of the stored versions `subject` selects (a condition on statement_versions),
 * each judged against the company's stored versions whose period ends within RELATED_WINDOW_DAYS
 * before the earliest subject's and the latest subject's: what reconciling them reads and computes,
 * nothing written.
 */
export async function storedLedgerRows(tx: Db, cik: string, subject: Fragment): Promise<ReturnType<typeof ledgerRow>[]> {
  const { all, added } = await loadSnapshots(tx, cik, subject, true);
  return ledgerRows(cik, added, all);
}

function ledgerRows(cik: string, subjects: readonly StatementSnapshot[], all: readonly StatementSnapshot[]) {
  return reconcileVersions(subjects, all).flatMap(({ subject, entries }) => entries.map((e) => ledgerRow(cik, subject, e)));
}

/**
 * Stored versions as the rules see them (only the figures rules read). With `window`, the versions
 * `subject` selects (`added`) and every version whose period ends within the window around them
 * (`all`); without, just those `subject` selects.
 */
async function loadSnapshots(tx: Db, cik: string, subject: Fragment, window = false): Promise<{ all: StatementSnapshot[]; added: StatementSnapshot[] }> {
  const rows = window
    ? await tx<LoadedRow[]>`
      WITH span AS (
        SELECT min(period_end) - ${RELATED_WINDOW_DAYS}::int AS lo, max(period_end) AS hi
        FROM statement_versions WHERE cik = ${cik} AND ${subject}
      )
      SELECT v.statement_version_id, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence,
        v.period_start, v.period_end, v.filing_date, v.accession, v.currency,
        coalesce((${subject}), false) AS added,
        v.figures - ${UNREAD_METRICS}::text[] AS figures
      FROM statement_versions v, span
      WHERE v.cik = ${cik} AND v.period_end BETWEEN span.lo AND span.hi`
    : await tx<LoadedRow[]>`
      SELECT v.statement_version_id, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence,
        v.period_start, v.period_end, v.filing_date, v.accession, v.currency, true AS added,
        v.figures - ${UNREAD_METRICS}::text[] AS figures
      FROM statement_versions v
      WHERE v.cik = ${cik} AND ${subject}`;
  const all: StatementSnapshot[] = [];
  const added: StatementSnapshot[] = [];
  for (const r of rows) {
    const figures: StatementSnapshot['figures'] = {};
    for (const [metric, f] of Object.entries(r.figures)) figures[metric] = unpackFigure(f, r);
    const snapshot: StatementSnapshot = {
      statement_version_id: r.statement_version_id,
      statement_type: r.statement_type,
      fiscal_year: r.fiscal_year,
      fiscal_period: r.fiscal_period,
      version_sequence: r.version_sequence,
      period_start: r.period_start,
      period_end: r.period_end,
      filing_date: r.filing_date,
      figures,
    };
    all.push(snapshot);
    if (r.added) added.push(snapshot);
  }
  return { all, added };
}

function ledgerRow(cik: string, s: StatementSnapshot, e: LedgerEntry) {
  return {
    statement_version_id: s.statement_version_id,
    rule_id: e.rule_id,
    cik,
    statement_type: s.statement_type,
    fiscal_year: s.fiscal_year,
    fiscal_period: s.fiscal_period,
    version_sequence: s.version_sequence,
    rule_category: e.rule_category,
    status: e.status,
    severity: e.severity,
    expected_value: e.expected_value,
    actual_value: e.actual_value,
    delta: e.delta,
    notes: e.notes,
  };
}