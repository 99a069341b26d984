import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { balanceMetric, usgaap } from '../../../../domain/catalog/builders.ts';
import { CATALOG_FINGERPRINT, CATALOG_READ_FINGERPRINT, fingerprintOf, readFingerprintOf } from '../../../../domain/catalog/fingerprint.ts';
import { CANONICAL_METRICS, canonicalMetric, DERIVED_METRICS, METRIC_BUNDLES, METRIC_VIEWS } from '../../../../domain/catalog/index.ts';
import { COVERAGE_CORE_METRICS, HEADLINE_METRICS, NON_NEGATIVE_METRICS, QUALITY_REQUIRED_METRICS, TRUST_REQUIREMENTS } from '../../../../domain/catalog/traits.ts';
import { CORE_METRICS as COVERAGE_CORE } from '../../../../domain/coverage.ts';
import { CORE_METRICS as QUALITY_CORE, NON_NEGATIVE_METRICS as DQ_NON_NEGATIVE } from '../../../../domain/data-quality.ts';
import { STATEMENT_TYPES } from '../../../../domain/statements/types.ts';
import { CORE_REQUIREMENTS } from '../../../../domain/trust-score.ts';

/** The rules' lists are read off the catalog entries' traits; a metric is added with one entry. */
describe('metric traits on the catalog entries', () => {
  it('fills every trait of every entry: what a spec leaves out is false or null', () => {
    const m = balanceMetric({
      metric: 'EXAMPLE_TOTAL', display_name: 'Example', category: 'ASSETS', concepts: [usgaap('Assets')],
      sign_convention: 'positive balance', source_notes: 'an example', traits: { non_negative: true },
    });
    assert.deepEqual(m.traits, {
      non_negative: true, headline: false, quality_required: null, coverage_core: false, trust_requirement: null, scale_checked: false, ttm: null, valuation_input: null,
      margin_line: null,
    });
  });

  it('data quality, coverage and the trust score use the lists the traits give, not lists of their own', () => {
    assert.equal(DQ_NON_NEGATIVE, NON_NEGATIVE_METRICS);
    assert.equal(QUALITY_CORE, QUALITY_REQUIRED_METRICS);
    assert.equal(COVERAGE_CORE, COVERAGE_CORE_METRICS);
    assert.equal(CORE_REQUIREMENTS, TRUST_REQUIREMENTS);
  });

  it('keeps each derived list within its own statement type and in catalog order', () => {
    const rank = new Map(CANONICAL_METRICS.map((m, i) => [m.metric, i]));
    for (const t of STATEMENT_TYPES) {
      const lists = [COVERAGE_CORE_METRICS[t], QUALITY_REQUIRED_METRICS[t].map((r) => r.metric), TRUST_REQUIREMENTS[t].flat()];
      for (const names of lists) {
        for (const n of names) assert.equal(canonicalMetric(n)?.statement_type, t, `${n} listed under ${t}`);
        assert.deepEqual(names, [...names].sort((a, b) => rank.get(a)! - rank.get(b)!));
      }
    }
  });

  it('counts each trust requirement once, with alternatives sharing one (either equity total satisfies the equity line)', () => {
    assert.deepEqual(TRUST_REQUIREMENTS.BALANCE_SHEET, [['TOTAL_ASSETS'], ['TOTAL_LIABILITIES'], ['STOCKHOLDERS_EQUITY', 'TOTAL_EQUITY']]);
    for (const t of STATEMENT_TYPES) assert.deepEqual(TRUST_REQUIREMENTS[t].flat(), [...COVERAGE_CORE_METRICS[t]], `${t}: the trust score counts the coverage core metrics`);
  });

  it('marks headline metrics among the non-negative ones: totals and share counts never turn negative', () => {
    assert.ok(HEADLINE_METRICS.size > 0);
    for (const m of HEADLINE_METRICS) assert.ok(NON_NEGATIVE_METRICS.has(m), m);
  });
});

describe('the catalog fingerprint', () => {
  it('has a read fingerprint that a derived formula moves while the stored-rows fingerprint stays', () => {
    const parts = { canonical: CANONICAL_METRICS, derived: DERIVED_METRICS, bundles: METRIC_BUNDLES, views: METRIC_VIEWS };
    assert.equal(readFingerprintOf(parts), CATALOG_READ_FINGERPRINT);
    const changed = DERIVED_METRICS.map((m, i) => (i === 0 ? { ...m, formula: `${m.formula} + 0` } : m));
    assert.notEqual(readFingerprintOf({ ...parts, derived: changed }), CATALOG_READ_FINGERPRINT);
    assert.equal(fingerprintOf(CANONICAL_METRICS), CATALOG_FINGERPRINT, 'derived metrics are not stored, so ingestion need not rebuild');
  });


  it('is a SHA-256 hex digest of the canonical entries', () => {
    assert.match(CATALOG_FINGERPRINT, /^[0-9a-f]{64}$/);
    assert.equal(fingerprintOf(CANONICAL_METRICS), CATALOG_FINGERPRINT);
  });

  it('does not depend on the order of an entry\'s fields', () => {
    const reordered = CANONICAL_METRICS.map((m) => Object.fromEntries(Object.entries(m).reverse()) as typeof m);
    assert.equal(fingerprintOf(reordered), CATALOG_FINGERPRINT);
  });

  it('changes when an entry gains a candidate, flips a sign, changes a trait, or a metric is added', () => {
    const [first, ...rest] = CANONICAL_METRICS;
    const variants = [
      [{ ...first!, concepts: [...first!.concepts, usgaap('SomethingElse')] }, ...rest],
      [{ ...first!, concepts: first!.concepts.map((c, i) => (i === 0 ? { ...c, negate: true } : c)) }, ...rest],
      [{ ...first!, traits: { ...first!.traits, headline: !first!.traits.headline } }, ...rest],
      [...CANONICAL_METRICS, balanceMetric({ metric: 'EXAMPLE_TOTAL', display_name: 'Example', category: 'ASSETS', concepts: [usgaap('Assets')], sign_convention: 'positive balance', source_notes: 'an example' })],
    ];
    const prints = variants.map((v) => fingerprintOf(v));
    for (const p of prints) assert.notEqual(p, CATALOG_FINGERPRINT);
    assert.equal(new Set(prints).size, prints.length);
  });
});
