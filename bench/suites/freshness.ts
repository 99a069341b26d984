/**
 * The "freshness" suite: how soon a filing in SEC's feed is served, and the request rate SEC sees
 * from several processes, against a stand-in for SEC on loopback in a process of its own
 * (test/helpers/sec-stand-in.ts: mirror files, a feed and company facts that change during the
 * run), reached through SEC_ORIGINS by the real client code.
 *   1. lag: the service (corpus database, FEED_POLL_S=5, its job worker polling) and, one after
 *      another, BENCH_FRESHNESS_ROUNDS (default 3) companies each filing an amendment: its company
 *      facts change and the feed names it at the same moment; seconds from the feed entry to the
 *      filing served (the watcher's own record), against the goals of 30 s on this machine and
 *      2 x FEED_POLL_S + 30 s in general
 *   2. request rate: two processes each making BENCH_BURST_REQUESTS (default 60) requests with 4 in
 *      flight, first paced by each process's own pacer (the baseline), then by the fleet's budget;
 *      the most requests the stand-in saw in any one second (the service's polls included), goal <= 10
 * DATABASE_URL: the PostgreSQL to create the run's databases on (else an embedded one).
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { easternDate, easternParts } from '../../domain/feed.ts';
import { amendedCompany, feedItem, feedXml, peakPerSecond, startRemoteStandIn, type RemoteStandIn } from '../../test/helpers/sec-stand-in.ts';
import { SHARED_SEC, startTestService, type TestService } from '../../test/helpers/service.ts';
import { onCleanup } from '../lib/cleanup.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';

const POLL_S = 5;
const FEED = '/Archives/edgar/xbrlrss.all.xml';
const COMPANIES = [
  { cik: '0000789019', name: 'MICROSOFT CORP' },
  { cik: '0000063908', name: 'MCDONALDS CORP' },
  { cik: '0000097476', name: 'TEXAS INSTRUMENTS INC' },
  { cik: '0000022701', name: 'COMPANY 22701' },
  { cik: '0000865941', name: 'COMPANY 865941' },
];

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

function eastern(at: Date): string {
  const p = easternParts(at);
  return [p.year, p.month, p.day, p.hour, p.minute, p.second].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('');
}

async function until<T>(check: () => Promise<T | null | undefined>, ms: number): Promise<T | null> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await check();
    if (v) return v;
    await sleep(100);
  }
  return null;
}

async function measureLag(svc: TestService, sec: RemoteStandIn, rounds: number): Promise<{ company: string; entry_to_served_s: number | null; recorded_lag_s: number | null }[]> {
  const out = [];
  const items: string[] = [];
  for (const [i, c] of COMPANIES.slice(0, rounds).entries()) {
    const accession = `${c.cik}-26-99${String(i).padStart(4, '0')}`;
    const at = new Date();
    const a = await amendedCompany(SHARED_SEC, c.cik, accession, easternDate(at), at.toISOString());
    sec.set(`/api/xbrl/companyfacts/CIK${c.cik}.json`, a.facts);
    if (a.submissions) sec.set(`/submissions/CIK${c.cik}.json`, a.submissions);
    items.unshift(feedItem({ cik: c.cik, name: c.name, form: a.form, accession, acceptedEastern: eastern(at) }));
    const entered = Date.now();
    sec.set(FEED, feedXml(items));
    const row = await until(async () => {
      const [r] = await svc.sql<{ served_at: string; lag_s: number | null }[]>`
        SELECT served_at, extract(epoch FROM served_at - accepted_at)::float8 AS lag_s FROM feed_accessions WHERE accession = ${accession} AND status = 'served'`;
      return r;
    }, 180_000);
    out.push({ company: c.cik, entry_to_served_s: row ? (Date.parse(row.served_at) - entered) / 1000 : null, recorded_lag_s: row?.lag_s ?? null });
    console.error(`round ${i + 1}: ${c.cik} ${row ? `served ${fixed((Date.parse(row.served_at) - entered) / 1000, 1)} s after its feed entry` : 'not served within 180 s'}`);
  }
  return out;
}

function burst(databaseUrl: string, sec: RemoteStandIn, mode: 'process' | 'fleet', count: number, tag: string): Promise<number | null> {
  const settings = { databaseUrl, origins: sec.origins, mode, count, concurrency: 4, userAgent: `Bench ${tag} bench@example.com` };
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/sec-burst-child.ts', JSON.stringify(settings)], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

async function measureRate(svc: TestService, sec: RemoteStandIn, count: number): Promise<Record<'process' | 'fleet', { peak_per_s: number; requests: number; seconds: number }>> {
  const result = {} as Record<'process' | 'fleet', { peak_per_s: number; requests: number; seconds: number }>;
  for (const mode of ['process', 'fleet'] as const) {
    const from = (await sec.hits(0)).length;
    const started = performance.now();
    const codes = await Promise.all([burst(svc.running.database.url, sec, mode, count, `${mode}-a`), burst(svc.running.database.url, sec, mode, count, `${mode}-b`)]);
    if (codes.some((c) => c !== 0)) throw new Error(`a request process failed (${codes.join(', ')})`);
    const hits = await sec.hits(from);
    result[mode] = { peak_per_s: peakPerSecond(hits.map((h) => h.at)), requests: hits.length, seconds: (performance.now() - started) / 1000 };
  }
  return result;
}

export async function run(_args: string[]): Promise<number> {
  const rounds = Math.min(COMPANIES.length, intFromEnv('BENCH_FRESHNESS_ROUNDS', 3));
  const count = intFromEnv('BENCH_BURST_REQUESTS', 60);
  const m = machine();
  console.error(describeMachine(m));
  const sec = await startRemoteStandIn();
  const closeSec = onCleanup('the SEC stand-in', () => sec.close());
  sec.set(FEED, feedXml([]));
  const svc = await startTestService({
    secSource: 'https://www.sec.gov',
    secUserAgent: 'Bench Service bench@example.com',
    secOrigins: sec.origins,
    feedWatch: 'on',
    feedPollSeconds: POLL_S,
    exportSchedule: false,
    jobConcurrency: 3,
  });
  const closeSvc = onCleanup('the service under test', () => svc.close());
  try {
    const lag = await measureLag(svc, sec, rounds);
    const rate = await measureRate(svc, sec, count);
    const served = lag.map((l) => l.entry_to_served_s).filter((s): s is number => s !== null);
    const worst = served.length === lag.length ? Math.max(...served) : null;
    const goals = { lag_s_here: 30, lag_s_general: 2 * POLL_S + 30, peak_per_s: 10 };
    const results = {
      machine: m,
      poll_s: POLL_S,
      lag,
      worst_entry_to_served_s: worst,
      rate,
      goals,
      met: { lag: worst !== null && worst <= goals.lag_s_here, peak: rate.fleet.peak_per_s <= goals.peak_per_s },
    };
    console.log(
      table(
        [
          ['measure', 'value', 'goal'],
          ...lag.map((l) => [`feed entry to served, ${l.company}`, l.entry_to_served_s === null ? 'not served' : `${fixed(l.entry_to_served_s, 1)} s`, `<= ${goals.lag_s_here} s`]),
          ['peak requests in one second, two processes, own pacers (baseline)', String(rate.process.peak_per_s), ''],
          ['peak requests in one second, two processes, fleet budget', String(rate.fleet.peak_per_s), `<= ${goals.peak_per_s}`],
          ['fleet budget requests / s over the run', fixed(rate.fleet.requests / rate.fleet.seconds, 2), ''],
        ],
        ['left', 'right', 'right'],
      ),
    );
    console.log(`results: ${writeResults('freshness', results)}`);
    return results.met.lag && results.met.peak ? 0 : 1;
  } finally {
    await closeSvc();
    await closeSec();
  }
}
