import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { before, describe, it } from 'node:test';
import { dec, decEquals, plain } from '../../../../domain/decimal.ts';
import type { ParsedInstance, XbrlFact } from '../../../../domain/xbrl.ts';
import { openSecSource } from '../../../../ingest/source.ts';
import { parseInline, readInline, scaledDecimal } from '../../../../ingest/xbrl/inline.ts';
import { parseInstance } from '../../../../ingest/xbrl/instance.ts';
import { SHARED_SEC_URL } from '../../../helpers/shared-data.ts';

// Expected figures below were read off the .htm files with grep, not produced by this reader.
const ARCHIVES = new URL('www.sec.gov/Archives/edgar/data/', SHARED_SEC_URL);

const INLINE = {
  wmt: '104169/000010416925000021/wmt-20250131.htm',
  nvda: '1045810/000104581025000023/nvda-20250126.htm',
  tsla: '1318605/000162828025003063/tsla-20241231.htm',
  nke: '320187/000032018725000047/nke-20250531.htm',
  aapl24: '320193/000032019324000123/aapl-20240928.htm',
  xom: '34088/unknown-10-Q-2025-06-30/xom-20250630.htm',
  hd: '354950/000035495025000085/hd-20250202.htm',
  unh: '731766/000073176625000063/unh-20241231.htm',
  aapl25: '320193/000032019325000057/aapl-20250329.htm',
} as const;
type Name = keyof typeof INLINE;

const raw = new Map<Name, string>();
const parsed = new Map<Name, ParsedInstance>();

function doc(name: Name): ParsedInstance {
  const p = parsed.get(name);
  assert.ok(p, `${name} was not parsed`);
  return p;
}

function fact(p: ParsedInstance, id: string): XbrlFact {
  const f = p.facts.find((x) => x.id === id);
  assert.ok(f, `no fact ${id}`);
  return f;
}

/** Tags stripped, the XML escapes that survive stripping undone, whitespace collapsed. */
function plainText(value: string | null): string {
  return (value ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('inline XBRL reader on real filings', () => {
  before(async () => {
    for (const [name, path] of Object.entries(INLINE) as Array<[Name, string]>) {
      const bytes = await readFile(new URL(path, ARCHIVES));
      raw.set(name, bytes.toString('latin1'));
      // a stream in small chunks, as SecSource.openStream gives it: nothing may depend on chunk borders
      parsed.set(name, await parseInline(Readable.from(chunks(bytes, 64 * 1024))));
    }
  });

  it('reads every ix:nonFraction and ix:nonNumeric outside ix:exclude as one fact', () => {
    for (const name of Object.keys(INLINE) as Name[]) {
      const text = raw.get(name)!;
      assert.match(text, /xmlns:ix="http:\/\/www\.xbrl\.org\/2013\/inlineXBRL"/, `${name} binds ix as the count below assumes`);
      const visible = text.replace(/<ix:exclude\b[\s\S]*?<\/ix:exclude>/g, '');
      const numeric = (visible.match(/<ix:nonFraction\b/g) ?? []).length;
      const nonNumeric = (visible.match(/<ix:nonNumeric\b/g) ?? []).length;
      const p = doc(name);
      assert.equal(p.facts.filter((f) => f.numeric).length, numeric, `${name} numeric facts`);
      assert.equal(p.facts.filter((f) => !f.numeric).length, nonNumeric, `${name} non-numeric facts`);
      for (const f of p.facts) {
        assert.ok(p.contexts.has(f.contextRef), `${name} ${f.id} context ${f.contextRef}`);
        if (f.numeric) {
          assert.ok(p.units.has(f.unitRef ?? ''), `${name} ${f.id} unit ${f.unitRef}`);
          if (!f.nil) assert.match(f.value ?? '', /^-?\d+(\.\d+)?$/, `${name} ${f.id}`);
        }
      }
    }
  });

  it('Apple FY2024 net sales of 391,035 at scale 6 read as 391035000000', () => {
    const p = doc('aapl24');
    assert.deepEqual(fact(p, 'f-66'), {
      concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      contextRef: 'c-1',
      unitRef: 'usd',
      value: '391035000000',
      numeric: true,
      nil: false,
      decimals: '-6',
      id: 'f-66',
      hidden: false,
    });
    assert.deepEqual(p.contexts.get('c-1'), { id: 'c-1', entity: '0000320193', start: '2023-10-01', end: '2024-09-28', dimensions: [] });
    assert.deepEqual(p.units.get('usd'), { id: 'usd', measure: 'USD' });
    assert.equal(p.units.get('usdPerShare')?.measure, 'USD/shares');
    assert.equal(p.schemaRef, 'aapl-20240928.xsd');
    assert.equal(p.namespaces['us-gaap'], 'http://fasb.org/us-gaap/2024');
  });

  it('sign="-" negates the scaled figure: Apple other income/(expense) 565 is -565000000', () => {
    assert.equal(fact(doc('aapl24'), 'f-94').value, '-565000000');
  });

  it('a dash under ixt:fixed-zero and "none"/"no" under ixt-sec:numwordsen read as 0', () => {
    assert.equal(fact(doc('aapl24'), 'f-325').value, '0'); // &#8212; ProceedsFromIssuanceOfLongTermDebt
    assert.equal(fact(doc('wmt'), 'f-633').value, '0'); // "none" preferred shares, scale 9
    assert.equal(fact(doc('nke'), 'f-812').value, '0'); // "no" par value
  });

  it('a nested ix:nonFraction is a fact of its own and gives its figure to the outer one', () => {
    const p = doc('wmt');
    assert.equal(fact(p, 'f-562').value, '1200000000');
    assert.equal(fact(p, 'f-563').value, '1200000000');
    assert.equal(fact(p, 'f-624').value, '33000000000');
    assert.notEqual(fact(p, 'f-624').contextRef, fact(p, 'f-625').contextRef);
  });

  it('nil facts have a null value', () => {
    assert.deepEqual(fact(doc('aapl24'), 'f-191'), {
      concept: 'us-gaap:CommitmentsAndContingencies', contextRef: 'c-21', unitRef: 'usd', value: null, numeric: true, nil: true, decimals: null, id: 'f-191', hidden: false,
    });
  });

  it('a continuedAt text block joins its continuations in document order, nested ones included', () => {
    // f-415 -> f-415-1 -> f-415-2 (which holds continuation f-416-1) -> f-415-3
    const block = plainText(fact(doc('aapl24'), 'f-415').value);
    assert.ok(block.startsWith('Financial Instruments Cash, Cash Equivalents and Marketable Securities'), block.slice(0, 80));
    const hedging = block.indexOf('To protect the Company\u2019s foreign currency\u2013denominated term debt');
    assert.ok(hedging > 0, 'text of the last continuation is present');
    assert.ok(block.indexOf('Cash, Cash Equivalents and Marketable Securities') < hedging);
    // escape="true": the value is XHTML, with the ix tags themselves dropped
    const html = fact(doc('aapl24'), 'f-349').value ?? '';
    assert.match(html, /^Summary of Significant Accounting Policies<div style="/);
    assert.doesNotMatch(html, /<ix:|xmlns/);
  });

  it('ix:hidden facts are marked hidden, and only those', () => {
    const p = doc('aapl24');
    assert.equal(fact(p, 'f-56').hidden, true); // dei:AmendmentFlag
    assert.equal(fact(p, 'f-56').value, 'false');
    const hidden = raw.get('aapl24')!.match(/<ix:hidden>([\s\S]*?)<\/ix:hidden>/)![1]!;
    const expected = (hidden.match(/<ix:non(?:Fraction|Numeric)\b/g) ?? []).length;
    assert.equal(p.facts.filter((f) => f.hidden).length, expected);
  });

  it('SEC and XBRL formats seen in the corpus transform as the registries say', () => {
    const aapl = doc('aapl24');
    assert.equal(fact(aapl, 'f-2').value, 'true'); // boolballotbox &#9746;
    assert.equal(fact(aapl, 'f-5').value, 'false'); // boolballotbox &#9744;
    assert.equal(fact(aapl, 'f-8').value, 'CA'); // stateprovnameen California
    assert.equal(fact(aapl, 'f-18').value, 'NASDAQ'); // exchnameen The Nasdaq Stock Market LLC
    const nvda = doc('nvda');
    // "January 26, 2025" with the fiscal year end tagged inside the period end date
    assert.equal(fact(nvda, 'f-3').value, '2025-01-26');
    assert.equal(fact(nvda, 'f-4').value, '--01-26');
    assert.equal(fact(nvda, 'f-949').value, 'P12M'); // durwordsen "twelve months"
    assert.equal(fact(doc('nke'), 'f-566').value, 'P364D'); // durwordsen "364-day"
    assert.equal(fact(doc('tsla'), 'f-1358').value, 'P3Y1M20D'); // duryear 3.14
    assert.equal(fact(doc('tsla'), 'f-1044').value, '2028-01'); // date-monthname-year-en January 2028
    assert.equal(fact(doc('unh'), 'f-1500').value, '2025-01-01'); // date-month-day-year 1/1/2025
  });

  it('THE EQUALITY TEST: Apple Q2 2025 inline facts equal the extracted instance, fact for fact', async () => {
    // through SecSource, as ingestion will read it
    const source = openSecSource(SHARED_SEC_URL);
    const inline = await readInline(source, 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm');
    assert.ok(inline);
    assert.equal(inline.facts.length, doc('aapl25').facts.length);
    const instance = await parseInstance(await readFile(new URL('320193/000032019325000057/aapl-20250329_htm.xml', ARCHIVES), 'utf8'));
    assert.deepEqual([...inline.contexts.entries()], [...instance.contexts.entries()]);
    assert.deepEqual([...inline.units.entries()], [...instance.units.entries()]);
    assert.equal(inline.schemaRef, instance.schemaRef);
    assert.equal(inline.facts.length, instance.facts.length);

    // fact for fact by what it says, not by id: concept, period and dimensions, unit, value, decimals, nil
    const key = (p: ParsedInstance, f: XbrlFact) => {
      const ctx = p.contexts.get(f.contextRef)!;
      const value = f.value === null ? 'nil' : f.numeric ? f.value : plainText(f.value);
      return JSON.stringify([f.concept, ctx.entity, ctx.start, ctx.end, ctx.dimensions, p.units.get(f.unitRef ?? '')?.measure ?? null, f.numeric, f.nil, f.decimals, value]);
    };
    const byId = new Map(instance.facts.map((f) => [f.id, f]));
    for (const f of inline.facts) {
      const g = byId.get(f.id);
      assert.ok(g, `instance has fact ${f.id}`);
      if (f.numeric && f.value !== null && g.value !== null) {
        // exact decimal equality: the instance writes 0.10 and 6000000000.0 where this reader gives 0.1 and 6000000000
        assert.ok(decEquals(f.value, g.value), `${f.id} ${f.value} vs ${g.value}`);
        continue;
      }
      assert.equal(key(inline, f), key(instance, g), f.id ?? '');
    }
    const numericKey = (p: ParsedInstance, f: XbrlFact) => (f.numeric && f.value !== null ? key(p, { ...f, value: f.value.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '') }) : key(p, f));
    assert.deepEqual(inline.facts.map((f) => numericKey(inline, f)).sort(), instance.facts.map((f) => numericKey(instance, f)).sort());
  });
});

function* chunks(bytes: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

// ---------- synthetic documents: one rule each ----------

const NS = [
  'xmlns="http://www.w3.org/1999/xhtml"',
  'xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"',
  'xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12"',
  'xmlns:ixt2="http://www.xbrl.org/inlineXBRL/transformation/2011-07-31"',
  'xmlns:ixt-sec="http://www.sec.gov/inlineXBRL/transformation/2015-08-31"',
  'xmlns:xbrli="http://www.xbrl.org/2003/instance"',
  'xmlns:xbrldi="http://xbrl.org/2006/xbrldi"',
  'xmlns:link="http://www.xbrl.org/2003/linkbase"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
  'xmlns:iso4217="http://www.xbrl.org/2003/iso4217"',
  // a filer-chosen prefix for US GAAP: concepts still come out as us-gaap:
  'xmlns:gaap="http://fasb.org/us-gaap/2024"',
  'xmlns:ex="http://example.com/20250101"',
].join(' ');

const HEADER = `<ix:header><ix:hidden><ix:nonNumeric name="gaap:AmendmentFlag" contextRef="c1" id="h1">false</ix:nonNumeric></ix:hidden>
<ix:references><link:schemaRef xlink:type="simple" xlink:href="ex-20250101.xsd"/></ix:references>
<ix:resources>
<xbrli:context id="c1"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="c2"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier><xbrli:segment>
<xbrldi:typedMember dimension="gaap:ZAxis"><ex:d>2025-01-01</ex:d></xbrldi:typedMember><xbrldi:explicitMember dimension="gaap:StatementBusinessSegmentsAxis">ex:AmericasMember</xbrldi:explicitMember>
</xbrli:segment></xbrli:entity><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="usdPerShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header>`;

const page = (body: string) => `<?xml version="1.0" encoding="utf-8"?><html ${NS}><head><title>t</title></head><body><div style="display:none">${HEADER}</div>${body}</body></html>`;

const num = (id: string, shown: string, attrs = '') => `<ix:nonFraction name="gaap:Revenues" contextRef="c1" unitRef="usd" decimals="-3" id="${id}" ${attrs}>${shown}</ix:nonFraction>`;

async function one(body: string, id = 'x'): Promise<XbrlFact> {
  return fact(await parseInline(page(body)), id);
}

describe('inline XBRL reader rules (synthetic documents)', () => {
  it('contexts, units, schemaRef and prefixes come out as an instance reader gives them', async () => {
    const p = await parseInline(page(num('x', '1')));
    assert.equal(p.schemaRef, 'ex-20250101.xsd');
    assert.deepEqual(p.contexts.get('c2'), {
      id: 'c2', entity: '0000000001', start: null, end: '2024-12-31',
      dimensions: [
        { axis: 'us-gaap:StatementBusinessSegmentsAxis', member: 'ex:AmericasMember', typed: null },
        { axis: 'us-gaap:ZAxis', member: null, typed: '2025-01-01' },
      ],
    });
    assert.equal(p.units.get('usdPerShare')?.measure, 'USD/shares');
    assert.equal(fact(p, 'x').concept, 'us-gaap:Revenues');
    assert.equal(fact(p, 'h1').hidden, true);
    assert.equal(fact(p, 'x').hidden, false);
  });

  it('scale multiplies exactly, to a plain decimal with no exponent', async () => {
    assert.equal((await one(num('x', '1,234.5', 'format="ixt:num-dot-decimal" scale="3"'))).value, '1234500');
    assert.equal((await one(num('x', '391,035', 'format="ixt:num-dot-decimal" scale="6"'))).value, '391035000000');
    assert.equal((await one(num('x', '12', 'scale="-2"'))).value, '0.12');
    assert.equal((await one(num('x', '1.23456789012345678901', 'scale="20"'))).value, '123456789012345678901');
    assert.equal((await one(num('x', '7', 'scale="0"'))).value, '7');
  });

  it('scaledDecimal moves the point over the digits and writes what decimal.js writes for the product (at ingestion\'s precision)', () => {
    const shown = ['0', '-0', '0.000', '-0.0', '.5', '-.5', '5.', '007', '00012.3400', '-1000', '391035', '1.23456789012345678901', '0.000120', '-9.99', '123456789012345678901234567890123456789012345678901234567'];
    for (const s of shown) {
      for (let k = -45; k <= 45; k++) {
        const scale = String(k);
        assert.equal(scaledDecimal(s, scale), plain(dec(s).times(dec(`1e${scale}`))), `${s} scale ${scale}`);
      }
    }
  });

  it('sign="-" negates after scaling, and a negated zero is plain 0', async () => {
    assert.equal((await one(num('x', '1,234', 'format="ixt:num-dot-decimal" scale="3" sign="-"'))).value, '-1234000');
    assert.equal((await one(num('x', '&#8212;', 'format="ixt:fixed-zero" sign="-"'))).value, '0');
  });

  it('number formats: dot decimal, comma decimal, the TR2 names, zero dash, number words', async () => {
    const cases: Array<[string, string, string]> = [
      ['ixt:num-dot-decimal', '1\u00A0234\u00A0567.89', '1234567.89'],
      ['ixt:num-comma-decimal', '1.234.567,89', '1234567.89'],
      ['ixt2:numdotdecimal', '2,500', '2500'],
      ['ixt2:numcommadecimal', '2.500,5', '2500.5'],
      ['ixt2:zerodash', '\u2014', '0'],
      ['ixt:fixed-zero', 'none', '0'],
      ['ixt-sec:numwordsen', 'no', '0'],
      ['ixt-sec:numwordsen', 'None', '0'],
      ['ixt-sec:numwordsen', 'zero', '0'],
      ['ixt-sec:numwordsen', 'Twenty-one', '21'],
      ['ixt-sec:numwordsen', 'one hundred and five thousand', '105000'],
    ];
    for (const [format, shown, value] of cases) {
      assert.equal((await one(num('x', shown, `format="${format}"`))).value, value, `${format} ${shown}`);
    }
  });

  it('decimals is kept as written; xsi:nil gives a null value', async () => {
    assert.equal((await one(num('x', '5'))).decimals, '-3');
    const inf = await one('<ix:nonFraction name="gaap:Shares" contextRef="c1" unitRef="usd" decimals=" INF " id="x">5</ix:nonFraction>');
    assert.equal(inf.decimals, 'INF');
    const nil = await one('<ix:nonFraction name="gaap:Revenues" contextRef="c1" unitRef="usd" xsi:nil="true" id="x"/>');
    assert.equal(nil.nil, true);
    assert.equal(nil.value, null);
    assert.equal(nil.decimals, null);
  });

  it('non-numeric formats: booleans, dates, durations, code lists', async () => {
    const cases: Array<[string, string, string]> = [
      ['ixt:fixed-true', '\u2612', 'true'],
      ['ixt:fixed-false', 'x', 'false'],
      ['ixt-sec:boolballotbox', '\u2610', 'false'],
      ['ixt-sec:boolballotbox', '\u2611', 'true'],
      ['ixt:date-monthname-day-year-en', 'March&#160;29, 2025', '2025-03-29'],
      ['ixt:date-monthname-day-en', 'MAY 31', '--05-31'],
      ['ixt:date-monthname-year-en', 'Sept. 2031', '2031-09'],
      ['ixt:date-month-day', '12/31', '--12-31'],
      ['ixt:date-month-day-year', '2/29/2024', '2024-02-29'],
      ['ixt-sec:duryear', '2.5', 'P2Y6M'],
      ['ixt-sec:duryear', '0', 'P0Y'],
      ['ixt-sec:durmonth', '18', 'P18M'],
      ['ixt-sec:durday', '90', 'P90D'],
      ['ixt-sec:durwordsen', 'two years, six months', 'P2Y6M'],
      ['ixt-sec:durwordsen', 'five-year', 'P5Y'],
      ['ixt-sec:stateprovnameen', 'New  Jersey', 'NJ'],
      ['ixt-sec:exchnameen', 'New York Stock Exchange', 'NYSE'],
      ['ixt-sec:exchnameen', 'The Nasdaq Global Select Market', 'NASDAQ'],
      ['ixt-sec:entityfilercategoryen', 'Non-accelerated filer', 'Non-accelerated Filer'],
    ];
    for (const [format, shown, value] of cases) {
      const body = `<ix:nonNumeric name="gaap:Note" contextRef="c1" id="x" format="${format}">${shown}</ix:nonNumeric>`;
      assert.equal((await one(body)).value, value, `${format} ${shown}`);
    }
  });

  it('an unknown format or text a format cannot read rejects the document', async () => {
    await assert.rejects(parseInline(page(num('x', '5', 'format="ixt:num-unheard-of"'))), /unsupported inline XBRL format/);
    await assert.rejects(parseInline(page(num('x', 'n/a', 'format="ixt:num-dot-decimal"'))), /num-dot-decimal cannot read "n\/a"/);
    await assert.rejects(parseInline(page(num('x', '1,234'))), /is not a number/);
    await assert.rejects(parseInline(page('<ix:nonNumeric name="gaap:D" contextRef="c1" id="x" format="ixt:date-month-day-year">2/30/2024</ix:nonNumeric>')), /cannot read/);
  });

  it('escape="true" keeps XHTML markup, drops ix tags and ix:exclude content; escape absent keeps the text', async () => {
    const inner = `<div class="a"><span>Sales rose to <ix:nonFraction name="gaap:Revenues" contextRef="c1" unitRef="usd" decimals="0" id="n">5</ix:nonFraction> &amp; more</span><br/><td/><ix:exclude>Page 7</ix:exclude></div>`;
    const p = await parseInline(page(`<ix:nonNumeric name="gaap:PolicyTextBlock" contextRef="c1" id="e" escape="true">${inner}</ix:nonNumeric><ix:nonNumeric name="gaap:PolicyTextBlock" contextRef="c1" id="t">${inner}</ix:nonNumeric>`));
    assert.equal(fact(p, 'e').value, '<div class="a"><span>Sales rose to 5 &amp; more</span><br/><td></td></div>');
    assert.equal(fact(p, 't').value, 'Sales rose to 5 & more');
    assert.equal(p.facts.filter((f) => f.id === 'n').length, 2, 'the nested fact counts once per occurrence');
  });

  it('escaped markup writes every start tag one way, whether or not it was written so in the document', async () => {
    const tags: Array<[written: string, want: string]> = [
      ['<p class="a" style="x: 1">', '<p class="a" style="x: 1">'],
      ["<p class='a'>", '<p class="a">'],
      ['<p  class="a" >', '<p class="a">'],
      ['<p title=\'say "hi"\'>', '<p title="say &quot;hi&quot;">'],
      ['<p title="a &amp; b &gt; c">', '<p title="a &amp; b &gt; c">'],
      ['<p title="a>b">', '<p title="a&gt;b">'],
      ['<p title="two\nlines\tand tab">', '<p title="two lines and tab">'],
      ['<p xmlns="http://www.w3.org/1999/xhtml" class="a">', '<p class="a">'],
      ['<p xml:lang="en">', '<p xml:lang="en">'],
      ['<xhtml:p xmlns:xhtml="http://www.w3.org/1999/xhtml" class="a">', '<p class="a">'],
    ];
    for (const [written, want] of tags) {
      const close = written.startsWith('<xhtml:') ? '</xhtml:p>' : '</p>';
      const value = (await one(`<ix:nonNumeric name="gaap:PolicyTextBlock" contextRef="c1" id="x" escape="true">${written}text${close}</ix:nonNumeric>`)).value;
      assert.equal(value, `${want}text</p>`, written);
    }
  });

  it('facts inside ix:exclude are not facts', async () => {
    const p = await parseInline(page(`<ix:exclude>${num('gone', '1')}</ix:exclude>${num('x', '2')}`));
    assert.deepEqual(p.facts.filter((f) => !f.hidden).map((f) => f.id), ['x']);
  });

  it('continuedAt chains join in chain order, wherever the continuations sit in the document', async () => {
    const p = await parseInline(
      page(
        `<ix:continuation id="k2"><p>third</p></ix:continuation>` +
          `<ix:nonNumeric name="gaap:NoteTextBlock" contextRef="c1" id="x" escape="true" continuedAt="k1"><p>first</p></ix:nonNumeric>` +
          `<div>not part of it</div><ix:continuation id="k1" continuedAt="k2"><p>second</p></ix:continuation>` +
          `<ix:nonNumeric name="gaap:Note" contextRef="c1" id="y" continuedAt="k3">one </ix:nonNumeric><ix:continuation id="k3"><b>two</b></ix:continuation>`,
      ),
    );
    assert.equal(fact(p, 'x').value, '<p>first</p><p>second</p><p>third</p>');
    assert.equal(fact(p, 'y').value, 'one two');
    await assert.rejects(parseInline(page(`<ix:nonNumeric name="gaap:N" contextRef="c1" id="x" continuedAt="nowhere">a</ix:nonNumeric>`)), /"nowhere" is missing/);
  });

  it('ix:footnote is linked to its facts through ix:relationship', async () => {
    const p = await parseInline(
      page(`${num('x', '1')}${num('y', '2')}<ix:footnote id="fn1">Restated, see <b>Note 2</b>.</ix:footnote><ix:footnote id="fn2">Plain.</ix:footnote>` +
        `<ix:relationship fromRefs="x y" toRefs="fn1"/><ix:relationship fromRefs="y" toRefs="fn2"/>`),
    );
    assert.deepEqual(p.footnotes, [
      { id: 'fn1', text: 'Restated, see <b>Note 2</b>.', factIds: ['x', 'y'] },
      { id: 'fn2', text: 'Plain.', factIds: ['y'] },
    ]);
  });

  it('HTML named entities such as &nbsp; are read rather than rejected', async () => {
    assert.equal((await one('<ix:nonNumeric name="gaap:N" contextRef="c1" id="x">a&nbsp;b&mdash;c</ix:nonNumeric>')).value, 'a\u00A0b\u2014c');
  });
});
