import path from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Sql } from './client.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const FILE_NAME = /^(\d{6})_[a-z0-9_]+\.sql$/;
/** Arbitrary constant: serializes migrators of one database across processes. */
const MIGRATION_LOCK = 4_726_313;

export interface Migration {
  version: number;
  name: string;
  file: string;
}

export async function listMigrations(): Promise<Migration[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  return files.map((file) => {
    const m = FILE_NAME.exec(file);
    if (!m) throw new Error(`migration file name must be NNNNNN_snake_case.sql: ${file}`);
    return { version: Number(m[1]), name: file.replace(/\.sql$/, ''), file: path.join(MIGRATIONS_DIR, file) };
  });
}

/**
 * Forward-only: each file runs once, in its own transaction, and is recorded before its body runs
 * so two migrators that slip past the lock clash on the primary key instead of both applying it.
 */
export async function migrate(sql: Sql): Promise<{ applied: string[]; total: number }> {
  const migrations = await listMigrations();
  const applied: string[] = [];
  for (const m of migrations) {
    const body = await readFile(m.file, 'utf8');
    const ran = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
      const [done] = await tx`SELECT 1 FROM schema_migrations WHERE version = ${m.version}`;
      if (done) return false;
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
      await tx.unsafe(body).simple();
      return true;
    }).catch((err: Error) => {
      throw new Error(`migration ${m.name} failed: ${err.message}`, { cause: err });
    });
    if (ran) applied.push(m.name);
  }
  return { applied, total: migrations.length };
}