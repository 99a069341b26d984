import type { Readable, Writable } from 'node:stream';
import type { Config } from './config.ts';
import { looksLikeApiKey } from './domain/api-key.ts';
import { PLAN_LABELS } from './domain/plans.ts';
import { ServiceError } from './domain/service-error.ts';
import { JsonRpcDispatcher } from './api/jsonrpc.ts';
import { SERVED_PROTOCOL_VERSIONS } from './api/mcp-revisions.ts';
import { serveStdio } from './api/stdio.ts';
import { createLogger, openServiceCore, SERVER_INFO, startLoading } from './service.ts';
import { ALL_TOOLS } from './tools/index.ts';

/**
 * The tool server for a local assistant (`fds mcp`): MCP's stdio transport over the same router,
 * registry, seam, plan gates, coverage slots and budgets as POST /mcp, for the one key in
 * FDS_API_KEY. The database is the configured one or the embedded one; an empty one is loaded in
 * the background (progress on stderr) while tool calls answer a retryable SERVICE_UNAVAILABLE.
 */
export interface StdioService {
  /** resolves when the input has ended (or stop() was called), every answer is written and everything is closed */
  done: Promise<void>;
  /** SIGTERM: read no more; answer what was read, then close */
  stop(): void;
}

/** A refusal at start (no key, a key the database does not hold): the message for stderr and the exit status. */
export class StartRefused extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const CREATE_KEY = 'create one with `npx fds keys create --plan free --org <name>` (same DATABASE_URL, or the same DATA_DIR for the embedded database)';

export async function startStdioService(
  config: Config,
  io: { apiKey: string | undefined; input: Readable; output: Writable; log: (m: string) => void },
): Promise<StdioService> {
  const { log } = io;
  const apiKey = io.apiKey?.trim();
  if (!apiKey) throw new StartRefused(`FDS_API_KEY is not set: the tool server answers as the key in FDS_API_KEY; ${CREATE_KEY}.`, 2);
  if (!looksLikeApiKey(apiKey)) throw new StartRefused('FDS_API_KEY is not an API key of this service (they look like fds_sk_ followed by 43 characters).', 2);

  // Ingestion worker processes would share this process's stdout, which belongs to the protocol:
  // a first load runs in this process.
  const settings: Config = { ...config, ingestWorkers: 1 };
  const core = await openServiceCore(settings, { log, logger: createLogger(settings, 2) }, () => settings.publicBaseUrl ?? `http://127.0.0.1:${settings.port}`);
  const { services, database } = core;
  const closeCore = async () => {
    await services.changes.stop();
    await database.close();
  };

  let org: string;
  try {
    const auth = await services.authenticator.authenticate(apiKey);
    org = `org "${auth.orgName}", ${PLAN_LABELS[auth.plan]} plan`;
  } catch (err) {
    await closeCore();
    if (err instanceof ServiceError && err.code === 'UNAUTHORIZED') {
      throw new StartRefused(`FDS_API_KEY is not a key of this database (unknown or revoked); ${CREATE_KEY}.`, 2);
    }
    throw err;
  }

  const loading = startLoading(core, settings, log, { devKeys: false });
  // A loaded database is ready within a second (key check, macro refresh): the first call of a
  // one-shot client should get data, not "retry shortly". A first load takes minutes: the protocol
  // is served at once and tool calls answer SERVICE_UNAVAILABLE until it is done.
  await settledOrLoading(loading.ready, () => services.status.phase === 'loading', STARTUP_WAIT_MS);
  const rpc = new JsonRpcDispatcher(services, ALL_TOOLS, SERVER_INFO, {}, 'The API key is the one this stdio process was started with (FDS_API_KEY).');
  const server = serveStdio(rpc, {
    input: io.input,
    output: io.output,
    apiKey,
    log,
    onToolCall: settings.logRequests
      ? (tool, o) => services.logger.info({ tool, outcome: o.ok ? 'ok' : o.error.code, ms: Math.round(o.ms * 100) / 100 }, 'tools/call')
      : undefined,
  });
  log(`tool server on stdio for ${org}; MCP ${SERVED_PROTOCOL_VERSIONS.join(', ')}`);

  const done = server.done.then(async () => {
    await loading.stop({ abandonLoading: true });
    await closeCore();
  });
  return { done, stop: () => server.stop() };
}

/** How long start-up may hold the protocol back for a database that needs no load (a slow macro source). */
const STARTUP_WAIT_MS = 5_000;

async function settledOrLoading(ready: Promise<void>, loadingStarted: () => boolean, maxMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const poll = new Promise<void>((resolve) => {
    const started = Date.now();
    const tick = () => (loadingStarted() || Date.now() - started >= maxMs ? resolve() : (timer = setTimeout(tick, 25)));
    tick();
  });
  await Promise.race([ready.catch(() => {}), poll]);
  clearTimeout(timer);
}
