import type { Config } from '../config.ts';
import { connect, type Sql } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface Database {
  sql: Sql;
  url: string;
  embedded: boolean;
  /** the read replica's connections (DATABASE_READ_URL), when one is configured */
  readSql?: Sql | null;
  close(): Promise<void>;
}

/** DATABASE_URL when set (with DATABASE_READ_URL's replica beside it), otherwise the embedded PostgreSQL under DATA_DIR. */
export async function openDatabase(config: Config, log: (m: string) => void): Promise<Database> {
  const timeout = { connectTimeoutS: config.dbConnectTimeoutS };
  if (config.databaseUrl) {
    const sql = connect(config.databaseUrl, { max: config.dbPoolMax, ...timeout });
    // an unreachable replica is noticed at once and reads go to the primary: it gets a short timeout
    const readSql = config.databaseReadUrl ? connect(config.databaseReadUrl, { max: config.dbPoolMax, connectTimeoutS: Math.min(2, config.dbConnectTimeoutS) }) : null;
    return {
      sql,
      url: config.databaseUrl,
      embedded: false,
      readSql,
      close: async () => {
        await Promise.all([sql.end({ timeout: 5 }), readSql?.end({ timeout: 5 })]);
      },
    };
  }
  if (config.databaseReadUrl) log('DATABASE_READ_URL is ignored without DATABASE_URL (the embedded database has no replica)');
  const pg = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
  const sql = connect(pg.url, { max: config.dbPoolMax, ...timeout });
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
