/**
 * `npm run docs`: rewrites the generated blocks of the documentation from the registry (the README's
 * tool table, the route table of docs/interface.md). `npm run docs -- --check` writes nothing and
 * exits 1 when a block is stale, as test/docs.test.ts does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_TOOLS } from '../tools/index.ts';
import { isCurrent, refreshed, REGISTRY_BLOCKS } from './docs.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const check = process.argv.includes('--check');
let stale = 0;
for (const block of REGISTRY_BLOCKS) {
  const file = ROOT + block.file;
  const text = readFileSync(file, 'utf8');
  if (isCurrent(text, block, ALL_TOOLS)) {
    console.log(`${block.file}: ${block.name} is current`);
    continue;
  }
  stale++;
  if (check) console.log(`${block.file}: ${block.name} is stale (run npm run docs)`);
  else {
    writeFileSync(file, refreshed(text, block, ALL_TOOLS));
    console.log(`${block.file}: ${block.name} rewritten from tools/index.ts`);
  }
}
process.exitCode = check && stale > 0 ? 1 : 0;
