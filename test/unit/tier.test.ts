import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { connect } from '../../db/client.ts';
import { startEmbeddedPostgres } from '../../db/embedded.ts';
import { createTestDatabase } from '../helpers/database.ts';

/**
 * The unit tier's promise, checked from inside it: whatever DATABASE_URL says, a unit test can
 * neither reach PostgreSQL nor start the embedded one, and a refusal fails the file even when the
 * code under test swallows it. Holds only under the test scripts' preload (test/helpers/hermetic.ts).
 */
const REFUSED = /is in the unit tier, which opens no database, socket or process/;
const PRELOADED = 'run through `npm run test:unit` or `npm test`, which preload test/helpers/hermetic.ts';

describe('the unit tier', () => {
  const savedUrl = process.env.DATABASE_URL;
  // each test below checks that its refusal marked the file failed, then the mark is cleared
  afterEach(() => {
    process.exitCode = 0;
  });
  after(() => {
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
  });

  it('refuses a query to the machine PostgreSQL before a socket opens, and marks the file failed', async () => {
    const sql = connect('postgres://postgres@127.0.0.1:5432/postgres', { max: 1 });
    await assert.rejects(sql`SELECT 1`, REFUSED, PRELOADED);
    assert.equal(process.exitCode, 1, 'the refusal marks the file failed');
    await sql.end({ timeout: 1 });
  });

  it('refuses the test database of a database suite, as DATABASE_URL names one', async () => {
    process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
    await assert.rejects(createTestDatabase(), REFUSED, PRELOADED);
    assert.equal(process.exitCode, 1);
  });

  it('refuses to start the embedded PostgreSQL, and the file fails although start-up catches the refusal', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fds-unit-tier-'));
    try {
      await assert.rejects(startEmbeddedPostgres(path.join(dir, 'data'), 54398, () => {}));
      assert.equal(process.exitCode, 1, `the refused process start marks the file failed; ${PRELOADED}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to listen on a port', () => {
    assert.throws(() => createServer().listen(0, '127.0.0.1'), REFUSED, PRELOADED);
    assert.equal(process.exitCode, 1);
  });
});
