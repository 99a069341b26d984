import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CATALOG_READ_FINGERPRINT } from '../domain/catalog/fingerprint.ts';

/**
 * What a deterministic-query manifest records about the code that answered: the package version
 * with the git commit (FDS_CODE_VERSION overrides, for builds without a .git), and a fingerprint of
 * the metric catalog (every canonical and derived definition, bundle and view), which changes
 * whenever a mapping rule that shapes the figures does.
 */
let code: string | null = null;

export function codeVersion(): string {
  if (code) return code;
  const fromEnv = process.env.FDS_CODE_VERSION?.trim();
  if (fromEnv) return (code = fromEnv);
  const root = new URL('..', import.meta.url);
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || commit;
  } catch {
    // no git at hand (a packaged build): the package version alone
  }
  return (code = `${pkg.version}+${commit}`);
}

/** The catalog's read fingerprint (domain/catalog/fingerprint.ts), in the manifest's `sha256:` form. */
export function catalogVersion(): string {
  return `sha256:${CATALOG_READ_FINGERPRINT.slice(0, 16)}`;
}
