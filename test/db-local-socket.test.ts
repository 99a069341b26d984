import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { connect } from '../db/client.ts';
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

  it('finds the socket in a directory the server names before the usual ones', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fds-socket-'));
    // port 1: no PostgreSQL socket of that port exists in the usual directories
    const socket = path.join(dir, '.s.PGSQL.1');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      assert.equal(localSocketPath('postgres://u@127.0.0.1:1/x'), null);
      assert.equal(localSocketPath('postgres://u@127.0.0.1:1/x', [dir]), socket);
      assert.equal(localSocketPath('postgres://u@127.0.0.1:1/x', ['/nowhere', dir]), socket);
      // the same directory never stands in for a remote host or for TLS
      assert.equal(localSocketPath('postgres://u@db.example.com:1/x', [dir]), null);
      assert.equal(localSocketPath('postgres://u@127.0.0.1:1/x?sslmode=require', [dir]), null);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives a user who may not read unix_socket_directories the socket too (no superuser needed)', async (t) => {
    const su = await sameDatabaseOverLocalSocket(db.sql, db.url, { max: 1 });
    if (su === null) return t.skip('no usable local socket on this server');
    await su.end({ timeout: 5 });
    const role = `fds_socket_probe_${randomBytes(4).toString('hex')}`;
    await db.sql`CREATE ROLE ${db.sql(role)} LOGIN`;
    const url = new URL(db.url);
    url.username = role;
    url.password = '';
    const plain = connect(url.href, { max: 1 });
    let local: Awaited<ReturnType<typeof sameDatabaseOverLocalSocket>> = null;
    try {
      const [row] = await plain<{ su: boolean }[]>`SELECT rolsuper AS su FROM pg_roles WHERE rolname = current_user`;
      assert.equal(row!.su, false);
      local = await sameDatabaseOverLocalSocket(plain, url.href, { max: 1 });
      assert.notEqual(local, null, 'the socket the superuser gets is the same for this user');
      const [there] = await local!<{ usr: string; addr: string | null }[]>`SELECT current_user AS usr, inet_client_addr()::text AS addr`;
      assert.deepEqual(there, { usr: role, addr: null });
    } finally {
      await local?.end({ timeout: 5 });
      await plain.end({ timeout: 5 });
      await db.sql`DROP ROLE ${db.sql(role)}`;
    }
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
