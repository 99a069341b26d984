import type { Config } from '../config.ts';
import { connect, type Sql } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { sameDatabaseOverLocalSocket } from './local-socket.ts';

export interface Database {
  sql: Sql;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set, otherwise the embedded PostgreSQL under DATA_DIR. A URL naming a server on
 * this machine is reached over its Unix-domain socket when that is provably the same database
 * (db/local-socket.ts): a read is a few small round trips, and loopback TCP costs the kernel, on
 * both sides, several times what a Unix socket does per message.
 */
export async function openDatabase(config: Config, log: (m: string) => void): Promise<Database> {
  if (config.databaseUrl) {
    const tcp = connect(config.databaseUrl, { max: config.dbPoolMax });
    const local = await sameDatabaseOverLocalSocket(tcp, config.databaseUrl, { max: config.dbPoolMax });
    if (local) await tcp.end({ timeout: 5 });
    const sql = local ?? tcp;
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
