/**
 * Serializations kept with values that never change. A handler that serves an immutable payload
 * (a stored statement version) registers it once with `prepared`: the value is deep-frozen, so it
 * cannot drift from what was serialized, and `jsonOf` / `memoOf` then compute each rendering of it
 * (the HTTP body, the MCP text) once instead of per request. Any other value is serialized afresh,
 * so the bytes on the wire are the same either way.
 */
const renderings = new WeakMap<object, Map<string, string>>();

/** Deep-freezes `value` and lets its serializations be kept; returns the same object. */
export function prepared<T extends object>(value: T): T {
  deepFreeze(value);
  if (!renderings.has(value)) renderings.set(value, new Map());
  return value;
}

/** `render(value)`, computed once per prepared value and rendering name; plain values every time. */
export function memoOf(value: unknown, name: string, render: (v: unknown) => string): string {
  const kept = typeof value === 'object' && value !== null ? renderings.get(value) : undefined;
  if (!kept) return render(value);
  let text = kept.get(name);
  if (text === undefined) kept.set(name, (text = render(value)));
  return text;
}

/** JSON.stringify(value), kept for a prepared value. */
export function jsonOf(value: unknown): string {
  return memoOf(value, 'json', (v) => JSON.stringify(v));
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
