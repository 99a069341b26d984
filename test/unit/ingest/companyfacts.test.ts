import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { CATALOG_FINGERPRINT } from '../../../domain/catalog/fingerprint.ts';
import type { FilingInfo } from '../../../domain/facts.ts';
import {
  filingsFromFacts,
  filingsFromSubmissions,
  isPeriodicForm,
  mergeFilings,
  parseCompanyFacts,
  PERIODIC_FORMS,
  readCompanyFacts,
} from '../../../ingest/companyfacts.ts';
import { companySourceHash, decodeCompanyFacts, NORMALIZER_VERSION } from '../../../ingest/ingest-company.ts';
import { openSecSource } from '../../../ingest/source.ts';
import { readSubmissions, type SubmissionsRead } from '../../../ingest/submissions.ts';
import { SHARED_SEC_URL } from '../../helpers/shared-data.ts';

const source = openSecSource(SHARED_SEC_URL);
const rawText = (cik: string): string =>
  readFileSync(new URL(`data.sec.gov/api/xbrl/companyfacts/CIK${cik}.json`, SHARED_SEC_URL), 'utf8');

interface RawRow {
  val: unknown;
  accn: string;
  form: string;
  filed: string;
}
type RawFacts = { facts: Record<string, Record<string, { units: Record<string, RawRow[]> }>> };

/** Rows of the raw file, counted straight from JSON.parse for comparison. */
function rawRows(cik: string): { taxonomy: string; row: RawRow }[] {
  const json = JSON.parse(rawText(cik)) as RawFacts;
  const out: { taxonomy: string; row: RawRow }[] = [];
  for (const [taxonomy, concepts] of Object.entries(json.facts)) {
    for (const concept of Object.values(concepts)) {
      for (const rows of Object.values(concept.units)) for (const row of rows) out.push({ taxonomy, row });
    }
  }
  return out;
}

/** The smallest companyfacts text holding one fact with the given raw value text. */
function oneFact(valText: string): string {
  return (
    '{"cik":1,"entityName":"Synthetic","facts":{"us-gaap":{"Assets":{"label":"Assets","description":"x","units":{"USD":[' +
    `{"end":"2024-12-31","val":${valText},"accn":"0000000001-25-000001","fy":2024,"fp":"FY","form":"10-K","filed":"2025-02-01"}` +
    ']}}}}}'
  );
}

describe('parseCompanyFacts on the mirror files', () => {
  test('every fact of Apple and of Snowflake (pretty-printed file) comes through, one per raw row', () => {
    for (const cik of ['0000320193', '0001640147']) {
      const parsed = parseCompanyFacts(rawText(cik));
      const raw = rawRows(cik);
      assert.equal(parsed.facts.length, raw.length, cik);
      assert.equal(parsed.skipped, 0, cik);
      for (const taxonomy of new Set(raw.map((r) => r.taxonomy))) {
        assert.equal(
          parsed.facts.filter((f) => f.taxonomy === taxonomy).length,
          raw.filter((r) => r.taxonomy === taxonomy).length,
          `${cik} ${taxonomy}`,
        );
      }
    }
  });

  test('the header gives a padded CIK, the entity name, all taxonomies and the byte size', () => {
    const text = rawText('0000320193');
    const parsed = parseCompanyFacts(text);
    assert.equal(parsed.cik, '0000320193');
    assert.equal(parsed.entityName, 'Apple Inc.');
    assert.deepEqual(parsed.taxonomies, ['dei', 'us-gaap']);
    assert.equal(parsed.bytes, Buffer.byteLength(text));
    assert.deepEqual(parseCompanyFacts(rawText('0001045810')).taxonomies, ['dei', 'invest', 'us-gaap', 'srt', 'ecd', 'ffd']);
  });

  test("Apple's FY2023 revenue from its 10-K comes through as the exact string 383285000000", () => {
    const { facts } = parseCompanyFacts(rawText('0000320193'));
    const revenue = facts.filter(
      (f) =>
        f.concept === 'RevenueFromContractWithCustomerExcludingAssessedTax' &&
        f.accession === '0000320193-23-000106' &&
        f.start === '2022-09-25' &&
        f.end === '2023-09-30',
    );
    assert.deepEqual(revenue, [
      {
        taxonomy: 'us-gaap',
        concept: 'RevenueFromContractWithCustomerExcludingAssessedTax',
        unit: 'USD',
        start: '2022-09-25',
        end: '2023-09-30',
        value: '383285000000',
        accession: '0000320193-23-000106',
        fy: 2023,
        fp: 'FY',
        form: '10-K',
        filed: '2023-11-03',
        frame: null,
        // companyfacts tells no decimals (a filing package's instance does, see package-facts)
        decimals: null,
      },
    ]);
  });

  test("Apple's diluted EPS keeps its fraction text (6.13, 6.11, 5.61) and its frame", () => {
    const eps = parseCompanyFacts(rawText('0000320193')).facts.filter(
      (f) => f.concept === 'EarningsPerShareDiluted' && f.accession === '0000320193-23-000106',
    );
    assert.deepEqual(
      eps.map((f) => [f.unit, f.end, f.value, f.frame]),
      [
        ['USD/shares', '2021-09-25', '5.61', 'CY2021'],
        ['USD/shares', '2022-09-24', '6.11', null],
        ['USD/shares', '2023-09-30', '6.13', null],
      ],
    );
  });

  test('an instant fact has start null', () => {
    const { facts } = parseCompanyFacts(rawText('0000320193'));
    const assets = facts.find((f) => f.concept === 'Assets' && f.accession === '0000320193-23-000106' && f.end === '2023-09-30');
    assert.equal(assets?.start, null);
    assert.equal(assets?.value, '352583000000');
  });

  test('TSMC ifrs-full facts are kept in TWD, and its 6-K facts have fy and fp null', () => {
    const parsed = parseCompanyFacts(rawText('0001046179'));
    assert.deepEqual(parsed.taxonomies, ['dei', 'ifrs-full']);
    const ifrs = parsed.facts.filter((f) => f.taxonomy === 'ifrs-full');
    assert.equal(ifrs.length, rawRows('0001046179').filter((r) => r.taxonomy === 'ifrs-full').length);
    assert.equal(ifrs.filter((f) => f.unit === 'TWD').length, 4624);
    const revenue2024 = ifrs.find((f) => f.concept === 'Revenue' && f.unit === 'TWD' && f.accession === '0001193125-25-083423' && f.end === '2024-12-31');
    assert.equal(revenue2024?.value, '2894307700000');
    assert.equal(revenue2024?.frame, 'CY2024');
    const sixK = ifrs.find((f) => f.concept === 'Revenue' && f.accession === '0001193125-21-301021');
    assert.equal(sixK?.form, '6-K');
    assert.equal(sixK?.fy, null);
    assert.equal(sixK?.fp, null);
  });
});

describe('parseCompanyFacts exact decimals (synthetic text)', () => {
  const value = (valText: string) => parseCompanyFacts(oneFact(valText)).facts[0]?.value;

  test('an integer beyond 2^53 stays exact', () => {
    assert.equal(value('123456789012345678901'), '123456789012345678901');
    assert.notEqual(String(JSON.parse('123456789012345678901')), '123456789012345678901');
  });

  test('exponent forms become plain decimal strings', () => {
    assert.equal(value('1.5E10'), '15000000000');
    assert.equal(value('-2.5e-3'), '-0.0025');
    assert.equal(value('7e+2'), '700');
  });

  test('fraction text is kept as written, trailing zeros included; negative zero becomes zero', () => {
    assert.equal(value('0.10'), '0.10');
    assert.equal(value('-1234.5678'), '-1234.5678');
    assert.equal(value('-0'), '0');
    assert.equal(value('-0.00'), '0.00');
  });

  test('whitespace around the colon, as re-serialized files have it, is fine', () => {
    assert.equal(parseCompanyFacts(oneFact('42').replace('"val":', '"val" :  ')).facts[0]?.value, '42');
  });

  test('a value that is not a number is skipped and counted, not turned into a fact', () => {
    for (const bad of ['null', '"12"', '"abc"', 'true']) {
      const parsed = parseCompanyFacts(oneFact(bad));
      assert.equal(parsed.facts.length, 0, bad);
      assert.equal(parsed.skipped, 1, bad);
    }
  });

  test('a label mentioning "val":1 inside a string is left alone', () => {
    const text = oneFact('5').replace('"description":"x"', '"description":"see \\"val\\":1 and \\"val\\": 2"');
    const parsed = parseCompanyFacts(text);
    assert.equal(parsed.facts[0]?.value, '5');
  });

  test('a fact without an accession is a located error', () => {
    assert.throws(() => parseCompanyFacts(oneFact('1').replace('"accn":"0000000001-25-000001",', '')), /us-gaap\.Assets\.units\.USD\[0\]\.accn/);
  });
});

describe('readCompanyFacts', () => {
  test('reads a mirrored company by unpadded CIK and gives null for one the mirror lacks', async () => {
    const parsed = await readCompanyFacts(source, '1652044');
    assert.equal(parsed?.cik, '0001652044');
    assert.equal(parsed?.facts.length, rawRows('0001652044').length);
    assert.equal(await readCompanyFacts(source, '0000000001'), null);
  });
});

describe('filings', () => {
  test('every periodic form is recognized and nothing else is', () => {
    for (const form of ['10-K', '10-Q', '10-K/A', '10-Q/A', '10-KT', '10-QT', '10-KT/A', '10-QT/A', '20-F', '20-F/A', '40-F', '40-F/A']) {
      assert.ok(isPeriodicForm(form), form);
    }
    assert.equal(PERIODIC_FORMS.size, 12);
    for (const form of ['DEF 14A', '8-K', '8-K/A', 'S-1', '424B5', '424B2', '6-K', 'PRE 14A', 'Other']) assert.ok(!isPeriodicForm(form), form);
  });

  test("Alphabet's facts give one filing per accession with its form, filing date, report date and fiscal focus", async () => {
    const parsed = await readCompanyFacts(source, '0001652044');
    assert.ok(parsed);
    const filings = filingsFromFacts(parsed.facts);
    assert.equal(filings.length, new Set(rawRows('0001652044').map((r) => r.row.accn)).size);
    const byAccession = new Map(filings.map((f) => [f.accession, f]));

    assert.deepEqual(byAccession.get('0001652044-24-000022'), {
      accession: '0001652044-24-000022',
      form: '10-K',
      filing_date: '2024-01-31',
      report_date: '2023-12-31',
      accepted_at: null,
      primary_document: null,
      fiscal_year_focus: 2023,
      fiscal_period_focus: 'FY',
      source: 'companyfacts',
      filing_date_estimated: false,
    });
    const q1 = byAccession.get('0001652044-25-000043');
    assert.deepEqual([q1?.form, q1?.filing_date, q1?.report_date, q1?.fiscal_year_focus, q1?.fiscal_period_focus], [
      '10-Q',
      '2025-04-25',
      '2025-03-31',
      2025,
      'Q1',
    ]);
    assert.equal(filings.filter((f) => f.form === '10-K').length, 11);
    assert.equal(filings.filter((f) => f.form === '10-Q').length, 32);
    assert.ok(filings.filter((f) => f.form === '10-K' || f.form === '10-Q').every((f) => f.report_date !== null));
  });

  test("Alphabet's proxy, 8-K and prospectus accessions are kept but non-periodic, with no report date", async () => {
    const parsed = await readCompanyFacts(source, '0001652044');
    assert.ok(parsed);
    const byAccession = new Map(filingsFromFacts(parsed.facts).map((f) => [f.accession, f]));
    const proxy = byAccession.get('0001308179-26-000342');
    assert.equal(proxy?.form, 'DEF 14A');
    assert.equal(proxy?.filing_date, '2026-04-24');
    assert.equal(proxy?.report_date, null);
    assert.equal(proxy?.fiscal_year_focus, null);
    assert.ok(!isPeriodicForm(proxy.form));
    const eightK = byAccession.get('0001652044-16-000022');
    assert.equal(eightK?.form, '8-K');
    assert.equal(eightK?.filing_date, '2016-05-03');
    assert.equal(eightK?.report_date, null);
    assert.ok(!isPeriodicForm(eightK.form));
    assert.equal(byAccession.get('0001193125-26-228923')?.form, '424B5');
  });

  test('filings come sorted by filing date, then accession', async () => {
    const parsed = await readCompanyFacts(source, '0000104169');
    assert.ok(parsed);
    const filings = filingsFromFacts(parsed.facts);
    const keys = filings.map((f) => `${f.filing_date} ${f.accession}`);
    assert.deepEqual(keys, [...keys].sort());
    assert.equal(filings[0]?.accession, '0001193125-09-189177');
    assert.equal(filings.find((f) => f.accession === '0000104169-13-000039')?.form, '10-Q/A');
  });

  test('the report date is the period the facts mostly describe, not a later cover-page date', () => {
    const base = { taxonomy: 'us-gaap', concept: 'X', unit: 'USD', start: null, value: '1', accession: 'A', fy: 2024, fp: 'FY', form: '10-K', filed: '2025-02-01', frame: null };
    const filings = filingsFromFacts([
      { ...base, end: '2024-12-31' },
      { ...base, end: '2024-12-31' },
      { ...base, end: '2023-12-31' },
      { ...base, end: '2025-01-15' },
      { ...base, taxonomy: 'dei', end: '2025-01-20' },
      { ...base, taxonomy: 'dei', end: '2025-01-20' },
      { ...base, taxonomy: 'dei', end: '2025-01-20' },
    ]);
    assert.equal(filings[0]?.report_date, '2024-12-31');
  });

  test('when facts of one accession disagree on form, the most frequent form wins', () => {
    const base = { taxonomy: 'us-gaap', concept: 'X', unit: 'USD', start: null, end: '2024-12-31', value: '1', accession: 'A', fy: 2024, fp: 'FY', filed: '2025-02-01', frame: null };
    const [filing] = filingsFromFacts([{ ...base, form: '10-K/A' }, { ...base, form: '10-K' }, { ...base, form: '10-K' }]);
    assert.equal(filing?.form, '10-K');
  });

  test('merging Apple keeps submissions fields, adds the facts’ fiscal focus, and keeps accessions only the facts know', async () => {
    const [subs, facts] = await Promise.all([readSubmissions(source, '0000320193'), readCompanyFacts(source, '0000320193')]);
    assert.ok(subs && facts);
    const fromSubs = filingsFromSubmissions(subs.filings);
    const fromFacts = filingsFromFacts(facts.facts);
    const merged = mergeFilings(fromSubs, fromFacts);

    const union = new Set([...fromSubs.map((f) => f.accession), ...fromFacts.map((f) => f.accession)]);
    assert.equal(merged.length, union.size);
    assert.equal(merged.length, 1026);

    assert.deepEqual(
      merged.find((f) => f.accession === '0000320193-23-000106'),
      {
        accession: '0000320193-23-000106',
        form: '10-K',
        filing_date: '2023-11-03',
        report_date: '2023-09-30',
        accepted_at: '2023-11-02T22:08:27.000Z',
        primary_document: 'aapl-20230930.htm',
        fiscal_year_focus: 2023,
        fiscal_period_focus: 'FY',
        source: 'submissions',
        filing_date_estimated: false,
      } satisfies FilingInfo,
    );
    // the mirror lacks Apple's pre-2015 history page, so these older filings are known only from facts
    const old = merged.find((f) => f.accession === '0001193125-09-153165');
    assert.equal(old?.source, 'companyfacts');
    assert.ok(old && isPeriodicForm(old.form));

    const keys = merged.map((f) => `${f.filing_date} ${f.accession}`);
    assert.deepEqual(keys, [...keys].sort());
  });

  test('on a clash the submissions form and dates win over the facts’ version', () => {
    const sub: FilingInfo = {
      accession: 'A',
      form: '10-K/A',
      filing_date: '2025-02-02',
      report_date: '2024-12-31',
      accepted_at: '2025-02-02T21:00:00.000Z',
      primary_document: 'a.htm',
      fiscal_year_focus: null,
      fiscal_period_focus: null,
      source: 'submissions',
      filing_date_estimated: false,
    };
    const fromFacts: FilingInfo = {
      ...sub,
      form: '10-K',
      filing_date: '2025-02-01',
      report_date: '2024-12-30',
      accepted_at: null,
      primary_document: null,
      fiscal_year_focus: 2024,
      fiscal_period_focus: 'FY',
      source: 'companyfacts',
    };
    assert.deepEqual(mergeFilings([sub], [fromFacts]), [{ ...sub, fiscal_year_focus: 2024, fiscal_period_focus: 'FY' }]);
    // facts without a fiscal focus do not erase anything
    assert.deepEqual(mergeFilings([sub], [{ ...fromFacts, fiscal_year_focus: null, fiscal_period_focus: null }]), [sub]);
  });
});

describe('the fast path of parseCompanyFacts', () => {
  test('gives exactly the facts of the exact-text path on every mirror file', () => {
    const dir = new URL('data.sec.gov/api/xbrl/companyfacts/', SHARED_SEC_URL);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 20);
    for (const f of files) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      assert.deepEqual(parseCompanyFacts(text), parseCompanyFacts(text, { exactText: true }), f);
    }
  });

  test('takes the exact-text path for a file whose values a double would alter', () => {
    const doc = (val: string) => `{"cik":1,"entityName":"X","facts":{"us-gaap":{"A":{"units":{"USD":[{"end":"2024-12-31","val":${val},"accn":"0000000001-25-000001","fy":2024,"fp":"FY","form":"10-K","filed":"2025-02-01"}]}}}}}`;
    for (const [val, text] of [['12345678901234567', '12345678901234567'], ['0.10', '0.10'], ['1.5E10', '15000000000'], ['-0', '0'], ['0.0000001', '0.0000001']]) {
      assert.equal(parseCompanyFacts(doc(val!)).facts[0]!.value, text, val);
    }
  });
});

describe('the skip hash of a company (companySourceHash)', () => {
  // the value every earlier version stored: the decoded text hashed as a string (so as its UTF-8)
  const textHash = (text: string, submissions: SubmissionsRead | null, fingerprint: string) =>
    createHash('sha256')
      .update(`normalizer:${NORMALIZER_VERSION}|catalog:${CATALOG_FINGERPRINT}\n`)
      .update(text)
      .update(submissions ? JSON.stringify([submissions.profile.fiscalYearEnd, submissions.filings]) : '')
      .update(`\npackages:${fingerprint}`)
      .digest('hex');

  test('hashing the file bytes gives the value hashing its text gave, for a mirror file and for multi-byte text with a BOM', async () => {
    const submissions = await readSubmissions(source, '320193');
    const apple = readFileSync(new URL('data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json', SHARED_SEC_URL));
    assert.equal(companySourceHash(apple, submissions, 'f1'), textHash(apple.toString('utf8'), submissions, 'f1'));
    const bom = Buffer.from('\ufeff{"entityName":"Société Générale € 𝄞"}', 'utf8');
    assert.equal(companySourceHash(bom, null, ''), textHash(bom.toString('utf8'), null, ''));
    assert.equal(companySourceHash(null, null, 'f2'), textHash('', null, 'f2'));
  });

  test('bytes that are not valid UTF-8 hash as their decoded text, as before, not as the raw bytes', () => {
    // a lone continuation byte and a truncated 3-byte sequence: each decodes to U+FFFD
    const bad = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0xe2, 0x82, 0x22, 0x7d]);
    assert.equal(companySourceHash(bad, null, ''), textHash(bad.toString('utf8'), null, ''));
    assert.notEqual(companySourceHash(bad, null, ''), createHash('sha256').update(`normalizer:${NORMALIZER_VERSION}|catalog:${CATALOG_FINGERPRINT}\n`).update(bad).update('\npackages:').digest('hex'));
  });
});

describe('decoding a company-facts file (decodeCompanyFacts)', () => {
  test('gives the UTF-8 decoding exactly, for every company-facts file of the mirror and for non-ASCII, BOM and invalid bytes', () => {
    const dir = new URL('data.sec.gov/api/xbrl/companyfacts/', SHARED_SEC_URL);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 20, `mirror files: ${files.length}`);
    for (const f of files) {
      const raw = readFileSync(new URL(f, dir));
      assert.equal(decodeCompanyFacts(raw), raw.toString('utf8'), f);
    }
    for (const raw of [
      Buffer.from('{"entityName":"Soci\u00e9t\u00e9 G\u00e9n\u00e9rale"}', 'utf8'),
      Buffer.from('\ufeff{"entityName":"Société Générale € 𝄞"}', 'utf8'),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0xe2, 0x82, 0x22, 0x7d]),
      Buffer.from('{"a":"\u00ff"}', 'latin1'),
    ]) {
      assert.equal(decodeCompanyFacts(raw), raw.toString('utf8'), raw.toString('hex'));
    }
  });
});
