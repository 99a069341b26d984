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
  // the fields a wrapper's or an array's definition adds (innerType, in, element) are read where present
  return schema._zod.def as Def;
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
 * stays text for zod to check. A parameter the schema does not declare is refused naming the
 * accepted ones (a typo such as `fiscal_yr_from` must not silently widen the answer); a scalar
 * parameter given twice is refused rather than silently picking one.
 */
export function queryToInput(schema: z.ZodObject, query: URLSearchParams, skip: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shape = schema.shape as Record<string, z.ZodType>;
  const accepted = Object.keys(shape).filter((name) => !skip.has(name));
  const unknown = [...new Set(query.keys())].filter((name) => !accepted.includes(name));
  if (unknown.length > 0) {
    const names = unknown.map((n) => JSON.stringify(n.length > 64 ? `${n.slice(0, 64)}…` : n)).join(', ');
    throw new ServiceError(
      'VALIDATION_ERROR',
      `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}; ${accepted.length > 0 ? `this route accepts ${accepted.join(', ')}` : 'this route takes no query parameters'}.`,
      { unknown_parameters: unknown.slice(0, 20), accepted_parameters: accepted },
    );
  }
  for (const name of accepted) {
    const field = shape[name]!;
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
