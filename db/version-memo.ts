import type { Db } from './client.ts';

/** A bounded map in two generations (see versionMemo): at most `max` entries, those used lately kept. */
export class TwoGenerations<T> {
  private young = new Map<string, T>();
  private old = new Map<string, T>();
  private readonly half: number;

  constructor(max: number) {
    this.half = Math.max(1, Math.floor(max / 2));
  }

  get(key: string): T | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.set(key, aged);
    }
    return aged;
  }

  set(key: string, value: T): void {
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}

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
  const byClient = new WeakMap<Db, TwoGenerations<T>>();
  /** What is held or loaded for each id, in the ids' order (undefined where `load` gave nothing). */
  return async function read(sql: Db, ids: readonly string[], load: (missing: string[]) => Promise<Iterable<readonly [string, T]>>): Promise<(T | undefined)[]> {
    let held = byClient.get(sql);
    if (!held) byClient.set(sql, (held = new TwoGenerations<T>(max)));
    const out = ids.map((id) => held.get(id));
    const missing = [...new Set(ids.filter((_, i) => out[i] === undefined))];
    if (missing.length === 0) return out;
    const loaded = new Map(await load(missing));
    for (const [id, value] of loaded) held.set(id, value);
    for (const [i, id] of ids.entries()) if (out[i] === undefined) out[i] = loaded.get(id);
    return out;
  };
}
