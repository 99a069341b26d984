/**
 * The "packages" suite: throughput of the inline XBRL reader (parseInline) over the mirror's inline
 * primary documents, as a ratio against the same bytes pushed through the same streaming parser
 * (saxes, same options) with no handlers, measured in the same run so machine speed cancels out.
 * The gap between the two is what reading facts costs on top of tokenizing the XHTML.
 *   1. both sides get each file as an in-memory byte stream in 64 KiB chunks, decoded by the same
 *      xml-text.ts decoder, so disk reads stay out of the timing and the decode is on both sides;
 *      one untimed warm-up pass, then BENCH_PARSE_REPS (default 5) timed passes, alternating
 *      sides within a pass so drift hits both; medians reported
 *   2. peak RSS: bench/lib/packages-child.ts parses every file streamed from disk in its own
 *      process (maxRSS is its own), next to its RSS before the first parse
 * No goal is set yet: the figures are the product. A parse error is an error exit.
 * SEC_SOURCE: the mirror (default ../shared/sec from the repository root).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { INLINE_SAX_OPTIONS, parseInline } from '../../ingest/xbrl/inline.ts';
import { decodeXmlStream } from '../../ingest/xbrl/xml-text.ts';
import { onCleanup } from '../lib/cleanup.ts';
import type { PackagesChildResult } from '../lib/packages-child.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { describeMachine, fixed, machine, table, writeResults } from '../lib/report.ts';

/** The inline-only primary documents of the corpus (plus Apple's Q2 2025, which also ships its instance). */
const INLINE_FILES = [
  '104169/000010416925000021/wmt-20250131.htm',
  '1045810/000104581025000023/nvda-20250126.htm',
  '1318605/000162828025003063/tsla-20241231.htm',
  '320187/000032018725000047/nke-20250531.htm',
  '320193/000032019324000123/aapl-20240928.htm',
  '34088/unknown-10-Q-2025-06-30/xom-20250630.htm',
  '354950/000035495025000085/hd-20250202.htm',
  '731766/000073176625000063/unh-20241231.htm',
  '320193/000032019325000057/aapl-20250329.htm',
];
const ARCHIVES = 'www.sec.gov/Archives/edgar/data';
const CHUNK = 64 * 1024;

function mirrorDir(): string {
  const raw = process.env.SEC_SOURCE;
  if (raw && /^https?:/i.test(raw)) throw new Error('the packages bench needs a mirror directory in SEC_SOURCE, not the live site');
  return raw ? path.resolve(raw) : path.resolve(REPO_ROOT, '../shared/sec');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function chunked(bytes: Buffer): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) parts.push(bytes.subarray(i, i + CHUNK));
  return Readable.from(parts);
}

/** The baseline: tokenizing only. saxes skips building text it has no handler for, which is the point. */
async function bareParse(bytes: Buffer): Promise<void> {
  const parser = new SaxesParser(INLINE_SAX_OPTIONS);
  for await (const text of decodeXmlStream(chunked(bytes))) parser.write(text);
  parser.close();
}

interface FileTiming {
  file: string;
  bytes: number;
  facts: number;
  bare_s: number[];
  inline_s: number[];
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

async function runChild(files: string[]): Promise<PackagesChildResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/packages-child.ts', ...files], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = onCleanup('stop packages child', async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exit;
  });
  const code = await exit;
  await stop();
  const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  if (code !== 0 || !line) throw new Error(`packages child exited with code ${code}${line ? '' : ' without a result line'}`);
  return JSON.parse(line) as PackagesChildResult;
}

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) throw new Error(`packages: unknown argument(s) ${args.join(' ')} (none taken)`);
  const reps = Number(process.env.BENCH_PARSE_REPS || 5);
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`BENCH_PARSE_REPS must be a positive integer, got "${process.env.BENCH_PARSE_REPS}"`);
  const startedAt = new Date();
  const m = machine();
  const source = mirrorDir();
  console.log(`bench suite "packages" (${startedAt.toISOString()})`);
  console.log(describeMachine(m));
  console.log(`source: ${source}`);

  const paths = INLINE_FILES.map((f) => path.join(source, ARCHIVES, f));
  const files: Array<{ name: string; bytes: Buffer }> = [];
  for (const [i, p] of paths.entries()) files.push({ name: path.basename(INLINE_FILES[i]!), bytes: await readFile(p) });
  const totalBytes = files.reduce((n, f) => n + f.bytes.length, 0);
  console.log(`${files.length} inline documents, ${fixed(totalBytes / 1e6, 1)} MB; 1 warm-up pass, ${reps} timed passes`);

  const timings: FileTiming[] = files.map((f) => ({ file: f.name, bytes: f.bytes.length, facts: 0, bare_s: [], inline_s: [] }));
  for (let pass = 0; pass <= reps; pass++) {
    for (const [i, f] of files.entries()) {
      const bare = await time(() => bareParse(f.bytes));
      let facts = 0;
      const inline = await time(async () => (facts = (await parseInline(chunked(f.bytes))).facts.length));
      if (pass === 0) {
        timings[i]!.facts = facts;
        continue;
      }
      timings[i]!.bare_s.push(bare);
      timings[i]!.inline_s.push(inline);
    }
  }
  // a pass's MB/s is over all files together; the medians are over passes
  const passTotal = (pick: (t: FileTiming) => number[]) => Array.from({ length: reps }, (_, r) => timings.reduce((s, t) => s + pick(t)[r]!, 0));
  const mbps = (s: number) => totalBytes / 1e6 / s;
  const bareMbps = mbps(median(passTotal((t) => t.bare_s)));
  const inlineMbps = mbps(median(passTotal((t) => t.inline_s)));
  const ratio = inlineMbps / bareMbps;
  const facts = timings.reduce((n, t) => n + t.facts, 0);

  console.log('peak RSS: parseInline over every file, streamed from disk, in a child process');
  const child = await runChild(paths);
  const rssMib = child.max_rss_kib / 1024;
  const idleMib = child.idle_rss_kib / 1024;

  console.log('');
  console.log(
    table(
      [
        ['measure', 'value', 'note'],
        [`saxes, no handlers (median of ${reps})`, `${fixed(bareMbps, 1)} MB/s`, 'same parser options, same decoder'],
        [`parseInline (median of ${reps})`, `${fixed(inlineMbps, 1)} MB/s`, `${facts} facts`],
        ['parseInline / saxes', fixed(ratio, 3), ''],
        ['peak RSS (child)', `${fixed(rssMib, 0)} MiB`, `${fixed(idleMib, 0)} MiB before the first parse`],
        ['child run, from disk', `${fixed(child.elapsed_s, 2)} s`, `${child.files} files, ${child.facts} facts`],
      ],
      ['left', 'right', 'left'],
    ),
  );
  console.log('');
  console.log(
    table(
      [
        ['file', 'MB', 'facts', 'saxes MB/s', 'inline MB/s', 'ratio'],
        ...timings.map((t) => {
          const b = t.bytes / 1e6 / median(t.bare_s);
          const x = t.bytes / 1e6 / median(t.inline_s);
          return [t.file, fixed(t.bytes / 1e6, 2), String(t.facts), fixed(b, 1), fixed(x, 1), fixed(x / b, 3)];
        }),
      ],
      ['left', 'right', 'right', 'right', 'right', 'right'],
    ),
  );
  if (child.facts !== facts) console.log(`WARNING: the child read ${child.facts} facts, the timed runs ${facts}`);

  const file = writeResults(
    'packages',
    {
      suite: 'packages',
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      machine: m,
      source,
      reps,
      bytes: totalBytes,
      facts,
      baseline: { parser: 'saxes', options: INLINE_SAX_OPTIONS, mb_per_s_median: bareMbps },
      inline: { mb_per_s_median: inlineMbps },
      ratio: { inline_over_bare_saxes: ratio },
      peak_rss: { mib: rssMib, idle_mib: idleMib, child },
      files: timings,
    },
    startedAt,
  );
  console.log(`\nresults: ${file}`);
  return 0;
}
