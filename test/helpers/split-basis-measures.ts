/**
 * Whether a modeling snapshot's derived rows combine per-share figures or share counts of two
 * split bases: for every served growth metric of a per-share or share-count line, and every
 * served TTM per-share figure, the share operands' source filings (their bases) and the company's
 * splits between them known at the snapshot's date. An operand of an older basis is on the row's
 * basis only where the row's `split_adjustments` restate it by exactly the splits between. Used by
 * the corpus suite and `tsx test/helpers/split-basis-report.ts <database url>`.
 */
import { canonicalMetric } from '../../domain/catalog/index.ts';
import { GROWTH_DEFS } from '../../domain/modeling/growth.ts';
import { splitFactorBetween, type CompanySplit } from '../../domain/statements/split-basis.ts';

type Body = Record<string, any>;

export interface BasisMixMeasure {
  /** served growth values of a per-share or share-count line */
  growth_checked: number;
  /** of those, comparing two bases without restating the older */
  growth_mixed: number;
  /** of those checked, whose operands lay on two bases (a split between their filings) */
  growth_across_splits: number;
  ttm_checked: number;
  ttm_mixed: number;
  ttm_across_splits: number;
  /** served ratio values reading a per-share figure or share count (each reads one: nothing to mix) */
  ratio_checked: number;
  ratio_mixed: number;
  /** served values whose share operands' basis is unknown while the company told a split */
  unknown_basis: number;
  /** "cik metric fy fp" of every mixed value */
  cases: string[];
}

const isShareLine = (line: string) => ['per_share', 'shares'].includes(canonicalMetric(line)?.unit_type ?? '');
const SHARE_GROWTH = GROWTH_DEFS.filter((d) => isShareLine(d.line));
const TTM_SHARES: ReadonlyArray<[string, string]> = [['EPS_BASIC', 'WEIGHTED_AVERAGE_SHARES_BASIC'], ['EPS_DILUTED', 'WEIGHTED_AVERAGE_SHARES_DILUTED']];
const SHARE_RATIOS = ['BOOK_VALUE_PER_SHARE'];

export function emptyMeasure(): BasisMixMeasure {
  return { growth_checked: 0, growth_mixed: 0, growth_across_splits: 0, ttm_checked: 0, ttm_mixed: 0, ttm_across_splits: 0, ratio_checked: 0, ratio_mixed: 0, unknown_basis: 0, cases: [] };
}

const key = (type: string, fy: number, fp: string) => `${type}|${fy}|${fp}`;

/** a statement the snapshot read: its identity and the share basis of each per-share figure and share count */
export interface Statement {
  statement_type: string;
  fiscal_year: number;
  fiscal_period: string;
  share_bases?: Readonly<Record<string, string>>;
}

/**
 * Adds one company's rows to `m`. `versions` are those the snapshot read (with share_bases),
 * `splits` the company's, `asOf` the snapshot's date.
 */
export function measureCompany(m: BasisMixMeasure, rows: { growth: Body[]; ttm: Body[]; ratios: Body[] }, versions: readonly Statement[], splits: readonly CompanySplit[], asOf: string): void {
  const byKey = new Map(versions.map((v) => [key(v.statement_type, v.fiscal_year, v.fiscal_period), v]));
  const known = splits.filter((s) => s.known_from <= asOf);
  /** whether operands (line, version) are on one basis once the row's adjustments are applied */
  const verdict = (operands: { line: string; v: Statement }[], adjustments: Body[]): 'one' | 'restated' | 'mixed' | 'unknown' => {
    const bases = operands.map((o) => o.v.share_bases?.[o.line]);
    if (known.length === 0) return 'one';
    if (bases.some((b) => b === undefined)) return 'unknown';
    const target = bases.reduce((a, b) => (b! > a! ? b : a))!;
    let restated = false;
    for (const [i, o] of operands.entries()) {
      const f = splitFactorBetween(known, bases[i]!, target, asOf);
      if (f === null) continue;
      const a = adjustments.find((x) => x.input === o.line && x.fiscal_year === o.v.fiscal_year && x.fiscal_period === o.v.fiscal_period);
      if (!a || a.factor !== `${f.numerator}/${f.denominator}`) return 'mixed';
      restated = true;
    }
    return restated ? 'restated' : 'one';
  };
  const count = (kind: 'growth' | 'ttm', v: ReturnType<typeof verdict>, label: string) => {
    m[`${kind}_checked`]++;
    if (v === 'unknown') m.unknown_basis++;
    if (v === 'mixed' || v === 'restated') m[`${kind}_across_splits`]++;
    if (v === 'mixed') {
      m[`${kind}_mixed`]++;
      m.cases.push(label);
    }
  };
  for (const row of rows.growth) {
    for (const d of SHARE_GROWTH) {
      if (row.metrics?.[d.metric] === undefined) continue;
      const back = d.kind === 'cagr' ? 3 : 1;
      const cur = byKey.get(key(row.statement_type, row.fiscal_year, row.fiscal_period))!;
      const priorKey =
        d.kind === 'qoq'
          ? row.fiscal_period === 'Q1'
            ? key(row.statement_type, row.fiscal_year - 1, 'Q4')
            : key(row.statement_type, row.fiscal_year, `Q${Number(row.fiscal_period.slice(1)) - 1}`)
          : key(row.statement_type, row.fiscal_year - back, row.fiscal_period);
      const prior = byKey.get(priorKey)!;
      const v = verdict([{ line: d.line, v: cur }, { line: d.line, v: prior }], row.split_adjustments?.[d.metric] ?? []);
      count('growth', v, `${row.cik} ${d.metric} ${row.fiscal_year} ${row.fiscal_period}`);
    }
  }
  for (const row of rows.ttm) {
    for (const [eps, shares] of TTM_SHARES) {
      if (row.metrics?.[eps] === undefined) continue;
      const operands = (row.window_quarters as Body[]).map((q) => ({ line: shares, v: byKey.get(key('INCOME_STATEMENT', q.fiscal_year, q.fiscal_period))! }));
      count('ttm', verdict(operands, row.split_adjustments?.[eps] ?? []), `${row.cik} TTM ${eps} ${row.fiscal_year} ${row.fiscal_period}`);
    }
  }
  for (const row of rows.ratios) for (const r of SHARE_RATIOS) if (row.metrics?.[r] !== undefined) m.ratio_checked++;
}
