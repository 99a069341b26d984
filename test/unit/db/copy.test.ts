import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyLine } from '../../../db/copy.ts';

describe('the COPY text format (db/copy.ts)', () => {
  it('writes a line of the text format: tab-separated, backslash, tab, newline and carriage return escaped, null as \\N', () => {
    assert.equal(copyLine(['a\tb', 'c\nd\re\\f', null, undefined, 3, true, { k: 'v\\' }]), 'a\\tb\tc\\nd\\re\\\\f\t\\N\t\\N\t3\tt\t{"k":"v\\\\\\\\"}\n');
  });
});
