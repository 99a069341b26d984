import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { CANONICAL_METRICS } from '../domain/catalog/index.ts';

/** The metric catalog routes: definitions, derived catalog, bundles and views, as data. */

const SPEC_FIELDS = [
  'metric', 'display_name', 'category', 'statement_type', 'is_canonical', 'is_derived', 'unit_type', 'formula', 'dependencies',
  'denominator_zero_behavior', 'missing_input_behavior', 'market_data_required', 'source_notes',
];

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

const call = (path: string) => get(`${svc.baseUrl}${path}`, svc.keys.free);

describe('metric definitions', () => {
  it('lists every canonical definition of the catalog with exactly the spec fields', async () => {
    const r = await call('/v1/metrics/definitions');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.length, CANONICAL_METRICS.length);
    for (const d of r.body.data) {
      assert.deepEqual(Object.keys(d).sort(), [...SPEC_FIELDS].sort(), `${d.metric} has the spec fields only`);
      assert.ok(d.is_canonical === true && d.is_derived === false, `${d.metric} is canonical`);
      assert.equal(d.missing_input_behavior, 'null_if_metric_not_available');
    }
    const revenue = r.body.data.find((d: any) => d.metric === 'REVENUE');
    assert.equal(revenue.statement_type, 'INCOME_STATEMENT');
    assert.equal(revenue.unit_type, 'currency');
    assert.equal(revenue.formula, null);
    assert.deepEqual(revenue.dependencies, []);
    assert.ok(r.body.data.some((d: any) => d.category === 'LIABILITIES'), 'a LIABILITIES category exists');
  });

  it('reads one canonical definition, case-insensitively', async () => {
    const r = await call('/v1/metrics/definitions/total_assets');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.metric, 'TOTAL_ASSETS');
    assert.equal(r.body.data.statement_type, 'BALANCE_SHEET');
    assert.deepEqual(Object.keys(r.body.data).sort(), [...SPEC_FIELDS].sort());
  });

  it('reads a derived definition with its formula and dependencies', async () => {
    const r = await call('/v1/metrics/definitions/GROSS_MARGIN');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.formula, 'GROSS_PROFIT / REVENUE');
    assert.deepEqual(r.body.data.dependencies, ['GROSS_PROFIT', 'REVENUE']);
    assert.equal(r.body.data.is_derived, true);
    assert.equal(r.body.data.denominator_zero_behavior, 'null');
  });

  it('refuses an unknown metric name with 400 listing the accepted names', async () => {
    const r = await call('/v1/metrics/definitions/REVENUES_TOTAL');
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.ok(r.text.includes('accepted canonical names') && r.text.includes('NET_INCOME'), 'message lists canonical names');
    assert.ok(r.text.includes('FCF_CONVERSION'), 'message lists derived names');
  });
});

describe('derived-metric catalog', () => {
  it('lists the 28 derived metrics with formula, dependencies and how each reads a period', async () => {
    const r = await call('/v1/edgar/derived-metrics/catalog');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.length, 28);
    for (const d of r.body.data) {
      for (const f of SPEC_FIELDS) assert.ok(f in d, `${d.metric} has ${f}`);
      assert.ok(d.formula && d.dependencies.length > 0, `${d.metric} has a formula`);
      assert.equal(d.result_scale, 12);
    }
    const roe = r.body.data.find((d: any) => d.metric === 'ROE');
    assert.deepEqual(roe.balance_inputs_averaged, ['STOCKHOLDERS_EQUITY']);
    assert.deepEqual(roe.input_statement_types, ['INCOME_STATEMENT', 'BALANCE_SHEET']);
    const dso = r.body.data.find((d: any) => d.metric === 'DSO');
    assert.equal(dso.uses_day_count, true);
    const current = r.body.data.find((d: any) => d.metric === 'CURRENT_RATIO');
    assert.deepEqual(current.balance_inputs_averaged, [], 'a balance-only ratio uses period-end balances');
    const ebitda = r.body.data.find((d: any) => d.metric === 'EBITDA');
    assert.equal(ebitda.denominator_zero_behavior, null);
    assert.deepEqual(ebitda.input_statement_types, ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT']);
  });
});

describe('bundles and views', () => {
  it('lists the eight bundles with code, label, description and metrics', async () => {
    const r = await call('/v1/edgar/metric-bundles');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.length, 8);
    const codes = r.body.data.map((b: any) => b.code);
    assert.ok(codes.includes('cash_flow_quality') && codes.includes('core_balance_sheet'), 'spec codes present');
    const bs = r.body.data.find((b: any) => b.code === 'core_balance_sheet');
    assert.deepEqual(Object.keys(bs).sort(), ['code', 'description', 'label', 'metrics']);
    assert.ok(bs.metrics.includes('TOTAL_ASSETS'), 'core balance sheet holds TOTAL_ASSETS');
  });

  it('lists the three views and names their derived metrics', async () => {
    const r = await call('/v1/views/metrics');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.length, 3);
    const core = r.body.data.find((v: any) => v.code === 'core_fundamentals');
    assert.ok(core.metrics.includes('REVENUE') && core.metrics.includes('GROSS_MARGIN'), 'view mixes canonical and derived');
    assert.ok(core.derived_metrics.includes('GROSS_MARGIN') && !core.derived_metrics.includes('REVENUE'), 'derived subset');
  });
});
