import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localSocketPath, serverSocketDirs } from '../../../db/local-socket.ts';

describe('ingestion over the local server socket (db/local-socket.ts)', () => {
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

  it("reads the server's unix_socket_directories: absolute entries only, quotes and trailing slashes dropped", () => {
    assert.deepEqual(serverSocketDirs('/var/run/postgresql'), ['/var/run/postgresql']);
    assert.deepEqual(serverSocketDirs('/var/run/postgresql, /tmp/'), ['/var/run/postgresql', '/tmp']);
    assert.deepEqual(serverSocketDirs('"/srv/pg sockets", @abstract, relative/dir, /'), ['/srv/pg sockets', '/']);
    assert.deepEqual(serverSocketDirs(''), []);
  });
});
