import { z } from 'zod';
import type { ToolDefinition } from './define-tool.ts';

type Json = Record<string, unknown>;

const SAFE_INT = Number.MAX_SAFE_INTEGER;

function isEmptySchema(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

/** Keywords that annotate a schema rather than constrain it: they stay beside an anyOf. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * `type: ["string", "null"]` (what z.toJSONSchema writes for a plain nullable) as anyOf branches
 * with one type each: the array form is legal JSON Schema, but several MCP clients read `type` as
 * one string and reject the tool or drop the constraint (the Inspector's type-union warning).
 * The branches keep every constraint, so the schema says exactly what it said before.
 */
function splitTypeArray(node: Json): Json {
  const types = node.type as string[];
  const outer: Json = {};
  const constraints: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'type') continue;
    (ANNOTATIONS.has(k) ? outer : constraints)[k] = v;
  }
  const branches = types.map((t) => {
    if (t === 'null') return { type: 'null' };
    const branch: Json = { type: t, ...constraints };
    if (Array.isArray(branch.enum)) branch.enum = branch.enum.filter((e) => e !== null);
    return branch;
  });
  return branches.length === 1 ? { ...branches[0], ...outer } : { anyOf: branches, ...outer };
}

/**
 * Drop what only adds noise for agents (the dialect marker, the safe-integer bounds and the uuid
 * pattern zod adds) and write nullable types portably (see splitTypeArray).
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$schema') continue;
    if ((k === 'maximum' && v === SAFE_INT) || (k === 'minimum' && v === -SAFE_INT)) continue;
    // zod spells `format: uuid` out again as a 200-character pattern; the format says it.
    if (k === 'pattern' && (node as Json).format === 'uuid') continue;
    // A free-form map's values: say "any value" as `true`, not as a schema without a keyword.
    if (k === 'additionalProperties' && isEmptySchema(v)) {
      out[k] = true;
      continue;
    }
    out[k] = tidy(v);
  }
  return Array.isArray(out.type) ? splitTypeArray(out) : out;
}

/** Input schemas describe what a caller sends (before transforms such as CIK padding). */
export function inputJsonSchema(schema: z.ZodType): Json {
  return tidy(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as Json;
}

/** Output schemas describe what the service returns. */
export function outputJsonSchema(schema: z.ZodType): Json {
  return tidy(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' })) as Json;
}

export interface ToolSchemas {
  input: Json;
  output: Json;
}

const cache = new WeakMap<ToolDefinition, ToolSchemas>();
const toolCache = new WeakMap<ToolDefinition, ToolSchemas>();

/**
 * Items per page a tool call gets when it names no page_size. HTTP keeps its default of 50; on
 * the tool server every page is read by a model, and 20 items of the widest list (a panel with
 * every metric, restatement events with their revisions) stay around 20 KB of text.
 */
export const TOOL_PAGE_SIZE = 20;

/** A definition's page_size default on the tool server, or null when it takes no page_size. */
export function toolPageSize(def: ToolDefinition): number | null {
  return 'page_size' in def.input.shape ? TOOL_PAGE_SIZE : null;
}

/** The schemas tools/list and the tool manifest show: the route's, with the tool server's page_size default. */
export function toolSchemasOf(def: ToolDefinition): ToolSchemas {
  let s = toolCache.get(def);
  if (!s) {
    const base = schemasOf(def);
    const props = base.input.properties as Record<string, Json> | undefined;
    const pageSize = props?.page_size;
    s = !pageSize || toolPageSize(def) === null
      ? base
      : {
          input: {
            ...base.input,
            properties: {
              ...props,
              page_size: { ...pageSize, default: TOOL_PAGE_SIZE, description: `items per page, default ${TOOL_PAGE_SIZE} on the tool server, at most ${String(pageSize.maximum)}` },
            },
          },
          output: base.output,
        };
    toolCache.set(def, s);
  }
  return s;
}

/** Computed once per definition: tools/list, the manifest and OpenAPI all read the same objects. */
export function schemasOf(def: ToolDefinition): ToolSchemas {
  let s = cache.get(def);
  if (!s) {
    s = { input: inputJsonSchema(def.input), output: outputJsonSchema(def.output) };
    cache.set(def, s);
  }
  return s;
}
