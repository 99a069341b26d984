/**
 * Pure unit tests of the normalization domain (no database): fiscal calendar, date and decimal
 * arithmetic, and the replay of synthetic company facts into versioned statements. Each test
 * pins one rule of shared/design/DOMAIN.md with a handful of hand-built facts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addYears, dayNumber, daysBetween } from '../../../domain/dates.ts';
import { equalAtReportedPrecision, wireDecimal } from '../../../domain/decimal.ts';
import type { Fact, FilingInfo } from '../../../domain/facts.ts';
import { durationClass, FiscalCalendar, type LabelVote } from '../../../domain/fiscal-calendar.ts';
import { catalogView } from '../../../domain/normalize/catalog-view.ts';
import type { Candidate } from '../../../domain/normalize/candidates.ts';
import { applyBalanceSheetCorrections, applyCashFlowCorrections, applyIncomeCorrections } from '../../../domain/normalize/corrections.ts';
import { buildStatementHistory, type StatementHistory } from '../../../domain/normalize/history.ts';
import type { Presentation } from '../../../domain/normalize/presentations.ts';
import { foldPresentation, type BuiltVersion } from '../../../domain/normalize/versions.ts';
import type { FiscalPeriod, StatementFigure, StatementType } from '../../../domain/statement-types.ts';

// ---------------------------------------------------------------------------------------------
// builders

interface FactSpec {
  concept: string;
  value: string;
  /** omit (or null) for an instant */
  start?: string | null;
  end: string;
  accession: string;
  form: string;
  filed: string;
  fy: number | null;
  fp: string | null;
  unit?: string;
  taxonomy?: string;
}

/** One companyfacts-style fact; `concept` may be qualified ('us-gaap:Revenues') or bare. */
function fact(spec: FactSpec): Fact {
  const [taxonomy, concept] = spec.concept.includes(':')
    ? (spec.concept.split(':') as [string, string])
    : [spec.taxonomy ?? 'us-gaap', spec.concept];
  return {
    taxonomy,
    concept,
    unit: spec.unit ?? 'USD',
    start: spec.start ?? null,
    end: spec.end,
    value: spec.value,
    accession: spec.accession,
    fy: spec.fy,
    fp: spec.fp,
    form: spec.form,
    filed: spec.filed,
    frame: null,
  };
}

type FilingMeta = Pick<FactSpec, 'accession' | 'form' | 'filed' | 'fy' | 'fp'>;
type Row = [concept: string, value: string, start: string | null, end: string, unit?: string];

/** The facts of one filing: every row shares the filing's accession, form, filing date and fy/fp. */
function filing(meta: FilingMeta, rows: Row[]): Fact[] {
  return rows.map(([concept, value, start, end, unit]) => fact({ ...meta, concept, value, start, end, ...(unit ? { unit } : {}) }));
}

const REV = 'us-gaap:Revenues';
const COST = 'us-gaap:CostOfRevenue';
const GROSS = 'us-gaap:GrossProfit';
const NI = 'us-gaap:NetIncomeLoss';
const EPS = 'us-gaap:EarningsPerShareBasic';
const ASSETS = 'us-gaap:Assets';
const OCF = 'us-gaap:NetCashProvidedByUsedInOperatingActivities';
const PER_SHARE = 'USD/shares';

const CATALOG = catalogView();

function history(facts: Fact[], fiscal_year_end: string | null = '1231', filings: FilingInfo[] = []): StatementHistory {
  return buildStatementHistory({ cik: '0000000042', facts, filings, fiscal_year_end }, CATALOG);
}

function versionsOf(h: StatementHistory, type: StatementType, fy: number, fp: FiscalPeriod): BuiltVersion[] {
  return h.versions.filter((v) => v.statement_type === type && v.fiscal_year === fy && v.fiscal_period === fp);
}

/** The single version of a statement (asserting there is exactly one). */
function onlyVersion(h: StatementHistory, type: StatementType, fy: number, fp: FiscalPeriod): BuiltVersion {
  const vs = versionsOf(h, type, fy, fp);
  assert.equal(vs.length, 1, `${type} ${fy} ${fp}: expected one version, got ${vs.length} (have ${describeVersions(h)})`);
  return vs[0]!;
}

function figure(v: BuiltVersion, metric: string): StatementFigure {
  const f = v.figures.get(metric);
  assert.ok(f, `${v.statement_type} ${v.fiscal_year} ${v.fiscal_period} v${v.version_sequence} has no ${metric} (has ${[...v.figures.keys()].join(', ')})`);
  return f;
}

/** tagged figures of one period as a presentation hands them to the corrections: [metric, value, accession] each */
function figuresOf(rows: [metric: string, value: string, accession: string][], start: string | null, end: string): Map<string, StatementFigure> {
  return new Map(
    rows.map(([metric, value, accession]) => [
      metric,
      {
        metric, value, unit: 'USD', period_start: start, period_end: end, source_accession: accession, source_xbrl_concept: 'us-gaap:x', mapping_type: null,
        selection_rule: 'CANDIDATE_ORDER', value_origin: 'SOURCE', correction_rule: null, as_filed_value: null, as_filed_concept: null, calculation_steps: null,
      },
    ]),
  );
}

function describeVersions(h: StatementHistory): string {
  return h.versions.map((v) => `${v.statement_type} ${v.fiscal_year} ${v.fiscal_period} v${v.version_sequence}`).join('; ') || 'none';
}

/** Versions as plain JSON-able data (figures in map order, so metric order is pinned too). */
function plainVersions(h: StatementHistory): unknown {
  return h.versions.map((v) => ({ ...v, figures: [...v.figures.entries()] }));
}

// ---------------------------------------------------------------------------------------------
// a calendar-year filer: three 10-Qs and a 10-K for fiscal 2024

const Q1: FilingMeta = { accession: '0000000042-24-000010', form: '10-Q', filed: '2024-05-02', fy: 2024, fp: 'Q1' };
const Q2: FilingMeta = { accession: '0000000042-24-000020', form: '10-Q', filed: '2024-08-01', fy: 2024, fp: 'Q2' };
const Q3: FilingMeta = { accession: '0000000042-24-000030', form: '10-Q', filed: '2024-10-31', fy: 2024, fp: 'Q3' };
const K24: FilingMeta = { accession: '0000000042-25-000005', form: '10-K', filed: '2025-02-14', fy: 2024, fp: 'FY' };

function fiscal2024(): Fact[] {
  return [
    ...filing(Q1, [
      [REV, '400', '2024-01-01', '2024-03-31'],
      [NI, '40', '2024-01-01', '2024-03-31'],
      [EPS, '0.40', '2024-01-01', '2024-03-31', PER_SHARE],
      [OCF, '100', '2024-01-01', '2024-03-31'],
      [ASSETS, '5000', null, '2024-03-31'],
    ]),
    ...filing(Q2, [
      [REV, '500', '2024-04-01', '2024-06-30'],
      [REV, '900', '2024-01-01', '2024-06-30'],
      [NI, '50', '2024-04-01', '2024-06-30'],
      [NI, '90', '2024-01-01', '2024-06-30'],
      [EPS, '0.50', '2024-04-01', '2024-06-30', PER_SHARE],
      // cash flow in a 10-Q: year to date only
      [OCF, '250', '2024-01-01', '2024-06-30'],
      [ASSETS, '5100', null, '2024-06-30'],
    ]),
    ...filing(Q3, [
      [REV, '600', '2024-07-01', '2024-09-30'],
      [REV, '1500', '2024-01-01', '2024-09-30'],
      [NI, '60', '2024-07-01', '2024-09-30'],
      [NI, '150', '2024-01-01', '2024-09-30'],
      [EPS, '0.60', '2024-07-01', '2024-09-30', PER_SHARE],
      [EPS, '1.50', '2024-01-01', '2024-09-30', PER_SHARE],
      [OCF, '420', '2024-01-01', '2024-09-30'],
      [ASSETS, '5200', null, '2024-09-30'],
    ]),
    ...filing(K24, [
      [REV, '2200', '2024-01-01', '2024-12-31'],
      [REV, '1800', '2023-01-01', '2023-12-31'],
      [NI, '230', '2024-01-01', '2024-12-31'],
      [NI, '170', '2023-01-01', '2023-12-31'],
      [EPS, '2.30', '2024-01-01', '2024-12-31', PER_SHARE],
      [OCF, '700', '2024-01-01', '2024-12-31'],
      [ASSETS, '5400', null, '2024-12-31'],
      [ASSETS, '4900', null, '2023-12-31'],
    ]),
  ];
}

// ---------------------------------------------------------------------------------------------

describe('calendar arithmetic', () => {
  it('counts days since 1970-01-01 exactly as the UTC calendar does, leap centuries included', () => {
    assert.equal(dayNumber('1970-01-01'), 0);
    assert.equal(dayNumber('1969-12-31'), -1);
    for (const d of ['1900-03-01', '2000-02-29', '2000-03-01', '2023-09-30', '2024-02-29', '2100-03-01', '2400-02-29']) {
      assert.equal(dayNumber(d), Date.parse(`${d}T00:00:00Z`) / 86_400_000, d);
    }
  });

  it('measures days between dates across leap days and non-leap centuries', () => {
    assert.equal(daysBetween('2024-02-28', '2024-03-01'), 2);
    assert.equal(daysBetween('2023-02-28', '2023-03-01'), 1);
    assert.equal(daysBetween('1900-02-28', '1900-03-01'), 1);
    assert.equal(daysBetween('2000-02-28', '2000-03-01'), 2);
    assert.equal(daysBetween('2024-12-31', '2024-01-01'), -365);
  });

  it('moves a date by whole years and turns Feb 29 into Feb 28 in a common year', () => {
    assert.equal(addYears('2023-09-30', 1), '2024-09-30');
    assert.equal(addYears('2023-09-30', -1), '2022-09-30');
    assert.equal(addYears('2024-02-29', 1), '2025-02-28');
    assert.equal(addYears('2024-02-29', -1), '2023-02-28');
    assert.equal(addYears('2024-02-29', 4), '2028-02-29');
    assert.equal(addYears('2000-02-29', 100), '2100-02-28');
  });

  it('classes durations as quarter, half, nine months or year and ignores other lengths', () => {
    assert.equal(durationClass('2024-01-01', '2024-03-31'), 'quarter');
    assert.equal(durationClass('2023-10-01', '2023-12-30'), 'quarter', '13-week quarter');
    assert.equal(durationClass('2024-01-01', '2024-06-30'), 'half');
    assert.equal(durationClass('2024-01-01', '2024-09-30'), 'nine_months');
    assert.equal(durationClass('2024-01-01', '2024-12-31'), 'year');
    assert.equal(durationClass('2023-09-25', '2024-09-21'), 'year', '52 weeks');
    assert.equal(durationClass('2022-09-25', '2023-09-30'), 'year', '53 weeks');
    assert.equal(durationClass('2024-01-01', '2024-01-31'), null, 'a month');
    assert.equal(durationClass('2023-01-01', '2024-06-30'), null, '18 months');
    assert.equal(durationClass('2024-01-01', '2024-01-01'), null, 'a day');
  });

  it('classes the 16-week first quarter and the 36-week year to date of 52/53-week retailers', () => {
    assert.equal(durationClass('2024-02-04', '2024-05-25'), 'quarter', 'Kroger: 16 weeks');
    assert.equal(durationClass('2023-09-04', '2024-05-12'), 'nine_months', 'Costco: 36 weeks');
  });
});

describe('fiscal calendar', () => {
  const annual = (end: string, start: string) => ({ start, end });
  const vote = (period_end: string, fiscal_year: number, weight = 3): LabelVote => ({ period_end, fiscal_year, weight });

  const fiftyTwoWeek = new FiscalCalendar({
    annual_periods: [
      annual('2022-09-24', '2021-09-26'),
      annual('2023-09-30', '2022-09-25'),
      annual('2024-09-28', '2023-10-01'),
    ],
    labels: [vote('2022-09-24', 2022), vote('2023-09-30', 2023), vote('2024-09-28', 2024)],
    fiscal_year_end: '0928',
  });

  it('places the quarter ending 2023-12-30 of a 52/53-week filer in fiscal 2024 Q1 and 2024-03-30 in Q2', () => {
    const q1 = fiftyTwoWeek.locate('2023-12-30');
    assert.deepEqual(q1, { fiscal_year: 2024, quarter: 1, year_start: '2023-10-01', year_end: '2024-09-28' });
    const q2 = fiftyTwoWeek.locate('2024-03-30');
    assert.equal(q2.fiscal_year, 2024);
    assert.equal(q2.quarter, 2);
    assert.deepEqual(fiftyTwoWeek.locate('2024-06-29'), { ...q1, quarter: 3 });
  });

  it('places the 52/53-week year ends themselves in their own fiscal year as the fourth quarter', () => {
    assert.deepEqual(fiftyTwoWeek.locate('2023-09-30'), { fiscal_year: 2023, quarter: 4, year_start: '2022-09-25', year_end: '2023-09-30' });
    assert.deepEqual(fiftyTwoWeek.locate('2024-09-28'), { fiscal_year: 2024, quarter: 4, year_start: '2023-10-01', year_end: '2024-09-28' });
    // a period end a few days off the year end (a stub or the calendar month end) is still that year
    assert.equal(fiftyTwoWeek.locate('2024-09-30').year_end, '2024-09-28');
    assert.equal(fiftyTwoWeek.locate('2024-09-30').fiscal_year, 2024);
  });

  it('projects year ends past the last known one and labels them with the filer\'s offset', () => {
    const next = fiftyTwoWeek.locate('2024-12-28');
    assert.equal(next.fiscal_year, 2025);
    assert.equal(next.quarter, 1);
    assert.equal(next.year_end, '2025-09-28');
  });

  it('labels the year ended 2025-02-02 fiscal 2024 for a filer whose 10-K calls it so (Home Depot)', () => {
    const cal = new FiscalCalendar({
      annual_periods: [annual('2024-01-28', '2023-01-30'), annual('2025-02-02', '2024-01-29')],
      labels: [vote('2024-01-28', 2023), vote('2025-02-02', 2024)],
      fiscal_year_end: '0202',
    });
    assert.equal(cal.locate('2025-02-02').fiscal_year, 2024);
    assert.equal(cal.locate('2025-02-02').quarter, 4);
    assert.equal(cal.locate('2024-04-28').fiscal_year, 2024, 'first quarter of fiscal 2024');
    assert.equal(cal.locate('2024-04-28').quarter, 1);
  });

  it('labels the year ended 2025-01-31 fiscal 2025 for a filer whose 10-K calls it so (Walmart)', () => {
    const cal = new FiscalCalendar({
      annual_periods: [annual('2024-01-31', '2023-02-01'), annual('2025-01-31', '2024-02-01')],
      labels: [vote('2024-01-31', 2024), vote('2025-01-31', 2025)],
      fiscal_year_end: '0131',
    });
    assert.equal(cal.locate('2025-01-31').fiscal_year, 2025);
    assert.equal(cal.locate('2024-04-30').fiscal_year, 2025, 'first quarter of fiscal 2025');
    assert.equal(cal.locate('2024-04-30').quarter, 1);
  });

  it('labels years in sequence back from the latest report, so an old off-by-one focus tag neither repeats nor skips a year', () => {
    // like Walmart: its 10-Ks for the years to 2013-01-31 and 2014-01-31 tagged fiscal year focus
    // 2012 and 2013, those from 2015 on tag the year they end in; no year may be skipped or doubled
    const cal = new FiscalCalendar({
      annual_periods: ['2013-01-31', '2014-01-31', '2015-01-31', '2016-01-31', '2018-01-31'].map((end) => annual(end, `${Number(end.slice(0, 4)) - 1}-02-01`)),
      labels: [vote('2013-01-31', 2012), vote('2014-01-31', 2013), vote('2015-01-31', 2015), vote('2016-01-31', 2016), vote('2018-01-31', 2018)],
      fiscal_year_end: '0131',
    });
    assert.equal(cal.labelOf('2018-01-31'), 2018, "the latest report's own label");
    assert.equal(cal.labelOf('2016-01-31'), 2016, 'two years apart: one label skipped, as the years are');
    assert.equal(cal.labelOf('2015-01-31'), 2015);
    assert.equal(cal.labelOf('2014-01-31'), 2014, 'the off-by-one vote (2013) would have labelled two years 2013');
    assert.equal(cal.labelOf('2013-01-31'), 2013);
    assert.equal(cal.locate('2012-01-31').fiscal_year, 2012, 'a comparative before every report continues the sequence');
    assert.equal(cal.locate('2018-10-31').fiscal_year, 2019, 'a quarter after the last year end belongs to the next label');
  });

  it('lets annual reports outvote quarterly reports that tag another fiscal year', () => {
    const cal = new FiscalCalendar({
      annual_periods: [annual('2024-09-28', '2023-10-01')],
      // two 10-Qs of the year tag fy 2023 (wrong); the 10-K tags fy 2024
      labels: [vote('2023-12-30', 2023, 1), vote('2024-03-30', 2023, 1), vote('2024-09-28', 2024, 3)],
      fiscal_year_end: '0928',
    });
    assert.equal(cal.locate('2023-12-30').fiscal_year, 2024);
    assert.equal(cal.locate('2024-09-28').fiscal_year, 2024);
  });

  it('takes the labels from the filer\'s own reports when building history: a 10-Q tagged with another year is outvoted by the 10-K', () => {
    const tenK: FilingMeta = { accession: '0000000042-24-000100', form: '10-K', filed: '2024-11-01', fy: 2024, fp: 'FY' };
    const tenQ: FilingMeta = { accession: '0000000042-24-000010', form: '10-Q', filed: '2024-02-01', fy: 2023, fp: 'Q1' };
    const h = history(
      [
        ...filing(tenQ, [[REV, '90', '2023-10-01', '2023-12-30']]),
        ...filing(tenK, [
          [REV, '380', '2023-10-01', '2024-09-28'],
          [REV, '370', '2022-09-25', '2023-09-30'],
        ]),
      ],
      '0928',
    );
    assert.equal(figure(onlyVersion(h, 'INCOME_STATEMENT', 2024, 'Q1'), 'REVENUE').value, '90');
    assert.equal(figure(onlyVersion(h, 'INCOME_STATEMENT', 2024, 'FY'), 'REVENUE').value, '380');
    assert.equal(figure(onlyVersion(h, 'INCOME_STATEMENT', 2023, 'FY'), 'REVENUE').value, '370');
    assert.equal(versionsOf(h, 'INCOME_STATEMENT', 2023, 'Q1').length, 0);
  });

  it('takes the period of a 10-K comparative from its dates, not from the fy the filing tagged it with', () => {
    // Home Depot-like: the 10-K for the year ended 2025-02-02 is fy 2024, and tags its prior-year column fy 2024 too
    const tenK: FilingMeta = { accession: '0000000042-25-000011', form: '10-K', filed: '2025-03-21', fy: 2024, fp: 'FY' };
    const h = history(
      filing(tenK, [
        [REV, '159514000000', '2024-01-29', '2025-02-02'],
        [REV, '152669000000', '2023-01-30', '2024-01-28'],
        [NI, '14806000000', '2024-01-29', '2025-02-02'],
        [NI, '15143000000', '2023-01-30', '2024-01-28'],
        [ASSETS, '96119000000', null, '2025-02-02'],
        [ASSETS, '76530000000', null, '2024-01-28'],
      ]),
      '0202',
    );
    const current = onlyVersion(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.equal(current.period_end, '2025-02-02');
    assert.equal(figure(current, 'REVENUE').value, '159514000000');
    const prior = onlyVersion(h, 'INCOME_STATEMENT', 2023, 'FY');
    assert.equal(prior.period_start, '2023-01-30');
    assert.equal(prior.period_end, '2024-01-28');
    assert.equal(figure(prior, 'NET_INCOME').value, '15143000000');
    assert.equal(figure(onlyVersion(h, 'BALANCE_SHEET', 2023, 'FY'), 'TOTAL_ASSETS').value, '76530000000');
    assert.equal(figure(onlyVersion(h, 'BALANCE_SHEET', 2024, 'FY'), 'TOTAL_ASSETS').value, '96119000000');
    assert.deepEqual(
      h.versions.map((v) => `${v.statement_type} ${v.fiscal_year} ${v.fiscal_period}`).sort(),
      ['BALANCE_SHEET 2023 FY', 'BALANCE_SHEET 2024 FY', 'INCOME_STATEMENT 2023 FY', 'INCOME_STATEMENT 2024 FY'],
    );
  });
});

describe('which filings make statements', () => {
  it('builds no version from DEF 14A or 8-K facts even when they tag the same concepts and periods with other values', () => {
    const tenK: FilingMeta = { accession: '0000000042-25-000005', form: '10-K', filed: '2025-02-14', fy: 2024, fp: 'FY' };
    const proxy: FilingMeta = { accession: '0000000042-25-000050', form: 'DEF 14A', filed: '2025-04-10', fy: 2024, fp: 'FY' };
    const eightK: FilingMeta = { accession: '0000000042-25-000060', form: '8-K', filed: '2025-05-01', fy: 2025, fp: 'Q1' };
    const h = history([
      ...filing(tenK, [
        [REV, '2200', '2024-01-01', '2024-12-31'],
        [NI, '230', '2024-01-01', '2024-12-31'],
        [ASSETS, '5400', null, '2024-12-31'],
      ]),
      ...filing(proxy, [
        [NI, '231', '2024-01-01', '2024-12-31'],
        [NI, '170', '2023-01-01', '2023-12-31'],
      ]),
      ...filing(eightK, [
        [REV, '2300', '2024-01-01', '2024-12-31'],
        [ASSETS, '5500', null, '2024-12-31'],
        [REV, '600', '2025-01-01', '2025-03-31'],
      ]),
    ]);
    assert.equal(h.periodic_filings, 1);
    assert.deepEqual(
      h.versions.map((v) => `${v.statement_type} ${v.fiscal_year} ${v.fiscal_period} v${v.version_sequence} ${v.filing.accession}`),
      [`BALANCE_SHEET 2024 FY v1 ${tenK.accession}`, `INCOME_STATEMENT 2024 FY v1 ${tenK.accession}`],
    );
    const income = onlyVersion(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.equal(figure(income, 'NET_INCOME').value, '230');
    assert.equal(figure(income, 'REVENUE').value, '2200');
    assert.equal(figure(onlyVersion(h, 'BALANCE_SHEET', 2024, 'FY'), 'TOTAL_ASSETS').value, '5400');
  });
});

describe('discrete and fourth quarters', () => {
  const h = history(fiscal2024());

  it('derives the second-quarter operating cash flow as six months minus the first quarter, naming both filings', () => {
    const cf = onlyVersion(h, 'CASH_FLOW_STATEMENT', 2024, 'Q2');
    assert.equal(cf.filing.accession, Q2.accession);
    assert.equal(cf.period_start, '2024-04-01');
    assert.equal(cf.period_end, '2024-06-30');
    const ocf = figure(cf, 'OPERATING_CASH_FLOW');
    assert.equal(ocf.value, '150');
    assert.equal(ocf.value_origin, 'DERIVED');
    assert.equal(ocf.mapping_type, 'DERIVED_DISCRETE_QUARTER');
    assert.equal(ocf.source_xbrl_concept, null);
    assert.equal(ocf.source_accession, Q2.accession);
    assert.equal(ocf.period_start, '2024-04-01');
    assert.equal(ocf.period_end, '2024-06-30');
    assert.deepEqual(ocf.calculation_steps, [
      {
        operation: 'base', metric: 'OPERATING_CASH_FLOW', value: '250', period_start: '2024-01-01', period_end: '2024-06-30',
        source_accession: Q2.accession, source_xbrl_concept: OCF,
      },
      {
        operation: 'subtract', metric: 'OPERATING_CASH_FLOW', value: '100', period_start: '2024-01-01', period_end: '2024-03-31',
        source_accession: Q1.accession, source_xbrl_concept: OCF,
      },
    ]);
  });

  it('derives the third-quarter cash flow from nine months minus six months of the previous 10-Q', () => {
    const ocf = figure(onlyVersion(h, 'CASH_FLOW_STATEMENT', 2024, 'Q3'), 'OPERATING_CASH_FLOW');
    assert.equal(ocf.value, '170');
    assert.deepEqual(ocf.calculation_steps?.map((s) => [s.operation, s.value, s.source_accession]), [
      ['base', '420', Q3.accession],
      ['subtract', '250', Q2.accession],
    ]);
  });

  it('serves the first-quarter cash flow as filed, since three months are the year to date', () => {
    const ocf = figure(onlyVersion(h, 'CASH_FLOW_STATEMENT', 2024, 'Q1'), 'OPERATING_CASH_FLOW');
    assert.equal(ocf.value, '100');
    assert.equal(ocf.value_origin, 'SOURCE');
    assert.equal(ocf.mapping_type, null);
    assert.equal(ocf.calculation_steps, null);
  });

  it('uses a 10-Q\'s own three-month income figures rather than deriving them', () => {
    const is = onlyVersion(h, 'INCOME_STATEMENT', 2024, 'Q2');
    assert.equal(is.period_start, '2024-04-01');
    assert.equal(is.period_end, '2024-06-30');
    const revenue = figure(is, 'REVENUE');
    assert.deepEqual(
      { value: revenue.value, origin: revenue.value_origin, mapping: revenue.mapping_type, concept: revenue.source_xbrl_concept, accession: revenue.source_accession, start: revenue.period_start, steps: revenue.calculation_steps },
      { value: '500', origin: 'SOURCE', mapping: null, concept: REV, accession: Q2.accession, start: '2024-04-01', steps: null },
    );
    assert.equal(figure(is, 'EPS_BASIC').value, '0.50');
    assert.equal(figure(is, 'EPS_BASIC').unit, PER_SHARE);
  });

  it('derives the fourth quarter as the full year minus nine months, and never a fourth-quarter EPS', () => {
    const q4 = onlyVersion(h, 'INCOME_STATEMENT', 2024, 'Q4');
    assert.equal(q4.filing.accession, K24.accession);
    assert.equal(q4.period_start, '2024-10-01');
    assert.equal(q4.period_end, '2024-12-31');
    const revenue = figure(q4, 'REVENUE');
    assert.equal(revenue.value, '700');
    assert.equal(revenue.value_origin, 'DERIVED');
    assert.equal(revenue.mapping_type, 'DERIVED_Q4');
    assert.equal(revenue.source_accession, K24.accession);
    assert.deepEqual(revenue.calculation_steps?.map((s) => [s.operation, s.value, s.period_start, s.period_end, s.source_accession]), [
      ['base', '2200', '2024-01-01', '2024-12-31', K24.accession],
      ['subtract', '1500', '2024-01-01', '2024-09-30', Q3.accession],
    ]);
    assert.equal(figure(q4, 'NET_INCOME').value, '80');
    assert.equal(q4.figures.has('EPS_BASIC'), false, 'per-share figures do not subtract');
    assert.equal(figure(onlyVersion(h, 'INCOME_STATEMENT', 2024, 'FY'), 'EPS_BASIC').value, '2.30');
  });

  it('derives the fourth-quarter cash flow from the 10-K and the third-quarter 10-Q', () => {
    const ocf = figure(onlyVersion(h, 'CASH_FLOW_STATEMENT', 2024, 'Q4'), 'OPERATING_CASH_FLOW');
    assert.equal(ocf.value, '280');
    assert.equal(ocf.mapping_type, 'DERIVED_Q4');
  });

  it('derives the third quarter and the fourth quarter of a 12/12/12/16-week filer (Costco)', () => {
    const meta = (accession: string, form: string, filed: string, fp: string): FilingMeta => ({ accession, form, filed, fy: 2024, fp });
    const h2 = history(
      [
        ...filing(meta('0000000042-23-000100', '10-Q', '2023-12-20', 'Q1'), [[OCF, '4651', '2023-09-04', '2023-11-26'], [REV, '57799', '2023-09-04', '2023-11-26']]),
        ...filing(meta('0000000042-24-000100', '10-Q', '2024-03-14', 'Q2'), [[OCF, '5382', '2023-09-04', '2024-02-18'], [REV, '58442', '2023-11-27', '2024-02-18'], [REV, '116241', '2023-09-04', '2024-02-18']]),
        ...filing(meta('0000000042-24-000200', '10-Q', '2024-06-06', 'Q3'), [[OCF, '8100', '2023-09-04', '2024-05-12'], [REV, '58515', '2024-02-19', '2024-05-12'], [REV, '174756', '2023-09-04', '2024-05-12']]),
        ...filing(meta('0000000042-24-000300', '10-K', '2024-10-09', 'FY'), [[OCF, '11339', '2023-09-04', '2024-09-01'], [REV, '254453', '2023-09-04', '2024-09-01'], [REV, '242290', '2022-08-29', '2023-09-03']]),
      ],
      '0901',
    );
    assert.equal(figure(onlyVersion(h2, 'CASH_FLOW_STATEMENT', 2024, 'Q3'), 'OPERATING_CASH_FLOW').value, '2718');
    assert.equal(figure(onlyVersion(h2, 'INCOME_STATEMENT', 2024, 'Q4'), 'REVENUE').value, '79697');
    assert.equal(figure(onlyVersion(h2, 'CASH_FLOW_STATEMENT', 2024, 'Q4'), 'OPERATING_CASH_FLOW').value, '3239');
  });

  it('makes no fourth quarter when the nine months are unknown', () => {
    const h2 = history(fiscal2024().filter((f) => f.accession !== Q3.accession));
    assert.equal(versionsOf(h2, 'INCOME_STATEMENT', 2024, 'Q4').length, 0);
    assert.equal(versionsOf(h2, 'CASH_FLOW_STATEMENT', 2024, 'Q4').length, 0);
    assert.equal(versionsOf(h2, 'INCOME_STATEMENT', 2024, 'FY').length, 1);
  });

  it('never files a fourth quarter from a quarterly report and never a balance sheet other than at period ends', () => {
    const periods = new Set(h.versions.map((v) => `${v.statement_type} ${v.fiscal_year} ${v.fiscal_period}`));
    assert.deepEqual([...periods].sort(), [
      'BALANCE_SHEET 2023 FY', 'BALANCE_SHEET 2024 FY', 'BALANCE_SHEET 2024 Q1', 'BALANCE_SHEET 2024 Q2', 'BALANCE_SHEET 2024 Q3',
      'CASH_FLOW_STATEMENT 2024 FY', 'CASH_FLOW_STATEMENT 2024 Q1', 'CASH_FLOW_STATEMENT 2024 Q2', 'CASH_FLOW_STATEMENT 2024 Q3', 'CASH_FLOW_STATEMENT 2024 Q4',
      'INCOME_STATEMENT 2023 FY', 'INCOME_STATEMENT 2024 FY', 'INCOME_STATEMENT 2024 Q1', 'INCOME_STATEMENT 2024 Q2', 'INCOME_STATEMENT 2024 Q3', 'INCOME_STATEMENT 2024 Q4',
    ]);
    assert.ok(h.versions.every((v) => v.version_sequence === 1), describeVersions(h));
  });
});

describe('versions and restatements', () => {
  const K24A: FilingMeta = { accession: '0000000042-25-000077', form: '10-K/A', filed: '2025-05-20', fy: 2024, fp: 'FY' };
  const K25: FilingMeta = { accession: '0000000042-26-000004', form: '10-K', filed: '2026-02-13', fy: 2025, fp: 'FY' };

  const original = filing(K24, [
    [REV, '95799932', '2024-01-01', '2024-12-31'],
    [NI, '230', '2024-01-01', '2024-12-31'],
    [EPS, '2.30', '2024-01-01', '2024-12-31', PER_SHARE],
  ]);
  const amendment = filing(K24A, [
    [NI, '212', '2024-01-01', '2024-12-31'],
    [EPS, '2.30', '2024-01-01', '2024-12-31', PER_SHARE],
  ]);

  it('adds version 2 for a 10-K/A that changes net income, carrying the new value and the unchanged metrics with their original provenance', () => {
    const h = history([...original, ...amendment]);
    const [v1, v2, ...rest] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.equal(rest.length, 0);
    assert.ok(v1 && v2);
    assert.equal(v2.version_sequence, 2);
    assert.equal(v2.filing.accession, K24A.accession);
    assert.equal(v2.filing.form, '10-K/A');
    assert.equal(figure(v2, 'NET_INCOME').value, '212');
    assert.equal(figure(v2, 'NET_INCOME').source_accession, K24A.accession);
    const revenue = figure(v2, 'REVENUE');
    assert.equal(revenue.value, '95799932');
    assert.equal(revenue.source_accession, K24.accession, 'a metric the amendment does not present keeps its first filing');
    assert.equal(revenue.source_xbrl_concept, REV);
    assert.deepEqual(v2.revisions, [
      {
        metric: 'NET_INCOME', old_value: '230', new_value: '212', difference: '-18',
        old_accession: K24.accession, new_accession: K24A.accession, old_concept: NI, new_concept: NI,
      },
    ]);
  });

  it('leaves version 1 exactly as it was when version 2 is added', () => {
    const alone = versionsOf(history(original), 'INCOME_STATEMENT', 2024, 'FY');
    const [v1] = versionsOf(history([...original, ...amendment]), 'INCOME_STATEMENT', 2024, 'FY');
    assert.ok(v1);
    assert.equal(v1.version_sequence, 1);
    assert.equal(v1.filing.accession, K24.accession);
    assert.deepEqual(v1.revisions, []);
    assert.equal(figure(v1, 'NET_INCOME').value, '230');
    assert.deepEqual([...v1.figures.entries()], [...alone[0]!.figures.entries()]);
  });

  it('adds no version when the next 10-K presents the year again with identical values', () => {
    const next = filing(K25, [
      [REV, '99000000', '2025-01-01', '2025-12-31'],
      [REV, '95799932', '2024-01-01', '2024-12-31'],
      [NI, '250', '2025-01-01', '2025-12-31'],
      [NI, '230', '2024-01-01', '2024-12-31'],
    ]);
    const h = history([...original, ...next]);
    const v = onlyVersion(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.equal(v.filing.accession, K24.accession);
    assert.equal(figure(v, 'REVENUE').source_accession, K24.accession);
    assert.equal(onlyVersion(h, 'INCOME_STATEMENT', 2025, 'FY').filing.accession, K25.accession);
  });

  it('adds no version when a later filing tells the same figure at another precision (95800000 for 95799932)', () => {
    const next = filing(K25, [
      [REV, '99000000', '2025-01-01', '2025-12-31'],
      [REV, '95800000', '2024-01-01', '2024-12-31'],
    ]);
    const v = onlyVersion(history([...original, ...next]), 'INCOME_STATEMENT', 2024, 'FY');
    assert.equal(figure(v, 'REVENUE').value, '95799932');
  });

  it('adds a version when a later filing changes a value beyond its stated precision', () => {
    const next = filing(K25, [
      [REV, '99000000', '2025-01-01', '2025-12-31'],
      [REV, '95700000', '2024-01-01', '2024-12-31'],
    ]);
    const [, v2] = versionsOf(history([...original, ...next]), 'INCOME_STATEMENT', 2024, 'FY');
    assert.ok(v2);
    assert.equal(v2.filing.accession, K25.accession);
    assert.deepEqual(v2.revisions.map((r) => [r.metric, r.old_value, r.new_value, r.difference]), [['REVENUE', '95799932', '95700000', '-99932']]);
  });

  it('adds a version that revises nothing for a metric no earlier version had, visible from its filing date', () => {
    const onlyAdds = filing({ ...K24A, accession: '0000000042-25-000070', filed: '2025-04-01' }, [[GROSS, '40000000', '2024-01-01', '2024-12-31']]);
    const h = history([...original, ...onlyAdds, ...amendment]);
    const vs = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.deepEqual(vs.map((v) => v.filing.accession), [K24.accession, '0000000042-25-000070', K24A.accession]);
    assert.equal(vs[1]!.figures.get('GROSS_PROFIT')?.value, '40000000', 'the later figure is on the version it made');
    assert.equal(vs[1]!.filing.filing_date, '2025-04-01', 'point-in-time reads see it from its own filing date');
    assert.deepEqual(vs[1]!.revisions, [], 'a later figure revises nothing: no restatement alert, no fact revision');
    assert.equal(vs[2]!.figures.get('GROSS_PROFIT')?.value, '40000000', 'and it rides along in the next version');
  });

  it('keeps the previous figure when a version-making filing re-tells it at a coarser precision', () => {
    const h = history([...original, ...filing(K24A, [[REV, '95800000', '2024-01-01', '2024-12-31'], [NI, '212', '2024-01-01', '2024-12-31']])]);
    const [, v2] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.ok(v2);
    assert.deepEqual(v2.revisions.map((r) => r.metric), ['NET_INCOME']);
    assert.equal(figure(v2, 'REVENUE').value, '95799932');
    assert.equal(figure(v2, 'REVENUE').source_accession, K24.accession);
  });

  it('builds the same history from the same input twice, down to metric and version order', () => {
    const input = [...fiscal2024(), ...amendment];
    const a = history(input);
    const b = history(input);
    assert.equal(JSON.stringify(plainVersions(a)), JSON.stringify(plainVersions(b)));
    assert.deepEqual(plainVersions(a), plainVersions(b));
  });

  it('orders filings filed the same day by accession, whatever order their facts arrive in', () => {
    const early: FilingMeta = { accession: '0000000042-25-000001', form: '10-K', filed: '2025-02-14', fy: 2024, fp: 'FY' };
    const late: FilingMeta = { accession: '0000000042-25-000002', form: '10-K/A', filed: '2025-02-14', fy: 2024, fp: 'FY' };
    const facts = [
      ...filing(early, [[NI, '230', '2024-01-01', '2024-12-31']]),
      ...filing(late, [[NI, '212', '2024-01-01', '2024-12-31']]),
    ];
    for (const input of [facts, [...facts].reverse()]) {
      const vs = versionsOf(history(input), 'INCOME_STATEMENT', 2024, 'FY');
      assert.deepEqual(vs.map((v) => [v.version_sequence, v.filing.accession, figure(v, 'NET_INCOME').value]), [
        [1, early.accession, '230'],
        [2, late.accession, '212'],
      ]);
    }
  });

  it('picks the same figures and versions whatever order a filing\'s facts arrive in', () => {
    // within one filing, the order of versions and of metrics follows the facts; the content does not
    const sorted = (h: StatementHistory) =>
      h.versions
        .map((v) => ({ ...v, figures: [...v.figures.entries()].sort((x, y) => x[0].localeCompare(y[0])) }))
        .sort((a, b) => `${a.statement_type}|${a.fiscal_year}|${a.fiscal_period}|${a.version_sequence}`.localeCompare(`${b.statement_type}|${b.fiscal_year}|${b.fiscal_period}|${b.version_sequence}`));
    const input = [...fiscal2024(), ...amendment];
    assert.deepEqual(sorted(history([...input].reverse())), sorted(history(input)));
  });

  it('folds presentations directly: equal values add nothing, a change adds a version with old, new and difference', () => {
    const first: FilingInfo = {
      accession: 'A-1', form: '10-K', filing_date: '2025-02-14', report_date: '2024-12-31', accepted_at: null,
      primary_document: null, fiscal_year_focus: 2024, fiscal_period_focus: 'FY', source: 'submissions', filing_date_estimated: false,
    };
    const second: FilingInfo = { ...first, accession: 'A-2', form: '10-K/A', filing_date: '2025-06-01' };
    const fig = (metric: string, value: string, accession: string): StatementFigure => ({
      metric, value, unit: 'USD', period_start: '2024-01-01', period_end: '2024-12-31', source_accession: accession,
      source_xbrl_concept: `us-gaap:${metric}`, mapping_type: null, selection_rule: 'CANDIDATE_ORDER', value_origin: 'SOURCE', correction_rule: null,
      as_filed_value: null, as_filed_concept: null, calculation_steps: null,
    });
    const presentation = (figures: StatementFigure[]): Presentation => ({
      statement_type: 'INCOME_STATEMENT', fiscal_year: 2024, fiscal_period: 'FY', period_start: '2024-01-01',
      period_end: '2024-12-31', currency: 'USD', figures: new Map(figures.map((f) => [f.metric, f])),
    });
    const list: BuiltVersion[] = [];
    assert.equal(foldPresentation(list, presentation([fig('A', '10.5', 'A-1'), fig('B', '7', 'A-1')]), first)?.version_sequence, 1);
    assert.equal(foldPresentation(list, presentation([fig('A', '10.50', 'A-2')]), second), null, '10.50 = 10.5');
    const v2 = foldPresentation(list, presentation([fig('A', '10.25', 'A-2')]), second);
    assert.ok(v2);
    assert.equal(v2.version_sequence, 2);
    assert.deepEqual(v2.revisions.map((r) => [r.old_value, r.new_value, r.difference, r.old_accession, r.new_accession]), [['10.5', '10.25', '-0.25', 'A-1', 'A-2']]);
    assert.equal(v2.figures.get('B')?.source_accession, 'A-1');
    assert.equal(list.length, 2);
    assert.equal(list[0]!.figures.get('A')?.value, '10.5');
  });
});

describe('corrections', () => {
  it('serves a cost of revenue tagged as a credit positive when revenue + cost = gross profit, keeping the tagged value', () => {
    const tenK: FilingMeta = { accession: '0000000042-25-000005', form: '10-K', filed: '2025-02-14', fy: 2024, fp: 'FY' };
    const h = history(
      filing(tenK, [
        [REV, '1000', '2024-01-01', '2024-12-31'],
        [COST, '-600', '2024-01-01', '2024-12-31'],
        [GROSS, '400', '2024-01-01', '2024-12-31'],
      ]),
    );
    const v = onlyVersion(h, 'INCOME_STATEMENT', 2024, 'FY');
    const cost = figure(v, 'COST_OF_REVENUE');
    assert.deepEqual(
      { value: cost.value, rule: cost.correction_rule, as_filed: cost.as_filed_value, origin: cost.value_origin, concept: cost.source_xbrl_concept },
      { value: '600', rule: 'COST_OF_REVENUE_CREDIT_SIGN', as_filed: '-600', origin: 'SOURCE', concept: COST },
    );
    assert.equal(figure(v, 'REVENUE').correction_rule, null);
    assert.equal(figure(v, 'GROSS_PROFIT').value, '400');
  });

  const sourceFig = (metric: string, value: string, concept: string): StatementFigure => ({
    metric, value, unit: 'USD', period_start: '2024-01-01', period_end: '2024-12-31', source_accession: 'A-1',
    source_xbrl_concept: concept, mapping_type: null, selection_rule: 'CANDIDATE_ORDER', value_origin: 'SOURCE', correction_rule: null,
    as_filed_value: null, as_filed_concept: null, calculation_steps: null,
  });
  const figs = (revenue: string, cost: string, gross: string) =>
    new Map([
      ['REVENUE', sourceFig('REVENUE', revenue, REV)],
      ['COST_OF_REVENUE', sourceFig('COST_OF_REVENUE', cost, COST)],
      ['GROSS_PROFIT', sourceFig('GROSS_PROFIT', gross, GROSS)],
    ]);

  it('leaves a negative cost of revenue alone when gross profit does not prove the credit reading', () => {
    const m = figs('1000', '-600', '1600');
    applyIncomeCorrections(m, []);
    assert.equal(m.get('COST_OF_REVENUE')!.value, '-600');
    assert.equal(m.get('COST_OF_REVENUE')!.correction_rule, null);
    const unproven = figs('1000', '-600', '450');
    applyIncomeCorrections(unproven, []);
    assert.equal(unproven.get('COST_OF_REVENUE')!.value, '-600');
  });

  it('never corrects a derived figure', () => {
    const m = figs('1000', '-600', '400');
    m.set('COST_OF_REVENUE', { ...m.get('COST_OF_REVENUE')!, value_origin: 'DERIVED', mapping_type: 'DERIVED_Q4' });
    applyIncomeCorrections(m, []);
    assert.equal(m.get('COST_OF_REVENUE')!.value, '-600');
  });

  it('replaces a residual top line with the filing\'s revenue tag that reconciles with gross profit, naming the tag it replaced', () => {
    const m = figs('50', '600', '400');
    const fitting: Candidate = {
      metric: 'REVENUE', rank: 1, value: '1000', tagged_value: '1000', concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      fact: fact({ concept: 'RevenueFromContractWithCustomerExcludingAssessedTax', value: '1000', start: '2024-01-01', end: '2024-12-31', accession: 'A-1', form: '10-K', filed: '2025-02-14', fy: 2024, fp: 'FY' }),
    };
    applyIncomeCorrections(m, [fitting]);
    const revenue = m.get('REVENUE')!;
    assert.deepEqual(
      [revenue.value, revenue.source_xbrl_concept, revenue.correction_rule, revenue.as_filed_concept, revenue.mapping_type],
      ['1000', 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', 'REVENUE_RESIDUAL_TOP_LINE_REPLACED', REV, 'CORRECTION'],
    );
  });
});

describe('the change in cash tagged before the exchange-rate effect', () => {
  const NET = 'us-gaap:CashAndCashEquivalentsPeriodIncreaseDecrease';
  const ICF = 'us-gaap:NetCashProvidedByUsedInInvestingActivities';
  const FCF = 'us-gaap:NetCashProvidedByUsedInFinancingActivities';
  const FX = 'us-gaap:EffectOfExchangeRateOnCashAndCashEquivalents';
  const Y = ['2024-01-01', '2024-12-31'] as const;
  /** Home Depot's fiscal 2008: sections 5,528 - 1,729 - 3,680 = 119 tagged as the change, beside an effect of -45 */
  const cashRows = (net: string, fx: string, period: readonly [string, string] = Y, scale = 1): Row[] => [
    [OCF, String(5528 * scale), ...period],
    [ICF, String(-1729 * scale), ...period],
    [FCF, String(-3680 * scale), ...period],
    [FX, fx, ...period],
    [NET, net, ...period],
  ];

  it('serves the subtotal plus the effect when the tagged change is exactly the three sections beside a non-zero effect, keeping the tagged value', () => {
    const v = onlyVersion(history(filing(K24, cashRows('119', '-45'))), 'CASH_FLOW_STATEMENT', 2024, 'FY');
    const net = figure(v, 'NET_CHANGE_IN_CASH');
    assert.deepEqual(
      { value: net.value, rule: net.correction_rule, as_filed: net.as_filed_value, origin: net.value_origin, concept: net.source_xbrl_concept, steps: net.calculation_steps },
      { value: '74', rule: 'NET_CHANGE_IN_CASH_FX_EFFECT_ADDED', as_filed: '119', origin: 'SOURCE', concept: NET, steps: null },
    );
    assert.equal(figure(v, 'EFFECT_OF_EXCHANGE_RATE_ON_CASH').value, '-45');
  });

  it('leaves the change alone where it already includes the effect, where the effect is zero, or where the sections miss it', () => {
    for (const [net, fx] of [['74', '-45'], ['119', '0'], ['120', '-45']] as const) {
      const v = onlyVersion(history(filing(K24, cashRows(net, fx))), 'CASH_FLOW_STATEMENT', 2024, 'FY');
      const f = figure(v, 'NET_CHANGE_IN_CASH');
      assert.deepEqual([f.value, f.correction_rule, f.as_filed_value], [net, null, null], `change ${net}, effect ${fx}`);
    }
  });

  it('never corrects with figures of two tellings: an effect from another filing proves nothing about this one', () => {
    const m = figuresOf([
      ['OPERATING_CASH_FLOW', '5528', 'A-2'],
      ['INVESTING_CASH_FLOW', '-1729', 'A-2'],
      ['FINANCING_CASH_FLOW', '-3680', 'A-2'],
      ['EFFECT_OF_EXCHANGE_RATE_ON_CASH', '-45', 'A-1'],
      ['NET_CHANGE_IN_CASH', '119', 'A-2'],
    ], Y[0], Y[1]);
    applyCashFlowCorrections(m);
    assert.deepEqual([m.get('NET_CHANGE_IN_CASH')!.value, m.get('NET_CHANGE_IN_CASH')!.correction_rule], ['119', null]);
  });

  it('corrects a quarter derived from two year-to-dates told before the effect, adding the effect\'s steps after its own', () => {
    const h = history([
      ...filing(Q1, cashRows('119', '-45', ['2024-01-01', '2024-03-31'])),
      ...filing(Q2, cashRows('238', '-50', ['2024-01-01', '2024-06-30'], 2)),
    ]);
    const q2 = figure(onlyVersion(h, 'CASH_FLOW_STATEMENT', 2024, 'Q2'), 'NET_CHANGE_IN_CASH');
    assert.equal(q2.value, '114', '(238 - 119) + (-50 - -45)');
    assert.deepEqual([q2.value_origin, q2.correction_rule, q2.as_filed_value], ['DERIVED', 'NET_CHANGE_IN_CASH_FX_EFFECT_ADDED', '119']);
    assert.deepEqual(q2.calculation_steps!.map((s) => [s.operation, s.metric, s.value, s.source_accession]), [
      ['base', 'NET_CHANGE_IN_CASH', '238', Q2.accession],
      ['subtract', 'NET_CHANGE_IN_CASH', '119', Q1.accession],
      ['add', 'EFFECT_OF_EXCHANGE_RATE_ON_CASH', '-50', Q2.accession],
      ['subtract', 'EFFECT_OF_EXCHANGE_RATE_ON_CASH', '-45', Q1.accession],
    ]);
  });

  it('leaves a quarter derived from a year-to-date told with the effect and one told before it as derived: its arithmetic proves nothing', () => {
    const h = history([
      ...filing(Q1, cashRows('74', '-45', ['2024-01-01', '2024-03-31'])),
      ...filing(Q2, cashRows('238', '-50', ['2024-01-01', '2024-06-30'], 2)),
    ]);
    const q2 = figure(onlyVersion(h, 'CASH_FLOW_STATEMENT', 2024, 'Q2'), 'NET_CHANGE_IN_CASH');
    assert.deepEqual([q2.value, q2.correction_rule], ['164', null]);
  });
});

describe('a line of the equity section tagged as total equity', () => {
  const TOTAL = 'us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest';
  const PARENT = 'us-gaap:StockholdersEquity';
  const AOCI = 'us-gaap:AccumulatedOtherComprehensiveIncomeLossNetOfTax';
  const NCI = 'us-gaap:MinorityInterest';
  const END = '2024-12-31';
  const sheet = (total: string, extra: Row[] = []) => filing(K24, [[ASSETS, '18594', null, END], [PARENT, '10824', null, END], [AOCI, '85', null, END], [TOTAL, total, null, END], ...extra]);

  it("serves stockholders' equity plus noncontrolling interest where the total tag holds exactly a line of the equity section (Nike's accumulated other comprehensive income), keeping the tagged value", () => {
    const v = onlyVersion(history(sheet('85')), 'BALANCE_SHEET', 2024, 'FY');
    const total = figure(v, 'TOTAL_EQUITY');
    assert.deepEqual(
      { value: total.value, rule: total.correction_rule, as_filed: total.as_filed_value, concept: total.source_xbrl_concept },
      { value: '10824', rule: 'TOTAL_EQUITY_COMPONENT_REPLACED', as_filed: '85', concept: TOTAL },
    );
    const withNci = figure(onlyVersion(history(sheet('85', [[NCI, '40', null, END]])), 'BALANCE_SHEET', 2024, 'FY'), 'TOTAL_EQUITY');
    assert.deepEqual([withNci.value, withNci.correction_rule], ['10864', 'TOTAL_EQUITY_COMPONENT_REPLACED']);
  });

  it('leaves a total alone that is the parent plus noncontrolling interest, or that matches no line of the equity section', () => {
    for (const [total, extra] of [['10864', [[NCI, '40', null, END]]], ['10737', []]] as [string, Row[]][]) {
      const f = figure(onlyVersion(history(sheet(total, extra)), 'BALANCE_SHEET', 2024, 'FY'), 'TOTAL_EQUITY');
      assert.deepEqual([f.value, f.correction_rule], [total, null], `total ${total}`);
    }
  });

  it('never corrects with an equity line of another filing', () => {
    const m = figuresOf([
      ['TOTAL_EQUITY', '85', 'A-2'],
      ['STOCKHOLDERS_EQUITY', '10824', 'A-2'],
      ['ACCUMULATED_OCI', '85', 'A-1'],
    ], null, END);
    applyBalanceSheetCorrections(m);
    assert.deepEqual([m.get('TOTAL_EQUITY')!.value, m.get('TOTAL_EQUITY')!.correction_rule], ['85', null]);
  });
});

describe('exact decimals', () => {
  it('derives a quarter from values beyond 2^53 with six fraction digits without losing a digit', () => {
    const q1: FilingMeta = { ...Q1 };
    const q2: FilingMeta = { ...Q2 };
    const h = history([
      ...filing(q1, [[OCF, '0.000001', '2024-01-01', '2024-03-31']]),
      ...filing(q2, [[OCF, '123456789012345678901.123456', '2024-01-01', '2024-06-30']]),
    ]);
    const ocf = figure(onlyVersion(h, 'CASH_FLOW_STATEMENT', 2024, 'Q2'), 'OPERATING_CASH_FLOW');
    assert.equal(ocf.value, '123456789012345678901.123455');
    assert.equal(ocf.calculation_steps?.[0]?.value, '123456789012345678901.123456');
    assert.equal(ocf.calculation_steps?.[1]?.value, '0.000001');
  });

  it('derives a fourth quarter of a 22-digit full year exactly', () => {
    const h = history([
      ...filing(Q3, [[REV, '9007199254740993000000', '2024-01-01', '2024-09-30']]),
      ...filing(K24, [[REV, '9007199254740993000001.5', '2024-01-01', '2024-12-31']]),
    ]);
    assert.equal(figure(onlyVersion(h, 'INCOME_STATEMENT', 2024, 'Q4'), 'REVENUE').value, '1.5');
    assert.equal(figure(onlyVersion(h, 'INCOME_STATEMENT', 2024, 'FY'), 'REVENUE').value, '9007199254740993000001.5');
  });

  it('records a restatement difference exactly for values a double cannot hold', () => {
    const h = history([
      ...filing(K24, [[NI, '9007199254740993', '2024-01-01', '2024-12-31']]),
      ...filing({ ...K24, accession: '0000000042-25-000099', form: '10-K/A', filed: '2025-06-01' }, [[NI, '9007199254740995', '2024-01-01', '2024-12-31']]),
    ]);
    const [, v2] = versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY');
    assert.ok(v2, 'a one-unit change at 2^53 is a change');
    assert.equal(v2.revisions[0]?.difference, '2');
  });

  it('pads wire decimals to six fraction digits and never rounds longer ones', () => {
    assert.equal(wireDecimal('383285000000'), '383285000000.000000');
    assert.equal(wireDecimal('6.13'), '6.130000');
    assert.equal(wireDecimal('-5'), '-5.000000');
    assert.equal(wireDecimal('0'), '0.000000');
    assert.equal(wireDecimal('0.123456'), '0.123456');
    assert.equal(wireDecimal('0.1234567'), '0.1234567');
    assert.equal(wireDecimal('123456789012345678901.1234567891'), '123456789012345678901.1234567891');
    assert.equal(wireDecimal('1e21'), '1000000000000000000000.000000');
    assert.equal(wireDecimal('1.5e-7'), '0.00000015');
  });

  it('judges two values equal only when the finer rounds to the coarser one', () => {
    assert.equal(equalAtReportedPrecision('95799932', '95800000'), true);
    assert.equal(equalAtReportedPrecision('95800000', '95799932'), true, 'symmetric');
    assert.equal(equalAtReportedPrecision('-95799932', '-95800000'), true, 'negative values');
    assert.equal(equalAtReportedPrecision('95799932', '95700000'), false);
    assert.equal(equalAtReportedPrecision('6.16', '6.1'), false);
    assert.equal(equalAtReportedPrecision('10.5', '10.50'), true);
    assert.equal(equalAtReportedPrecision('230', '212'), false);
    assert.equal(equalAtReportedPrecision('100', '200'), false, 'same precision, different value');
    assert.equal(equalAtReportedPrecision('0', '0.0'), true);
  });

  it('does not take a restatement of a round number for a precision difference', () => {
    assert.equal(equalAtReportedPrecision('230000000', '231000000'), false);
    assert.equal(equalAtReportedPrecision('394328000000', '394330000000'), false);
    assert.equal(equalAtReportedPrecision('1000000000', '1400000000'), false);
    assert.equal(equalAtReportedPrecision('0', '0.4'), false);
  });

  it('adds a version when a 10-K/A restates net income from 230 to 231 million told in millions (decimals -6)', () => {
    const inMillions = (facts: Fact[]) => facts.map((f) => ({ ...f, decimals: '-6' }));
    const h = history([
      ...inMillions(filing(K24, [[NI, '230000000', '2024-01-01', '2024-12-31']])),
      ...inMillions(filing({ ...K24, accession: '0000000042-25-000099', form: '10-K/A', filed: '2025-06-01' }, [[NI, '231000000', '2024-01-01', '2024-12-31']])),
    ]);
    assert.equal(versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY').length, 2);
  });

  it('takes 230,000,000 and 231,000,000 for one figure when only the text tells the precision (23 at ten millions)', () => {
    const h = history([
      ...filing(K24, [[NI, '230000000', '2024-01-01', '2024-12-31']]),
      ...filing({ ...K24, accession: '0000000042-25-000099', form: '10-K/A', filed: '2025-06-01' }, [[NI, '231000000', '2024-01-01', '2024-12-31']]),
    ]);
    assert.equal(versionsOf(h, 'INCOME_STATEMENT', 2024, 'FY').length, 1);
  });
});
