/**
 * `node --import tsx bench/mix-answers.ts <base-url> <api-key> <out-dir> [count]`: asks a running
 * server `count` reads of the `mix` suite's random mix (default 600, its own fixed seed) on both
 * surfaces and writes each answer's status and body to <out-dir>/answers.jsonl, one line per read,
 * in order. Two servers' files (before and after a change to the read path) compare with `cmp`:
 * a read answered differently is a changed answer.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mixReads, toolCallBody } from './lib/mix-requests.ts';

const [baseUrl, apiKey, outDir, countArg] = process.argv.slice(2);
if (!baseUrl || !apiKey || !outDir) {
  console.error('usage: node --import tsx bench/mix-answers.ts <base-url> <api-key> <out-dir> [count]');
  process.exit(2);
}
/** an error carries its request's trace id: the one part of an answer that differs between two asks */
const untraced = (text: string) => text.replace(/(\\?"trace_id\\?":\\?")[0-9a-f]{32}/g, '$1-');
const count = Number(countArg ?? 600);
const lines: string[] = [];
for (const r of mixReads(count, 7_771)) {
  const http = await fetch(baseUrl + r.path, { headers: { 'x-api-key': apiKey } });
  lines.push(JSON.stringify({ surface: 'http', read: r.path, status: http.status, body: untraced(await http.text()) }));
  const mcp = await fetch(baseUrl + '/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: toolCallBody(r) });
  lines.push(JSON.stringify({ surface: 'mcp', read: r.tool, status: mcp.status, body: untraced(await mcp.text()) }));
}
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, 'answers.jsonl'), lines.join('\n') + '\n');
console.log(`${lines.length} answers written to ${path.join(outDir, 'answers.jsonl')}`);
