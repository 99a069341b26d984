import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODEL, FEATURES } from '../../../../domain/ai/embedding.ts';

describe('the embedding', () => {
  it('documents a model id, version and one center and spread per named dimension', () => {
    assert.deepEqual(EMBEDDING_MODEL, { model_id: 'fds-financial-profile', model_version: '1' });
    assert.equal(EMBEDDING_DIMENSIONS, 18);
    assert.equal(new Set(FEATURES.map((f) => f.name)).size, FEATURES.length);
    for (const f of FEATURES) assert.ok(new Decimal(f.spread).isPositive() && f.formula.length > 5, f.name);
  });
});
