import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { parseFilingColumns } from '../../../ingest/filing-columns.ts';
import { openSecSource, type SecSource } from '../../../ingest/source.ts';
import { listSubmissionCiks, parseSubmissions, readSubmissions } from '../../../ingest/submissions.ts';
import {
  mergeTickers,
  parseCompanyTickers,
  parseCompanyTickersExchange,
  readTickers,
  type TickerRecord,
} from '../../../ingest/tickers.ts';
import { SHARED_SEC_URL } from '../../helpers/shared-data.ts';

const MIRROR = SHARED_SEC_URL;
const source = openSecSource(MIRROR);
const rawJson = (rel: string): unknown => JSON.parse(readFileSync(new URL(`${rel}`, SHARED_SEC_URL), 'utf8'));
const rawTickers = rawJson('www.sec.gov/files/company_tickers.json') as Record<string, { ticker: string }>;
const rawExchange = rawJson('www.sec.gov/files/company_tickers_exchange.json') as { data: unknown[][] };

describe('ticker files', () => {
  const plain = parseCompanyTickers(rawTickers);
  const withExchange = parseCompanyTickersExchange(rawExchange);

  test('company_tickers.json yields one record per entry with padded CIKs', () => {
    assert.equal(plain.length, Object.keys(rawTickers).length);
    assert.deepEqual(
      plain.find((r) => r.ticker === 'AAPL'),
      { cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: null },
    );
    assert.ok(plain.every((r) => /^\d{10}$/.test(r.cik) && r.ticker === r.ticker.toUpperCase()));
  });

  test('company_tickers_exchange.json yields one record per row and keeps null exchanges null', () => {
    assert.equal(withExchange.length, rawExchange.data.length);
    assert.equal(withExchange.find((r) => r.ticker === 'AAPL')?.exchange, 'Nasdaq');
    const rawNulls = rawExchange.data.filter((row) => row[3] === null).length;
    assert.ok(rawNulls > 0, 'the mirror has rows without an exchange');
    assert.equal(withExchange.filter((r) => r.exchange === null).length, rawNulls);
  });

  test('exchange-file columns are found by name, so a reordered file parses the same', () => {
    const reordered = { fields: ['ticker', 'exchange', 'cik', 'name'], data: [['aapl', 'Nasdaq', 320193, 'Apple Inc.']] };
    assert.deepEqual(parseCompanyTickersExchange(reordered), [
      { cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: 'Nasdaq' },
    ]);
  });

  test('merging the real files gives each ticker once, with AAPL on Nasdaq', () => {
    const { records } = mergeTickers(plain, withExchange);
    const tickers = records.map((r) => r.ticker);
    assert.equal(new Set(tickers).size, tickers.length);
    assert.deepEqual(records.find((r) => r.ticker === 'AAPL'), { cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: 'Nasdaq' });
    const union = new Set([...plain.map((r) => r.ticker), ...withExchange.map((r) => r.ticker)]);
    assert.equal(records.length, union.size);
  });

  test('a ticker only in company_tickers.json keeps exchange null; one only in the exchange file keeps its exchange', () => {
    const { records } = mergeTickers(plain, withExchange);
    const byTicker = new Map(records.map((r) => [r.ticker, r]));
    const exchangeTickers = new Set(withExchange.map((r) => r.ticker));
    const onlyPlain = plain.find((r) => !exchangeTickers.has(r.ticker));
    assert.ok(onlyPlain);
    assert.equal(byTicker.get(onlyPlain.ticker)?.exchange, null);
    const plainTickers = new Set(plain.map((r) => r.ticker));
    const onlyExchange = withExchange.find((r) => !plainTickers.has(r.ticker) && r.exchange !== null);
    assert.ok(onlyExchange);
    assert.deepEqual(byTicker.get(onlyExchange.ticker), onlyExchange);
  });

  test('when the files give a ticker to different CIKs, company_tickers.json keeps it and the clash is reported', () => {
    const { records, conflicts } = mergeTickers(plain, withExchange);
    const byTicker = new Map(records.map((r) => [r.ticker, r]));
    assert.ok(conflicts.length > 0, 'the mirror has tickers the two files assign differently');
    for (const c of conflicts) {
      assert.notEqual(c.kept.cik, c.dropped.cik);
      assert.equal(byTicker.get(c.ticker)?.cik, c.kept.cik);
      // the other company's exchange is not borrowed
      assert.equal(byTicker.get(c.ticker)?.exchange, null);
    }
  });

  test('merge rules hold on a small hand-made pair of files', () => {
    const rec = (cik: string, ticker: string, exchange: string | null = null): TickerRecord => ({ cik, ticker, name: `Co ${cik}`, exchange });
    const { records, conflicts } = mergeTickers(
      [rec('0000000001', 'AAA'), rec('0000000002', 'BBB'), rec('0000000003', 'CCC')],
      [rec('0000000001', 'AAA', 'NYSE'), rec('0000000009', 'BBB', 'Nasdaq'), rec('0000000004', 'DDD', null)],
    );
    assert.deepEqual(records, [
      rec('0000000001', 'AAA', 'NYSE'),
      rec('0000000002', 'BBB', null),
      rec('0000000003', 'CCC', null),
      rec('0000000004', 'DDD', null),
    ]);
    assert.deepEqual(conflicts, [{ ticker: 'BBB', kept: rec('0000000002', 'BBB'), dropped: rec('0000000009', 'BBB', 'Nasdaq') }]);
  });

  test('readTickers reads both files from the mirror and reports none missing', async () => {
    const read = await readTickers(source);
    assert.ok(read);
    assert.deepEqual(read.missingFiles, []);
    assert.equal(read.records.find((r) => r.ticker === 'TSLA')?.cik, '0001318605');
  });
});

describe('submissions', () => {
  test("Apple's profile carries fiscal year end 0926, SIC 3571 and its former names as dates", async () => {
    const read = await readSubmissions(source, '320193');
    assert.ok(read);
    const p = read.profile;
    assert.equal(p.cik, '0000320193');
    assert.equal(p.name, 'Apple Inc.');
    assert.equal(p.fiscalYearEnd, '0926');
    assert.equal(p.sic, '3571');
    assert.equal(p.sicDescription, 'Electronic Computers');
    assert.deepEqual(p.tickers, ['AAPL']);
    assert.deepEqual(p.exchanges, ['Nasdaq']);
    assert.deepEqual(p.formerNames[0], { name: 'APPLE INC', from: '2007-01-10', to: '2019-08-05' });
    assert.ok(p.formerNames.some((f) => f.name === 'APPLE COMPUTER INC'));
    assert.equal(p.addresses.business?.city, 'CUPERTINO');
    // '' in the file: nothing known, so null rather than an empty string
    assert.equal(p.website, null);
    assert.equal(p.description, null);
  });

  test("Apple's history page missing from the mirror is reported and the recent filings still load", async () => {
    const read = await readSubmissions(source, 320193);
    assert.ok(read);
    assert.deepEqual(read.missingPages, ['CIK0000320193-submissions-001.json']);
    const recent = rawJson('data.sec.gov/submissions/CIK0000320193.json') as { filings: { recent: { accessionNumber: string[] } } };
    assert.equal(read.filings.length, recent.filings.recent.accessionNumber.length);
  });

  test("Tesla's filings include its recent block and its history page, each accession once", async () => {
    const read = await readSubmissions(source, '0001318605');
    assert.ok(read);
    assert.deepEqual(read.missingPages, []);
    const main = rawJson('data.sec.gov/submissions/CIK0001318605.json') as { filings: { recent: { accessionNumber: string[] } } };
    const page = rawJson('data.sec.gov/submissions/CIK0001318605-submissions-001.json') as { accessionNumber: string[] };
    const accessions = read.filings.map((f) => f.accession);
    assert.equal(new Set(accessions).size, accessions.length);
    assert.equal(accessions.length, main.filings.recent.accessionNumber.length + page.accessionNumber.length);
    assert.ok(accessions.includes(main.filings.recent.accessionNumber[0] ?? '?'));
    assert.ok(accessions.includes(page.accessionNumber.at(-1) ?? '?'));
    assert.ok(read.filings.some((f) => f.filingDate < '2010-07-01'), 'filings from the 2005-2018 page are present');
  });

  test('filing rows are typed: dates, ISO acceptance time, booleans, and null for blanks', async () => {
    const read = await readSubmissions(source, '0001318605');
    const tenK = read?.filings.find((f) => f.form === '10-K' && f.isInlineXBRL);
    assert.ok(tenK);
    assert.match(tenK.filingDate, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(tenK.reportDate ?? '', /^\d{4}-\d{2}-\d{2}$/);
    assert.match(tenK.acceptanceDateTime ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(tenK.isXBRL, true);
    assert.equal(typeof tenK.size, 'number');
    assert.ok(read?.filings.some((f) => f.reportDate === null), 'blank reportDate becomes null');
  });

  test('an individual filer has null SIC and fiscal year end instead of blanks', async () => {
    const read = await readSubmissions(source, '0001494730');
    assert.equal(read?.profile.name, 'Musk Elon');
    assert.equal(read?.profile.sic, null);
    assert.equal(read?.profile.fiscalYearEnd, null);
    assert.deepEqual(read?.profile.tickers, []);
  });

  test('a CIK without a submissions file reads as null', async () => {
    assert.equal(await readSubmissions(source, '0000000001'), null);
  });

  test('listSubmissionCiks lists every main submissions file and none of the history pages', async () => {
    const ciks = await listSubmissionCiks(source);
    const files = readdirSync(new URL('data.sec.gov/submissions/', SHARED_SEC_URL));
    const mainFiles = files.filter((f) => /^CIK\d{10}\.json$/.test(f));
    assert.ok(files.length > mainFiles.length, 'the mirror holds history pages too');
    assert.deepEqual(ciks, mainFiles.map((f) => f.slice(3, 13)).sort());
    assert.ok(ciks?.includes('0001318605'));
  });

  test('an accession repeated on a history page is kept once, the recent copy winning', async () => {
    const main = {
      cik: '0000000042',
      name: 'Dup Co',
      filings: {
        recent: columns([['0000000042-20-000002', '10-K', '2020-03-01'], ['0000000042-20-000001', '10-Q', '2020-01-01']]),
        files: [{ name: 'CIK0000000042-submissions-001.json' }],
      },
    };
    const page = columns([['0000000042-20-000001', '10-Q/A', '2019-12-31'], ['0000000042-19-000001', '8-K', '2019-06-01']]);
    const read = await readSubmissions(fakeSource({ 'CIK0000000042.json': main, 'CIK0000000042-submissions-001.json': page }), 42);
    assert.deepEqual(
      read?.filings.map((f) => [f.accession, f.form]),
      [['0000000042-20-000002', '10-K'], ['0000000042-20-000001', '10-Q'], ['0000000042-19-000001', '8-K']],
    );
  });

  test('filing columns of different lengths are rejected instead of mispaired', () => {
    const ragged = { ...columns([['0000000042-20-000001', '10-K', '2020-01-01']]), form: ['10-K', '10-Q'] };
    assert.throws(() => parseFilingColumns(ragged, 'page'), /page\.form: 2 values for 1 filings/);
  });

  test('acceptance times come out as Date writes them: SEC\'s own form unchanged, impossible days rolled over, offsets and missing milliseconds normalized', () => {
    const at = (times: string[]) =>
      parseFilingColumns({ ...columns(times.map((_, i) => [`0000000042-20-00000${i}`, '10-K', '2020-01-01'])), acceptanceDateTime: times }, 'page').map((f) => f.acceptanceDateTime);
    const times = [
      '2024-02-29T16:05:31.000Z', '2023-12-31T23:59:59.999Z', '2000-02-29T00:00:00.000Z',
      '2023-02-29T10:00:00.000Z', '1900-02-29T10:00:00.000Z', '2024-04-31T10:00:00.000Z', '2024-02-29T24:00:00.000Z',
      '2024-01-01T10:00:00Z', '2024-01-01T10:00:00.000+05:00',
    ];
    assert.deepEqual(at(times), [
      '2024-02-29T16:05:31.000Z', '2023-12-31T23:59:59.999Z', '2000-02-29T00:00:00.000Z',
      '2023-03-01T10:00:00.000Z', '1900-03-01T10:00:00.000Z', '2024-05-01T10:00:00.000Z', '2024-03-01T00:00:00.000Z',
      '2024-01-01T10:00:00.000Z', '2024-01-01T05:00:00.000Z',
    ]);
    assert.deepEqual(at(times), times.map((t) => new Date(Date.parse(t)).toISOString()));
    assert.throws(() => at(['2024-01-01T10:00:00']), /acceptanceDateTime: not a timestamp/);
  });

  test('a submissions file without filings is rejected with its location', () => {
    assert.throws(() => parseSubmissions({ cik: '1', name: 'X' }), /submissions\.filings/);
  });
});

function columns(rows: [string, string, string][]): Record<string, unknown[]> {
  return {
    accessionNumber: rows.map((r) => r[0]),
    form: rows.map((r) => r[1]),
    filingDate: rows.map((r) => r[2]),
    reportDate: rows.map(() => ''),
  };
}

/** In-memory SecSource serving submissions files by name, for cases the mirror does not contain. */
function fakeSource(files: Record<string, unknown>): SecSource {
  const get = (url: string) => files[url.replace('https://data.sec.gov/submissions/', '')] ?? null;
  return {
    kind: 'mirror',
    describe: () => 'in-memory test files',
    readJson: async <T>(url: string) => get(url) as T | null,
    readText: async (url: string) => (get(url) === null ? null : JSON.stringify(get(url))),
    readBytes: async (url: string) => (get(url) === null ? null : Buffer.from(JSON.stringify(get(url)))),
    openStream: async (): Promise<Readable | null> => null,
    listDir: async () => Object.keys(files),
  };
}
