import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { feedItem, feedXml, peakPerSecond, startRemoteStandIn, type RemoteStandIn } from './helpers/sec-stand-in.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Companies of the mirror without filing folders: a live ingestion of each asks for its facts, submissions and four folder indexes. */
const FIRST = ['22701', '63908', '97476', '789019', '865941', '909832', '945436', '1046179', '1336917', '1364479', '1376339', '1637459', '1640147', '1652044', '1657853', '1731289', '1744489', '1835632'];
const SECOND = [...FIRST].reverse();

/** `fds ingest` in a process of its own against the stand-in, as an operator would run it beside the service. */
function ingestProcess(databaseUrl: string, sec: RemoteStandIn, ciks: string[], userAgent: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', 'ingest', ...ciks.flatMap((c) => ['--cik', c])], {
    cwd: REPO,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SEC_SOURCE: 'https://www.sec.gov',
      SEC_USER_AGENT: userAgent,
      SEC_ORIGINS: Object.entries(sec.origins).map(([h, o]) => `${h}=${o}`).join(','),
      INGEST_WORKERS: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('one fair-access budget for the fleet', () => {
  let sec: RemoteStandIn;
  let svc: TestService;
  before(async () => {
    // in a process of its own, so its arrival times are not held up by this process's work
    sec = await startRemoteStandIn();
    sec.set('/Archives/edgar/xbrlrss.all.xml', feedXml([feedItem({ cik: '0000789019', name: 'MICROSOFT CORP', form: '8-K', accession: '0001193125-26-990100', acceptedEastern: '20261128100000' })]));
    // an instance with its job worker polling the feed every second, against the same stand-in
    svc = await startTestService({
      secSource: 'https://www.sec.gov',
      secUserAgent: 'Fleet Service service@example.com',
      secOrigins: sec.origins,
      feedWatch: 'on',
      feedPollSeconds: 1,
      exportSchedule: false,
    });
  });
  after(async () => {
    await svc?.close();
    await sec?.close();
  });

  test('two ingesting processes and a polling worker never make more than 10 requests to SEC in any one second', async (t) => {
    const from = (await sec.hits(0)).length;
    const [a, b] = await Promise.all([
      ingestProcess(svc.running.database.url, sec, FIRST, 'Fleet A a@example.com'),
      ingestProcess(svc.running.database.url, sec, SECOND, 'Fleet B b@example.com'),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const hits = await sec.hits(from);
    const byA = hits.filter((h) => h.userAgent.startsWith('Fleet A')).length;
    const byB = hits.filter((h) => h.userAgent.startsWith('Fleet B')).length;
    const byService = hits.filter((h) => h.userAgent.startsWith('Fleet Service')).length;
    assert.ok(byA >= 36 && byB >= 36, `each process asked SEC for its companies (A ${byA}, B ${byB})`);
    assert.ok(byService >= 1, `the service's worker polled the feed meanwhile (${byService})`);
    const peak = peakPerSecond(hits.map((h) => h.at));
    t.diagnostic(`peak ${peak} requests in one second; ${hits.length} requests (A ${byA}, B ${byB}, service ${byService})`);
    assert.ok(peak <= 10, `${peak} requests reached the stand-in within one second (${hits.length} in all)`);
    const [budget] = await svc.sql<{ requests: string }[]>`SELECT requests::text AS requests FROM sec_request_budget WHERE name = 'sec'`;
    assert.ok(Number(budget!.requests) >= hits.length, 'every request was counted against the shared budget');
  });
});
