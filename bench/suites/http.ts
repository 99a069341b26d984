/**
 * The "http" suite: throughput and latency of the request path against a server in its own process.
 *   1. GET /health/z                              no key, no database: the floor of the HTTP stack
 *   2. GET /v1/edgar/companies:resolve?ticker=AAPL   key check + one indexed read
 *   3. POST /mcp tools/call companies_resolve     the same tool through the JSON-RPC tool server
 * Each target: a short warm-up (not reported), then BENCH_DURATION_S (default 10) at 50 connections.
 */
import path from 'node:path';
import { checkTarget, measure, type Measurement, type Target } from '../lib/load.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';
import { startBenchServer } from '../lib/server.ts';
import { secondsFromEnv } from '../lib/suite.ts';

const CONNECTIONS = 50;
const AAPL_CIK = '0000320193';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function targets(apiKey: string): Target[] {
  return [
    {
      name: 'GET /health/z',
      method: 'GET',
      path: '/health/z',
      check: (status, body) => (status === 200 && isObject(body) && body.status === 'ok' ? null : 'expected 200 {"status":"ok"}'),
    },
    {
      name: 'GET companies:resolve (HTTP)',
      method: 'GET',
      path: '/v1/edgar/companies:resolve?ticker=AAPL',
      headers: { 'x-api-key': apiKey },
      check: (status, body) => (status === 200 && isObject(body) && body.cik === AAPL_CIK ? null : `expected 200 with cik ${AAPL_CIK}`),
    },
    {
      name: 'POST /mcp companies_resolve',
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'companies_resolve', arguments: { ticker: 'AAPL' } } }),
      check: (status, body) => {
        if (status !== 200 || !isObject(body)) return 'expected 200 with a JSON-RPC answer';
        const result = body.result;
        if (!isObject(result) || result.isError !== false) return 'expected result.isError === false';
        const structured = result.structuredContent;
        if (!isObject(structured) || structured.cik !== AAPL_CIK) return `expected result.structuredContent.cik ${AAPL_CIK}`;
        return null;
      },
    },
  ];
}

function ratio(a: number, b: number): number {
  return b > 0 ? Math.round((a / b) * 1000) / 1000 : Number.NaN;
}

export async function run(_args: string[]): Promise<number> {
  const startedAt = new Date();
  const durationS = secondsFromEnv('BENCH_DURATION_S', 10);
  const warmupS = secondsFromEnv('BENCH_WARMUP_S', 2);
  const m = machine();
  console.log(`bench suite "http" (${startedAt.toISOString()})`);
  console.log(describeMachine(m));

  const server = await startBenchServer('http');
  try {
    const list = targets(server.apiKey);
    for (const t of list) {
      const problem = await checkTarget(server.baseUrl, t);
      if (problem) throw new Error(`pre-check of ${t.name} failed, not measuring: ${problem}`);
    }
    console.log(`pre-check: all ${list.length} targets answer 200 with the expected content`);
    console.log(`load: autocannon, ${CONNECTIONS} connections, ${warmupS} s warm-up (not reported) + ${durationS} s measured per target`);

    const results: Measurement[] = [];
    for (const t of list) {
      process.stdout.write(`  measuring ${t.name} ... `);
      const r = await measure(server.baseUrl, t, { connections: CONNECTIONS, durationS, warmupS });
      results.push(r);
      console.log(`${fixed(r.rps_mean, 0)} req/s`);
    }
    await server.stop();

    const [health, httpResolve, mcpResolve] = results as [Measurement, Measurement, Measurement];
    const ratios = {
      http_resolve_rps_over_health_rps: ratio(httpResolve.rps_mean, health.rps_mean),
      mcp_rps_over_http_resolve_rps: ratio(mcpResolve.rps_mean, httpResolve.rps_mean),
      mcp_p50_over_http_resolve_p50: ratio(mcpResolve.latency_ms.p50, httpResolve.latency_ms.p50),
    };

    console.log('');
    console.log(
      table(
        [
          ['target', 'req/s (mean)', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors'],
          ...results.map((r) => [
            r.name,
            fixed(r.rps_mean, 1),
            fixed(r.latency_ms.p50, 2),
            fixed(r.latency_ms.p99, 2),
            String(r.requests_total),
            String(r.non2xx),
            r.timeouts > 0 ? `${r.errors} (${r.timeouts} timeouts)` : String(r.errors),
          ]),
        ],
        ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    );
    console.log('');
    console.log('ratios (same run):');
    console.log(`  resolve over HTTP req/s / /health/z req/s   ${fixed(ratios.http_resolve_rps_over_health_rps, 3)}`);
    console.log(`  MCP req/s / HTTP resolve req/s              ${fixed(ratios.mcp_rps_over_http_resolve_rps, 3)}`);
    console.log(`  MCP p50 / HTTP resolve p50                  ${fixed(ratios.mcp_p50_over_http_resolve_p50, 3)}`);

    const failed = results.filter((r) => r.non2xx > 0 || r.errors > 0);
    for (const r of failed) {
      const codes = Object.entries(r.status_codes)
        .map(([c, n]) => `${c}: ${n}`)
        .join(', ');
      console.log(
        `WARNING: ${r.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors (${r.timeouts} timeouts); status codes {${codes}}` +
          (r.first_error ? `; first error: ${r.first_error}` : ''),
      );
    }

    const file = writeResults(
      'http',
      {
        suite: 'http',
        started_at: startedAt.toISOString(),
        finished_at: new Date().toISOString(),
        machine: m,
        database: { mode: server.database.mode, description: server.database.description },
        server: { ready_after_s: Math.round(server.readySeconds * 10) / 10, rate_limits: 'off', log: path.relative(REPO_ROOT, server.logPath) },
        load: { tool: 'autocannon', connections: CONNECTIONS, duration_s: durationS, warmup_s: warmupS },
        latency_note: 'latency_ms from per-answer hrtime of 2xx answers; autocannon_latency_ms is autocannon\'s whole-millisecond histogram',
        results,
        ratios,
        clean: failed.length === 0,
      },
      startedAt,
    );
    console.log(`\nresults: ${file}`);
    if (failed.length > 0) {
      console.log(`run NOT clean: ${failed.length} target(s) had non-2xx answers or errors (exit code 1)`);
      return 1;
    }
    return 0;
  } finally {
    await server.stop();
  }
}
