import { COHERENCE_PERIODS } from './coherence.ts';
import { isKnowableAt, latestKnowable } from './visibility.ts';

/**
 * One company's statement versions held in memory (api/company-versions.ts keeps them per
 * instance until statement_versions changes), and the version-selection rules of
 * db/statement-versions.ts answered over them: the latest version per period among those a filter
 * keeps, what a date could see, the versions coherence judges. Each method returns what the SQL
 * read it stands for returns, in the same order, so a read answers the same from either.
 */

/** What the rules read of a version. */
export interface IndexedVersion {
  statement_version_id: string;
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  version_sequence: number;
  period_end: string;
  filing_date: string;
}

/** A fiscal period with the latest period end of its versions. */
export interface PeriodEnd<P extends string = string> {
  fiscal_year: number;
  fiscal_period: P;
  period_end: string;
}

const TYPE_RANK: Readonly<Record<string, number>> = { INCOME_STATEMENT: 1, BALANCE_SHEET: 2 };
const typeRank = (t: string) => TYPE_RANK[t] ?? 3;
const fyLast = (p: string) => (p === 'FY' ? 1 : 0);
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
const COHERENCE = new Set<string>(COHERENCE_PERIODS);

export class CompanyVersions<T extends IndexedVersion> {
  /** the versions of each statement (type, fiscal year, fiscal period), oldest first, statements in identity order */
  readonly statements: readonly (readonly T[])[];

  private readonly byKey: ReadonlyMap<string, readonly T[]>;

  /** the statements of each type, in identity order */
  private readonly byType: ReadonlyMap<string, readonly (readonly T[])[]>;

  /** the statements of each fiscal period (any type), for visiblePeriods */
  private readonly byPeriod: readonly { fiscal_year: number; fiscal_period: T['fiscal_period']; versions: readonly T[] }[];

  constructor(versions: readonly T[]) {
    const byKey = new Map<string, T[]>();
    for (const v of versions) {
      const key = `${v.statement_type}|${v.fiscal_year}|${v.fiscal_period}`;
      let list = byKey.get(key);
      if (!list) byKey.set(key, (list = []));
      list.push(v);
    }
    const lists = [...byKey.values()];
    for (const l of lists) l.sort((a, b) => a.version_sequence - b.version_sequence);
    lists.sort((a, b) => cmp(a[0]!.statement_type, b[0]!.statement_type) || a[0]!.fiscal_year - b[0]!.fiscal_year || cmp(a[0]!.fiscal_period, b[0]!.fiscal_period));
    this.statements = lists;
    this.byKey = byKey;
    const periods = new Map<string, { fiscal_year: number; fiscal_period: T['fiscal_period']; versions: T[] }>();
    for (const list of lists) {
      const first = list[0]!;
      const key = `${first.fiscal_year}|${first.fiscal_period}`;
      let p = periods.get(key);
      if (!p) periods.set(key, (p = { fiscal_year: first.fiscal_year, fiscal_period: first.fiscal_period, versions: [] }));
      p.versions.push(...list);
    }
    this.byPeriod = [...periods.values()];
    const byType = new Map<string, T[][]>();
    for (const list of lists) {
      const t = list[0]!.statement_type;
      let of = byType.get(t);
      if (!of) byType.set(t, (of = []));
      of.push(list);
    }
    this.byType = byType;
  }

  /** `latestVersionOf` one statement: its highest version_sequence filed by `asOf` (any, when null); null when there is none. */
  latestOf(id: { statement_type: string; fiscal_year: number; fiscal_period: string }, asOf: string | null): T | null {
    const list = this.byKey.get(`${id.statement_type}|${id.fiscal_year}|${id.fiscal_period}`) ?? [];
    return asOf === null ? (list[list.length - 1] ?? null) : latestKnowable(list, asOf);
  }

  /**
   * `latestPerPeriod`: per statement, the highest version_sequence among the versions `keep` keeps;
   * statements in identity order. `types`: only statements of these types are looked at (`keep`
   * must then keep no other type).
   */
  latest(keep: (v: T) => boolean, types?: readonly string[]): T[] {
    const out: T[] = [];
    const lists = types === undefined ? this.statements : types.length === 1 ? (this.byType.get(types[0]!) ?? []) : this.statements.filter((l) => types.includes(l[0]!.statement_type));
    for (const list of lists) {
      for (let i = list.length - 1; i >= 0; i--) {
        if (keep(list[i]!)) {
          out.push(list[i]!);
          break;
        }
      }
    }
    return out;
  }

  /** Every period with a version filed on or before `asOf`, newest period end first (then fiscal year, newest first). */
  visiblePeriods(asOf: string): PeriodEnd<T['fiscal_period']>[] {
    const out: PeriodEnd<T['fiscal_period']>[] = [];
    for (const p of this.byPeriod) {
      let end: string | null = null;
      for (const v of p.versions) if (isKnowableAt(v.filing_date, asOf) && (end === null || v.period_end > end)) end = v.period_end;
      if (end !== null) out.push({ fiscal_year: p.fiscal_year, fiscal_period: p.fiscal_period, period_end: end });
    }
    return out.sort((a, b) => cmp(b.period_end, a.period_end) || b.fiscal_year - a.fiscal_year || cmp(a.fiscal_period, b.fiscal_period));
  }

  /** The latest version of each statement type of the named periods visible on `asOf`: newest period end first, FY first, then income statement, balance sheet, cash flow. */
  latestAsOf(asOf: string, periods: readonly { fiscal_year: number; fiscal_period: string }[]): T[] {
    const wanted = new Set(periods.map((p) => `${p.fiscal_year}|${p.fiscal_period}`));
    return this.latest((v) => wanted.has(`${v.fiscal_year}|${v.fiscal_period}`) && isKnowableAt(v.filing_date, asOf)).sort(
      (a, b) => cmp(b.period_end, a.period_end) || fyLast(b.fiscal_period) - fyLast(a.fiscal_period) || typeRank(a.statement_type) - typeRank(b.statement_type),
    );
  }

  /**
   * The versions coherence judges (db/coherence-read.ts): the quarters and years of `fiscalYears`
   * of the money-flow statement types among `types`, those a read sees (filed by `asOf` when given;
   * only first versions when `asReported`), by statement type, fiscal year, fiscal period, oldest first.
   */
  seenForCoherence(types: readonly string[], fiscalYears: readonly number[], asOf: string | null, asReported: boolean): T[] {
    const typeSet = new Set(types.filter((t) => t !== 'BALANCE_SHEET'));
    const years = new Set(fiscalYears);
    const out: T[] = [];
    for (const list of this.statements) {
      const first = list[0]!;
      if (!typeSet.has(first.statement_type) || !years.has(first.fiscal_year) || !COHERENCE.has(first.fiscal_period)) continue;
      for (const v of list) {
        if (asOf !== null && !isKnowableAt(v.filing_date, asOf)) continue;
        if (asReported && v.version_sequence !== 1) continue;
        out.push(v);
      }
    }
    return out;
  }

  /** The periods on record for a statement type, newest fiscal year first (then by period name), at most `limit`. */
  periodsOf(statementType: string, limit: number): { fiscal_year: number; fiscal_period: string }[] {
    return this.statements
      .filter((l) => l[0]!.statement_type === statementType)
      .map((l) => ({ fiscal_year: l[0]!.fiscal_year, fiscal_period: l[0]!.fiscal_period }))
      .sort((a, b) => b.fiscal_year - a.fiscal_year || cmp(a.fiscal_period, b.fiscal_period))
      .slice(0, limit);
  }
}

/** Panel order: by company, period end, fiscal year, quarters before the year ending the same day. */
export function panelOrder(a: IndexedVersion & { cik: string }, b: IndexedVersion & { cik: string }): number {
  return cmp(a.cik, b.cik) || cmp(a.period_end, b.period_end) || a.fiscal_year - b.fiscal_year || fyLast(a.fiscal_period) - fyLast(b.fiscal_period) || cmp(a.fiscal_period, b.fiscal_period);
}
