import type { Config } from '../config.ts';
import { connect, type Sql } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface Database {
  sql: Sql;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/** DATABASE_URL when set, otherwise the embedded PostgreSQL under DATA_DIR. */
export async function openDatabase(config: Config, log: (m: string) => void): Promise<Database> {
  if (config.databaseUrl) {
    const sql = connect(config.databaseUrl, { max: config.dbPoolMax });
    return { sql, url: config.databaseUrl, embedded: false, close: () => sql.end({ timeout: 5 }) };
  }
  const pg = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
  const sql = connect(pg.url, { max: config.dbPoolMax });
  return {
    sql,
    url: pg.url,
    embedded: true,
    close: async () => {
      await sql.end({ timeout: 5 });
      await pg.stop();
    },
  };
}
