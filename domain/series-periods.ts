/**
 * Fiscal periods assembled from statement rows: the income statement, balance sheet and cash-flow
 * statement of one (cik, fiscal_year, fiscal_period), each the latest version, so a bundle, a view
 * or a derived metric reads every statement type of the period at once. Pure: rows in, periods out.
 *
 * - Q4 is never filed: its flows are derived rows, and its balance sheet is the fiscal-year-end
 *   balance sheet (same instant), taken from the FY row when the period ends agree.
 * - The opening balance of a period is the balance sheet whose period end falls in the two weeks
 *   before the period's start (the previous quarter end or fiscal year end; 52/53-week calendars
 *   leave a day or more between them).
 */
import type { VersionKey } from './statements/version-ref.ts';
import type { StatementType } from './catalog/index.ts';
import { periodDays, type PeriodFigures } from './derived-eval.ts';
import type { FiscalPeriod } from './statement-types.ts';

export interface SeriesFigure {
  /** decimal string */
  v: string;
  /** value_origin DERIVED: a derived Q4 or a discrete quarter computed from year-to-date figures */
  d: boolean;
}

export interface StatementRow extends VersionKey {
  cik: string;
  statement_type: StatementType;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  period_start: string | null;
  period_end: string;
  currency: string | null;
  accounting_standard: string;
  accession: string;
  filing_date: string;
  figures: Record<string, SeriesFigure>;
}

export interface PeriodGroup {
  cik: string;
  fiscal_year: number;
  fiscal_period: FiscalPeriod;
  period_start: string | null;
  period_end: string;
  currency: string | null;
  accounting_standard: string;
  /** the statements read for the period; a Q4 balance sheet is the FY one */
  statements: Partial<Record<StatementType, StatementRow>>;
  /** the balance sheet at the previous period end, when on record */
  opening: StatementRow | null;
}

const OPENING_WINDOW_DAYS = 14;
const TYPE_ORDER: StatementType[] = ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT', 'BALANCE_SHEET'];

function shiftDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Order of points: by cik, then period end, quarters before the fiscal year ending the same day. */
export function comparePoints(
  a: { cik: string; period_end: string; fiscal_year: number; fiscal_period: string },
  b: { cik: string; period_end: string; fiscal_year: number; fiscal_period: string },
): number {
  const fy = (p: string) => (p === 'FY' ? 1 : 0);
  return (
    a.cik.localeCompare(b.cik) ||
    a.period_end.localeCompare(b.period_end) ||
    a.fiscal_year - b.fiscal_year ||
    fy(a.fiscal_period) - fy(b.fiscal_period) ||
    a.fiscal_period.localeCompare(b.fiscal_period)
  );
}

/**
 * Groups rows into periods. Only periods for which one of `anchorTypes` has a row become groups
 * (a balance sheet alone makes no Q4). Ordered by `comparePoints`.
 */
export function groupPeriods(rows: readonly StatementRow[], anchorTypes: readonly StatementType[] = TYPE_ORDER): PeriodGroup[] {
  const byKey = new Map<string, Partial<Record<StatementType, StatementRow>>>();
  const balanceSheets = new Map<string, StatementRow[]>();
  for (const r of rows) {
    const key = `${r.cik}|${r.fiscal_year}|${r.fiscal_period}`;
    const entry = byKey.get(key) ?? {};
    entry[r.statement_type] = r;
    byKey.set(key, entry);
    if (r.statement_type === 'BALANCE_SHEET') {
      const list = balanceSheets.get(r.cik) ?? [];
      list.push(r);
      balanceSheets.set(r.cik, list);
    }
  }
  const groups: PeriodGroup[] = [];
  for (const [key, statements] of byKey) {
    if (!anchorTypes.some((t) => statements[t])) continue;
    const [cik, year, period] = key.split('|') as [string, string, FiscalPeriod];
    const lead = TYPE_ORDER.map((t) => statements[t]).find((r) => r !== undefined)!;
    const duration = statements.INCOME_STATEMENT ?? statements.CASH_FLOW_STATEMENT;
    const periodEnd = lead.period_end;
    if (period === 'Q4' && !statements.BALANCE_SHEET) {
      const yearEnd = byKey.get(`${cik}|${year}|FY`)?.BALANCE_SHEET;
      if (yearEnd && Math.abs(periodDays(yearEnd.period_end, periodEnd) - 1) <= 7) statements.BALANCE_SHEET = yearEnd;
    }
    const start = duration?.period_start ?? null;
    let opening: StatementRow | null = null;
    if (start) {
      const earliest = shiftDays(start, -OPENING_WINDOW_DAYS);
      for (const bs of balanceSheets.get(cik) ?? []) {
        if (bs.period_end < start && bs.period_end >= earliest && (!opening || bs.period_end > opening.period_end)) opening = bs;
      }
    }
    groups.push({
      cik,
      fiscal_year: Number(year),
      fiscal_period: period,
      period_start: start,
      period_end: periodEnd,
      currency: lead.currency,
      accounting_standard: lead.accounting_standard,
      statements,
      opening,
    });
  }
  return groups.sort(comparePoints);
}

/** Every figure of the period's statements, metric -> figure. */
export function closingFigures(g: PeriodGroup): Record<string, SeriesFigure> {
  const out: Record<string, SeriesFigure> = {};
  for (const t of TYPE_ORDER) Object.assign(out, g.statements[t]?.figures ?? {});
  return out;
}

/** The period's figures as the derived-metric evaluator reads them. */
export function periodFigures(g: PeriodGroup): PeriodFigures {
  const closing: Record<string, string> = {};
  for (const [m, f] of Object.entries(closingFigures(g))) closing[m] = f.v;
  const opening: Record<string, string> = {};
  for (const [m, f] of Object.entries(g.opening?.figures ?? {})) opening[m] = f.v;
  return {
    fiscal_period: g.fiscal_period,
    days: g.period_start ? periodDays(g.period_start, g.period_end) : null,
    closing,
    opening,
  };
}
