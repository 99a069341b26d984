/** Calendar arithmetic on YYYY-MM-DD strings, in UTC, without a date library. */
const DAY_MS = 86_400_000;

function ms(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

/**
 * Days since 1970-01-01 of a YYYY-MM-DD string, by arithmetic (days-from-civil): the hot path
 * compares period dates of every fact, and Date.parse there cost more than parsing the JSON.
 */
export function dayNumber(date: string): number {
  let y = digits(date, 0, 4);
  const m = digits(date, 5, 7);
  const d = digits(date, 8, 10);
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** whole days from a to b (b - a) */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

export function addDays(date: string, days: number): string {
  // by arithmetic where the date is a real calendar day of years 1000-9999 (every fact date):
  // a Date and its ISO text per call were a hot spot of the normalizer; anything else as before
  const n = dayNumber(date);
  if (n >= MIN_FAST_DAY && n <= MAX_FAST_DAY && date.length === 10 && dateOfDayNumber(n) === date) {
    const shifted = n + days;
    if (shifted >= MIN_FAST_DAY && shifted <= MAX_FAST_DAY) return dateOfDayNumber(shifted);
  }
  return new Date(ms(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** dayNumber of 1000-01-01 and of 9999-12-31: the range where YYYY-MM-DD has four year digits */
const MIN_FAST_DAY = -354285;
const MAX_FAST_DAY = 2932896;

/** YYYY-MM-DD of a day number (civil-from-days, the inverse of dayNumber), for years 1000-9999 */
function dateOfDayNumber(n: number): string {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/** same month and day n years on; Feb 29 becomes Feb 28 */
export function addYears(date: string, years: number): string {
  const y = Number(date.slice(0, 4)) + years;
  const md = date.slice(5);
  const candidate = `${String(y).padStart(4, '0')}-${md}`;
  return md === '02-29' && addDays(`${y}-02-28`, 1).slice(5) !== '02-29' ? `${y}-02-28` : candidate;
}

export function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}
