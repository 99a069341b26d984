import type { Db } from './client.ts';

/**
 * What a read takes from stored versions, kept by version id. A stored version is never rewritten
 * (a restatement is a new version with a new id), so what is read once from it holds for every later
 * read: a read lists the versions it sees and loads only those not met before. One memo per database
 * client, bounded to `max` entries in two generations of at most max/2 each: entries go into the
 * young one, a hit in the old one moves the entry back to the young one, and when the young one is
 * full it becomes the old one and the old one is dropped. What was used within the last max/2
 * entries kept stays, as with least-recently-used eviction, without reordering on every hit.
 */
export function versionMemo<T>(max: number) {
  const half = Math.max(1, Math.floor(max / 2));
  const byClient = new WeakMap<Db, { young: Map<string, T>; old: Map<string, T> }>();
  const keep = (g: { young: Map<string, T>; old: Map<string, T> }, id: string, value: T) => {
    if (g.young.size >= half) {
      g.old = g.young;
      g.young = new Map();
    }
    g.young.set(id, value);
  };
  return async function read(sql: Db, ids: readonly string[], load: (missing: string[]) => Promise<Iterable<readonly [string, T]>>): Promise<Map<string, T>> {
    let g = byClient.get(sql);
    if (!g) byClient.set(sql, (g = { young: new Map(), old: new Map() }));
    const out = new Map<string, T>();
    const missing = new Set<string>();
    for (const id of ids) {
      let hit = g.young.get(id);
      if (hit === undefined) {
        hit = g.old.get(id);
        if (hit !== undefined) {
          g.old.delete(id);
          keep(g, id, hit);
        }
      }
      if (hit === undefined) missing.add(id);
      else out.set(id, hit);
    }
    if (missing.size === 0) return out;
    for (const [id, value] of await load([...missing])) {
      keep(g, id, value);
      out.set(id, value);
    }
    return out;
  };
}
