import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LocalStore } from '../export/local-store.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const NOW = new Date('2026-11-23T05:00:00.000Z');
const KEY = '20261123T043000Z/financials/fiscal_year_2023/part-0000.parquet';

/** fetch() and URL strings normalize '..' away before it reaches the server; this sends the path as written. */
function rawGet(baseUrl: string, rawPath: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const req = request({ hostname, port, path: rawPath }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the keyless download route', () => {
  let svc: TestService;
  let clock = NOW;
  let store: LocalStore;
  let bulkDir: string;
  const bytes = randomBytes(200_000);

  before(async () => {
    bulkDir = await mkdtemp(path.join(tmpdir(), 'fds-download-'));
    svc = await startTestService({ bulkDir, bulkStore: 'local', ingestOnStart: false, exportSchedule: false }, () => clock, { emptyDatabase: true });
    assert.ok(svc.running.services.bulkStore instanceof LocalStore, 'the default store is the local one');
    store = svc.running.services.bulkStore;
    const src = path.join(bulkDir, 'src.parquet');
    await writeFile(src, bytes);
    await store.put(KEY, src);
    await store.put('20261123T043000Z/manifest.json', src);
  });
  after(async () => {
    await svc.close();
    await rm(bulkDir, { recursive: true, force: true });
  });

  it('serves the exact bytes to a plain GET with no API key', async () => {
    const url = await store.signedUrl(KEY, new Date(NOW.getTime() + 600_000));
    assert.ok(url.startsWith(`${svc.baseUrl}/v1/bulk/download/`), `URL on this server: ${url}`);
    clock = new Date(NOW.getTime() + 100_500);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.apache.parquet');
    assert.equal(res.headers.get('content-length'), String(bytes.length));
    assert.equal(res.headers.get('cache-control'), 'private, max-age=499');
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);

    const manifest = await fetch(await store.signedUrl('20261123T043000Z/manifest.json', new Date(NOW.getTime() + 600_000)));
    assert.equal(manifest.headers.get('content-type'), 'application/json');
    await manifest.arrayBuffer();
  });

  it('answers HEAD with the headers and no body', async () => {
    clock = NOW;
    const res = await fetch(await store.signedUrl(KEY, new Date(NOW.getTime() + 600_000)), { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(bytes.length));
    assert.equal(res.headers.get('cache-control'), 'private, max-age=600');
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  it('refuses expired and tampered URLs with 403 DOWNLOAD_URL_INVALID in the error envelope', async () => {
    clock = NOW;
    const url = await store.signedUrl(KEY, new Date(NOW.getTime() + 600_000));
    clock = new Date(NOW.getTime() + 600_000);
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    const body = (await expired.json()) as any;
    assert.equal(body.error.code, 'DOWNLOAD_URL_INVALID');
    assert.equal(body.error.http_status, 403);
    assert.equal(body.error.details.reason, 'expired');
    assert.match(body.error.message, /expired .*\/v1\/bulk\/snapshots\/20261123T043000Z\/files\/financials\/fiscal_year_2023\/part-0000\.parquet/);
    assert.equal(body.error.trace_id, expired.headers.get('x-trace-id'));

    clock = NOW;
    const u = new URL(url);
    const tampered = [
      url.replace('part-0000', 'part-0001'),
      url.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 60}`),
      `${u.origin}${u.pathname}`,
      `${u.origin}${u.pathname}?expires=${u.searchParams.get('expires')}`,
    ];
    for (const t of tampered) {
      const r = await fetch(t);
      const b = (await r.json()) as any;
      assert.equal(r.status, 403, t);
      assert.equal(b.error.code, 'DOWNLOAD_URL_INVALID', t);
      assert.equal(b.error.details.reason, 'bad_signature', t);
    }
  });

  it('answers 404 for a validly signed URL whose file is gone, 400 for a traversal, 405 for POST', async () => {
    clock = NOW;
    const missing = await fetch(await store.signedUrl('20261123T043000Z/nope.parquet', new Date(NOW.getTime() + 600_000)));
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as any).error.code, 'NOT_FOUND');

    for (const p of ['/v1/bulk/download/20261123T043000Z/../../src.parquet', '/v1/bulk/download/..%2Fsrc.parquet', '/v1/bulk/download/.signing-secret']) {
      const r = await rawGet(svc.baseUrl, `${p}?expires=9999999999&signature=${'0'.repeat(64)}`);
      assert.equal(r.status, 400, p);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR', p);
    }

    const post = await fetch(await store.signedUrl(KEY, new Date(NOW.getTime() + 600_000)), { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    await post.arrayBuffer();
  });
});
