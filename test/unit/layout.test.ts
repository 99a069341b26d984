import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The import rules of docs/architecture.md, enforced on every .ts file of the repository: each folder
 * ("room") may import only the rooms its rule names, an area never imports another area, and no
 * two rooms import each other (directly or round a longer cycle). A new area folder gets the area
 * rule by itself; a new top-level folder fails here until it is given a rule. A read in db/ that
 * only one area uses belongs in that area's slice.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIP = new Set(['node_modules', '.git', '.data', 'test', 'bench']);

/** Rooms whose imports are not restricted: the test suites, the benchmarks and the composition root (cli.ts, service.ts, config.ts). */
const FREE = new Set(['test', 'bench', '(root)']);

/**
 * What each room may import besides itself. `tools/*` stands for every area folder. `config` is
 * config.ts, the environment read once (it imports nothing of ours); pure domain/ never reads it.
 */
const RULES: Record<string, readonly string[]> = {
  config: [],
  domain: [],
  db: ['domain', 'config'],
  api: ['domain', 'db', 'config'],
  'tools/*': ['domain', 'db', 'api'],
  // the registry: the one module that lists every area
  'tools/index.ts': ['tools/*', 'api'],
  ingest: ['domain', 'db', 'config'],
  export: ['domain', 'db', 'config'],
  jobs: ['domain', 'db', 'export', 'ingest', 'config'],
  routes: ['domain', 'api', 'manifest', 'tools/index.ts', 'config'],
  manifest: ['domain', 'api', 'tools/index.ts'],
};

/** The room a repository path belongs to: `tools/<area>` for an area, `tools/index.ts` for the registry, else the top folder. */
export function roomOf(path: string): string {
  const parts = path.split('/');
  if (path === 'config.ts') return 'config';
  if (parts.length === 1) return '(root)';
  if (parts[0] === 'tools') return `tools/${parts[1]}`;
  return parts[0]!;
}

function ruleOf(room: string): readonly string[] | undefined {
  if (room === 'tools/index.ts') return RULES['tools/index.ts'];
  if (room.startsWith('tools/')) return RULES['tools/*'];
  return RULES[room];
}

function allowed(from: string, to: string): boolean {
  if (from === to || FREE.has(from)) return true;
  const rule = ruleOf(from);
  if (!rule) return false;
  return rule.some((r) => r === to || (r === 'tools/*' && to.startsWith('tools/') && to !== 'tools/index.ts'));
}

function sourceFiles(dir = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith('.')) continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...sourceFiles(rel));
    else if (e.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** Relative module specifiers of a file: static imports, re-exports and dynamic import() calls. */
export function importsOf(src: string): string[] {
  const specs = [
    ...src.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s*['"]([^'"]+)['"]/gms),
    ...src.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...src.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs.filter((s) => s.startsWith('.'));
}

interface Edge {
  file: string;
  target: string;
  from: string;
  to: string;
}

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of sourceFiles()) {
    const src = readFileSync(join(ROOT, file), 'utf8');
    for (const spec of importsOf(src)) {
      const target = relative(ROOT, normalize(join(ROOT, dirname(file), spec))).split('\\').join('/');
      const room = (p: string) => (p === 'tools/index.ts' ? 'tools/index.ts' : roomOf(p));
      out.push({ file, target, from: room(file), to: room(target) });
    }
  }
  return out;
}

/** Every cycle among rooms (strongly connected components of more than one room). */
export function roomCycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}


/** A statement that changes the database: a function whose body holds one is a writer, not a read. */
const WRITES = /\b(INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|COPY\s+\w+|add_job|copyRows|pg_advisory)/;

/** The exported functions of a module with their bodies (up to the next top-level declaration). */
export function exportedFunctions(src: string): { name: string; body: string }[] {
  const starts = [...src.matchAll(/^(?:export\s+)?(?:async\s+)?(?:function|const|let|interface|type|class)\s+([\w$]+)/gm)];
  const out: { name: string; body: string }[] = [];
  starts.forEach((m, i) => {
    if (!/^export\s+(?:async\s+)?function\s/.test(m[0])) return;
    out.push({ name: m[1]!, body: src.slice(m.index!, starts[i + 1]?.index ?? src.length) });
  });
  return out;
}

/** Value names a file imports from each module (type-only imports left out), by target path. */
function valueImports(file: string, src: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of src.matchAll(/^\s*import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gms)) {
    if (m[1] || !m[3]!.startsWith('.')) continue;
    const target = relative(ROOT, normalize(join(ROOT, dirname(file), m[3]!))).split('\\').join('/');
    const names = m[2]!.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]!.trim());
    out.set(target, [...(out.get(target) ?? []), ...names]);
  }
  return out;
}

/**
 * Reads in db/ that belong in a slice: an exported db/ function that writes nothing, is not used
 * inside db/ (its own module included), and whose only users outside test/ and bench/ are the
 * files of one tools/ area. db/statement-versions.ts, the one home of version selection, is exempt.
 */
export function misplacedReads(files: ReadonlyMap<string, string>): string[] {
  const users = new Map<string, Set<string>>();
  for (const [file, src] of files) {
    const room = roomOf(file);
    if (FREE.has(room)) continue;
    for (const [target, names] of valueImports(file, src)) {
      if (!target.startsWith('db/')) continue;
      for (const n of names) {
        const key = `${target}#${n}`;
        if (!users.has(key)) users.set(key, new Set());
        users.get(key)!.add(room);
      }
    }
  }
  const out: string[] = [];
  for (const [file, src] of files) {
    // version selection has one home whoever uses each rule (test/unit/code-shape.test.ts)
    if (roomOf(file) !== 'db' || file === 'db/statement-versions.ts') continue;
    const fns = exportedFunctions(src);
    // a function that calls a writer of its own module writes too
    const writers = new Set(fns.filter((f) => WRITES.test(f.body)).map((f) => f.name));
    const writes = (body: string) => WRITES.test(body) || [...writers].some((w) => new RegExp(`\\b${w}\\(`).test(body));
    for (const f of fns) {
      const rooms = [...(users.get(`${file}#${f.name}`) ?? [])];
      const usedHere = src.split(new RegExp(`(?<![\\w$])${f.name}(?![\\w$])`)).length > 2;
      if (rooms.length === 1 && rooms[0]!.startsWith('tools/') && !usedHere && !writes(f.body)) out.push(`${file}: ${f.name} is read only by ${rooms[0]}, move it to ${rooms[0]}/queries.ts`);
    }
  }
  return out.sort();
}

describe('the layout', () => {
  const all = edges();

  it('finds the imports of the repository (the rules are checked against real edges)', () => {
    assert.ok(all.length > 300, `only ${all.length} imports found`);
    assert.ok(all.some((e) => e.from.startsWith('tools/') && e.to === 'api'));
  });

  it('gives every folder a rule: a new top-level folder must be added to RULES in test/unit/layout.test.ts', () => {
    const rooms = new Set(all.map((e) => e.from).filter((r) => !FREE.has(r)));
    const missing = [...rooms].filter((r) => !ruleOf(r)).sort();
    assert.deepEqual(missing, [], 'folders without an import rule (add one, following docs/architecture.md)');
  });

  it('lets each folder import only what docs/architecture.md allows (domain only domain; db: domain; api: domain, db; an area: domain, db, api, never another area)', () => {
    const broken = all.filter((e) => !allowed(e.from, e.to)).map((e) => `${e.file} imports ${e.target} (${e.from} may import ${(ruleOf(e.from) ?? []).join(', ') || 'only itself'})`);
    assert.deepEqual(broken, []);
  });

  it('has no folder-level import cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of all) {
      if (e.from === e.to || FREE.has(e.from)) continue;
      if (!graph.has(e.from)) graph.set(e.from, new Set());
      graph.get(e.from)!.add(e.to);
    }
    assert.deepEqual(roomCycles(graph), []);
  });

  it('keeps every read that one area uses in that area\'s slice, not in db/', () => {
    const files = new Map(sourceFiles().map((f) => [f, readFileSync(join(ROOT, f), 'utf8')] as const));
    assert.deepEqual(misplacedReads(files), []);
  });

  it('detects a cycle and a forbidden import when shown one', () => {
    assert.deepEqual(roomCycles(new Map([['db', new Set(['export'])], ['export', new Set(['db'])]])), [['db', 'export']]);
    assert.deepEqual(roomCycles(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])]])), [['a', 'b', 'c']]);
    assert.equal(allowed('tools/filings', 'tools/statements'), false);
    assert.equal(allowed('tools/modeling', 'api'), true);
    assert.equal(allowed('domain', 'db'), false);
    assert.equal(allowed('jobs', 'ingest'), true);
    assert.equal(allowed('jobs', 'api'), false);
    const shown = new Map([
      ['db/reads.ts', "export async function onlyMacro(sql) {\n  return sql`SELECT 1`;\n}\nexport async function write(sql) {\n  await sql`INSERT INTO t VALUES (1)`;\n}\nexport async function shared(sql) {\n  return sql`SELECT 2`;\n}\n"],
      ['tools/macro/tools.ts', "import { onlyMacro, write, shared } from '../../db/reads.ts';\n"],
      ['ingest/load.ts', "import { shared } from '../db/reads.ts';\n"],
    ]);
    assert.deepEqual(misplacedReads(shown), ['db/reads.ts: onlyMacro is read only by tools/macro, move it to tools/macro/queries.ts']);
    assert.deepEqual(importsOf("import { a } from '../db/x.ts';\nexport * from './y.ts';\nconst m = await import('../export/z.ts');\nimport 'zod';"), ['../db/x.ts', './y.ts', '../export/z.ts']);
  });
});
