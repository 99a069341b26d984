import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatementType } from '../../../domain/catalog/index.ts';
import { companyPeriods } from '../../../domain/modeling/company.ts';
import { cagr, growthRate, growthRow } from '../../../domain/modeling/growth.ts';
import { withPendingRebuild } from '../../../domain/modeling/pending.ts';
import { modelCompany, normalizeRequest, SnapshotHasher, snapshotIdOf, type SnapshotRequest } from '../../../domain/modeling/snapshot.ts';
import { ttmRow } from '../../../domain/modeling/ttm.ts';
import type { ModelVersion } from '../../../domain/modeling/types.ts';

let n = 0;
function version(type: StatementType, fy: number, fp: string, start: string | null, end: string, figures: Record<string, string>, derived: string[] = []): ModelVersion {
  return {
    cik: '0000000001', statement_type: type, fiscal_year: fy, fiscal_period: fp as ModelVersion['fiscal_period'], statement_version_id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    version_sequence: 1, period_start: start, period_end: end, currency: 'USD', accounting_standard: 'US_GAAP', accession: `acc-${fy}-${fp}`, filing_date: end, content_hash: `h${fy}${fp}${type}`,
    figures: Object.fromEntries(Object.entries(figures).map(([m, v]) => [m, { v, d: derived.includes(m) }])),
  };
}

/** Four quarters of 2023 (Q4 derived) and Q1 2024, revenue and net income; Q3 lacks net income. */
function quarters(): ModelVersion[] {
  return [
    version('INCOME_STATEMENT', 2023, 'Q1', '2023-01-01', '2023-03-31', { REVENUE: '100', NET_INCOME: '10', WEIGHTED_AVERAGE_SHARES_DILUTED: '10' }),
    version('INCOME_STATEMENT', 2023, 'Q2', '2023-04-01', '2023-06-30', { REVENUE: '110', NET_INCOME: '11', WEIGHTED_AVERAGE_SHARES_DILUTED: '10' }),
    version('INCOME_STATEMENT', 2023, 'Q3', '2023-07-01', '2023-09-30', { REVENUE: '120', WEIGHTED_AVERAGE_SHARES_DILUTED: '10' }),
    version('INCOME_STATEMENT', 2023, 'Q4', '2023-10-01', '2023-12-31', { REVENUE: '130', NET_INCOME: '13', WEIGHTED_AVERAGE_SHARES_DILUTED: '10' }, ['REVENUE', 'NET_INCOME']),
    version('INCOME_STATEMENT', 2023, 'FY', '2023-01-01', '2023-12-31', { REVENUE: '460' }),
    version('INCOME_STATEMENT', 2024, 'Q1', '2024-01-01', '2024-03-31', { REVENUE: '90', NET_INCOME: '-5', WEIGHTED_AVERAGE_SHARES_DILUTED: '12' }),
  ];
}

describe('modeling math', () => {
  it('growth is (current - prior) / |prior|, so a narrowing loss is positive; a zero prior gives null', () => {
    assert.equal(growthRate('120', '100'), '0.200000000000');
    assert.equal(growthRate('-50', '-100'), '0.500000000000');
    assert.equal(growthRate('5', '0'), null);
  });

  it('a CAGR needs both ends positive', () => {
    assert.equal(cagr('133.1', '100', 3), '0.100000000000');
    assert.equal(cagr('100', '-5', 3), null);
    assert.equal(cagr('0', '5', 3), null);
  });

  it('QoQ compares Q1 with the previous year\'s Q4, which may be derived; the first quarter has no comparable period', () => {
    const c = companyPeriods('0000000001', null, quarters());
    const row = growthRow(c.byKey.get('2024|Q1')!, 'INCOME_STATEMENT', c.byKey)!;
    assert.equal(row.sheet.metrics.REVENUE_GROWTH_QOQ, growthRate('90', '130'));
    assert.equal(row.sheet.metrics.REVENUE_GROWTH_YOY, growthRate('90', '100'));
    const first = growthRow(c.byKey.get('2023|Q1')!, 'INCOME_STATEMENT', c.byKey)!;
    assert.deepEqual(first.sheet.unavailable_metrics.find((u) => u.metric === 'REVENUE_GROWTH_YOY'), { metric: 'REVENUE_GROWTH_YOY', reason: 'NO_COMPARABLE_PERIOD' });
    assert.deepEqual(row.sheet.unavailable_metrics.find((u) => u.metric === 'REVENUE_CAGR'), { metric: 'REVENUE_CAGR', reason: 'NOT_APPLICABLE_TO_PERIOD' });
  });

  it('TTM sums a flow only when all four quarters report it and never sums per-share figures', () => {
    const c = companyPeriods('0000000001', null, quarters());
    const at2023 = ttmRow(c.byKey.get('2023|Q4')!, c.byKey)!;
    assert.equal(at2023.sheet.metrics.REVENUE, '460');
    assert.deepEqual(at2023.sheet.unavailable_metrics.find((u) => u.metric === 'NET_INCOME'), { metric: 'NET_INCOME', reason: 'INCOMPLETE_TRAILING_YEAR' });
    assert.deepEqual(at2023.sheet.unavailable_metrics.find((u) => u.metric === 'EPS_DILUTED'), { metric: 'EPS_DILUTED', reason: 'INCOMPLETE_TRAILING_YEAR' });
    assert.equal(ttmRow(c.byKey.get('2023|Q3')!, c.byKey), undefined, 'no window without four quarters');
    const at2024 = ttmRow(c.byKey.get('2024|Q1')!, c.byKey)!;
    assert.equal(at2024.sheet.metrics.REVENUE, '450');
  });

  it('EPS over the trailing year is net income over the mean share count', () => {
    const qs = quarters().map((v) => (v.fiscal_period === 'Q3' ? { ...v, figures: { ...v.figures, NET_INCOME: { v: '12', d: false } } } : v));
    const c = companyPeriods('0000000001', null, qs);
    const row = ttmRow(c.byKey.get('2024|Q1')!, c.byKey)!;
    // (11 + 12 + 13 - 5) / mean(10, 10, 10, 12) = 31 / 10.5
    assert.equal(row.sheet.metrics.EPS_DILUTED, '2.952380952381');
  });

  it('PENDING_REBUILD replaces a reason only where a late version at a period the row read carries the input', () => {
    const entries = [{ metric: 'ROE', reason: 'MISSING_INPUT' as const, missing_inputs: ['STOCKHOLDERS_EQUITY'] }, { metric: 'DSO', reason: 'NOT_ON_STATEMENT' as const }];
    assert.deepEqual(withPendingRebuild(entries, ['2023|FY'], new Map([['2023|FY', new Set(['STOCKHOLDERS_EQUITY'])]]))[0]!.reason, 'PENDING_REBUILD');
    assert.deepEqual(withPendingRebuild(entries, ['2023|FY'], new Map([['2022|FY', new Set(['STOCKHOLDERS_EQUITY'])]])), entries);
    assert.deepEqual(withPendingRebuild(entries, ['2023|FY'], new Map([['2023|FY', new Set(['REVENUE'])]])), entries);
  });

  it('the snapshot identity ignores CIK order and duplicates; the hash ignores database-assigned version ids', () => {
    const a: SnapshotRequest = { ciks: ['0000000002', '0000000001', '0000000002'], as_of_date: '2024-01-01', statement_types: ['BALANCE_SHEET', 'INCOME_STATEMENT'], metrics_bundle: 'all' };
    const b: SnapshotRequest = { ...a, ciks: ['0000000001', '0000000002'], statement_types: ['INCOME_STATEMENT', 'BALANCE_SHEET'] };
    assert.equal(snapshotIdOf(a), snapshotIdOf(b));
    assert.notEqual(snapshotIdOf(a), snapshotIdOf({ ...b, metrics_bundle: 'tier1' }));
    const hash = (vs: ModelVersion[]) => {
      const h = new SnapshotHasher(normalizeRequest(b));
      h.company('0000000001', vs, modelCompany(snapshotIdOf(b), normalizeRequest(b), '0000000001', null, vs));
      return h.digest();
    };
    const vs = quarters();
    assert.equal(hash(vs), hash(vs.map((v, i) => ({ ...v, statement_version_id: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}` }))));
    assert.notEqual(hash(vs), hash(vs.map((v) => (v.fiscal_period === 'Q2' ? { ...v, figures: { ...v.figures, REVENUE: { v: '111', d: false } } } : v))));
  });
});
