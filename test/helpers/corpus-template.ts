import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { connect, type Sql } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { loadIdentity } from '../../ingest/load-identity.ts';
import { runIngestion } from '../../ingest/run-ingestion.ts';
import { loadMacro } from '../../ingest/macro/load-macro.ts';
import { SHARED_MACRO, SHARED_SEC } from './shared-data.ts';

/** code whose change changes what ingestion writes */
const FINGERPRINTED = ['db', 'domain', 'ingest'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function fingerprint(root: string): string {
  const h = createHash('sha256');
  for (const dir of FINGERPRINTED) {
    for (const file of filesUnder(path.join(root, dir)).sort()) h.update(file).update(readFileSync(file));
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * The name of a database holding the whole ../shared/sec corpus (identity loaded and ingested by
 * the real pipeline), built once per code fingerprint and cloned per suite with CREATE DATABASE
 * ... TEMPLATE, so suites start from real data in a second instead of re-ingesting each time.
 */
export async function corpusTemplate(admin: Sql, adminUrl: string): Promise<string> {
  const root = path.resolve(new URL('../..', import.meta.url).pathname);
  // Templates are named per checkout, so checkouts sharing one server never drop each other's.
  const checkout = createHash('sha256').update(root).digest('hex').slice(0, 6);
  const name = `fds_tpl_${checkout}_${fingerprint(root)}`;
  await admin`SELECT pg_advisory_lock(74201)`;
  try {
    const [exists] = await admin`SELECT 1 FROM pg_database WHERE datname = ${name} AND datistemplate`;
    if (exists) return name;
    for (const old of await admin<{ datname: string }[]>`SELECT datname FROM pg_database WHERE datname LIKE ${`fds_tpl_${checkout}_%`} OR datname ~ '^fds_tpl_[0-9a-f]{16}$'`) {
      await admin`ALTER DATABASE ${admin(old.datname)} IS_TEMPLATE false`;
      await admin`DROP DATABASE IF EXISTS ${admin(old.datname)} WITH (FORCE)`;
    }
    await admin`CREATE DATABASE ${admin(name)}`;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const sql = connect(url.href);
    try {
      const config = { ...loadConfig({}), databaseUrl: url.href, secSource: SHARED_SEC };
      await migrate(sql);
      await loadIdentity(sql, config);
      const summary = await runIngestion(sql, config);
      if (summary.status !== 'succeeded') throw new Error(`corpus template ingestion failed: ${JSON.stringify(summary.errors)}`);
      await loadMacro(sql, SHARED_MACRO);
    } finally {
      await sql.end({ timeout: 5 });
    }
    await admin`ALTER DATABASE ${admin(name)} IS_TEMPLATE true`;
    return name;
  } finally {
    await admin`SELECT pg_advisory_unlock(74201)`;
  }
}
