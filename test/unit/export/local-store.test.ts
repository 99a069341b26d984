import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isValidKey } from '../../../domain/bulk/blob-store.ts';
import { loadSigningSecret, LocalStore, verifyDownload } from '../../../export/local-store.ts';

const SECRET = Buffer.from('test secret');
const NOW = new Date('2026-11-23T05:00:00.000Z');
const KEY = '20261123T043000Z/financials/fiscal_year_2023/part-0000.parquet';

function parts(url: string): { key: string; expires: string; signature: string } {
  const u = new URL(url);
  return { key: u.pathname.replace('/v1/bulk/download/', ''), expires: u.searchParams.get('expires')!, signature: u.searchParams.get('signature')! };
}

describe('local blob store', () => {
  let dir: string;
  let store: LocalStore;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fds-local-store-'));
    store = new LocalStore({ root: path.join(dir, 'store'), secret: SECRET, baseUrl: () => 'http://files.test' });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('puts, copies byte-identical, lists sorted and deletes a prefix', async () => {
    const src = path.join(dir, 'src.bin');
    const bytes = randomBytes(70_000);
    await writeFile(src, bytes);
    await store.put('S1/b/part-1.parquet', src);
    await store.put('S1/a/part-0.parquet', src);
    await store.put('S1/manifest.json', src);
    await store.copy('S1/a/part-0.parquet', 'S2/a/part-0.parquet');
    assert.deepEqual(await readFile(path.join(dir, 'store/S2/a/part-0.parquet')), bytes);

    assert.deepEqual(await store.list('S1/'), ['S1/a/part-0.parquet', 'S1/b/part-1.parquet', 'S1/manifest.json']);
    assert.deepEqual(await store.list(''), ['S1/a/part-0.parquet', 'S1/b/part-1.parquet', 'S1/manifest.json', 'S2/a/part-0.parquet']);
    assert.deepEqual(await store.list('S1/a'), ['S1/a/part-0.parquet']);
    assert.deepEqual(await store.list('S9/'), []);

    await store.put('S1/manifest.json', path.join(dir, 'src.bin'));
    assert.deepEqual(await store.list('S1/m'), ['S1/manifest.json'], 'an overwrite leaves no temp file behind');

    await store.deletePrefix('S1/');
    assert.deepEqual(await store.list(''), ['S2/a/part-0.parquet']);
    await assert.rejects(stat(path.join(dir, 'store/S1')), /ENOENT/);
    await store.deletePrefix('S2/');
    assert.deepEqual(await store.list(''), []);
  });

  it('keeps each object as it was put: removing the local file, or putting its key anew, leaves earlier copies alone', async () => {
    const src = path.join(dir, 'handed-over.bin');
    const first = randomBytes(5_000);
    await writeFile(src, first);
    await store.put('S5/x/part-0.parquet', src);
    await rm(src);
    assert.deepEqual(await readFile(path.join(dir, 'store/S5/x/part-0.parquet')), first, 'the object outlives the local file');
    await store.copy('S5/x/part-0.parquet', 'S6/x/part-0.parquet');
    const second = randomBytes(5_000);
    await writeFile(src, second);
    await store.put('S5/x/part-0.parquet', src);
    assert.deepEqual(await readFile(path.join(dir, 'store/S5/x/part-0.parquet')), second);
    assert.deepEqual(await readFile(path.join(dir, 'store/S6/x/part-0.parquet')), first, 'the copy still holds the first bytes');
    await store.copy('S6/x/part-0.parquet', 'S6/x/part-0.parquet');
    assert.deepEqual(await store.list('S6/'), ['S6/x/part-0.parquet'], 'a copy onto itself leaves no temp file behind');
    await store.deletePrefix('S5/');
    await store.deletePrefix('S6/');
  });

  it('rejects keys that could leave the root', async () => {
    for (const key of ['../x', 'a/../b', 'a/./b', '/abs', 'a//b', 'a/', '', 'a\\b', 'a b', 'a%2Fb', '.hidden', 'a/.x', 'a\0b']) {
      assert.equal(isValidKey(key), false, JSON.stringify(key));
      await assert.rejects(store.put(key, path.join(dir, 'src.bin')), /invalid blob key/, JSON.stringify(key));
      await assert.rejects(store.signedUrl(key, NOW), /invalid blob key/, JSON.stringify(key));
    }
    await assert.rejects(store.copy('S1/x', '../escape'), /invalid blob key/);
    await assert.rejects(store.list('../'), /invalid blob key/);
    await assert.rejects(store.deletePrefix('../'), /invalid blob key/);
    await assert.rejects(store.deletePrefix(''), /non-empty prefix/);
    assert.equal(isValidKey('S1/fiscal_year=2023/a.b-c_d.parquet'), true, 'dots, =, - and _ inside a segment are fine');
  });

  it('signs URLs that verify until they expire', async () => {
    const expiresAt = new Date(NOW.getTime() + 600_000);
    const url = await store.signedUrl(KEY, expiresAt);
    assert.match(url, new RegExp(`^http://files\\.test/v1/bulk/download/${KEY}\\?expires=${expiresAt.getTime() / 1000}&signature=[0-9a-f]{64}$`));
    const p = parts(url);
    assert.equal(verifyDownload(SECRET, p.key, p.expires, p.signature, NOW), 'ok');
    assert.equal(verifyDownload(SECRET, p.key, p.expires, p.signature.toUpperCase(), NOW), 'ok');
    assert.equal(verifyDownload(SECRET, p.key, p.expires, p.signature, new Date(expiresAt.getTime() - 1)), 'ok');
    assert.equal(verifyDownload(SECRET, p.key, p.expires, p.signature, expiresAt), 'expired');
  });

  it('refuses tampered keys, expiries and signatures, and other secrets', async () => {
    const p = parts(await store.signedUrl(KEY, new Date(NOW.getTime() + 600_000)));
    const later = String(Number(p.expires) + 3600);
    assert.equal(verifyDownload(SECRET, KEY.replace('part-0000', 'part-0001'), p.expires, p.signature, NOW), 'bad_signature');
    assert.equal(verifyDownload(SECRET, p.key, later, p.signature, NOW), 'bad_signature');
    assert.equal(verifyDownload(Buffer.from('another secret'), p.key, p.expires, p.signature, NOW), 'bad_signature');
    const flipped = (p.signature[0] === '0' ? '1' : '0') + p.signature.slice(1);
    for (const sig of [flipped, p.signature.slice(2), `${p.signature}00`, 'zz'.repeat(32), '', null]) {
      assert.equal(verifyDownload(SECRET, p.key, p.expires, sig, NOW), 'bad_signature', String(sig));
    }
    for (const exp of [null, '', '-1', '1e9', ` ${p.expires}`]) {
      assert.equal(verifyDownload(SECRET, p.key, exp, p.signature, NOW), 'bad_signature', String(exp));
    }
  });

  it('keeps a generated signing secret across starts, and prefers a configured one', async () => {
    const bulkDir = path.join(dir, 'bulk');
    const first = await loadSigningSecret(bulkDir, null);
    assert.equal(first.length, 32);
    const second = await loadSigningSecret(bulkDir, null);
    assert.deepEqual(second, first);
    assert.equal((await stat(path.join(bulkDir, '.signing-secret'))).mode & 0o777, 0o600);
    assert.deepEqual(await loadSigningSecret(bulkDir, 'configured'), Buffer.from('configured', 'utf8'));

    const raced = path.join(dir, 'raced');
    const all = await Promise.all([1, 2, 3, 4].map(() => loadSigningSecret(raced, null)));
    for (const s of all) assert.deepEqual(s, all[0], 'concurrent first starts agree on one secret');
  });
});
