import { randomUUID } from 'node:crypto';
import { sub } from '../domain/decimal.ts';
import { splitRecastOf, type StockSplit } from '../domain/statements/stock-splits.ts';
import { compareFigures } from '../domain/statements/versions.ts';
import type { CalculationEvidence } from '../domain/calculation-evidence.ts';
import type { FilingInfo } from '../domain/facts.ts';
import { packFigure, unpackFigure, type FigureContext, type StoredFigure } from './figure-storage.ts';
import type { BuiltVersion, FactRevision, SplitRecast } from '../domain/normalize/versions.ts';
import { type Db, json } from './client.ts';
import { copyRows, copyRowsBinary, type BinaryType, type CopyCell } from './copy.ts';

/** A built version ready to store, with its content hash. */
export interface VersionToStore {
  built: BuiltVersion;
  accounting_standard: string;
  content_hash: string;
  /** the filer's calculation trees checked against this version's figures; null without a calculation linkbase */
  calculation_evidence?: CalculationEvidence[] | null;
}

export interface StoredVersionRef {
  statement_version_id: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  version_sequence: number;
  content_hash: string;
  period_end: string;
}

/**
 * A version appendVersions just wrote, as its row reads back from PostgreSQL: the checks that run
 * in the same transaction (data quality, reconciliation) take it from here instead of reading it.
 * `figures` is the stored (packed) figures column; `unpackFigure` with the row as context restores
 * each figure.
 */
export interface WrittenVersion extends FigureContext {
  statement_version_id: string;
  statement_type: BuiltVersion['statement_type'];
  fiscal_year: number;
  fiscal_period: BuiltVersion['fiscal_period'];
  version_sequence: number;
  filing_date: string;
  figures: Record<string, Partial<StoredFigure>>;
  /** metric -> value of every figure, frozen: the checks share it, and judge identities on it once */
  values: Readonly<Record<string, string>>;
}

export interface WriteCounts {
  versions_added: number;
  restatements_added: number;
  diverged_statements: number;
  /** the versions written, in the order they were written */
  added: WrittenVersion[];
  /** the company's versions that were stored before (never touched) */
  stored: readonly StoredVersionRef[];
}

/** statement_versions' columns as its COPY sends them (binary: see copyRowsBinary) */
const VERSION_COLUMNS: readonly { name: string; type: BinaryType }[] = [
  { name: 'statement_version_id', type: 'uuid' }, { name: 'cik', type: 'text' }, { name: 'statement_type', type: 'text' },
  { name: 'fiscal_year', type: 'int4' }, { name: 'fiscal_period', type: 'text' }, { name: 'version_sequence', type: 'int4' },
  { name: 'period_start', type: 'date' }, { name: 'period_end', type: 'date' }, { name: 'accession', type: 'text' },
  { name: 'form', type: 'text' }, { name: 'filing_date', type: 'date' }, { name: 'accepted_at', type: 'timestamptz' },
  { name: 'currency', type: 'text' }, { name: 'accounting_standard', type: 'text' }, { name: 'figures', type: 'jsonb' },
  { name: 'content_hash', type: 'text' }, { name: 'previous_version_id', type: 'uuid' }, { name: 'ingestion_run_id', type: 'int8' },
  { name: 'calculation_evidence', type: 'jsonb' }, { name: 'metric_count', type: 'int4' }, { name: 'unavailable_figures', type: 'jsonb' },
];
const EVENT_COLUMNS = [
  'cik', 'statement_type', 'fiscal_year', 'fiscal_period', 'version_sequence', 'statement_version_id',
  'previous_version_id', 'accession', 'form', 'filing_date', 'revised_metrics',
];
const REVISION_COLUMNS = [
  'statement_version_id', 'previous_version_id', 'metric', 'old_value', 'new_value', 'difference',
  'old_accession', 'new_accession', 'old_concept', 'new_concept',
];

const RECAST_COLUMNS = [
  'statement_version_id', 'previous_version_id', 'metric', 'old_value', 'new_value', 'old_accession', 'new_accession', 'split_ratio', 'split_date', 'split_evidence',
];

const FILING_COLUMNS = [
  'accession', 'cik', 'form', 'filing_date', 'report_date', 'accepted_at', 'primary_document', 'fiscal_year_focus',
  'fiscal_period_focus', 'is_periodic', 'source', 'facts_count', 'filing_date_estimated', 'package',
] as const;
const TEXT_OID = 25;

/** Which package files a filing's facts and structure were read from (filings.package). */
export interface PackageInfo {
  folder: string;
  facts_from: 'instance' | 'inline';
  files: string[];
  linkbases: boolean;
  facts_added: number;
}

/**
 * One text array per filings column, unnested into rows by upsertFilings: no JSON document with
 * every row's keys to build and take apart again; each cell is the text its column reads (null
 * stays null). A function of its own so that V8 compiles this loop small, instead of compiling
 * (and after each deoptimization recompiling) upsertFilings whole, SQL statement included.
 */
function filingColumns(
  cik: string,
  filings: readonly FilingInfo[],
  periodic: (form: string) => boolean,
  factCounts: Map<string, number>,
  packages: ReadonlyMap<string, PackageInfo>,
): (string | null)[][] {
  const columns: (string | null)[][] = FILING_COLUMNS.map(() => []);
  for (const f of filings) {
    const pkg = packages.get(f.accession);
    const cells = [
      f.accession, cik, f.form, f.filing_date, f.report_date, f.accepted_at, f.primary_document, f.fiscal_year_focus,
      f.fiscal_period_focus, periodic(f.form), f.source, factCounts.get(f.accession) ?? 0, f.filing_date_estimated === true,
      pkg ? JSON.stringify(pkg) : null,
    ];
    for (let i = 0; i < cells.length; i++) columns[i]!.push(cellText(cells[i]));
  }
  return columns;
}

function cellText(v: string | number | boolean | null | undefined): string | null {
  return v === null || v === undefined ? null : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v);
}

export async function upsertFilings(
  tx: Db,
  cik: string,
  filings: readonly FilingInfo[],
  periodic: (form: string) => boolean,
  factCounts: Map<string, number>,
  packages: ReadonlyMap<string, PackageInfo> = new Map(),
): Promise<void> {
  const columns = filingColumns(cik, filings, periodic, factCounts, packages);
  const c = (name: (typeof FILING_COLUMNS)[number]) => tx.array(columns[FILING_COLUMNS.indexOf(name)] as string[], TEXT_OID);
  await tx`
    INSERT INTO filings (${tx([...FILING_COLUMNS])})
    SELECT * FROM unnest(${c('accession')}::text[], ${c('cik')}::char(10)[], ${c('form')}::text[], ${c('filing_date')}::date[],
      ${c('report_date')}::date[], ${c('accepted_at')}::timestamptz[], ${c('primary_document')}::text[], ${c('fiscal_year_focus')}::integer[],
      ${c('fiscal_period_focus')}::text[], ${c('is_periodic')}::boolean[], ${c('source')}::text[], ${c('facts_count')}::integer[],
      ${c('filing_date_estimated')}::boolean[], ${c('package')}::jsonb[])
    ON CONFLICT (accession) DO UPDATE SET
      cik = EXCLUDED.cik,
      form = EXCLUDED.form, filing_date = EXCLUDED.filing_date, report_date = EXCLUDED.report_date,
      accepted_at = EXCLUDED.accepted_at, primary_document = EXCLUDED.primary_document,
      fiscal_year_focus = EXCLUDED.fiscal_year_focus, fiscal_period_focus = EXCLUDED.fiscal_period_focus,
      is_periodic = EXCLUDED.is_periodic, source = EXCLUDED.source, facts_count = EXCLUDED.facts_count,
      filing_date_estimated = EXCLUDED.filing_date_estimated, package = EXCLUDED.package
    -- a filing several companies list (a co-registrant's, a reporting owner's) belongs to the lowest
    -- CIK among them, as that company sees it, whatever order the companies are ingested in
    WHERE EXCLUDED.cik <= filings.cik
      AND (filings.cik, filings.form, filings.filing_date, filings.report_date, filings.accepted_at, filings.primary_document,
           filings.fiscal_year_focus, filings.fiscal_period_focus, filings.source, filings.facts_count,
           filings.filing_date_estimated, filings.package)
      IS DISTINCT FROM (EXCLUDED.cik, EXCLUDED.form, EXCLUDED.filing_date, EXCLUDED.report_date, EXCLUDED.accepted_at, EXCLUDED.primary_document,
           EXCLUDED.fiscal_year_focus, EXCLUDED.fiscal_period_focus, EXCLUDED.source, EXCLUDED.facts_count,
           EXCLUDED.filing_date_estimated, EXCLUDED.package)`;
}

export async function storedVersionRefs(tx: Db, cik: string): Promise<StoredVersionRef[]> {
  return tx<StoredVersionRef[]>`
    SELECT statement_version_id, statement_type, fiscal_year, fiscal_period, version_sequence, content_hash, period_end
    FROM statement_versions WHERE cik = ${cik}
    ORDER BY statement_type, fiscal_year, fiscal_period, version_sequence`;
}

/** The filing dates of a company's filings by accession (of those asked for). */
async function filingDates(tx: Db, cik: string, accessions: readonly string[]): Promise<Map<string, string>> {
  const rows = await tx<{ accession: string; filing_date: string }[]>`
    SELECT accession, filing_date::text AS filing_date FROM filings
    WHERE cik = ${cik} AND accession IN (SELECT jsonb_array_elements_text(${json(tx, [...new Set(accessions)])}))`;
  return new Map(rows.map((r) => [r.accession, r.filing_date]));
}

/** A stored version's figures, and the filing date of the filing that made it. */
async function storedFigures(tx: Db, id: string): Promise<{ figures: Record<string, StoredFigure>; filing_date: string }> {
  const [row] = await tx<(FigureContext & { figures: Record<string, Partial<StoredFigure>>; filing_date: string })[]>`
    SELECT figures, period_start, period_end, accession, currency, filing_date::text AS filing_date
    FROM statement_versions WHERE statement_version_id = ${id}`;
  const out: Record<string, StoredFigure> = {};
  for (const [m, f] of Object.entries(row!.figures)) out[m] = unpackFigure(f, row!);
  return { figures: out, filing_date: row!.filing_date };
}

/**
 * Append what the built history has beyond what is stored (`refs`, the company's stored versions
 * as storedVersionRefs reads them in the same transaction). Stored versions are never touched:
 * when the stored list is a prefix of the built one (the ordinary case, and a no-op on re-runs),
 * the rest is appended. When they diverge (the normalizer changed), one version carrying the
 * built latest figures is appended on top, with revisions against the stored latest (a figure
 * recast for one of the company's stock splits, `splits`, is not one: domain/statements/stock-splits.ts).
 */
export async function appendVersions(
  tx: Db,
  cik: string,
  built: readonly VersionToStore[],
  runId: number,
  refs: readonly StoredVersionRef[],
  splits: readonly StockSplit[] = [],
): Promise<WriteCounts> {
  const stored = new Map<string, StoredVersionRef[]>();
  for (const ref of refs) {
    const key = `${ref.statement_type}|${ref.fiscal_year}|${ref.fiscal_period}`;
    const list = stored.get(key) ?? [];
    list.push(ref);
    stored.set(key, list);
  }
  const builtByKey = new Map<string, VersionToStore[]>();
  for (const v of built) {
    const key = `${v.built.statement_type}|${v.built.fiscal_year}|${v.built.fiscal_period}`;
    const list = builtByKey.get(key) ?? [];
    list.push(v);
    builtByKey.set(key, list);
  }

  // rows in column order of the COPY statements below
  const versionRows: CopyCell[][] = [];
  const eventRows: CopyCell[][] = [];
  const revisionRows: CopyCell[][] = [];
  const recastRows: CopyCell[][] = [];
  const added: WrittenVersion[] = [];
  let diverged = 0;

  const add = (v: VersionToStore, sequence: number, previousId: string | null, revisions: FactRevision[], recasts: SplitRecast[]) => {
    const id = randomUUID();
    const b = v.built;
    const ctx: FigureContext = { period_start: b.period_start, period_end: b.period_end, accession: b.filing.accession, currency: b.currency };
    const figures: Record<string, Partial<StoredFigure>> = {};
    const values: Record<string, string> = {};
    for (const [metric, f] of b.figures) {
      figures[metric] = packFigure(f, ctx);
      values[metric] = f.value;
    }
    added.push({
      statement_version_id: id, statement_type: b.statement_type, fiscal_year: b.fiscal_year, fiscal_period: b.fiscal_period,
      version_sequence: sequence, filing_date: b.filing.filing_date, ...ctx, figures, values: Object.freeze(values),
    });
    versionRows.push([
      id, cik, b.statement_type, b.fiscal_year, b.fiscal_period, sequence, b.period_start, b.period_end,
      b.filing.accession, b.filing.form, b.filing.filing_date, b.filing.accepted_at, b.currency, v.accounting_standard,
      figures, v.content_hash, previousId, runId, v.calculation_evidence ?? null, b.figures.size,
      b.unavailable.size > 0 ? [...b.unavailable.values()] : null,
    ]);
    if (previousId && revisions.length > 0) {
      eventRows.push([
        cik, b.statement_type, b.fiscal_year, b.fiscal_period, sequence, id, previousId,
        b.filing.accession, b.filing.form, b.filing.filing_date, revisions.length,
      ]);
      for (const r of revisions) {
        revisionRows.push([id, previousId, r.metric, r.old_value, r.new_value, r.difference, r.old_accession, r.new_accession, r.old_concept, r.new_concept]);
      }
    }
    if (previousId) {
      for (const r of recasts) {
        recastRows.push([id, previousId, r.metric, r.old_value, r.new_value, r.old_accession, r.new_accession, r.split.ratio, r.split.date, r.split.evidence]);
      }
    }
    return id;
  };

  for (const [key, list] of builtByKey) {
    const have = stored.get(key) ?? [];
    const isPrefix = have.length <= list.length && have.every((h, i) => h.content_hash === list[i]!.content_hash);
    if (isPrefix) {
      let previous = have[have.length - 1]?.statement_version_id ?? null;
      for (let i = have.length; i < list.length; i++) {
        previous = add(list[i]!, i + 1, previous, list[i]!.built.revisions, list[i]!.built.recasts);
      }
      continue;
    }
    const latestStored = have[have.length - 1]!;
    const latestBuilt = list[list.length - 1]!;
    if (latestStored.content_hash === latestBuilt.content_hash) continue;
    diverged++;
    const before = await storedFigures(tx, latestStored.statement_version_id);
    const filedOn = splits.length > 0 ? await filingDates(tx, cik, Object.values(before.figures).map((f) => f.source_accession)) : new Map<string, string>();
    const revisions: FactRevision[] = [];
    const recasts: SplitRecast[] = [];
    for (const [metric, f] of latestBuilt.built.figures) {
      const old = before.figures[metric];
      // the one rule of versions: only a revised figure is a revision (not the same figure told at
      // another precision, not a scale slip, not a figure the stored version lacked, not a recast
      // for a stock split, which is recorded as one)
      if (!old || compareFigures(old, f) !== 'REVISED') continue;
      // a split must fall between the filing that told the stored figure and the built one's
      const window = { after: filedOn.get(old.source_accession) ?? before.filing_date, upTo: latestBuilt.built.filing.filing_date };
      const split = splitRecastOf(old, f, splits, window);
      if (split !== null) {
        recasts.push({ metric, old_value: old.value, new_value: f.value, old_accession: old.source_accession, new_accession: f.source_accession, split });
        continue;
      }
      revisions.push({
        metric,
        old_value: old.value,
        new_value: f.value,
        difference: sub(f.value, old.value),
        old_accession: old.source_accession,
        new_accession: f.source_accession,
        old_concept: old.source_xbrl_concept ?? null,
        new_concept: f.source_xbrl_concept,
      });
    }
    add(latestBuilt, latestStored.version_sequence + 1, latestStored.statement_version_id, revisions, recasts);
  }

  // COPY: the rows stream with no JSON document for the server to take apart again; the versions,
  // tens of MB of figures per mirror run, in the binary format, which the server takes as sent
  if (versionRows.length > 0) await copyRowsBinary(tx, 'statement_versions', VERSION_COLUMNS, versionRows);
  if (eventRows.length > 0) await copyRows(tx, 'restatement_alert_events', EVENT_COLUMNS, eventRows);
  if (revisionRows.length > 0) await copyRows(tx, 'fact_revisions', REVISION_COLUMNS, revisionRows);
  if (recastRows.length > 0) await copyRows(tx, 'split_recasts', RECAST_COLUMNS, recastRows);
  return { versions_added: versionRows.length, restatements_added: eventRows.length, diverged_statements: diverged, added, stored: refs };
}
