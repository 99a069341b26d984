import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CANONICAL_METRICS, DERIVED_METRICS, METRIC_BUNDLES, METRIC_VIEWS } from '../domain/catalog/index.ts';

/**
 * What a deterministic-query manifest records about the code that answered: the package version
 * with the git commit (FDS_CODE_VERSION overrides, for builds without a .git), and a fingerprint of
 * the metric catalog (every canonical and derived definition, bundle and view), which changes
 * whenever a mapping rule that shapes the figures does.
 */
let code: string | null = null;
let catalog: string | null = null;

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

export function catalogVersion(): string {
  if (catalog) return catalog;
  const h = createHash('sha256').update(JSON.stringify({ CANONICAL_METRICS, DERIVED_METRICS, METRIC_BUNDLES, METRIC_VIEWS }));
  return (catalog = `sha256:${h.digest('hex').slice(0, 16)}`);
}
