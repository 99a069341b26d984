import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GcsStore } from '../export/gcs-store.ts';

/*
 * FAKE GCS. Google Cloud Storage cannot run here (no network to Google, no emulator installed), so
 * this in-test HTTP server stands in for it, speaking only the slice of the GCS JSON API that
 * @google-cloud/storage 7.x sends for GcsStore's operations (found by reading the client and
 * logging its requests):
 *   POST   /upload/storage/v1/b/{bucket}/o?uploadType=multipart&name=...   (multipart/related: JSON metadata, then the bytes)
 *   GET    /storage/v1/b/{bucket}/o?prefix=&pageToken=                      (paged listing)
 *   GET    /storage/v1/b/{bucket}/o/{object}[?alt=media]                   (metadata / bytes; the tests read back through it)
 *   DELETE /storage/v1/b/{bucket}/o/{object}
 *   POST   /storage/v1/b/{bucket}/o/{object}/rewriteTo/b/{bucket}/o/{object}  (server-side copy)
 * Like GCS it reports crc32c/md5Hash for an upload (the client deletes the object and fails the
 * put when they do not match what it sent), pages listings with name-based tokens, and needs more
 * than one rewrite call to finish a copy. It passing is no proof real GCS would accept the same calls.
 */

const BUCKET = 'fds-bulk-test';

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC32C (Castagnoli) as GCS reports it: base64 of the big-endian 32-bit value. */
function crc32c(data: Buffer): string {
  let c = 0xffffffff;
  for (const byte of data) c = CRC32C_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((c ^ 0xffffffff) >>> 0);
  return out.toString('base64');
}

function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

interface FakeObject {
  data: Buffer;
  contentType: string;
  generation: number;
}

interface FakeRequest {
  method: string;
  /** path segments, each percent-decoded (object names arrive as one %2F-encoded segment) */
  segs: string[];
  query: URLSearchParams;
}

interface Fault {
  when: (r: FakeRequest) => boolean;
  status: number;
  message: string;
  times: number;
}

class FakeGcs {
  readonly objects = new Map<string, FakeObject>();
  /** `${METHOD} ${path}?${query}` of every request, in order */
  readonly log: string[] = [];
  readonly unhandled: string[] = [];
  authorizationSeen = false;
  /** small, so a handful of objects already spans several list pages */
  pageSize = 2;
  private readonly faults: Fault[] = [];
  private generation = 1;
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.handle(req, Buffer.concat(chunks), res));
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** answer the next `times` requests matching `when` with an error status */
  fail(when: (r: FakeRequest) => boolean, status: number, message: string, times = Infinity): void {
    this.faults.push({ when, status, message, times });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  count(pattern: RegExp): number {
    return this.log.filter((l) => pattern.test(l)).length;
  }

  private resource(name: string, o: FakeObject) {
    return {
      kind: 'storage#object',
      id: `${BUCKET}/${name}/${o.generation}`,
      name,
      bucket: BUCKET,
      generation: String(o.generation),
      metageneration: '1',
      contentType: o.contentType,
      size: String(o.data.length),
      md5Hash: createHash('md5').update(o.data).digest('base64'),
      crc32c: crc32c(o.data),
      etag: `etag${o.generation}`,
    };
  }

  private handle(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const r: FakeRequest = {
      method: req.method ?? 'GET',
      segs: url.pathname.split('/').slice(1).map(decodeURIComponent),
      query: url.searchParams,
    };
    this.log.push(`${r.method} ${url.pathname}${url.search}`);
    if (req.headers.authorization) this.authorizationSeen = true;
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(value));
    };
    const error = (status: number, message: string) =>
      json(status, { error: { code: status, message, errors: [{ domain: 'global', reason: 'fake', message }] } });

    const fault = this.faults.find((f) => f.times > 0 && f.when(r));
    if (fault) {
      fault.times--;
      return error(fault.status, fault.message);
    }

    // uploads live under /upload, everything else straight under /storage/v1
    const upload = r.segs[0] === 'upload';
    const s = upload ? r.segs.slice(1) : r.segs;
    const [api, version, b, bucket, o, name, rewriteTo, b2, bucket2, o2, name2] = s;
    const known = api === 'storage' && version === 'v1' && b === 'b' && o === 'o';
    if (known && bucket !== BUCKET) return error(404, `The specified bucket does not exist: ${bucket}`);

    // POST /upload/storage/v1/b/{bucket}/o
    if (known && upload && r.method === 'POST' && s.length === 5) {
      let meta: { name?: string; contentType?: string } = {};
      let data: Buffer;
      if (r.query.get('uploadType') === 'multipart') {
        const parts = parseMultipart(body, req.headers['content-type'] ?? '');
        if (parts.length !== 2) return error(400, `multipart upload needs 2 parts, got ${parts.length}`);
        meta = JSON.parse(parts[0]!.content.toString('utf8'));
        data = parts[1]!.content;
        meta.contentType ??= parts[1]!.contentType;
      } else if (r.query.get('uploadType') === 'media') {
        data = body;
        meta.contentType = req.headers['content-type'];
      } else {
        return error(400, `uploadType ${r.query.get('uploadType')} is not implemented by the fake`);
      }
      const objectName = r.query.get('name') ?? meta.name;
      if (!objectName) return error(400, 'upload without an object name');
      const o = { data, contentType: meta.contentType ?? 'application/octet-stream', generation: this.generation++ };
      this.objects.set(objectName, o);
      return json(200, this.resource(objectName, o));
    }

    if (known && !upload) {
      // GET /storage/v1/b/{bucket}/o: names are compared as GCS does (UTF-8 bytes); tokens name the last item
      if (r.method === 'GET' && s.length === 5) {
        const prefix = r.query.get('prefix') ?? '';
        const after = r.query.has('pageToken') ? Buffer.from(r.query.get('pageToken')!, 'base64url').toString('utf8') : null;
        const max = Math.min(Number(r.query.get('maxResults') ?? this.pageSize), this.pageSize);
        const names = [...this.objects.keys()]
          .filter((n) => n.startsWith(prefix) && (after === null || Buffer.compare(Buffer.from(n), Buffer.from(after)) > 0))
          .sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
        const page = names.slice(0, max);
        const more = names.length > max;
        return json(200, {
          kind: 'storage#objects',
          ...(page.length ? { items: page.map((n) => this.resource(n, this.objects.get(n)!)) } : {}),
          ...(more ? { nextPageToken: Buffer.from(page[page.length - 1]!).toString('base64url') } : {}),
        });
      }
      if (name !== undefined && s.length === 6) {
        const o = this.objects.get(name);
        if (!o) return error(404, `No such object: ${BUCKET}/${name}`);
        if (r.method === 'GET' && r.query.get('alt') === 'media') {
          res.writeHead(200, {
            'content-type': o.contentType,
            'x-goog-hash': `crc32c=${crc32c(o.data)},md5=${createHash('md5').update(o.data).digest('base64')}`,
            'x-goog-generation': String(o.generation),
          });
          res.end(o.data);
          return;
        }
        if (r.method === 'GET') return json(200, this.resource(name, o));
        if (r.method === 'DELETE') {
          this.objects.delete(name);
          res.writeHead(204);
          res.end();
          return;
        }
      }
      // POST .../o/{src}/rewriteTo/b/{bucket}/o/{dst}: GCS may need several calls; this fake always needs two
      if (r.method === 'POST' && name !== undefined && rewriteTo === 'rewriteTo' && b2 === 'b' && o2 === 'o' && name2 !== undefined && s.length === 11) {
        if (bucket2 !== BUCKET) return error(404, `The specified bucket does not exist: ${bucket2}`);
        const src = this.objects.get(name);
        if (!src) return error(404, `No such object: ${BUCKET}/${name}`);
        const size = String(src.data.length);
        if (!r.query.has('rewriteToken')) {
          return json(200, {
            kind: 'storage#rewriteResponse',
            totalBytesRewritten: String(Math.floor(src.data.length / 2)),
            objectSize: size,
            done: false,
            rewriteToken: `fake-token-${name}`,
          });
        }
        if (r.query.get('rewriteToken') !== `fake-token-${name}`) return error(400, 'bad rewriteToken');
        const copy = { data: Buffer.from(src.data), contentType: src.contentType, generation: this.generation++ };
        this.objects.set(name2, copy);
        return json(200, {
          kind: 'storage#rewriteResponse',
          totalBytesRewritten: size,
          objectSize: size,
          done: true,
          resource: this.resource(name2, copy),
        });
      }
    }
    this.unhandled.push(`${r.method} ${url.pathname}${url.search}`);
    return error(501, `the fake does not implement ${r.method} ${url.pathname}`);
  }
}

function parseMultipart(body: Buffer, contentType: string): { contentType: string; content: Buffer }[] {
  const m = /boundary="?([^";]+)"?/.exec(contentType);
  if (!m) return [];
  const delim = Buffer.from(`--${m[1]}`);
  const parts: { contentType: string; content: Buffer }[] = [];
  let at = body.indexOf(delim);
  while (at !== -1) {
    const start = at + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next === -1) break;
    const part = body.subarray(start + 2, next - 2); // the CRLF after the delimiter and before the next
    const sep = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, sep).toString('latin1');
    parts.push({
      contentType: /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? '',
      content: Buffer.from(part.subarray(sep + 4)),
    });
    at = next;
  }
  return parts;
}

function serviceAccount(): { credentials: { client_email: string; private_key: string }; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    credentials: {
      client_email: 'bulk-export@fds-test.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
    publicKey,
  };
}

const isUploadOf = (key: string) => (r: FakeRequest) => r.method === 'POST' && r.segs[0] === 'upload' && r.query.get('name') === key;

describe('GcsStore against a FAKE GCS JSON API (an in-test stand-in: real GCS cannot run here)', () => {
  const fake = new FakeGcs();
  const { credentials } = serviceAccount();
  let dir: string;
  let store: GcsStore;

  async function localFile(name: string, data: Buffer): Promise<string> {
    const p = path.join(dir, name);
    await writeFile(p, data);
    return p;
  }

  async function readBack(key: string): Promise<Buffer> {
    const res = await fetch(`${fake.url}/storage/v1/b/${BUCKET}/o/${encodeURIComponent(key)}?alt=media`);
    assert.equal(res.status, 200, `read back ${key}`);
    return Buffer.from(await res.arrayBuffer());
  }

  before(async () => {
    await fake.start();
    dir = await mkdtemp(path.join(os.tmpdir(), 'gcs-store-'));
    // autoRetry off: every fault injected below must surface on the first attempt
    store = new GcsStore({ bucket: BUCKET, apiEndpoint: fake.url, projectId: 'fds-test', credentials, retryOptions: { autoRetry: false } });
  });

  after(async () => {
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('crc32c in the fake matches the standard check value (so upload validation is real)', () => {
    const want = Buffer.alloc(4);
    want.writeUInt32BE(0xe3069283);
    assert.equal(crc32c(Buffer.from('123456789')), want.toString('base64'));
  });

  it('put uploads the file byte-for-byte in one multipart request, and list shows it', async () => {
    const data = randomBytes(300_000);
    const local = await localFile('part-0000.parquet', data);
    const before = fake.log.length;
    await store.put('snap1/financials/part-0000.parquet', local);
    const requests = fake.log.slice(before);
    assert.deepEqual(requests, [`POST /upload/storage/v1/b/${BUCKET}/o?uploadType=multipart&name=snap1%2Ffinancials%2Fpart-0000.parquet`]);
    assert.deepEqual(await store.list('snap1/'), ['snap1/financials/part-0000.parquet']);
    const stored = fake.objects.get('snap1/financials/part-0000.parquet');
    assert.ok(stored, 'the fake holds the object');
    assert.equal(sha256(stored.data), sha256(data), 'stored bytes equal the local file');
    assert.equal(sha256(await readBack('snap1/financials/part-0000.parquet')), sha256(data), 'bytes read back equal the local file');
  });

  it('put labels .parquet as application/vnd.apache.parquet and .json as application/json', async () => {
    await store.put('snap1/financials/part-0001.parquet', await localFile('p1.parquet', randomBytes(64)));
    await store.put('snap1/manifest.json', await localFile('manifest.json', Buffer.from('{"snapshot_id":"snap1"}')));
    assert.equal(fake.objects.get('snap1/financials/part-0001.parquet')?.contentType, 'application/vnd.apache.parquet');
    assert.equal(fake.objects.get('snap1/manifest.json')?.contentType, 'application/json');
  });

  it('put overwrites an existing key with the new bytes', async () => {
    const key = 'snap1/manifest.json';
    await store.put(key, await localFile('manifest2.json', Buffer.from('{"snapshot_id":"snap1","v":2}')));
    assert.equal((await readBack(key)).toString(), '{"snapshot_id":"snap1","v":2}');
  });

  it('copy is a server-side rewrite: same bytes under the new key, no upload, rewrite tokens followed', async () => {
    const data = randomBytes(50_000);
    await store.put('snap1/companies/part-0000.parquet', await localFile('companies.parquet', data));
    const before = fake.log.length;
    await store.copy('snap1/companies/part-0000.parquet', 'snap2/companies/part-0000.parquet');
    const requests = fake.log.slice(before);
    assert.equal(requests.length, 2, `one rewrite call plus one continuation, got ${requests.join(' | ')}`);
    assert.ok(requests.every((l) => l.includes('/rewriteTo/b/')), `only rewrite calls, got ${requests.join(' | ')}`);
    assert.ok(requests[1]!.includes('rewriteToken=fake-token-'), 'the second call carries the token the first returned');
    assert.equal(sha256(await readBack('snap2/companies/part-0000.parquet')), sha256(data), 'copy holds the same bytes');
    assert.equal(fake.objects.get('snap2/companies/part-0000.parquet')?.contentType, 'application/vnd.apache.parquet');
    assert.ok(fake.objects.has('snap1/companies/part-0000.parquet'), 'the source stays');
  });

  it('copy of a missing object rejects naming both keys', async () => {
    await assert.rejects(store.copy('snap1/nope.parquet', 'snap2/nope.parquet'), (err: Error) => {
      assert.match(err.message, /copy snap1\/nope\.parquet -> snap2\/nope\.parquet/);
      assert.match(err.message, /No such object/);
      return true;
    });
    assert.ok(!fake.objects.has('snap2/nope.parquet'), 'nothing was created');
  });

  it('list returns only keys under the prefix, sorted, across several pages', async () => {
    for (const k of ['snapA/d.parquet', 'snapA/b/x.parquet', 'snapA/a.parquet', 'snapA/c.json', 'snapA/e.parquet', 'snapAB/a.parquet', 'snapB/a.parquet']) {
      await store.put(k, await localFile('small.parquet', Buffer.from(k)));
    }
    const before = fake.log.length;
    const keys = await store.list('snapA/');
    assert.deepEqual(keys, ['snapA/a.parquet', 'snapA/b/x.parquet', 'snapA/c.json', 'snapA/d.parquet', 'snapA/e.parquet']);
    const pages = fake.log.slice(before);
    assert.equal(pages.length, 3, `5 objects at 2 a page, got ${pages.join(' | ')}`);
    assert.ok(pages.slice(1).every((l) => l.includes('pageToken=')), 'later pages are asked for by token');
    assert.deepEqual(await store.list('snapZ/'), [], 'an empty prefix lists nothing');
  });

  it('deletePrefix removes exactly the objects under the prefix and leaves the rest', async () => {
    const others = [...fake.objects.keys()].filter((k) => !k.startsWith('snapA/'));
    await store.deletePrefix('snapA/');
    assert.deepEqual(await store.list('snapA/'), []);
    assert.deepEqual([...fake.objects.keys()].sort(), others.sort(), 'everything outside snapA/ is still there');
    assert.ok(fake.objects.has('snapAB/a.parquet'), 'a sibling prefix that shares the leading characters survives');
    await store.deletePrefix('snapA/'); // nothing left: still fine
  });

  it('deletePrefix refuses an empty prefix without calling GCS', async () => {
    const before = fake.log.length;
    await assert.rejects(store.deletePrefix(''), /non-empty prefix/);
    assert.equal(fake.log.length, before, 'no request was made');
  });

  it('a delete GCS refuses rejects naming the key', async () => {
    await store.put('snapC/a.parquet', await localFile('c.parquet', Buffer.from('c')));
    fake.fail((r) => r.method === 'DELETE', 403, 'bulk-export does not have storage.objects.delete access', 1);
    await assert.rejects(store.deletePrefix('snapC/'), /gcs delete snapC\/a\.parquet: .*storage\.objects\.delete/);
    fake.clearFaults();
    assert.ok(fake.objects.has('snapC/a.parquet'), 'the object is still there');
  });

  it('an upload answered with 500 rejects naming the key, after exactly one attempt', { timeout: 10_000 }, async () => {
    const key = 'snap1/fail-500.parquet';
    fake.fail(isUploadOf(key), 500, 'Backend Error');
    const before = fake.count(/^POST \/upload\//);
    await assert.rejects(store.put(key, await localFile('f.parquet', randomBytes(100))), (err: Error) => {
      assert.match(err.message, /^gcs put snap1\/fail-500\.parquet: Backend Error/);
      assert.ok(err.cause, 'the client error is kept as the cause');
      return true;
    });
    assert.equal(fake.count(/^POST \/upload\//) - before, 1, 'autoRetry off: no second attempt');
    assert.ok(!fake.objects.has(key), 'nothing was stored');
    fake.clearFaults();
  });

  it('an upload answered with 403 rejects naming the key and the reason', { timeout: 10_000 }, async () => {
    const key = 'snap1/fail-403.parquet';
    fake.fail(isUploadOf(key), 403, 'bulk-export does not have storage.objects.create access to the Google Cloud Storage object.');
    await assert.rejects(store.put(key, await localFile('f.parquet', randomBytes(100))), /gcs put snap1\/fail-403\.parquet: .*storage\.objects\.create/);
    fake.clearFaults();
  });

  it('a put of a missing local file rejects naming the key', async () => {
    await assert.rejects(store.put('snap1/x.parquet', path.join(dir, 'does-not-exist.parquet')), /gcs put snap1\/x\.parquet: .*ENOENT/);
  });

  it('with retries on, a transient 503 on upload is retried and the put lands; later listings still retry', { timeout: 20_000 }, async () => {
    // maxRetryDelay below 1 s breaks the client's upload retry ("minTimeout is greater than maxTimeout")
    const retrying = new GcsStore({ bucket: BUCKET, apiEndpoint: fake.url, credentials, retryOptions: { maxRetries: 2, maxRetryDelay: 1 } });
    const key = 'snapR/part-0000.parquet';
    const data = randomBytes(1000);
    fake.fail(isUploadOf(key), 503, 'Service Unavailable', 1);
    const uploads = fake.count(/^POST \/upload\//);
    await retrying.put(key, await localFile('r.parquet', data));
    assert.equal(fake.count(/^POST \/upload\//) - uploads, 2, 'one failed attempt, one that landed');
    assert.equal(sha256(fake.objects.get(key)?.data ?? Buffer.alloc(0)), sha256(data), 'the retried upload sent the whole file');

    // the client's default RetryConditional strategy would have switched autoRetry off for good here
    fake.fail((r) => r.method === 'GET' && r.query.get('prefix') === 'snapR/', 503, 'Service Unavailable', 1);
    const lists = fake.count(/^GET .*prefix=snapR/);
    assert.deepEqual(await retrying.list('snapR/'), [key]);
    assert.equal(fake.count(/^GET .*prefix=snapR/) - lists, 2, 'the listing was retried after its 503');
    fake.clearFaults();
  });

  it('never authenticates against a custom endpoint and sends nothing the fake does not implement', () => {
    assert.equal(fake.authorizationSeen, false, 'no Authorization header: the client skips auth for a custom apiEndpoint');
    assert.deepEqual(fake.unhandled, []);
  });
});

/** RFC 3986 percent-encoding, as V4 signing wants for query names and values. */
function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Rebuild the V4 string-to-sign from a signed URL, independently of the client library
 * (https://cloud.google.com/storage/docs/authentication/canonical-requests and .../signatures):
 * canonical request = verb, path, canonical query (all but X-Goog-Signature, encoded, sorted by
 * name), canonical headers (each "name:value\n"), signed headers, UNSIGNED-PAYLOAD, joined by
 * newlines; string to sign = GOOG4-RSA-SHA256, X-Goog-Date, credential scope, hex sha256 of that.
 * `host` is what a client would send as the Host header: the URL's host, port included.
 */
function stringToSign(signedUrl: string, host?: string): string {
  const url = new URL(signedUrl);
  const q = url.searchParams;
  const canonicalQuery = [...q]
    .filter(([k]) => k !== 'X-Goog-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalHeaders = `host:${host ?? url.host}\n`;
  const canonicalRequest = ['GET', url.pathname, canonicalQuery, canonicalHeaders, q.get('X-Goog-SignedHeaders'), 'UNSIGNED-PAYLOAD'].join('\n');
  const credential = q.get('X-Goog-Credential') ?? '';
  const scope = credential.slice(credential.indexOf('/') + 1);
  return ['GOOG4-RSA-SHA256', q.get('X-Goog-Date'), scope, sha256(canonicalRequest)].join('\n');
}

function signatureValid(signedUrl: string, publicKey: KeyObject, host?: string): boolean {
  const sig = new URL(signedUrl).searchParams.get('X-Goog-Signature') ?? '';
  return verify('RSA-SHA256', Buffer.from(stringToSign(signedUrl, host)), publicKey, Buffer.from(sig, 'hex'));
}

describe('GcsStore.signedUrl: V4, signed offline with a generated service-account key', () => {
  const { credentials, publicKey } = serviceAccount();
  // no apiEndpoint: the production shape. Signing needs no request: the client signs with private_key
  const store = new GcsStore({ bucket: BUCKET, projectId: 'fds-test', credentials });
  const NOW = Date.UTC(2026, 10, 23, 4, 30, 0, 250);
  const key = '20261123T043000Z/financials/fiscal_year_2023/part-0000.parquet';

  it('is an https URL on storage.googleapis.com carrying the V4 query fields', async (t) => {
    // a frozen clock: the client floors both the issue time and expiresAt to whole seconds
    t.mock.timers.enable({ apis: ['Date'], now: NOW });
    const url = new URL(await store.signedUrl(key, new Date(Date.now() + 10 * 60 * 1000)));
    assert.equal(url.origin, 'https://storage.googleapis.com');
    assert.equal(url.pathname, `/${BUCKET}/${key}`);
    const q = url.searchParams;
    assert.equal(q.get('X-Goog-Algorithm'), 'GOOG4-RSA-SHA256');
    assert.equal(q.get('X-Goog-Credential'), `${credentials.client_email}/20261123/auto/storage/goog4_request`);
    assert.equal(q.get('X-Goog-Date'), '20261123T043000Z');
    assert.equal(q.get('X-Goog-Expires'), '600');
    assert.equal(q.get('X-Goog-SignedHeaders'), 'host');
    assert.match(q.get('X-Goog-Signature') ?? '', /^[0-9a-f]{512}$/, 'a 2048-bit RSA signature in hex');
  });

  it('its signature verifies with the public key over the string-to-sign rebuilt from the URL', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: NOW });
    const signed = await store.signedUrl(key, new Date(Date.now() + 10 * 60 * 1000));
    assert.ok(signatureValid(signed, publicKey), 'signature verifies');
    assert.ok(!signatureValid(signed, serviceAccount().publicKey), 'and not with some other key');
  });

  it('tampering with a signed query parameter or the path breaks the signature', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: NOW });
    const signed = await store.signedUrl(key, new Date(Date.now() + 10 * 60 * 1000));
    const tamper = (edit: (u: URL) => void) => {
      const u = new URL(signed);
      edit(u);
      return u.href;
    };
    const cases: Record<string, string> = {
      'longer expiry': tamper((u) => u.searchParams.set('X-Goog-Expires', '6000')),
      'later start': tamper((u) => u.searchParams.set('X-Goog-Date', '20261123T043100Z')),
      'other credential': tamper((u) => u.searchParams.set('X-Goog-Credential', `someone@fds-test.iam.gserviceaccount.com/20261123/auto/storage/goog4_request`)),
      'added parameter': tamper((u) => u.searchParams.set('response-content-disposition', 'attachment')),
      'other object': tamper((u) => (u.pathname = `/${BUCKET}/20261123T043000Z/manifest.json`)),
    };
    for (const [what, url] of Object.entries(cases)) assert.ok(!signatureValid(url, publicKey), `${what} must not verify`);
  });

  it('an expiry more than seven days out is refused with an error naming the key', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: NOW });
    await assert.rejects(store.signedUrl(key, new Date(Date.now() + 8 * 24 * 3600 * 1000)), (err: Error) => {
      assert.ok(err.message.startsWith(`gcs sign ${key}: `), `message names the key: ${err.message}`);
      assert.match(err.message, /seven days/);
      return true;
    });
  });

  it('with a custom apiEndpoint the URL points at that endpoint, signed for its hostname without the port', async (t) => {
    // Documents client behaviour (7.22): fine for Google's hosts, which have no port; a strict
    // verifier behind host:port would compute a different canonical Host and reject these URLs.
    t.mock.timers.enable({ apis: ['Date'], now: NOW });
    const local = new GcsStore({ bucket: BUCKET, apiEndpoint: 'http://127.0.0.1:4443', credentials });
    const signed = await local.signedUrl(key, new Date(Date.now() + 10 * 60 * 1000));
    assert.equal(new URL(signed).origin, 'http://127.0.0.1:4443');
    assert.ok(signatureValid(signed, publicKey, '127.0.0.1'), 'signed for the bare hostname');
    assert.ok(!signatureValid(signed, publicKey), 'not for the Host header a client would send (127.0.0.1:4443)');
  });
});
