import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import path from 'node:path';
import { connect, type Sql } from '../../db/client.ts';
import type { Database } from '../../db/database.ts';
import { startEmbeddedPostgres } from '../../db/embedded.ts';
import { migrate } from '../../db/migrate.ts';
import { corpusTemplate } from './corpus-template.ts';

/**
 * With `corpus`, the database starts as a clone of the ingested ../shared/sec corpus.
 * A fresh database per test suite on a real PostgreSQL: the server named by DATABASE_URL (CI uses
 * the machine's), or an embedded one under .data/test when none is configured. Dropped at close.
 */
export async function createTestDatabase(options: { corpus?: boolean } = {}): Promise<Database> {
  let adminUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | null = null;
  if (!adminUrl) {
    const pg = await shareEmbedded();
    adminUrl = pg.url;
    stopEmbedded = pg.release;
  }
  const name = `fds_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = connect(adminUrl, { max: 1 });
  if (options.corpus) {
    const template = await corpusTemplate(admin, adminUrl);
    await admin`CREATE DATABASE ${admin(name)} TEMPLATE ${admin(template)}`;
  } else {
    await admin`CREATE DATABASE ${admin(name)}`;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql: Sql = connect(url.href);
  return {
    sql,
    url: url.href,
    embedded: stopEmbedded !== null,
    close: async () => {
      await sql.end({ timeout: 5 });
      await admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`;
      await admin.end({ timeout: 5 });
      if (stopEmbedded) await stopEmbedded();
    },
  };
}

/**
 * One embedded server per process, however many databases a suite opens at once: a second start
 * on the same data directory and port would fail. Stopped when the last database is closed.
 */
let embedded: { started: Promise<{ url: string; stop: () => Promise<void> }>; users: number } | null = null;

async function shareEmbedded(): Promise<{ url: string; release: () => Promise<void> }> {
  if (!embedded) {
    embedded = { started: startEmbeddedPostgres(path.resolve('.data/test'), Number(process.env.TEST_EMBEDDED_PG_PORT ?? 54339), () => {}), users: 0 };
  }
  const current = embedded;
  current.users++;
  const pg = await current.started;
  return {
    url: pg.url,
    release: async () => {
      if (--current.users > 0) return;
      if (embedded === current) embedded = null;
      await pg.stop();
    },
  };
}

/**
 * A migrated test database for the enclosing describe block: created before its tests, dropped
 * after them. Returns a getter, since the database exists only once `before` has run.
 */
export function migratedDatabaseForSuite(): () => Database {
  let db: Database | null = null;
  before(async () => {
    db = await createTestDatabase();
    await migrate(db.sql);
  });
  after(async () => {
    await db?.close();
  });
  return () => {
    if (!db) throw new Error('the suite database exists only inside its tests');
    return db;
  };
}
