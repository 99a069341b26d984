import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baseYearMonths, cpiMean, periodMonths, realValue } from '../../../domain/macro/deflate.ts';
import { knowableFrom, monthsSpanned, parseMacroCsv, periodEnd, yearsBefore } from '../../../domain/macro/observations.ts';
import { dec } from '../../../domain/decimal.ts';

/** The pure macro rules: reading the files, dating periods, and the CPI means. */
describe('macro files and dates', () => {
  it('reads our date,value files and FRED downloads alike, keeping an empty or "." value as missing', () => {
    assert.deepEqual(parseMacroCsv('date,value\n2025-09-01,324.368\n2025-10-01,\n', 'x'), [
      { date: '2025-09-01', value: '324.368' },
      { date: '2025-10-01', value: null },
    ]);
    assert.deepEqual(parseMacroCsv('observation_date,CPIAUCSL\r\n2025-10-01,.\r\n2025-11-01,-0.5\r\n', 'x'), [
      { date: '2025-10-01', value: null },
      { date: '2025-11-01', value: '-0.5' },
    ]);
  });

  it('refuses a file it cannot read faithfully: wrong header, bad value, extra column, dates out of order', () => {
    assert.throws(() => parseMacroCsv('when,what\n', 'f'), /header/);
    assert.throws(() => parseMacroCsv('date,value\n2025-01-01,1e3\n', 'f'), /not a decimal/);
    assert.throws(() => parseMacroCsv('date,value\n2025-01-01,1,2\n', 'f'), /expected date,value/);
    assert.throws(() => parseMacroCsv('date,value\n2025-02-01,1\n2025-01-01,2\n', 'f'), /must increase/);
  });

  it('dates the end of a period and the day it becomes knowable', () => {
    assert.equal(periodEnd('2024-02-01', 'monthly'), '2024-02-29');
    assert.equal(periodEnd('2025-10-01', 'quarterly'), '2025-12-31');
    assert.equal(periodEnd('2025-12-26', 'daily'), '2025-12-26');
    assert.equal(knowableFrom('2025-12-01', { frequency: 'monthly', release_lag_days: 20 }), '2026-01-20');
    assert.equal(yearsBefore('2024-02-29', 1), '2023-02-28');
    assert.equal(yearsBefore('2025-11-01', 1), '2024-11-01');
  });

  it('spans months from the start month through the end month, across years', () => {
    assert.deepEqual(monthsSpanned('2022-09-25', '2023-01-01'), ['2022-09', '2022-10', '2022-11', '2022-12', '2023-01']);
    assert.deepEqual(periodMonths(null, '2023-09-30'), ['2023-09']);
    assert.equal(baseYearMonths(2017).length, 12);
  });
});

describe('CPI means and real values', () => {
  const cpi = new Map<string, string | null>([
    ['2025-08', '3'],
    ['2025-09', '4'],
    ['2025-10', null],
  ]);

  it('averages exactly and names every missing month instead of skipping it', () => {
    assert.equal(cpiMean(['2025-08', '2025-09'], cpi).mean!.toFixed(), '3.5');
    assert.deepEqual(cpiMean(['2025-08', '2025-10', '2025-11'], cpi), { months: ['2025-08', '2025-10', '2025-11'], mean: null, missing_months: ['2025-10', '2025-11'] });
  });

  it('rounds real values half to even at six fraction digits only at the end', () => {
    assert.equal(realValue('100', dec('1'), dec('3')), '33.333333');
    assert.equal(realValue('0.0000005', dec('1'), dec('1')), '0.000000');
    assert.equal(realValue('0.0000015', dec('1'), dec('1')), '0.000002');
  });
});
