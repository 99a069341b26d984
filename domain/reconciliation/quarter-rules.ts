/**
 * ROLLFORWARD rules across periods: a fiscal year's four quarters against its year, for each headline money flow of
 * the income and cash-flow statements (RF_QUARTERS_SUM_TO_YEAR_<METRIC>). Judged on the year's and
 * the fourth quarter's versions (the last of the five to be told), against the five periods as
 * they stood on the subject's filing date: actual the year, expected the quarters' sum, delta the
 * year less the sum (a coherence mark's difference with the opposite sign), by domain/statements/coherence.ts, the rule the reads'
 * `coherence` marks follow: PASS within the figures' rounding; otherwise WARNING (LOW) where a
 * restatement of one side explains it (the year told again and the quarters not, or the reverse;
 * `notes.details.coherence_reason`), FAIL where every figure is as the filer first told it
 * (FILER_INCONSISTENT; severity MEDIUM beyond 1% of the year, else LOW). No result until the four
 * quarters and the year are all on record.
 */
import { dec, plain } from '../decimal.ts';
import { COVERAGE_CORE_METRICS } from '../catalog/traits.ts';
import { COHERENCE_PERIODS, isAdditiveFlow, quarterCoherence, type PeriodVersion } from '../statements/coherence.ts';
import type { FiscalPeriod, StatementType } from '../statement-types.ts';
import type { ReconciliationRule, RuleOutcome, StatementSnapshot } from './types.ts';

function periodVersions(lineage: readonly StatementSnapshot[], metric: string): PeriodVersion[] {
  return lineage.map((s) => {
    const f = s.figures[metric];
    const figures: PeriodVersion['figures'] = f ? { [metric]: { value: f.value, inputs: f.calculation_steps ? (f.calculation_steps as readonly { value?: string }[]).flatMap((x) => (x.value === undefined ? [] : [x.value])) : null } } : {};
    return { fiscal_period: s.fiscal_period, version_sequence: s.version_sequence, filing_date: s.filing_date, figures };
  });
}

function quarterRule(type: StatementType, metric: string): ReconciliationRule {
  return {
    rule_id: `RF_QUARTERS_SUM_TO_YEAR_${metric}`,
    rule_category: 'ROLLFORWARD',
    statement_type: type,
    description: `${metric}: the fiscal year's four quarters as served add up to the year as served, within the figures' rounding; where they do not, the reason (the year restated and the quarters not, the reverse, or the filer's own figures).`,
    metrics: [metric],
    evaluate(subject, related): RuleOutcome | null {
      if (subject.fiscal_period !== 'FY' && subject.fiscal_period !== 'Q4') return null;
      const periods: Partial<Record<FiscalPeriod, PeriodVersion[]>> = {};
      const latest: Partial<Record<FiscalPeriod, StatementSnapshot>> = {};
      for (const p of COHERENCE_PERIODS) {
        const lineage = related.lineage(type, subject.fiscal_year, p);
        periods[p] = periodVersions(lineage, metric);
        latest[p] = lineage.at(-1);
      }
      const year = periods.FY!.at(-1)?.figures[metric];
      const quarters = (['Q1', 'Q2', 'Q3', 'Q4'] as const).map((q) => periods[q]!.at(-1)?.figures[metric]);
      if (year === undefined || quarters.some((q) => q === undefined)) return null;
      const sum = quarters.reduce((s, q) => s.plus(dec(q!.value)), dec('0'));
      const mark = quarterCoherence(subject.fiscal_year, metric, periods);
      // each input where it came from (the anomaly explanations read them as a roll-forward's): year = Q1 + Q2 + Q3 + Q4
      const input = (p: FiscalPeriod, value: string) => ({ metric, value, statement_version_id: latest[p]!.statement_version_id, fiscal_period: p, version_sequence: latest[p]!.version_sequence });
      const inputs = { year: input('FY', year.value), q1: input('Q1', quarters[0]!.value), q2: input('Q2', quarters[1]!.value), q3: input('Q3', quarters[2]!.value), q4: input('Q4', quarters[3]!.value) };
      const base = { expected_value: plain(sum), actual_value: year.value, delta: plain(dec(year.value).minus(sum)) };
      if (mark === null) return { status: 'PASS', severity: 'NONE', ...base, notes: { details: { inputs } } };
      const share = dec(year.value).isZero() ? null : sum.minus(dec(year.value)).abs().dividedBy(dec(year.value).abs());
      const details = { coherence_reason: mark.reason, tolerance: mark.tolerance, inputs };
      if (mark.reason !== 'FILER_INCONSISTENT') return { status: 'WARNING', severity: 'LOW', ...base, notes: { details } };
      return { status: 'FAIL', severity: share === null || share.greaterThan(0.01) ? 'MEDIUM' : 'LOW', ...base, notes: { details } };
    },
  };
}

/** The headline flows of each statement (the coverage core metrics that are money flows). */
export const QUARTER_RULES: readonly ReconciliationRule[] = (['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT'] as const).flatMap((type) =>
  COVERAGE_CORE_METRICS[type].filter(isAdditiveFlow).map((metric) => quarterRule(type, metric)),
);
