import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { buildOpenApi } from '../../../routes/openapi.ts';
import { pathParamNames, Router } from '../../../routes/router.ts';
import { defineTool, type HttpMethod, type ToolDefinition } from '../../../api/define-tool.ts';

function fixture(name: string, path: string, method: HttpMethod = 'GET'): ToolDefinition {
  const input: Record<string, z.ZodString> = {};
  for (const p of pathParamNames(path)) input[p] = z.string().describe(`the ${p}`);
  return defineTool({
    name,
    title: name,
    description: `fixture ${name}`,
    http: { method, path },
    tool: false,
    plan: 'free',
    input: z.object(input),
    output: z.object({}),
    handler: async () => ({}),
  });
}

const FILE = fixture('bulk.file', '/v1/bulk/snapshots/{snapshot_id}/files/{file_path+}');
const MANIFEST = fixture('bulk.manifest', '/v1/bulk/snapshots/{snapshot_id}/files/manifest.json');
const SNAPSHOT = fixture('bulk.snapshot', '/v1/bulk/snapshots/{snapshot_id}');
const LATEST = fixture('bulk.latest', '/v1/bulk/snapshots/latest');
const ANY = fixture('bulk.any', '/v1/bulk/snapshots/{snapshot_id}/{rest+}');
const router = new Router([FILE, MANIFEST, SNAPSHOT, LATEST, ANY]);

function found(method: string, path: string): { def: ToolDefinition; params: Record<string, string> } {
  const m = router.match(method, path);
  assert.equal(m.kind, 'found', `${method} ${path}: ${JSON.stringify(m)}`);
  return m as { kind: 'found'; def: ToolDefinition; params: Record<string, string> };
}

function badPath(path: string): string {
  const m = router.match('GET', path);
  assert.equal(m.kind, 'bad_path', `${path}: ${JSON.stringify(m)}`);
  return (m as { message: string }).message;
}

describe('router rest parameters', () => {
  it('names rest parameters without the +', () => {
    assert.deepEqual(pathParamNames(FILE.http.path), ['snapshot_id', 'file_path']);
  });

  it('takes one or more remaining segments joined with /', () => {
    assert.deepEqual(found('GET', '/v1/bulk/snapshots/S/files/a.parquet').params, { snapshot_id: 'S', file_path: 'a.parquet' });
    const deep = found('GET', '/v1/bulk/snapshots/S/files/financials/fiscal_year_2023/part-0000.parquet');
    assert.equal(deep.def, FILE);
    assert.deepEqual(deep.params, { snapshot_id: 'S', file_path: 'financials/fiscal_year_2023/part-0000.parquet' });
  });

  it('percent-decodes each segment', () => {
    assert.equal(found('GET', '/v1/bulk/snapshots/S/files/fiscal%20year/a%3Db.parquet').params.file_path, 'fiscal year/a=b.parquet');
  });

  it('needs at least one non-empty segment', () => {
    assert.equal(found('GET', '/v1/bulk/snapshots/S/files').def, ANY, 'no rest segment left for {file_path+}: the broader route takes it');
    assert.equal(router.match('GET', '/v1/bulk/snapshots/S/files/').kind, 'none');
    assert.equal(router.match('GET', '/v1/bulk/snapshots/S/files/a//b').kind, 'none');
    assert.equal(router.match('GET', '/v1/bulk/snapshots/S/files/a/').kind, 'none');
  });

  it('refuses traversal and separators hidden in a segment', () => {
    for (const p of ['..', '.', '%2e%2e', '%2E', 'a/../b', 'a%2Fb', 'a%2fb', 'a%5Cb', '..%5C..', 'a%00b']) {
      assert.match(badPath(`/v1/bulk/snapshots/S/files/${p}`), /not allowed/, p);
    }
    assert.match(badPath('/v1/bulk/snapshots/S/files/a/%E0%A4%A'), /percent-encoding/);
  });

  it('allows dots inside a segment', () => {
    assert.equal(found('GET', '/v1/bulk/snapshots/S/files/a..b/.c/d.').params.file_path, 'a..b/.c/d.');
  });

  it('ranks literals first and a rest parameter after a single parameter', () => {
    assert.equal(found('GET', '/v1/bulk/snapshots/latest').def, LATEST);
    assert.equal(found('GET', '/v1/bulk/snapshots/S').def, SNAPSHOT);
    assert.equal(found('GET', '/v1/bulk/snapshots/S/files/manifest.json').def, MANIFEST);
    assert.equal(found('GET', '/v1/bulk/snapshots/S/files/manifest.json/x').def, FILE);
    assert.equal(found('GET', '/v1/bulk/snapshots/S/other/x').def, ANY);
  });

  it('answers HEAD and reports other methods as not allowed', () => {
    assert.equal(found('HEAD', '/v1/bulk/snapshots/S/files/a/b').def, FILE);
    assert.deepEqual(router.match('POST', '/v1/bulk/snapshots/S/files/a/b'), { kind: 'method_not_allowed', allow: ['GET'] });
  });

  it('refuses two definitions on the same route shape and a rest parameter that is not last', () => {
    assert.throws(() => new Router([FILE, fixture('dup', '/v1/bulk/snapshots/{id}/files/{path+}')]), /two definitions claim/);
    assert.doesNotThrow(() => new Router([fixture('one', '/v1/x/{id}'), fixture('rest', '/v1/x/{id+}')]));
    assert.doesNotThrow(() => new Router([fixture('get', '/v1/x/{id+}'), fixture('post', '/v1/x/{id+}', 'POST')]));
    assert.throws(() => new Router([fixture('mid', '/v1/x/{path+}/y')]), /must be the last segment/);
  });

  it('shows the rest parameter in OpenAPI as a plain path parameter that may contain /', () => {
    const doc = buildOpenApi([FILE], { name: 't', title: 't', version: '0' }) as { paths: Record<string, any> };
    assert.deepEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/v1')), ['/v1/bulk/snapshots/{snapshot_id}/files/{file_path}']);
    const params = doc.paths['/v1/bulk/snapshots/{snapshot_id}/files/{file_path}'].get.parameters as { name: string; in: string; description: string }[];
    const filePath = params.find((p) => p.name === 'file_path');
    assert.equal(filePath?.in, 'path');
    assert.match(filePath?.description ?? '', /^the file_path\. May contain '\/'/);
    assert.doesNotMatch(params.find((p) => p.name === 'snapshot_id')?.description ?? '', /May contain/);
  });
});
