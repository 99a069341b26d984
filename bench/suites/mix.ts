/**
 * The "mix" suite: a fixed-seed random mix of reads (bench/lib/mix-requests.ts: 35% normalized
 * statements, 30% metric time series, 20% three-company panels, 15% as-of financials over the 23
 * companies, fiscal years 2010-2024) against a server in its own process, measured in the same run
 * as GET /health/z, twice: with the read caches on, and on a second server over the same database
 * with READ_CACHE=off. For the whole mix and each route family alone: p50/p99 and req/s at 4
 * connections, req/s at 50. With the caches on also HTTP against tools/call over /mcp, for the
 * mix (the same reads on both surfaces) and for the hot path (one statement repeated), each in
 * BENCH_MIX_PAIRS (default 5) windows per surface taken in alternating order. Goals are reported PASS/MISS,
 * never as an error exit: the figures are the product. Answers other than 200 (or 404 for a period
 * never filed) make the run not clean (exit code 1). Each server first serves the mix for
 * BENCH_MIX_SETTLE_S (default 20) over HTTP and as long again as tool calls (the same reads), unreported, as a running
 * server would have; then each window: BENCH_WARMUP_S (default 2) of warm-up, not reported, then
 * BENCH_DURATION_S (default 6). The reads continue from one window to the next (but for the HTTP and
 * tool call pairs, which read what the server settled on), so no window
 * repeats the reads of its warm-up.
 */
import { checkTarget, measure, type Measurement, type Target } from '../lib/load.ts';
import { checkReads, measureStream, ReadStream, type MixMeasurement } from '../lib/mix-load.ts';
import { FAMILY_SHARES, mixReads, toolCallBody, type Family } from '../lib/mix-requests.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { secondsFromEnv } from '../lib/suite.ts';

const SEED = 20_241_231;
const POOL = 60_000;
const CHECKED = 240;
const FAMILIES = Object.keys(FAMILY_SHARES) as Family[];

export const MIX_GOALS = {
  /** the whole mix at 4 connections: req/s over /health/z req/s at 4, and p99 */
  cached: { share: 0.3, p99_ms: 10 },
  uncached: { share: 0.15, p99_ms: 15 },
  /** as-of financials alone, caches on, at 4 */
  as_of: { p50_ms: 2, p99_ms: 8 },
  /** the repeated statement read: req/s at 50 over /health/z req/s at 50 */
  hot_share: 0.5,
  /** HTTP req/s over tools/call req/s at 4, the same statement / the same reads of the mix (median of paired windows) */
  tool_over_http: 1.15,
};

const APPLE_STATEMENT = { cik: '0000320193', statement_type: 'INCOME_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY' };

function healthTarget(): Target {
  return { name: 'GET /health/z', method: 'GET', path: '/health/z', check: (s) => (s === 200 ? null : 'expected 200') };
}

function statementTargets(apiKey: string): { http: Target; mcp: Target } {
  const q = new URLSearchParams(Object.entries(APPLE_STATEMENT).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return {
    http: { name: 'repeated statement (HTTP)', method: 'GET', path: `/v1/fundamentals/normalized-statements?${q}`, headers: { 'x-api-key': apiKey }, check: (s) => (s === 200 ? null : 'expected 200') },
    mcp: {
      name: 'repeated statement (tools/call)',
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: toolCallBody({ family: 'statement', path: '', tool: { name: 'statements_normalized', arguments: APPLE_STATEMENT } }),
      check: (s, b) => (s === 200 && (b as { result?: { isError?: boolean } })?.result?.isError === false ? null : 'expected a result'),
    },
  };
}

interface ServerRun {
  caches: 'on' | 'off';
  health: { at4: Measurement; at50: Measurement };
  mix: { at4: MixMeasurement; at50: MixMeasurement; share_at4: number; share_at50: number };
  families: Record<string, { at4: MixMeasurement; at50: MixMeasurement; share_at50: number }>;
  mcp_mix: MixMeasurement | null;
  /** the same reads over HTTP and as tool calls at 4, in alternating windows */
  tool_pairs: { http_rps: number[]; mcp_rps: number[]; http_over_mcp: number } | null;
  hot: { at50: Measurement; share: number; http_at4: Measurement; mcp_at4: Measurement; http_rps: number[]; mcp_rps: number[]; http_over_mcp: number } | null;
}

/** Windows per surface when HTTP and tool calls are compared (BENCH_MIX_PAIRS). */
const PAIRS = Math.max(1, Number(process.env.BENCH_MIX_PAIRS || 5));

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The median of the pairs' ratios a[i] / b[i]. */
function medianRatio(a: readonly number[], b: readonly number[]): number {
  const rs = a.map((x, i) => x / b[i]!).sort((p, q) => p - q);
  const mid = Math.floor(rs.length / 2);
  return Math.round((rs.length % 2 === 1 ? rs[mid]! : (rs[mid - 1]! + rs[mid]!) / 2) * 1000) / 1000;
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const ratio = (a: number, b: number) => Math.round((b > 0 ? a / b : Number.NaN) * 1000) / 1000;

async function measureServer(server: BenchServer, caches: 'on' | 'off', durationS: number, warmupS: number, settleS: number): Promise<ServerRun> {
  const log = (m: MixMeasurement | Measurement) =>
    console.log(`  ${caches === 'on' ? 'cached  ' : 'uncached'} ${m.name.padEnd(34)} @${String(m.connections).padStart(2)}: ${fixed(m.rps_mean, 0).padStart(6)} req/s, p50 ${fixed(m.latency_ms.p50, 2)} ms, p99 ${fixed(m.latency_ms.p99, 2)} ms`);
  const one = async (t: Target, c: number) => {
    const m = await measure(server.baseUrl, t, { connections: c, durationS, warmupS });
    log(m);
    return m;
  };
  // each server its own seed offset: the uncached server does not replay what the cached one read
  const seed = SEED + (caches === 'on' ? 0 : 1);
  const streams = { mix: new ReadStream('whole mix', mixReads(POOL, seed)) } as Record<string, ReadStream>;
  for (const f of FAMILIES) streams[f] = new ReadStream(f, mixReads(POOL / 4, seed + 10 + FAMILIES.indexOf(f), f));
  const mixOf = async (name: string, c: number, surface: 'http' | 'mcp' = 'http') => {
    const m = await measureStream(server.baseUrl, server.apiKey, streams[name]!, surface, c, durationS, warmupS);
    if (surface === 'mcp') m.name = `${m.name} (tools/call)`;
    log(m);
    return m;
  };
  // the server first serves the mix for a while, unreported: what it keeps per stored version (never
  // stale, see docs/performance.md) fills as a running server's does; figures are of that steady state
  // over the same reads on both surfaces, for the same time
  const settled = mixReads(POOL, seed + 5);
  await measureStream(server.baseUrl, server.apiKey, new ReadStream('warm-up', settled), 'http', 4, settleS, 0);
  await measureStream(server.baseUrl, server.apiKey, new ReadStream('warm-up', settled), 'mcp', 4, settleS, 0);
  const health = { at50: await one(healthTarget(), 50), at4: await one(healthTarget(), 4) };
  const at4 = await mixOf('mix', 4);
  const at50 = await mixOf('mix', 50);
  const families: ServerRun['families'] = {};
  for (const f of FAMILIES) {
    const fam4 = await mixOf(f, 4);
    const fam50 = await mixOf(f, 50);
    families[f] = { at4: fam4, at50: fam50, share_at50: ratio(fam50.rps_mean, health.at50.rps_mean) };
  }
  // HTTP against tool calls: the reads both surfaces served while the server settled, from the
  // first, in every window (what a server keeps per stored version then serves both alike), in
  // pairs of windows taken in alternating order (HTTP first, then tool calls first, ...) so neither
  // surface is measured only on a later, busier or quieter, stretch of the run; the ratio is the
  // median of the pairs'
  let mcpMix: MixMeasurement | null = null;
  let toolPairs: ServerRun['tool_pairs'] = null;
  let hot: ServerRun['hot'] = null;
  if (caches === 'on') {
    const http: number[] = [];
    const mcp: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      for (const surface of i % 2 === 0 ? (['http', 'mcp'] as const) : (['mcp', 'http'] as const)) {
        const m = await measureStream(server.baseUrl, server.apiKey, new ReadStream('whole mix', settled), surface, 4, durationS, warmupS);
        if (surface === 'mcp') m.name = `${m.name} (tools/call)`;
        log(m);
        (surface === 'http' ? http : mcp).push(m.rps_mean);
        if (surface === 'mcp') mcpMix ??= m;
      }
    }
    toolPairs = { http_rps: http, mcp_rps: mcp, http_over_mcp: medianRatio(http, mcp) };
    const t = statementTargets(server.apiKey);
    for (const x of [t.http, t.mcp]) {
      const problem = await checkTarget(server.baseUrl, x);
      if (problem) throw new Error(`${x.name}: ${problem}`);
    }
    const hot50 = await one(t.http, 50);
    const hotHttp: Measurement[] = [];
    const hotMcp: Measurement[] = [];
    for (let i = 0; i < PAIRS; i++) {
      for (const surface of i % 2 === 0 ? (['http', 'mcp'] as const) : (['mcp', 'http'] as const)) {
        if (surface === 'http') hotHttp.push(await one(t.http, 4));
        else hotMcp.push(await one(t.mcp, 4));
      }
    }
    const httpRps = hotHttp.map((m) => m.rps_mean);
    const mcpRps = hotMcp.map((m) => m.rps_mean);
    hot = { at50: hot50, share: ratio(hot50.rps_mean, health.at50.rps_mean), http_at4: hotHttp[0]!, mcp_at4: hotMcp[0]!, http_rps: httpRps, mcp_rps: mcpRps, http_over_mcp: medianRatio(httpRps, mcpRps) };
  }
  return {
    caches,
    health,
    mix: { at4, at50, share_at4: ratio(at4.rps_mean, health.at4.rps_mean), share_at50: ratio(at50.rps_mean, health.at50.rps_mean) },
    families,
    mcp_mix: mcpMix,
    tool_pairs: toolPairs,
    hot,
  };
}

export interface MixGoalRow {
  measure: string;
  value: string;
  goal: string;
  met: boolean;
}

/** Every goal of the suite with its figure (shared with the performance table). */
export function goalRows(runs: ServerRun[]): MixGoalRow[] {
  const out: MixGoalRow[] = [];
  for (const r of runs) {
    const g = r.caches === 'on' ? MIX_GOALS.cached : MIX_GOALS.uncached;
    const label = r.caches === 'on' ? 'caches on' : 'caches off';
    out.push({ measure: `whole mix, ${label}: req/s at 4 / \`/health/z\` req/s at 4`, value: `${fixed(r.mix.share_at4, 3)} (${fixed(r.mix.at4.rps_mean, 0)} / ${fixed(r.health.at4.rps_mean, 0)})`, goal: `>= ${g.share}`, met: r.mix.share_at4 >= g.share });
    out.push({ measure: `whole mix, ${label}: p99 at 4`, value: `${fixed(r.mix.at4.latency_ms.p99, 2)} ms`, goal: `<= ${g.p99_ms} ms`, met: r.mix.at4.latency_ms.p99 <= g.p99_ms });
  }
  const on = runs.find((r) => r.caches === 'on');
  if (on) {
    const a = on.families.as_of!.at4.latency_ms;
    out.push({ measure: 'as-of financials alone, caches on: p50 / p99 at 4', value: `${fixed(a.p50, 2)} / ${fixed(a.p99, 2)} ms`, goal: `<= ${MIX_GOALS.as_of.p50_ms} / <= ${MIX_GOALS.as_of.p99_ms} ms`, met: a.p50 <= MIX_GOALS.as_of.p50_ms && a.p99 <= MIX_GOALS.as_of.p99_ms });
    if (on.hot) {
      out.push({ measure: 'repeated statement: req/s at 50 / `/health/z` req/s at 50', value: `${fixed(on.hot.share, 3)} (${fixed(on.hot.at50.rps_mean, 0)} / ${fixed(on.health.at50.rps_mean, 0)})`, goal: `>= ${MIX_GOALS.hot_share}`, met: on.hot.share >= MIX_GOALS.hot_share });
      out.push({ measure: `repeated statement: HTTP req/s / \`tools/call\` req/s, at 4 (median of ${on.hot.http_rps.length} pairs)`, value: `${fixed(on.hot.http_over_mcp, 3)} (${fixed(sum(on.hot.http_rps) / on.hot.http_rps.length, 0)} / ${fixed(sum(on.hot.mcp_rps) / on.hot.mcp_rps.length, 0)})`, goal: `<= ${MIX_GOALS.tool_over_http}`, met: on.hot.http_over_mcp <= MIX_GOALS.tool_over_http });
    }
    if (on.tool_pairs) {
      const p = on.tool_pairs;
      out.push({ measure: `whole mix, the same reads: HTTP req/s / \`tools/call\` req/s, at 4 (median of ${p.http_rps.length} pairs)`, value: `${fixed(p.http_over_mcp, 3)} (${fixed(sum(p.http_rps) / p.http_rps.length, 0)} / ${fixed(sum(p.mcp_rps) / p.mcp_rps.length, 0)})`, goal: `<= ${MIX_GOALS.tool_over_http}`, met: p.http_over_mcp <= MIX_GOALS.tool_over_http });
    }
  }
  return out;
}

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) throw new Error(`mix: unknown argument(s) ${args.join(' ')} (none are taken)`);
  const startedAt = new Date();
  const durationS = secondsFromEnv('BENCH_DURATION_S', 6);
  const warmupS = secondsFromEnv('BENCH_WARMUP_S', 2);
  const settleS = secondsFromEnv('BENCH_MIX_SETTLE_S', 20);
  const m = machine();
  console.log(`bench suite "mix" (${startedAt.toISOString()})`);
  console.log(describeMachine(m));
  const cached = await startBenchServer('mix');
  try {
    const uncached = await startBenchServer('mix-uncached', (line) => console.log(line), { databaseUrl: cached.database.env.DATABASE_URL!, env: { READ_CACHE: 'off' } });
    try {
      const sample = mixReads(CHECKED, SEED + 99);
      const check = await checkReads(cached.baseUrl, cached.apiKey, sample);
      console.log(`pre-check: ${check.checked} reads of the mix on both surfaces, ${check.not_found} statements answered 404 (a period never filed), ${check.problems.length} problem(s)`);
      for (const p of check.problems.slice(0, 10)) console.log(`  PROBLEM ${p}`);
      console.log(`load: autocannon; each server first serves the mix ${settleS} s over HTTP and as tool calls (the same reads) (not reported), then ${warmupS} s warm-up (not reported) + ${durationS} s measured per window; seed ${SEED}`);
      const runs = [await measureServer(cached, 'on', durationS, warmupS, settleS), await measureServer(uncached, 'off', durationS, warmupS, settleS)];

      const rows: string[][] = [['caches', 'reads', 'req/s @4', 'p50 ms @4', 'p99 ms @4', 'req/s @50', 'share @50']];
      for (const r of runs) {
        rows.push([r.caches, 'GET /health/z', fixed(r.health.at4.rps_mean, 0), fixed(r.health.at4.latency_ms.p50, 2), fixed(r.health.at4.latency_ms.p99, 2), fixed(r.health.at50.rps_mean, 0), '1.000']);
        rows.push([r.caches, 'whole mix', fixed(r.mix.at4.rps_mean, 0), fixed(r.mix.at4.latency_ms.p50, 2), fixed(r.mix.at4.latency_ms.p99, 2), fixed(r.mix.at50.rps_mean, 0), fixed(r.mix.share_at50, 3)]);
        for (const [f, x] of Object.entries(r.families)) rows.push([r.caches, f, fixed(x.at4.rps_mean, 0), fixed(x.at4.latency_ms.p50, 2), fixed(x.at4.latency_ms.p99, 2), fixed(x.at50.rps_mean, 0), fixed(x.share_at50, 3)]);
        if (r.mcp_mix) rows.push([r.caches, 'whole mix (tools/call)', fixed(r.mcp_mix.rps_mean, 0), fixed(r.mcp_mix.latency_ms.p50, 2), fixed(r.mcp_mix.latency_ms.p99, 2), '', '']);
      }
      console.log('\n' + table(rows, ['left', 'left', 'right', 'right', 'right', 'right', 'right']));
      const goals = goalRows(runs);
      console.log('\n' + table([['measure', 'value', 'goal', 'result'], ...goals.map((g) => [g.measure, g.value, g.goal, verdict(g.met)])], ['left', 'right', 'left', 'left']));

      const windows = runs.flatMap((r) => [r.mix.at4, r.mix.at50, ...(r.mcp_mix ? [r.mcp_mix] : []), ...Object.values(r.families).flatMap((x) => [x.at4, x.at50])]);
      const failed = windows.filter((w) => w.failures > 0);
      for (const w of failed) console.log(`WARNING: ${w.name} at ${w.connections}: ${w.failures} failed answers; status codes ${JSON.stringify(w.status_codes)}${w.first_error ? `; first error: ${w.first_error}` : ''}`);
      const clean = failed.length === 0 && check.problems.length === 0;
      const file = writeResults(
        'mix',
        {
          suite: 'mix',
          started_at: startedAt.toISOString(),
          finished_at: new Date().toISOString(),
          machine: m,
          load: { tool: 'autocannon', duration_s: durationS, warmup_s: warmupS, settle_s: settleS, seed: SEED, pool: POOL, shares: FAMILY_SHARES },
          pre_check: check,
          goals: MIX_GOALS,
          goal_rows: goals,
          runs,
          clean,
        },
        startedAt,
      );
      console.log(`\nresults: ${file}`);
      if (!clean) console.log('run NOT clean: failed answers or pre-check problems (exit code 1)');
      return clean ? 0 : 1;
    } finally {
      await uncached.stop();
    }
  } finally {
    await cached.stop();
  }
}
