import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createApiKey } from '../db/keys.ts';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const run = promisify(execFile);

describe('API keys', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('issues keys with a typed prefix and 256 random bits', async () => {
    const a = await createApiKey(svc.sql, 'acme', 'growth');
    const b = await createApiKey(svc.sql, 'acme', 'growth');
    assert.match(a.key, /^fds_sk_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a.key, b.key);
    assert.equal(a.org_id, b.org_id, 'same organization');
  });

  it('never stores the raw key, only its SHA-256', async () => {
    const issued = await createApiKey(svc.sql, 'acme', 'scale');
    const [row] = await svc.sql`SELECT * FROM api_keys WHERE key_id = ${issued.key_id}`;
    assert.ok(row);
    const stored = JSON.stringify(Object.values(row).map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
    assert.ok(!stored.includes(issued.key), 'raw key found in api_keys');
    assert.ok(!stored.includes(issued.key.slice(7)), 'secret part found in api_keys');
    assert.equal((row.key_hash as Buffer).toString('hex'), createHash('sha256').update(issued.key).digest('hex'));
    const dump = await svc.sql`SELECT string_agg(t::text, '') AS all FROM organizations t`;
    assert.ok(!String(dump[0]!.all).includes(issued.key));
  });

  it('refuses a revoked key with 401', async () => {
    const issued = await createApiKey(svc.sql, 'acme', 'free');
    await svc.sql`UPDATE api_keys SET revoked_at = now() WHERE key_id = ${issued.key_id}`;
    const r = await get(`${svc.baseUrl}/v1/system/metadata`, issued.key);
    assert.equal(r.status, 401);
  });

  it('creates a key from the CLI and prints it alone on the last line', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'cli.ts', 'keys', 'create', '--plan', 'growth', '--org', 'cli-org'], {
      env: { ...process.env, DATABASE_URL: svc.running.database.url },
    });
    const lines = stdout.trim().split('\n');
    const key = lines[lines.length - 1]!;
    assert.match(key, /^fds_sk_[A-Za-z0-9_-]{43}$/);
    const r = await get(`${svc.baseUrl}/v1/system/metadata`, key);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.plan, 'growth');
    assert.equal(r.body.data.organization, 'cli-org');
  });

  it('refuses an unknown plan on the CLI with exit code 2', async () => {
    await assert.rejects(
      run(process.execPath, ['--import', 'tsx', 'cli.ts', 'keys', 'create', '--plan', 'platinum', '--org', 'x'], {
        env: { ...process.env, DATABASE_URL: svc.running.database.url },
      }),
      (err: { code: number; stderr: string }) => err.code === 2 && /--plan must be one of/.test(err.stderr),
    );
  });
});
