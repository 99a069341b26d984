import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { openSecSource, SecFetchError, type SecSource } from '../ingest/source.ts';

/** What the fake SEC saw: arrival time (ms, monotonic) and headers of every request. */
interface Seen {
  path: string;
  at: number;
  userAgent: string | undefined;
}

describe('live source against a local server', () => {
  const seen: Seen[] = [];
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse, hit: number) => void>();
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    seen.push({ path, at: performance.now(), userAgent: req.headers['user-agent'] });
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end('not found');
      return;
    }
    route(req, res, seen.filter((s) => s.path === path).length);
  });
  let live: (opts?: { maxRps?: number; attempts?: number }) => SecSource;

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    live = (opts = {}) =>
      openSecSource('https://www.sec.gov', {
        userAgent: 'Filings Test tests@example.com',
        maxRps: opts.maxRps ?? 10,
        hostMap: { 'www.sec.gov': origin, 'data.sec.gov': origin },
        retry: { baseDelayMs: 10, maxDelayMs: 50, attempts: opts.attempts ?? 5 },
      });
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  const hitsOf = (path: string) => seen.filter((s) => s.path === path);

  test('a 503 is retried and the later success is returned, with the User-Agent on every attempt', async () => {
    routes.set('/submissions/flaky.json', (_req, res, hit) => {
      if (hit <= 2) res.writeHead(503).end('busy');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const json = await live().readJson('https://data.sec.gov/submissions/flaky.json');
    assert.deepEqual(json, { ok: true });
    const hits = hitsOf('/submissions/flaky.json');
    assert.equal(hits.length, 3);
    assert.ok(hits.every((h) => h.userAgent === 'Filings Test tests@example.com'));
  });

  test('a 429 waits at least Retry-After before asking again', async () => {
    routes.set('/files/limited.json', (_req, res, hit) => {
      if (hit === 1) res.writeHead(429, { 'retry-after': '1' }).end();
      else res.writeHead(200).end('[1,2,3]');
    });
    assert.deepEqual(await live().readJson('https://www.sec.gov/files/limited.json'), [1, 2, 3]);
    const [first, second] = hitsOf('/files/limited.json');
    assert.ok(first && second);
    // backoff alone is at most 50ms here, so a >=1s gap can only come from Retry-After
    assert.ok(second.at - first.at >= 990, `retried after ${Math.round(second.at - first.at)}ms`);
  });

  test('requests stay at or under maxRps in every one-second window on the server clock', async () => {
    const maxRps = 5;
    const n = 11;
    routes.set('/files/paced.txt', (_req, res) => res.writeHead(200).end('ok'));
    const source = live({ maxRps });
    const started = performance.now();
    const bodies = await Promise.all(Array.from({ length: n }, () => source.readText('https://www.sec.gov/files/paced.txt')));
    const elapsed = performance.now() - started;
    assert.deepEqual(bodies, Array(n).fill('ok'));
    const times = hitsOf('/files/paced.txt').map((h) => h.at).sort((a, b) => a - b);
    assert.equal(times.length, n);
    for (const [i, t] of times.entries()) {
      const inWindow = times.filter((u) => u >= t && u < t + 1000).length;
      assert.ok(inWindow <= maxRps, `${inWindow} requests in the second after request ${i}`);
    }
    // 11 evenly paced requests at 5/s span at least 2s; much less would mean no pacing at all
    assert.ok(elapsed >= 2000, `took only ${Math.round(elapsed)}ms`);
    assert.ok(elapsed < 4000, `took ${Math.round(elapsed)}ms`);
  });

  test('a 404 reads as null and is not retried', async () => {
    const source = live();
    assert.equal(await source.readJson('https://data.sec.gov/submissions/CIK0000000000.json'), null);
    assert.equal(await source.openStream('https://data.sec.gov/submissions/CIK0000000000.json'), null);
    assert.equal(hitsOf('/submissions/CIK0000000000.json').length, 2);
  });

  test('a 403 fails at once with the status, since retrying cannot help', async () => {
    routes.set('/files/forbidden.json', (_req, res) => res.writeHead(403).end());
    await assert.rejects(live().readJson('https://www.sec.gov/files/forbidden.json'), (err: unknown) => {
      assert.ok(err instanceof SecFetchError);
      assert.equal(err.status, 403);
      assert.match(err.message, /User-Agent/);
      return true;
    });
    assert.equal(hitsOf('/files/forbidden.json').length, 1);
  });

  test('a server that keeps failing is given up on after the configured attempts', async () => {
    routes.set('/files/down.json', (_req, res) => res.writeHead(500).end());
    await assert.rejects(live({ attempts: 3 }).readJson('https://www.sec.gov/files/down.json'), (err: unknown) => {
      assert.ok(err instanceof SecFetchError);
      assert.equal(err.status, 500);
      assert.match(err.message, /3 attempts/);
      return true;
    });
    assert.equal(hitsOf('/files/down.json').length, 3);
  });

  test('gzip bodies are decompressed for both buffered reads and streams', async () => {
    const payload = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => i) });
    routes.set('/files/zipped.json', (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(payload)),
    );
    const source = live();
    assert.equal((await source.readJson<{ rows: number[] }>('https://www.sec.gov/files/zipped.json'))?.rows.length, 200);
    const stream = await source.openStream('https://www.sec.gov/files/zipped.json');
    assert.ok(stream);
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    assert.equal(text, payload);
  });

  test('a live source cannot list folders and says so with null', async () => {
    assert.equal(await live().listDir('https://data.sec.gov/submissions/'), null);
  });
});
