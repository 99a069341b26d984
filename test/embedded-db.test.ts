import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { migrationState } from '../tools/system/queries.ts';

describe('the embedded PostgreSQL default', () => {
  it('starts a real PostgreSQL under DATA_DIR when DATABASE_URL is unset, migrates it, and reopens it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fds-embedded-'));
    const config = { ...loadConfig({}), databaseUrl: null, dataDir, embeddedPgPort: 54377 };
    try {
      const db = await openDatabase(config, () => {});
      assert.equal(db.embedded, true);
      const { applied, total } = await migrate(db.sql);
      assert.equal(applied.length, total);
      const [v] = await db.sql`SELECT current_setting('server_version_num')::int AS v`;
      assert.ok(v!.v >= 150000, `PostgreSQL ${v!.v}`);
      await db.sql`INSERT INTO organizations (name) VALUES ('persisted')`;
      await db.close();

      const again = await openDatabase(config, () => {});
      assert.deepEqual(await migrationState(again.sql), { applied: total, expected: total });
      const [row] = await again.sql`SELECT count(*)::int AS n FROM organizations WHERE name = 'persisted'`;
      assert.equal(row!.n, 1, 'data survives a restart');
      await again.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
