import childProcess, { ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Preloaded into every test process by the npm test scripts (`--import ./test/helpers/hermetic.ts`).
 * In a file under test/unit/ it refuses everything a database needs: no socket connects (so no
 * PostgreSQL over TCP or a Unix socket, whatever DATABASE_URL says), no server listens, and no
 * child process starts (so no embedded PostgreSQL, initdb or psql). A refusal throws, and also
 * marks the test file failed, so code that catches the error and carries on (a fallback to the
 * embedded database, say) still fails the run; a failed file lists its refusals on stderr as it
 * exits. Files outside test/unit/ are left alone.
 */
const UNIT_DIR = fileURLToPath(new URL('../unit/', import.meta.url));

/** What a unit test tried to open: thrown, and reported even when the code under test catches it. */
export class HermeticTierError extends Error {}

const testFile = process.argv[1] ? path.resolve(process.argv[1]) : '';
const isTestFileProcess = !process.execArgv.includes('--test');
if (isTestFileProcess && testFile.startsWith(UNIT_DIR)) seal(path.relative(process.cwd(), testFile));

function seal(file: string): void {
  const refusals: string[] = [];
  const refuse = (what: string): never => {
    const message =
      `${file} is in the unit tier, which opens no database, socket or process, yet it tried to ${what}. ` +
      'A test that needs PostgreSQL, a server or a subprocess belongs in test/*.test.ts.';
    refusals.push(message);
    process.exitCode = 1;
    throw new HermeticTierError(message);
  };
  process.on('exit', (code) => {
    if (code !== 0) for (const message of refusals) process.stderr.write(`${message}\n`);
  });

  net.Socket.prototype.connect = function connect(...args: unknown[]): never {
    return refuse(`connect a socket to ${describeTarget(args[0], args[1])}`);
  };
  net.Server.prototype.listen = function listen(): never {
    return refuse('listen on a port or socket');
  };
  // every asynchronous child (spawn, exec, execFile, fork) starts through ChildProcess#spawn, which node's types leave out
  Object.assign(ChildProcess.prototype, {
    spawn(options: { file?: string }): never {
      return refuse(`start a process (${options?.file ?? 'unknown'})`);
    },
  });
  for (const name of ['spawnSync', 'execSync', 'execFileSync'] as const) {
    Object.assign(childProcess, { [name]: (command: unknown) => refuse(`start a process (${String(command)})`) });
  }
  syncBuiltinESMExports();
}

function describeTarget(first: unknown, second: unknown): string {
  if (typeof first === 'number') return `port ${first}${typeof second === 'string' ? ` on ${second}` : ''}`;
  if (typeof first === 'string') return first;
  if (first && typeof first === 'object') {
    const o = first as { path?: string; port?: number; host?: string };
    return o.path ?? `port ${o.port} on ${o.host ?? 'localhost'}`;
  }
  return 'an address';
}
