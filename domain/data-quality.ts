/**
 * Data-quality rules over normalized statement versions: findings with stable rule codes and
 * severities, persisted by db/data-quality.ts and never used to change a figure. Pure: versions in,
 * findings out; money only as decimal strings, compared with decimal.js.
 *
 * Rules (`DQ_RULES` is the published catalog):
 * - DQ_NEGATIVE_VALUE (after XBRL US DQC_0015): a metric that is never negative (revenue, assets,
 *   share counts, payments such as capital expenditures, ...) is negative.
 * - DQ_SCALE_BREAK: a metric is about 1,000 or 1,000,000 times (or 1/1,000 or 1/1,000,000 of) the
 *   same metric in the prior period of the same length (a figure keyed in thousands or millions
 *   among units, or the reverse).
 * - DQ_SCALE_SLIP_FILED: a later filing re-told a figure on record 1,000 or 1,000,000 times off
 *   (found while folding filings into versions; never a version, never a restatement).
 * - DQ_SIGN_SLIP_FILED, DQ_DERIVED_QUARTER_CONFLICT, DQ_CONCEPT_MOVED: a later filing's sign slip,
 *   its derived quarter against a reported one, or a metric moved to another line told as before
 *   (found while folding, like scale slips: db/scale-slips.ts).
 * - DQ_QUARTER_EXCEEDS_YEAR (after DQC_0108): a reported quarter of a non-negative flow is larger
 *   than its fiscal year.
 * - DQ_MISSING_CORE_METRIC: a statement lacks a metric every statement of its type should carry.
 * - DQ_IDENTITY_<rule_id>: an accounting identity of domain/identity-checks.ts FAILs.
 *
 * Cross-period rules compare a version with its neighbours as known when it was filed: the latest
 * version of the neighbouring period whose filing date is on or before the version's own. A finding
 * therefore depends only on what was public when its version appeared, so checking a company in
 * one ingestion or across many incremental ones gives the same findings, and re-checking is a no-op.
 */
import { canonicalMetric } from './catalog/index.ts';
import { dec, equalAtReportedPrecision, leadingPlace, wireDecimal } from './decimal.ts';
import { evaluateIdentityRule, IDENTITY_RULES, toleranceFor, type IdentityInput } from './identity-checks.ts';
import { statementKey } from './statements/key.ts';
import { latestKnowable } from './statements/visibility.ts';
import type { FiscalPeriod, StatementType } from './statement-types.ts';
import { HEADLINE_METRICS, NON_NEGATIVE_METRICS } from './catalog/traits.ts';

export * from './data-quality-rules.ts';
import {
  CORE_METRICS,
  DQ_RULE_CODES,
  IDENTITY_RULE_PREFIX,
  SCALE_BREAK_SLACK,
  SCALE_FACTORS,
  type EvidencePoint,
  type IssueSeverity,
  type QualityFigure,
  type QualityFinding,
  type QualityVersion,
} from './data-quality-rules.ts';

const QUARTERS = ['Q1', 'Q2', 'Q3'] as const;

/** Plain decimal with thousands separators, for messages: -4734605 -> "-4,734,605". */
export function readable(value: string): string {
  const plainText = dec(value).toFixed();
  const [int, frac] = plainText.split('.');
  const sign = int!.startsWith('-') ? '-' : '';
  const digits = int!.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${digits}${frac ? `.${frac}` : ''}`;
}

function label(v: Pick<QualityVersion, 'statement_type' | 'fiscal_year' | 'fiscal_period' | 'version_sequence'>): string {
  return `${v.statement_type} ${v.fiscal_year} ${v.fiscal_period} v${v.version_sequence}`;
}

function point(role: string, v: QualityVersion, metric: string): EvidencePoint {
  return {
    role,
    metric,
    value: wireDecimal(v.values[metric]!),
    statement_version_id: v.statement_version_id,
    version_sequence: v.version_sequence,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
  };
}

function finding(
  v: QualityVersion,
  rule_code: string,
  severity: IssueSeverity,
  metric: string | null,
  message: string,
  evidence: QualityFinding['evidence'],
): QualityFinding {
  return {
    rule_code,
    severity,
    cik: v.cik,
    statement_type: v.statement_type,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
    version_sequence: v.version_sequence,
    statement_version_id: v.statement_version_id,
    metric,
    message,
    evidence,
  };
}

const tierOf = (metric: string): IssueSeverity => (HEADLINE_METRICS.has(metric) ? 'HIGH' : 'MEDIUM');

/** DQ_NEGATIVE_VALUE */
function negativeValues(v: QualityVersion): QualityFinding[] {
  const out: QualityFinding[] = [];
  for (const metric in v.values) {
    const value = v.values[metric]!;
    if (!NON_NEGATIVE_METRICS.has(metric) || !value.startsWith('-') || dec(value).isZero()) continue;
    // completeEvidence adds why, once the figure's origin is known
    out.push(
      finding(v, 'DQ_NEGATIVE_VALUE', tierOf(metric), metric,
        `${metric} is negative (${readable(value)}) on ${label(v)}, but it is never negative (DQC_0015).`,
        { compared: [point('subject', v, metric)] }),
    );
  }
  return out;
}

/** DQ_MISSING_CORE_METRIC */
function missingCore(v: QualityVersion): QualityFinding[] {
  const core = CORE_METRICS[v.statement_type as StatementType] ?? [];
  return core
    .filter((c) => !Object.hasOwn(v.values, c.metric))
    .map((c) =>
      finding(v, 'DQ_MISSING_CORE_METRIC', c.severity, c.metric,
        `${label(v)} has no ${c.metric}, a core metric of every ${v.statement_type}; ratios and growth that need it are unavailable for this period.`,
        { compared: [], missing_metric: c.metric, metrics_present: Object.keys(v.values).length }),
    );
}

/** DQ_IDENTITY_<rule_id>: every FAIL of checkIdentities */
function identityFailures(v: QualityVersion): QualityFinding[] {
  const input: IdentityInput = {
    statement_type: v.statement_type as StatementType,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period as FiscalPeriod,
    values: v.values as Record<string, string>,
  };
  const out: QualityFinding[] = [];
  // the checks of checkIdentities, one rule at a time: its summary (a pass rate divided out in
  // 1,000-digit decimal.js) is not what a finding needs, nor are the rules of other statement
  // types (SKIPPED there)
  for (const rule of IDENTITY_RULES) {
    if (rule.statement_type !== v.statement_type) continue;
    const check = evaluateIdentityRule(rule, input);
    if (check.status !== 'FAIL') continue;
    const involved = [rule.actual, ...new Set(rule.expected.flat().map((t) => t.metric))].filter((m) => Object.hasOwn(v.values, m));
    out.push(
      finding(v, `${IDENTITY_RULE_PREFIX}${check.rule_id}`, check.severity as IssueSeverity, rule.actual,
        `${check.rule_id} fails on ${label(v)}: ${rule.actual} is ${readable(check.actual_value!)} but the identity expects ${readable(check.expected_value!)} ` +
          `(delta ${readable(check.delta!)}, tolerance ${readable(check.tolerance!)}). ${rule.description}`,
        {
          compared: [point('subject', v, rule.actual), ...involved.slice(1).map((m) => point('identity_term', v, m))],
          rule_id: check.rule_id,
          expected_value: check.expected_value,
          actual_value: check.actual_value,
          delta: check.delta,
          tolerance: check.tolerance,
        }),
    );
  }
  return out;
}

/** Versions of one company grouped by period, for "as known on a date" lookups. */
class PeriodIndex {
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

/**
 * Metrics steady enough from one period to the next that a 1,000x move means a scale error: top
 * lines, operating costs, statement totals, working-capital balances, fixed assets and share
 * counts. Lumpy flows and balances (debt raised or repaid, investments bought or sold, buybacks,
 * cash, goodwill after an acquisition) legitimately move by such factors and are left out.
 */
export const SCALE_CHECKED_METRICS: ReadonlySet<string> = new Set([
  'REVENUE', 'COST_OF_REVENUE', 'RESEARCH_AND_DEVELOPMENT', 'SELLING_GENERAL_AND_ADMINISTRATIVE', 'SELLING_AND_MARKETING',
  'GENERAL_AND_ADMINISTRATIVE', 'OPERATING_EXPENSES', 'COSTS_AND_EXPENSES', 'WEIGHTED_AVERAGE_SHARES_BASIC',
  'WEIGHTED_AVERAGE_SHARES_DILUTED', 'TOTAL_ASSETS', 'TOTAL_CURRENT_ASSETS', 'TOTAL_CURRENT_LIABILITIES', 'TOTAL_LIABILITIES',
  'LIABILITIES_AND_EQUITY', 'ACCOUNTS_RECEIVABLE', 'INVENTORY', 'ACCOUNTS_PAYABLE', 'PROPERTY_PLANT_EQUIPMENT_GROSS',
  'PROPERTY_PLANT_EQUIPMENT_NET', 'ACCUMULATED_DEPRECIATION', 'SHARES_OUTSTANDING', 'SHARES_ISSUED',
  'DEPRECIATION_AND_AMORTIZATION', 'DEPRECIATION',
]);

/** SCALE_BREAK_SLACK parsed once (decimal.js values are immutable) */
const BREAK_SLACK = dec(SCALE_BREAK_SLACK);

/** DQ_SCALE_BREAK */
function scaleBreaks(v: QualityVersion, index: PeriodIndex): QualityFinding[] {
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
function quarterExceedsYear(v: QualityVersion, index: PeriodIndex): QualityFinding[] {
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

const RULE_ORDER = new Map(DQ_RULE_CODES.map((c, i) => [c, i]));

/**
 * Findings for the versions named by `subjects`, using `versions` (which must include the
 * subjects and may include their neighbours: the same and the prior fiscal year of each statement
 * type) for the cross-period rules. At most one finding per (version, rule, metric); ordered by
 * version, then rule catalog order, then metric.
 */
export function detectQualityIssues(versions: readonly QualityVersion[], subjects: ReadonlySet<string>): QualityFinding[] {
  const index = new PeriodIndex(versions);
  const out: QualityFinding[] = [];
  for (const v of versions) {
    if (!subjects.has(v.statement_version_id)) continue;
    const found = [...negativeValues(v), ...scaleBreaks(v, index), ...quarterExceedsYear(v, index), ...missingCore(v), ...identityFailures(v)];
    found.sort((a, b) => RULE_ORDER.get(a.rule_code)! - RULE_ORDER.get(b.rule_code)! || (a.metric ?? '').localeCompare(b.metric ?? ''));
    out.push(...found);
  }
  return out;
}

/** The figures findings compare, once each: what `completeEvidence` needs the provenance of. */
export function evidenceFigures(findings: readonly QualityFinding[]): { statement_version_id: string; metric: string }[] {
  const seen = new Map<string, { statement_version_id: string; metric: string }>();
  for (const f of findings) {
    for (const p of f.evidence.compared) seen.set(`${p.statement_version_id}|${p.metric}`, { statement_version_id: p.statement_version_id, metric: p.metric });
  }
  return [...seen.values()];
}

/**
 * Adds each compared figure's provenance (period, accession, origin, calculation steps) to the
 * evidence, and to a negative value's message what its origin implies. The rules read values only,
 * so a check loads provenance just for the figures its findings name.
 */
export function completeEvidence(
  findings: readonly QualityFinding[],
  provenance: (statementVersionId: string, metric: string) => QualityFigure | undefined,
): QualityFinding[] {
  return findings.map((f) => {
    const compared = f.evidence.compared.map((p): EvidencePoint => {
      const fig = provenance(p.statement_version_id, p.metric);
      if (!fig) return p;
      return {
        ...p,
        period_start: fig.period_start,
        period_end: fig.period_end,
        source_accession: fig.source_accession,
        value_origin: fig.value_origin,
        mapping_type: fig.mapping_type,
        ...(fig.calculation_steps ? { calculation_steps: fig.calculation_steps.map((s) => ({ ...s, value: wireDecimal(s.value) })) } : {}),
      };
    });
    let message = f.message;
    if (f.rule_code === 'DQ_NEGATIVE_VALUE') {
      const subject = compared[0];
      message +=
        subject?.value_origin === 'DERIVED'
          ? ` It is derived (${subject.mapping_type ?? 'DERIVED'}), so the figures it subtracts disagree: see calculation_steps in the evidence.`
          : ' The filer likely tagged it with the wrong sign.';
    }
    return { ...f, message, evidence: { ...f.evidence, compared } };
  });
}
