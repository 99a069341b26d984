import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../db/database.ts';
import { localSocketPath, sameDatabaseOverLocalSocket } from '../db/local-socket.ts';
import { createTestDatabase } from './helpers/database.ts';

describe('ingestion over the local server socket (db/local-socket.ts)', () => {
  let db: Database;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.close();
  });

  it('never for a host that is not loopback, several hosts, a socket directory of the URL or TLS asked for', () => {
    assert.equal(localSocketPath('postgres://u@db.example.com:5432/x'), null);
    assert.equal(localSocketPath('postgres://u@10.0.0.5/x'), null);
    assert.equal(localSocketPath('postgres://u@127.0.0.1:5432/x?sslmode=require'), null);
    assert.equal(localSocketPath('postgres://u@localhost/x?ssl=true'), null);
    assert.equal(localSocketPath('postgres://u@127.0.0.1/x?host=/elsewhere'), null);
    assert.equal(localSocketPath(null), null);
    assert.equal(localSocketPath('not a url'), null);
    // a port no server listens on has no socket file either
    assert.equal(localSocketPath('postgres://u@127.0.0.1:1/x'), null);
  });

  it('the same database over the socket when the server has one, else nothing; never another database', async () => {
    const path = localSocketPath(db.url);
    const local = await sameDatabaseOverLocalSocket(db.sql, db.url, { max: 1 });
    try {
      if (local === null) {
        // no socket, or (the embedded server) one that authenticates local connections otherwise
        assert.ok(path === null || db.embedded, `the socket ${path} exists, so the same database should be reached over it`);
        return;
      }
      const [here] = await db.sql<{ db: string }[]>`SELECT current_database() AS db`;
      const [there] = await local<{ db: string; addr: string | null }[]>`SELECT current_database() AS db, inet_client_addr()::text AS addr`;
      assert.equal(there!.db, here!.db);
      assert.equal(there!.addr, null, 'a Unix-socket connection has no client address');
    } finally {
      await local?.end({ timeout: 5 });
    }
    // a URL naming another database than the pool's is refused (the server's own postgres database)
    const other = new URL(db.url);
    other.pathname = '/postgres';
    assert.equal(await sameDatabaseOverLocalSocket(db.sql, other.href, { max: 1 }), null);
  });
});
