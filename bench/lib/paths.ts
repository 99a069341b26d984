import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/lib/../..): the server and the CLI run from here. */
export const REPO_ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Git-ignored output folder for results, logs and the embedded database. */
export const BENCH_DIR = path.join(REPO_ROOT, '.bench');

export function ensureBenchDir(): string {
  mkdirSync(BENCH_DIR, { recursive: true });
  return BENCH_DIR;
}

/** 2025-01-31T12-34-56Z: safe in file names, sorts by time. */
export function fileTimestamp(d: Date = new Date()): string {
  return d.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}
