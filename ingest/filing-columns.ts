import { asArray, asRecord, optionalString, requiredString } from './json-shape.ts';

/** One filing as listed in submissions; enough to locate and classify it, not its contents. */
export interface FilingRef {
  /** 0000320193-24-000123 */
  accession: string;
  form: string;
  /** YYYY-MM-DD */
  filingDate: string;
  /** YYYY-MM-DD, the period the filing reports on; null when SEC gives none */
  reportDate: string | null;
  /** ISO-8601 UTC, when EDGAR accepted it */
  acceptanceDateTime: string | null;
  primaryDocument: string | null;
  isXBRL: boolean;
  isInlineXBRL: boolean;
  /** bytes */
  size: number | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/**
 * An instant written exactly as toISOString writes it, every field in range (the day is checked
 * against its month apart): the form SEC writes acceptanceDateTime in.
 */
const NORMALIZED_INSTANT = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Turns SEC's columnar filing lists (`filings.recent`, and the top level of each history page)
 * into rows. Columns must all have the same length: a ragged file would pair one filing's date
 * with another's accession, so it is rejected rather than guessed at.
 */
export function parseFilingColumns(json: unknown, where: string): FilingRef[] {
  const cols = asRecord(json, where);
  const accession = asArray(cols.accessionNumber, `${where}.accessionNumber`);
  const column = (name: string, required: boolean): unknown[] | null => {
    if (cols[name] === undefined && !required) return null;
    const values = asArray(cols[name], `${where}.${name}`);
    if (values.length !== accession.length) {
      throw new Error(`${where}.${name}: ${values.length} values for ${accession.length} filings`);
    }
    return values;
  };
  const form = column('form', true) ?? [];
  const filingDate = column('filingDate', true) ?? [];
  const reportDate = column('reportDate', false);
  const accepted = column('acceptanceDateTime', false);
  const primaryDocument = column('primaryDocument', false);
  const isXBRL = column('isXBRL', false);
  const isInlineXBRL = column('isInlineXBRL', false);
  const size = column('size', false);

  return accession.map((acc, i) => {
    const at = `${where}[${i}]`;
    return {
      accession: requiredString(acc, `${at}.accessionNumber`),
      form: requiredString(form[i], `${at}.form`),
      filingDate: day(filingDate[i], `${at}.filingDate`) ?? missing(`${at}.filingDate`),
      reportDate: day(reportDate?.[i], `${at}.reportDate`),
      acceptanceDateTime: instant(accepted?.[i], `${at}.acceptanceDateTime`),
      primaryDocument: optionalString(primaryDocument?.[i], `${at}.primaryDocument`),
      isXBRL: flag(isXBRL?.[i]),
      isInlineXBRL: flag(isInlineXBRL?.[i]),
      size: typeof size?.[i] === 'number' && Number.isFinite(size[i]) ? (size[i] as number) : null,
    };
  });
}

function day(value: unknown, where: string): string | null {
  const s = optionalString(value, where);
  if (s !== null && !DAY.test(s)) throw new Error(`${where}: not a YYYY-MM-DD date: ${JSON.stringify(s)}`);
  return s;
}

/** Normalized through Date so every row compares and sorts the same way as text. */
function instant(value: unknown, where: string): string | null {
  const s = optionalString(value, where);
  if (s === null) return null;
  // already the normalized text: the Date round trip (a microsecond or two per filing, most of
  // reading submissions) would give it back unchanged
  if (NORMALIZED_INSTANT.test(s) && dayInMonth(s)) return s;
  // without a zone Date.parse would read the machine's local time
  const ms = /(?:Z|[+-]\d{2}:?\d{2})$/.test(s) ? Date.parse(s) : Number.NaN;
  if (Number.isNaN(ms)) throw new Error(`${where}: not a timestamp: ${JSON.stringify(s)}`);
  return new Date(ms).toISOString();
}

/** Whether YYYY-MM-DD... names a day its month has (Date rolls 2023-02-30 over into March instead). */
function dayInMonth(s: string): boolean {
  const day = Number(s.slice(8, 10));
  if (day <= 28) return true;
  const year = Number(s.slice(0, 4));
  const month = Number(s.slice(5, 7));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** SEC writes booleans as 0/1 (and null when unknown, which means "no" for our purposes). */
function flag(value: unknown): boolean {
  return value === 1 || value === true || value === '1';
}

function missing(where: string): never {
  throw new Error(`${where}: missing`);
}
