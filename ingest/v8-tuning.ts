import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a process whose work is ingestion: `fds ingest`, its worker processes
 * (ingest/ingest-worker.ts) and the benches' ingest child, which runs what `fds ingest` runs.
 * Not the serving process: it sets its own (cli.ts `serve`), and its reads run long enough for
 * inlining to pay.
 *
 * Turbofan inlining off. An ingestion is one pass over a corpus by a fresh process, and on the
 * whole mirror Turbofan's compile jobs were about a third of the run's CPU (perf: ~2.2 of ~7 s,
 * on V8's background threads, which share the two cores with the main thread and PostgreSQL);
 * inlining makes each hot function's graph several times larger (the company-facts parser's
 * compiles took 37-70 ms each, the filing presenter's 100 ms). Measured over the whole mirror
 * (interleaved runs, same process shape as the ingest bench): CPU 5.1-5.2 s instead of 5.9-6.2 s,
 * wall 4.7-4.8 s instead of 5.0-5.2 s; a second ingestion in the same, warmed-up process took the
 * same time either way (3.7-4.1 s), so the optimized code itself lost nothing measurable.
 *
 * Flags set after start-up apply to compile jobs started afterwards, which is all of an
 * ingestion's: call this before the first company.
 */
export function tuneV8ForIngestion(): void {
  setFlagsFromString('--no-turbo-inlining');
}
