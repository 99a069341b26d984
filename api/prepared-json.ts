/**
 * Serializations kept with values that never change. A handler that serves an immutable payload
 * (a stored statement version) registers it once with `prepared`: the value is deep-frozen, so it
 * cannot drift from what was serialized, and `jsonBytesOf` / `keptWith` then compute each rendering of it
 * (the HTTP body, the MCP text) once instead of per request. Any other value is serialized afresh,
 * so the bytes on the wire are the same either way.
 */
import { createHash } from 'node:crypto';

/** What is kept with each prepared value, by name: its serializations, an encoded HTTP body. */
const renderings = new WeakMap<object, Map<string, unknown>>();

/**
 * `make()`, computed once per prepared value and name and kept with it (a serialization, an
 * encoded HTTP body); for a value that is not prepared, made afresh every time.
 */
export function keptWith<T>(value: unknown, name: string, make: () => T): T {
  const kept = typeof value === 'object' && value !== null ? renderings.get(value) : undefined;
  if (!kept) return make();
  if (!kept.has(name)) kept.set(name, make());
  return kept.get(name) as T;
}

/** Deep-freezes `value` and lets its serializations be kept; returns the same object. */
export function prepared<T extends object>(value: T): T {
  deepFreeze(value);
  if (!renderings.has(value)) renderings.set(value, new Map());
  return value;
}

/**
 * Values whose JSON is given as parts by their maker (a tool result's text content, written from
 * kept escaped pieces: api/mcp-envelope.ts); frozen, so the parts stay their JSON.
 */
const given = new WeakMap<object, readonly JsonPart[]>();

/** Registers `parts` as the JSON bytes of the frozen `value` (joined, they must be JSON.stringify(value)'s UTF-8). */
export function withJsonParts<T extends object>(value: Readonly<T>, parts: readonly JsonPart[]): T {
  given.set(value, parts);
  return value as T;
}

/** Whether `value` was registered with `prepared`. */
export function isPrepared(value: unknown): boolean {
  return typeof value === 'object' && value !== null && renderings.has(value);
}

/**
 * The UTF-8 bytes of JSON.stringify(value), byte for byte. A prepared value's bytes are made once
 * and kept; a plain object or array that holds prepared values (the JSON-RPC envelope around a
 * tool result, whose id changes per request) is written as its small parts around their kept
 * bytes, so only the wrapper is serialized and encoded per request. Anything else (class
 * instances, Dates, a toJSON method) goes to JSON.stringify as a whole, which defines the bytes.
 */
export function jsonBytesOf(value: unknown): Buffer {
  const parts = jsonPartsOf(value);
  return parts.length === 1 ? parts[0]!.bytes : Buffer.concat(parts.map((p) => p.bytes));
}

/** A run of a JSON text's bytes; `digest`: the SHA-256 of a prepared value's bytes, kept with it (null for text written per request). */
export interface JsonPart {
  bytes: Buffer;
  digest: Buffer | null;
}

/**
 * jsonBytesOf's bytes as the runs they are made of, not joined: a prepared value's kept bytes (with
 * their kept digest) and the text written around them. Joined, they are jsonBytesOf(value).
 */
export function jsonPartsOf(value: unknown): JsonPart[] {
  if (typeof value !== 'object' || value === null) return [{ bytes: Buffer.from(JSON.stringify(value), 'utf8'), digest: null }];
  if (renderings.has(value)) return [preparedPart(value)];
  const own = given.get(value);
  if (own !== undefined) return [...own];
  if (!holdsPrepared(value, 3)) return [{ bytes: Buffer.from(JSON.stringify(value), 'utf8'), digest: null }];
  const parts: JsonPart[] = [];
  composeParts(value, parts);
  return parts;
}

/** A prepared value's bytes and digest, made once (a prepared value made of prepared parts, a page of prepared points, is written from their kept bytes). */
function preparedPart(value: object): JsonPart {
  return keptWith(value, 'json-part', () => {
    let bytes: Buffer;
    if (holdsPrepared(value, 3)) {
      const parts: JsonPart[] = [];
      composeParts(value, parts);
      bytes = Buffer.concat(parts.map((p) => p.bytes));
    } else bytes = Buffer.from(JSON.stringify(value), 'utf8');
    return { bytes, digest: createHash('sha256').update(bytes).digest() };
  });
}

/** A plain object or array that holds prepared values: its own parts written around their kept bytes, appended to `parts`. */
function composeParts(value: object, parts: JsonPart[]): void {
  let text = ''; // wrapper text not yet turned into bytes
  const flush = () => {
    if (text !== '') parts.push({ bytes: glueBytes(text), digest: null });
    text = '';
  };
  const put = (v: unknown) => {
    if (typeof v === 'object' && v !== null && renderings.has(v)) {
      flush();
      parts.push(preparedPart(v));
    } else if (typeof v === 'object' && v !== null && given.has(v)) {
      flush();
      parts.push(...given.get(v)!);
    } else if (typeof v === 'object' && v !== null && holdsPrepared(v, 3)) {
      // three levels: a tool result's structuredContent { data: { statements: [prepared, ...] } }
      flush();
      composeParts(v, parts);
    } else text += JSON.stringify(v);
  };
  if (Array.isArray(value)) {
    text += '[';
    // by index, not forEach: a hole is written null, as JSON.stringify writes it
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      const v: unknown = value[i];
      if (skipped(v)) text += 'null';
      else put(v);
    }
    text += ']';
  } else {
    text += '{';
    let first = true;
    for (const [k, v] of Object.entries(value)) {
      if (skipped(v)) continue;
      text += `${first ? '' : ','}${JSON.stringify(k)}:`;
      first = false;
      put(v);
    }
    text += '}';
  }
  flush();
}

/**
 * `make(text)`, kept for short texts: the glue between kept parts (the comma between two points of a
 * page, closing brackets) recurs in every body. Up to 16 characters; 1,024 texts, then it starts again.
 */
export function keptForShortTexts(make: (text: string) => Buffer): (text: string) => Buffer {
  const kept = new Map<string, Buffer>();
  return (text) => {
    if (text.length > 16) return make(text);
    let bytes = kept.get(text);
    if (bytes === undefined) {
      if (kept.size >= 1024) kept.clear();
      kept.set(text, (bytes = make(text)));
    }
    return bytes;
  };
}

const glueBytes = keptForShortTexts((text) => Buffer.from(text, 'utf8'));

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** A plain object or array (no toJSON, no class) with a prepared value within `depth` levels. */
function holdsPrepared(value: object, depth: number): boolean {
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  if ('toJSON' in value) return false;
  for (const v of Object.values(value)) {
    if (typeof v !== 'object' || v === null) continue;
    if (renderings.has(v) || given.has(v) || (depth > 1 && holdsPrepared(v, depth - 1))) return true;
  }
  return false;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
