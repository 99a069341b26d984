import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The code's shape, read from the source text (no database): version selection has one home, and
 * the typed database seam leaves no cast to make. docs/architecture.md states both rules.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** folders that are not TypeScript source: packages, the test suites, the SQL migrations */
const SKIP = new Set(['node_modules', 'test', 'migrations']);

/** Every .ts source file outside test/ (and the SQL migrations), paths relative to the root. */
function sources(dir = ROOT): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || SKIP.has(e.name)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(path));
    else if (e.name.endsWith('.ts')) out.push(relative(ROOT, path).split('\\').join('/'));
  }
  return out.sort();
}

/** The one module that may select statement versions by version_sequence. */
export const VERSION_SELECTION = 'db/statement-versions.ts';

/**
 * SQL that picks versions by their sequence: the latest of one statement (`version_sequence DESC
 * ... LIMIT 1`), the latest per period (`DISTINCT ON ... version_sequence DESC`), the highest
 * sequence (`max(version_sequence)`) and "a newer version exists" (`EXISTS (... version_sequence >
 * ... version_sequence)`).
 */
const SELECTION_SQL: readonly [string, RegExp][] = [
  ['latest of one statement', /version_sequence\s+DESC[^`;]{0,80}?\bLIMIT\s+1\b/i],
  ['latest per period', /DISTINCT\s+ON[^`;]{0,300}?version_sequence\s+DESC/i],
  ['highest sequence', /\bmax\s*\(\s*(?:\w+\.)?version_sequence\s*\)/i],
  ['a newer version exists', /EXISTS\s*\([^`;]{0,500}?version_sequence\s*>=?\s*(?:\w+\.)?version_sequence/i],
];

/** Where `src` selects versions by sequence, as `what` labels. */
export function versionSelections(src: string): string[] {
  return SELECTION_SQL.filter(([, re]) => re.test(src)).map(([what]) => what);
}

/** Casts that silence the type checker instead of typing a value. */
export function castsIn(src: string): number {
  return (src.match(/\bas\s+never\b/g)?.length ?? 0) + (src.match(/\bas\s+unknown\s+as\b/g)?.length ?? 0);
}

describe('the code shape', () => {
  const files = sources().map((f) => [f, readFileSync(join(ROOT, f), 'utf8')] as const);

  it('reads the source (the rules are checked against real files)', () => {
    assert.ok(files.length > 200, `only ${files.length} source files found`);
    assert.ok(files.some(([f]) => f === VERSION_SELECTION));
  });

  it(`selects statement versions by version_sequence only in ${VERSION_SELECTION} (compose its fragments elsewhere)`, () => {
    const found = files.filter(([f]) => f !== VERSION_SELECTION).flatMap(([f, src]) => versionSelections(src).map((what) => `${f}: ${what}`));
    assert.deepEqual(found, []);
    assert.deepEqual(versionSelections(files.find(([f]) => f === VERSION_SELECTION)![1]).sort(), ['a newer version exists', 'latest of one statement', 'latest per period', 'highest sequence'].sort());
  });

  it('needs no `as never` and no `as unknown as` outside test/ (the database seam is typed)', () => {
    const found = files.map(([f, src]) => [f, castsIn(src)] as const).filter(([, n]) => n > 0).map(([f, n]) => `${f}: ${n}`);
    assert.deepEqual(found, []);
  });

  it('recognises each kind of version selection and each cast when shown one', () => {
    assert.deepEqual(versionSelections('SELECT v.id FROM statement_versions v WHERE v.cik = $1 ORDER BY v.version_sequence DESC LIMIT 1'), ['latest of one statement']);
    assert.deepEqual(versionSelections('SELECT DISTINCT ON (v.cik, v.fiscal_year) v.* FROM statement_versions v ORDER BY v.cik, v.fiscal_year, v.version_sequence DESC'), ['latest per period']);
    assert.deepEqual(versionSelections('SELECT v.version_sequence = max(v.version_sequence) OVER (PARTITION BY v.cik) FROM statement_versions v'), ['highest sequence']);
    assert.deepEqual(versionSelections('NOT EXISTS (SELECT 1 FROM statement_versions n WHERE n.cik = v.cik AND n.version_sequence > v.version_sequence)'), ['a newer version exists']);
    assert.deepEqual(versionSelections('ORDER BY e.filing_date DESC, e.version_sequence DESC, e.id LIMIT ${page.limit}'), []);
    assert.equal(castsIn('const a = b as never; const c = d as unknown as Sql; const e = f as Sql;'), 2);
  });
});
