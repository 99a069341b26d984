import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { before, describe, it } from 'node:test';
import type { ParsedInstance, XbrlFact } from '../../../../domain/xbrl.ts';
import { openSecSource } from '../../../../ingest/source.ts';
import { parseInstance, readInstance } from '../../../../ingest/xbrl/instance.ts';
import { qname, resolveQName, standardPrefix } from '../../../../ingest/xbrl/qnames.ts';
import { SHARED_SEC_URL } from '../../../helpers/shared-data.ts';

// Expected values below were read off the raw XML with grep and an independent Python
// (xml.etree) reading of the same files in shared/sec, not produced by this reader.
const source = openSecSource(SHARED_SEC_URL);
const ARCHIVES = 'https://www.sec.gov/Archives/edgar/data/';

const INSTANCES = {
  amzn: '1018724/000101872423000004/amzn-20221231_htm.xml',
  nvda: '1045810/000104581024000029/nvda-20240128_htm.xml',
  nflx: '1065280/000119312510036181/nflx-20091231.xml',
  tsla: '1318605/000162828024032662/tsla-20240630_htm.xml',
  aapl23: '320193/000032019323000106/aapl-20230930_htm.xml',
  aapl25: '320193/000032019325000057/aapl-20250329_htm.xml',
  pg: '80424/000008042423000073/pg-20230630_htm.xml',
} as const;

/** [facts = elements with contextRef, of which numeric (unitRef), nil, contexts, units] */
const COUNTS: Record<keyof typeof INSTANCES, [number, number, number, number, number]> = {
  amzn: [1457, 1280, 2, 339, 7],
  nvda: [1387, 1218, 2, 280, 6],
  nflx: [383, 359, 2, 43, 3],
  tsla: [1149, 1044, 2, 338, 8],
  aapl23: [1164, 995, 3, 205, 9],
  aapl25: [760, 674, 2, 163, 5],
  pg: [1771, 1593, 0, 423, 7],
};

const parsed = new Map<keyof typeof INSTANCES, ParsedInstance>();

function doc(name: keyof typeof INSTANCES): ParsedInstance {
  const p = parsed.get(name);
  assert.ok(p, `${name} was not parsed`);
  return p;
}

function factById(p: ParsedInstance, id: string): XbrlFact {
  const f = p.facts.find((x) => x.id === id);
  assert.ok(f, `no fact ${id}`);
  return f;
}

describe('XBRL instance reader on real filings', () => {
  before(async () => {
    for (const [name, path] of Object.entries(INSTANCES)) {
      const p = await readInstance(source, ARCHIVES + path);
      assert.ok(p, `${path} missing from the mirror`);
      parsed.set(name as keyof typeof INSTANCES, p);
    }
  });

  it('reads every element with a contextRef as a fact, and every context and unit', () => {
    for (const [name, [facts, numeric, nil, contexts, units]] of Object.entries(COUNTS)) {
      const p = doc(name as keyof typeof INSTANCES);
      assert.equal(p.facts.length, facts, `${name} facts`);
      assert.equal(p.facts.filter((f) => f.numeric).length, numeric, `${name} numeric facts`);
      assert.equal(p.facts.filter((f) => f.nil).length, nil, `${name} nil facts`);
      assert.equal(p.contexts.size, contexts, `${name} contexts`);
      assert.equal(p.units.size, units, `${name} units`);
      for (const f of p.facts) {
        assert.ok(p.contexts.has(f.contextRef), `${name} ${f.concept} context ${f.contextRef}`);
        if (f.unitRef !== null) assert.ok(p.units.has(f.unitRef), `${name} ${f.concept} unit ${f.unitRef}`);
        if (f.numeric && !f.nil) assert.match(f.value ?? '', /^-?\d+(\.\d+)?$/, `${name} ${f.concept}`);
      }
    }
  });

  it('Apple FY2023 revenue is 383285000000 rounded to millions in the undimensioned fiscal-year context', () => {
    const p = doc('aapl23');
    const revenue = factById(p, 'f-69');
    assert.deepEqual(revenue, {
      concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      contextRef: 'c-1',
      unitRef: 'usd',
      value: '383285000000',
      numeric: true,
      nil: false,
      decimals: '-6',
      id: 'f-69',
    });
    assert.deepEqual(p.contexts.get('c-1'), { id: 'c-1', entity: '0000320193', start: '2022-09-25', end: '2023-09-30', dimensions: [] });
    assert.deepEqual(p.units.get('usd'), { id: 'usd', measure: 'USD' });
    assert.equal(p.schemaRef, 'aapl-20230930.xsd');
    assert.equal(p.namespaces['us-gaap'], 'http://fasb.org/us-gaap/2023');
    assert.equal(p.namespaces['aapl'], 'http://www.apple.com/20230930');
  });

  it('Apple Americas segment net sales carry their segment dimension', () => {
    const p = doc('aapl23');
    const sales = factById(p, 'f-1081');
    assert.equal(sales.concept, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    assert.equal(sales.value, '162560000000');
    assert.deepEqual(p.contexts.get(sales.contextRef)?.dimensions, [
      { axis: 'us-gaap:StatementBusinessSegmentsAxis', member: 'aapl:AmericasSegmentMember', typed: null },
    ]);
  });

  it('Apple diluted EPS is in USD/shares', () => {
    const p = doc('aapl23');
    const eps = factById(p, 'f-111');
    assert.equal(eps.concept, 'us-gaap:EarningsPerShareDiluted');
    assert.equal(eps.value, '6.13');
    assert.equal(eps.decimals, '2');
    assert.equal(p.units.get(eps.unitRef ?? '')?.measure, 'USD/shares');
  });

  it('nil facts have a null value, numeric or not', () => {
    const p = doc('aapl23');
    assert.deepEqual(factById(p, 'f-194'), {
      concept: 'us-gaap:CommitmentsAndContingencies', contextRef: 'c-22', unitRef: 'usd', value: null, numeric: true, nil: true, decimals: null, id: 'f-194',
    });
    const text = factById(p, 'f-403');
    assert.equal(text.nil, true);
    assert.equal(text.numeric, false);
    assert.equal(text.value, null);
  });

  it('typed dimensions keep their value as text next to explicit ones, sorted by axis', () => {
    assert.deepEqual(doc('aapl23').contexts.get('c-59')?.dimensions, [
      { axis: 'us-gaap:RevenueRemainingPerformanceObligationExpectedTimingOfSatisfactionStartDateAxis', member: null, typed: '2023-10-01' },
    ]);
    const tesla = doc('tsla').contexts.get('c-114');
    assert.equal(tesla?.start, null);
    assert.equal(tesla?.end, '2024-06-30');
    assert.deepEqual(tesla?.dimensions, [
      { axis: 'srt:ProductOrServiceAxis', member: 'tsla:AutomotiveSalesMember', typed: null },
      { axis: 'us-gaap:RevenueRemainingPerformanceObligationExpectedTimingOfSatisfactionStartDateAxis', member: null, typed: '2024-07-01' },
    ]);
  });

  it('P&G dimensions written out of order come back sorted by axis', () => {
    // the document lists StatementClassOfStockAxis before EntityListingsExchangeAxis
    assert.deepEqual(doc('pg').contexts.get('c-3')?.dimensions, [
      { axis: 'dei:EntityListingsExchangeAxis', member: 'exch:XNYS', typed: null },
      { axis: 'us-gaap:StatementClassOfStockAxis', member: 'us-gaap:CommonStockMember', typed: null },
    ]);
  });

  it('text blocks keep the HTML exactly as the document holds it', () => {
    const block = factById(doc('aapl23'), 'f-722');
    assert.equal(block.concept, 'us-gaap:IncomeTaxDisclosureTextBlock');
    assert.equal(block.numeric, false);
    assert.ok(block.value?.startsWith('Income Taxes<div style="margin-top:9pt;text-align:justify">'));
    assert.equal(block.value?.length, 77516);
    assert.equal(createHash('sha256').update(block.value ?? '').digest('hex'), '6ff30b13b2d222cdaba220737081f3322d20c54007f50d74d46d2a22f6e503ca');
  });

  it('P&G footnotes link to every fact their arcs name', () => {
    const p = doc('pg');
    assert.equal(p.footnotes.length, 30);
    assert.equal(p.footnotes.reduce((n, f) => n + f.factIds.length, 0), 257);
    const fn13 = p.footnotes.find((f) => f.id === 'fn-13');
    assert.equal(fn13?.text, 'For the pension benefit plans, the benefit obligation is the projected benefit obligation. For other retiree benefit plans, the benefit obligation is the accumulated postretirement benefit obligation.');
    assert.deepEqual([...(fn13?.factIds ?? [])].sort(), ['f-1175', 'f-1176', 'f-1177', 'f-1178', 'f-1211', 'f-1212', 'f-1213', 'f-1214']);
  });

  it('the 2010 Netflix instance maps xbrl.us namespaces to us-gaap and dei', () => {
    const p = doc('nflx');
    assert.equal(p.namespaces['us-gaap'], 'http://xbrl.us/us-gaap/2009-01-31');
    const fy = 'eol_PE75377---0910-K0009_STD_365_20091231_0';
    const revenues = p.facts.find((f) => f.concept === 'us-gaap:Revenues' && f.contextRef === fy);
    assert.equal(revenues?.value, '1670269000');
    assert.equal(revenues?.decimals, '-3');
    assert.equal(revenues?.id, null);
    assert.equal(p.facts.find((f) => f.concept === 'dei:TradingSymbol')?.value, 'NFLX');
    assert.deepEqual(p.contexts.get(fy), { id: fy, entity: '0001065280', start: '2009-01-01', end: '2009-12-31', dimensions: [] });
    assert.equal(p.units.get('iso4217_USD_per_shares')?.measure, 'USD/shares');
    // contexts follow the facts in this file, and members resolve through the root declarations
    assert.deepEqual(p.contexts.get('eol_PE75377---0910-K0009_STD_366_20081231_0_411810x412372')?.dimensions, [
      { axis: 'us-gaap:StatementEquityComponentsAxis', member: 'us-gaap:TreasuryStockMember', typed: null },
    ]);
    // no id on this footnote: its xlink:label names it
    assert.equal(p.footnotes.length, 1);
    assert.equal(p.footnotes[0]?.id, 'footnote_961012');
    assert.equal(p.footnotes[0]?.factIds.length, 12);
    assert.ok(p.footnotes[0]?.text.startsWith('\nStock-based compensation included in expense line items:'));
  });

  it('a file the mirror does not have reads as null', async () => {
    assert.equal(await readInstance(source, `${ARCHIVES}320193/000032019323000106/missing_htm.xml`), null);
  });
});

const SYNTHETIC = `<?xml version="1.0" encoding="utf-8"?>
<xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:link="http://www.xbrl.org/2003/linkbase"
  xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
  xmlns:gaap="http://fasb.org/us-gaap/2024" xmlns:ifrs="http://xbrl.ifrs.org/taxonomy/2023-03-23/ifrs-full"
  xmlns:d="http://xbrl.sec.gov/dei/2024" xmlns:acme="http://acme.example/20241231">
  <link:schemaRef xlink:type="simple" xlink:href="acme-20241231.xsd"/>
  <xbrli:context id="d">
    <xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>
      <xbrli:segment><xbrldi:explicitMember dimension="gaap:StatementGeographicalAxis">acme:EuropeMember</xbrldi:explicitMember></xbrli:segment>
    </xbrli:entity>
    <xbrli:period><xbrli:startDate> 2024-01-01 </xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period>
    <xbrli:scenario>
      <xbrldi:explicitMember xmlns:s="http://fasb.org/srt/2024" dimension="s:RestatementAxis">s:ScenarioPreviouslyReportedMember</xbrldi:explicitMember>
      <xbrldi:typedMember dimension="acme:TrancheAxis"><acme:TrancheDomain> A-1 </acme:TrancheDomain></xbrldi:typedMember>
    </xbrli:scenario>
  </xbrli:context>
  <xbrli:unit id="eurps"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:EUR</xbrli:measure></xbrli:unitNumerator>
    <xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
  <xbrli:unit id="u"><xbrli:measure>xbrli:pure</xbrli:measure></xbrli:unit>
  <gaap:Revenues contextRef="d" unitRef="u" decimals="INF" id="exp">1.5E3</gaap:Revenues>
  <gaap:Assets contextRef="d" unitRef="u" decimals="0" id="plus">+42</gaap:Assets>
  <gaap:Liabilities contextRef="d" unitRef="u" id="both">+1.25e+2</gaap:Liabilities>
  <ifrs:Revenue contextRef="d" unitRef="u" id="negexp">-2.5E-3</ifrs:Revenue>
  <ifrs:BasicEarningsLossPerShare contextRef="d" unitRef="eurps" decimals=" 2 " id="padded">
    12.50
  </ifrs:BasicEarningsLossPerShare>
  <gaap:Goodwill contextRef="d" unitRef="u" xsi:nil="true" id="nil"/>
  <acme:Tranche>
    <acme:TrancheName contextRef="d" id="in-tuple">  Senior &amp; secured  </acme:TrancheName>
  </acme:Tranche>
  <d:DocumentType contextRef="d">10-K</d:DocumentType>
  <link:footnoteLink xlink:type="extended" xlink:role="http://www.xbrl.org/2003/role/link">
    <link:footnoteArc xlink:type="arc" xlink:arcrole="http://www.xbrl.org/2003/arcrole/fact-footnote" xlink:from="f" xlink:to="n"/>
    <link:footnoteArc xlink:type="arc" xlink:arcrole="http://www.xbrl.org/2003/arcrole/fact-footnote" xlink:from="f" xlink:to="n"/>
    <link:loc xlink:type="locator" xlink:href="#exp" xlink:label="f"/>
    <link:loc xlink:type="locator" xlink:href="acme-20241231_htm.xml#plus" xlink:label="f"/>
    <link:footnote xlink:type="resource" xlink:label="n" xlink:role="http://www.xbrl.org/2003/role/footnote" xml:lang="en-US" id="fn1">Restated <xhtml:b xmlns:xhtml="http://www.w3.org/1999/xhtml" class="x">in part</xhtml:b> &amp; reclassified</link:footnote>
  </link:footnoteLink>
</xbrli:xbrl>`;

describe('XBRL instance reader on synthetic documents', () => {
  let p: ParsedInstance;
  before(async () => {
    p = await parseInstance(SYNTHETIC);
  });

  it('rewrites exponents and leading plus signs as plain decimals, and trims numbers', () => {
    const value = (id: string) => factById(p, id).value;
    assert.equal(value('exp'), '1500');
    assert.equal(value('plus'), '42');
    assert.equal(value('both'), '125');
    assert.equal(value('negexp'), '-0.0025');
    assert.equal(value('padded'), '12.50');
    assert.equal(factById(p, 'padded').decimals, '2');
    assert.equal(factById(p, 'exp').decimals, 'INF');
    assert.equal(factById(p, 'both').decimals, null);
  });

  it('names standard concepts by namespace whatever prefix the filer declared', () => {
    assert.equal(factById(p, 'exp').concept, 'us-gaap:Revenues');
    assert.equal(factById(p, 'negexp').concept, 'ifrs-full:Revenue');
    assert.equal(p.facts.find((f) => f.id === null)?.concept, 'dei:DocumentType');
    assert.equal(factById(p, 'in-tuple').concept, 'acme:TrancheName');
    assert.equal(p.namespaces['gaap'], 'http://fasb.org/us-gaap/2024');
  });

  it('merges segment and scenario dimensions, resolving prefixes declared on the member itself', () => {
    const ctx = p.contexts.get('d');
    assert.equal(ctx?.start, '2024-01-01');
    assert.deepEqual(ctx?.dimensions, [
      { axis: 'acme:TrancheAxis', member: null, typed: 'A-1' },
      { axis: 'srt:RestatementAxis', member: 'srt:ScenarioPreviouslyReportedMember', typed: null },
      { axis: 'us-gaap:StatementGeographicalAxis', member: 'acme:EuropeMember', typed: null },
    ]);
  });

  it('reads divide units, nil facts, facts inside tuples and unescaped text', () => {
    assert.equal(p.units.get('eurps')?.measure, 'EUR/shares');
    assert.equal(p.units.get('u')?.measure, 'pure');
    const nil = factById(p, 'nil');
    assert.equal(nil.nil, true);
    assert.equal(nil.value, null);
    assert.equal(nil.numeric, true);
    // non-numeric text is kept as written, surrounding spaces included
    assert.equal(factById(p, 'in-tuple').value, '  Senior & secured  ');
    assert.equal(p.facts.length, 8);
    assert.equal(p.schemaRef, 'acme-20241231.xsd');
  });

  it('resolves footnote arcs written before their locators, once each, and keeps XHTML inside a footnote as HTML', () => {
    assert.deepEqual(p.footnotes, [
      { id: 'fn1', text: 'Restated <b class="x">in part</b> &amp; reclassified', factIds: ['exp', 'plus'] },
    ]);
  });

  it('streams bytes split anywhere and decodes the declared encoding', async () => {
    const bytes = Buffer.from(SYNTHETIC, 'utf8');
    const oneByteChunks = Readable.from(Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)));
    const streamed = await parseInstance(oneByteChunks);
    assert.deepEqual(streamed.facts, p.facts);

    const latin1 = SYNTHETIC.replace('encoding="utf-8"', 'encoding="ISO-8859-1"').replace('10-K', 'Société');
    const decoded = await parseInstance(Readable.from([Buffer.from(latin1, 'latin1')]));
    assert.equal(decoded.facts.find((f) => f.concept === 'dei:DocumentType')?.value, 'Société');
  });

  it('rejects malformed XML and numeric facts that are not numbers', async () => {
    await assert.rejects(parseInstance(SYNTHETIC.replace('</gaap:Assets>', '')));
    await assert.rejects(parseInstance(SYNTHETIC.replace('>+42<', '>4 2<')), /numeric fact us-gaap:Assets/);
  });
});

describe('standard prefixes', () => {
  it('maps standard taxonomy namespaces of any year to their standard prefix', () => {
    const cases: Array<[string, string]> = [
      ['http://fasb.org/us-gaap/2023', 'us-gaap'],
      ['http://fasb.org/us-gaap/2011-01-31', 'us-gaap'],
      ['http://xbrl.us/us-gaap/2009-01-31', 'us-gaap'],
      ['http://xbrl.ifrs.org/taxonomy/2019-03-27/ifrs-full', 'ifrs-full'],
      ['http://xbrl.sec.gov/dei/2023', 'dei'],
      ['http://xbrl.sec.gov/dei/2014-01-31', 'dei'],
      ['http://xbrl.us/dei/2009-01-31', 'dei'],
      ['http://fasb.org/srt/2018-01-31', 'srt'],
      ['http://xbrl.sec.gov/country/2023', 'country'],
      ['http://xbrl.sec.gov/currency/2021', 'currency'],
      ['http://xbrl.sec.gov/ecd/2024', 'ecd'],
      ['http://xbrl.sec.gov/exch/2022', 'exch'],
      ['http://xbrl.sec.gov/naics/2023', 'naics'],
      ['http://xbrl.sec.gov/sic/2023', 'sic'],
      ['http://xbrl.sec.gov/stpr/2018-01-31', 'stpr'],
    ];
    for (const [uri, prefix] of cases) assert.equal(standardPrefix(uri, 'ns1'), prefix, uri);
  });

  it('keeps the document prefix for filer extensions and non-concept XBRL US namespaces', () => {
    assert.equal(standardPrefix('http://www.apple.com/20230930', 'aapl'), 'aapl');
    assert.equal(standardPrefix('http://xbrl.us/us-gaap/negated/2008-03-31', 'negated'), 'negated');
    assert.equal(standardPrefix('http://fasb.org/us-gaap/2023/elts', 'x'), 'x');
    assert.equal(qname('http://fasb.org/us-gaap/2024', 'Assets', 'gaap'), 'us-gaap:Assets');
    assert.equal(resolveQName(' gaap:Assets ', (p) => (p === 'gaap' ? 'http://fasb.org/us-gaap/2024' : undefined)), 'us-gaap:Assets');
    assert.equal(resolveQName('zz:Unknown', () => undefined), 'zz:Unknown');
  });
});
