import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numeralsIn, renderGrowth, renderMoney, renderPoints, renderRatio } from '../../../../domain/ai/render.ts';

describe('render', () => {
  it('rounds half-up and never prints a signed zero', () => {
    assert.equal(renderMoney('383285000000'), '383.3B');
    assert.equal(renderMoney('-106000000'), '-106.0M');
    assert.equal(renderMoney('-49'), '-49');
    assert.equal(renderMoney('-0.4'), '0');
    assert.equal(renderRatio('0.44135'), '44.1%');
    assert.equal(renderRatio('0.44150'), '44.2%');
    assert.equal(renderPoints('0.0153'), '+1.5 pp');
    assert.equal(renderPoints('-0.0004'), '0.0 pp');
    assert.equal(renderGrowth('-0.028'), '-2.8%');
  });

  it('prints extra decimals when asked', () => {
    assert.equal(renderRatio('0.253096407052', 2), '25.310%');
    assert.equal(renderPoints('-0.000034064409', 2), '-0.003 pp');
    assert.equal(renderMoney('6497500000', 1), '6.50B');
    assert.equal(renderMoney('812.4', 1), '812.4');
    assert.equal(renderGrowth('0.0002', 1), '+0.02%');
  });

  it('finds every numeral of a text, with thousands separators and decimals', () => {
    assert.deepEqual(numeralsIn('Revenue rose 2.0% to 391.0B in FY2024 (1,234 and Q3)'), ['2.0', '391.0', '2024', '1,234', '3']);
  });
});
