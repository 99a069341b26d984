import { spawn } from 'node:child_process';
import { connect, type Sql } from './client.ts';

/**
 * What cannot be derived again from SEC's data: organizations and their API keys, Free-plan
 * coverage slots, request budgets, recorded queries (replay tokens answer from them byte for byte)
 * and the bulk snapshot records with their download grants. Everything else (companies,
 * statement versions, checks, macro series) is rebuilt by ingesting again.
 */
export const BACKUP_TABLES = ['organizations', 'api_keys', 'coverage_slots', 'request_budgets', 'query_manifests', 'bulk_snapshots', 'bulk_grants'] as const;

/** pg_dump / pg_restore from PG_BIN when set, else from PATH; their major version must not be older than the server's. */
function tool(name: 'pg_dump' | 'pg_restore'): string {
  const dir = process.env.PG_BIN;
  return dir ? `${dir.replace(/\/$/, '')}/${name}` : name;
}

function run(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'ENOENT' ? `${file} not found: install PostgreSQL's client programs (postgresql-client) or set PG_BIN` : err.message)),
    );
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** pg_dump of BACKUP_TABLES' rows (custom format, one consistent snapshot) into `file`. */
export async function backupTo(databaseUrl: string, file: string): Promise<void> {
  await run(tool('pg_dump'), ['--format=custom', '--data-only', '--no-owner', ...BACKUP_TABLES.flatMap((t) => ['--table', t]), '--file', file, `--dbname=${databaseUrl}`]);
}

/** Tables of BACKUP_TABLES that already hold rows: a restore goes into a database without any. */
export async function nonEmptyBackupTables(sql: Sql): Promise<string[]> {
  const found: string[] = [];
  for (const t of BACKUP_TABLES) {
    const [r] = await sql<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM ${sql(t)}) AS any`;
    if (r?.any) found.push(t);
  }
  return found;
}

/** pg_restore of a backup's rows, all or nothing, into a migrated database whose backed-up tables are empty. */
export async function restoreFrom(databaseUrl: string, file: string): Promise<void> {
  await run(tool('pg_restore'), ['--data-only', '--no-owner', '--single-transaction', '--exit-on-error', `--dbname=${databaseUrl}`, file]);
  // a snapshot's recorded read point names transactions of the database it was built from, not of
  // this one: without it the next bulk build reads every partition again (export/incremental.ts)
  const sql = connect(databaseUrl, { max: 1 });
  try {
    await sql`UPDATE bulk_snapshots SET read_snapshot = NULL WHERE read_snapshot IS NOT NULL`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
