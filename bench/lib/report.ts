import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchDir, fileTimestamp, REPO_ROOT } from './paths.ts';

export interface Machine {
  cpus: number;
  cpu_model: string;
  node: string;
  platform: string;
  arch: string;
  memory_gib: number;
  hostname: string;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    arch: process.arch,
    memory_gib: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    hostname: os.hostname(),
  };
}

export function describeMachine(m: Machine): string {
  return `machine: ${m.cpus} CPUs (${m.cpu_model}), ${m.memory_gib} GiB RAM, node ${m.node}, ${m.platform} ${m.arch}`;
}

export type Align = 'left' | 'right';

/** A plain-text table: first row is the header. */
export function table(rows: string[][], align: Align[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const fmt = (row: string[]) =>
    row.map((cell, i) => ((align[i] ?? 'left') === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  const [head, ...body] = rows;
  const lines = head ? [fmt(head), widths.map((w) => '-'.repeat(w)).join('  ')] : [];
  for (const row of body) lines.push(fmt(row));
  return lines.join('\n');
}

export function fixed(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

/** Writes `.bench/<suite>-<timestamp>.json` and returns its path relative to the repository. */
export function writeResults(suite: string, data: unknown, at: Date = new Date()): string {
  const dir = ensureBenchDir();
  const file = path.join(dir, `${suite}-${fileTimestamp(at)}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
  return path.relative(REPO_ROOT, file);
}
