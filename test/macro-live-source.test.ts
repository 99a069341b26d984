import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { loadMacro } from '../ingest/macro/load-macro.ts';
import { openMacroSource } from '../ingest/macro/source.ts';
import { createTestDatabase } from './helpers/database.ts';
import { SHARED_MACRO } from './helpers/service.ts';

/**
 * The live publisher path: a stand-in for FRED on this machine serves the same series in FRED's
 * own download format (`observation_date,<CODE>`, "." for no value), answers 503 once and 404 for
 * one series. Loaded through it, the observations equal those loaded from the directory.
 */
const FLAKY = 'CPIAUCSL';
const ABSENT = 'M2SL';

let server: Server;
let base: string;
const requests: string[] = [];
let failedOnce = false;
let fromDir: Database;
let fromLive: Database;

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const code = url.searchParams.get('id') ?? '';
    requests.push(code);
    if (url.pathname !== '/graph/fredgraph.csv' || code === ABSENT || !/^[A-Z0-9]+$/.test(code)) {
      res.writeHead(404).end();
      return;
    }
    if (code === FLAKY && !failedOnce) {
      failedOnce = true;
      res.writeHead(503).end();
      return;
    }
    const text = readFileSync(path.join(SHARED_MACRO, 'fred', `${code}.csv`), 'utf8')
      .replace(/^date,value/, `observation_date,${code}`)
      .replace(/,\n/g, ',.\n');
    res.writeHead(200, { 'content-type': 'text/csv' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fromDir = await createTestDatabase();
  fromLive = await createTestDatabase();
  await migrate(fromDir.sql);
  await migrate(fromLive.sql);
});
after(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await fromDir?.close();
  await fromLive?.close();
});

const rows = (db: Database) =>
  db.sql<{ series_code: string; observation_date: string; value: string | null; knowable_from: string }[]>`
    SELECT series_code, observation_date, value::text AS value, knowable_from FROM macro_observations
    WHERE series_code <> ${ABSENT} ORDER BY series_code, observation_date, knowable_from`;

describe('the FRED source', () => {
  it('loads FRED-format downloads to the same observations as the directory, retrying a 503 and reporting a 404 as absent', async () => {
    await loadMacro(fromDir.sql, SHARED_MACRO);
    const live = await openMacroSource(base, { retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    assert.equal(live.kind, 'live');
    const s = await loadMacro(fromLive.sql, live);
    assert.equal(s.series.find((x) => x.series_code === ABSENT)!.status, 'absent');
    assert.equal(s.series.filter((x) => x.status === 'loaded').length, 13);
    assert.equal(requests.filter((c) => c === FLAKY).length, 2, 'the 503 was retried once');
    const expected = await rows(fromDir);
    assert.ok(expected.length > 40_000);
    assert.deepEqual(await rows(fromLive), expected);
    const again = await loadMacro(fromLive.sql, live);
    assert.equal(again.rows_added, 0, 'idempotent over the live path too');
  });
});
