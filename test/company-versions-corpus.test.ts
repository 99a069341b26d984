import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { coherenceMarksByType } from '../api/coherence.ts';
import type { Sql } from '../db/client.ts';
import { availablePeriods } from '../db/statement-read.ts';
import { companyVersionHeaderRows, companyVersionHeaders, type VersionHeader } from '../db/statement-versions.ts';
import { CompanyVersions } from '../domain/statements/company-versions.ts';
import { choosePeriods } from '../tools/filings/as-of.ts';
import { latestHeadersAsOf, visiblePeriods } from '../tools/filings/state-queries.ts';
import { panelPage, type SeriesQuery } from '../tools/series/queries.ts';
import { latestVersionId, metricSeriesOf } from '../tools/statements/queries.ts';
import { metricSeries } from '../db/statement-read.ts';
import { createTestDatabase } from './helpers/database.ts';

/**
 * A company's versions held in memory (domain/statements/company-versions.ts, kept per instance by
 * api/company-versions.ts) answer every version selection the reads make of them exactly as the
 * SQL they stand in for, over every company of the ../shared/sec corpus: the latest version of each
 * statement (today and on past dates), the periods a date could see and the as-of read's choice,
 * the versions of those periods, the panel's latest versions and their order, the versions
 * coherence judges (compared through the marks they give), and the periods on record.
 */

let db: { sql: Sql; close(): Promise<void> };
let ciks: string[];
before(async () => {
  db = await createTestDatabase({ corpus: true });
  ciks = (await db.sql<{ cik: string }[]>`SELECT DISTINCT cik FROM statement_versions ORDER BY cik`).map((r) => r.cik);
});
after(async () => {
  await db?.close();
});

async function indexOf(cik: string) {
  return new CompanyVersions(await companyVersionHeaders(db.sql, cik));
}

/** Dates a read could ask about: the day before, of and after a sample of the company's filing dates, and one before any. */
function datesOf(index: CompanyVersions<VersionHeader>): string[] {
  const filed = [...new Set(index.statements.flat().map((v) => v.filing_date))].sort();
  const step = Math.max(1, Math.floor(filed.length / 12));
  const out = new Set<string>(['1990-01-01']);
  for (let i = 0; i < filed.length; i += step) {
    const d = Date.parse(`${filed[i]}T00:00:00Z`);
    for (const shift of [-1, 0, 1]) out.add(new Date(d + shift * 86_400_000).toISOString().slice(0, 10));
  }
  return [...out];
}

describe('a company\'s versions in memory', () => {
  it('hold every version of the corpus', async () => {
    let held = 0;
    for (const cik of ciks) held += (await indexOf(cik)).statements.flat().length;
    const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM statement_versions`;
    const n = row?.n ?? 0;
    assert.ok(n > 1000, `the corpus holds ${n} versions`);
    assert.equal(held, n);
  });

  it('are read from one text value as the same headers the rows give, every column and null alike', async () => {
    const byId = (hs: VersionHeader[]) => [...hs].sort((a, b) => (a.statement_version_id < b.statement_version_id ? -1 : 1));
    let compared = 0;
    let nulls = 0;
    for (const cik of ciks) {
      const rows = byId(await companyVersionHeaderRows(db.sql, cik));
      assert.deepEqual(byId(await companyVersionHeaders(db.sql, cik)), rows, cik);
      compared += rows.length;
      nulls += rows.filter((h) => h.period_start === null || h.accepted_at === null || h.previous_version_id === null).length;
    }
    assert.ok(compared > 1000 && nulls > 0, `${compared} headers compared, ${nulls} with a null column`);
  });

  it('pick the latest version of every statement as the SQL rule does, today and as filed by past dates', async () => {
    let compared = 0;
    for (const cik of ciks) {
      const index = await indexOf(cik);
      const dates = datesOf(index);
      for (const list of index.statements) {
        const id = list[0]!;
        for (const asOf of [null, dates[Math.floor(dates.length / 2)]!, list[0]!.filing_date]) {
          const want = await latestVersionId(db.sql, id, { as_of_date: asOf, as_reported: false });
          assert.equal(index.latestOf(id, asOf)?.statement_version_id ?? null, want, `${cik} ${id.statement_type} ${id.fiscal_year} ${id.fiscal_period} as of ${asOf}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 10_000, `${compared} selections compared`);
  });

  it('see the periods a date could see, choose the as-of periods and their versions as the SQL reads do', async () => {
    let compared = 0;
    for (const cik of ciks) {
      const index = await indexOf(cik);
      for (const asOf of datesOf(index)) {
        const sqlPeriods = await visiblePeriods(db.sql, cik, asOf);
        const memPeriods = index.visiblePeriods(asOf);
        const key = (p: { fiscal_year: number; fiscal_period: string; period_end: string }) => `${p.fiscal_year} ${p.fiscal_period} ${p.period_end}`;
        assert.deepEqual(memPeriods.map(key).sort(), sqlPeriods.map(key).sort(), `${cik} periods as of ${asOf}`);
        for (const fy of [null, sqlPeriods[0]?.fiscal_year ?? null, (sqlPeriods[0]?.fiscal_year ?? 2000) - 2]) {
          const chosen = choosePeriods(sqlPeriods, fy).map((c) => c.period);
          assert.deepEqual(choosePeriods(memPeriods, fy).map((c) => key(c.period)), chosen.map(key), `${cik} as-of choice ${asOf} ${fy}`);
          const want = await latestHeadersAsOf(db.sql, cik, asOf, chosen);
          assert.deepEqual(index.latestAsOf(asOf, chosen).map((h) => h.statement_version_id), want.map((h) => h.statement_version_id), `${cik} as-of versions ${asOf} ${fy}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 1_000, `${compared} as-of reads compared`);
  });

  it('give a panel the latest versions of its periods in the panel order the SQL read gives', async () => {
    let points = 0;
    for (const cik of ciks) {
      const indexes = new Map([[cik, await indexOf(cik)]]);
      for (const statement_type of ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT']) {
        for (const fiscal_periods of [['FY'], ['Q1', 'Q2', 'Q3', 'Q4']]) {
          for (const [from, to] of [[null, null], ['2015-01-01', '2019-12-31']] as const) {
            const q: SeriesQuery = { ciks: [cik], statement_types: [statement_type], fiscal_periods, fiscal_year_from: null, fiscal_year_to: null, period_end_from: from, period_end_to: to, metrics: null, tier1: false };
            const page = { limit: 10_000, offset: 0 };
            const want = await panelPage(db.sql, q, page);
            const got = await panelPage(db.sql, q, page, indexes);
            assert.deepEqual(got, want, `${cik} ${statement_type} ${fiscal_periods.join(',')} ${from}..${to}`);
            points += want.rows.length;
          }
        }
      }
    }
    assert.ok(points > 5_000, `${points} panel points compared`);
  });

  it('judge coherence over the same versions as the SQL read, today, on past dates and as first reported', async () => {
    let years = 0;
    for (const cik of ciks) {
      const index = await indexOf(cik);
      const fys = [...new Set(index.statements.map((l) => l[0]!.fiscal_year))];
      const dates = datesOf(index);
      for (const v of [
        { as_of_date: null, as_reported: false },
        { as_of_date: null, as_reported: true },
        { as_of_date: dates[Math.floor(dates.length / 2)]!, as_reported: false },
      ]) {
        const types = ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT', 'BALANCE_SHEET'];
        const want = await coherenceMarksByType(db.sql, cik, types, fys, v);
        const got = await coherenceMarksByType(db.sql, cik, types, fys, v, index);
        assert.deepEqual(got, want, `${cik} marks ${JSON.stringify(v)}`);
        years += fys.length;
      }
    }
    assert.ok(years > 500, `${years} fiscal years judged`);
  });

  it('give a metric series the same points, figures and source filings as the SQL read, today, on past dates and as first reported', async () => {
    let points = 0;
    const metrics = [['INCOME_STATEMENT', 'REVENUE'], ['INCOME_STATEMENT', 'EPS_DILUTED'], ['BALANCE_SHEET', 'TOTAL_ASSETS'], ['CASH_FLOW_STATEMENT', 'OPERATING_CASH_FLOW']] as const;
    for (const cik of ciks) {
      const index = await indexOf(cik);
      const dates = datesOf(index);
      for (const [statement_type, metric] of metrics) {
        for (const fiscal_periods of [null, ['FY'], ['Q1', 'Q2', 'Q3', 'Q4']]) {
          for (const v of [{ as_of_date: null, as_reported: false }, { as_of_date: dates[Math.floor(dates.length / 2)]!, as_reported: false }, { as_of_date: null, as_reported: true }]) {
            const f = { cik, statement_type, metric, fiscal_periods, fiscal_year_from: null, fiscal_year_to: null };
            for (const page of [{ limit: 10_000, offset: 0 }, { limit: 5, offset: 3 }]) {
              const want = await metricSeries(db.sql, f, v, page);
              const got = await metricSeriesOf(db.sql, index, f, v, page, true);
              assert.equal(got.total, want.total, `${cik} ${metric} ${JSON.stringify(v)} total`);
              assert.deepEqual(got.rows, want.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'total'))), `${cik} ${metric} ${fiscal_periods} ${JSON.stringify(v)}`);
              points += want.rows.length;
            }
          }
        }
      }
    }
    assert.ok(points > 10_000, `${points} series points compared`);
  });

  it('name the periods on record for a statement type as the SQL read does', async () => {
    for (const cik of ciks) {
      const index = await indexOf(cik);
      for (const t of ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT']) {
        assert.deepEqual(index.periodsOf(t, 12), [...(await availablePeriods(db.sql, cik, t))].map((p) => ({ ...p })), `${cik} ${t}`);
      }
    }
  });
});
