import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../config.ts';
import type { Sql } from '../../db/client.ts';
import { createApiKey } from '../../db/keys.ts';
import { PLANS, type Plan } from '../../domain/plans.ts';
import { startService, type RunningService } from '../../service.ts';
import { createTestDatabase } from './database.ts';

export const SHARED_SEC = fileURLToPath(new URL('../../../shared/sec', import.meta.url));

export interface TestService {
  baseUrl: string;
  keys: Record<Plan, string>;
  sql: Sql;
  running: RunningService;
  close(): Promise<void>;
}

/** The real service on a fresh database and an ephemeral port, loaded from ../shared/sec. */
export async function startTestService(overrides: Partial<Config> = {}, now?: () => Date): Promise<TestService> {
  process.env.CHECK_OUTPUTS = '1';
  const database = await createTestDatabase();
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: database.url,
    secSource: SHARED_SEC,
    devKeys: false,
    ...overrides,
  };
  const running = await startService(config, { log: () => {}, database, ...(now ? { now } : {}) });
  await running.ready;
  const keys = {} as Record<Plan, string>;
  for (const plan of PLANS) keys[plan] = (await createApiKey(database.sql, 'test-org', plan)).key;
  return { baseUrl: `http://127.0.0.1:${running.port}`, keys, sql: database.sql, running, close: () => running.close() };
}
