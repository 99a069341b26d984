import type { Db } from './client.ts';

/**
 * What a read takes from stored versions, kept by version id. A stored version is never rewritten
 * (a restatement is a new version with a new id), so what is read once from it holds for every later
 * read: a read lists the versions it sees and loads only those not met before. One map per database
 * client, bounded to `max` entries, least recently used out first.
 */
export function versionMemo<T>(max: number) {
  const byClient = new WeakMap<Db, Map<string, T>>();
  return async function read(sql: Db, ids: readonly string[], load: (missing: string[]) => Promise<Iterable<readonly [string, T]>>): Promise<Map<string, T>> {
    let cache = byClient.get(sql);
    if (!cache) byClient.set(sql, (cache = new Map()));
    const out = new Map<string, T>();
    const missing = new Set<string>();
    for (const id of ids) {
      const hit = cache.get(id);
      if (hit === undefined) missing.add(id);
      else {
        cache.delete(id);
        cache.set(id, hit);
        out.set(id, hit);
      }
    }
    if (missing.size === 0) return out;
    for (const [id, value] of await load([...missing])) {
      cache.set(id, value);
      out.set(id, value);
    }
    while (cache.size > max) cache.delete(cache.keys().next().value!);
    return out;
  };
}
