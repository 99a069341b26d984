import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * Source files stay small enough to read whole: none outside test/ is longer than MAX_LINES.
 * A file that grows past it is split by what its parts do (STYLE.md, "Small files").
 */

/** the repository root: the nearest folder above this file holding package.json (so the suite may move within test/) */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('no package.json above the test file');
    dir = up;
  }
  return dir;
}

const ROOT = repositoryRoot();
export const MAX_LINES = 400;
/** what is source: code, SQL and shell scripts (documents and lock files are not) */
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|sql|sh)$/;
/** the test suites, installed packages and data; folders whose names start with a dot are skipped too (.git, .data, .ci) */
const SKIP = new Set(['test', 'node_modules']);

function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** Every source file under `root` longer than `max` lines, as `path: N lines`, paths relative to `root`. */
export function oversizedSources(root: string, max = MAX_LINES): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && SOURCE.test(entry.name)) {
        const lines = lineCount(readFileSync(path, 'utf8'));
        if (lines > max) out.push(`${relative(root, path)}: ${lines} lines`);
      }
    }
  };
  walk(root);
  return out.sort();
}

describe('source file size', () => {
  it(`no source file outside test/ is longer than ${MAX_LINES} lines`, () => {
    const oversized = oversizedSources(ROOT);
    assert.deepEqual(oversized, [], `split these by what their parts do:\n${oversized.join('\n')}`);
  });

  it('names a source file one line over the limit, and skips tests, packages, dot-folders and documents', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fds-file-size-'));
    try {
      const lines = (n: number) => 'x\n'.repeat(n);
      mkdirSync(join(dir, 'domain', 'deep'), { recursive: true });
      for (const skipped of ['test', 'node_modules', '.data']) mkdirSync(join(dir, skipped));
      writeFileSync(join(dir, 'domain', 'at-limit.ts'), lines(MAX_LINES));
      writeFileSync(join(dir, 'domain', 'deep', 'over.ts'), lines(MAX_LINES + 1));
      writeFileSync(join(dir, 'domain', 'no-final-newline.sql'), `${lines(MAX_LINES)}x`);
      writeFileSync(join(dir, 'README.md'), lines(MAX_LINES * 2));
      writeFileSync(join(dir, 'test', 'long.test.ts'), lines(MAX_LINES * 2));
      writeFileSync(join(dir, 'node_modules', 'lib.js'), lines(MAX_LINES * 2));
      writeFileSync(join(dir, '.data', 'dump.sql'), lines(MAX_LINES * 2));
      assert.deepEqual(oversizedSources(dir), [
        `${join('domain', 'deep', 'over.ts')}: ${MAX_LINES + 1} lines`,
        `${join('domain', 'no-final-newline.sql')}: ${MAX_LINES + 1} lines`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
