import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompanyVersions } from '../../../../domain/statements/company-versions.ts';

/** Version selection over a company's versions held in memory (the SQL equivalence over the corpus: test/company-versions-corpus.test.ts). */

type V = { cik: string; statement_version_id: string; statement_type: string; fiscal_year: number; fiscal_period: string; version_sequence: number; period_end: string; filing_date: string };
const v = (id: string, statement_type: string, fiscal_year: number, fiscal_period: string, version_sequence: number, period_end: string, filing_date: string): V => ({
  cik: '0000000001', statement_version_id: id, statement_type, fiscal_year, fiscal_period, version_sequence, period_end, filing_date,
});

const versions = [
  v('is-fy22-2', 'INCOME_STATEMENT', 2022, 'FY', 2, '2022-12-31', '2024-02-20'),
  v('is-fy22-1', 'INCOME_STATEMENT', 2022, 'FY', 1, '2022-12-31', '2023-02-20'),
  v('bs-fy22-1', 'BALANCE_SHEET', 2022, 'FY', 1, '2022-12-31', '2023-02-20'),
  v('cf-fy22-1', 'CASH_FLOW_STATEMENT', 2022, 'FY', 1, '2022-12-31', '2023-02-20'),
  v('is-q1-23-1', 'INCOME_STATEMENT', 2023, 'Q1', 1, '2023-03-31', '2023-05-05'),
  v('bs-q1-23-1', 'BALANCE_SHEET', 2023, 'Q1', 1, '2023-03-31', '2023-05-05'),
  v('is-q4-22-1', 'INCOME_STATEMENT', 2022, 'Q4', 1, '2022-12-31', '2023-02-20'),
];
const index = new CompanyVersions(versions);

describe('a company\'s versions in memory', () => {
  it('pick the highest version filed by a date, and the highest of all without one', () => {
    const id = { statement_type: 'INCOME_STATEMENT', fiscal_year: 2022, fiscal_period: 'FY' };
    assert.equal(index.latestOf(id, null)?.statement_version_id, 'is-fy22-2');
    assert.equal(index.latestOf(id, '2024-02-19')?.statement_version_id, 'is-fy22-1');
    assert.equal(index.latestOf(id, '2024-02-20')?.statement_version_id, 'is-fy22-2');
    assert.equal(index.latestOf(id, '2023-02-19'), null);
    assert.equal(index.latestOf({ ...id, fiscal_year: 1999 }, null), null);
  });

  it('see the periods filed by a date, newest period end first', () => {
    assert.deepEqual(index.visiblePeriods('2023-02-19'), []);
    const seen = index.visiblePeriods('2023-06-30');
    assert.deepEqual(seen[0], { fiscal_year: 2023, fiscal_period: 'Q1', period_end: '2023-03-31' });
    assert.deepEqual(seen.slice(1).map((p) => p.fiscal_period).sort(), ['FY', 'Q4']);
  });

  it('give the as-of versions newest period first, the year before its quarter, income statement, balance sheet, cash flow', () => {
    const got = index.latestAsOf('2023-06-30', [{ fiscal_year: 2022, fiscal_period: 'FY' }, { fiscal_year: 2023, fiscal_period: 'Q1' }]);
    assert.deepEqual(got.map((x) => x.statement_version_id), ['is-q1-23-1', 'bs-q1-23-1', 'is-fy22-1', 'bs-fy22-1', 'cf-fy22-1']);
  });

  it('give coherence the money-flow versions of the years asked, filed by the date, or only first versions', () => {
    const ids = (xs: V[]) => xs.map((x) => x.statement_version_id);
    assert.deepEqual(ids(index.seenForCoherence(['INCOME_STATEMENT', 'BALANCE_SHEET'], [2022], null, false)), ['is-fy22-1', 'is-fy22-2', 'is-q4-22-1']);
    assert.deepEqual(ids(index.seenForCoherence(['INCOME_STATEMENT'], [2022], null, true)), ['is-fy22-1', 'is-q4-22-1']);
    assert.deepEqual(ids(index.seenForCoherence(['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT'], [2022], '2023-12-31', false)), ['cf-fy22-1', 'is-fy22-1', 'is-q4-22-1']);
    assert.deepEqual(index.seenForCoherence(['BALANCE_SHEET'], [2022], null, false), []);
  });

  it('keep the latest of the versions a filter keeps, not the latest of all', () => {
    const ids = (vs: V[]) => vs.map((x) => x.statement_version_id);
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT'], asOf: '2023-12-31' })), ['is-fy22-1', 'is-q4-22-1', 'is-q1-23-1']);
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT'] })), ['is-fy22-2', 'is-q4-22-1', 'is-q1-23-1']);
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT'], asReported: true })), ['is-fy22-1', 'is-q4-22-1', 'is-q1-23-1']);
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT', 'BALANCE_SHEET'], fiscalYearFrom: 2023 })), ['bs-q1-23-1', 'is-q1-23-1']);
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT'], fiscalYearTo: 2022, fiscalPeriods: ['FY'] })), ['is-fy22-2']);
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT'], periodEndFrom: '2022-12-31', periodEndTo: '2022-12-31' })), ['cf-fy22-1', 'is-fy22-2', 'is-q4-22-1']);
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT'], periodEndFrom: '2023-01-01' })), ['is-q1-23-1']);
  });

  it('give the latest versions in panel order, also when an older version picked ends on another day than the newest', () => {
    const ids = (vs: V[]) => vs.map((x) => x.statement_version_id);
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT'] }, 'panel')), ['is-q4-22-1', 'is-fy22-2', 'is-q1-23-1']);
    // the same period of several types by type
    assert.deepEqual(ids(index.latestWhere({ types: ['INCOME_STATEMENT', 'BALANCE_SHEET'] }, 'panel')), ['is-q4-22-1', 'bs-fy22-1', 'is-fy22-2', 'bs-q1-23-1', 'is-q1-23-1']);
    // a restated year whose first version ended later than the restated one
    const moved = new CompanyVersions([
      v('fy-2', 'INCOME_STATEMENT', 2022, 'FY', 2, '2022-12-31', '2024-02-20'),
      v('fy-1', 'INCOME_STATEMENT', 2022, 'FY', 1, '2023-04-30', '2023-06-20'),
      v('q1-1', 'INCOME_STATEMENT', 2023, 'Q1', 1, '2023-03-31', '2023-05-05'),
    ]);
    assert.deepEqual(ids(moved.latestWhere({ types: ['INCOME_STATEMENT'] }, 'panel')), ['fy-2', 'q1-1']);
    assert.deepEqual(ids(moved.latestWhere({ types: ['INCOME_STATEMENT'], asOf: '2023-12-31' }, 'panel')), ['q1-1', 'fy-1']);
    // period end bounds reach the older version ending later than the newest
    assert.deepEqual(ids(moved.latestWhere({ types: ['INCOME_STATEMENT'], periodEndFrom: '2023-04-01' }, 'panel')), ['fy-1']);
    assert.deepEqual(ids(moved.latestWhere({ types: ['INCOME_STATEMENT'], periodEndTo: '2023-01-31' }, 'panel')), ['fy-2']);
    assert.deepEqual(ids(moved.latestWhere({ types: ['INCOME_STATEMENT'], periodEndFrom: '2023-03-01', periodEndTo: '2023-03-31' }, 'panel')), ['q1-1']);
  });

  it('count the filing dates a date sees: dates between the same two filing dates see the same versions', () => {
    assert.equal(index.epochOf('2023-02-19'), 0);
    assert.equal(index.epochOf('2023-02-20'), 1);
    assert.equal(index.epochOf('2023-05-04'), 1);
    assert.equal(index.epochOf('2023-05-05'), 2);
    assert.equal(index.epochOf('2030-01-01'), 3);
    assert.equal(index.epochOf(null), 3);
    // visible periods worked out for one date serve another of the same count, and differ across counts
    assert.deepEqual(index.visiblePeriods('2023-03-01'), index.visiblePeriods('2023-05-04'));
    assert.notDeepEqual(index.visiblePeriods('2023-05-04'), index.visiblePeriods('2023-05-05'));
  });

  it('make a derived value once per key and keep it with the index', () => {
    let made = 0;
    const fresh = new CompanyVersions(versions);
    assert.equal(fresh.derivedOf('k'), undefined);
    assert.equal(fresh.derived('k', () => ++made), 1);
    assert.equal(fresh.derived('k', () => ++made), 1);
    assert.equal(fresh.derivedOf('k'), 1);
    assert.equal(made, 1);
  });

  it('list the periods on record newest year first, at most the limit', () => {
    assert.deepEqual(index.periodsOf('INCOME_STATEMENT', 2), [{ fiscal_year: 2023, fiscal_period: 'Q1' }, { fiscal_year: 2022, fiscal_period: 'FY' }]);
  });

  it('order panel points by period end, then the quarter before the year ending the same day', () => {
    assert.deepEqual(index.latestWhere({ types: ['INCOME_STATEMENT'], fiscalYearTo: 2022 }, 'panel').map((x) => x.statement_version_id), ['is-q4-22-1', 'is-fy22-2']);
  });
});
