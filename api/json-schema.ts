import { z } from 'zod';
import type { ToolDefinition } from './define-tool.ts';

type Json = Record<string, unknown>;

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/** Drop what only adds noise for agents: the dialect marker and the safe-integer bounds zod adds. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$schema') continue;
    if ((k === 'maximum' && v === SAFE_INT) || (k === 'minimum' && v === -SAFE_INT)) continue;
    out[k] = tidy(v);
  }
  return out;
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

/** Computed once per definition: tools/list, the manifest and OpenAPI all read the same objects. */
export function schemasOf(def: ToolDefinition): ToolSchemas {
  let s = cache.get(def);
  if (!s) {
    s = { input: inputJsonSchema(def.input), output: outputJsonSchema(def.output) };
    cache.set(def, s);
  }
  return s;
}
