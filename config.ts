import path from 'node:path';

/** Every setting the service reads, from the environment, with the defaults docs/configuration.md lists. */
export interface Config {
  port: number;
  host: string;
  /** null: start the embedded PostgreSQL under dataDir */
  databaseUrl: string | null;
  /** a streaming replica of DATABASE_URL for read-only requests (DATABASE_READ_URL); null: every read on the primary */
  databaseReadUrl: string | null;
  /** how long a change may take to reach the replica before reads leave it until it catches up (REPLICA_MAX_LAG_MS) */
  replicaMaxLagMs: number;
  /** how long a request waits for a database connection before it is answered 503 (DB_CONNECT_TIMEOUT_S) */
  dbConnectTimeoutS: number;
  dataDir: string;
  embeddedPgPort: number;
  /** directory mirroring SEC's sites (path = host + URL path) or an https:// base for the live sites */
  secSource: string;
  secUserAgent: string | null;
  /** SEC host -> another origin for its requests (SEC_ORIGINS `www.sec.gov=http://127.0.0.1:9100,...`; plain http on loopback only) */
  secOrigins: Record<string, string>;
  /** poll SEC's XBRL feed for new filings on the job queue: auto (when SEC_SOURCE is the live site), on or off (FEED_WATCH) */
  feedWatch: 'auto' | 'on' | 'off';
  /** seconds between feed polls at every hour (FEED_POLL_S); null: 60 in EDGAR's filing hours, 600 outside */
  feedPollSeconds: number | null;
  /** directory laid out like ../shared/macro (fred/<CODE>.csv) or https://fred.stlouisfed.org */
  macroSource: string;
  /** 'off' disables request budgets (load tests on your own machine only) */
  rateLimits: boolean;
  /** create and print one key per plan for org `dev` on first start */
  devKeys: boolean;
  logRequests: boolean;
  /** keep hot reads (company version headers, periodic filings and ledgers, coherence marks, API keys) in memory until their tables change (READ_CACHE=off: every read queries PostgreSQL) */
  readCache: boolean;
  /** on an empty corpus, ingest every company of SEC_SOURCE before reporting ready */
  ingestOnStart: boolean;
  /** worker processes of an ingestion run (start-up ingest, and the CLI's default for --workers); 1: in process */
  ingestWorkers: number;
  /**
   * Browser origins allowed to call /mcp (MCP's DNS-rebinding defence). Requests without an Origin
   * header (agents, servers, CLIs) are always allowed; loopback origins are allowed by default.
   */
  mcpAllowedOrigins: string[];
  /** where bulk snapshot files go: a local directory (default) or a Google Cloud Storage bucket */
  bulkStore: 'local' | 'gcs';
  /** the local store's directory (default DATA_DIR/bulk) */
  bulkDir: string;
  /** HMAC secret for the local store's download URLs; null: generated once and kept in bulkDir */
  bulkSigningSecret: string | null;
  /** base of the download URLs the local store signs; null: http://127.0.0.1:<port> */
  publicBaseUrl: string | null;
  gcsBucket: string | null;
  /** GCS JSON API endpoint override (an emulator); null: Google's */
  gcsApiEndpoint: string | null;
  /** schedule the bulk export daily at 04:30 UTC on the job queue's crontab (EXPORT_SCHEDULE=off: not from this instance) */
  exportSchedule: boolean;
  /** browser origins answered with CORS headers (and preflights); `*` for any; empty: none */
  corsOrigins: string[];
  /** GET /metrics answers only `Authorization: Bearer <token>` when set (METRICS_TOKEN); null: open, for a scraper on a private network */
  metricsToken: string | null;
  /** on SIGTERM: how long readiness answers 503 before the listener closes (load balancers notice) */
  shutdownDelayMs: number;
  /** on SIGTERM: how long in-flight requests may take to finish before their connections are cut */
  shutdownTimeoutMs: number;
  /** the whole request (headers and body) must arrive within this; headers alone within a third of it */
  requestTimeoutMs: number;
  /** connections each instance may open to PostgreSQL */
  dbPoolMax: number;
  /** pino level of the structured log: fatal, error, warn, info, debug, trace or silent */
  logLevel: string;
  /** run a job-queue worker in this instance (JOBS=off: this instance only enqueues; another one runs the jobs) */
  jobsWorker: boolean;
  /** jobs one instance's worker runs at once (JOB_CONCURRENCY) */
  jobConcurrency: number;
  /** seconds without a heartbeat after which a snapshot build's worker is presumed dead and its job handed on (MODELING_BUILD_STALE_S) */
  buildStaleSeconds: number;
  /**
   * SEC's bulk archives (companyfacts.zip, submissions.zip) for a first load: a directory holding
   * them or an https:// sec.gov base (SEC_ARCHIVES); null: company by company. Defaults to the live
   * site when SEC_SOURCE is the live site; `off` turns it off.
   */
  secArchives: string | null;
  /** the largest archive member inflated (SEC_ARCHIVE_MEMBER_MAX_MB); a member past it is refused as a zip bomb */
  archiveMemberMaxBytes: number;
  /** after a bulk load from the live site: filing packages of the last N quarters of periodic filings, as queued jobs (PACKAGE_WINDOW_QUARTERS; 0: none) */
  packageWindowQuarters: number;
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be on or off, got "${raw}"`);
}

function archivesFrom(raw: string | undefined, secSource: string | undefined): string | null {
  if (raw?.toLowerCase() === 'off') return null;
  if (raw) return /^https:\/\//i.test(raw) ? raw : path.resolve(raw);
  return secSource && /^https:\/\//i.test(secSource) ? 'https://www.sec.gov' : null;
}

function bulkStoreFrom(raw: string | undefined): 'local' | 'gcs' {
  if (raw === undefined || raw === '' || raw === 'local') return 'local';
  if (raw === 'gcs') return 'gcs';
  throw new Error(`BULK_STORE must be local or gcs, got "${raw}"`);
}

/** Comma-separated origins, trailing slashes dropped. */
function listFrom(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter(Boolean);
}

/** `host=origin` pairs, comma-separated; the live source checks the hosts and origins themselves. */
function originsFrom(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of listFrom(raw)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`SEC_ORIGINS must be host=origin pairs separated by commas, got "${pair}"`);
    out[pair.slice(0, at).trim().toLowerCase()] = pair.slice(at + 1).trim();
  }
  return out;
}

function feedWatchFrom(raw: string | undefined): 'auto' | 'on' | 'off' {
  const v = raw?.toLowerCase();
  if (v === undefined || v === '' || v === 'auto') return 'auto';
  if (['1', 'true', 'on', 'yes'].includes(v)) return 'on';
  if (['0', 'false', 'off', 'no'].includes(v)) return 'off';
  throw new Error(`FEED_WATCH must be auto, on or off, got "${raw}"`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevelFrom(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'info';
  if (!LOG_LEVELS.includes(raw)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './.data');
  return {
    port: intFrom(env, 'PORT', 8080),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || null,
    databaseReadUrl: env.DATABASE_READ_URL || null,
    replicaMaxLagMs: intFrom(env, 'REPLICA_MAX_LAG_MS', 2000),
    dbConnectTimeoutS: Math.max(1, intFrom(env, 'DB_CONNECT_TIMEOUT_S', 5)),
    dataDir,
    embeddedPgPort: intFrom(env, 'EMBEDDED_PG_PORT', 54329),
    secSource: env.SEC_SOURCE || path.resolve('../shared/sec'),
    secUserAgent: env.SEC_USER_AGENT || null,
    secOrigins: originsFrom(env.SEC_ORIGINS),
    feedWatch: feedWatchFrom(env.FEED_WATCH),
    feedPollSeconds: env.FEED_POLL_S ? Math.max(1, intFrom(env, 'FEED_POLL_S', 60)) : null,
    macroSource: env.MACRO_SOURCE || path.resolve('../shared/macro'),
    rateLimits: flag(env, 'RATE_LIMITS', true),
    devKeys: flag(env, 'DEV_KEYS', true),
    logRequests: flag(env, 'LOG_REQUESTS', false),
    readCache: flag(env, 'READ_CACHE', true),
    ingestOnStart: flag(env, 'INGEST_ON_START', true),
    ingestWorkers: Math.max(1, intFrom(env, 'INGEST_WORKERS', 1)),
    secArchives: archivesFrom(env.SEC_ARCHIVES, env.SEC_SOURCE),
    archiveMemberMaxBytes: Math.max(1, intFrom(env, 'SEC_ARCHIVE_MEMBER_MAX_MB', 512)) * 1024 * 1024,
    packageWindowQuarters: intFrom(env, 'PACKAGE_WINDOW_QUARTERS', 8),
    mcpAllowedOrigins: listFrom(env.MCP_ALLOWED_ORIGINS),
    bulkStore: bulkStoreFrom(env.BULK_STORE),
    bulkDir: path.resolve(env.BULK_DIR || path.join(dataDir, 'bulk')),
    bulkSigningSecret: env.BULK_SIGNING_SECRET || null,
    publicBaseUrl: env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/$/, '') : null,
    gcsBucket: env.GCS_BUCKET || null,
    gcsApiEndpoint: env.GCS_API_ENDPOINT || null,
    exportSchedule: flag(env, 'EXPORT_SCHEDULE', true),
    corsOrigins: listFrom(env.CORS_ORIGINS),
    metricsToken: env.METRICS_TOKEN || null,
    shutdownDelayMs: intFrom(env, 'SHUTDOWN_DELAY_S', 0) * 1000,
    shutdownTimeoutMs: intFrom(env, 'SHUTDOWN_TIMEOUT_S', 20) * 1000,
    requestTimeoutMs: Math.max(1, intFrom(env, 'REQUEST_TIMEOUT_S', 30)) * 1000,
    dbPoolMax: Math.max(1, intFrom(env, 'DB_POOL_MAX', 10)),
    logLevel: logLevelFrom(env.LOG_LEVEL),
    jobsWorker: flag(env, 'JOBS', true),
    jobConcurrency: Math.max(1, intFrom(env, 'JOB_CONCURRENCY', 2)),
    buildStaleSeconds: Math.max(1, intFrom(env, 'MODELING_BUILD_STALE_S', 60)),
  };
}
