import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { groundingViolations, type Claim } from '../domain/ai/claims.ts';
import { generateNarratives, NARRATIVE_TYPES, type Narrative } from '../domain/ai/narratives.ts';
import { numeralsIn, renderRatio } from '../domain/ai/render.ts';
import { CompanyView, type SnapshotFigure } from '../domain/ai/snapshot-view.ts';
import { STATEMENT_TYPES } from '../domain/catalog/index.ts';
import { corpusCiks, corpusSnapshotRows, type CorpusCompany } from './helpers/corpus-snapshot-rows.ts';

/**
 * Narratives over snapshot-shaped rows built from the ../shared/sec corpus by the real
 * normalization pipeline (no database): every printed number traced to a claim and every claim
 * to the figures; byte-identical output from rebuilt rows; Apple's FY2024 margins checked against
 * the values of its own 10-K read straight from companyfacts.
 */
const APPLE = '0000320193';
const AS_OF = '2024-12-31';

let universe: CorpusCompany[] = [];
before(async () => {
  universe = await Promise.all(corpusCiks().map((cik) => corpusSnapshotRows(cik, AS_OF)));
});

function all(company: CorpusCompany): Narrative[] {
  const view = new CompanyView(company.rows);
  return NARRATIVE_TYPES.flatMap((t) => STATEMENT_TYPES.flatMap((s) => generateNarratives(company.cik, view, t, s)));
}

/** The test's own rendering of an exact value (half-up, as documented) with `extra` more decimals, to check each printed figure. */
function expectedRendering(unit: string, value: string, extra = 0): string {
  const d = new Decimal(value);
  const unsigned = (x: string) => x.replace(/^-(0(\.0+)?)$/, '$1');
  if (unit === 'ratio') return `${unsigned(d.times(100).toDecimalPlaces(1 + extra, Decimal.ROUND_HALF_UP).toFixed(1 + extra))}%`;
  if (unit === 'times') return `${unsigned(d.toDecimalPlaces(2 + extra, Decimal.ROUND_HALF_UP).toFixed(2 + extra))}x`;
  const abs = d.abs();
  const [size, suffix] = abs.gte(1e12) ? [1e12, 'T'] : abs.gte(1e9) ? [1e9, 'B'] : abs.gte(1e6) ? [1e6, 'M'] : abs.gte(1e3) ? [1e3, 'K'] : [1, ''];
  const places = (suffix ? 1 : 0) + extra;
  return `${unsigned(d.dividedBy(size).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(places))}${suffix}`;
}

/**
 * The documented rule, worked out here: the fewest extra decimals at which two different values
 * print apart and, for ratios (in points) and multiples, their change does not print as zero.
 */
function expectedExtra(unit: string, from: string, to: string): number {
  const change = new Decimal(to).minus(from);
  if (change.isZero()) return 0;
  for (let extra = 0; ; extra++) {
    const changeShows = unit === 'currency' || !change.times(unit === 'ratio' ? 100 : 1).toDecimalPlaces((unit === 'ratio' ? 1 : 2) + extra, Decimal.ROUND_HALF_UP).isZero();
    if (changeShows && expectedRendering(unit, from, extra) !== expectedRendering(unit, to, extra)) return extra;
  }
}

function figure(rows: readonly SnapshotFigure[], type: string, year: number, period: string, metric: string): SnapshotFigure | undefined {
  return rows.find((r) => r.statement_type === type && r.fiscal_year === year && r.fiscal_period === period && r.metric_name === metric);
}

describe('every narrative of every company is grounded', () => {
  it('each numeral of each sentence is printed by one of its claims, and each printed figure is the claim value rounded as documented', () => {
    let narratives = 0;
    let numerals = 0;
    for (const company of universe) {
      for (const n of all(company)) {
        narratives++;
        assert.deepEqual(groundingViolations(n.sentences, n.claims), [], `${company.cik} ${n.narrative_type} ${n.fiscal_year} ${n.fiscal_period}`);
        assert.equal(n.text, n.sentences.map((s) => s.text).join(' '));
        const byId = new Map(n.claims.map((c) => [c.claim_id, c]));
        for (const s of n.sentences) {
          const printed = new Set(s.claim_ids.flatMap((id) => Object.values(byId.get(id)!.rendered).flatMap(numeralsIn)));
          for (const x of numeralsIn(s.text)) {
            numerals++;
            assert.ok(printed.has(x), `${x} of "${s.text}" is in its claims`);
          }
        }
        for (const c of n.claims) {
          const extra = c.from ? expectedExtra(c.unit, c.from.value, c.to.value) : 0;
          if (c.from) assert.equal(c.rendered.from, expectedRendering(c.unit, c.from.value, extra), JSON.stringify(c));
          if (c.measure !== 'EFFECT') assert.equal(c.rendered.to, expectedRendering(c.unit, c.to.value, extra), JSON.stringify(c));
          if (c.from && !new Decimal(c.change).isZero()) {
            assert.notEqual(c.rendered.from, c.rendered.to, `different values print apart: ${JSON.stringify(c)}`);
            if (c.unit !== 'currency') assert.ok(numeralsIn(c.rendered.change!).some((x) => /[1-9]/.test(x)), `a move prints as one: ${JSON.stringify(c)}`);
            if (c.relative_change !== null) assert.ok(numeralsIn(c.rendered.relative_change!).some((x) => /[1-9]/.test(x)), `growth prints as one: ${JSON.stringify(c)}`);
          }
          assert.ok(new Decimal(c.change).equals(c.measure === 'EFFECT' ? c.to.value : new Decimal(c.to.value).minus(c.from!.value)));
        }
      }
    }
    assert.ok(narratives > 1000, `narratives: ${narratives}`);
    assert.ok(numerals > 10000, `numerals: ${numerals}`);
  });

  it('amount and share claims are the snapshot figures of the periods and versions they name', () => {
    let checked = 0;
    for (const company of universe) {
      for (const n of all(company)) {
        for (const c of n.claims.filter((x) => x.measure !== 'EFFECT' && x.unit === 'currency' || x.measure === 'SHARE_OF_REVENUE')) {
          for (const p of [c.from!, c.to]) {
            const row = figure(company.rows, n.statement_type, p.fiscal_year, p.fiscal_period, c.metric);
            assert.ok(row, `${c.metric} ${p.fiscal_year} ${p.fiscal_period}`);
            assert.ok(c.statement_version_ids.includes(row.statement_version_id));
            if (c.measure === 'LEVEL') assert.equal(p.value, row.metric_value);
            else {
              const revenue = figure(company.rows, n.statement_type, p.fiscal_year, p.fiscal_period, 'REVENUE')!;
              assert.ok(new Decimal(row.metric_value).dividedBy(revenue.metric_value).minus(p.value).abs().lte('1e-12'));
            }
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 5000, `checked: ${checked}`);
  });

  it('margin claims equal the margin of the cited income statements, computed here from their lines', () => {
    const FORMULA: Record<string, string> = { GROSS_MARGIN: 'GROSS_PROFIT', OPERATING_MARGIN: 'OPERATING_INCOME', NET_MARGIN: 'NET_INCOME' };
    let checked = 0;
    for (const company of universe) {
      const view = new CompanyView(company.rows);
      for (const n of generateNarratives(company.cik, view, 'MARGINS_MOVE', 'INCOME_STATEMENT')) {
        for (const c of n.claims.filter((x) => FORMULA[x.metric])) {
          for (const p of [c.from!, c.to]) {
            const top = figure(company.rows, 'INCOME_STATEMENT', p.fiscal_year, p.fiscal_period, FORMULA[c.metric]!)!;
            const revenue = figure(company.rows, 'INCOME_STATEMENT', p.fiscal_year, p.fiscal_period, 'REVENUE')!;
            assert.ok(new Decimal(top.metric_value).dividedBy(revenue.metric_value).minus(p.value).abs().lte('1e-12'), `${c.metric} ${p.fiscal_year}`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 1000, `checked: ${checked}`);
  });

  it('ROIC changes split into margin, turnover and tax effects that add up to the change exactly', () => {
    let checked = 0;
    for (const company of universe) {
      for (const n of generateNarratives(company.cik, new CompanyView(company.rows), 'ROIC_CHANGE', 'INCOME_STATEMENT')) {
        const roic = n.claims.find((c) => c.metric === 'ROIC' && c.measure === 'LEVEL')!;
        const effects = n.claims.filter((c) => c.measure === 'EFFECT');
        assert.deepEqual(effects.map((e) => e.metric), ['OPERATING_MARGIN', 'INVESTED_CAPITAL_TURNOVER', 'EFFECTIVE_TAX_RATE']);
        const sum = effects.reduce((acc, e) => acc.plus(e.change), new Decimal(0));
        assert.ok(sum.minus(roic.change).abs().lte('3e-12'), `${company.cik} ${n.fiscal_year} ${n.fiscal_period}: ${sum} vs ${roic.change}`);
        // ROIC = margin x turnover x (1 - tax rate) at both ends
        const level = (m: string) => n.claims.find((c) => c.metric === m && c.measure === 'LEVEL')!;
        for (const end of ['from', 'to'] as const) {
          // turnover is held to 12 fraction digits, so the product may differ by half a unit there times margin x (1 - tax rate)
          const mk = new Decimal(level('OPERATING_MARGIN')[end]!.value).times(new Decimal(1).minus(level('EFFECTIVE_TAX_RATE')[end]!.value));
          const product = mk.times(level('INVESTED_CAPITAL_TURNOVER')[end]!.value);
          assert.ok(product.minus(roic[end]!.value).abs().lte(mk.abs().times('0.5e-12').plus('1e-24')), `${company.cik} ${n.fiscal_year} ${n.fiscal_period} ${end}: ${product} vs ${roic[end]!.value}`);
        }
        checked++;
      }
    }
    assert.ok(checked > 100, `checked: ${checked}`);
  });
});

describe('determinism', () => {
  it('rows rebuilt and shuffled give byte-identical narratives', async () => {
    const apple = universe.find((c) => c.cik === APPLE)!;
    const shuffled = [...apple.rows].reverse();
    const a = JSON.stringify(all(apple));
    const b = JSON.stringify(all({ ...apple, rows: shuffled }));
    assert.equal(a, b);
    assert.ok(a.length > 100000);
  });
});

/** Apple's FY2024 10-K (0000320193-24-000123), straight from companyfacts: 12-month facts ending 2024-09-28 and 2023-09-30. */
function appleFact(concept: string, end: string): string {
  const json = JSON.parse(readFileSync(new URL('../../shared/sec/data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json', import.meta.url), 'utf8'));
  const rows = json.facts['us-gaap'][concept].units.USD as { end: string; start: string; val: number; accn: string; form: string }[];
  const row = rows.find((r) => r.accn === '0000320193-24-000123' && r.end === end && r.start < `${Number(end.slice(0, 4)) - 1}-10-10`);
  assert.ok(row, `${concept} ${end}`);
  return String(row.val);
}

describe("Apple's FY2024 narratives", () => {
  it('MARGINS_MOVE names the gross-margin move and the cost-of-revenue share behind it, with the 10-K figures', () => {
    const apple = universe.find((c) => c.cik === APPLE)!;
    const n = generateNarratives(APPLE, new CompanyView(apple.rows), 'MARGINS_MOVE', 'INCOME_STATEMENT').find((x) => x.fiscal_year === 2024 && x.fiscal_period === 'FY')!;
    const gm = (end: string) => new Decimal(appleFact('GrossProfit', end)).dividedBy(appleFact('RevenueFromContractWithCustomerExcludingAssessedTax', end));
    const claim = n.claims.find((c) => c.metric === 'GROSS_MARGIN') as Claim;
    assert.ok(gm('2024-09-28').minus(claim.to.value).abs().lte('1e-12'));
    assert.ok(gm('2023-09-30').minus(claim.from!.value).abs().lte('1e-12'));
    assert.match(n.sentences[0]!.text, /^Gross margin rose from 44\.1% in FY2023 to 46\.2% in FY2024 \(\+2\.1 pp\); the line that moved most: cost of revenue went from 55\.9% to 53\.8% of revenue \(-2\.1 pp\)\.$/);
    assert.match(n.text, /Net margin fell from 25\.3% in FY2023 to 24\.0% in FY2024/);
  });

  it('MARGINS_MOVE prints a margin move that one decimal would hide with the decimals that show it: 25.310% to 25.306% in FY2023, not 25.3% to 25.3%', () => {
    const apple = universe.find((c) => c.cik === APPLE)!;
    const n = generateNarratives(APPLE, new CompanyView(apple.rows), 'MARGINS_MOVE', 'INCOME_STATEMENT').find((x) => x.fiscal_year === 2023 && x.fiscal_period === 'FY')!;
    const claim = n.claims.find((c) => c.metric === 'NET_MARGIN')!;
    // FY2022: 99,803M net income over 394,328M revenue; FY2023: 96,995M over 383,285M
    assert.ok(new Decimal('99803000000').dividedBy('394328000000').minus(claim.from!.value).abs().lte('1e-12'));
    assert.ok(new Decimal('96995000000').dividedBy('383285000000').minus(claim.to.value).abs().lte('1e-12'));
    assert.equal(renderRatio(claim.from!.value), renderRatio(claim.to.value), 'one decimal prints both as 25.3%');
    assert.deepEqual([claim.rendered.from, claim.rendered.to, claim.rendered.change], ['25.310%', '25.306%', '-0.003 pp']);
    assert.match(n.text, /Net margin fell from 25\.310% in FY2022 to 25\.306% in FY2023 \(-0\.003 pp\)/);
    // the other margins of the same narrative moved enough to keep one decimal
    assert.match(n.text, /^Gross margin rose from 43\.3% in FY2022 to 44\.1% in FY2023 \(\+0\.8 pp\)/);
  });

  it('CHANGE_SUMMARY leads with revenue against the prior year', () => {
    const apple = universe.find((c) => c.cik === APPLE)!;
    const n = generateNarratives(APPLE, new CompanyView(apple.rows), 'CHANGE_SUMMARY', 'INCOME_STATEMENT').find((x) => x.fiscal_year === 2024 && x.fiscal_period === 'FY')!;
    const revenue = n.claims[0]!;
    assert.equal(revenue.metric, 'REVENUE');
    assert.equal(revenue.to.value, appleFact('RevenueFromContractWithCustomerExcludingAssessedTax', '2024-09-28'));
    assert.equal(revenue.from!.value, appleFact('RevenueFromContractWithCustomerExcludingAssessedTax', '2023-09-30'));
    assert.match(n.text, /^Revenue rose 2\.0% to 391\.0B in FY2024 from 383\.3B in FY2023 \(\+7\.8B\)\./);
  });

  it('a quarter is compared with the quarter before and the same quarter a year before', () => {
    const apple = universe.find((c) => c.cik === APPLE)!;
    const n = generateNarratives(APPLE, new CompanyView(apple.rows), 'CHANGE_SUMMARY', 'INCOME_STATEMENT').find((x) => x.fiscal_year === 2024 && x.fiscal_period === 'Q3')!;
    assert.deepEqual(n.sentences.map((s) => n.claims.find((c) => c.claim_id === s.claim_ids[0])!.from), [
      { fiscal_year: 2024, fiscal_period: 'Q2', value: figure(apple.rows, 'INCOME_STATEMENT', 2024, 'Q2', 'REVENUE')!.metric_value },
      { fiscal_year: 2023, fiscal_period: 'Q3', value: figure(apple.rows, 'INCOME_STATEMENT', 2023, 'Q3', 'REVENUE')!.metric_value },
    ]);
  });

  it('margin and ROIC narratives apply to income statements only; a balance-sheet summary is generated', () => {
    const apple = universe.find((c) => c.cik === APPLE)!;
    const view = new CompanyView(apple.rows);
    assert.deepEqual(generateNarratives(APPLE, view, 'MARGINS_MOVE', 'BALANCE_SHEET'), []);
    assert.deepEqual(generateNarratives(APPLE, view, 'ROIC_CHANGE', 'CASH_FLOW_STATEMENT'), []);
    const bs = generateNarratives(APPLE, view, 'CHANGE_SUMMARY', 'BALANCE_SHEET');
    assert.ok(bs.length > 10);
    assert.equal(bs[0]!.claims[0]!.metric, 'TOTAL_ASSETS');
  });

  it('refuses text with a number no claim holds', () => {
    const apple = universe.find((c) => c.cik === APPLE)!;
    const n = generateNarratives(APPLE, new CompanyView(apple.rows), 'ROIC_CHANGE', 'INCOME_STATEMENT')[0]!;
    const tampered = n.sentences.map((s, i) => (i === 0 ? { ...s, text: `${s.text} It was 12.5% in 2019.` } : s));
    assert.deepEqual(groundingViolations(tampered, n.claims), [`"12.5" in "${tampered[0]!.text}"`, `"2019" in "${tampered[0]!.text}"`]);
  });
});
