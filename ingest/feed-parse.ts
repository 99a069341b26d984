import { SaxesParser } from 'saxes';
import { easternToUtc, type FeedFiling } from '../domain/feed.ts';
import { padCik } from '../domain/cik.ts';

/** The feed or an index could not be read as what it claims to be (the watcher records it and goes on). */
export class FeedFormatError extends Error {}

const EDGAR_NS = 'https://www.sec.gov/Archives/edgar';
const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;

/**
 * SEC's XBRL RSS feed: one filing per `<item>` with an `edgar:xbrlFiling` (cikNumber, formType,
 * accessionNumber, acceptanceDatetime in New York time, period, filingDate). Malformed XML throws
 * FeedFormatError; an item lacking a CIK, form or well-formed accession is left out and counted.
 */
export function parseXbrlFeed(xml: string): { filings: FeedFiling[]; rejected: number } {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const filings: FeedFiling[] = [];
  let rejected = 0;
  let fields: Record<string, string> | null = null;
  let field: string | null = null;
  let text = '';
  let sawRss = false;
  parser.on('opentag', (tag) => {
    if (tag.local === 'rss' || tag.local === 'channel') sawRss = true;
    if (tag.local === 'item' && tag.uri === '') {
      fields = {};
    } else if (fields && tag.uri === EDGAR_NS) {
      field = tag.local;
      text = '';
    }
  });
  parser.on('text', (t) => {
    if (field) text += t;
  });
  parser.on('cdata', (t) => {
    if (field) text += t;
  });
  parser.on('closetag', (tag) => {
    if (fields && field && tag.local === field && tag.uri === EDGAR_NS) {
      fields[field] = text.trim();
      field = null;
    } else if (tag.local === 'item' && tag.uri === '' && fields) {
      const f: Record<string, string> = fields;
      fields = null;
      const filing = filingFromFeed(f);
      if (filing) filings.push(filing);
      else rejected++;
    }
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    throw new FeedFormatError(`the XBRL feed is not well-formed XML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!sawRss) throw new FeedFormatError('the XBRL feed is not an RSS document');
  return { filings, rejected };
}

function filingFromFeed(f: Record<string, string>): FeedFiling | null {
  const cik = f.cikNumber ?? '';
  const accession = f.accessionNumber ?? '';
  const form = f.formType ?? '';
  if (!/^\d{1,10}$/.test(cik) || !ACCESSION.test(accession) || !form) return null;
  const filed = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(f.filingDate ?? '');
  const period = /^(\d{4})(\d{2})(\d{2})$/.exec(f.period ?? '');
  return {
    cik: padCik(cik),
    form,
    accession,
    company_name: f.companyName || null,
    accepted_at: f.acceptanceDatetime ? easternToUtc(f.acceptanceDatetime) : null,
    filed_date: filed ? `${filed[3]}-${filed[1]}-${filed[2]}` : null,
    period: period ? `${period[1]}-${period[2]}-${period[3]}` : null,
  };
}

/**
 * SEC's daily index (`master.YYYYMMDD.idx`): header lines, a dashed rule, then one filing a line,
 * `CIK|Company Name|Form Type|Date Filed|Filename`. The accession is the file name's stem. A text
 * with no such line after its header is FeedFormatError (an HTML error page, a truncated file).
 */
export function parseDailyIndex(text: string): { filings: FeedFiling[]; rejected: number } {
  const lines = text.split(/\r?\n/);
  const rule = lines.findIndex((l) => /^-{10,}\s*$/.test(l));
  const body = rule >= 0 ? lines.slice(rule + 1) : lines;
  const filings: FeedFiling[] = [];
  let rejected = 0;
  let rows = 0;
  for (const line of body) {
    if (!line.includes('|')) continue;
    const cols = line.split('|');
    if (cols[0] === 'CIK') continue;
    rows++;
    const [cik, name, form, date, file] = cols.map((c) => c.trim());
    const accession = /(\d{10}-\d{2}-\d{6})\.txt$/.exec(file ?? '')?.[1] ?? null;
    const filed = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(date ?? '');
    if (cols.length !== 5 || !cik || !/^\d{1,10}$/.test(cik) || !form || !accession) {
      rejected++;
      continue;
    }
    filings.push({
      cik: padCik(cik),
      form,
      accession,
      company_name: name || null,
      accepted_at: null,
      filed_date: filed ? `${filed[1]}-${filed[2]}-${filed[3]}` : null,
      period: null,
    });
  }
  if (rows === 0 && rule < 0) throw new FeedFormatError('the daily index has no header rule and no filing lines');
  return { filings, rejected };
}
