import { CANONICAL_METRICS } from '../domain/catalog/index.ts';
import { COHERENCE_PERIODS, isAdditiveFlow, type PeriodVersion, type ToldFigure } from '../domain/statements/coherence.ts';
import type { FiscalPeriod } from '../domain/statement-types.ts';
import type { Db } from './client.ts';
import type { Visibility } from './statement-read.ts';
import { visible } from './statement-versions.ts';

/** The money flows four quarters add up to a year of: the only figures the coherence rule reads. */
const ADDITIVE = CANONICAL_METRICS.filter((m) => isAdditiveFlow(m.metric)).map((m) => m.metric);

/** A fiscal year's five periods (Q1-Q4 and FY), each its visible versions oldest first. */
export type YearVersions = Partial<Record<FiscalPeriod, PeriodVersion[]>>;

/**
 * Every version of the quarters and years of `fiscalYears` (one company, one statement type) that
 * `v` lets a read see, oldest first, with only the additive flows' values and their derivations'
 * input values: what domain/statements/coherence.ts judges. Balance sheets have none.
 */
export async function fiscalYearVersions(sql: Db, cik: string, statementType: string, fiscalYears: readonly number[], v: Visibility): Promise<Map<number, YearVersions>> {
  const out = new Map<number, YearVersions>();
  if (statementType === 'BALANCE_SHEET' || fiscalYears.length === 0) return out;
  const rows = await sql<{ fiscal_year: number; fiscal_period: FiscalPeriod; version_sequence: number; filing_date: string; figures: Record<string, { v: string; s: { value: string }[] | null }> | null }[]>`
    SELECT v.fiscal_year, v.fiscal_period, v.version_sequence, v.filing_date::text AS filing_date,
      (SELECT jsonb_object_agg(f.key, jsonb_build_object('v', f.value -> 'value', 's', f.value -> 'calculation_steps'))
        FROM jsonb_each(v.figures) f WHERE f.key IN ${sql(ADDITIVE)}) AS figures
    FROM statement_versions v
    WHERE v.cik = ${cik} AND v.statement_type = ${statementType}
      AND v.fiscal_year IN ${sql([...new Set(fiscalYears)])} AND v.fiscal_period IN ${sql([...COHERENCE_PERIODS])}
      AND ${visible(sql, v.as_of_date)} ${v.as_reported ? sql`AND v.version_sequence = 1` : sql``}
    ORDER BY v.fiscal_year, v.fiscal_period, v.version_sequence`;
  for (const r of rows) {
    let year = out.get(r.fiscal_year);
    if (!year) out.set(r.fiscal_year, (year = {}));
    const figures: Record<string, ToldFigure> = {};
    for (const [metric, f] of Object.entries(r.figures ?? {})) figures[metric] = { value: f.v, inputs: f.s ? f.s.map((s) => s.value) : null };
    (year[r.fiscal_period] ??= []).push({ fiscal_period: r.fiscal_period, version_sequence: r.version_sequence, filing_date: r.filing_date, figures });
  }
  return out;
}
