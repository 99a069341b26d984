/** A benchmark suite: one file under bench/suites/, selected by the first argument of `npm run bench`. */
export interface SuiteModule {
  /** runs the suite with the remaining arguments; resolves to the process exit code */
  run(args: string[]): Promise<number>;
}

/** Positive number of seconds from an environment variable, or the fallback. */
export function secondsFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds, got "${raw}"`);
  return n;
}
