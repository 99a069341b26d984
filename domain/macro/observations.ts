import type { MacroFrequency, MacroSeries } from './series-registry.ts';

/**
 * Macro observations as the publisher lists them: a date (FRED's convention: the first day of the
 * period) and a decimal text, or null when the publisher lists the date with no value. Parsing and
 * dating are pure so the loader and the tests share one reading of the files.
 */
export interface RawObservation {
  date: string;
  /** decimal text exactly as published; null = listed with no value (never filled in) */
  value: string | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * `date,value` CSV (our mirror) or FRED's own download (`observation_date,<CODE>`; "." for no
 * value). Refuses anything else loudly: a malformed line must not become a silent gap.
 */
export function parseMacroCsv(text: string, origin: string): RawObservation[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const header = lines[0]?.trim().toLowerCase() ?? '';
  if (!/^(date|observation_date),[a-z0-9_]+$/.test(header)) {
    throw new Error(`${origin}: expected a "date,value" header, got ${JSON.stringify(lines[0] ?? '')}`);
  }
  const out: RawObservation[] = [];
  let previous = '';
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const [date, raw, ...extra] = line.split(',');
    if (!date || !DATE.test(date) || extra.length > 0) throw new Error(`${origin} line ${i + 1}: expected date,value, got ${JSON.stringify(line)}`);
    if (date <= previous) throw new Error(`${origin} line ${i + 1}: dates must increase (${date} after ${previous})`);
    previous = date;
    const text = (raw ?? '').trim();
    if (text === '' || text === '.') out.push({ date, value: null });
    else if (DECIMAL.test(text)) out.push({ date, value: text });
    else throw new Error(`${origin} line ${i + 1}: not a decimal value ${JSON.stringify(text)}`);
  }
  return out;
}

function utc(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** date + n calendar days */
export function addDays(date: string, days: number): string {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}

/** The same calendar date n years earlier (29 February falls back to the 28th). */
export function yearsBefore(date: string, years: number): string {
  const y = Number(date.slice(0, 4)) - years;
  const md = date.slice(5);
  const candidate = `${String(y).padStart(4, '0')}-${md}`;
  return md === '02-29' && iso(utc(candidate)) !== candidate ? `${String(y).padStart(4, '0')}-02-28` : candidate;
}

/** Last day of the period an observation dated `date` (its first day) covers. */
export function periodEnd(date: string, frequency: MacroFrequency): string {
  if (frequency === 'daily') return date;
  const months = frequency === 'monthly' ? 1 : 3;
  const d = utc(`${date.slice(0, 7)}-01`);
  d.setUTCMonth(d.getUTCMonth() + months);
  d.setUTCDate(0);
  return iso(d);
}

/** First day from which a value without a vintage counts as knowable: period end + release lag. */
export function knowableFrom(date: string, series: Pick<MacroSeries, 'frequency' | 'release_lag_days'>): string {
  return addDays(periodEnd(date, series.frequency), series.release_lag_days);
}

/** `YYYY-MM` months from the month of `start` through the month of `end`, inclusive. */
export function monthsSpanned(start: string, end: string): string[] {
  const out: string[] = [];
  let y = Number(start.slice(0, 4));
  let m = Number(start.slice(5, 7));
  const last = end.slice(0, 7);
  for (;;) {
    const key = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
    if (key > last) break;
    out.push(key);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}
