import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, test } from 'node:test';
import { openSecSource } from '../../../ingest/source.ts';
import { SHARED_SEC_URL } from '../../helpers/shared-data.ts';

const APPLE_SUBMISSIONS = 'https://data.sec.gov/submissions/CIK0000320193.json';

describe('mirror directory source', () => {
  const source = openSecSource(SHARED_SEC_URL);

  test('an SEC URL reads the file at <root>/<host>/<path>', async () => {
    const json = await source.readJson<{ cik: string; name: string }>(APPLE_SUBMISSIONS);
    assert.equal(source.kind, 'mirror');
    assert.equal(json?.cik, '0000320193');
    assert.equal(json?.name, 'Apple Inc.');
  });

  test('a file missing from the mirror reads as null from every reader', async () => {
    const url = 'https://data.sec.gov/submissions/CIK0000320193-submissions-001.json';
    assert.equal(await source.readJson(url), null);
    assert.equal(await source.readText(url), null);
    assert.equal(await source.openStream(url), null);
  });

  test('openStream yields the whole file', async () => {
    const stream = await source.openStream(APPLE_SUBMISSIONS);
    assert.ok(stream);
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    assert.equal(bytes, statSync(new URL('data.sec.gov/submissions/CIK0000320193.json', SHARED_SEC_URL)).size);
  });

  test('listDir names the files of a mirror folder and marks subfolders with /', async () => {
    const files = await source.listDir('https://data.sec.gov/submissions/');
    assert.ok(files?.includes('CIK0000320193.json'));
    assert.ok(files?.includes('CIK0001318605-submissions-001.json'));
    const hosts = await source.listDir('https://data.sec.gov/api/xbrl');
    assert.deepEqual(hosts, ['companyfacts/']);
  });

  test('listDir of a folder the mirror lacks is empty', async () => {
    assert.deepEqual(await source.listDir('https://data.sec.gov/api/xbrl/frames/'), []);
  });

  test('URLs that try to leave the mirror root are refused, not read', async () => {
    const attempts = [
      'https://data.sec.gov/../../../etc/passwd',
      'https://data.sec.gov/submissions/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      'https://data.sec.gov/submissions/..%2f..%2f..%2fetc%2fpasswd',
      'https://data.sec.gov/submissions/..\\..\\etc\\passwd',
      'https://data.sec.gov/submissions/a%2fb.json',
    ];
    for (const url of attempts) {
      await assert.rejects(source.readText(url), /traversal|unsafe path/, url);
    }
  });

  test('non-SEC hosts, non-https URLs and queries are refused by a mirror', async () => {
    await assert.rejects(source.readText('https://example.com/files/company_tickers.json'), /not an SEC host/);
    await assert.rejects(source.readText('http://www.sec.gov/files/company_tickers.json'), /https/);
    await assert.rejects(source.readText('https://efts.sec.gov/LATEST/search-index?q=x'), /queries/);
  });

  test('a mirror root that does not exist fails at open, naming the path', () => {
    assert.throws(() => openSecSource('/nonexistent/sec-mirror'), /\/nonexistent\/sec-mirror/);
  });
});

describe('live source configuration', () => {
  test('live mode without a User-Agent refuses to start and names SEC_USER_AGENT', () => {
    assert.throws(() => openSecSource('https://www.sec.gov'), /SEC_USER_AGENT/);
    assert.throws(() => openSecSource('https://www.sec.gov', { userAgent: '   ' }), /SEC_USER_AGENT/);
    assert.throws(() => openSecSource('https://www.sec.gov', { userAgent: null }), /SEC_USER_AGENT/);
  });

  test('an https base that is not an SEC site is refused', () => {
    assert.throws(() => openSecSource('https://mirror.example.com', { userAgent: 'T t@example.com' }), /sec\.gov/);
  });

  test('plain http is only accepted for loopback test origins', () => {
    const ua = { userAgent: 'T t@example.com' };
    assert.throws(() => openSecSource('https://www.sec.gov', { ...ua, hostMap: { 'www.sec.gov': 'http://10.0.0.1:80' } }), /loopback/);
    assert.throws(() => openSecSource('http://www.sec.gov', ua), /https/);
    const ok = openSecSource('https://www.sec.gov', { ...ua, hostMap: { 'www.sec.gov': 'http://127.0.0.1:9' } });
    assert.equal(ok.kind, 'live');
  });
});
