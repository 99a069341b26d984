import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from '../../../db/client.ts';
import { versionMemo } from '../../../db/version-memo.ts';

// the memo only keys on the client object; no query is made through it
const client = () => ({}) as unknown as Db;

describe('versionMemo (db/version-memo.ts)', () => {
  it('loads only the ids not met before, once each, and answers every id asked', async () => {
    const read = versionMemo<string>(100);
    const sql = client();
    const asked: string[][] = [];
    const load = async (missing: string[]) => (asked.push(missing), missing.map((id) => [id, `v${id}`] as const));
    assert.deepEqual(await read(sql, ['a', 'b'], load), ['va', 'vb']);
    assert.deepEqual(await read(sql, ['b', 'c', 'c'], load), ['vb', 'vc', 'vc']);
    // an id the load does not give is undefined in its place, and asked again next time
    const partial = async (missing: string[]) => (asked.push(missing), missing.filter((id) => id !== 'x').map((id) => [id, `v${id}`] as const));
    assert.deepEqual(await read(sql, ['x', 'a'], partial), [undefined, 'va']);
    assert.deepEqual(asked.at(-1), ['x']);
    assert.deepEqual(asked.slice(0, 2), [['a', 'b'], ['c']]);
    // another client has its own memo
    await read(client(), ['a'], load);
    assert.deepEqual(asked.at(-1), ['a']);
  });

  it('holds at most max entries, and keeps an entry used since the last max/2 entries were stored', async () => {
    const read = versionMemo<number>(10);
    const sql = client();
    let loads = 0;
    const load = async (missing: string[]) => missing.map((id) => (loads++, [id, Number(id)] as const));
    const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => String(from + i));
    await read(sql, ids(0, 5), load); // 0-4 fill the young half
    await read(sql, ids(5, 5), load); // 0-4 go old, 5-9 young
    await read(sql, ['0'], load); // 0 is used: back into the young half (which turns over)
    await read(sql, ids(10, 4), load); // 5-9 and 0 old... then 10-13
    assert.equal(loads, 14);
    loads = 0;
    await read(sql, ['0'], load);
    assert.equal(loads, 0, 'the entry used recently is still held');
    await read(sql, ids(1, 4), load);
    assert.equal(loads, 4, 'entries unused for more than max/2 stores were dropped');
    // never more than max held: everything asked twice in a row after a sweep loads at most max once
    loads = 0;
    await read(sql, ids(100, 30), load);
    assert.equal(loads, 30);
    loads = 0;
    await read(sql, ids(100, 30), load);
    assert.ok(loads >= 20, `at most 10 of 30 held (${30 - loads} were)`);
  });
});
