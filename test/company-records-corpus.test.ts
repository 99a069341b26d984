import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { companyRecordsOf } from '../tools/filings/company-records.ts';
import { latestPeriodicFiling } from '../tools/filings/queries.ts';
import { ledgerOfVersions } from '../tools/filings/state-queries.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * A company's periodic filings and reconciliation ledger held in memory (tools/filings/company-records.ts)
 * answer what the as-of read asked PostgreSQL for, over every company of the ../shared/sec corpus:
 * the newest periodic filing filed by a date, and the ledger rows of a set of versions, in the
 * same order.
 */

let svc: TestService;
let ciks: string[];
before(async () => {
  svc = await startTestService();
  ciks = (await svc.sql<{ cik: string }[]>`SELECT DISTINCT cik FROM filings ORDER BY cik`).map((r) => r.cik);
});
after(async () => {
  await svc?.close();
});

const day = (d: string, shift: number) => new Date(Date.parse(`${d}T00:00:00Z`) + shift * 86_400_000).toISOString().slice(0, 10);

describe("a company's filings and ledger in memory", () => {
  it('give the newest periodic filing filed by a date as the SQL does: the day before, of and after every periodic filing date, and before any', async () => {
    let compared = 0;
    let found = 0;
    for (const cik of ciks) {
      const records = await companyRecordsOf(svc.running.services, cik);
      assert.ok(records, 'the caches are on in the test service');
      const filed = (await svc.sql<{ d: string }[]>`SELECT DISTINCT filing_date AS d FROM filings WHERE cik = ${cik} AND is_periodic`).map((r) => r.d);
      const dates = new Set(['1990-01-01', '2100-01-01', ...filed.flatMap((d) => [day(d, -1), d, day(d, 1)])]);
      for (const asOf of dates) {
        const row = await latestPeriodicFiling(svc.sql, cik, asOf);
        const want = row ? { accession_id: row.accession_id, form: row.form, filing_date: row.filing_date, report_date: row.report_date } : null;
        assert.deepEqual(records.latestPeriodicFiling(asOf), want, `${cik} as of ${asOf}`);
        compared++;
        if (want) found++;
      }
    }
    assert.ok(compared > 5_000 && found > 4_000, `${compared} dates compared, ${found} with a filing`);
  });

  // a read asks for one version per statement period (rows of two versions of one period tie in the SQL's order)
  it("give the ledger rows of a company's versions as the SQL does: each version sequence's versions all at once and six at a time", async () => {
    let rows = 0;
    let sets = 0;
    for (const cik of ciks) {
      const records = await companyRecordsOf(svc.running.services, cik);
      assert.ok(records);
      const versions = await svc.sql<{ id: string; seq: number }[]>`
        SELECT statement_version_id AS id, version_sequence AS seq FROM statement_versions WHERE cik = ${cik} ORDER BY statement_type, fiscal_year, fiscal_period`;
      const groups: string[][] = [];
      for (const seq of new Set(versions.map((v) => v.seq))) {
        const ids = versions.filter((v) => v.seq === seq).map((v) => v.id);
        groups.push(ids);
        for (let i = 0; i < ids.length; i += 6) groups.push(ids.slice(i, i + 6));
      }
      for (const group of groups) {
        const want = [...(await ledgerOfVersions(svc.sql, group))];
        assert.deepEqual(records.ledgerOf(group), want, `${cik}: ${group.length} versions from ${group[0]}`);
        rows += want.length;
        sets++;
      }
    }
    const [total] = await svc.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM reconciliation_results`;
    assert.ok(total!.n > 1_000, `the corpus ledger holds ${total!.n} rows`);
    assert.equal(rows, 2 * total!.n, 'every ledger row was compared twice: with its sequence and in a group of six');
    assert.ok(sets > 1_000, `${sets} sets compared`);
  });
});
