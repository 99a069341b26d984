import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDatabaseUnavailable, toServiceError } from '../../../domain/service-error.ts';

describe('a database that cannot be reached is the caller\'s 503, not a 500', () => {
  const unreachable: [string, unknown][] = [
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a connection closed under a query', Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' })],
    ['a connect timeout', Object.assign(new Error('write CONNECT_TIMEOUT'), { code: 'CONNECT_TIMEOUT' })],
    ['PostgreSQL shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['PostgreSQL starting up (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection exception (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a Unix-domain socket gone while the server restarts', Object.assign(new Error('connect ENOENT /tmp/pg/.s.PGSQL.5432'), { code: 'ENOENT', syscall: 'connect' })],
    ['every address refused', new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' }), Object.assign(new Error('b'), { code: 'ECONNREFUSED' })])],
  ];
  for (const [what, err] of unreachable) {
    it(`maps ${what} to SERVICE_UNAVAILABLE with Retry-After, naming the database`, () => {
      assert.equal(isDatabaseUnavailable(err), true);
      const e = toServiceError(err);
      assert.equal(e.code, 'SERVICE_UNAVAILABLE');
      assert.equal(e.httpStatus, 503);
      assert.ok(e.retryAfterS !== null && e.retryAfterS > 0);
      assert.equal(e.retryable, true);
      assert.equal(e.details.dependency, 'database');
      assert.doesNotMatch(e.message, /127\.0\.0\.1|ECONN|ENOENT|\/tmp\//);
    });
  }

  it('keeps a missing file (ENOENT from open or stat) a 500: only a socket connect says the database is gone', () => {
    for (const syscall of ['open', 'stat', undefined]) {
      assert.equal(isDatabaseUnavailable(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', syscall })), false);
    }
  });

  it('keeps a failing query (a syntax error, a constraint) a 500', () => {
    for (const code of ['42601', '23505', '22P02']) {
      const err = Object.assign(new Error('query failed'), { code });
      assert.equal(isDatabaseUnavailable(err), false);
      assert.equal(toServiceError(err).code, 'INTERNAL_ERROR');
    }
    assert.equal(toServiceError(new Error('plain')).code, 'INTERNAL_ERROR');
  });
});
