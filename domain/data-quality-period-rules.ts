/**
 * Data-quality rules that compare a version with its neighbouring periods as known when it was
 * filed: scale breaks against the prior period, quarters larger than their year.
 */
import { canonicalMetric } from './catalog/index.ts';
import { NON_NEGATIVE_METRICS, SCALE_CHECKED_METRICS } from './catalog/traits.ts';
import { dec, equalAtReportedPrecision, leadingPlace, wireDecimal } from './decimal.ts';
import { SCALE_BREAK_SLACK, SCALE_FACTORS, type QualityFinding, type QualityVersion } from './data-quality-rules.ts';
import { finding, label, point, readable, tierOf } from './data-quality-findings.ts';
import { toleranceFor } from './identity-checks.ts';
import { statementKey } from './statements/key.ts';
import { latestKnowable } from './statements/visibility.ts';

const QUARTERS = ['Q1', 'Q2', 'Q3'] as const;

/** Versions of one company grouped by period, for "as known on a date" lookups. */
export class PeriodIndex {
  private readonly byKey = new Map<string, QualityVersion[]>();

  constructor(versions: readonly QualityVersion[]) {
    for (const v of versions) {
      const key = PeriodIndex.key(v.statement_type, v.fiscal_year, v.fiscal_period);
      const list = this.byKey.get(key) ?? [];
      list.push(v);
      this.byKey.set(key, list);
    }
  }

  static key(type: string, year: number, period: string): string {
    return statementKey({ statement_type: type, fiscal_year: year, fiscal_period: period });
  }

  /** The latest version of the period filed on or before `date`, or null. */
  knownAt(type: string, year: number, period: string, date: string): QualityVersion | null {
    return latestKnowable(this.byKey.get(PeriodIndex.key(type, year, period)) ?? [], date);
  }
}

/** Candidate prior periods, most preferred first: same length for flows, the previous date for balances. */
function priorPeriods(type: string, year: number, period: string): [number, string][] {
  if (type === 'BALANCE_SHEET') {
    const chain: [number, string][] = [[year, 'Q3'], [year, 'Q2'], [year, 'Q1'], [year - 1, 'FY']];
    const from = { FY: 0, Q3: 1, Q2: 2, Q1: 3 }[period as 'FY' | 'Q1' | 'Q2' | 'Q3'];
    return from === undefined ? [] : chain.slice(from);
  }
  switch (period) {
    case 'FY': return [[year - 1, 'FY']];
    case 'Q1': return [[year - 1, 'Q4']];
    case 'Q2': return [[year, 'Q1']];
    case 'Q3': return [[year, 'Q2']];
    case 'Q4': return [[year, 'Q3']];
    default: return [];
  }
}

/** SCALE_BREAK_SLACK parsed once (decimal.js values are immutable) */
const BREAK_SLACK = dec(SCALE_BREAK_SLACK);

/** DQ_SCALE_BREAK */
export function scaleBreaks(v: QualityVersion, index: PeriodIndex): QualityFinding[] {
  let prior: QualityVersion | null = null;
  for (const [year, period] of priorPeriods(v.statement_type, v.fiscal_year, v.fiscal_period)) {
    prior = index.knownAt(v.statement_type, year, period, v.filing_date);
    if (prior) break;
  }
  if (!prior) return [];
  const out: QualityFinding[] = [];
  for (const metric in v.values) {
    const value = v.values[metric]!;
    const priorValue = prior.values[metric];
    if (priorValue === undefined || !SCALE_CHECKED_METRICS.has(metric) || value.startsWith('-') || priorValue.startsWith('-')) continue;
    // a ratio within 1.25x of 10^3 or 10^6 puts the leading digits 2 to 7 orders of magnitude apart: skip the rest cheaply
    const oa = leadingPlace(value);
    const ob = leadingPlace(priorValue);
    if (oa === null || ob === null || Math.abs(oa - ob) < 2 || Math.abs(oa - ob) > 7) continue;
    const a = dec(value);
    const b = dec(priorValue);
    if (!a.isPositive() || !b.isPositive() || a.isZero() || b.isZero()) continue;
    const up = a.div(b);
    const down = b.div(a);
    const factor = up.greaterThan(1) ? up : down;
    const scale = SCALE_FACTORS.find((s) => {
      const near = factor.div(s);
      return near.greaterThanOrEqualTo(dec('1').div(BREAK_SLACK)) && near.lessThanOrEqualTo(BREAK_SLACK);
    });
    if (!scale) continue;
    const shown = readable(factor.toSignificantDigits(4).toFixed());
    const direction = up.greaterThan(1) ? `${shown} times` : `1/${shown} of`;
    out.push(
      finding(v, 'DQ_SCALE_BREAK', tierOf(metric), metric,
        `${metric} on ${label(v)} (${readable(value)}) is ${direction} the prior period's (${prior.fiscal_year} ${prior.fiscal_period}: ${readable(priorValue)}): ` +
          `a ${readable(scale)}x scale break, typically one figure keyed in ${scale === '1000' ? 'thousands' : 'millions'} among figures in units, or the reverse. Compare both accessions before using either.`,
        {
          compared: [point('subject', v, metric), point('prior_period', prior, metric)],
          ratio: up.toSignificantDigits(6).toFixed(),
          scale_factor: scale,
        }),
    );
  }
  return out;
}

/** Non-negative flows in money, which add up over a year. */
const YEAR_COMPARABLE: ReadonlySet<string> = new Set(
  [...NON_NEGATIVE_METRICS].filter((m) => canonicalMetric(m)?.unit_type === 'currency' && canonicalMetric(m)?.period_kind === 'duration'),
);
const yearComparable = (metric: string): boolean => YEAR_COMPARABLE.has(metric);

const WHOLE_NUMBER = /^-?\d+$/;
const absolute = (v: bigint): bigint => (v < 0n ? -v : v);

function exceeds(quarter: string, year: string): boolean {
  const oq = leadingPlace(quarter);
  const oy = leadingPlace(year);
  if (oq === null || (oy !== null && oq < oy)) return false; // a whole order of magnitude smaller
  // whole numbers (nearly every flow): a quarter no larger than its year, told apart in BigInt
  if (WHOLE_NUMBER.test(quarter) && WHOLE_NUMBER.test(year) && absolute(BigInt(quarter)) <= absolute(BigInt(year))) return false;
  const q = dec(quarter).abs();
  const y = dec(year).abs();
  // not the same figure told at two precisions (95,800,400 in dollars, 95,800,000 in thousands), nor a rounding difference
  return q.greaterThan(y) && !equalAtReportedPrecision(q.toFixed(), y.toFixed()) && q.minus(y).greaterThan(toleranceFor([quarter, year]));
}

/**
 * DQ_QUARTER_EXCEEDS_YEAR. Q4 is left out: it is the year minus nine months, so a Q4 above its year
 * means a negative nine months, which the sign rule reports on the Q4 itself.
 */
export function quarterExceedsYear(v: QualityVersion, index: PeriodIndex): QualityFinding[] {
  if (v.statement_type === 'BALANCE_SHEET') return [];
  const out: QualityFinding[] = [];
  if ((QUARTERS as readonly string[]).includes(v.fiscal_period)) {
    const year = index.knownAt(v.statement_type, v.fiscal_year, 'FY', v.filing_date);
    if (!year) return [];
    for (const metric in v.values) {
      const value = v.values[metric]!;
      const yearValue = year.values[metric];
      if (yearValue === undefined || !yearComparable(metric) || !exceeds(value, yearValue)) continue;
      out.push(
        finding(v, 'DQ_QUARTER_EXCEEDS_YEAR', 'HIGH', metric,
          `${metric} for ${v.fiscal_period} ${v.fiscal_year} (${readable(value)}) is larger than for the whole fiscal year (${readable(yearValue)}, ${label(year)}); ` +
            'a quarter of a non-negative flow cannot exceed its year (DQC_0108), so one of the two is misstated or mis-scaled.',
          { compared: [point('subject', v, metric), point('fiscal_year', year, metric)], excess: wireDecimal(dec(value).abs().minus(dec(yearValue).abs()).toFixed()) }),
      );
    }
    return out;
  }
  if (v.fiscal_period !== 'FY') return [];
  // pushed, not mapped and filtered: one array kind whether or not this function is optimized
  const quarters: QualityVersion[] = [];
  for (const q of QUARTERS) {
    const known = index.knownAt(v.statement_type, v.fiscal_year, q, v.filing_date);
    if (known !== null) quarters.push(known);
  }
  for (const metric in v.values) {
    if (!yearComparable(metric)) continue;
    const value = v.values[metric]!;
    // pushed, not filtered and mapped: an optimized filter() made another array kind than the
    // builtin's, and the first finding after optimization recompiled this function
    const larger: QualityVersion[] = [];
    for (const q of quarters) if (q.values[metric] !== undefined && exceeds(q.values[metric]!, value)) larger.push(q);
    if (larger.length === 0) continue;
    const told: string[] = [];
    const compared = [point('subject', v, metric)];
    for (const q of larger) {
      told.push(`${q.fiscal_period} ${readable(q.values[metric]!)}`);
      compared.push(point('quarter', q, metric));
    }
    out.push(
      finding(v, 'DQ_QUARTER_EXCEEDS_YEAR', 'HIGH', metric,
        `${metric} for fiscal ${v.fiscal_year} (${readable(value)}, ${label(v)}) is smaller than quarters reported before it (${told.join(', ')}); ` +
          'a quarter of a non-negative flow cannot exceed its year (DQC_0108), so the year or those quarters are misstated or mis-scaled.',
        { compared }),
    );
  }
  return out;
}
