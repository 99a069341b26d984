import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { createApiKey } from '../../db/keys.ts';
import type { Database } from '../../db/database.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { freePort, REPO, waitReady } from '../helpers/fleet.ts';
import { SHARED_MACRO, SHARED_SEC } from '../helpers/shared-data.ts';

/**
 * The README's `npm start`, stopped as a terminal, systemd or a supervisor stops it: SIGTERM to its
 * whole process group while 100 requests are in flight. Every one of them must be answered. The
 * server keeps its listener for SHUTDOWN_DELAY_S (5 s here, as behind a load balancer's health
 * check interval) so requests whose bytes are still on their way when the signal comes are read too,
 * however slowly a loaded machine accepts them; under the tsx binary the
 * process is killed before any of them is answered.
 */
describe('npm start under a process-group SIGTERM', () => {
  let db: Database;
  before(async () => {
    db = await createTestDatabase({ corpus: true });
  });
  after(async () => {
    await db?.close();
  });

  it('answers all 100 requests in flight, and the server stops after draining', async () => {
    const port = await freePort();
    const child = spawn('npm', ['start'], {
      cwd: REPO,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', SEC_SOURCE: SHARED_SEC, MACRO_SOURCE: SHARED_MACRO, DEV_KEYS: 'off', INGEST_ON_START: 'off', JOBS: 'off', SHUTDOWN_DELAY_S: '5', RATE_LIMITS: 'off', LOG_LEVEL: 'warn' },
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d));
    child.stderr!.on('data', (d: Buffer) => (output += d));
    // 'close': npm and the server it started (which holds the same output pipes) are both gone
    const exited = new Promise<string>((resolve) => child.on('close', (code, signal) => resolve(signal ?? `code ${code}`)));
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/health/readiness`);
    const key = (await createApiKey(db.sql, 'drain', 'enterprise')).key;
    const ciks = ['0000320193', '0000789019', '0000104169', '0001652044', '0001045810'];
    const path = `/v1/fundamentals/time-series?statement_type=INCOME_STATEMENT&${ciks.map((c) => `ciks=${c}`).join('&')}&from=2010-01-01&to=2023-12-31&page_size=200`;
    const agent = new Agent({ connections: 100 });
    let answered = 0;
    const requests = Array.from({ length: 100 }, () =>
      request(`${base}${path}`, { headers: { 'x-api-key': key }, dispatcher: agent }).then(async (r) => {
        await r.body.text();
        answered++;
        return r.statusCode;
      }, (err: Error) => `failed: ${err.message}`),
    );
    // the signal comes once the server is handling them (the in-flight gauge counts some), before
    // the first answer: the rest are still on their way in or queued, and must be read and answered too
    let inFlight = 0;
    for (let i = 0; i < 400 && answered === 0; i++) {
      const m = await fetch(`${base}/metrics`).then((r) => r.text());
      inFlight = Number(/^fds_http_requests_in_flight (\d+)/m.exec(m)?.[1] ?? 0) - 1;
      if (inFlight >= 1) break;
    }
    const outstanding = 100 - answered;
    process.kill(-child.pid!, 'SIGTERM');
    const statuses = await Promise.all(requests);
    const code = await exited;
    await agent.close();
    console.log(`# ${outstanding} of 100 requests in flight at SIGTERM (${inFlight} counted by the server); answered: ${statuses.filter((s) => s === 200).length} of 100 with 200; exit ${code}`);
    assert.ok(outstanding >= 25, `only ${outstanding} requests were still in flight at the signal`);
    assert.deepEqual(statuses, Array(100).fill(200), output);
    // npm itself ends on the signal; the server it started drains and says so
    assert.match(output, /^stopped$/m, output);
  });
});
