import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { htmlToText, titleFromConcept } from '../../../domain/html-text.ts';
import type { ParsedInstance, XbrlFact } from '../../../domain/xbrl.ts';
import { parseInline } from '../../../ingest/xbrl/inline.ts';
import { parseInstance } from '../../../ingest/xbrl/instance.ts';
import { SHARED_SEC } from '../../helpers/shared-data.ts';

const TAG = /<\/?[A-Za-z][^>]*>/;
const ENTITY = /&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);/;
const TRAILING_SPACE = /[ \t]+$/m;

/** The output contract every rendering must meet, whatever the input. */
function assertClean(text: string, where = 'output'): void {
  assert.doesNotMatch(text, TAG, `${where} holds a tag`);
  assert.doesNotMatch(text, ENTITY, `${where} holds an undecoded entity`);
  assert.doesNotMatch(text, TRAILING_SPACE, `${where} has a line ending in spaces`);
  assert.doesNotMatch(text, /\n\n\n/, `${where} has more than one blank line in a row`);
  assert.equal(text, text.trim(), `${where} starts or ends with blank space`);
}

describe('htmlToText: entities', () => {
  it('decodes the named entities filings use', () => {
    const names = 'amp lt gt quot apos rsquo lsquo ldquo rdquo mdash ndash bull hellip sect reg trade copy deg times frac12';
    const html = names.split(' ').map((n) => `&${n};`).join(' ');
    assert.equal(htmlToText(html), '& < > " \' ’ ‘ “ ” — – • … § ® ™ © ° × ½');
  });

  it('decodes decimal and hex references, with old Windows codes read as Windows-1252', () => {
    assert.equal(htmlToText('Company&#8217;s &#x2019;s &#X201C;x&#x201D; &#146;92'), 'Company’s ’s “x” ’92');
  });

  it('turns non-breaking spaces into plain spaces that collapse like any other', () => {
    assert.equal(htmlToText('December&nbsp;31,&#160;2009&#xA0;&#xA0;&#xA0;and\u00a0more'), 'December 31, 2009 and more');
  });

  it('leaves an ampersand that starts no known entity as written', () => {
    assert.equal(htmlToText('AT&T and R&D &unknown; ok'), 'AT&T and R&D &unknown; ok');
  });

  it('decodes the legacy names that HTML 4 wrote without a semicolon', () => {
    assert.equal(htmlToText('Smith &amp Co &copy 2009'), 'Smith & Co © 2009');
  });
});

describe('htmlToText: blocks and whitespace', () => {
  it('removes inline tags and collapses runs of whitespace inside a line', () => {
    assert.equal(htmlToText('<span>  The   <b>net</b>\n\t<i>sales</i>  </span>'), 'The net sales');
  });

  it('separates paragraphs by exactly one blank line, however deeply blocks nest', () => {
    const html = '<div><div><p>One</p></div></div><div><h2>Two</h2></div><section><p>Three</p></section>';
    assert.equal(htmlToText(html), 'One\n\nTwo\n\nThree');
  });

  it('turns <br> into a line break and several into one blank line at most', () => {
    assert.equal(htmlToText('a<br>b<br/><br /><br>c'), 'a\nb\n\nc');
  });

  it('writes no leading or trailing blank lines', () => {
    assert.equal(htmlToText('<p></p><div><br></div><p> Text </p><p>&nbsp;</p><br>'), 'Text');
  });

  it('prefixes list items with "- " and indents nested lists', () => {
    const html = '<p>Intro</p><ul><li>One</li><li>Two<ul><li>Deep</li></ul></li></ul><p>Outro</p>';
    assert.equal(htmlToText(html), 'Intro\n\n- One\n- Two\n  - Deep\n\nOutro');
  });

  it('drops script and style content, even when it holds markup', () => {
    const html = '<style>p { color: red }</style><p>Kept</p><script>document.write("<p>lost</p>")</script><p>Too</p>';
    assert.equal(htmlToText(html), 'Kept\n\nToo');
  });

  it('drops comments, including ones holding tags', () => {
    assert.equal(htmlToText('Before<!-- <p>hidden</p> --> after<!---->.'), 'Before after.');
  });

  it('keeps a "<" that starts no tag as text', () => {
    assert.equal(htmlToText('<p>rates < 5% and 3 <= 4</p>'), 'rates < 5% and 3 <= 4');
  });

  it('returns an empty string for empty input', () => {
    assert.equal(htmlToText(''), '');
  });
});

describe('htmlToText: tables', () => {
  it('drops spacer columns and glues "$", ")" and "%" cells to their figures, numbers right-aligned', () => {
    const html = `<table>
      <tr><td></td><td colspan="3">2023</td><td></td><td colspan="3">2022</td></tr>
      <tr><td>Net sales</td><td>$</td><td>1,234</td><td></td><td></td><td>$</td><td>987</td><td></td></tr>
      <tr><td>Other</td><td></td><td>(56</td><td>)</td><td></td><td></td><td>12</td><td></td></tr>
      <tr><td>Margin</td><td></td><td>12.5</td><td>%</td><td></td><td></td><td>(3.0</td><td>)%</td></tr>
    </table>`;
    assert.equal(
      htmlToText(html),
      [
        '          |   2023  |   2022',
        'Net sales | $1,234  |   $987',
        'Other     |    (56) |     12',
        'Margin    |   12.5% | (3.0)%',
      ].join('\n'),
    );
  });

  it('lays a colspan header over the columns it spans', () => {
    const html = `<table><tr><td></td><td colspan="2">Years ended</td></tr>
      <tr><td></td><td>2023</td><td>2022</td></tr>
      <tr><td>Revenue</td><td>100</td><td>90</td></tr></table>`;
    const lines = htmlToText(html).split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0], '          Years ended', 'a lone header sits over its columns, without bars');
    assert.equal(lines[1], '        | 2023 | 2022');
    assert.equal(lines[2], 'Revenue |  100 |   90');
  });

  it('places cells after a rowspan in the columns the spanning cell leaves free', () => {
    const html = `<table><tr><td rowspan="2">Name</td><td colspan="2">Options</td></tr>
      <tr><td>Number</td><td>Price</td></tr><tr><td>Granted</td><td>100</td><td>$5.00</td></tr></table>`;
    assert.equal(htmlToText(html), 'Name    |    Options\n        | Number | Price\nGranted |    100 | $5.00');
  });

  it('renders a table with a single column as plain lines', () => {
    assert.equal(htmlToText('<table><tr><td>Alpha</td></tr><tr><td></td></tr><tr><td>Beta</td></tr></table>'), 'Alpha\nBeta');
  });

  it('writes a row with a single cell, such as a section label or footnote, without padding it', () => {
    const html = `<table><tr><td>Americas:</td><td></td></tr><tr><td>Net sales</td><td>5</td></tr>
      <tr><td>(1) A footnote long enough to be wider than every other cell of the table.</td></tr></table>`;
    assert.equal(htmlToText(html), 'Americas:\nNet sales | 5\n(1) A footnote long enough to be wider than every other cell of the table.');
  });

  it('glues a bullet set in its own cell to the item text', () => {
    assert.equal(htmlToText('<table><tr><td>&#8226;</td><td>First item</td></tr></table>'), '• First item');
  });

  it('separates a table from the paragraphs around it by blank lines', () => {
    const html = '<p>Before</p><table><tr><td>A</td><td>1</td></tr></table><p>After</p>';
    assert.equal(htmlToText(html), 'Before\n\nA | 1\n\nAfter');
  });

  it('reads a table nested in a cell into that cell', () => {
    const html = '<table><tr><td>Outer</td><td><table><tr><td>in1</td><td>in2</td></tr></table></td></tr><tr><td>Next</td><td>9</td></tr></table>';
    assert.equal(htmlToText(html), 'Outer | in1 in2\nNext  |       9');
  });

  it('puts a cell holding several blocks on one line', () => {
    const html = '<table><tr><td><p>Future<br>Minimum</p><p>Payments</p></td><td>1</td></tr></table>';
    assert.equal(htmlToText(html), 'Future Minimum Payments | 1');
  });
});

describe('htmlToText: tolerant input', () => {
  it('reads sloppy HTML 4: upper case, unquoted attributes, unclosed <p>, <td> and <tr>', () => {
    const html = '<P>First<P>Second <B>bold</B><TABLE BORDER=0><TR><TD>Item<TD ALIGN=right>$<TD>5<TR><TD COLSPAN=2>Total<TD>10</TABLE>After<BR>line';
    assert.equal(htmlToText(html), 'First\n\nSecond bold\n\nItem  | $5\nTotal | 10\n\nAfter\nline');
  });

  it('reads XHTML with namespace prefixes and self-closed empty cells', () => {
    const html = '<xhtml:div xmlns:xhtml="http://www.w3.org/1999/xhtml"><xhtml:p>Hello&#160;world</xhtml:p><xhtml:table><xhtml:tr><xhtml:td>A</xhtml:td><xhtml:td>1</xhtml:td></xhtml:tr><xhtml:tr><xhtml:td>Bee</xhtml:td><xhtml:td/><xhtml:td>22</xhtml:td></xhtml:tr></xhtml:table></xhtml:div>';
    assert.equal(htmlToText(html), 'Hello world\n\nA   | 1\nBee |   | 22');
  });

  it('reads default-namespace XHTML with a doctype and XML declaration', () => {
    const html = '<?xml version="1.0"?><!DOCTYPE html><div xmlns="http://www.w3.org/1999/xhtml"><p>One</p><p>Two</p></div>';
    assert.equal(htmlToText(html), 'One\n\nTwo');
  });

  it('keeps ">" inside a quoted attribute value from ending the tag', () => {
    assert.equal(htmlToText('<p title="a > b">Text</p>'), 'Text');
  });

  it('never throws on malformed markup and never leaks a tag', () => {
    const inputs = [
      '<', '<<<', '>', '</', '</>', '<a href="x', '<p', '<!--', '<!-- open', '<![CDATA[x', '<script>never closed <p>',
      '<table><td>', '</td></tr></table>', '<tr><td>x</td></tr>', '<li>orphan', '</ul></ol></li>', '<td colspan="9999999">x',
      '<td colspan=abc>y<td rowspan=-3>z', '&#99999999; &#0; &#xD800; &', '<p a=\'1 b="2">t</p>', '<<p>>x<</p>>',
      '<table><table><table>deep', '<b><i>unclosed', '\u0000<p>\u0000</p>', '<p/>self<div/>closing',
    ];
    for (const html of inputs) {
      const text = htmlToText(html);
      assert.equal(typeof text, 'string', JSON.stringify(html));
      assertClean(text, JSON.stringify(html));
    }
  });

  it('drops a tag left open at the end of the input', () => {
    assert.equal(htmlToText('Text then <span class="x'), 'Text then');
  });
});

describe('titleFromConcept', () => {
  it('drops the prefix and "TextBlock" and splits camel case into words', () => {
    assert.equal(titleFromConcept('us-gaap:IncomeTaxDisclosureTextBlock'), 'Income Tax Disclosure');
  });

  it('splits joining words glued in lower case, as company extensions write them', () => {
    assert.equal(titleFromConcept('aapl:SegmentInformationandGeographicDataTextBlock'), 'Segment Information and Geographic Data');
    assert.equal(
      titleFromConcept('aapl:OperatingandFinanceLeaseRightofUseAssetsandLeaseLiabilitiesTableTextBlock'),
      'Operating and Finance Lease Right of Use Assets and Lease Liabilities Table',
    );
    assert.equal(
      titleFromConcept('us-gaap:ScheduleofFiniteLivedIntangibleAssetsFutureAmortizationExpenseTableTextBlock'),
      'Schedule of Finite Lived Intangible Assets Future Amortization Expense Table',
    );
  });

  it('leaves words that merely end in a joining word whole', () => {
    assert.equal(titleFromConcept('x:ThousandCertainStandbyMarginTextBlock'), 'Thousand Certain Standby Margin');
  });

  it('lower-cases small joining words except at the start', () => {
    assert.equal(
      titleFromConcept('us-gaap:ScheduleOfRevenueFromExternalCustomersAttributedToForeignCountriesByGeographicAreaTextBlock'),
      'Schedule of Revenue from External Customers Attributed to Foreign Countries by Geographic Area',
    );
    assert.equal(titleFromConcept('x:ForTheRecordTextBlock'), 'For the Record');
  });

  it('keeps acronyms together', () => {
    assert.equal(titleFromConcept('x:USGAAPReconciliationTextBlock'), 'USGAAP Reconciliation');
    assert.equal(titleFromConcept('x:EPSAndForm10KTextBlock'), 'EPS and Form 10K');
  });

  it('writes the doubled "PolicyPolicy" of policy concepts once, but keeps "Cash Cash Equivalents"', () => {
    assert.equal(titleFromConcept('us-gaap:FairValueMeasurementPolicyPolicyTextBlock'), 'Fair Value Measurement Policy');
    assert.equal(
      titleFromConcept('us-gaap:ScheduleOfCashCashEquivalentsAndShortTermInvestmentsTableTextBlock'),
      'Schedule of Cash Cash Equivalents and Short Term Investments Table',
    );
  });

  it('works on a name without prefix or "TextBlock"', () => {
    assert.equal(titleFromConcept('IncomeTaxes'), 'Income Taxes');
  });
});

// Real TextBlock facts; the pinned figures were read off the filings' HTML with grep.
const EDGAR = path.join(SHARED_SEC, 'www.sec.gov/Archives/edgar/data');
const FILINGS = {
  aapl: { file: '320193/000032019323000106/aapl-20230930_htm.xml', inline: false },
  nflx: { file: '1065280/000119312510036181/nflx-20091231.xml', inline: false },
  unh: { file: '731766/000073176625000063/unh-20241231.htm', inline: true },
} as const;
type Filing = keyof typeof FILINGS;

describe('htmlToText on real TextBlock facts', () => {
  const parsed = new Map<Filing, ParsedInstance>();

  before(async () => {
    for (const [name, { file, inline }] of Object.entries(FILINGS) as Array<[Filing, (typeof FILINGS)[Filing]]>) {
      const xml = readFileSync(path.join(EDGAR, file), 'utf8');
      parsed.set(name, inline ? await parseInline(xml) : await parseInstance(xml));
    }
  });

  /** TextBlock facts with content; a nil one has no HTML to render */
  function textBlocks(name: Filing): Array<XbrlFact & { value: string }> {
    const doc = parsed.get(name);
    assert.ok(doc, `${name} was not parsed`);
    return doc.facts.filter((f): f is XbrlFact & { value: string } => f.value !== null && /:[A-Za-z0-9_]*TextBlock$/.test(f.concept));
  }

  function note(name: Filing, concept: string): string {
    const fact = textBlocks(name).find((f) => f.concept === concept);
    assert.ok(fact, `${name} has no ${concept}`);
    return htmlToText(fact.value);
  }

  /** words of the crudely tag-stripped HTML, to show the rendering lost none */
  function words(s: string): string[] {
    return s.match(/[A-Za-z]{3,}|\d[\d,]*\d/g) ?? [];
  }

  for (const [name, minimum] of [['aapl', 50], ['nflx', 10], ['unh', 60]] as const) {
    it(`renders every ${name} TextBlock as clean text that keeps all its words`, () => {
      const facts = textBlocks(name);
      assert.ok(facts.length >= minimum, `${name}: only ${facts.length} TextBlock facts`);
      for (const fact of facts) {
        const text = htmlToText(fact.value);
        assertClean(text, `${name} ${fact.concept}`);
        // filings split words across inline tags ("jurisd<span>ictions"), so only blocks separate words
        const crude = fact.value
          .replace(/<\/?(?:[\w-]+:)?(?:p|div|br|td|th|tr|li|table|h\d)\b[^>]*>/gi, ' ')
          .replace(/<[^>]*>/g, '')
          .replace(/&[#\w]+;/g, ' ');
        const source = words(crude);
        // substantive: no shorter than the visible characters of the markup, whatever the layout
        const visible = crude.replace(/\s+/g, '').length;
        const printed = text.replace(/[\s|]+/g, '').length;
        assert.ok(text.length >= 40 && printed >= visible * 0.95, `${name} ${fact.concept}: ${printed} of ${visible} characters`);
        const rendered = new Set(words(text));
        const lost = source.filter((w) => !rendered.has(w));
        assert.deepEqual(lost.slice(0, 10), [], `${name} ${fact.concept} lost words`);
      }
    });
  }

  it('renders Apple’s segment table with each segment’s figures on its row, "$" glued', () => {
    const text = note('aapl', 'us-gaap:SegmentReportingDisclosureTextBlock');
    assert.match(text, /^ +\| +2023 \| +2022 \| +2021$/m);
    assert.match(text, /^Americas:$/m);
    assert.match(text, /^Net sales +\| \$162,560 \| \$169,658 \| \$153,306$/m);
    assert.match(text, /^Operating income +\| +\$60,508 \| +\$62,683 \| +\$53,382$/m);
    assert.match(text, /^Research and development expense +\| +\(29,915\) \| +\(26,251\) \| +\(21,914\)$/m);
    assert.match(text, /^Total net sales +\| \$383,285 \| \$394,328 \| \$365,817$/m);
  });

  it('renders Apple’s income tax note with negatives in parentheses and rates glued to "%"', () => {
    const text = note('aapl', 'us-gaap:IncomeTaxDisclosureTextBlock');
    assert.match(text, /^Provision for Income Taxes and Effective Tax Rate$/m);
    assert.match(text, /^Deferred +\| +\(3,644\) \| +\(2,265\) \| +\(7,176\)$/m);
    assert.match(text, /^Provision for income taxes +\| \$16,741 +\| \$19,300 +\| \$14,527$/m);
    assert.match(text, /^Effective tax rate +\| +14\.7% \| +16\.2% \| +13\.3%$/m);
  });

  it('renders Netflix’s 2009 HTML 4 notes with entities decoded and figures aligned', () => {
    const commitments = note('nflx', 'us-gaap:CommitmentsAndContingenciesDisclosureTextBlock');
    assert.match(commitments, /^5\. Commitments and Contingencies$/m);
    assert.match(commitments, /the Company’s original facilities lease agreements/);
    assert.match(commitments, /^ +2010 \| +\$17,214$/m);
    assert.match(commitments, /^ +Total minimum payments \| +\$52,746$/m);
    const taxes = note('nflx', 'us-gaap:IncomeTaxDisclosureTextBlock');
    assert.match(taxes, /^Federal +\| \$55,104 +\| \$41,883 +\| \$38,002$/m);
    const organization = note('nflx', 'us-gaap:OrganizationConsolidationAndPresentationOfFinancialStatementsDisclosureTextBlock');
    assert.match(organization, /^• Watch streaming content without commercial interruption/m);
  });

  it('renders UnitedHealth’s inline segment table with "$(4,389)" and "$—" cells', () => {
    const text = note('unh', 'us-gaap:ScheduleOfSegmentReportingInformationBySegmentTextBlock');
    assert.match(text, /^Premiums +\| +\$286,004 +\| +\$22,806 \| +\$— \| +\$— \| +\$— +\| +\$22,806 \| +\$— +\| +\$308,810$/m);
    assert.match(text, /^Total revenues +\|.*\| +\$\(4,389\) \|.*\| +\$\(150,887\) \| +\$400,278$/m);
  });
});
