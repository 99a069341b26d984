/**
 * Split-adjusted figures (domain/statements/split-basis.ts) and the splits a company is stored with
 * (db/stock-splits.ts companySplits): exact ratios, one entry per split however often it was told,
 * and the factor a figure still owes the splits after its filing.
 */
import assert from 'node:assert/strict';
import { Decimal } from 'decimal.js';
import { describe, it } from 'node:test';
import { companySplits } from '../db/stock-splits.ts';
import { exactRatio, splitAdjusted, splitFactorSince, type CompanySplit } from '../domain/statements/split-basis.ts';
import type { StockSplit } from '../domain/statements/stock-splits.ts';
import type { BuiltVersion } from '../domain/normalize/versions.ts';

const split = (split_date: string, numerator: number, denominator: number, known_from = split_date): CompanySplit => ({
  split_date, known_from, ratio: `${numerator / denominator}`, numerator, denominator, evidence: 'TAGGED_RATIO',
});

describe('exact split ratios', () => {
  it('read a whole ratio, a rounded reverse one, and a 3-for-2 as fractions of whole numbers', () => {
    assert.deepEqual(exactRatio({ ratio: '10' }), { numerator: 10, denominator: 1 });
    assert.deepEqual(exactRatio({ ratio: '0.0667' }), { numerator: 1, denominator: 15 });
    assert.deepEqual(exactRatio({ ratio: '1.5' }), { numerator: 3, denominator: 2 });
    assert.deepEqual(exactRatio({ ratio: '0.07' }, [new Decimal(1).dividedBy(15)]), { numerator: 1, denominator: 15 }, 'the recasts decide between 1-for-14 and 1-for-15');
  });
});

describe('the factor a figure owes', () => {
  const nvidia = [split('2021-07-19', 4, 1, '2021-08-20'), split('2024-06-30', 10, 1, '2024-08-28')];

  it('multiplies the splits after its filing, as exact integers, and leaves out splits not yet known', () => {
    const f = splitFactorSince(nvidia, '2020-02-20', null)!;
    assert.deepEqual([f.numerator, f.denominator, f.splits.length], [40n, 1n, 2]);
    assert.equal(splitFactorSince(nvidia, '2022-03-18', null)!.numerator, 10n, 'filed after the first split: on its basis');
    assert.equal(splitFactorSince(nvidia, '2024-09-01', null), null, 'on the latest basis');
    assert.equal(splitFactorSince(nvidia, '2020-02-20', '2023-06-30')!.numerator, 4n, 'the 2024 split was not told by then');
  });

  it('divides per-share values and multiplies share counts exactly, rounding only a division that does not terminate', () => {
    const ten = splitFactorSince(nvidia, '2022-03-18', null)!;
    assert.deepEqual(splitAdjusted('3.85', 'USD/shares', ten), { value: '0.385', rounded: false });
    assert.deepEqual(splitAdjusted('2496000000', 'shares', ten), { value: '24960000000', rounded: false });
    assert.equal(splitAdjusted('3850000000', 'USD', ten), null, 'money is never restated');
    const fifteen = { numerator: 1n, denominator: 15n, splits: [] };
    assert.deepEqual(splitAdjusted('-0.16', 'USD/shares', fifteen), { value: '-2.4', rounded: false });
    assert.deepEqual(splitAdjusted('9948836', 'shares', fifteen), { value: '663255.733333333333', rounded: true });
    const three = { numerator: 3n, denominator: 1n, splits: [] };
    assert.deepEqual(splitAdjusted('6.29', 'USD/shares', three), { value: '2.096666666667', rounded: true });
  });
});

describe("a company's splits, one entry each", () => {
  const told = (date: string, ratio: string, evidence: StockSplit['evidence'] = 'TAGGED_RATIO', known_from = date): StockSplit => ({ ratio, date, evidence, known_from });

  it('one split told at its announcement and its effective date, dated by the later: Alphabet\'s 20-for-1 of 2022', () => {
    const out = companySplits([told('2022-02-01', '20', 'TAGGED_RATIO', '2022-04-27'), told('2022-07-15', '20', 'TAGGED_RATIO', '2022-10-26')], []);
    assert.deepEqual(out.map((s) => [s.split_date, s.known_from, s.numerator, s.denominator]), [['2022-07-15', '2022-04-27', 20, 1]]);
  });

  it("one split tagged with two rounded ratios on one date, and splits a filing's figures showed that the tagged ones account for: SunAtion's 1-for-15 and 1-for-50, shown at once as 1-for-750", () => {
    // the recast of its weighted shares, 9,948,836 to 663,256, bears out 1-for-15 (not 1-for-14 or 1-for-16)
    const recast = { recasts: [{ metric: 'WEIGHTED_AVERAGE_SHARES_DILUTED', old_value: '9948836', new_value: '663256', split: { ratio: '0.07', date: '2024-06-12' } }] };
    const out = companySplits([told('2024-06-12', '0.07'), told('2024-06-12', '0.06'), told('2024-10-17', '0.02'), told('2024-11-14', '0.001333', 'RESTATED_FIGURES')], [recast as unknown as BuiltVersion]);
    assert.deepEqual(out.map((s) => [s.split_date, s.numerator, s.denominator]), [['2024-06-12', 1, 15], ['2024-10-17', 1, 50]]);
  });

  it('reads a rounded tag no recast bore out by the split the figures showed soon after', () => {
    const out = companySplits([told('2024-06-12', '0.06'), told('2024-06-12', '0.07'), told('2024-08-19', '0.066667', 'RESTATED_FIGURES'), told('2024-10-17', '0.02'), told('2024-11-14', '0.001333', 'RESTATED_FIGURES')], []);
    assert.deepEqual(out.map((s) => [s.split_date, s.numerator, s.denominator]), [['2024-06-12', 1, 15], ['2024-10-17', 1, 50]]);
  });

  it('keeps splits of one ratio years apart, and splits only figures showed', () => {
    const out = companySplits([told('2012-08-06', '2', 'RESTATED_FIGURES'), told('2014-05-07', '2', 'RESTATED_FIGURES'), told('2016-04-29', '2', 'RESTATED_FIGURES')], []);
    assert.equal(out.length, 3);
  });
});
