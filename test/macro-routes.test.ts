import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dec } from '../domain/decimal.ts';
import { MACRO_SERIES, macroSeries } from '../domain/macro/series-registry.ts';
import { loadMacro } from '../ingest/macro/load-macro.ts';
import { get } from './helpers/http.ts';
import { SHARED_MACRO, startTestService, type TestService } from './helpers/service.ts';

/**
 * Macro routes over the real FRED files of ../shared/macro: the registry, observations equal to
 * the files, published gaps kept as gaps, point in time by period end + release lag, the context
 * snapshot, and an idempotent loader whose later revisions are not visible before they were seen.
 */

interface FileObs {
  date: string;
  value: string | null;
}

/** The test's own reading of a file: split lines, empty value = missing. */
function readCsv(code: string): FileObs[] {
  const text = readFileSync(path.join(SHARED_MACRO, 'fred', `${code}.csv`), 'utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [date, value] = line.split(',');
      return { date: date!, value: value === '' ? null : value! };
    });
}

/** Period end + lag, computed here independently of the service: last day of the month/quarter. */
function expectedKnowable(date: string, frequency: string, lag: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (frequency !== 'daily') {
    d.setUTCMonth(d.getUTCMonth() + (frequency === 'monthly' ? 1 : 3));
    d.setUTCDate(0);
  }
  d.setUTCDate(d.getUTCDate() + lag);
  return d.toISOString().slice(0, 10);
}

let svc: TestService;
before(async () => {
  svc = await startTestService({ rateLimits: false });
});
after(async () => {
  await svc?.close();
});

async function ok(p: string) {
  const r = await get(`${svc.baseUrl}${p}`, svc.keys.free);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function refused(p: string, status: number, code: string): Promise<string> {
  const r = await get(`${svc.baseUrl}${p}`, svc.keys.free);
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error.code, code, r.text);
  return r.body.error.message;
}

describe('GET /v1/fundamentals/macro/series (registry)', () => {
  it('lists every series file of the source with units, frequency, adjustment, source, lag and what the load held', async () => {
    const body = await ok('/v1/fundamentals/macro/series');
    const files = readdirSync(path.join(SHARED_MACRO, 'fred')).map((f) => f.replace(/\.csv$/, '')).sort();
    assert.deepEqual(body.data.map((s: any) => s.series_code).sort(), files);
    for (const s of body.data) {
      assert.ok(s.title && s.units && s.source && s.seasonal_adjustment && s.release_lag_basis, s.series_code);
      assert.ok(Number.isInteger(s.release_lag_days) && s.release_lag_days >= 1, s.series_code);
      const obs = readCsv(s.series_code);
      assert.equal(s.observation_count, obs.length, s.series_code);
      assert.equal(s.first_date, obs[0]!.date);
      assert.equal(s.last_date, obs[obs.length - 1]!.date);
      assert.equal(s.point_in_time, 'release_lag');
    }
    assert.deepEqual(body.data.filter((s: any) => s.is_cpi).map((s: any) => s.series_code), ['CPIAUCSL', 'CPILFESL']);
  });
});

describe('GET /v1/fundamentals/macro/series/{series_code}', () => {
  it('serves every observation of every series exactly as the file lists it, gaps as null', async () => {
    for (const s of MACRO_SERIES) {
      const file = readCsv(s.series_code);
      const served: any[] = [];
      for (let year = 1980; year <= 2025; year += 15) {
        const body = await ok(`/v1/fundamentals/macro/series/${s.series_code}?from_date=${year}-01-01&to_date=${year + 14}-12-31`);
        served.push(...body.data.observations);
      }
      assert.equal(served.length, file.length, s.series_code);
      for (let i = 0; i < file.length; i++) {
        const f = file[i]!;
        const o = served[i];
        assert.equal(o.date, f.date, s.series_code);
        if (f.value === null) assert.equal(o.value, null, `${s.series_code} ${f.date} stays missing`);
        else {
          assert.ok(dec(o.value).equals(f.value), `${s.series_code} ${f.date}: ${o.value} vs ${f.value}`);
          assert.match(o.value, /^-?\d+\.\d{6,}$/);
        }
        assert.equal(o.knowable_from, expectedKnowable(f.date, s.frequency, s.release_lag_days), `${s.series_code} ${f.date}`);
      }
    }
  });

  it('keeps CPI 2025-10 missing: value null and listed in missing_dates, never interpolated', async () => {
    const body = await ok('/v1/fundamentals/macro/series/cpiaucsl?from_date=2025-08-01&to_date=2025-12-31');
    assert.deepEqual(
      body.data.observations.map((o: any) => [o.date, o.value]),
      [
        ['2025-08-01', '323.364000'],
        ['2025-09-01', '324.368000'],
        ['2025-10-01', null],
        ['2025-11-01', '325.031000'],
      ],
    );
    assert.deepEqual(body.data.missing_dates, ['2025-10-01']);
    assert.equal(body.data.series_code, 'CPIAUCSL');
    assert.equal(body.data.units, 'Index 1982-1984=100');
  });

  it('shows an observation from its period end plus the release lag on, not a day earlier', async () => {
    const cpi = macroSeries('CPIAUCSL')!;
    // September 2025 ends on the 30th; knowable 20 days later
    const before = await ok('/v1/fundamentals/macro/series/CPIAUCSL?from_date=2025-01-01&to_date=2025-12-31&as_of_date=2025-10-19');
    assert.equal(before.data.observations.at(-1).date, '2025-08-01');
    const on = await ok('/v1/fundamentals/macro/series/CPIAUCSL?from_date=2025-01-01&to_date=2025-12-31&as_of_date=2025-10-20');
    assert.equal(on.data.observations.at(-1).date, '2025-09-01');
    assert.equal(on.data.observations.at(-1).knowable_from, expectedKnowable('2025-09-01', 'monthly', cpi.release_lag_days));
    assert.equal(on.data.as_of_date, '2025-10-20');
    // a quarter: GDP of Q3 2025 ends 2025-09-30 and counts 30 days later
    const gdpBefore = await ok('/v1/fundamentals/macro/series/GDP?from_date=2025-01-01&to_date=2025-12-31&as_of_date=2025-10-29');
    assert.deepEqual(gdpBefore.data.observations.map((o: any) => o.date), ['2025-01-01', '2025-04-01']);
    const gdpOn = await ok('/v1/fundamentals/macro/series/GDP?from_date=2025-01-01&to_date=2025-12-31&as_of_date=2025-10-30');
    assert.deepEqual(gdpOn.data.observations.map((o: any) => o.date), ['2025-01-01', '2025-04-01', '2025-07-01']);
    // the recession flag waits for NBER: January 2008 (a recession month) is not knowable in 2008
    const usrec = await ok('/v1/fundamentals/macro/series/USREC?from_date=2008-01-01&to_date=2008-01-31&as_of_date=2008-12-31');
    assert.deepEqual(usrec.data.observations, []);
  });

  it('refuses an unregistered series (404 naming the codes), missing dates and from after to (400)', async () => {
    const msg = await refused('/v1/fundamentals/macro/series/SP500?from_date=2020-01-01&to_date=2020-12-31', 404, 'NOT_FOUND');
    assert.match(msg, /SP500/);
    assert.match(msg, /CPIAUCSL/);
    assert.match(await refused('/v1/fundamentals/macro/series/CPIAUCSL?to_date=2020-12-31', 400, 'VALIDATION_ERROR'), /from_date/);
    assert.match(await refused('/v1/fundamentals/macro/series/CPIAUCSL?from_date=2020-01-01', 400, 'VALIDATION_ERROR'), /to_date/);
    assert.match(await refused('/v1/fundamentals/macro/series/CPIAUCSL?from_date=2021-01-01&to_date=2020-12-31', 400, 'VALIDATION_ERROR'), /after/);
    assert.match(await refused('/v1/fundamentals/macro/series/CPIAUCSL?from_date=2021-02-30&to_date=2021-12-31', 400, 'VALIDATION_ERROR'), /calendar date/);
    assert.match(await refused('/v1/fundamentals/macro/series/DGS10?from_date=1980-01-01&to_date=2025-12-31', 400, 'VALIDATION_ERROR'), /narrow the range/);
  });
});

describe('GET /v1/fundamentals/macro/context/{target_date}', () => {
  const entry = (body: any, code: string) => body.data.series.find((s: any) => s.series_code === code);

  it('gives the latest value knowable on the date, skipping nothing silently: CPI on 2025-12-15 is September with October listed as missing', async () => {
    const body = await ok('/v1/fundamentals/macro/context/2025-12-15');
    assert.equal(body.data.as_of_date, '2025-12-15');
    assert.equal(body.data.series.length, MACRO_SERIES.length);
    const cpi = entry(body, 'CPIAUCSL');
    assert.equal(cpi.observation_date, '2025-09-01');
    assert.equal(cpi.value, '324.368000');
    assert.deepEqual(cpi.skipped_missing_dates, ['2025-10-01']);
    assert.deepEqual(cpi.prior, { observation_date: '2025-08-01', value: '323.364000' });
    assert.equal(cpi.change_over_prior, '1.004000');
    const file = new Map(readCsv('CPIAUCSL').map((o) => [o.date, o.value]));
    assert.equal(cpi.year_earlier.observation_date, '2024-09-01');
    assert.ok(dec(cpi.change_over_year).equals(dec('324.368').minus(file.get('2024-09-01')!)));
    const pct = dec('324.368').dividedBy(file.get('2024-09-01')!).minus(1).times(100).toFixed(6);
    assert.equal(cpi.percent_change_over_year, pct);
  });

  it('reports a change over a missing prior as null with a reason once November is knowable', async () => {
    const body = await ok('/v1/fundamentals/macro/context/2025-12-31?as_of_date=2026-01-31');
    const cpi = entry(body, 'CPIAUCSL');
    assert.equal(cpi.observation_date, '2025-11-01');
    assert.deepEqual(cpi.prior, { observation_date: '2025-10-01', value: null });
    assert.equal(cpi.change_over_prior, null);
    assert.ok(cpi.unavailable.some((u: any) => u.field === 'change_over_prior' && u.reason === 'PRIOR_OBSERVATION_MISSING'));
    assert.equal(cpi.year_earlier.observation_date, '2024-11-01');
  });

  it('takes the previous trading day as the prior of a daily series and gives no percent change for rates', async () => {
    const body = await ok('/v1/fundamentals/macro/context/2025-12-28');
    const dgs10 = entry(body, 'DGS10');
    const withValues = readCsv('DGS10').filter((o) => o.value !== null && o.date <= '2025-12-26');
    assert.equal(dgs10.observation_date, '2025-12-26');
    assert.equal(dgs10.prior.observation_date, withValues.at(-2)!.date);
    assert.ok(dec(dgs10.change_over_prior).equals(dec(withValues.at(-1)!.value!).minus(withValues.at(-2)!.value!)));
    assert.equal(dgs10.percent_change_over_prior, null);
    assert.ok(dgs10.unavailable.some((u: any) => u.reason === 'NOT_A_LEVEL_SERIES'));
  });

  it('answers a date before any knowable observation with nulls and NO_OBSERVATION, and refuses a non-date', async () => {
    const body = await ok('/v1/fundamentals/macro/context/1979-06-30');
    for (const s of body.data.series) {
      assert.equal(s.value, null, s.series_code);
      assert.deepEqual(s.unavailable, [{ field: 'value', reason: 'NO_OBSERVATION' }]);
    }
    await refused('/v1/fundamentals/macro/context/2025-13-01', 400, 'VALIDATION_ERROR');
  });
});

describe('macro loading', () => {
  it('is idempotent: a second load of the same files changes nothing', async () => {
    const before = await svc.sql`SELECT count(*)::int AS n FROM macro_observations`;
    const s = await loadMacro(svc.sql, SHARED_MACRO);
    assert.equal(s.rows_added, 0);
    assert.ok(s.series.every((x) => x.status === 'unchanged'));
    const after = await svc.sql`SELECT count(*)::int AS n FROM macro_observations`;
    assert.equal(after[0]!.n, before[0]!.n);
  });

  it('runs from the command line: npm run fds -- macro load reports every series unchanged on a loaded database', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'cli.ts', 'macro', 'load', '--source', SHARED_MACRO], {
      env: { ...process.env, DATABASE_URL: svc.running.database.url },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.match(out, /0 observation rows added/);
    assert.equal((out.match(/unchanged/g) ?? []).length, MACRO_SERIES.length);
  });

  it('adds a revised value as a new row knowable from the load date, so earlier as-of reads keep the old value', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fds-macro-'));
    try {
      mkdirSync(path.join(dir, 'fred'));
      for (const f of readdirSync(path.join(SHARED_MACRO, 'fred'))) {
        let text = readFileSync(path.join(SHARED_MACRO, 'fred', f), 'utf8');
        if (f === 'CPIAUCSL.csv') text = text.replace('2025-09-01,324.368\n', '2025-09-01,324.400\n');
        writeFileSync(path.join(dir, 'fred', f), text);
      }
      const s = await loadMacro(svc.sql, dir, { now: () => new Date('2026-02-01T12:00:00Z') });
      assert.equal(s.rows_added, 1);
      assert.deepEqual(s.series.filter((x) => x.status === 'loaded').map((x) => x.series_code), ['CPIAUCSL']);
      const old = await ok('/v1/fundamentals/macro/series/CPIAUCSL?from_date=2025-09-01&to_date=2025-09-30&as_of_date=2026-01-31');
      assert.equal(old.data.observations[0].value, '324.368000');
      const revised = await ok('/v1/fundamentals/macro/series/CPIAUCSL?from_date=2025-09-01&to_date=2025-09-30&as_of_date=2026-02-01');
      assert.deepEqual(revised.data.observations[0], { date: '2025-09-01', value: '324.400000', knowable_from: '2026-02-01' });
      // loading the original again is a revision back, seen from its own load date
      const back = await loadMacro(svc.sql, SHARED_MACRO, { now: () => new Date('2026-02-02T12:00:00Z') });
      assert.equal(back.rows_added, 1);
      const latest = await ok('/v1/fundamentals/macro/series/CPIAUCSL?from_date=2025-09-01&to_date=2025-09-30');
      assert.equal(latest.data.observations[0].value, '324.368000');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed file rather than loading a silent gap', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fds-macro-'));
    try {
      mkdirSync(path.join(dir, 'fred'));
      writeFileSync(path.join(dir, 'fred', 'CPIAUCSL.csv'), 'date,value\n2025-01-01,abc\n');
      await assert.rejects(loadMacro(svc.sql, dir), /not a decimal value/);
      await assert.rejects(loadMacro(svc.sql, path.join(dir, 'nowhere')), /no fred\/ folder/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('macro loading at start-up', () => {
  it('loads every registered series into an empty database before the service reports ready', async () => {
    const fresh = await startTestService({ rateLimits: false, ingestOnStart: false }, undefined, { emptyDatabase: true });
    try {
      const r = await get(`${fresh.baseUrl}/v1/fundamentals/macro/series`, fresh.keys.free);
      assert.equal(r.status, 200, r.text);
      for (const s of r.body.data) assert.equal(s.observation_count, readCsv(s.series_code).length, s.series_code);
      const [rows] = await fresh.sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE knowable_basis = 'release_lag')::int AS lagged FROM macro_observations`;
      assert.equal(rows!.n, MACRO_SERIES.reduce((n, s) => n + readCsv(s.series_code).length, 0));
      assert.equal(rows!.lagged, rows!.n, 'a first load dates every value by release lag');
    } finally {
      await fresh.close();
    }
  });
});
