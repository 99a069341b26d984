import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeedFormatError, parseDailyIndex, parseXbrlFeed } from '../../../ingest/feed-parse.ts';

const ITEM = `<item><title>APPLE INC (0000320193) (Filer)</title><description>10-Q</description>
<edgar:xbrlFiling xmlns:edgar="https://www.sec.gov/Archives/edgar">
<edgar:companyName>APPLE INC</edgar:companyName><edgar:formType>10-Q</edgar:formType>
<edgar:filingDate>08/02/2024</edgar:filingDate><edgar:cikNumber>0000320193</edgar:cikNumber>
<edgar:accessionNumber>0000320193-24-000081</edgar:accessionNumber><edgar:acceptanceDatetime>20240801163011</edgar:acceptanceDatetime>
<edgar:period>20240629</edgar:period><edgar:fiscalYearEnd>0928</edgar:fiscalYearEnd></edgar:xbrlFiling></item>`;

const rss = (items: string) => `<?xml version="1.0"?><rss version="2.0" xmlns:edgar="https://www.sec.gov/Archives/edgar"><channel>${items}</channel></rss>`;

describe('SEC XBRL feed', () => {
  it('reads each item\'s company, form, accession, acceptance time and period', () => {
    const { filings, rejected } = parseXbrlFeed(rss(ITEM));
    assert.equal(rejected, 0);
    assert.deepEqual(filings, [
      { cik: '0000320193', form: '10-Q', accession: '0000320193-24-000081', company_name: 'APPLE INC', accepted_at: '2024-08-01T20:30:11.000Z', filed_date: '2024-08-02', period: '2024-06-29' },
    ]);
  });

  it('leaves out an item without a well-formed accession and counts it', () => {
    const bad = ITEM.replace('0000320193-24-000081', '0000320193-24');
    const { filings, rejected } = parseXbrlFeed(rss(ITEM + bad));
    assert.equal(filings.length, 1);
    assert.equal(rejected, 1);
  });

  it('refuses malformed XML and a document that is not RSS with a clear error', () => {
    assert.throws(() => parseXbrlFeed(rss(ITEM).slice(0, 300)), FeedFormatError);
    assert.throws(() => parseXbrlFeed('<html><body>Request Rate Threshold Exceeded</body></html>'), FeedFormatError);
  });
});

describe('SEC daily index', () => {
  const INDEX = `Description:           Master Index of EDGAR Dissemination Feed
Last Data Received:    November 27, 2026

CIK|Company Name|Form Type|Date Filed|Filename
--------------------------------------------------------------------------------
320193|APPLE INC|10-K|20261127|edgar/data/320193/0000320193-26-000100.txt
1234|SOME CO|8-K|20261127|edgar/data/1234/0000001234-26-000001.txt
broken line|x
`;
  it('reads one filing a line after the header, with the accession from the file name', () => {
    const { filings, rejected } = parseDailyIndex(INDEX);
    assert.deepEqual(
      filings.map((f) => `${f.cik} ${f.form} ${f.accession} ${f.filed_date}`),
      ['0000320193 10-K 0000320193-26-000100 2026-11-27', '0000001234 8-K 0000001234-26-000001 2026-11-27'],
    );
    assert.equal(rejected, 1);
  });

  it('refuses a text that is no index at all', () => {
    assert.throws(() => parseDailyIndex('<html>Not Found</html>'), FeedFormatError);
  });
});
