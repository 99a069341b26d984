import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { freshnessCounts, LAG_BUCKETS_S, operationalCounts, type FreshnessCounts, type OperationalCounts } from '../api/operational-counts.ts';
import type { Services } from '../api/services.ts';

/** What one request was, filled in as it is handled; logged and counted when the answer is out. */
export interface RequestRecord {
  /** registry definition name, or a fixed label (mcp, docs, openapi, manifest, metrics, download, unmatched) */
  route: string;
  tools: string[];
  org: string | null;
  plan: string | null;
  errorCode: string | null;
  traceId: string;
  requestId: string;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Prometheus metrics of one server (its own registry: tests run several servers in one process).
 * Requests by route and status with a latency histogram, tool calls by tool and outcome, requests
 * in flight, and at scrape time the database: reachability, this service's connections against the
 * pool size, ingestion runs and export builds by status.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly latency: Histogram<'route' | 'method'>;
  readonly toolCalls: Counter<'tool' | 'outcome'>;
  readonly inFlight: Gauge;

  constructor(services: Services, poolMax: number) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'fds_http_requests_total', help: 'HTTP requests answered, by route (definition name), method and status', labelNames: ['route', 'method', 'status'], registers });
    this.latency = new Histogram({ name: 'fds_http_request_duration_seconds', help: 'Time from request to the end of the answer', labelNames: ['route', 'method'], buckets: LATENCY_BUCKETS, registers });
    this.toolCalls = new Counter({ name: 'fds_tool_calls_total', help: 'Tool-server tools/call by tool and outcome (ok or the error code)', labelNames: ['tool', 'outcome'], registers });
    this.inFlight = new Gauge({ name: 'fds_http_requests_in_flight', help: 'Requests being handled now', registers });
    new Gauge({ name: 'fds_db_pool_max', help: 'Connections this instance may open to PostgreSQL', registers }).set(poolMax);
    // A registry collects every metric at once: the database gauges share one read per scrape.
    let reading: Promise<OperationalCounts | null> | null = null;
    const read = () =>
      (reading ??= operationalCounts(services.sql)
        .catch(() => null)
        .finally(() => setTimeout(() => (reading = null), 1000).unref()));
    new Gauge({
      name: 'fds_db_up',
      help: '1 when the database answered the scrape',
      registers,
      async collect() {
        this.set((await read()) ? 1 : 0);
      },
    });
    const fromDb = <L extends string>(name: string, help: string, label: L, rows: (c: OperationalCounts) => { key: string; value: number }[]) =>
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers,
        async collect() {
          const c = await read();
          this.reset();
          for (const r of c ? rows(c) : []) this.set({ [label]: r.key } as Record<L, string>, r.value);
        },
      });
    fromDb('fds_db_connections', "This service's connections to its database by state (all instances sharing it)", 'state', (c) => c.connections.map((r) => ({ key: r.state, value: r.connections })));
    fromDb('fds_ingestion_runs', 'Ingestion runs on record by status', 'status', (c) => c.ingestion_runs.map((r) => ({ key: r.status, value: r.runs })));
    fromDb('fds_export_snapshots', 'Bulk export builds on record by status', 'status', (c) => c.export_snapshots.map((r) => ({ key: r.status, value: r.snapshots })));
    registerFreshness(services, registers);
    collectDefaultMetrics({ register: this.registry, prefix: 'fds_' });
  }
}

/** A new record for a request; the server fills in route, caller and error as it learns them. */
export function newRecord(traceId: string, requestId: string): RequestRecord {
  return { route: 'unmatched', tools: [], org: null, plan: null, errorCode: null, traceId, requestId };
}

/**
 * When the answer is out (or the client went away): one structured log line (pino: level by
 * status, route or tools, org, plan, error code, latency, trace and request ids; never the query
 * string, which may carry identifiers a caller considers private) and the request metrics.
 */
export function observe(req: IncomingMessage, res: ServerResponse, record: RequestRecord, services: Services, metrics: ServiceMetrics): void {
  const started = performance.now();
  metrics.inFlight.inc();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    metrics.inFlight.dec();
    const seconds = (performance.now() - started) / 1000;
    const method = req.method ?? 'GET';
    const status = res.writableFinished ? res.statusCode : 499; // 499: the client closed first
    metrics.requests.inc({ route: record.route, method, status: String(status) });
    metrics.latency.observe({ route: record.route, method }, seconds);
    if (!services.config.logRequests) return;
    const line = {
      method,
      path: (req.url ?? '').split('?')[0],
      route: record.route,
      ...(record.tools.length > 0 ? { tools: record.tools } : {}),
      status,
      org: record.org,
      plan: record.plan,
      error_code: record.errorCode,
      latency_ms: Math.round(seconds * 100_000) / 100,
      trace_id: record.traceId,
      request_id: record.requestId,
    };
    if (status >= 500) services.logger.error(line, 'request');
    else if (status >= 400) services.logger.warn(line, 'request');
    else services.logger.info(line, 'request');
  };
  res.on('finish', finish);
  res.on('close', finish);
}

/**
 * Freshness at scrape time, from the database, so every instance reports the fleet's figures
 * (aggregate them with max, not sum): the lag of each served filing from SEC's acceptance to served
 * as a histogram (rebuilt from the filings' bins, each bin's filings at their mean lag, so counts and
 * sum are exact), and the refresh backlog as a gauge.
 */
function registerFreshness(services: Services, registers: Registry[]): void {
  let reading: Promise<FreshnessCounts | null> | null = null;
  const read = () =>
    (reading ??= freshnessCounts(services.sql)
      .catch(() => null)
      .finally(() => setTimeout(() => (reading = null), 1000).unref()));
  new Histogram({
    name: 'fds_feed_lag_seconds',
    help: "Seconds from SEC's acceptance of a filing seen in the feed to its statements served, over every filing served",
    buckets: LAG_BUCKETS_S,
    registers,
    async collect() {
      const c = await read();
      this.reset();
      for (const bin of c?.lag_bins ?? []) for (let i = 0; i < bin.n; i++) this.observe(bin.sum_s / bin.n);
    },
  });
  new Gauge({
    name: 'fds_feed_refresh_backlog',
    help: 'Periodic filings seen in the feed or a daily index and not yet served',
    registers,
    async collect() {
      this.set((await read())?.backlog ?? 0);
    },
  });
  new Gauge({
    name: 'fds_feed_late_filings',
    help: 'Filings company facts still lacked an hour after they were seen',
    registers,
    async collect() {
      this.set((await read())?.late ?? 0);
    },
  });
}
