import autocannon from 'autocannon';
import { constants as perfConstants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { isShuttingDown, onCleanup } from './cleanup.ts';

export interface Target {
  /** short label for the table */
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** a mix: each request takes the next of these paths (cycling), instead of `path` every time */
  paths?: readonly string[];
  /** validates one answer before measuring; returns a problem, or null when the answer is right */
  check(status: number, body: unknown): string | null;
}

export interface LoadOptions {
  connections: number;
  durationS: number;
  warmupS: number;
  /**
   * The server's garbage collections during the measured window (not the warm-up), read from its
   * Prometheus `/metrics` before and after; off when not set.
   */
  serverGc?: boolean;
}

/** Garbage collections of the server process by kind (V8's: minor, major, incremental, weakcb). */
export type GcTally = Record<string, { count: number; pause_ms: number }>;

/** The server's GC counters and pause sums by kind, from its Prometheus text (prom-client's default metrics). */
export async function readServerGc(baseUrl: string): Promise<GcTally> {
  const token = process.env.METRICS_TOKEN;
  const res = await fetch(baseUrl + '/metrics', { signal: AbortSignal.timeout(15_000), headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  const tally: GcTally = {};
  for (const line of (await res.text()).split('\n')) {
    const m = /^\w*nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([0-9.e+-]+)$/.exec(line);
    if (!m) continue;
    const t = (tally[m[2]!] ??= { count: 0, pause_ms: 0 });
    if (m[1] === 'count') t.count = Number(m[3]);
    else t.pause_ms = Number(m[3]) * 1000;
  }
  return tally;
}

const GC_KINDS: Record<number, string> = {
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/**
 * This process's own garbage collections from now until `stop()`, by kind, named as the server's
 * are. The load generator runs in this process: a pause here delays the answers it is reading and
 * shows as server latency, so each window reports it next to the server's.
 */
export function watchOwnGc(): { stop(): GcTally } {
  const tally: GcTally = {};
  const add = (entries: PerformanceEntry[]) => {
    for (const e of entries) {
      const kind = GC_KINDS[(e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other';
      const t = (tally[kind] ??= { count: 0, pause_ms: 0 });
      t.count++;
      t.pause_ms += e.duration;
    }
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      add(observer.takeRecords());
      observer.disconnect();
      for (const t of Object.values(tally)) t.pause_ms = round(t.pause_ms, 2);
      return tally;
    },
  };
}

function gcBetween(before: GcTally, after: GcTally): GcTally {
  const out: GcTally = {};
  for (const [kind, a] of Object.entries(after)) {
    const b = before[kind] ?? { count: 0, pause_ms: 0 };
    out[kind] = { count: a.count - b.count, pause_ms: round(a.pause_ms - b.pause_ms, 2) };
  }
  return out;
}

export interface Measurement {
  name: string;
  method: string;
  path: string;
  connections: number;
  duration_s: number;
  /** mean of autocannon's per-second samples */
  rps_mean: number;
  rps_stddev: number;
  /** all completed answers over the measured duration */
  requests_total: number;
  /** latency of 2xx answers, from each answer's hrtime (autocannon's own histogram rounds to whole ms) */
  latency_ms: { p50: number; p90: number; p99: number; mean: number; max: number; samples: number };
  /** autocannon's own figures, whole milliseconds */
  autocannon_latency_ms: { p50: number; p99: number; mean: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  first_error: string | null;
  /** the server's garbage collections during the measured window (LoadOptions.serverGc), else null */
  server_gc: GcTally | null;
  /** the load generator's own (this process's) garbage collections during the measured window */
  client_gc: GcTally;
}

function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

/** Sends the target once and returns what is wrong with the answer, or null. */
export async function checkTarget(baseUrl: string, target: Target): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(baseUrl + target.path, {
      method: target.method,
      headers: target.headers ?? {},
      body: target.body ?? null,
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    return `request failed: ${(err as Error).message}`;
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${res.status} with a body that is not JSON: ${text.slice(0, 300)}`;
  }
  const problem = target.check(res.status, body);
  return problem === null ? null : `${problem} (HTTP ${res.status}: ${text.slice(0, 400)})`;
}

function runOnce(baseUrl: string, target: Target, connections: number, durationS: number, latencies: number[] | null) {
  return new Promise<{ result: autocannon.Result; firstError: string | null }>((resolve, reject) => {
    let firstError: string | null = null;
    const instance = autocannon(
      {
        url: baseUrl + target.path,
        method: target.method,
        headers: target.headers ?? {},
        ...(target.body !== undefined ? { body: target.body } : {}),
        connections,
        duration: durationS,
        timeout: 10,
        ...(target.paths && target.paths.length > 0 ? { requests: [{ setupRequest: mixed(target.paths) }] } : {}),
      },
      (err, result) => {
        unregister().catch(() => {});
        if (isShuttingDown()) reject(new Error('interrupted'));
        else if (err) reject(err);
        else resolve({ result, firstError });
      },
    );
    // stop the load when the bench is interrupted
    const unregister = onCleanup(`stop load on ${target.name}`, async () => instance.stop());
    instance.on('reqError', (error: Error) => {
      firstError ??= error.message || String(error);
    });
    if (latencies) {
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
      });
    }
  });
}

/** Rewrites each request to the next path of a mix, shared by every connection. */
function mixed(paths: readonly string[]) {
  let i = 0;
  return (req: { path?: string; [k: string]: unknown }) => ({ ...req, path: paths[i++ % paths.length]! });
}

/** Percentiles, mean and max (ms) of one window's per-request latencies, and how many there were. */
export function latencySummary(latencies: readonly number[]): { p50: number; p90: number; p99: number; mean: number; max: number; samples: number } {
  const sorted = Float64Array.from(latencies).sort();
  const sum = latencies.reduce((a, b) => a + b, 0);
  return {
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    mean: round(sorted.length ? sum / sorted.length : Number.NaN),
    max: round(sorted.length ? sorted[sorted.length - 1]! : Number.NaN),
    samples: sorted.length,
  };
}

/** A warm-up (not reported), then the measured run. */
export async function measure(baseUrl: string, target: Target, opts: LoadOptions): Promise<Measurement> {
  if (opts.warmupS > 0) await runOnce(baseUrl, target, opts.connections, opts.warmupS, null);
  const latencies: number[] = [];
  const gcBefore = opts.serverGc ? await readServerGc(baseUrl) : null;
  const ownGc = watchOwnGc();
  const { result: r, firstError } = await runOnce(baseUrl, target, opts.connections, opts.durationS, latencies);
  const clientGc = ownGc.stop();
  const serverGc = gcBefore ? gcBetween(gcBefore, await readServerGc(baseUrl)) : null;
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) statusCodes[code] = count;
  return {
    name: target.name,
    method: target.method,
    path: target.path,
    connections: opts.connections,
    duration_s: r.duration,
    rps_mean: round(r.requests.mean, 1),
    rps_stddev: round(r.requests.stddev, 1),
    requests_total: r.requests.total,
    latency_ms: latencySummary(latencies),
    autocannon_latency_ms: { p50: r.latency.p50, p99: r.latency.p99, mean: round(r.latency.mean), max: r.latency.max },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    status_codes: statusCodes,
    first_error: firstError,
    server_gc: serverGc,
    client_gc: clientGc,
  };
}
