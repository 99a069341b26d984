import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ALL_TOOLS } from '../../tools/index.ts';
import { toolName } from '../../api/define-tool.ts';
import { readBlock, replaceBlock } from '../../manifest/doc-blocks.ts';
import { REGISTRY_BLOCKS, toolTable } from '../../manifest/docs.ts';
import { BLOCK, mergeRows, parseTable, renderTable, TABLE_SUITES, type PerfRow } from '../../bench/lib/perf-table.ts';

/**
 * The documents stay true without a database: the generated tables equal what the registry gives
 * (refresh with `npm run docs`), every setting the code reads is documented, the performance table
 * is the bench's, and no document tells how the code was built.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(ROOT + file, 'utf8');
const DOCS = readdirSync(ROOT + 'docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const DOCUMENTS = ['README.md', 'export/README.md', ...DOCS];

describe('the documentation', () => {
  for (const block of REGISTRY_BLOCKS) {
    it(`has the current ${block.name} in ${block.file}, as generated from the code (stale: run npm run docs and commit it)`, () => {
      assert.equal(readBlock(read(block.file), block.name), block.render(ALL_TOOLS), `${block.file} ${block.name} is stale: run npm run docs`);
    });
  }

  it('lists every tool of the tool server in the README, once, and nothing else', () => {
    const listed = [...readBlock(read('README.md'), 'tool-table').matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(listed, ALL_TOOLS.filter((d) => d.tool).map(toolName));
  });

  it('notices a stale generated block (a table missing one tool differs from the registry)', () => {
    const readme = read('README.md');
    const stale = replaceBlock(readme, 'tool-table', toolTable(ALL_TOOLS.filter((d) => d.tool).slice(1)));
    assert.notEqual(readBlock(stale, 'tool-table'), toolTable(ALL_TOOLS));
  });

  it('keeps the README at most 300 lines, its first lines giving the install-and-run and test commands', () => {
    const readme = read('README.md');
    assert.ok(readme.split('\n').length <= 300, `README.md has ${readme.split('\n').length} lines`);
    const head = readme.split('\n').slice(0, 8).join('\n');
    assert.match(head, /npm ci && npm start/);
    assert.match(head, /npm test/);
    const scripts = JSON.parse(read('package.json')).scripts;
    assert.ok(scripts.start && scripts.test && scripts.docs && scripts.bench);
  });

  it('links every page of docs/ from the README', () => {
    const readme = read('README.md');
    const unlinked = DOCS.filter((d) => !readme.includes(`](${d})`));
    assert.deepEqual(unlinked, []);
  });

  it('documents every environment variable the service reads, in docs/configuration.md', () => {
    const names = new Set<string>();
    const sources = ['config.ts', 'service.ts', 'api/versions.ts'];
    for (const file of sources) {
      const src = read(file);
      for (const m of src.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(m[1]!);
      for (const m of src.matchAll(/\b(?:intFrom|flag)\(env, '([A-Z][A-Z0-9_]+)'/g)) names.add(m[1]!);
    }
    assert.ok(names.size >= 30, `found only ${names.size} variables: the patterns no longer match config.ts`);
    const doc = read('docs/configuration.md');
    const missing = [...names].filter((n) => !doc.includes(`\`${n}\``)).sort();
    assert.deepEqual(missing, [], 'variables read by the code but not in docs/configuration.md');
  });

  it("holds the bench's one performance table in docs/performance.md, with rows of every suite it covers", () => {
    const rows = parseTable(readBlock(read('docs/performance.md'), BLOCK));
    assert.ok(rows.length > 0);
    assert.deepEqual([...new Set(rows.map((r) => r.suite))], TABLE_SUITES.filter((s) => rows.some((r) => r.suite === s)));
    assert.deepEqual(TABLE_SUITES.filter((s) => !rows.some((r) => r.suite === s)), [], 'suites with no row: run npm run bench -- --docs <suite>');
    assert.equal(renderTable(rows), readBlock(read('docs/performance.md'), BLOCK), 'the table is not as the bench writes it (edited by hand?)');
  });

  it("replaces only the refreshed suites' rows of the performance table, keeping the others and the suite order", () => {
    const r = (suite: string, measure: string, value: string): PerfRow => ({ suite, measure, value, goal: '', result: '', run: '2026-01-01, 2 CPUs, load 1.0' });
    const before = [r('reads', 'p50', '1 ms'), r('ingest', 'ratio', '0.06'), r('export', 'ratio', '0.28')];
    const after = mergeRows(before, [r('export', 'ratio', '0.30'), r('reads', 'p50 | p99', '2 ms')]);
    assert.deepEqual(after.map((x) => [x.suite, x.value]), [['reads', '2 ms'], ['ingest', '0.06'], ['export', '0.30']]);
    assert.deepEqual(parseTable(renderTable(after)), after, 'a rendered table reads back as the same rows, pipes included');
  });

  it('tells no history: no session numbers, issue numbers or commit hashes in any document', () => {
    const ORDINAL = '(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|\\d+(?:st|nd|rd|th))';
    const patterns = [new RegExp(`\\b${ORDINAL}\\s+session`, 'i'), /\bthis session\b/i, /\bsessions?\s+\d+/i, /\bissue\s*#?\d+/i, /`(?=[0-9]*[a-f])[0-9a-f]{7,40}`/];
    const found: string[] = [];
    for (const file of DOCUMENTS) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const p of patterns) if (p.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
        });
    }
    assert.deepEqual(found, []);
  });
});
