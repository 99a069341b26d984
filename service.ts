import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import type { BlobStore } from './domain/bulk/blob-store.ts';
import { openBlobStore } from './export/stores.ts';
import { installQueue, startJobWorker, type JobWorker } from './jobs/runner.ts';
import { openDatabase, type Database } from './db/database.ts';
import { countKeys, createApiKey, type IssuedKey } from './db/keys.ts';
import { migrate } from './db/migrate.ts';
import { PLANS } from './domain/plans.ts';
import { corpusIsEmpty } from './db/ingestion-runs.ts';
import { loadIdentity, identityIsEmpty } from './ingest/load-identity.ts';
import { progressLine, summaryLine } from './ingest/progress-bar.ts';
import { runIngestion } from './ingest/run-ingestion.ts';
import { archiveBootstrap, enqueuePackagesAfterLoad } from './ingest/bootstrap.ts';
import pino, { type Logger } from 'pino';
import { createHttpServer, type ServiceServer } from './routes/server.ts';
import { drainServer } from './routes/lifecycle.ts';
import { postgresBudgets } from './api/budgets.ts';
import { loadMacro } from './ingest/macro/load-macro.ts';
import { ALL_TOOLS } from './tools/index.ts';
import { Authenticator } from './api/auth.ts';
import { ChangeFeed } from './db/change-feed.ts';
import { ReadReplica } from './db/replica.ts';
import { DatabaseCircuit } from './db/circuit.ts';
import { slotCoverage } from './api/coverage-gate.ts';
import type { ServerInfo } from './api/jsonrpc.ts';
import type { Services } from './api/services.ts';
import type { ToolDefinition } from './api/define-tool.ts';
import { SERVICE_VERSION } from './tools/system/tools.ts';
import { useFleetBudget } from './ingest/sec-access.ts';
import { feedJobOptions, feedWatchEnabled } from './jobs/feed-watch.ts';

export const SERVER_INFO: ServerInfo = { name: 'fds', title: 'Financial Filings Data Service', version: SERVICE_VERSION };

export interface RunningService {
  services: Services;
  server: ServiceServer;
  port: number;
  database: Database;
  /** resolves once start-up loading is done and the service reports ready */
  ready: Promise<void>;
  devKeys: IssuedKey[];
  /** this instance's job-queue worker once ready (null with JOBS=off) */
  jobs(): JobWorker | null;
  /**
   * Graceful stop (what SIGTERM runs): readiness 503, the listener closes after SHUTDOWN_DELAY_S,
   * in-flight requests finish within SHUTDOWN_TIMEOUT_S, then the job worker stops and the
   * database closes. `options` overrides the configured times (tests).
   */
  close(options?: { delayMs?: number; timeoutMs?: number }): Promise<{ forced: boolean }>;
}

export interface StartOptions {
  log?: (message: string) => void;
  now?: () => Date;
  /** an already open database (tests); otherwise DATABASE_URL or the embedded one */
  database?: Database;
  /** where the structured log goes (tests capture it); default stdout */
  logger?: Logger;
}

/** The structured JSON log: one object per line at LOG_LEVEL, on stdout (fd 1) unless `fd` says otherwise (stdio mode: 2). */
export function createLogger(config: Config, fd = 1): Logger {
  const options = { level: config.logLevel, base: { service: 'fds' } };
  return fd === 1 ? pino(options) : pino(options, pino.destination(fd));
}

export function buildServices(
  config: Config,
  database: Database,
  bulkStore: BlobStore,
  now: () => Date = () => new Date(),
  registry: readonly ToolDefinition[] = ALL_TOOLS,
  logger: Logger = createLogger(config),
): Services {
  const replica = database.readSql ? new ReadReplica(database.readSql, database.sql, { maxLagMs: config.replicaMaxLagMs, retryMs: 5_000 }) : null;
  const changes = new ChangeFeed(database.sql, replica ? () => replica.replayed() : null);
  const services: Services = {
    registry: new Map(registry.map((d) => [d.name, d])),
    changes,
    bulkStore,
    sql: database.sql,
    config,
    now,
    budgets: postgresBudgets(database.sql, () => now().getTime()),
    logger,
    authenticator: new Authenticator(database.sql, () => now().getTime(), changes),
    coverage: slotCoverage(database.sql),
    status: { phase: 'starting', startedAt: now(), progress: null, draining: false },
    checkOutputs: process.env.CHECK_OUTPUTS === '1',
    replica: null,
    circuit: new DatabaseCircuit(),
  };
  if (replica) {
    // one view object for the instance's life: read caches are kept per services object
    const view: Services = { ...services, sql: replica.sql };
    services.replica = { view, usable: () => replica.usable(), markDown: () => replica.markDown() };
  }
  return services;
}

/**
 * Macro series on every start (a file unchanged since the last load is skipped by checksum). A
 * source that cannot be read leaves the stored series as they are: the service still starts.
 */
async function loadMacroSeries(services: Services, log: (m: string) => void): Promise<void> {
  try {
    services.status.progress = 'loading macro series';
    const s = await loadMacro(services.sql, services.config.macroSource, { now: services.now, log });
    const loaded = s.series.filter((x) => x.status === 'loaded').length;
    if (loaded > 0) log(`macro series: ${loaded} loaded (${s.rows_added} observation rows added) from ${s.source}`);
  } catch (err) {
    log(`macro series not loaded: ${(err as Error).message}`);
  }
}

/** What every serving process opens before it answers anything: the database, migrated and with the queue's schema, the bulk store and the services. */
export interface ServiceCore {
  services: Services;
  database: Database;
  bulkStore: BlobStore;
}

/**
 * Database (embedded unless DATABASE_URL or an open one in `options`), migrations, the job queue's
 * schema, the bulk store (`baseUrl` signs its download links), the services and their change feed.
 */
export async function openServiceCore(config: Config, options: StartOptions, baseUrl: () => string): Promise<ServiceCore> {
  const log = options.log ?? ((m: string) => console.log(m));
  const database = options.database ?? (await openDatabase(config, log));
  try {
    const { applied } = await migrate(database.sql);
    if (applied.length > 0) log(`migrations applied: ${applied.join(', ')}`);
    // every live SEC request of this process counts against the fleet's one budget
    useFleetBudget(database.sql, config.secOrigins);
    // every instance can enqueue (snapshot builds), so the queue's schema is installed even with JOBS=off
    await installQueue(database.url, log);
    const bulkStore = await openBlobStore(config, baseUrl);
    const services = buildServices(config, database, bulkStore, options.now, ALL_TOOLS, options.logger);
    // read caches stay off (every read goes to PostgreSQL) unless this instance hears every change
    if (config.readCache) await services.changes.start().catch((err) => log(`change notifications unavailable, reads go uncached: ${(err as Error).message}`));
    return { services, database, bulkStore };
  } catch (err) {
    if (!options.database) await database.close();
    throw err;
  }
}

export interface Loading {
  /** resolves once start-up loading is done and the service reports ready */
  ready: Promise<void>;
  devKeys: IssuedKey[];
  jobs(): JobWorker | null;
  /**
   * No job worker starts from here on; the running one stops taking jobs (running ones finish).
   * With `abandonLoading`, a load still in progress is not waited for (its database is about to
   * close under it; the next start resumes it).
   */
  stop(options?: { abandonLoading?: boolean }): Promise<void>;
}

/**
 * In the background: development keys (when `devKeys`), company identity and the company facts
 * when the database holds none, macro series, then ready and this instance's job worker. Data
 * calls answer SERVICE_UNAVAILABLE (retryable) until then.
 */
export function startLoading(core: ServiceCore, config: Config, log: (m: string) => void, options: { devKeys: boolean }): Loading {
  const { services, database, bulkStore } = core;
  const devKeys: IssuedKey[] = [];
  let jobs: JobWorker | null = null;
  let closing = false;
  let abandoned = false;
  let settled = false;
  const ready = (async () => {
    // keys first, so the ingestion status can be read with one while loading runs
    if (options.devKeys && (await countKeys(database.sql, 'dev')) === 0) {
      for (const plan of PLANS) devKeys.push(await createApiKey(database.sql, 'dev', plan, `development key (${plan})`));
      log('development API keys for org "dev" (shown once, stored hashed):');
      for (const k of devKeys) log(`  ${k.plan.padEnd(10)} ${k.key}`);
    }
    const bootstrap = await archiveBootstrap(database.sql, config, log);
    try {
      if (await identityIsEmpty(database.sql)) {
        services.status.phase = 'loading';
        services.status.progress = 'loading company identity';
        const summary = await loadIdentity(database.sql, config, {
          ...(bootstrap ? { source: bootstrap.source } : {}),
          now: services.now,
          onProgress: (p) => (services.status.progress = p),
          log,
        });
        log(`identity loaded: ${summary.companies} companies, ${summary.mappings_seen} ticker mappings from ${summary.source}`);
      }
      if (config.ingestOnStart && (await corpusIsEmpty(database.sql))) {
        services.status.phase = 'loading';
        services.status.progress = 'ingesting company facts';
        let lastLogged = 0;
        const summary = await runIngestion(database.sql, config, {
          now: services.now,
          workers: config.ingestWorkers,
          databaseUrl: database.url,
          ...(bootstrap ? { archives: bootstrap.archives } : {}),
          onProgress: (p) => {
            services.status.progress = `ingesting company facts: ${progressLine(p)}`;
            if (performance.now() - lastLogged > 2000 || p.companies_done + p.companies_failed === p.companies_total) {
              lastLogged = performance.now();
              log(progressLine(p));
            }
          },
        });
        log(summaryLine(summary));
        for (const e of summary.errors) log(`ingestion failed for ${e.cik}: ${e.message}`);
        if (bootstrap) await enqueuePackagesAfterLoad(database.sql, config, log, services.now);
      }
    } finally {
      await bootstrap?.close();
    }
    await loadMacroSeries(services, log);
    services.status.phase = 'ready';
    services.status.progress = null;
    log('ready');
    // the worker starts once the corpus is loaded, so no job reads a half-ingested corpus
    if (config.jobsWorker && !closing) {
      jobs = await startJobWorker({
        databaseUrl: database.url,
        sql: database.sql,
        bulkStore,
        bulkDir: config.bulkDir,
        concurrency: config.jobConcurrency,
        buildStaleSeconds: config.buildStaleSeconds,
        exportSchedule: config.exportSchedule,
        now: services.now,
        log,
        feed: feedWatchEnabled(config) ? feedJobOptions(config, services.now, log, (m) => services.logger.error(m), database.sql) : null,
      });
    }
  })().finally(() => (settled = true));
  ready.catch((err) => {
    if (abandoned) return; // a load cut short by its database closing is not a start-up failure
    services.status.progress = `start-up failed: ${(err as Error).message}`;
    log(`start-up failed: ${(err as Error).message ?? err}`);
    services.logger.error({ err }, 'start-up failed');
  });
  return {
    ready,
    devKeys,
    jobs: () => jobs,
    stop: async (o = {}) => {
      closing = true;
      if (o.abandonLoading && !settled) {
        abandoned = true;
        return;
      }
      await ready.catch(() => {});
      await jobs?.stop();
    },
  };
}

/**
 * Start-up: database (embedded unless DATABASE_URL), migrations, the HTTP server (listening at once
 * so health probes answer), then loading when the database is empty, then development keys.
 * Data routes answer 503 until loading is done; readiness says "loading" meanwhile.
 */
export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const log = options.log ?? ((m: string) => console.log(m));
  let port = 0;
  const localHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const core = await openServiceCore(config, options, () => config.publicBaseUrl ?? `http://${localHost}:${port}`);
  const { services, database } = core;
  const server = createHttpServer(services, ALL_TOOLS, SERVER_INFO);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${config.host}:${config.port}`;
      if (err.code === 'EADDRINUSE') reject(new Error(`port ${config.port} is in use (${where}): stop what holds it or set PORT to a free port`));
      else if (err.code === 'EACCES') reject(new Error(`not allowed to listen on ${where}: use a PORT above 1023 or run with the right to bind it`));
      else reject(err);
    });
    server.listen(config.port, config.host, () => resolve());
  }).catch(async (err) => {
    await services.changes.stop();
    if (!options.database) await database.close();
    throw err;
  });
  port = (server.address() as AddressInfo).port;
  log(`listening on http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port} (reference at /docs)`);

  const loading = startLoading(core, config, log, { devKeys: config.devKeys });
  return {
    services,
    server,
    port,
    database,
    ready: loading.ready,
    devKeys: loading.devKeys,
    jobs: loading.jobs,
    close: async (o = {}) => {
      // the job worker stops taking jobs at once (running ones finish) while HTTP drains
      const jobsStopped = loading.stop();
      const drained = await drainServer(server, services.status, {
        delayMs: o.delayMs ?? config.shutdownDelayMs,
        timeoutMs: o.timeoutMs ?? config.shutdownTimeoutMs,
      });
      await jobsStopped;
      await services.changes.stop();
      await database.close();
      return drained;
    },
  };
}
