import { CANONICAL_METRICS } from '../domain/catalog/index.ts';
import type { CompanyVersions, IndexedVersion } from '../domain/statements/company-versions.ts';
import { COHERENCE_PERIODS, isAdditiveFlow, yearCoherence, type PeriodVersion, type QuarterCoherence, type ToldFigure } from '../domain/statements/coherence.ts';
import type { FiscalPeriod } from '../domain/statement-types.ts';
import type { Db } from './client.ts';
import type { Visibility } from './statement-read.ts';
import { visible } from './statement-versions.ts';
import { versionMemo } from './version-memo.ts';

/** The money flows four quarters add up to a year of: the only figures the coherence rule reads. */
const ADDITIVE = CANONICAL_METRICS.filter((m) => isAdditiveFlow(m.metric)).map((m) => m.metric);

/** A fiscal year's five periods (Q1-Q4 and FY), each its visible versions oldest first. */
export type YearVersions = Partial<Record<FiscalPeriod, PeriodVersion[]>>;

type ToldFigures = Readonly<Record<string, ToldFigure>>;

/** The additive flows of each version read so far, by version id (db/version-memo.ts). */
const toldMemo = versionMemo<ToldFigures>(50_000);

function toldFigures(sql: Db, ids: readonly string[]): Promise<(ToldFigures | undefined)[]> {
  return toldMemo(sql, ids, async (missing) => {
    const rows = await sql<{ statement_version_id: string; figures: Record<string, { v: string; s: { value: string }[] | null }> | null }[]>`
      SELECT v.statement_version_id,
        (SELECT jsonb_object_agg(f.key, jsonb_build_object('v', f.value -> 'value', 's', f.value -> 'calculation_steps'))
          FROM jsonb_each(v.figures) f WHERE f.key IN ${sql(ADDITIVE)}) AS figures
      FROM statement_versions v WHERE v.statement_version_id IN ${sql(missing)}`;
    return rows.map((r) => {
      const figures: Record<string, ToldFigure> = {};
      for (const [metric, f] of Object.entries(r.figures ?? {})) figures[metric] = Object.freeze({ value: f.v, inputs: f.s ? Object.freeze(f.s.map((s) => s.value)) : null });
      return [r.statement_version_id, Object.freeze(figures)] as const;
    });
  });
}

/**
 * Every version of the quarters and years of `fiscalYears` (one company; by statement type) that
 * `v` lets a read see, oldest first, with only the additive flows' values and their derivations'
 * input values (what domain/statements/coherence.ts judges), and each year's version ids in that
 * order. Balance sheets have none. With the company's index (api/company-versions.ts) the versions
 * are picked from it instead of by a query.
 */
type SeenYears = Map<number, { periods: YearVersions; ids: string[] }>;

async function yearsSeen(sql: Db, cik: string, statementTypes: readonly string[], fiscalYears: readonly number[], v: Visibility, index: CompanyVersions<IndexedVersion & { fiscal_period: FiscalPeriod }> | null): Promise<Map<string, SeenYears>> {
  const out = new Map<string, SeenYears>();
  const types = [...new Set(statementTypes)].filter((t) => t !== 'BALANCE_SHEET');
  if (types.length === 0 || fiscalYears.length === 0) return out;
  const rows = index ? index.seenForCoherence(types, fiscalYears, v.as_of_date, v.as_reported) : await sql<{ statement_version_id: string; statement_type: string; fiscal_year: number; fiscal_period: FiscalPeriod; version_sequence: number; filing_date: string }[]>`
    SELECT v.statement_version_id, v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence, v.filing_date::text AS filing_date
    FROM statement_versions v
    WHERE v.cik = ${cik} AND v.statement_type IN ${sql(types)}
      AND v.fiscal_year IN ${sql([...new Set(fiscalYears)])} AND v.fiscal_period IN ${sql([...COHERENCE_PERIODS])}
      AND ${visible(sql, v.as_of_date)} ${v.as_reported ? sql`AND v.version_sequence = 1` : sql``}
    ORDER BY v.statement_type, v.fiscal_year, v.fiscal_period, v.version_sequence`;
  const told = await toldFigures(sql, rows.map((r) => r.statement_version_id));
  for (const [i, r] of rows.entries()) {
    let years = out.get(r.statement_type);
    if (!years) out.set(r.statement_type, (years = new Map()));
    let year = years.get(r.fiscal_year);
    if (!year) years.set(r.fiscal_year, (year = { periods: {}, ids: [] }));
    const figures = told[i] ?? {};
    (year.periods[r.fiscal_period] ??= []).push({ fiscal_period: r.fiscal_period, version_sequence: r.version_sequence, filing_date: r.filing_date, figures });
    year.ids.push(r.statement_version_id);
  }
  return out;
}

/** Marks judged so far, by fiscal year and the ids of the versions judged (immutable inputs, so a fixed answer); per client, bounded. */
const MAX_MARKS = 20_000;
const marksByClient = new WeakMap<Db, Map<string, ReadonlyMap<string, QuarterCoherence>>>();

/**
 * The coherence marks (domain/statements/coherence.ts yearCoherence) of each of `fiscalYears` that
 * has versions, by statement type, judged over the versions `v` lets a read see (one query for all
 * the types). A year's marks are a function of the versions seen alone, so they are judged once per
 * set of versions and kept.
 */
export async function fiscalYearMarks(
  sql: Db,
  cik: string,
  statementTypes: readonly string[],
  fiscalYears: readonly number[],
  v: Visibility,
  index: CompanyVersions<IndexedVersion & { fiscal_period: FiscalPeriod }> | null = null,
): Promise<Map<string, Map<number, ReadonlyMap<string, QuarterCoherence>>>> {
  let memo = marksByClient.get(sql);
  if (!memo) marksByClient.set(sql, (memo = new Map()));
  const out = new Map<string, Map<number, ReadonlyMap<string, QuarterCoherence>>>();
  for (const [type, years] of await yearsSeen(sql, cik, statementTypes, fiscalYears, v, index)) {
    const marksOfType = new Map<number, ReadonlyMap<string, QuarterCoherence>>();
    for (const [fy, year] of years) {
      const key = `${fy}|${year.ids.join(',')}`;
      let marks = memo.get(key);
      if (marks === undefined) {
        marks = yearCoherence(fy, year.periods);
        memo.set(key, marks);
        if (memo.size > MAX_MARKS) memo.delete(memo.keys().next().value!);
      }
      marksOfType.set(fy, marks);
    }
    out.set(type, marksOfType);
  }
  return out;
}
