import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { chmod, chown, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connect } from '../db/client.ts';
import { packageBinDir, startEmbeddedPostgres } from '../db/embedded.ts';
import { placeEmbedded, reachableByOthers, sharedRoot } from '../db/embedded-placement.ts';
import { migrate } from '../db/migrate.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const asRoot = process.getuid?.() === 0;
const run = promisify(execFile);

/** The relocated home of a DATA_DIR, as the service names it. */
function sharedHome(dataDir: string): string {
  return path.join(sharedRoot(), `fds-embedded-${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12)}`);
}

/** Runs the CLI as `npm run fds -- ...` does, with the environment given. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', ...args], { cwd: ROOT, env: { ...inherited, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the embedded PostgreSQL from a private folder, as root and not', () => {
  it('places binaries and data where the postgres user can reach them only when run as root from a folder it cannot reach', async () => {
    const box = await mkdtemp(path.join(tmpdir(), 'fds-place-')); // 0700, like a home directory
    try {
      const bins = path.join(box, 'node_modules', 'x', 'native');
      const dataDir = path.join(box, '.data');
      assert.equal(statSync(box).mode & 0o777, 0o700);
      assert.equal(reachableByOthers(bins), false);
      assert.equal(reachableByOthers('/usr/bin'), true);
      const root = placeEmbedded({ dataDir, packageBinDir: bins, asRoot: true, serverUid: 101, root: '/var/tmp' });
      assert.equal(root.copyFrom, bins);
      assert.match(root.binDir, /^\/var\/tmp\/fds-embedded-[0-9a-f]{12}\/native$/);
      assert.equal(root.databaseDir, path.join(path.dirname(root.binDir), 'pg'));
      assert.equal(root.relocated, true);
      assert.deepEqual(placeEmbedded({ dataDir, packageBinDir: bins, asRoot: true, serverUid: 101, root: '/var/tmp' }), root, 'the same place on every start');
      const user = placeEmbedded({ dataDir, packageBinDir: bins, asRoot: false, serverUid: null });
      assert.deepEqual(user, { binDir: bins, copyFrom: null, databaseDir: path.join(dataDir, 'pg'), relocated: false }, 'not root: in place, as the invoking user');
      await chmod(box, 0o755);
      const open = placeEmbedded({ dataDir, packageBinDir: bins, asRoot: true, serverUid: 101, root: '/var/tmp' });
      assert.deepEqual([open.copyFrom, open.relocated], [null, false], 'a folder others can reach is used in place');
    } finally {
      await rm(box, { recursive: true, force: true });
    }
  });

  it('starts as root from a 0700 folder (binaries copied, data relocated), and a CLI command attaches to the running server', { skip: !asRoot && 'needs root' }, async () => {
    const box = await mkdtemp(path.join(tmpdir(), 'fds-private-'));
    const dataDir = path.join(box, '.data');
    const home = sharedHome(dataDir);
    const port = 54391;
    try {
      const privateBins = path.join(box, 'native');
      await cp(await packageBinDir(), privateBins, { recursive: true, verbatimSymlinks: true });
      const lines: string[] = [];
      const db = await startEmbeddedPostgres(dataDir, port, (m) => lines.push(m), { binSource: privateBins });
      try {
        assert.equal(db.attached, false);
        assert.equal(db.databaseDir, path.join(home, 'pg'));
        assert.ok(existsSync(path.join(home, 'native', 'bin', 'postgres')), 'the binaries were copied where the postgres user reaches them');
        assert.ok(lines.some((l) => l.includes('cannot reach')), 'the start-up says where PostgreSQL runs from');
        const sql = connect(db.url, { max: 1 });
        await migrate(sql);
        const [who] = await sql`SELECT current_setting('data_directory') AS dir`;
        assert.equal(who!.dir, db.databaseDir);

        // npm run fds -- keys create, while the server holds the data directory
        const made = await cli(['keys', 'create', '--plan', 'free', '--org', 'cli-while-serving'], { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port + 1) });
        assert.equal(made.code, 0, made.stderr);
        assert.match(made.stderr, /attaching to the embedded PostgreSQL already running/);
        const key = made.stdout.trim().split('\n').pop()!;
        assert.match(key, /^fds_sk_/);
        const [org] = await sql`SELECT count(*)::int AS n FROM organizations WHERE name = 'cli-while-serving'`;
        assert.equal(org!.n, 1, 'the key went into the running instance database');
        await sql.end({ timeout: 5 });
      } finally {
        await db.stop();
      }
      const again = await startEmbeddedPostgres(dataDir, port, () => {}, { binSource: privateBins });
      const sql = connect(again.url, { max: 1 });
      const [n] = await sql`SELECT count(*)::int AS n FROM organizations`;
      assert.equal(n!.n, 1, 'a restart finds the relocated data again');
      await sql.end({ timeout: 5 });
      await again.stop();
    } finally {
      await rm(box, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });

  it('starts as the invoking user when not root: a non-root process initialises and serves its own data directory', { skip: !asRoot && 'needs root to switch to a non-root user' }, async (t) => {
    // the non-root user runs this checkout's code: from a private folder (a root's `mktemp -d` clone) it cannot
    if (!reachableByOthers(ROOT)) return t.skip('the checkout sits in a private folder the non-root user cannot enter');
    const uid = Number((await run('id', ['-u', 'nobody'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'nobody'])).stdout.trim());
    const box = await mkdtemp(path.join(tmpdir(), 'fds-user-'));
    try {
      await chmod(box, 0o755);
      const mine = path.join(box, 'home');
      await mkdir(mine, { mode: 0o700 });
      await chown(mine, uid, gid);
      const script = path.join(box, 'start.mts');
      await writeFile(
        script,
        `import { startEmbeddedPostgres } from ${JSON.stringify(path.join(ROOT, 'db/embedded.ts'))};
import { connect } from ${JSON.stringify(path.join(ROOT, 'db/client.ts'))};
const db = await startEmbeddedPostgres(${JSON.stringify(path.join(mine, '.data'))}, 54393, () => {});
const sql = connect(db.url, { max: 1 });
const [row] = await sql\`SELECT current_setting('data_directory') AS dir\`;
console.log(JSON.stringify({ dir: row.dir, uid: process.getuid() }));
await sql.end();
await db.stop();
`,
      );
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, uid, gid, env: { ...process.env, HOME: mine } });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      assert.equal(code, 0, err);
      const report = JSON.parse(out.trim().split('\n').pop()!);
      assert.deepEqual(report, { dir: path.join(mine, '.data', 'pg'), uid }, 'in place under DATA_DIR, run by the invoking user');
    } finally {
      await rm(box, { recursive: true, force: true });
    }
  });

  it('reports a start-up failure as one line saying what to do, without a stack trace', async () => {
    const box = await mkdtemp(path.join(tmpdir(), 'fds-fail-'));
    try {
      const noBins = path.join(box, 'nothing');
      await mkdir(path.join(noBins, 'bin'), { recursive: true });
      const failure = await startEmbeddedPostgres(path.join(box, '.data'), 54395, () => {}, { binSource: noBins, root: box }).catch((e: Error) => e);
      assert.ok(failure instanceof Error);
      assert.doesNotMatch(failure.message, /\n/);
      assert.match(failure.message, /could not run \((ENOENT|EACCES)\); set DATABASE_URL/);
      // the system's PostgreSQL holds 5432: the embedded one cannot bind it
      const r = await cli(['migrate'], { DATA_DIR: path.join(box, 'cli'), EMBEDDED_PG_PORT: '5432' });
      assert.notEqual(r.code, 0);
      const said = r.stderr.trim().split('\n').filter((l) => !/^(initialising|running as root)/.test(l));
      assert.equal(said.length, 1, r.stderr);
      assert.match(said[0]!, /port 5432 is taken: set EMBEDDED_PG_PORT to a free port/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    } finally {
      await rm(box, { recursive: true, force: true });
      await rm(sharedHome(path.join(box, 'cli')), { recursive: true, force: true });
    }
  });
});
