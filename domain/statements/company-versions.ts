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

/** What `latestWhere` keeps: every bound optional (null or absent: unbounded). */
export interface VersionFilter {
  /** statement types looked at */
  types: readonly string[];
  fiscalPeriods?: readonly string[] | null;
  fiscalYearFrom?: number | null;
  fiscalYearTo?: number | null;
  /** period end bounds, inclusive */
  periodEndFrom?: string | null;
  periodEndTo?: string | null;
  /** only versions knowable on this date */
  asOf?: string | null;
  /** only first versions */
  asReported?: boolean;
}

/** A statement (type, fiscal year, fiscal period) with the bounds of its versions' period ends. */
interface Statement<T> {
  fiscal_year: number;
  fiscal_period: string;
  versions: readonly T[];
  minEnd: string;
  maxEnd: string;
}

/** Values derived from the versions alone, kept per index (a few kinds of read, each a few hundred keys per company). */
const MAX_DERIVED = 4_096;

export class CompanyVersions<T extends IndexedVersion> {
  /** the versions of each statement (type, fiscal year, fiscal period), oldest first, statements in identity order */
  readonly statements: readonly (readonly T[])[];

  private readonly byKey: ReadonlyMap<string, readonly T[]>;

  /** the statements of each fiscal period (any type), for visiblePeriods */
  private readonly byPeriod: readonly { fiscal_year: number; fiscal_period: T['fiscal_period']; versions: readonly T[] }[];

  /** the statements of each type in identity order (fiscal year, then period), and in panel order of their newest versions */
  private readonly typed: ReadonlyMap<string, Typed<T>>;

  /** the company's distinct filing dates, ascending */
  private readonly filed: readonly string[];

  private readonly derivedValues = new Map<string, unknown>();

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
    const typed = new Map<string, Typed<T>>();
    for (const [t, of] of byType) {
      const identity = of.map((list): Statement<T> => {
        let minEnd = list[0]!.period_end;
        let maxEnd = minEnd;
        for (const v of list) {
          if (v.period_end < minEnd) minEnd = v.period_end;
          if (v.period_end > maxEnd) maxEnd = v.period_end;
        }
        return { fiscal_year: list[0]!.fiscal_year, fiscal_period: list[0]!.fiscal_period, versions: list, minEnd, maxEnd };
      });
      const newest = (s: Statement<T>) => s.versions[s.versions.length - 1]!;
      const panel = [...identity].sort((a, b) => panelPeriodOrder(newest(a), newest(b)));
      // in panel order: the latest period end up to each statement, the earliest from it on
      const endsBy: string[] = [];
      const endsFrom: string[] = new Array<string>(panel.length);
      for (const [i, st] of panel.entries()) endsBy.push(i === 0 || st.maxEnd > endsBy[i - 1]! ? st.maxEnd : endsBy[i - 1]!);
      for (let i = panel.length - 1; i >= 0; i--) endsFrom[i] = i === panel.length - 1 || panel[i]!.minEnd < endsFrom[i + 1]! ? panel[i]!.minEnd : endsFrom[i + 1]!;
      typed.set(t, { identity, panel, endsBy, endsFrom });
    }
    this.typed = typed;
    this.filed = [...new Set(versions.map((v) => v.filing_date))].sort();
  }

  /**
   * How many of the company's filing dates fall on or before `asOf` (all of them when null). Two
   * dates with the same count see the same versions, so what a read works out from the versions a
   * date sees can be kept under this count (`derived`).
   */
  epochOf(asOf: string | null): number {
    if (asOf === null) return this.filed.length;
    return firstIndex(this.filed.length, (k) => !isKnowableAt(this.filed[k]!, asOf));
  }

  /**
   * `make()`, made once per index and key and then kept with the index: for what follows from the
   * versions held alone (the index is replaced when they change), keyed by all it depends on
   * (with `epochOf` for a date). Bounded: when full, what was kept is dropped and made again.
   */
  derived<V>(key: string, make: () => V): V {
    const hit = this.derivedValues.get(key);
    if (hit !== undefined) return hit as V;
    const value = make();
    if (value === undefined) return value;
    if (this.derivedValues.size >= MAX_DERIVED) this.derivedValues.clear();
    this.derivedValues.set(key, value);
    return value;
  }

  /** What `derived` keeps under `key`, undefined when nothing is. */
  derivedOf<V>(key: string): V | undefined {
    return this.derivedValues.get(key) as V | undefined;
  }

  /**
   * `latestPerPeriod` under a filter: per statement, the highest version_sequence among the versions
   * `f` keeps. `order`: 'identity' (type, fiscal year, fiscal period) or 'panel' (period end,
   * fiscal year, quarters before the year ending the same day; the same period of several types by
   * type). A statement's type, year and period are judged once for all its versions.
   */
  latestWhere(f: VersionFilter, order: 'identity' | 'panel' = 'identity'): T[] {
    const out: T[] = [];
    const periods = f.fiscalPeriods ? new Set(f.fiscalPeriods) : null;
    const yearFrom = f.fiscalYearFrom ?? null;
    const yearTo = f.fiscalYearTo ?? null;
    const endFrom = f.periodEndFrom ?? null;
    const endTo = f.periodEndTo ?? null;
    const asOf = f.asOf ?? null;
    const asReported = f.asReported === true;
    const types = [...new Set(f.types)].sort(cmp);
    for (const type of types) {
      const of = this.typed.get(type);
      if (of === undefined) continue;
      const statements = order === 'panel' ? of.panel : of.identity;
      let i = 0;
      let end = statements.length;
      if (order === 'identity' && yearFrom !== null) i = firstIndex(statements.length, (k) => statements[k]!.fiscal_year >= yearFrom);
      // in panel order, the statements none of whose versions ends within the period end bounds are cut off both sides
      if (order === 'panel' && endFrom !== null) i = firstIndex(statements.length, (k) => of.endsBy[k]! >= endFrom);
      if (order === 'panel' && endTo !== null) end = firstIndex(statements.length, (k) => of.endsFrom[k]! > endTo);
      for (; i < end; i++) {
        const s = statements[i]!;
        if (yearTo !== null && s.fiscal_year > yearTo) {
          if (order === 'identity') break;
          continue;
        }
        if (yearFrom !== null && s.fiscal_year < yearFrom) continue;
        if (periods !== null && !periods.has(s.fiscal_period)) continue;
        if ((endFrom !== null && s.maxEnd < endFrom) || (endTo !== null && s.minEnd > endTo)) continue;
        const list = s.versions;
        for (let k = list.length - 1; k >= 0; k--) {
          const v = list[k]!;
          if (endFrom !== null && v.period_end < endFrom) continue;
          if (endTo !== null && v.period_end > endTo) continue;
          if (asOf !== null && !isKnowableAt(v.filing_date, asOf)) continue;
          if (asReported && v.version_sequence !== 1) continue;
          out.push(v);
          break;
        }
      }
    }
    // the statements were taken in their newest versions' panel order, one type after the other: a
    // stable sort puts the types' versions together, an older version picked may end elsewhere
    if (order === 'panel' && (types.length > 1 || !inPanelOrder(out))) out.sort(panelPeriodOrder);
    return out;
  }

  /** `latestVersionOf` one statement: its highest version_sequence filed by `asOf` (any, when null); null when there is none. */
  latestOf(id: { statement_type: string; fiscal_year: number; fiscal_period: string }, asOf: string | null): T | null {
    const list = this.byKey.get(`${id.statement_type}|${id.fiscal_year}|${id.fiscal_period}`) ?? [];
    return asOf === null ? (list[list.length - 1] ?? null) : latestKnowable(list, asOf);
  }

  /** Every period with a version filed on or before `asOf`, newest period end first (then fiscal year, newest first). Worked out once per `epochOf(asOf)`. */
  visiblePeriods(asOf: string): readonly PeriodEnd<T['fiscal_period']>[] {
    return this.derived(`visible|${this.epochOf(asOf)}`, () => {
      const out: PeriodEnd<T['fiscal_period']>[] = [];
      for (const p of this.byPeriod) {
        let end: string | null = null;
        for (const v of p.versions) if (isKnowableAt(v.filing_date, asOf) && (end === null || v.period_end > end)) end = v.period_end;
        if (end !== null) out.push(Object.freeze({ fiscal_year: p.fiscal_year, fiscal_period: p.fiscal_period, period_end: end }));
      }
      return Object.freeze(out.sort((a, b) => cmp(b.period_end, a.period_end) || b.fiscal_year - a.fiscal_year || cmp(a.fiscal_period, b.fiscal_period)));
    });
  }

  /** The latest version of each statement type of the named periods visible on `asOf`: newest period end first, FY first, then income statement, balance sheet, cash flow. */
  latestAsOf(asOf: string, periods: readonly { fiscal_year: number; fiscal_period: string }[]): T[] {
    const out: T[] = [];
    for (const list of this.statements) {
      const first = list[0]!;
      if (!periods.some((p) => p.fiscal_year === first.fiscal_year && p.fiscal_period === first.fiscal_period)) continue;
      const v = latestKnowable(list, asOf);
      if (v !== null) out.push(v);
    }
    return out.sort(
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

/** A statement type's statements in identity and in panel order (with the bounds of the period ends up to and from each). */
interface Typed<T> {
  identity: readonly Statement<T>[];
  panel: readonly Statement<T>[];
  endsBy: readonly string[];
  endsFrom: readonly string[];
}

/** The first of 0..n-1 for which `holds` is true, n when none is (`holds` false, then true). */
function firstIndex(n: number, holds: (k: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Panel order within one company: by period end, fiscal year, quarters before the year ending the same day. */
function panelPeriodOrder(a: IndexedVersion, b: IndexedVersion): number {
  return cmp(a.period_end, b.period_end) || a.fiscal_year - b.fiscal_year || fyLast(a.fiscal_period) - fyLast(b.fiscal_period) || cmp(a.fiscal_period, b.fiscal_period);
}

/** Whether versions of one company are in panel order. */
function inPanelOrder(vs: readonly IndexedVersion[]): boolean {
  for (let i = 1; i < vs.length; i++) if (panelPeriodOrder(vs[i - 1]!, vs[i]!) > 0) return false;
  return true;
}
