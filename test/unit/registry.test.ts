import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PLANS } from '../../domain/plans.ts';
import { pathParamNames, Router } from '../../routes/router.ts';
import { ALL_TOOLS } from '../../tools/index.ts';
import { toolName } from '../../api/define-tool.ts';
import { schemasOf, toolSchemasOf } from '../../api/json-schema.ts';
import { buildOpenApi } from '../../routes/openapi.ts';
import { SERVER_INFO } from '../../service.ts';
import { checkSnapshots } from '../helpers/snapshots.ts';

/**
 * The spec's tool table: the names and plans of its 19 tools. A definition marked listedAs 'spec'
 * is one of them; every other tool is marked 'extension' (a route the tool server also lists).
 */
const SPEC_TOOLS: Record<string, string> = {
  companies_resolve: 'free',
  filings_list: 'free',
  statements_normalized: 'free',
  provenance_as_of: 'free',
  financials_get_as_of_snapshot: 'free',
  dq_anomalies: 'free',
  system_health: 'free',
  system_metadata: 'free',
  modeling_periods: 'growth',
  modeling_ttm: 'growth',
  modeling_growth: 'growth',
  modeling_ratios: 'growth',
  modeling_valuation_inputs: 'growth',
  reconciliation_summary: 'growth',
  reconciliation_ledger: 'growth',
  ai_narratives: 'growth',
  ai_peers: 'scale',
  ai_anomalies_explanations: 'scale',
  ai_embeddings_metadata: 'scale',
};

describe('the tool registry', () => {
  const tools = ALL_TOOLS.filter((t) => t.tool);

  it('lists the spec tool table with 19 names', () => {
    assert.equal(Object.keys(SPEC_TOOLS).length, 19);
  });

  it('registers the three foundation tools under their spec names and plans', () => {
    for (const name of ['companies_resolve', 'system_health', 'system_metadata']) {
      const def = tools.find((t) => toolName(t) === name);
      assert.ok(def, `${name} is registered`);
      assert.equal(def.plan, SPEC_TOOLS[name]);
    }
  });

  it('lists every tool as a spec tool (under its spec name and plan) or an extension (under a name outside the spec table)', () => {
    for (const def of tools) {
      const name = toolName(def);
      assert.equal(name, def.name.replaceAll('.', '_'), 'a tool is named after its route method, "_" for each "."');
      assert.ok(def.listedAs === 'spec' || def.listedAs === 'extension', `${name} says where it comes from (listedAs)`);
      if (def.listedAs === 'spec') assert.equal(def.plan, SPEC_TOOLS[name], `${name} is in the spec tool table with this plan`);
      else assert.ok(!(name in SPEC_TOOLS), `${name} is an extension under a spec tool's name`);
    }
    for (const def of ALL_TOOLS.filter((d) => !d.tool)) assert.equal(def.listedAs, undefined, `${def.name} is not a tool`);
  });

  it('lists every tool of the spec table, marked spec', () => {
    const spec = new Set(tools.filter((t) => t.listedAs === 'spec').map(toolName));
    assert.deepEqual([...spec].sort(), Object.keys(SPEC_TOOLS).sort());
  });

  it('gives every definition a dotted name, a title, an agent-facing description and a known plan', () => {
    const names = new Set<string>();
    for (const def of ALL_TOOLS) {
      assert.match(def.name, /^[a-z_]+(\.[a-z_]+)+$/, def.name);
      assert.ok(!names.has(def.name), `duplicate name ${def.name}`);
      names.add(def.name);
      assert.ok(def.title.length > 3, `${def.name} title`);
      assert.ok(def.description.length >= 40, `${def.name} description is too thin for an agent`);
      assert.ok((PLANS as readonly string[]).includes(def.plan), `${def.name} plan`);
    }
  });

  it('has no top-level anyOf or oneOf in any input schema, and every input schema is an object', () => {
    for (const def of ALL_TOOLS) {
      const s = schemasOf(def).input;
      assert.equal(s.type, 'object', def.name);
      assert.ok(!('anyOf' in s) && !('oneOf' in s) && !('allOf' in s), `${def.name} has a top-level union`);
    }
  });

  it('bounds every array parameter with maxItems (an unbounded list of 65,535 form types passed postgres.js its parameter limit: a 500)', () => {
    const unbounded: string[] = [];
    const walk = (where: string, node: Record<string, any>) => {
      for (const branch of node.anyOf ?? []) walk(where, branch);
      if (node.type === 'array') {
        if (typeof node.maxItems !== 'number') unbounded.push(where);
        walk(`${where}[]`, node.items ?? {});
      }
      for (const [name, prop] of Object.entries(node.properties ?? {})) walk(`${where}.${name}`, prop as Record<string, any>);
    };
    for (const def of ALL_TOOLS) walk(def.name, schemasOf(def).input);
    assert.deepEqual(unbounded, []);
  });

  it('declares every path parameter in the input schema', () => {
    for (const def of ALL_TOOLS) {
      const props = Object.keys(def.input.shape);
      for (const p of pathParamNames(def.http.path)) assert.ok(props.includes(p), `${def.name}: {${p}} not in input`);
    }
  });

  it('gives every tool an object output schema so structuredContent can be validated', () => {
    for (const def of tools) assert.equal(schemasOf(def).output.type, 'object', def.name);
  });

  it('mounts no two definitions on the same method and path', () => {
    assert.doesNotThrow(() => new Router(ALL_TOOLS));
    assert.throws(() => new Router([...ALL_TOOLS, ALL_TOOLS[0]!]), /two definitions claim/);
  });

  it('matches the committed tools/list schema snapshots (UPDATE_SNAPSHOTS=1 refreshes them)', () => {
    const files = new Map<string, unknown>();
    for (const def of tools) {
      const name = toolName(def);
      const s = toolSchemasOf(def);
      files.set(`${name}.json`, { name, title: def.title, description: def.description, plan: def.plan, annotations: def.annotations, inputSchema: s.input, outputSchema: s.output });
    }
    checkSnapshots('tools', files);
  });

  it('matches the committed snapshot of every definition, routes and tools alike (UPDATE_SNAPSHOTS=1 refreshes them)', () => {
    const files = new Map<string, unknown>();
    for (const def of ALL_TOOLS) {
      const s = schemasOf(def);
      files.set(`${def.name}.json`, {
        name: def.name,
        title: def.title,
        description: def.description,
        http: def.http,
        tool: def.tool,
        plan: def.plan,
        auth: def.auth,
        requestClass: def.requestClass,
        servesWhileLoading: def.servesWhileLoading ?? false,
        annotations: def.annotations,
        inputSchema: s.input,
        outputSchema: s.output,
      });
    }
    checkSnapshots('routes', files);
  });

  it('matches the committed OpenAPI document snapshot (UPDATE_SNAPSHOTS=1 refreshes it)', () => {
    checkSnapshots('openapi', new Map([['openapi.json', buildOpenApi(ALL_TOOLS, SERVER_INFO)]]));
  });
});
