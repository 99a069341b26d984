import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VersionPayloads } from '../../../api/version-payloads.ts';

describe('prepared statement payloads (one per immutable version)', () => {
  it('keeps at most its bound, dropping the least recently used, and freezes what it keeps', () => {
    const c = new VersionPayloads<{ n: number; inner: { m: number } }>(2);
    c.set('a', { n: 1, inner: { m: 1 } });
    c.set('b', { n: 2, inner: { m: 2 } });
    assert.equal(c.get('a')?.n, 1); // a is now the most recent
    c.set('c', { n: 3, inner: { m: 3 } });
    assert.deepEqual([c.get('a')?.n, c.get('b'), c.get('c')?.n, c.size], [1, undefined, 3, 2]);
    assert.throws(() => {
      (c.get('a')!.inner as { m: number }).m = 9;
    }, TypeError);
  });
});
