import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointCount } from '../../../ingest/package-rows.ts';

describe('disclosure rows', () => {
  it('count characters as the string iterator does (a surrogate pair is one, a lone surrogate one)', () => {
    const texts = ['', 'Income taxes', 'caf\u00e9 \u2014 \u00a7 12', '\u{1F600}', 'a\u{1F600}b\u{10348}c', '\uD83D', '\uDE00', 'x\uD83Dy', '\uDE00\uD83D', '\uD83D\uD83D\uDE00', 'end\uD83D'];
    for (const t of texts) assert.equal(codePointCount(t), [...t].length, JSON.stringify(t));
  });
});
