import autocannon from 'autocannon';
import { isShuttingDown, onCleanup } from './cleanup.ts';
import { latencySummary } from './load.ts';
import { toolCallBody, type MixRead } from './mix-requests.ts';

/**
 * Load from a list of reads: each request the next read of the list (shared by all connections,
 * continued from where the last window stopped, so a warm-up and a measured window never ask the
 * same reads). Latency covers every answer the read may give (200, or 404 for a period never
 * filed), from autocannon's per-answer hrtime.
 */

export type Surface = 'http' | 'mcp';

export interface MixMeasurement {
  name: string;
  surface: Surface;
  connections: number;
  duration_s: number;
  rps_mean: number;
  requests_total: number;
  latency_ms: { p50: number; p90: number; p99: number; mean: number; max: number; samples: number };
  status_codes: Record<string, number>;
  /** answers other than 200 and 404, and connection errors */
  failures: number;
  first_error: string | null;
}

/** A list of reads with a cursor kept across windows. */
export class ReadStream {
  private cursor = 0;
  constructor(
    readonly name: string,
    private readonly reads: readonly MixRead[],
  ) {}
  next(): MixRead {
    const r = this.reads[this.cursor]!;
    this.cursor = (this.cursor + 1) % this.reads.length;
    return r;
  }
}

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

function window(baseUrl: string, stream: ReadStream, surface: Surface, apiKey: string, connections: number, durationS: number, latencies: number[] | null) {
  const headers = surface === 'mcp' ? { 'content-type': 'application/json', 'x-api-key': apiKey } : { 'x-api-key': apiKey };
  return new Promise<{ result: autocannon.Result; firstError: string | null; statuses: Record<string, number>; failures: number }>((resolve, reject) => {
    let firstError: string | null = null;
    const statuses: Record<string, number> = {};
    let failures = 0;
    const options = {
      url: baseUrl,
      connections,
      duration: durationS,
      timeout: 10,
      headers,
      requests: [
        {
          setupRequest: (req: Record<string, unknown>) => {
            const r = stream.next();
            return surface === 'mcp' ? { ...req, method: 'POST', path: '/mcp', body: toolCallBody(r) } : { ...req, method: 'GET', path: r.path };
          },
        },
      ],
    } as autocannon.Options;
    const instance = autocannon(options, (err, result) => {
      unregister().catch(() => {});
      if (isShuttingDown()) reject(new Error('interrupted'));
      else if (err) reject(err);
      else resolve({ result, firstError, statuses, failures });
    });
    const unregister = onCleanup(`stop load on ${stream.name}`, async () => instance.stop());
    instance.on('reqError', (error: Error) => {
      failures++;
      firstError ??= error.message || String(error);
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== 200 && status !== 404) {
        failures++;
        return;
      }
      latencies?.push(ms);
    });
  });
}

/** A warm-up (not reported), then the measured window. */
export async function measureStream(baseUrl: string, apiKey: string, stream: ReadStream, surface: Surface, connections: number, durationS: number, warmupS: number): Promise<MixMeasurement> {
  if (warmupS > 0) await window(baseUrl, stream, surface, apiKey, connections, warmupS, null);
  const latencies: number[] = [];
  const { result: r, firstError, statuses, failures } = await window(baseUrl, stream, surface, apiKey, connections, durationS, latencies);
  return {
    name: stream.name,
    surface,
    connections,
    duration_s: r.duration,
    rps_mean: round(r.requests.mean, 1),
    requests_total: r.requests.total,
    latency_ms: latencySummary(latencies),
    status_codes: statuses,
    failures: failures + r.errors,
    first_error: firstError,
  };
}

/**
 * Sends each read once on both surfaces and returns what is wrong: HTTP 200, or 404 for a
 * statement period never filed; the tool call 200 with a result, an error result only where HTTP
 * answered 404.
 */
export async function checkReads(baseUrl: string, apiKey: string, reads: readonly MixRead[]): Promise<{ checked: number; not_found: number; problems: string[] }> {
  const problems: string[] = [];
  let notFound = 0;
  for (const r of reads) {
    const http = await fetch(baseUrl + r.path, { headers: { 'x-api-key': apiKey }, signal: AbortSignal.timeout(30_000) });
    const text = await http.text();
    if (http.status === 404 && r.family === 'statement') notFound++;
    else if (http.status !== 200) problems.push(`${r.path}: HTTP ${http.status} ${text.slice(0, 200)}`);
    const mcp = await fetch(baseUrl + '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: toolCallBody(r),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await mcp.json().catch(() => null)) as { result?: { isError?: boolean } } | null;
    if (mcp.status !== 200 || !body?.result) problems.push(`${r.tool.name}: tools/call answered ${mcp.status} without a result`);
    else if (body.result.isError === true && http.status !== 404) problems.push(`${r.tool.name} ${JSON.stringify(r.tool.arguments)}: an error result where HTTP answered ${http.status}`);
  }
  return { checked: reads.length, not_found: notFound, problems };
}
