import type { z } from 'zod';
import { ServiceError } from '../domain/service-error.ts';

type Kind = 'array' | 'boolean' | 'number' | 'other';

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The type a query string must be turned into, read from the field's zod schema. */
function kindOf(schema: z.ZodType): { kind: Kind; element?: Kind } {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return kindOf(def.innerType!);
    case 'pipe':
      return kindOf(def.in!);
    case 'array':
      return { kind: 'array', element: kindOf(def.element!).kind };
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
    case 'int':
      return { kind: 'number' };
    default:
      return { kind: 'other' };
  }
}

function coerce(value: string, kind: Kind | undefined): unknown {
  if (kind === 'boolean') {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return value; // zod reports "expected boolean"
  }
  if (kind === 'number') {
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return value;
}

/**
 * Query string -> input object, generated from the input schema: repeatable parameters
 * (`?ciks=1&ciks=2`, or comma-separated) become arrays, booleans and integers are parsed, the rest
 * stays text for zod to check. Parameters the schema does not declare are ignored; a scalar
 * parameter given twice is refused rather than silently picking one.
 */
export function queryToInput(schema: z.ZodObject, query: URLSearchParams, skip: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shape = schema.shape as Record<string, z.ZodType>;
  for (const [name, field] of Object.entries(shape)) {
    if (skip.has(name)) continue;
    const values = query.getAll(name);
    if (values.length === 0) continue;
    const { kind, element } = kindOf(field);
    if (kind === 'array') {
      out[name] = values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '')
        .map((v) => coerce(v, element));
    } else {
      if (values.length > 1) {
        throw new ServiceError('VALIDATION_ERROR', `Parameter ${name} was given ${values.length} times; it takes one value.`, {
          issues: [{ path: name, message: 'given more than once', code: 'duplicate_parameter' }],
        });
      }
      out[name] = coerce(values[0]!, kind);
    }
  }
  return out;
}

/** Which declared fields a GET route reads from the query string, with their JSON types (for OpenAPI). */
export function isRepeatable(field: z.ZodType): boolean {
  return kindOf(field).kind === 'array';
}
