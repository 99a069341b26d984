import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openSecSource, type SecSource } from '../../../../ingest/source.ts';
import { classifyFiles, filingFolderRef, formatAccession, listFilingFolders, listFolderFiles, parseFolderName, readFilingFolder } from '../../../../ingest/xbrl/filing-folder.ts';
import { parseFilingSummary, readFilingSummary, reportForRole, statementReports } from '../../../../ingest/xbrl/filing-summary.ts';
import { classifyStatementTitle } from '../../../../ingest/xbrl/linkbase-roles.ts';
import { calculationChildren, conceptFromHref, flattenTree, parseLinkbase, presentationTree, readLinkbases, statementRoles, STANDARD_LABEL_ROLE } from '../../../../ingest/xbrl/linkbases.ts';
import { SHARED_SEC_URL } from '../../../helpers/shared-data.ts';

// Pinned values were read off the files with grep and a separate ElementTree script, not from these readers.
const source = openSecSource(SHARED_SEC_URL);
const DATA = 'https://www.sec.gov/Archives/edgar/data/';
const APPLE_FY23 = `${DATA}320193/000032019323000106/`;
const APPLE_Q2_25 = `${DATA}320193/000032019325000057/`;
const NETFLIX_FY09 = `${DATA}1065280/000119312510036181/`;
const ROLE = 'http://www.xbrl.org/2003/role/';

async function linkbasesOf(url: string) {
  const folder = await readFilingFolder(source, url);
  return readLinkbases(source, folder.url, folder.files);
}

describe('filing folders', () => {
  test('every mirror folder is found with its cik, accession and files sorted by role', async () => {
    const refs = await listFilingFolders(source);
    assert.ok(refs);
    const rows: string[] = [];
    for (const ref of refs) {
      const { cik, accession, files: f } = await readFilingFolder(source, ref.url);
      rows.push([cik, accession ?? ref.folderName, f.instance ?? '-', f.inline.join('+') || '-', f.schema ?? '-', f.presentation ?? '-', f.calculation ?? '-', f.label ?? '-', f.definition ?? '-', f.filingSummary ?? '-', f.other.length].join(' '));
    }
    const full = (cik: string, acc: string, stem: string, instance: string) => `${cik} ${acc} ${instance} - ${stem}.xsd ${stem}_pre.xml ${stem}_cal.xml ${stem}_lab.xml ${stem}_def.xml - 0`;
    const inline = (cik: string, acc: string, doc: string) => `${cik} ${acc} - ${doc} - - - - - - 0`;
    assert.deepEqual(rows, [
      inline('0000034088', 'unknown-10-Q-2025-06-30', 'xom-20250630.htm'),
      full('0000080424', '0000080424-23-000073', 'pg-20230630', 'pg-20230630_htm.xml'),
      inline('0000104169', '0000104169-25-000021', 'wmt-20250131.htm'),
      inline('0000320187', '0000320187-25-000047', 'nke-20250531.htm'),
      full('0000320193', '0000320193-23-000106', 'aapl-20230930', 'aapl-20230930_htm.xml'),
      inline('0000320193', '0000320193-24-000123', 'aapl-20240928.htm'),
      // the one folder with EDGAR's rendering: R pages, exhibits, zip, xlsx, MetaLinks.json and an image are "other"
      '0000320193 0000320193-25-000057 aapl-20250329_htm.xml aapl-20250329.htm aapl-20250329.xsd aapl-20250329_pre.xml aapl-20250329_cal.xml aapl-20250329_lab.xml aapl-20250329_def.xml FilingSummary.xml 49',
      inline('0000354950', '0000354950-25-000085', 'hd-20250202.htm'),
      inline('0000731766', '0000731766-25-000063', 'unh-20241231.htm'),
      full('0001018724', '0001018724-23-000004', 'amzn-20221231', 'amzn-20221231_htm.xml'),
      full('0001045810', '0001045810-24-000029', 'nvda-20240128', 'nvda-20240128_htm.xml'),
      inline('0001045810', '0001045810-25-000023', 'nvda-20250126.htm'),
      // 2010: the instance is a plain .xml, recognized by its xbrl root rather than its name
      full('0001065280', '0001193125-10-036181', 'nflx-20091231', 'nflx-20091231.xml'),
      full('0001065280', '0001193125-10-235785', 'nflx-20100930', 'nflx-20100930.xml'),
      full('0001318605', '0001628280-24-032662', 'tsla-20240630', 'tsla-20240630_htm.xml'),
      inline('0001318605', '0001628280-25-003063', 'tsla-20241231.htm'),
    ]);
  });

  test('exhibits and R pages are not inline documents even in the same folder as one', async () => {
    const { files } = await readFilingFolder(source, APPLE_Q2_25);
    assert.deepEqual(files.inline, ['aapl-20250329.htm']);
    for (const name of ['a10-qexhibit31103292025.htm', 'a10-qexhibit32103292025.htm', 'R2.htm', 'R42.htm', 'MetaLinks.json']) assert.ok(files.other.includes(name), name);
  });

  test('a folder named unknown-<form>-<period> has no accession but yields form and period', async () => {
    const ref = filingFolderRef(`${DATA}34088/unknown-10-Q-2025-06-30/`);
    assert.deepEqual([ref.cik, ref.accession, ref.form, ref.period], ['0000034088', null, '10-Q', '2025-06-30']);
    assert.deepEqual(parseFolderName('unknown-10-K-A-2024-12-31'), { accession: null, form: '10-K-A', period: '2024-12-31' });
    assert.deepEqual(parseFolderName('scratch'), { accession: null, form: null, period: null });
  });

  test('accessions are formatted 10-2-6 from 18 digits or kept when already dashed', () => {
    assert.equal(formatAccession('000032019323000106'), '0000320193-23-000106');
    assert.equal(formatAccession('0000320193-23-000106'), '0000320193-23-000106');
    assert.equal(formatAccession('00003201932300010'), null);
    assert.throws(() => filingFolderRef('https://www.sec.gov/Archives/edgar/data/320193/'), /not an EDGAR filing folder/);
  });

  test('a source that cannot list has no folder walk, and folder files come from SEC index.json', async () => {
    const asked: string[] = [];
    const live: SecSource = {
      kind: 'live',
      describe: () => 'fake live',
      listDir: async () => null,
      readText: async () => null,
      readBytes: async () => null,
      openStream: async () => null,
      async readJson<T>(url: string) {
        asked.push(url);
        return { directory: { item: [{ name: 'b_htm.xml', type: 'text.gif' }, { name: 'sub', type: 'folder.gif' }, { name: 'a.xsd', type: 'text.gif' }] } } as T;
      },
    };
    assert.equal(await listFilingFolders(live), null);
    assert.deepEqual(await listFolderFiles(live, APPLE_FY23), ['a.xsd', 'b_htm.xml']);
    assert.deepEqual(asked, [`${APPLE_FY23}index.json`]);
    const files = await classifyFiles(live, APPLE_FY23, ['b_htm.xml', 'a.xsd', 'x_ref.xml', 'doc.htm']);
    // doc.htm cannot be opened, so it is not claimed as inline; a reference linkbase is never the instance
    assert.deepEqual([files.instance, files.schema, files.inline, files.other], ['b_htm.xml', 'a.xsd', [], ['doc.htm', 'x_ref.xml']]);
  });
});

describe('linkbases', () => {
  test('Apple FY2023 balance sheet role is found in the schema and classified', async () => {
    const roles = statementRoles(await linkbasesOf(APPLE_FY23));
    assert.deepEqual(
      roles.map((r) => [r.kind, r.title]),
      [
        ['INCOME_STATEMENT', 'CONSOLIDATED STATEMENTS OF OPERATIONS'],
        ['COMPREHENSIVE_INCOME', 'CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME'],
        ['BALANCE_SHEET', 'CONSOLIDATED BALANCE SHEETS'],
        ['PARENTHETICAL', 'CONSOLIDATED BALANCE SHEETS (Parenthetical)'],
        ['EQUITY', "CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY"],
        ['CASH_FLOW_STATEMENT', 'CONSOLIDATED STATEMENTS OF CASH FLOWS'],
      ],
    );
    const bs = roles.find((r) => r.kind === 'BALANCE_SHEET');
    assert.equal(bs?.role, 'http://www.apple.com/role/CONSOLIDATEDBALANCESHEETS');
    assert.equal(bs?.definition, '0000005 - Statement - CONSOLIDATED BALANCE SHEETS');
  });

  test('Apple FY2023 balance sheet tree lists the current assets, then their total, under Assets', async () => {
    const tree = presentationTree(await linkbasesOf(APPLE_FY23), 'http://www.apple.com/role/CONSOLIDATEDBALANCESHEETS');
    assert.deepEqual(tree.map((n) => n.concept), ['us-gaap:StatementOfFinancialPositionAbstract']);
    const assets = tree[0]?.children[0];
    assert.equal(assets?.concept, 'us-gaap:AssetsAbstract');
    assert.deepEqual(assets?.children.map((n) => n.concept), ['us-gaap:AssetsCurrentAbstract', 'us-gaap:AssetsNoncurrentAbstract', 'us-gaap:Assets']);
    // presentation puts the total below its lines (totalLabel); the calculation tree is what puts it above
    const current = assets?.children[0];
    assert.deepEqual(current?.children.map((n) => n.concept), [
      'us-gaap:CashAndCashEquivalentsAtCarryingValue',
      'us-gaap:MarketableSecuritiesCurrent',
      'us-gaap:AccountsReceivableNetCurrent',
      'us-gaap:NontradeReceivablesCurrent',
      'us-gaap:InventoryNet',
      'us-gaap:OtherAssetsCurrent',
      'us-gaap:AssetsCurrent',
    ]);
    assert.equal(current?.children.at(-1)?.preferredLabel, `${ROLE}totalLabel`);
    const lines = flattenTree(tree);
    assert.equal(lines.length, 38); // counted on the ElementTree walk of the same role
    assert.deepEqual(lines.find((l) => l.concept === 'us-gaap:InventoryNet'), { concept: 'us-gaap:InventoryNet', depth: 3, preferredLabel: `${ROLE}terseLabel` });
  });

  test('Apple FY2023 calculation: Assets = AssetsCurrent + AssetsNoncurrent, operating income subtracts expenses', async () => {
    const lb = await linkbasesOf(APPLE_FY23);
    const bs = 'http://www.apple.com/role/CONSOLIDATEDBALANCESHEETS';
    assert.deepEqual(calculationChildren(lb, bs, 'us-gaap:Assets'), [
      { concept: 'us-gaap:AssetsCurrent', weight: 1 },
      { concept: 'us-gaap:AssetsNoncurrent', weight: 1 },
    ]);
    assert.deepEqual(
      calculationChildren(lb, bs, 'us-gaap:AssetsCurrent').map((c) => c.concept),
      ['us-gaap:CashAndCashEquivalentsAtCarryingValue', 'us-gaap:MarketableSecuritiesCurrent', 'us-gaap:AccountsReceivableNetCurrent', 'us-gaap:NontradeReceivablesCurrent', 'us-gaap:InventoryNet', 'us-gaap:OtherAssetsCurrent'],
    );
    assert.deepEqual(calculationChildren(lb, 'http://www.apple.com/role/CONSOLIDATEDSTATEMENTSOFOPERATIONS', 'us-gaap:OperatingIncomeLoss'), [
      { concept: 'us-gaap:GrossProfit', weight: 1 },
      { concept: 'us-gaap:OperatingExpenses', weight: -1 },
    ]);
    assert.deepEqual(calculationChildren(lb, bs, 'us-gaap:CashAndCashEquivalentsAtCarryingValue'), []);
    assert.equal(lb.presentation.length, 768);
    assert.equal(lb.calculation.length, 215);
  });

  test('Apple FY2023 labels: the standard label is the taxonomy wording, "Net sales" is the terse one', async () => {
    const { labels } = await linkbasesOf(APPLE_FY23);
    const revenue = labels.get('us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    assert.equal(revenue?.get(STANDARD_LABEL_ROLE), 'Revenue from Contract with Customer, Excluding Assessed Tax');
    assert.equal(revenue?.get(`${ROLE}terseLabel`), 'Net sales');
    assert.equal(labels.get('us-gaap:AssetsCurrent')?.get(`${ROLE}totalLabel`), 'Total current assets');
    // character references decode: &#8217; is a right single quote
    assert.equal(labels.get('us-gaap:StockholdersEquity')?.get(`${ROLE}totalLabel`), 'Total shareholders\u2019 equity');
    assert.equal(labels.size, 689);
  });

  test('an equity statement keeps the same concept twice under one parent as opening and closing balance', async () => {
    const tree = presentationTree(await linkbasesOf(APPLE_FY23), 'http://www.apple.com/role/CONSOLIDATEDSTATEMENTSOFSHAREHOLDERSEQUITY');
    const equity = flattenTree(tree).filter((l) => l.concept === 'us-gaap:StockholdersEquity');
    assert.deepEqual(equity.map((l) => l.preferredLabel), [`${ROLE}periodStartLabel`, `${ROLE}periodEndLabel`]);
  });

  test('2009 Netflix (us-ascii, unprefixed linkbase elements, hand-numbered orders) reads the same way', async () => {
    const lb = await linkbasesOf(NETFLIX_FY09);
    const roles = statementRoles(lb);
    const bs = roles.find((r) => r.kind === 'BALANCE_SHEET');
    assert.equal(bs?.title, 'Statement Of Financial Position Classified');
    assert.equal(roles.find((r) => r.title.startsWith('Statement Of Shareholders Equity'))?.kind, 'EQUITY');
    assert.deepEqual(calculationChildren(lb, bs?.role ?? '', 'us-gaap:Assets'), [
      { concept: 'us-gaap:AssetsCurrent', weight: 1 },
      { concept: 'nflx:ContentLibraryNetNoncurrent', weight: 1 },
      { concept: 'us-gaap:PropertyPlantAndEquipmentNet', weight: 1 },
      { concept: 'us-gaap:DeferredTaxAssetsNetNoncurrent', weight: 1 },
      { concept: 'us-gaap:OtherAssetsNoncurrent', weight: 1 },
    ]);
    assert.equal(lb.labels.get('us-gaap:AccountsPayableCurrent')?.get(`${ROLE}verboseLabel`), 'Accounts payable');
  });

  test('hrefs name concepts by their fragment, split at the first underscore', () => {
    assert.equal(conceptFromHref('https://xbrl.fasb.org/us-gaap/2023/elts/us-gaap-2023.xsd#us-gaap_Revenues'), 'us-gaap:Revenues');
    assert.equal(conceptFromHref('aapl-20230930.xsd#aapl_Foo_Bar'), 'aapl:Foo_Bar');
    assert.equal(conceptFromHref('https://xbrl.ifrs.org/taxonomy/2023-03-23/full_ifrs/full_ifrs-cor_2023-03-23.xsd#ifrs-full_Revenue'), 'ifrs-full:Revenue');
    assert.equal(conceptFromHref('aapl-20230930.xsd#CoverPage'), null);
    assert.equal(conceptFromHref('aapl-20230930.xsd'), null);
  });

  test('arcs join every locator sharing a label, and a prohibiting arc removes its equivalent', async () => {
    const xml = `<linkbase xmlns="http://www.xbrl.org/2003/linkbase" xmlns:x="http://www.w3.org/1999/xlink">
      <calculationLink x:type="extended" x:role="r1">
        <calculationArc x:type="arc" x:arcrole="http://www.xbrl.org/2003/arcrole/summation-item" x:from="t" x:to="c" order="2" weight="-1"/>
        <calculationArc x:type="arc" x:arcrole="http://www.xbrl.org/2003/arcrole/summation-item" x:from="t" x:to="d" order="1" weight="1"/>
        <calculationArc x:type="arc" x:arcrole="http://www.xbrl.org/2003/arcrole/summation-item" x:from="t" x:to="d" order="1" weight="1" use="prohibited" priority="1"/>
        <loc x:type="locator" x:label="t" x:href="s.xsd#us-gaap_Total"/>
        <loc x:type="locator" x:label="c" x:href="s.xsd#us-gaap_A"/>
        <loc x:type="locator" x:label="c" x:href="s.xsd#abc_B"/>
        <loc x:type="locator" x:label="d" x:href="s.xsd#us-gaap_D"/>
      </calculationLink>
    </linkbase>`;
    const arcs = await parseLinkbase('calculation', xml);
    assert.deepEqual(calculationChildren({ calculation: arcs }, 'r1', 'us-gaap:Total'), [
      { concept: 'us-gaap:A', weight: -1 },
      { concept: 'abc:B', weight: -1 },
    ]);
  });

  test('statement titles are classified by their words, parentheticals and supplements set apart', () => {
    const cases: Array<[string, string]> = [
      ['Consolidated Statements of Operations and Comprehensive Loss', 'INCOME_STATEMENT'],
      ['Consolidated Statements of Comprehensive Income (Loss)', 'COMPREHENSIVE_INCOME'],
      ['CONSOLIDATED STATEMENTS OF EARNINGS', 'INCOME_STATEMENT'],
      ['Consolidated Statements of Financial Condition', 'BALANCE_SHEET'],
      ['Consolidated Statements of Redeemable Noncontrolling Interest and Equity', 'EQUITY'],
      ['CONSOLIDATED STATEMENTS OF CASH FLOWS - ADDITIONAL INFORMATION', 'OTHER'],
      ['Consolidated Balance Sheets (Parenthetical)', 'PARENTHETICAL'],
      ['Schedule of Investments', 'OTHER'],
    ];
    for (const [title, kind] of cases) assert.equal(classifyStatementTitle(title), kind, title);
  });

  test('an inline-only folder has no linkbases to read, and says so with empty results', async () => {
    const lb = await linkbasesOf(`${DATA}320193/000032019324000123/`);
    assert.deepEqual([lb.presentation.length, lb.calculation.length, lb.labels.size, lb.roleDefinitions.size], [0, 0, 0, 0]);
    assert.deepEqual(statementRoles(lb), []);
  });
});

describe('FilingSummary.xml', () => {
  test('Apple Q2 2025 reports: R2 is the income statement and R4 the balance sheet', async () => {
    const summary = await readFilingSummary(source, APPLE_Q2_25);
    assert.ok(summary);
    assert.equal(summary.form, '10-Q');
    assert.equal(summary.reports.length, 43); // 42 R pages + the "All Reports" book
    const r = (file: string) => summary.reports.find((x) => x.htmlFileName === file);
    assert.deepEqual(r('R2.htm'), {
      htmlFileName: 'R2.htm',
      shortName: 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)',
      longName: '9952151 - Statement - CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)',
      menuCategory: 'Statements',
      role: 'http://www.apple.com/role/CONDENSEDCONSOLIDATEDSTATEMENTSOFOPERATIONSUnaudited',
      reportType: 'Sheet',
      position: 2,
      instance: 'aapl-20250329.htm',
    });
    assert.equal(r('R4.htm')?.shortName, 'CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)');
    assert.equal(r('R4.htm')?.role, 'http://www.apple.com/role/CONDENSEDCONSOLIDATEDBALANCESHEETSUnaudited');
    assert.deepEqual(statementReports(summary).map((x) => x.htmlFileName), ['R2.htm', 'R3.htm', 'R4.htm', 'R5.htm', 'R6.htm', 'R7.htm']);
    const categories = new Map<string, number>();
    for (const x of summary.reports) if (x.menuCategory) categories.set(x.menuCategory, (categories.get(x.menuCategory) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(categories), { Cover: 1, Statements: 6, Notes: 12, Policies: 1, Tables: 6, Details: 16 });
    assert.deepEqual(summary.inputFiles.map((f) => f.name), ['aapl-20250329.htm', 'aapl-20250329.xsd', 'aapl-20250329_cal.xml', 'aapl-20250329_def.xml', 'aapl-20250329_lab.xml', 'aapl-20250329_pre.xml']);
  });

  test('FilingSummary alone classifies statements when the schema is not at hand, agreeing with the schema', async () => {
    const summary = await readFilingSummary(source, APPLE_Q2_25);
    assert.ok(summary);
    const fromSummary = statementRoles({ roleDefinitions: new Map() }, summary.reports);
    const fromSchema = statementRoles(await linkbasesOf(APPLE_Q2_25), summary.reports);
    assert.deepEqual(fromSummary.map((r) => [r.role, r.kind]), fromSchema.map((r) => [r.role, r.kind]));
    const bs = fromSchema.find((r) => r.kind === 'BALANCE_SHEET');
    assert.equal(reportForRole(summary, bs?.role ?? '')?.htmlFileName, 'R4.htm');
  });

  test('a folder without FilingSummary.xml reads as null', async () => {
    assert.equal(await readFilingSummary(source, APPLE_FY23), null);
    const empty = await parseFilingSummary('<FilingSummary><MyReports/></FilingSummary>');
    assert.deepEqual(empty, { reports: [], inputFiles: [], form: null });
  });
});
