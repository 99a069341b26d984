/**
 * The "reads" suite: latency and throughput of the statement read surface against a server in its
 * own process (bench/lib/server.ts: throwaway database, the whole ../shared/sec corpus loaded at
 * start-up, request budgets off), measured in the same run as GET /health/z:
 *   1. GET /health/z                                        the floor of the HTTP stack
 *   2. GET /v1/fundamentals/normalized-statements            one statement (Apple FY2023 income statement)
 *   3. GET /v1/fundamentals/time-series                      a 5-company, 5-year annual income-statement panel
 *   4. POST /mcp tools/call statements_normalized             read 2 through the tool server
 * Each read: latency at 4 connections and throughput at 50 connections against the /health/z rate
 * at 50 (goals: statement p50 <= 1 ms, p99 <= 3 ms, >= 0.50 of health; panel p50 <= 3
 * ms, >= 0.15); the MCP call's mean latency at 4 against read 2 measured just before it (<= 1.15). A miss is reported, never an error exit,
 * because the figures are the product. A route the server does not register (404 "No route") is
 * skipped with a line saying so; a registered route that answers wrongly is not measured and makes
 * the run not clean (exit code 1). Each measurement: BENCH_WARMUP_S (default 2) of warm-up, not
 * reported, then BENCH_DURATION_S (default 10). Each measured window also reports the server's own
 * garbage collections in it (count and pause by kind, from its /metrics), to place a latency tail.
 */
import path from 'node:path';
import { checkTarget, measure, type Measurement, type Target } from '../lib/load.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';
import { startBenchServer } from '../lib/server.ts';
import { secondsFromEnv } from '../lib/suite.ts';

const LATENCY_CONNECTIONS = 4;
const THROUGHPUT_CONNECTIONS = 50;
/** the goals, per read */
const GOALS: Record<string, { p50_ms: number; p99_ms: number; rps_share_of_health: number }> = {
  'normalized statement': { p50_ms: 1, p99_ms: 3, rps_share_of_health: 0.5 },
  '5-year panel (5 companies)': { p50_ms: 3, p99_ms: 10, rps_share_of_health: 0.15 },
};
/** the same statement through the MCP tool server: mean latency at most this multiple of the HTTP read's */
const MCP_OVER_HTTP_GOAL = 1.15;

const APPLE = '0000320193';
/** Apple, Microsoft, Walmart, Alphabet, NVIDIA: each has annual income statements over 2019-2023 */
const PANEL_CIKS = [APPLE, '0000789019', '0000104169', '0001652044', '0001045810'];
const APPLE_FY2023_REVENUE = '383285000000.000000';

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const health: Target = {
  name: 'GET /health/z',
  method: 'GET',
  path: '/health/z',
  check: (status, body) => (status === 200 && isObject(body) && body.status === 'ok' ? null : 'expected 200 {"status":"ok"}'),
};

/** The read targets of this suite, shared with the scale suite (same URLs at 1x and Nx). */
export function readTargets(apiKey: string): Target[] {
  const headers = { 'x-api-key': apiKey };
  return [
    {
      name: 'normalized statement',
      method: 'GET',
      path: `/v1/fundamentals/normalized-statements?cik=${APPLE}&statement_type=INCOME_STATEMENT&fiscal_year=2023&fiscal_period=FY`,
      headers,
      check: (status, body) => {
        if (status !== 200 || !isObject(body) || !isObject(body.data)) return 'expected 200 { data }';
        const facts: unknown = body.data.normalized_payload?.facts;
        const revenue = Array.isArray(facts) ? facts.find((f) => isObject(f) && f.metric === 'REVENUE') : undefined;
        return revenue?.value === APPLE_FY2023_REVENUE ? null : `expected REVENUE ${APPLE_FY2023_REVENUE} among the facts`;
      },
    },
    {
      name: '5-year panel (5 companies)',
      method: 'GET',
      path: `/v1/fundamentals/time-series?statement_type=INCOME_STATEMENT&${PANEL_CIKS.map((c) => `ciks=${c}`).join('&')}&from=2019-01-01&to=2023-12-31&page_size=50`,
      headers,
      check: (status, body) => {
        if (status !== 200 || !isObject(body) || !Array.isArray(body.items)) return 'expected 200 with a page of items';
        const ciks = new Set(body.items.map((p: any) => p?.cik));
        const missing = PANEL_CIKS.filter((c) => !ciks.has(c));
        if (missing.length > 0) return `expected points of every CIK; none for ${missing.join(', ')}`;
        const apple = body.items.find((p: any) => p?.cik === APPLE && p?.fiscal_year === 2023);
        return apple?.metrics?.REVENUE === APPLE_FY2023_REVENUE ? null : `expected Apple FY2023 REVENUE ${APPLE_FY2023_REVENUE}`;
      },
    },
  ];
}

/** The normalized-statement read of readTargets, as the statements_normalized tool over MCP. */
function mcpStatement(apiKey: string): Target {
  return {
    name: 'statements_normalized (MCP)',
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'statements_normalized', arguments: { cik: APPLE, statement_type: 'INCOME_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY' } },
    }),
    check: (status, body) => {
      const result = isObject(body) ? body.result : null;
      if (status !== 200 || !isObject(result) || result.isError !== false) return 'expected 200 with result.isError false';
      const facts: unknown = result.structuredContent?.data?.normalized_payload?.facts;
      const revenue = Array.isArray(facts) ? facts.find((f) => isObject(f) && f.metric === 'REVENUE') : undefined;
      return revenue?.value === APPLE_FY2023_REVENUE ? null : `expected REVENUE ${APPLE_FY2023_REVENUE} in structuredContent`;
    },
  };
}

/** null when the server registers the target's route; a reason otherwise (the router's 404 "No route"). */
async function unregistered(baseUrl: string, t: Target): Promise<string | null> {
  const res = await fetch(baseUrl + t.path, { method: t.method, headers: t.headers ?? {}, signal: AbortSignal.timeout(15_000) });
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  const message = body?.error?.message ?? '';
  return res.status === 404 && message.startsWith('No route') ? message : null;
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

/** "minor 160 (212 ms), major 2 (31 ms)": the collections of the server or of the load generator during a window; a pause is time in GC, not always on a request. */
function gcLine(gc: Measurement['server_gc']): string {
  if (!gc) return 'not read';
  const kinds = ['minor', 'major', 'incremental'].filter((k) => gc[k]);
  return kinds.map((k) => `${k} ${gc[k]!.count} (${fixed(gc[k]!.pause_ms, 0)} ms)`).join(', ') || 'none';
}
const goalOf = (name: string) => GOALS[name] ?? { p50_ms: 2, p99_ms: 10, rps_share_of_health: 0.3 };

interface ReadResult {
  name: string;
  path: string;
  status: 'measured' | 'skipped_unregistered' | 'skipped_wrong_answer';
  reason: string | null;
  latency: Measurement | null;
  throughput: Measurement | null;
  goals: { p50_ms: boolean; p99_ms: boolean; rps_share_of_health: boolean } | null;
  rps_share_of_health: number | null;
}

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) throw new Error(`reads: unknown argument(s) ${args.join(' ')} (none are taken)`);
  const startedAt = new Date();
  const durationS = secondsFromEnv('BENCH_DURATION_S', 10);
  const warmupS = secondsFromEnv('BENCH_WARMUP_S', 2);
  const m = machine();
  console.log(`bench suite "reads" (${startedAt.toISOString()})`);
  console.log(describeMachine(m));

  const server = await startBenchServer('reads');
  try {
    const problem = await checkTarget(server.baseUrl, health);
    if (problem) throw new Error(`pre-check of ${health.name} failed, not measuring: ${problem}`);
    const results: ReadResult[] = [];
    const toMeasure: Target[] = [];
    for (const t of readTargets(server.apiKey)) {
      const base = { name: t.name, path: t.path, latency: null, throughput: null, goals: null, rps_share_of_health: null };
      const missing = await unregistered(server.baseUrl, t);
      if (missing) {
        console.log(`SKIPPED ${t.name}: the server does not register this route (404: ${missing}); nothing measured`);
        results.push({ ...base, status: 'skipped_unregistered', reason: missing });
        continue;
      }
      const wrong = await checkTarget(server.baseUrl, t);
      if (wrong) {
        console.log(`SKIPPED ${t.name}: its answer is wrong, so it is not measured: ${wrong}`);
        results.push({ ...base, status: 'skipped_wrong_answer', reason: wrong });
        continue;
      }
      toMeasure.push(t);
    }
    console.log(`pre-check: ${toMeasure.length} read target(s) answer 200 with the expected content`);
    console.log(
      `load: autocannon; each read at ${LATENCY_CONNECTIONS} connections (latency) and ${THROUGHPUT_CONNECTIONS} (throughput), /health/z at both; ` +
        `${warmupS} s warm-up (not reported) + ${durationS} s measured each`,
    );

    const run1 = async (t: Target, connections: number) => {
      process.stdout.write(`  measuring ${t.name} at ${connections} connections ... `);
      const r = await measure(server.baseUrl, t, { connections, durationS, warmupS, serverGc: true });
      console.log(`${fixed(r.rps_mean, 0)} req/s, p50 ${fixed(r.latency_ms.p50, 2)} ms, p99 ${fixed(r.latency_ms.p99, 2)} ms; server GC ${gcLine(r.server_gc)}; load generator GC ${gcLine(r.client_gc)}`);
      return r;
    };
    const healthThroughput = await run1(health, THROUGHPUT_CONNECTIONS);
    const healthLatency = await run1(health, LATENCY_CONNECTIONS);
    for (const t of toMeasure) {
      const latency = await run1(t, LATENCY_CONNECTIONS);
      const throughput = await run1(t, THROUGHPUT_CONNECTIONS);
      const share = healthThroughput.rps_mean > 0 ? throughput.rps_mean / healthThroughput.rps_mean : Number.NaN;
      results.push({
        name: t.name,
        path: t.path,
        status: 'measured',
        reason: null,
        latency,
        throughput,
        rps_share_of_health: Math.round(share * 1000) / 1000,
        goals: { p50_ms: latency.latency_ms.p50 <= goalOf(t.name).p50_ms, p99_ms: latency.latency_ms.p99 <= goalOf(t.name).p99_ms, rps_share_of_health: share >= goalOf(t.name).rps_share_of_health },
      });
    }
    // the same statement through the tool server, right after the HTTP read at the same connections
    const httpStatement = results.find((r) => r.name === 'normalized statement' && r.status === 'measured');
    const mcp = mcpStatement(server.apiKey);
    const mcpProblem = httpStatement ? await checkTarget(server.baseUrl, mcp) : 'the HTTP read was not measured';
    if (mcpProblem) console.log(`SKIPPED ${mcp.name}: ${mcpProblem}`);
    const httpAgain = httpStatement && !mcpProblem ? await run1(readTargets(server.apiKey)[0]!, LATENCY_CONNECTIONS) : null;
    const mcpLatency = httpAgain ? await run1(mcp, LATENCY_CONNECTIONS) : null;
    const mcpRatio = mcpLatency && httpAgain ? mcpLatency.latency_ms.mean / httpAgain.latency_ms.mean : null;
    await server.stop();

    const measured = results.filter((r) => r.status === 'measured');
    console.log('');
    console.log(
      table(
        [
          ['target', `p50 ms @${LATENCY_CONNECTIONS}`, `p99 ms @${LATENCY_CONNECTIONS}`, `req/s @${THROUGHPUT_CONNECTIONS}`, 'share of /health/z'],
          ['GET /health/z', fixed(healthLatency.latency_ms.p50, 2), fixed(healthLatency.latency_ms.p99, 2), fixed(healthThroughput.rps_mean, 1), '1.000'],
          ...measured.map((r) => [r.name, fixed(r.latency!.latency_ms.p50, 2), fixed(r.latency!.latency_ms.p99, 2), fixed(r.throughput!.rps_mean, 1), fixed(r.rps_share_of_health!, 3)]),
          ...results.filter((r) => r.status !== 'measured').map((r) => [r.name, 'skipped', '', '', '']),
        ],
        ['left', 'right', 'right', 'right', 'right'],
      ),
    );
    console.log('');
    const goalRows: string[][] = [['target', 'measure', 'value', 'goal', 'result']];
    for (const r of measured) {
      const g = goalOf(r.name);
      goalRows.push([r.name, `p50 @${LATENCY_CONNECTIONS}`, `${fixed(r.latency!.latency_ms.p50, 2)} ms`, `<= ${g.p50_ms} ms`, verdict(r.goals!.p50_ms)]);
      goalRows.push([r.name, `p99 @${LATENCY_CONNECTIONS}`, `${fixed(r.latency!.latency_ms.p99, 2)} ms`, `<= ${g.p99_ms} ms`, verdict(r.goals!.p99_ms)]);
      goalRows.push([r.name, `req/s @${THROUGHPUT_CONNECTIONS} / health`, fixed(r.rps_share_of_health!, 3), `>= ${g.rps_share_of_health}`, verdict(r.goals!.rps_share_of_health)]);
    }
    if (mcpRatio !== null) {
      goalRows.push([
        'statements_normalized (MCP)',
        `mean @${LATENCY_CONNECTIONS} / HTTP mean`,
        `${fixed(mcpRatio, 3)} (${fixed(mcpLatency!.latency_ms.mean, 2)} / ${fixed(httpAgain!.latency_ms.mean, 2)} ms)`,
        `<= ${MCP_OVER_HTTP_GOAL}`,
        verdict(mcpRatio <= MCP_OVER_HTTP_GOAL),
      ]);
    }
    for (const r of results.filter((x) => x.status !== 'measured')) goalRows.push([r.name, 'all', 'not measured', '', r.status === 'skipped_unregistered' ? 'SKIPPED (route not registered)' : 'SKIPPED (wrong answer)']);
    console.log(table(goalRows, ['left', 'left', 'right', 'left', 'left']));

    const all = [healthThroughput, healthLatency, ...measured.flatMap((r) => [r.latency!, r.throughput!]), ...(mcpLatency ? [mcpLatency, httpAgain!] : [])];
    const failed = all.filter((r) => r.non2xx > 0 || r.errors > 0);
    for (const r of failed) {
      const codes = Object.entries(r.status_codes).map(([c, n]) => `${c}: ${n}`).join(', ');
      console.log(`WARNING: ${r.name} at ${r.connections}: ${r.non2xx} non-2xx answers, ${r.errors} errors (${r.timeouts} timeouts); status codes {${codes}}` + (r.first_error ? `; first error: ${r.first_error}` : ''));
    }
    const wrongAnswers = results.filter((r) => r.status === 'skipped_wrong_answer');
    const clean = failed.length === 0 && wrongAnswers.length === 0;

    const file = writeResults(
      'reads',
      {
        suite: 'reads',
        started_at: startedAt.toISOString(),
        finished_at: new Date().toISOString(),
        machine: m,
        database: { mode: server.database.mode, description: server.database.description },
        server: { ready_after_s: Math.round(server.readySeconds * 10) / 10, rate_limits: 'off', log: path.relative(REPO_ROOT, server.logPath) },
        load: { tool: 'autocannon', latency_connections: LATENCY_CONNECTIONS, throughput_connections: THROUGHPUT_CONNECTIONS, duration_s: durationS, warmup_s: warmupS },
        goals: GOALS,
        mcp: { http: httpAgain, mcp: mcpLatency, mean_ratio: mcpRatio, goal: MCP_OVER_HTTP_GOAL },
        latency_note: "latency_ms from per-answer hrtime of 2xx answers; autocannon_latency_ms is autocannon's whole-millisecond histogram",
        health: { throughput: healthThroughput, latency: healthLatency },
        reads: results,
        clean,
      },
      startedAt,
    );
    console.log(`\nresults: ${file}`);
    if (!clean) {
      console.log(`run NOT clean: ${failed.length} measurement(s) with non-2xx answers or errors, ${wrongAnswers.length} route(s) answering wrongly (exit code 1)`);
      return 1;
    }
    return 0;
  } finally {
    await server.stop();
  }
}
