import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { get } from './helpers/http.ts';
import { SHARED_MACRO, startTestService, type TestService } from './helpers/service.ts';

/**
 * The CPI-adjusted company series, checked against a computation done here from the CSV file and
 * the nominal series the metric time-series route serves: deflator = mean CPI of the months from
 * the period's start month through its end month, base = mean of the base year's twelve months,
 * real = nominal x base / deflator, rounded half to even to six fraction digits.
 */
const APPLE = '0000320193';
const WALMART = '0000104169';

const D = Decimal.clone({ precision: 60 });
const CPI = new Map(
  readFileSync(path.join(SHARED_MACRO, 'fred', 'CPIAUCSL.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .map(([date, value]) => [date!.slice(0, 7), value === '' ? null : value!] as const),
);

function months(start: string, end: string): string[] {
  const out: string[] = [];
  const d = new Date(`${start.slice(0, 7)}-01T00:00:00Z`);
  while (d.toISOString().slice(0, 7) <= end.slice(0, 7)) {
    out.push(d.toISOString().slice(0, 7));
    d.setUTCMonth(d.getUTCMonth() + 1);
  }
  return out;
}

function mean(ms: string[]): Decimal | null {
  if (ms.some((m) => !CPI.get(m))) return null;
  return ms.reduce((a, m) => a.plus(CPI.get(m)!), new D(0)).dividedBy(ms.length);
}

let svc: TestService;
before(async () => {
  svc = await startTestService({ rateLimits: false });
});
after(async () => {
  await svc?.close();
});

async function ok(p: string, key = svc.keys.free) {
  const r = await get(`${svc.baseUrl}${p}`, key);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function refused(p: string, code = 'VALIDATION_ERROR'): Promise<string> {
  const r = await get(`${svc.baseUrl}${p}`, svc.keys.free);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.error.code, code, r.text);
  return r.body.error.message;
}

describe('GET /v1/fundamentals/companies/{cik}/metrics/{metric}/time-series/real', () => {
  it("deflates Apple's annual revenue FY2015-FY2024 to 2017 dollars exactly as computed from the CPI file and the nominal series", async () => {
    const body = await ok(`/v1/fundamentals/companies/320193/metrics/REVENUE/time-series/real?base_year=2017&fiscal_year_from=2015&fiscal_year_to=2024&period_type=annual`);
    const nominal = await ok(`/v1/edgar/companies/${APPLE}/metrics/REVENUE/time-series?period_type=annual&fiscal_year_from=2015&fiscal_year_to=2024&page_size=200`);
    const base = mean(months('2017-01-01', '2017-12-31'))!;
    assert.equal(body.data.base_index, base.toFixed(12, Decimal.ROUND_HALF_EVEN));
    assert.equal(body.data.cpi_series, 'CPIAUCSL');
    assert.equal(body.data.points.length, 10);
    assert.equal(nominal.items.length, 10);
    for (const [i, n] of nominal.items.entries()) {
      const p = body.data.points[i];
      assert.equal(p.fiscal_year, n.fiscal_year);
      assert.equal(p.nominal_value, n.value, 'nominal equals the metric time series');
      const span = months(n.period_start, n.period_end);
      assert.deepEqual(p.cpi_months, span);
      const deflator = mean(span)!;
      assert.equal(p.deflator, deflator.toFixed(12, Decimal.ROUND_HALF_EVEN));
      assert.equal(p.real_value, new D(n.value).times(base).dividedBy(deflator).toFixed(6, Decimal.ROUND_HALF_EVEN), `FY${n.fiscal_year}`);
      assert.equal(p.real_value_reason, null);
      assert.equal(p.statement_version_id, n.statement_version_id);
    }
    // Apple's 52/53-week year starts on the last Sunday of September, so the span is 13 months
    const fy2023 = body.data.points.find((p: any) => p.fiscal_year === 2023);
    assert.deepEqual([fy2023.cpi_months[0], fy2023.cpi_months.at(-1), fy2023.cpi_months.length], ['2022-09', '2023-09', 13]);
  });

  it('deflates a balance by the CPI of the month it falls in, with the core CPI when asked', async () => {
    const body = await ok(`/v1/fundamentals/companies/${APPLE}/metrics/TOTAL_ASSETS/time-series/real?base_year=2020&fiscal_year_from=2023&fiscal_year_to=2023&period_type=annual&cpi_series=cpilfesl`);
    assert.equal(body.data.cpi_series, 'CPILFESL');
    const [p] = body.data.points;
    assert.equal(p.period_start, null);
    assert.deepEqual(p.cpi_months, ['2023-09']);
    assert.equal(p.nominal_value, '352583000000.000000');
  });

  it("gives Walmart's quarter that spans October 2025 a null real value with the missing month, and deflates the quarter before", async () => {
    const body = await ok(`/v1/fundamentals/companies/${WALMART}/metrics/REVENUE/time-series/real?base_year=2024&fiscal_year_from=2026&fiscal_year_to=2026&period_type=quarterly`);
    const q2 = body.data.points.find((p: any) => p.fiscal_period === 'Q2');
    const q3 = body.data.points.find((p: any) => p.fiscal_period === 'Q3');
    assert.deepEqual(q3.cpi_months, ['2025-08', '2025-09', '2025-10']);
    assert.equal(q3.real_value, null);
    assert.equal(q3.deflator, null);
    assert.equal(q3.real_value_reason, 'CPI_MONTH_MISSING');
    assert.deepEqual(q3.missing_cpi_months, ['2025-10']);
    assert.equal(q3.nominal_value, '179496000000.000000');
    assert.ok(q2.real_value !== null && q2.real_value_reason === null);
    // the fourth quarter runs past the last CPI month of the file
    const q4 = body.data.points.find((p: any) => p.fiscal_period === 'Q4');
    assert.deepEqual(q4.missing_cpi_months, ['2025-12', '2026-01']);
  });

  it('reads only CPI values knowable on as_of_date: September 2025 CPI is not knowable on 2025-10-19', async () => {
    const asOf = await ok(`/v1/fundamentals/companies/${WALMART}/metrics/REVENUE/time-series/real?base_year=2024&fiscal_year_from=2026&fiscal_year_to=2026&period_type=quarterly&as_of_date=2025-10-19`);
    const q2 = asOf.data.points.find((p: any) => p.fiscal_period === 'Q2');
    assert.ok(q2.real_value !== null, 'May-July 2025 CPI was knowable');
    assert.equal(asOf.data.points.find((p: any) => p.fiscal_period === 'Q3'), undefined, 'the Q3 report was not filed yet');
  });

  it('follows the rule for every company of the corpus: each point real = nominal x base / deflator, or null naming the missing months or a non-dollar unit', async () => {
    const companies = await svc.sql<{ cik: string }[]>`SELECT DISTINCT cik FROM statement_versions WHERE statement_type = 'INCOME_STATEMENT' ORDER BY cik`;
    assert.ok(companies.length >= 20);
    const base = mean(months('2017-01-01', '2017-12-31'))!;
    let checked = 0;
    for (const { cik } of companies) {
      const body = await ok(`/v1/fundamentals/companies/${cik}/metrics/NET_INCOME/time-series/real?base_year=2017`, svc.keys.enterprise);
      for (const p of body.data.points) {
        const span = months(p.period_start ?? p.period_end, p.period_end);
        assert.deepEqual(p.cpi_months, span);
        const missing = span.filter((m) => !CPI.get(m));
        assert.deepEqual(p.missing_cpi_months, missing, `${cik} ${p.fiscal_year} ${p.fiscal_period}`);
        if (p.unit !== 'USD') {
          assert.equal(p.real_value, null);
          assert.equal(p.real_value_reason, 'NOT_US_DOLLARS');
        } else if (missing.length > 0) {
          assert.equal(p.real_value, null);
          assert.equal(p.real_value_reason, 'CPI_MONTH_MISSING');
        } else {
          const expected = new D(p.nominal_value).times(base).dividedBy(mean(span)!).toFixed(6, Decimal.ROUND_HALF_EVEN);
          assert.equal(p.real_value, expected, `${cik} ${p.fiscal_year} ${p.fiscal_period}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 500, `${checked} real values recomputed`);
  });

  it('refuses share counts, per-share values, derived ratios, a non-CPI series and a base year with a missing month (400)', async () => {
    const base = `/v1/fundamentals/companies/${APPLE}/metrics`;
    assert.match(await refused(`${base}/SHARES_OUTSTANDING/time-series/real?base_year=2017`), /shares, not currency/);
    assert.match(await refused(`${base}/EPS_DILUTED/time-series/real?base_year=2017`), /per_share, not currency/);
    assert.match(await refused(`${base}/GROSS_MARGIN/time-series/real?base_year=2017`), /derived metric/);
    assert.match(await refused(`${base}/REVENUE/time-series/real?base_year=2017&cpi_series=PCEPILFE`), /CPIAUCSL or CPILFESL/);
    assert.match(await refused(`${base}/REVENUE/time-series/real?base_year=2017&cpi_series=NOPE`), /not a registered CPI series/);
    assert.match(await refused(`${base}/REVENUE/time-series/real?base_year=2025`), /2025-10/);
    assert.match(await refused(`${base}/REVENUE/time-series/real?base_year=1970`), /1970-01/);
    assert.match(await refused(`${base}/REVENUE/time-series/real`), /base_year/);
    assert.match(await refused(`${base}/REVENUE/time-series/real?base_year=2017&fiscal_year_from=2020&fiscal_year_to=2019`), /after/);
  });
});
