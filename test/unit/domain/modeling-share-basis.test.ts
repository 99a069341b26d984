import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatementType } from '../../../domain/catalog/index.ts';
import { companyPeriods } from '../../../domain/modeling/company.ts';
import { growthRate, growthRow } from '../../../domain/modeling/growth.ts';
import { onOneBasis, type SplitContext } from '../../../domain/modeling/share-basis.ts';
import { modelCompany, normalizeRequest, snapshotIdOf } from '../../../domain/modeling/snapshot.ts';
import { ttmRow } from '../../../domain/modeling/ttm.ts';
import type { ModelVersion } from '../../../domain/modeling/types.ts';
import type { CompanySplit } from '../../../domain/statements/split-basis.ts';

/** a 10-for-1 split effective 2024-06-10, first told by the 10-Q filed 2024-05-29 */
const TEN_FOR_ONE: CompanySplit = { split_date: '2024-06-10', known_from: '2024-05-29', ratio: '10', numerator: 10, denominator: 1, evidence: 'TAGGED_RATIO' };
/** a 1-for-4 reverse split of 2019 */
const ONE_FOR_FOUR: CompanySplit = { split_date: '2019-03-01', known_from: '2019-03-05', ratio: '0.25', numerator: 1, denominator: 4, evidence: 'TAGGED_RATIO' };
const AFTER: SplitContext = { splits: [TEN_FOR_ONE], as_of: '2026-01-01' };

const eps = (fy: number, value: string, basis: string | undefined) => ({ line: 'EPS_DILUTED', fiscal_year: fy, fiscal_period: 'FY', value, basis });

let n = 0;
/** a version whose figures were all read from a filing of `filed` */
function version(type: StatementType, fy: number, fp: string, start: string, end: string, filed: string | null, figures: Record<string, string>): ModelVersion {
  return {
    cik: '0000000002', statement_type: type, fiscal_year: fy, fiscal_period: fp as ModelVersion['fiscal_period'], statement_version_id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    version_sequence: 1, period_start: start, period_end: end, currency: 'USD', accounting_standard: 'US_GAAP', accession: `acc-${fy}-${fp}`, filing_date: filed ?? end, content_hash: `h${fy}${fp}`,
    figures: Object.fromEntries(Object.entries(figures).map(([m, v]) => [m, { v, d: false }])),
    ...(filed === null ? {} : { share_bases: Object.fromEntries(Object.keys(figures).filter((m) => m.startsWith('EPS') || m.startsWith('WEIGHTED')).map((m) => [m, filed])) }),
  };
}

describe('derived modeling rows put per-share figures and share counts on one split basis', () => {
  it('restates the operand of the older filing to the newer filing\'s basis by the splits dated between them, exactly', () => {
    const one = onOneBasis([eps(2023, '0.17', '2025-02-26'), eps(2022, '3.85', '2024-02-21')], AFTER);
    assert.ok(one.ok);
    assert.deepEqual(one.values, ['0.17', '0.385']);
    assert.equal(one.adjustments.length, 1);
    assert.deepEqual(
      { ...one.adjustments[0], splits: one.adjustments[0]!.splits.map((s) => s.split_date) },
      { input: 'EPS_DILUTED', fiscal_year: 2022, fiscal_period: 'FY', value: '0.385000', as_filed_value: '3.850000', factor: '10/1', operation: 'DIVIDED', rounded: false, splits: ['2024-06-10'] },
    );
  });

  it('multiplies share counts, and leaves operands alone that owe the same splits (both filed before it, or both after)', () => {
    const counts = onOneBasis([{ ...eps(2025, '24500000000', '2025-02-26'), line: 'WEIGHTED_AVERAGE_SHARES_DILUTED' }, { ...eps(2024, '2490000000', '2024-02-21'), line: 'WEIGHTED_AVERAGE_SHARES_DILUTED' }], AFTER);
    assert.ok(counts.ok);
    assert.deepEqual(counts.values, ['24500000000', '24900000000']);
    assert.equal(counts.adjustments[0]!.operation, 'MULTIPLIED');
    for (const bases of [['2023-02-24', '2024-02-21'], ['2024-08-28', '2025-02-26']]) {
      const same = onOneBasis([eps(2023, '1.5', bases[1]), eps(2022, '1.2', bases[0])], AFTER);
      assert.deepEqual(same, { ok: true, values: ['1.5', '1.2'], adjustments: [] });
    }
  });

  it('applies a reverse split as its exact fraction and only splits known at the snapshot\'s date (no lookahead)', () => {
    const reverse = onOneBasis([eps(2019, '8', '2020-02-01'), eps(2018, '-0.3', '2019-02-01')], { splits: [ONE_FOR_FOUR], as_of: '2020-06-30' });
    assert.ok(reverse.ok);
    assert.deepEqual(reverse.values, ['8', '-1.2']);
    assert.equal(reverse.adjustments[0]!.factor, '1/4');
    const unknown = onOneBasis([eps(2019, '8', '2020-02-01'), eps(2018, '-0.3', '2019-02-01')], { splits: [{ ...ONE_FOR_FOUR, known_from: '2020-07-01' }], as_of: '2020-06-30' });
    assert.deepEqual(unknown, { ok: true, values: ['8', '-0.3'], adjustments: [] });
  });

  it('rounds a division that does not terminate half-up to 12 fraction digits and says so', () => {
    const third: CompanySplit = { ...TEN_FOR_ONE, ratio: '3', numerator: 3, denominator: 1 };
    const one = onOneBasis([eps(2025, '2.1', '2025-02-26'), eps(2024, '6.29', '2024-02-21')], { splits: [third], as_of: '2026-01-01' });
    assert.ok(one.ok);
    assert.equal(one.values[1], '2.096666666667');
    assert.equal(one.adjustments[0]!.rounded, true);
  });

  it('cannot put operands on one basis where a split is on record and an operand\'s filing is not; without splits there is one basis', () => {
    assert.deepEqual(onOneBasis([eps(2023, '0.17', '2025-02-26'), eps(2022, '3.85', undefined)], AFTER), { ok: false });
    assert.deepEqual(onOneBasis([eps(2023, '0.17', '2025-02-26'), eps(2022, '3.85', undefined)], { splits: [], as_of: '2026-01-01' }), { ok: true, values: ['0.17', '3.85'], adjustments: [] });
  });

  it('a year-over-year EPS growth compares the prior year restated to the current year\'s basis (not -96%), with the restatement on the row', () => {
    const versions = [
      version('INCOME_STATEMENT', 2022, 'FY', '2021-02-01', '2022-01-30', '2024-02-21', { EPS_DILUTED: '3.85', NET_INCOME: '9752000000' }),
      version('INCOME_STATEMENT', 2023, 'FY', '2022-01-31', '2023-01-29', '2025-02-26', { EPS_DILUTED: '0.17', NET_INCOME: '4368000000' }),
    ];
    const c = companyPeriods('0000000002', null, versions);
    const row = growthRow(c.byKey.get('2023|FY')!, 'INCOME_STATEMENT', c.byKey, AFTER)!;
    assert.equal(row.sheet.metrics.EPS_DILUTED_GROWTH_YOY, growthRate('0.17', '0.385'));
    assert.equal(row.sheet.metrics.EPS_DILUTED_GROWTH_YOY, '-0.558441558442');
    assert.equal(row.sheet.metrics.NET_INCOME_GROWTH_YOY, growthRate('4368000000', '9752000000'), 'money is never restated');
    assert.deepEqual(Object.keys(row.split_adjustments), ['EPS_DILUTED_GROWTH_YOY']);
    // the same rows without the company's splits compare the figures as filed
    assert.equal(growthRow(c.byKey.get('2023|FY')!, 'INCOME_STATEMENT', c.byKey)!.sheet.metrics.EPS_DILUTED_GROWTH_YOY, growthRate('0.17', '3.85'));
    // the stored row carries the restatement; a snapshot before the split was told compares as filed
    const stored = (asOf: string) => {
      const req = normalizeRequest({ ciks: ['0000000002'], as_of_date: asOf, statement_types: ['INCOME_STATEMENT'], metrics_bundle: 'all' });
      return modelCompany(snapshotIdOf(req), req, '0000000002', null, versions, [TEN_FOR_ONE]).rows.growth.find((r) => r.body.fiscal_year === 2023)!.body;
    };
    assert.equal((stored('2026-01-01').split_adjustments as Record<string, { factor: string }[]>).EPS_DILUTED_GROWTH_YOY![0]!.factor, '10/1');
    assert.equal(stored('2024-05-28').split_adjustments, undefined);
  });

  it('serves no growth where the prior figure\'s basis is unknown and a split is on record', () => {
    const versions = [
      version('INCOME_STATEMENT', 2022, 'FY', '2021-02-01', '2022-01-30', null, { EPS_DILUTED: '3.85' }),
      version('INCOME_STATEMENT', 2023, 'FY', '2022-01-31', '2023-01-29', '2025-02-26', { EPS_DILUTED: '0.17' }),
    ];
    const c = companyPeriods('0000000002', null, versions);
    const row = growthRow(c.byKey.get('2023|FY')!, 'INCOME_STATEMENT', c.byKey, AFTER)!;
    assert.equal(row.sheet.metrics.EPS_DILUTED_GROWTH_YOY, undefined);
    assert.deepEqual(row.sheet.unavailable_metrics.find((u) => u.metric === 'EPS_DILUTED_GROWTH_YOY'), { metric: 'EPS_DILUTED_GROWTH_YOY', reason: 'NO_COMPARABLE_PERIOD', detail: 'SPLIT_BASIS_UNDETERMINED' });
  });

  it('a TTM EPS divides trailing net income by the mean of four share counts on the newest count\'s basis', () => {
    const q = (fy: number, fp: string, start: string, end: string, filed: string, shares: string) =>
      version('INCOME_STATEMENT', fy, fp, start, end, filed, { NET_INCOME: '1000', WEIGHTED_AVERAGE_SHARES_DILUTED: shares });
    const versions = [
      q(2024, 'Q2', '2024-04-29', '2024-07-28', '2024-08-28', '2000'),
      q(2024, 'Q3', '2024-07-29', '2024-10-27', '2024-11-20', '2000'),
      q(2024, 'Q4', '2024-10-28', '2025-01-26', '2025-02-26', '2000'),
      q(2024, 'Q1', '2024-01-29', '2024-04-28', '2024-05-29', '200'), // filed before the split took effect
    ];
    const c = companyPeriods('0000000002', null, versions);
    const row = ttmRow(c.byKey.get('2024|Q4')!, c.byKey, AFTER)!;
    assert.equal(row.sheet.metrics.EPS_DILUTED, '2.000000000000', '4000 / mean(2000, 2000, 2000, 200 x 10)');
    assert.deepEqual(row.split_adjustments.EPS_DILUTED!.map((a) => [a.fiscal_period, a.value, a.factor]), [['Q1', '2000.000000', '10/1']]);
    assert.equal(ttmRow(c.byKey.get('2024|Q4')!, c.byKey)!.sheet.metrics.EPS_DILUTED, '2.580645161290', 'without the splits: 4000 / mean(2000, 2000, 2000, 200), two bases');
  });
});
