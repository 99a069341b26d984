import type { Config } from '../config.ts';
import { connect, type Sql } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { sameDatabaseOverLocalSocket } from './local-socket.ts';

export interface Database {
  sql: Sql;
  url: string;
  embedded: boolean;
  /** the read replica's connections (DATABASE_READ_URL), when one is configured */
  readSql?: Sql | null;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set (with DATABASE_READ_URL's replica beside it), otherwise the embedded
 * PostgreSQL under DATA_DIR. A URL naming a server on this machine is reached over its Unix-domain socket when that is provably the same database
 * (db/local-socket.ts): a read is a few small round trips, and loopback TCP costs the kernel, on
 * both sides, several times what a Unix socket does per message.
 */
export async function openDatabase(config: Config, log: (m: string) => void): Promise<Database> {
  const timeout = { connectTimeoutS: config.dbConnectTimeoutS };
  if (config.databaseUrl) {
    const tcp = connect(config.databaseUrl, { max: config.dbPoolMax, ...timeout });
    const local = await sameDatabaseOverLocalSocket(tcp, config.databaseUrl, { max: config.dbPoolMax, ...timeout });
    if (local) await tcp.end({ timeout: 5 });
    const sql = local ?? tcp;
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
