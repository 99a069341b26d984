import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cloneCompanyFacts, perturbFactor, synthAccession, synthCik } from '../../../bench/lib/synth-corpus.ts';

describe('synthetic corpus (bench scale suite)', () => {
  test('rewrites accessions injectively and scales amounts but not ratios, exactly', () => {
    assert.equal(synthAccession('0000320193-23-000106', 7), '9007320193-23-000106');
    assert.notEqual(synthAccession('0000320193-23-000106', 1), synthAccession('0000320193-23-000106', 2));
    const doc = {
      cik: 1,
      entityName: 'X',
      facts: {
        'us-gaap': {
          Revenues: { units: { USD: [{ val: 383285000000, accn: '0000320193-23-000106' }, { val: 0.5, accn: '0000320193-23-000106' }] } },
          EarningsPerShareBasic: { units: { 'USD/shares': [{ val: 6, accn: '0000320193-23-000106' }] } },
        },
      },
    };
    const c = cloneCompanyFacts(doc, synthCik(3, 4), 3);
    assert.equal(perturbFactor(3), 4n);
    assert.equal(c.cik, 9003000004);
    assert.deepEqual(c.facts['us-gaap'].Revenues.units.USD.map((r: { val: number }) => r.val), [1533140000000, 0.5]);
    assert.equal(c.facts['us-gaap'].EarningsPerShareBasic.units['USD/shares'][0].val, 6);
    assert.equal(c.facts['us-gaap'].Revenues.units.USD[0].accn, '9003320193-23-000106');
  });
});
