import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** How to refresh, said in every failure so whoever added or changed a definition knows the step. */
export const REFRESH =
  'refresh with `UPDATE_SNAPSHOTS=1 node --import tsx --test test/unit/registry.test.ts` (or `UPDATE_SNAPSHOTS=1 npm test`), ' +
  'then review `git diff test/snapshots/` and commit the snapshot files with your change';

/**
 * Compares `files` (name -> JSON value) with the committed files of test/snapshots/<folder>/, in
 * the manner of github-mcp-server's toolsnaps: a missing, stale or orphaned snapshot fails, and
 * UPDATE_SNAPSHOTS=1 rewrites the folder from what the code declares.
 */
export function checkSnapshots(folder: string, files: Map<string, unknown>): void {
  const dir = fileURLToPath(new URL(`../snapshots/${folder}/`, import.meta.url));
  const update = process.env.UPDATE_SNAPSHOTS === '1';
  if (update) mkdirSync(dir, { recursive: true });
  for (const [name, value] of files) {
    const current = JSON.stringify(value, null, 2) + '\n';
    const file = `${dir}${name}`;
    if (update) writeFileSync(file, current);
    assert.ok(existsSync(file), `no snapshot test/snapshots/${folder}/${name}: ${REFRESH}`);
    assert.equal(current, readFileSync(file, 'utf8'), `test/snapshots/${folder}/${name} is stale (the contract agents and clients see changed): ${REFRESH}`);
  }
  const orphans = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && !files.has(f)) : [];
  if (update) for (const f of orphans) rmSync(`${dir}${f}`);
  else assert.deepEqual(orphans, [], `snapshots in test/snapshots/${folder}/ of definitions that no longer exist: ${REFRESH}`);
}
