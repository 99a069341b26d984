import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../config.ts';
import type { Sql } from '../../db/client.ts';
import { createApiKey } from '../../db/keys.ts';
import { PLANS, type Plan } from '../../domain/plans.ts';
import { createHttpServer } from '../../routes/server.ts';
import { SERVER_INFO, startService, type RunningService } from '../../service.ts';
import { ALL_TOOLS } from '../../tools/index.ts';
import type { ToolDefinition } from '../../api/define-tool.ts';
import type { Services } from '../../api/services.ts';
import { createTestDatabase } from './database.ts';
import { SHARED_MACRO, SHARED_SEC } from './shared-data.ts';

export { SHARED_MACRO, SHARED_SEC };

export interface TestService {
  baseUrl: string;
  keys: Record<Plan, string>;
  sql: Sql;
  running: RunningService;
  close(): Promise<void>;
}

/**
 * The real service on an ephemeral port, over a fresh clone of the ingested ../shared/sec corpus
 * (or, with `emptyDatabase`, over an empty database, so start-up loads everything itself).
 */
export async function startTestService(
  overrides: Partial<Config> = {},
  now?: () => Date,
  options: { emptyDatabase?: boolean } = {},
): Promise<TestService> {
  process.env.CHECK_OUTPUTS = '1';
  const database = await createTestDatabase({ corpus: !options.emptyDatabase });
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: database.url,
    secSource: SHARED_SEC,
    macroSource: SHARED_MACRO,
    devKeys: false,
    ...overrides,
  };
  const running = await startService(config, { log: () => {}, database, ...(now ? { now } : {}) });
  await running.ready;
  const keys = {} as Record<Plan, string>;
  for (const plan of PLANS) keys[plan] = (await createApiKey(database.sql, 'test-org', plan)).key;
  return { baseUrl: `http://127.0.0.1:${running.port}`, keys, sql: database.sql, running, close: async () => void (await running.close({ delayMs: 0, timeoutMs: 2000 })) };
}

/**
 * A second server over the same services with test-only definitions added to the registry's,
 * for behaviour no registered route shows yet (a Growth gate, a POST body). Never in ALL_TOOLS.
 */
export async function listenWithFixtures(
  services: Services,
  fixtures: ToolDefinition[],
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createHttpServer(services, [...ALL_TOOLS, ...fixtures], SERVER_INFO);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
