import type { ChangedTable, ChangeFeed } from '../db/change-feed.ts';
import { prepared } from './prepared-json.ts';

/**
 * A per-instance cache of answers read from one table, kept only while that table has not changed
 * (db/change-feed.ts: a commit anywhere moves the table's generation on and the entry is dropped on
 * its next read) and never longer than `maxAgeMs`, the bound should a notification be lost on a
 * connection that died silently. Values are prepared (api/prepared-json.ts: deep-frozen, their
 * serializations kept), so a hit also skips serializing. Bounded, least recently used out first.
 *
 * `memo` takes the generation before it loads: a change that commits while the load runs leaves
 * the stored entry already stale, so a read never pins an answer older than a change it raced.
 * Reads of one key that arrive while its load runs wait for that load instead of starting their
 * own, as long as the table has not changed since it began.
 */
export class ReadCache<V extends object> {
  private readonly entries = new Map<string, { value: V; generation: number; at: number }>();
  private readonly loading = new Map<string, { generation: number; value: Promise<V | null> }>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly table: ChangedTable,
    private readonly options: { max: number; maxAgeMs: number; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    if (hit.generation !== this.feed.generation(this.table) || this.now() - hit.at >= this.options.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    // most recently used goes last, so eviction takes the oldest
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** The cached value of `key`, else `load()`'s, kept when it is not null (nothing is kept while the feed is not live). */
  async memo(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const generation = this.feed.generation(this.table);
    if (generation === null) return load();
    const running = this.loading.get(key);
    if (running !== undefined && running.generation === generation) return running.value;
    const value = this.load(key, generation, load);
    this.loading.set(key, { generation, value });
    try {
      return await value;
    } finally {
      if (this.loading.get(key)?.value === value) this.loading.delete(key);
    }
  }

  private async load(key: string, generation: number, load: () => Promise<V | null>): Promise<V | null> {
    const at = this.now();
    const value = await load();
    if (value === null) return value;
    const frozen = prepared(value);
    // a load begun after a later change may have finished first: it keeps its newer entry
    const held = this.entries.get(key);
    if (held !== undefined && held.generation > generation) return frozen;
    this.entries.set(key, { value: frozen, generation, at });
    if (this.entries.size > this.options.max) this.entries.delete(this.entries.keys().next().value!);
    return frozen;
  }

  get size(): number {
    return this.entries.size;
  }
}

const perService = new WeakMap<object, Map<string, ReadCache<object>>>();

/** The cache named `name` of one service instance (tests run several over different databases). */
export function readCacheOf<V extends object>(
  services: { changes: ChangeFeed },
  name: string,
  table: ChangedTable,
  options: { max: number; maxAgeMs: number },
): ReadCache<V> {
  let named = perService.get(services);
  if (!named) perService.set(services, (named = new Map()));
  let c = named.get(name);
  if (!c) named.set(name, (c = new ReadCache<object>(services.changes, table, options)));
  return c as ReadCache<V>;
}
