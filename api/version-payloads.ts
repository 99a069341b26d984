import { prepared } from './prepared-json.ts';

/**
 * Prepared payloads of statement versions, keyed by version id and view. A stored version never
 * changes (a restatement is a new version with a new id), so the wire shape of a version, once
 * built from its row, serves every later read of that version in that view: a read then costs one small index lookup of the latest id instead of
 * the figures' JSON, their decimals and the identity checks. One cache per service instance (keyed
 * by its Services object), bounded, least recently used first out; entries are prepared
 * (api/prepared-json.ts: deep-frozen, their HTTP body and MCP text serialized once), so a caller
 * that tried to change a shared payload would fail loudly instead of corrupting later answers.
 */
export class VersionPayloads<T extends object> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly max = 16_384) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // most recently used goes last, so eviction takes the oldest
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, payload: T): T {
    const frozen = prepared(payload);
    this.entries.set(key, frozen);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return frozen;
  }

  get size(): number {
    return this.entries.size;
  }
}

const perService = new WeakMap<object, VersionPayloads<object>>();

/** The payload cache of one service instance (tests run several over different databases). */
export function versionPayloadsOf<T extends object>(services: object): VersionPayloads<T> {
  let c = perService.get(services);
  if (!c) perService.set(services, (c = new VersionPayloads<object>()));
  return c as VersionPayloads<T>;
}
