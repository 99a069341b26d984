import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseEncoding } from '../../../routes/encoding.ts';

describe('operations: Accept-Encoding', () => {
  it('takes the heaviest coding we speak, br before gzip on equal weight, none where q=0 or nothing is listed', () => {
    assert.equal(chooseEncoding(undefined), 'identity');
    assert.equal(chooseEncoding('gzip, br'), 'br');
    assert.equal(chooseEncoding('gzip;q=1, br;q=0.5'), 'gzip');
    assert.equal(chooseEncoding('br;q=0, gzip;q=0.001'), 'gzip');
    assert.equal(chooseEncoding('*'), 'br');
    assert.equal(chooseEncoding('*;q=0'), 'identity');
    assert.equal(chooseEncoding('deflate, identity'), 'identity');
    assert.equal(chooseEncoding('GZIP; Q=0.8'), 'gzip');
  });

  it('does not take a coding whose quality is not a valid qvalue (RFC 9110 12.4.2)', () => {
    for (const bad of ['abc', '2', '1.5', '0.1234', '-1', '', '1.0.0', '.5']) {
      assert.equal(chooseEncoding(`gzip;q=${bad}`), 'identity', `gzip;q=${bad}`);
      assert.equal(chooseEncoding(`br;q=${bad}, gzip;q=0.2`), 'gzip', `br;q=${bad}`);
    }
    for (const good of ['1', '1.000', '0.5', '0.001', '1.']) assert.equal(chooseEncoding(`gzip;q=${good}`), 'gzip', `gzip;q=${good}`);
  });
});
