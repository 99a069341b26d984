/**
 * Child process of the "packages" suite (`node --import tsx bench/lib/packages-child.ts <file>...`).
 * It runs alone so that `maxRSS` is the inline reader's peak, not the bench runner's (which holds
 * every file in memory for the throughput runs). Each file is streamed from disk, as ingestion
 * reads it, and its result dropped before the next, as ingestion does. Prints one JSON line.
 */
import { createReadStream } from 'node:fs';
import { parseInline } from '../../ingest/xbrl/inline.ts';

export interface PackagesChildResult {
  files: number;
  facts: number;
  elapsed_s: number;
  /** process.resourceUsage().maxRSS (KiB) once modules are loaded, before any parse: the floor */
  idle_rss_kib: number;
  /** the same peak after every file was parsed */
  max_rss_kib: number;
}

async function main(files: string[]): Promise<PackagesChildResult> {
  const idle = process.resourceUsage().maxRSS;
  let facts = 0;
  const t = performance.now();
  for (const file of files) facts += (await parseInline(createReadStream(file))).facts.length;
  const elapsed = (performance.now() - t) / 1000;
  return { files: files.length, facts, elapsed_s: elapsed, idle_rss_kib: idle, max_rss_kib: process.resourceUsage().maxRSS };
}

main(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(JSON.stringify(result) + '\n');
    process.exit(0);
  },
  (err) => {
    process.stderr.write(`packages child failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
