import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';
import { writeZip } from '../bench/lib/archive-zips.ts';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { runIngestion } from '../ingest/run-ingestion.ts';
import { createTestDatabase } from './helpers/database.ts';
import { get } from './helpers/http.ts';
import { startTestService } from './helpers/service.ts';
import { SHARED_SEC } from './helpers/shared-data.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** a company of the mirror with a small companyfacts file and no filing packages */
const GOOD = '0001046179';
const FACTS = path.join(SHARED_SEC, 'data.sec.gov/api/xbrl/companyfacts');
const SUBMISSIONS = path.join(SHARED_SEC, 'data.sec.gov/submissions');

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Overwrites the middle of a member's compressed data with garbage: the member no longer inflates to what it says. */
async function corruptMember(file: string, member: string): Promise<void> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  let start = -1;
  let size = 0;
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName !== member) continue;
    start = (await zip.readLocalFileHeaderPromise(entry, { minimal: true })).fileDataStart;
    size = entry.compressedSize;
  }
  zip.close();
  assert.ok(start >= 0, `${member} is in ${file}`);
  const fh = await open(file, 'r+');
  await fh.write(Buffer.alloc(Math.min(4096, size >> 1), 0xff), 0, undefined, start + (size >> 2));
  await fh.close();
}

/** A mirror with the ticker files only: identity and packages come from it, company data from the archives. */
async function tickerOnlyMirror(dir: string): Promise<string> {
  const files = path.join(dir, 'www.sec.gov/files');
  await mkdir(files, { recursive: true });
  for (const f of ['company_tickers.json', 'company_tickers_exchange.json']) await copyFile(path.join(SHARED_SEC, 'www.sec.gov/files', f), path.join(files, f));
  return dir;
}

describe('bulk archives: bad input, downloads and the first start', () => {
  let dir: string;
  let good: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fds-archives-input-'));
    good = path.join(dir, 'good');
    await mkdir(good);
    const facts = await readFile(path.join(FACTS, `CIK${GOOD}.json`));
    const subs = (await readdir(SUBMISSIONS)).filter((n) => n.startsWith(`CIK${GOOD}`));
    await writeZip(path.join(good, 'companyfacts.zip'), [{ name: `CIK${GOOD}.json`, data: facts }]);
    await writeZip(path.join(good, 'submissions.zip'), await Promise.all(subs.map(async (name) => ({ name, data: await readFile(path.join(SUBMISSIONS, name)) }))));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reports each bad member by name, writes the good companies only, and exits 1 for a partial run', async () => {
    const bad = path.join(dir, 'bad');
    await mkdir(bad);
    const facts = await readFile(path.join(FACTS, `CIK${GOOD}.json`));
    await writeZip(path.join(bad, 'companyfacts.zip'), [
      { name: `CIK${GOOD}.json`, data: facts },
      { name: 'CIK0000000001.json', data: '{"cik": 1, "entityName": "Broken", "facts": {' },
      { name: 'CIK0000000002.json', data: '{"cik": 2, "entityName": "Empty", "facts": {}}' },
      { name: 'CIK0000000003.json', data: Buffer.alloc(3 * 1024 * 1024, 0x20) },
      { name: 'CIK0000000004.json', data: facts.toString('utf8').replace(/"cik":\s*\d+/, '"cik": 4') },
    ]);
    await corruptMember(path.join(bad, 'companyfacts.zip'), 'CIK0000000004.json');
    await copyFile(path.join(good, 'submissions.zip'), path.join(bad, 'submissions.zip'));
    const db = await createTestDatabase();
    try {
      const env = { DATABASE_URL: db.url, SEC_SOURCE: await tickerOnlyMirror(path.join(dir, 'mirror-bad')), SEC_ARCHIVE_MEMBER_MAX_MB: '2' };
      const r = await cli(['ingest', '--archives', bad], env);
      assert.equal(r.code, 1, r.stderr.slice(-2000));
      assert.match(r.stderr, /companyfacts\.zip member CIK0000000001\.json: .*JSON/);
      assert.match(r.stderr, /companyfacts\.zip member CIK0000000002\.json: no facts for CIK 0000000002/);
      assert.match(r.stderr, /companyfacts\.zip member CIK0000000003\.json inflates to \d+ bytes, past the bound/);
      assert.match(r.stderr, /companyfacts\.zip member CIK0000000004\.json cannot be read/);
      const companies = await db.sql<{ cik: string }[]>`SELECT cik FROM companies WHERE cik IN (SELECT cik FROM company_ingestion) ORDER BY cik`;
      assert.deepEqual(companies.map((c) => c.cik), [GOOD], 'only the good company is written');
      const [partial] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM statement_versions WHERE cik <> ${GOOD}`;
      assert.equal(partial!.n, 0, 'nothing of a bad member is visible');
      const [run] = await db.sql<{ status: string; companies_failed: number }[]>`SELECT status, companies_failed FROM ingestion_runs`;
      assert.deepEqual(run, { status: 'failed', companies_failed: 4 });
    } finally {
      await db.close();
    }
  });

  it('refuses a truncated archive with a clear message, exit 2 and nothing written', async () => {
    const cut = path.join(dir, 'cut');
    await mkdir(cut);
    const whole = await readFile(path.join(good, 'companyfacts.zip'));
    await writeFile(path.join(cut, 'companyfacts.zip'), whole.subarray(0, whole.length >> 1));
    const db = await createTestDatabase();
    try {
      const r = await cli(['ingest', '--archives', cut], { DATABASE_URL: db.url, SEC_SOURCE: await tickerOnlyMirror(path.join(dir, 'mirror-cut')) });
      assert.equal(r.code, 2, r.stderr.slice(-2000));
      assert.match(r.stderr, /companyfacts\.zip cannot be read as a zip archive \(truncated or corrupt\)/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
      const [n] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM companies`;
      assert.equal(n!.n, 0);
    } finally {
      await db.close();
    }
  });

  it('downloads the archives from the live site through the SEC client (User-Agent, one temporary file each, removed after)', async () => {
    const requests: { url: string; agent: string }[] = [];
    const server: Server = createServer((req, res) => {
      requests.push({ url: req.url ?? '', agent: String(req.headers['user-agent']) });
      const name = req.url === '/Archives/edgar/daily-index/xbrl/companyfacts.zip' ? 'companyfacts.zip' : req.url === '/Archives/edgar/daily-index/bulkdata/submissions.zip' ? 'submissions.zip' : null;
      if (!name) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/zip' });
      createReadStream(path.join(good, name)).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const temp = path.join(dir, 'downloads');
    await mkdir(temp);
    const db = await createTestDatabase();
    try {
      await migrate(db.sql);
      const config = { ...loadConfig({}), databaseUrl: db.url, secSource: await tickerOnlyMirror(path.join(dir, 'mirror-live')), secUserAgent: 'Archive Test test@example.com' };
      const summary = await runIngestion(db.sql, config, { archives: 'https://www.sec.gov', archiveOptions: { hostMap: { 'www.sec.gov': origin }, tempDir: temp } });
      assert.equal(summary.status, 'succeeded', JSON.stringify(summary.errors));
      assert.deepEqual(summary.companies.map((c) => [c.cik, c.status]), [[GOOD, 'ingested']]);
      assert.deepEqual(requests.map((r) => r.url).sort(), ['/Archives/edgar/daily-index/bulkdata/submissions.zip', '/Archives/edgar/daily-index/xbrl/companyfacts.zip']);
      assert.ok(requests.every((r) => r.agent === 'Archive Test test@example.com'));
      assert.deepEqual(await readdir(temp), [], 'the downloaded archives are removed after the run');
    } finally {
      await db.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('bootstraps an empty database from the archives on start, with the archive progress in the ingestion status', async () => {
    const mirror = await tickerOnlyMirror(path.join(dir, 'mirror-start'));
    const svc = await startTestService({ secSource: mirror, secArchives: good }, undefined, { emptyDatabase: true });
    try {
      const r = await get(`${svc.baseUrl}/v1/system/ingestion/status`, svc.keys.free);
      assert.equal(r.status, 200);
      const run = r.body.data.last_finished_run;
      assert.equal(run.status, 'succeeded');
      assert.equal(run.companies_done, 1);
      assert.equal(run.archive.bytes_done, run.archive.bytes_total);
      const files = (await stat(path.join(good, 'companyfacts.zip'))).size + (await stat(path.join(good, 'submissions.zip'))).size;
      assert.ok(Number(run.archive.bytes_total) > 10_000 && Number(run.archive.bytes_total) <= files, 'the members of the company, compressed');
      const [company] = await svc.sql<{ name: string }[]>`SELECT name FROM companies WHERE cik = ${GOOD}`;
      assert.ok(company?.name, 'identity came from the submissions archive');
    } finally {
      await svc.close();
    }
  });
});
