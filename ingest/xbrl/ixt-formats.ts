import { dec, plain } from '../../domain/decimal.ts';

/**
 * Inline XBRL transformations: what an `ix:nonFraction`/`ix:nonNumeric` `format="..."` turns the
 * displayed text into. Only the formats SEC filers actually write are here (the XBRL registry's
 * number, fixed-value and English date formats; SEC's ixt-sec durations, number words, ballot
 * boxes and code lists). An unknown format or text a format cannot read throws: a fact is never
 * silently given a wrong value or dropped.
 *
 * Registry versions (TR2 2011 ... TR5 2022) share one namespace stem and keep the meaning of a
 * name, and TR2/TR3 names (`numdotdecimal`) differ from TR4+ (`num-dot-decimal`), so one table
 * serves them all. Semantics follow the registries and SEC's published transform code.
 */
export const IXT_NS_STEM = 'http://www.xbrl.org/inlineXBRL/transformation/';
export const IXT_SEC_NS_STEM = 'http://www.sec.gov/inlineXBRL/transformation/';

type Transform = (text: string) => string;

export class FormatError extends Error {}

const fail = (format: string, text: string): never => {
  throw new FormatError(`${format} cannot read ${JSON.stringify(text.trim().slice(0, 60))}`);
};

// \s also covers the no-break spaces (U+00A0, U+202F) filers put around and inside figures
const trim = (t: string) => t.replace(/^\s+|\s+$/g, '');
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

function decimalOr(format: string, text: string, cleaned: string): string {
  return DECIMAL.test(cleaned) ? cleaned : fail(format, text);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Full English month name or an abbreviation of at least three letters ("Sept", "DEC"). */
function monthOf(name: string): number | null {
  const n = name.toLowerCase();
  if (n.length < 3) return null;
  const i = MONTHS.findIndex((m) => m.startsWith(n));
  return i < 0 ? null : i + 1;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Two-digit years: the registry leaves the century open; filings are all after 1950. */
function year4(y: string): string {
  if (y.length === 4) return y;
  const n = Number(y);
  return String(n < 50 ? 2000 + n : 1900 + n);
}

function daysIn(month: number, year: number | null): number {
  if (month === 2) return year === null || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function date(format: string, text: string, month: number | null, day: string, year: string | null): string {
  const d = Number(day);
  const y = year === null ? null : year4(year);
  if (month === null || d < 1 || d > daysIn(month, y === null ? null : Number(y))) return fail(format, text);
  return y === null ? `--${pad2(month)}-${pad2(d)}` : `${y}-${pad2(month)}-${pad2(d)}`;
}

function dateTransform(format: string, pattern: RegExp, build: (m: RegExpExecArray, text: string) => string): Transform {
  return (text) => {
    const m = pattern.exec(text);
    return m ? build(m, text) : fail(format, text);
  };
}

// ---------- number words (ixt-sec:numwordsen, durwordsen) ----------

const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: Record<string, bigint> = { thousand: 10n ** 3n, million: 10n ** 6n, billion: 10n ** 9n, trillion: 10n ** 12n, quadrillion: 10n ** 15n, quintillion: 10n ** 18n };

/** "one hundred and twenty-five thousand" -> 125000; null when a word is not a number word. BigInt: words can exceed 2^53. */
function wordsToNumber(words: string[]): bigint | null {
  let total = 0n;
  let group = 0n;
  let seen = false;
  for (const w of words) {
    if (w === 'and') continue;
    const small = SMALL.indexOf(w);
    const tens = TENS.indexOf(w);
    if (small >= 0) group += BigInt(small);
    else if (tens >= 2) group += BigInt(tens * 10);
    else if (w === 'hundred') group *= 100n;
    else if (w in SCALES) {
      total += group * SCALES[w]!;
      group = 0n;
    } else return null;
    seen = true;
  }
  return seen ? total + group : null;
}

// hyphen-minus and the Unicode dashes the SEC patterns accept between number words
const WORD_SPLIT = /[\s,\u058A\u05BE\u2010-\u2015\uFE58\uFE63\uFF0D-]+/;

function numWordsEn(text: string): string {
  const t = trim(text).toLowerCase();
  if (t === 'no' || t === 'none' || t === 'nil') return '0';
  const n = wordsToNumber(t.split(WORD_SPLIT).filter(Boolean));
  return n === null ? fail('ixt-sec:numwordsen', text) : n.toString();
}

/** "five years", "364-day", "two years, six months": each unit once, zero parts left out as SEC does. */
function durWordsEn(text: string): string {
  const parts: Record<'Y' | 'M' | 'D', string | null> = { Y: null, M: null, D: null };
  let pending: string[] = [];
  for (const w of trim(text).toLowerCase().split(WORD_SPLIT).filter(Boolean)) {
    const unit = /^years?$/.test(w) ? 'Y' : /^months?$/.test(w) ? 'M' : /^days?$/.test(w) ? 'D' : null;
    if (unit === null) {
      pending.push(w);
      continue;
    }
    if (parts[unit] !== null || pending.length === 0) return fail('ixt-sec:durwordsen', text);
    const digits = pending.length === 1 && /^\d{1,4}$/.test(pending[0]!) ? pending[0]! : null;
    const n = digits ?? (pending.length === 1 && pending[0] === 'no' ? '0' : wordsToNumber(pending)?.toString());
    if (n === undefined) return fail('ixt-sec:durwordsen', text);
    parts[unit] = n;
    pending = [];
  }
  if (pending.length > 0 && !(pending.length === 1 && pending[0] === 'and')) return fail('ixt-sec:durwordsen', text);
  let out = 'P';
  for (const u of ['Y', 'M', 'D'] as const) if (parts[u] !== null && Number(parts[u]) !== 0) out += `${Number(parts[u])}${u}`;
  return out === 'P' ? 'P0D' : out;
}

// ---------- numeric durations (ixt-sec:duryear, durmonth, durday) ----------

/**
 * SEC spills a fractional count into the next smaller units (a month is 30.4375 days), truncating.
 * SEC's reference code uses binary floats; exact decimals give the same answer for every
 * figure in the corpus and cannot drift by one at a boundary.
 */
function durNumber(format: string, spill: Array<[unit: string, factor: string]>): Transform {
  return (text) => {
    const t = trim(text);
    if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(t)) return fail(format, text);
    let n = dec(t).abs();
    const sign = t.startsWith('-') && !n.isZero() ? '-' : '';
    const values: Array<[string, string]> = [];
    for (const [unit, factor] of spill) {
      const whole = n.floor();
      values.push([unit, plain(whole)]);
      n = n.minus(whole).times(factor);
    }
    // the first unit is always written (P0Y, P12M); later ones only when non-zero
    const [first, ...rest] = values;
    const out = `P${first![1]}${first![0]}` + rest.filter(([, v]) => v !== '0').map(([u, v]) => (u === 'H' ? `T${v}H` : `${v}${u}`)).join('');
    return out === `P0${first![0]}` ? out : sign + out;
  };
}

// ---------- code lists (ixt-sec:stateprovnameen, exchnameen, entityfilercategoryen) ----------

const norm = (t: string) => trim(t).replace(/\s+/g, ' ').toLowerCase();

function table(entries: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of entries.split('|')) {
    const [names, code] = entry.split('=') as [string, string];
    for (const name of names.split('/')) map.set(name, code);
  }
  return map;
}

const STATES = table(
  'alabama=AL|alaska=AK|arizona=AZ|arkansas=AR|california=CA|colorado=CO|connecticut=CT|delaware=DE|florida=FL|georgia=GA|hawaii=HI|idaho=ID|illinois=IL|indiana=IN|iowa=IA|kansas=KS|kentucky=KY|louisiana=LA|maine=ME|maryland=MD|massachusetts=MA|michigan=MI|minnesota=MN|mississippi=MS|missouri=MO|montana=MT|nebraska=NE|nevada=NV|new hampshire=NH|new jersey=NJ|new mexico=NM|new york=NY|north carolina=NC|north dakota=ND|ohio=OH|oklahoma=OK|oregon=OR|pennsylvania=PA|rhode island=RI|south carolina=SC|south dakota=SD|tennessee=TN|texas=TX|utah=UT|vermont=VT|virginia=VA|washington=WA|west virginia=WV|wisconsin=WI|wyoming=WY|district of columbia=DC|american samoa/samoa=AS|guam=GU|northern mariana islands=MP|puerto rico=PR|united states minor outlying islands=UM|virgin islands, u.s.=VI' +
    '|alberta=AB|british columbia=BC|manitoba=MB|new brunswick=NB|newfoundland/newfoundland and labrador=NL|nova scotia=NS|northwest territories=NT|nunavut=NU|ontario=ON|prince edward island=PE|quebec/québec=QC|saskatchewan=SK|yukon=YT',
);

// after dropping a leading "the" and a trailing ", LLC" / ", Inc."
const EXCHANGES = table(
  'box exchange=BOX|cboe byx exchange=CboeBYX|cboe bzx exchange=CboeBZX|cboe c2 exchange=C2|cboe edga exchange=CboeEDGA|cboe edgx exchange=CboeEDGX|cboe exchange=CBOE|chicago stock exchange=CHX|investors exchange=IEX|miami international securities exchange=MIAX|miax pearl=PEARL' +
    '|nasdaq bx=BX|nasdaq gemx=GEMX|nasdaq ise=ISE|nasdaq mrx=MRX|nasdaq phlx=Phlx|nyse/new york stock exchange=NYSE|nyse american=NYSEAMER|nyse arca=NYSEArca|nyse national=NYSENAT' +
    '|nasdaq/nasdaq stock market/nasdaq global market/nasdaq global select market=NASDAQ',
);

function lookup(format: string, map: Map<string, string>, key: (t: string) => string): Transform {
  return (text) => map.get(key(text)) ?? fail(format, text);
}

const exchangeKey = (t: string) => norm(t).replace(/^the /, '').replace(/,? (?:llc|inc\.?)$/, '');

function filerCategory(text: string): string {
  const t = norm(text);
  if (t === 'large accelerated filer') return 'Large Accelerated Filer';
  if (t === 'accelerated filer') return 'Accelerated Filer';
  if (/^non\W+accelerated filer$/.test(t)) return 'Non-accelerated Filer';
  return fail('ixt-sec:entityfilercategoryen', text);
}

function ballotBox(text: string): string {
  const c = trim(text);
  // U+2610 empty box; U+2611 and U+2612 are the checked and crossed boxes
  if (c === '\u2610') return 'false';
  if (c === '\u2611' || c === '\u2612') return 'true';
  return fail('ixt-sec:boolballotbox', text);
}

// ---------- the registries ----------

const numDotDecimal: Transform = (t) => decimalOr('ixt:num-dot-decimal', t, t.replace(/[\s,]/g, ''));
const numCommaDecimal: Transform = (t) => decimalOr('ixt:num-comma-decimal', t, t.replace(/[\s.]/g, '').replace(',', '.'));
const zero: Transform = () => '0';
const yes: Transform = () => 'true';
const no: Transform = () => 'false';
const empty: Transform = () => '';
const MONTH_DAY_YEAR_EN = dateTransform('ixt:date-monthname-day-year-en', /^\s*([A-Za-z]+)[^0-9]+([0-9]{1,2})[^0-9]+([0-9]{4}|[0-9]{1,2})\s*$/, (m, t) =>
  date('ixt:date-monthname-day-year-en', t, monthOf(m[1]!), m[2]!, m[3]!),
);
const MONTH_DAY_EN = dateTransform('ixt:date-monthname-day-en', /^\s*([A-Za-z]+)[^0-9]+([0-9]{1,2})(?:st|nd|rd|th)?\s*$/i, (m, t) =>
  date('ixt:date-monthname-day-en', t, monthOf(m[1]!), m[2]!, null),
);
const MONTH_YEAR_EN = dateTransform('ixt:date-monthname-year-en', /^\s*([A-Za-z]+)[^0-9]+([0-9]{4}|[0-9]{1,2})\s*$/, (m, t) => {
  const month = monthOf(m[1]!);
  return month === null ? fail('ixt:date-monthname-year-en', t) : `${year4(m[2]!)}-${pad2(month)}`;
});
const MONTH_DAY = dateTransform('ixt:date-month-day', /^\s*([0-9]{1,2})[^0-9]+([0-9]{1,2})\s*$/, (m, t) =>
  date('ixt:date-month-day', t, Number(m[1]) >= 1 && Number(m[1]) <= 12 ? Number(m[1]) : null, m[2]!, null),
);
const MONTH_DAY_YEAR = dateTransform('ixt:date-month-day-year', /^\s*([0-9]{1,2})[^0-9]+([0-9]{1,2})[^0-9]+([0-9]{4}|[0-9]{1,2})\s*$/, (m, t) =>
  date('ixt:date-month-day-year', t, Number(m[1]) >= 1 && Number(m[1]) <= 12 ? Number(m[1]) : null, m[2]!, m[3]!),
);

const IXT: Record<string, Transform> = {
  'num-dot-decimal': numDotDecimal,
  numdotdecimal: numDotDecimal,
  'num-comma-decimal': numCommaDecimal,
  numcommadecimal: numCommaDecimal,
  'fixed-zero': zero,
  zerodash: zero,
  'fixed-true': yes,
  booleantrue: yes,
  'fixed-false': no,
  booleanfalse: no,
  'fixed-empty': empty,
  nocontent: empty,
  'date-monthname-day-year-en': MONTH_DAY_YEAR_EN,
  datemonthdayyearen: MONTH_DAY_YEAR_EN,
  'date-monthname-day-en': MONTH_DAY_EN,
  datemonthdayen: MONTH_DAY_EN,
  'date-monthname-year-en': MONTH_YEAR_EN,
  datemonthyearen: MONTH_YEAR_EN,
  'date-month-day': MONTH_DAY,
  datemonthday: MONTH_DAY,
  'date-month-day-year': MONTH_DAY_YEAR,
  datemonthdayyear: MONTH_DAY_YEAR,
};

const IXT_SEC: Record<string, Transform> = {
  numwordsen: numWordsEn,
  durwordsen: durWordsEn,
  duryear: durNumber('ixt-sec:duryear', [['Y', '12'], ['M', '30.4375'], ['D', '0']]),
  durmonth: durNumber('ixt-sec:durmonth', [['M', '30.4375'], ['D', '0']]),
  durday: durNumber('ixt-sec:durday', [['D', '24'], ['H', '0']]),
  boolballotbox: ballotBox,
  stateprovnameen: lookup('ixt-sec:stateprovnameen', STATES, norm),
  exchnameen: lookup('ixt-sec:exchnameen', EXCHANGES, exchangeKey),
  entityfilercategoryen: filerCategory,
};

/** The transform for a resolved format QName, or null when this reader does not know it. */
export function findFormat(namespaceUri: string, local: string): Transform | null {
  if (namespaceUri.startsWith(IXT_NS_STEM)) return IXT[local] ?? null;
  if (namespaceUri.startsWith(IXT_SEC_NS_STEM)) return IXT_SEC[local] ?? null;
  return null;
}

/** Applies a format to a fact's displayed text; throws FormatError for an unknown format or unreadable text. */
export function applyFormat(namespaceUri: string, local: string, text: string): string {
  const transform = findFormat(namespaceUri, local);
  if (!transform) throw new FormatError(`unsupported inline XBRL format {${namespaceUri}}${local}`);
  return transform(text);
}
