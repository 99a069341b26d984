import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CANONICAL_METRICS } from '../../../domain/catalog/index.ts';
import { companyCoverage, CORE_METRICS, shareOf, type PeriodicReport, type StatementPeriod } from '../../../domain/coverage.ts';
import type { StatementType } from '../../../domain/catalog/types.ts';

/** Company coverage math on hand-built reports and statements; no database. */

const TYPES: StatementType[] = ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'];
const CORE: Record<StatementType, string[]> = {
  INCOME_STATEMENT: ['REVENUE', 'NET_INCOME'],
  BALANCE_SHEET: ['TOTAL_ASSETS'],
  CASH_FLOW_STATEMENT: ['OPERATING_CASH_FLOW'],
};

function report(form: string, fiscal_year: number | null, fiscal_period: string | null, filing_date = `${(fiscal_year ?? 2000) + 1}-02-01`): PeriodicReport {
  return { form, fiscal_year, fiscal_period, filing_date };
}

/** Year-end month 12: FY ends Dec 31, quarters end Mar, Jun, Sep, (Dec). */
function periodEnd(y: number, p: string): string {
  return { Q1: `${y}-03-31`, Q2: `${y}-06-30`, Q3: `${y}-09-30`, Q4: `${y}-12-31`, FY: `${y}-12-31` }[p]!;
}

function statements(y: number, p: string, types: StatementType[] = TYPES, metrics?: (t: StatementType) => string[]): StatementPeriod[] {
  return types.map((t) => ({ statement_type: t, fiscal_year: y, fiscal_period: p, metrics: metrics ? metrics(t) : CORE[t], versions: 1, restated: false, period_end: periodEnd(y, p) }));
}

/** A 10-K/10-Q filer reporting every period of `from`..`to`, with Q4 derived from each 10-K. */
function domesticFiler(from: number, to: number) {
  const reports: PeriodicReport[] = [];
  const stmts: StatementPeriod[] = [];
  for (let y = from; y <= to; y++) {
    for (const q of ['Q1', 'Q2', 'Q3']) {
      reports.push(report('10-Q', y, q));
      stmts.push(...statements(y, q));
    }
    reports.push(report('10-K', y, 'FY'));
    stmts.push(...statements(y, 'FY'), ...statements(y, 'Q4', ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT']));
  }
  return { reports, stmts };
}

describe('company coverage', () => {
  it('a filer with every period present is complete and continuous, and Q4 is never expected', () => {
    const { reports, stmts } = domesticFiler(2020, 2023);
    const c = companyCoverage(reports, stmts);
    assert.equal(c.status, 'COMPLETE');
    assert.equal(c.first_fiscal_year, 2020);
    assert.equal(c.last_fiscal_year, 2023);
    assert.equal(c.fiscal_year_in_progress, null);
    assert.equal(c.annual_periods_expected, 4);
    assert.equal(c.annual_periods_populated, 4);
    assert.equal(c.quarterly_periods_expected, 12, 'three per fiscal year: the derived Q4 is not expected');
    assert.equal(c.quarterly_periods_populated, 12);
    assert.equal(c.core_metric_completeness, '1.000000');
    assert.equal(c.income_statement_completeness, '1.000000');
    assert.equal(c.balance_sheet_completeness, '1.000000');
    assert.equal(c.cash_flow_statement_completeness, '1.000000');
    assert.equal(c.annual_reporting_continuous, true);
    assert.deepEqual(c.gaps, []);
    assert.equal(c.statement_periods, 4 * (3 * 3 + 3 + 2));
    assert.equal(c.periodic_reports, 16);
    assert.equal(c.latest_filing_date, '2024-02-01');
  });

  it('tolerates one year in progress: its annual period is not expected, its quarters only as far as reported', () => {
    const { reports, stmts } = domesticFiler(2020, 2022);
    reports.push(report('10-Q', 2023, 'Q1'), report('10-Q', 2023, 'Q2'));
    stmts.push(...statements(2023, 'Q1'), ...statements(2023, 'Q2'));
    const c = companyCoverage(reports, stmts);
    assert.equal(c.fiscal_year_in_progress, 2023);
    assert.equal(c.last_fiscal_year, 2023);
    assert.equal(c.annual_periods_expected, 3);
    assert.equal(c.quarterly_periods_expected, 3 * 3 + 2);
    assert.equal(c.annual_reporting_continuous, true);
    assert.equal(c.status, 'COMPLETE');
    assert.equal(c.core_metric_completeness, '1.000000');
  });

  it('a missing middle year breaks continuity and shows as a gap', () => {
    const { reports, stmts } = domesticFiler(2020, 2023);
    const without2021 = stmts.filter((s) => !(s.fiscal_year === 2021 && s.fiscal_period === 'FY'));
    const c = companyCoverage(reports, without2021);
    assert.equal(c.annual_periods_expected, 4);
    assert.equal(c.annual_periods_populated, 3);
    assert.equal(c.annual_reporting_continuous, false);
    assert.equal(c.status, 'PARTIAL');
    assert.equal(c.core_metric_completeness, shareOf(15, 16));
    assert.equal(c.core_metric_completeness, '0.937500');
    assert.deepEqual(c.gaps, [{ fiscal_year: 2021, fiscal_period: 'FY', missing_statement_types: TYPES }]);
  });

  it('a latest year whose annual report was filed but built no statement is a gap, not a year in progress', () => {
    const { reports, stmts } = domesticFiler(2020, 2022);
    const c = companyCoverage(reports, stmts.filter((s) => !(s.fiscal_year === 2022 && s.fiscal_period === 'FY')));
    assert.equal(c.fiscal_year_in_progress, null);
    assert.equal(c.annual_periods_expected, 3);
    assert.equal(c.annual_periods_populated, 2);
    assert.equal(c.annual_reporting_continuous, false);
  });

  it('expects no quarters of an annual-only (20-F) filer', () => {
    const reports = [2019, 2020, 2021].map((y) => report('20-F', y, 'FY'));
    const stmts = [2019, 2020, 2021].flatMap((y) => statements(y, 'FY'));
    const c = companyCoverage(reports, stmts);
    assert.equal(c.quarterly_periods_expected, 0);
    assert.equal(c.quarterly_periods_populated, 0);
    assert.equal(c.annual_periods_expected, 3);
    assert.equal(c.annual_reporting_continuous, true);
    assert.equal(c.core_metric_completeness, '1.000000');
  });

  it('counts a period for a statement type only when that statement holds one of its core metrics', () => {
    const { reports, stmts } = domesticFiler(2022, 2022);
    // Q1's balance sheet never came (a quarter first reported as a comparative), and Q2's cash flow carries only a line item
    const edited = stmts
      .filter((s) => !(s.fiscal_period === 'Q1' && s.statement_type === 'BALANCE_SHEET'))
      .map((s) => (s.fiscal_period === 'Q2' && s.statement_type === 'CASH_FLOW_STATEMENT' ? { ...s, metrics: ['SHARE_BASED_COMPENSATION'] } : s));
    const c = companyCoverage(reports, edited);
    assert.equal(c.core_metric_completeness, '1.000000', 'every period still holds a core metric somewhere');
    assert.equal(c.status, 'COMPLETE');
    assert.equal(c.balance_sheet_completeness, '0.750000');
    assert.equal(c.cash_flow_statement_completeness, '0.750000');
    assert.equal(c.income_statement_completeness, '1.000000');
    assert.deepEqual(c.gaps, [
      { fiscal_year: 2022, fiscal_period: 'Q1', missing_statement_types: ['BALANCE_SHEET'] },
      { fiscal_year: 2022, fiscal_period: 'Q2', missing_statement_types: ['CASH_FLOW_STATEMENT'] },
    ]);
  });

  it('a period whose statements carry no core metric is not populated', () => {
    const reports = [report('10-K', 2022, 'FY')];
    const c = companyCoverage(reports, statements(2022, 'FY', TYPES, () => ['GAIN_LOSS_ON_DEBT_EXTINGUISHMENT']));
    assert.equal(c.annual_periods_populated, 0);
    assert.equal(c.core_metric_completeness, '0.000000');
    assert.equal(c.status, 'PARTIAL');
  });

  it('comparatives before the first report make statements but do not extend the reporting life', () => {
    const { reports, stmts } = domesticFiler(2010, 2011);
    stmts.push(...statements(2008, 'FY', ['INCOME_STATEMENT']), ...statements(2009, 'FY'));
    const c = companyCoverage(reports, stmts);
    assert.equal(c.first_fiscal_year, 2010);
    assert.equal(c.first_statement_fiscal_year, 2008);
    assert.equal(c.annual_periods_expected, 2);
    assert.equal(c.core_metric_completeness, '1.000000');
  });

  it('expects Q1-Q3 of the first year of quarterly reporting, and none of a year before it', () => {
    // listed mid-year: the first report is the Q3 10-Q; Q1 and Q2 come only as comparatives (income statement alone)
    const reports = [report('10-K', 2020, 'FY'), report('10-Q', 2021, 'Q3'), report('10-K', 2021, 'FY')];
    const stmts = [...statements(2020, 'FY'), ...statements(2021, 'Q1', ['INCOME_STATEMENT']), ...statements(2021, 'Q3'), ...statements(2021, 'FY')];
    const c = companyCoverage(reports, stmts);
    assert.equal(c.quarterly_periods_expected, 3);
    assert.equal(c.quarterly_periods_populated, 2);
    assert.deepEqual(
      c.gaps.map((g) => [g.fiscal_year, g.fiscal_period, g.missing_statement_types.length]),
      [
        [2021, 'Q1', 2],
        [2021, 'Q2', 3],
      ],
    );
    assert.equal(c.annual_reporting_continuous, true);
  });

  it('expects nothing of a transition period named only by a 10-QT', () => {
    const { reports, stmts } = domesticFiler(2020, 2021);
    const later = domesticFiler(2023, 2023);
    reports.push(report('10-QT', 2022, 'Q1'), ...later.reports);
    stmts.push(...statements(2022, 'FY', ['BALANCE_SHEET']), ...later.stmts);
    const c = companyCoverage(reports, stmts);
    assert.deepEqual(c.transition_fiscal_years, [2022]);
    assert.equal(c.annual_periods_expected, 3);
    assert.equal(c.quarterly_periods_expected, 9);
    assert.equal(c.annual_reporting_continuous, true);
  });

  it("a label the filer's numbering skipped is not a gap when its neighbours are a year apart; a real missing year is", () => {
    // years ending 2014-01-31 labelled 2013 and 2015-01-31 labelled 2015: 2014 is never used
    const relabelled: StatementPeriod[] = [
      { statement_type: 'INCOME_STATEMENT', fiscal_year: 2013, fiscal_period: 'FY', metrics: ['REVENUE'], versions: 1, restated: false, period_end: '2014-01-31' },
      { statement_type: 'INCOME_STATEMENT', fiscal_year: 2015, fiscal_period: 'FY', metrics: ['REVENUE'], versions: 1, restated: false, period_end: '2015-01-31' },
    ];
    const reports = [report('10-K', 2013, 'FY'), report('10-K', 2015, 'FY')];
    const c = companyCoverage(reports, relabelled);
    assert.deepEqual(c.skipped_fiscal_years, [2014]);
    assert.equal(c.annual_periods_expected, 2);
    assert.equal(c.annual_reporting_continuous, true);

    const twoYearsApart = relabelled.map((s) => (s.fiscal_year === 2015 ? { ...s, period_end: '2016-01-31' } : s));
    const gap = companyCoverage(reports, twoYearsApart);
    assert.deepEqual(gap.skipped_fiscal_years, []);
    assert.equal(gap.annual_periods_expected, 3);
    assert.equal(gap.annual_reporting_continuous, false);
    assert.deepEqual(gap.gaps.filter((g) => g.missing_statement_types.length === 3).map((g) => g.fiscal_year), [2014]);
  });

  it('a year in progress counts quarters reported even when a 10-Q mis-tags its fiscal period', () => {
    const { reports, stmts } = domesticFiler(2021, 2021);
    reports.push(report('10-Q', 2022, 'FY'));
    stmts.push(...statements(2022, 'Q1'));
    const c = companyCoverage(reports, stmts);
    assert.equal(c.fiscal_year_in_progress, 2022);
    assert.equal(c.quarterly_periods_expected, 4);
    assert.equal(c.quarterly_periods_populated, 4);
  });

  it('tells a filer with no periodic reports from one whose reports built nothing', () => {
    const none = companyCoverage([], []);
    assert.equal(none.status, 'NO_PERIODIC_REPORTS');
    assert.equal(none.annual_periods_expected, 0);
    assert.equal(none.quarterly_periods_expected, 0);
    assert.equal(none.core_metric_completeness, null);
    assert.equal(none.balance_sheet_completeness, null);
    assert.equal(none.annual_reporting_continuous, false);
    assert.equal(none.first_fiscal_year, null);
    assert.equal(none.latest_filing_date, null);

    const preXbrl = companyCoverage([report('10-K', null, null, '2005-03-01'), report('10-Q', null, null, '2005-05-01')], []);
    assert.equal(preXbrl.status, 'NO_STATEMENTS');
    assert.equal(preXbrl.periodic_reports, 2);
    assert.equal(preXbrl.periodic_reports_without_facts, 2);
    assert.equal(preXbrl.annual_periods_expected, 0);
    assert.equal(preXbrl.latest_filing_date, '2005-05-01');
  });

  it('counts versions, and as restated only the periods a version revised: a version that only added figures does not count', () => {
    // income statement: one version; balance sheet: a second version that only added figures; cash flow: three, one revising
    const stmts = statements(2022, 'FY').map((s, i) => ({ ...s, versions: i + 1, restated: i === 2 }));
    const c = companyCoverage([report('10-K', 2022, 'FY'), report('10-K/A', 2022, 'FY')], stmts);
    assert.equal(c.statement_versions, 6);
    assert.equal(c.restated_statement_periods, 1);
    assert.equal(c.latest_period_end, '2022-12-31');
  });

  it('writes shares with six fraction digits, rounded half up, and null over nothing', () => {
    assert.equal(shareOf(2, 3), '0.666667');
    assert.equal(shareOf(1, 8), '0.125000');
    assert.equal(shareOf(0, 5), '0.000000');
    assert.equal(shareOf(0, 0), null);
  });

  it('draws core metrics from the canonical catalog, each on its own statement type', () => {
    for (const [type, names] of Object.entries(CORE_METRICS)) {
      for (const name of names) {
        const m = CANONICAL_METRICS.find((c) => c.metric === name);
        assert.ok(m, `${name} is canonical`);
        assert.equal(m.statement_type, type, name);
      }
    }
  });
});
