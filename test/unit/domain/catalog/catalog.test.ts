import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import {
  ALL_METRIC_DEFINITIONS,
  CANONICAL_METRIC_NAMES,
  CANONICAL_METRICS,
  DERIVED_METRICS,
  METRIC_BUNDLES,
  METRIC_VIEWS,
  STATEMENT_TYPES,
  canonicalMetric,
  conceptIndex,
  definitionOf,
  isCanonicalMetric,
  metricsForStatement,
  publicDefinition,
} from '../../../../domain/catalog/index.ts';
import { SHARED_SEC_URL } from '../../../helpers/shared-data.ts';

const COMPANYFACTS_DIR = new URL('data.sec.gov/api/xbrl/companyfacts/', SHARED_SEC_URL);
const CATALOG_DIR = new URL('../../../../domain/catalog/', import.meta.url);

const REQUIRED = [
  'REVENUE', 'COST_OF_REVENUE', 'GROSS_PROFIT', 'RESEARCH_AND_DEVELOPMENT', 'SELLING_GENERAL_AND_ADMINISTRATIVE',
  'OPERATING_EXPENSES', 'OPERATING_INCOME', 'INTEREST_EXPENSE', 'PRETAX_INCOME', 'INCOME_TAX_EXPENSE', 'NET_INCOME',
  'NET_INCOME_INCLUDING_NONCONTROLLING', 'EPS_BASIC', 'EPS_DILUTED', 'WEIGHTED_AVERAGE_SHARES_BASIC',
  'WEIGHTED_AVERAGE_SHARES_DILUTED', 'CASH_AND_EQUIVALENTS', 'SHORT_TERM_INVESTMENTS', 'ACCOUNTS_RECEIVABLE', 'INVENTORY',
  'TOTAL_CURRENT_ASSETS', 'PROPERTY_PLANT_EQUIPMENT_NET', 'GOODWILL', 'TOTAL_ASSETS', 'ACCOUNTS_PAYABLE',
  'TOTAL_CURRENT_LIABILITIES', 'LONG_TERM_DEBT', 'TOTAL_LIABILITIES', 'STOCKHOLDERS_EQUITY', 'TOTAL_EQUITY',
  'LIABILITIES_AND_EQUITY', 'RETAINED_EARNINGS', 'SHARES_OUTSTANDING', 'OPERATING_CASH_FLOW', 'INVESTING_CASH_FLOW',
  'FINANCING_CASH_FLOW', 'CAPITAL_EXPENDITURES', 'DEPRECIATION_AND_AMORTIZATION', 'SHARE_BASED_COMPENSATION',
  'DIVIDENDS_PAID', 'SHARE_REPURCHASES', 'NET_CHANGE_IN_CASH',
  // read by the accounting-identity checks
  'NET_INCOME_NONCONTROLLING', 'NONCONTROLLING_INTEREST', 'TEMPORARY_EQUITY', 'EFFECT_OF_EXCHANGE_RATE_ON_CASH',
];

const REQUIRED_DERIVED = [
  'GROSS_MARGIN', 'OPERATING_MARGIN', 'NET_MARGIN', 'ROE', 'ROA', 'ROIC', 'DEBT_TO_EQUITY', 'CURRENT_RATIO', 'QUICK_RATIO',
  'BOOK_VALUE_PER_SHARE', 'DSO', 'DPO', 'INVENTORY_TURNOVER', 'CASH_CONVERSION_CYCLE', 'FREE_CASH_FLOW', 'FCF_CONVERSION',
];

/** The only tags allowed to feed two metrics: each states one figure for basic and diluted alike. */
const SHARED_CONCEPTS: Record<string, string[]> = {
  'us-gaap:EarningsPerShareBasicAndDiluted': ['EPS_BASIC', 'EPS_DILUTED'],
  'us-gaap:WeightedAverageNumberOfShareOutstandingBasicAndDiluted': ['WEIGHTED_AVERAGE_SHARES_BASIC', 'WEIGHTED_AVERAGE_SHARES_DILUTED'],
};

/** Real us-gaap elements listed as candidates that no company in the corpus happens to use. */
const NOT_IN_CORPUS = new Set(['us-gaap:CostOfServices']);

/** Narrower totals or line items that must never stand in for a total. */
const FORBIDDEN_FALLBACKS: Record<string, string[]> = {
  TOTAL_EQUITY: ['us-gaap:StockholdersEquity', 'ifrs-full:EquityAttributableToOwnersOfParent', 'us-gaap:MinorityInterest'],
  STOCKHOLDERS_EQUITY: ['us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest', 'ifrs-full:Equity'],
  TOTAL_LIABILITIES: ['us-gaap:LiabilitiesCurrent', 'us-gaap:LiabilitiesNoncurrent', 'ifrs-full:CurrentLiabilities', 'ifrs-full:NoncurrentLiabilities'],
  TOTAL_ASSETS: ['us-gaap:AssetsCurrent', 'us-gaap:AssetsNoncurrent', 'us-gaap:NoncurrentAssets', 'ifrs-full:CurrentAssets'],
  TOTAL_NONCURRENT_ASSETS: ['us-gaap:NoncurrentAssets'],
  OPERATING_EXPENSES: ['us-gaap:CostsAndExpenses', 'us-gaap:OperatingCostsAndExpenses', 'us-gaap:SellingGeneralAndAdministrativeExpense', 'us-gaap:ResearchAndDevelopmentExpense'],
  REVENUE: ['us-gaap:SalesRevenueServicesNet', 'us-gaap:RevenueNotFromContractWithCustomer'],
  PRETAX_INCOME: ['us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic', 'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesForeign'],
  NET_INCOME: ['us-gaap:ProfitLoss', 'ifrs-full:ProfitLoss', 'us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic'],
  NET_INCOME_INCLUDING_NONCONTROLLING: ['us-gaap:NetIncomeLoss', 'ifrs-full:ProfitLossAttributableToOwnersOfParent'],
  NET_CHANGE_IN_CASH: ['us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsPeriodIncreaseDecreaseExcludingExchangeRateEffect'],
  SHARES_OUTSTANDING: ['us-gaap:CommonStockSharesIssued'],
  INTEREST_EXPENSE: ['us-gaap:InterestExpenseDebt', 'us-gaap:InterestIncomeExpenseNonoperatingNet'],
  CAPITAL_EXPENDITURES: ['us-gaap:PaymentsToAcquireOtherPropertyPlantAndEquipment'],
  INVENTORY: ['us-gaap:InventoryFinishedGoods'],
};

const key = (c: { taxonomy: string; concept: string }) => `${c.taxonomy}:${c.concept}`;

describe('metric catalog', () => {
  /** every taxonomy-qualified concept some company in the corpus reports */
  let corpusConcepts: Set<string>;

  before(() => {
    corpusConcepts = new Set();
    const files = readdirSync(COMPANYFACTS_DIR).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 20, `expected the companyfacts corpus at ${COMPANYFACTS_DIR.pathname}`);
    for (const f of files) {
      const doc = JSON.parse(readFileSync(new URL(f, COMPANYFACTS_DIR), 'utf8')) as { facts: Record<string, Record<string, unknown>> };
      for (const [taxonomy, concepts] of Object.entries(doc.facts)) {
        for (const concept of Object.keys(concepts)) corpusConcepts.add(`${taxonomy}:${concept}`);
      }
    }
  });

  it('holds the spec\'s contract counts: 132 canonical definitions and eight bundles', () => {
    // The spec (Limits: "Canonical metric definitions 132", "Bundles eight") fixes these; everything
    // else derives its counts from the catalog, so this is the one place a catalog change meets the contract.
    assert.equal(CANONICAL_METRICS.length, 132);
    assert.equal(METRIC_BUNDLES.length, 8);
  });

  it('defines canonical metrics with unique names', () => {
    assert.ok(CANONICAL_METRICS.length > 0);
    assert.equal(new Set(CANONICAL_METRIC_NAMES).size, CANONICAL_METRICS.length);
    assert.deepEqual([...CANONICAL_METRIC_NAMES], CANONICAL_METRICS.map((m) => m.metric));
  });

  it('contains every metric the services and identity checks name', () => {
    const missing = REQUIRED.filter((name) => !isCanonicalMetric(name));
    assert.deepEqual(missing, []);
  });

  it('lists canonical metrics income statement first, then balance sheet, then cash flow', () => {
    const order = CANONICAL_METRICS.map((m) => STATEMENT_TYPES.indexOf(m.statement_type));
    assert.ok(order.every((v, i) => i === 0 || v >= order[i - 1]!), 'statement order is stable');
    const counts = STATEMENT_TYPES.map((t) => metricsForStatement(t).length);
    assert.equal(counts.reduce((a, b) => a + b, 0), CANONICAL_METRICS.length);
    assert.ok(counts.every((n) => n > 0));
  });

  it('fills every field of every canonical metric with the canonical constants', () => {
    for (const m of CANONICAL_METRICS) {
      assert.ok(m.display_name && m.category && m.source_notes && m.sign_convention, `${m.metric} has text fields`);
      assert.equal(m.is_canonical, true);
      assert.equal(m.is_derived, false);
      assert.equal(m.formula, null);
      assert.deepEqual(m.dependencies, []);
      assert.equal(m.denominator_zero_behavior, null);
      assert.equal(m.missing_input_behavior, 'null_if_metric_not_available');
      assert.equal(m.market_data_required, false);
      assert.ok(['currency', 'per_share', 'shares'].includes(m.unit_type), `${m.metric} unit ${m.unit_type}`);
      assert.ok(m.concepts.length > 0, `${m.metric} has candidates`);
    }
  });

  it('keeps instants for balance-sheet items only and durations everywhere else', () => {
    for (const m of CANONICAL_METRICS) {
      if (m.period_kind === 'instant') {
        assert.ok(m.statement_type === 'BALANCE_SHEET' || m.metric === 'SHARES_OUTSTANDING', `${m.metric} is an instant`);
      }
      if (m.statement_type === 'BALANCE_SHEET') assert.equal(m.period_kind, 'instant', m.metric);
      else assert.equal(m.period_kind, 'duration', m.metric);
    }
    assert.equal(canonicalMetric('SHARES_OUTSTANDING')?.period_kind, 'instant');
  });

  it('never lists the same concept twice for one metric', () => {
    for (const m of CANONICAL_METRICS) {
      const keys = m.concepts.map(key);
      assert.equal(new Set(keys).size, keys.length, `${m.metric} repeats a candidate`);
    }
  });

  it('lets a concept serve two metrics only where one tag states both basic and diluted', () => {
    for (const [concept, uses] of conceptIndex()) {
      const metrics = uses.map((u) => u.metric);
      if (metrics.length === 1) continue;
      assert.deepEqual(metrics, SHARED_CONCEPTS[concept], `${concept} serves ${metrics.join(', ')}`);
    }
  });

  it('finds each required metric\'s preferred tag in the real SEC companyfacts files', () => {
    for (const name of REQUIRED) {
      const m = canonicalMetric(name)!;
      assert.ok(corpusConcepts.has(key(m.concepts[0]!)), `${name}: first candidate ${key(m.concepts[0]!)} is tagged by some company`);
    }
  });

  it('uses only us-gaap and dei elements that the corpus reports, barring a known short list', () => {
    const unknown = CANONICAL_METRICS.flatMap((m) => m.concepts.map(key))
      .filter((k) => !k.startsWith('ifrs-full:') && !corpusConcepts.has(k) && !NOT_IN_CORPUS.has(k));
    assert.deepEqual(unknown, []);
  });

  it('maps the IFRS filer (TSMC) through ifrs-full equivalents placed after the us-gaap candidates', () => {
    for (const m of CANONICAL_METRICS) {
      const firstIfrs = m.concepts.findIndex((c) => c.taxonomy === 'ifrs-full');
      if (firstIfrs === -1) continue;
      assert.ok(m.concepts.slice(firstIfrs).every((c) => c.taxonomy === 'ifrs-full'), `${m.metric} lists ifrs-full last`);
    }
    for (const name of ['REVENUE', 'NET_INCOME', 'TOTAL_ASSETS', 'TOTAL_EQUITY', 'OPERATING_CASH_FLOW', 'CAPITAL_EXPENDITURES']) {
      const ifrsTags = canonicalMetric(name)!.concepts.filter((c) => c.taxonomy === 'ifrs-full').map(key);
      assert.ok(ifrsTags.some((k) => corpusConcepts.has(k)), `${name} has an IFRS tag TSMC reports`);
    }
  });

  it('never lets a narrower total or a line item stand in for a total', () => {
    for (const [metric, forbidden] of Object.entries(FORBIDDEN_FALLBACKS)) {
      const keys = canonicalMetric(metric)!.concepts.map(key);
      for (const f of forbidden) assert.ok(!keys.includes(f), `${metric} must not fall back to ${f}`);
    }
    assert.match(canonicalMetric('TOTAL_EQUITY')!.source_notes, /does not fall back to StockholdersEquity/);
  });

  it('states the sign conventions the brief fixes, negating only tags with the opposite sign', () => {
    const first = (name: string) => key(canonicalMetric(name)!.concepts[0]!);
    assert.equal(first('NET_INCOME'), 'us-gaap:NetIncomeLoss');
    assert.equal(first('NET_INCOME_INCLUDING_NONCONTROLLING'), 'us-gaap:ProfitLoss');
    assert.equal(first('TOTAL_EQUITY'), 'us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest');
    assert.equal(first('SHARES_OUTSTANDING'), 'us-gaap:CommonStockSharesOutstanding');
    assert.equal(first('NET_CHANGE_IN_CASH'), 'us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsPeriodIncreaseDecreaseIncludingExchangeRateEffect');
    assert.equal(first('CAPITAL_EXPENDITURES'), 'us-gaap:PaymentsToAcquirePropertyPlantAndEquipment');
    const keys = (name: string) => canonicalMetric(name)!.concepts.map(key);
    assert.deepEqual(keys('REVENUE').slice(0, 5), ['us-gaap:Revenues', 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax', 'us-gaap:SalesRevenueNet', 'us-gaap:SalesRevenueGoodsNet']);
    assert.deepEqual(keys('COST_OF_REVENUE').slice(0, 3), ['us-gaap:CostOfRevenue', 'us-gaap:CostOfGoodsAndServicesSold', 'us-gaap:CostOfGoodsSold']);
    assert.ok(keys('SHARES_OUTSTANDING').indexOf('dei:EntityCommonStockSharesOutstanding') > 0);
    // payments and section totals are served as tagged
    for (const name of ['CAPITAL_EXPENDITURES', 'DIVIDENDS_PAID', 'SHARE_REPURCHASES', 'INVESTING_CASH_FLOW', 'FINANCING_CASH_FLOW', 'COST_OF_REVENUE', 'INCOME_TAX_EXPENSE']) {
      assert.ok(canonicalMetric(name)!.concepts.every((c) => !c.negate), `${name} is not negated`);
    }
    const uses = conceptIndex().get('us-gaap:IncreaseDecreaseInAccountsReceivable');
    assert.deepEqual(uses, [{ metric: 'CHANGE_IN_RECEIVABLES', rank: 1, negate: true }]);
    assert.deepEqual(conceptIndex().get('us-gaap:Revenues'), [{ metric: 'REVENUE', rank: 0, negate: false }]);
    assert.equal(conceptIndex(), conceptIndex(), 'built once');
  });

  it('defines every required derived metric over canonical inputs only', () => {
    const derivedNames = new Set(DERIVED_METRICS.map((d) => d.metric));
    assert.equal(derivedNames.size, DERIVED_METRICS.length);
    assert.deepEqual(REQUIRED_DERIVED.filter((n) => !derivedNames.has(n)), []);
    for (const d of DERIVED_METRICS) {
      assert.ok(!isCanonicalMetric(d.metric), `${d.metric} is not also canonical`);
      assert.equal(d.is_derived, true);
      assert.equal(d.is_canonical, false);
      assert.equal(d.market_data_required, false);
      assert.ok(d.formula && d.source_notes);
      assert.ok(d.dependencies.length > 0);
      for (const dep of d.dependencies) assert.ok(isCanonicalMetric(dep), `${d.metric} reads ${dep}, which is canonical`);
      const names = d.formula!.match(/\b[A-Z][A-Z0-9_]*\b/g) ?? [];
      assert.deepEqual([...new Set(names)].sort(), [...d.dependencies].sort(), `${d.metric} dependencies match its formula`);
      assert.equal(d.denominator_zero_behavior, d.formula!.includes('/') ? 'null' : null, d.metric);
    }
    const fcf = DERIVED_METRICS.find((d) => d.metric === 'FREE_CASH_FLOW')!;
    assert.equal(fcf.formula, 'OPERATING_CASH_FLOW - CAPITAL_EXPENDITURES');
    assert.match(DERIVED_METRICS.find((d) => d.metric === 'ROE')!.source_notes, /average/);
  });

  it('offers exactly eight bundles of canonical metrics, including cash_flow_quality and core_balance_sheet', () => {
    assert.equal(METRIC_BUNDLES.length, 8);
    const codes = METRIC_BUNDLES.map((b) => b.code);
    assert.equal(new Set(codes).size, 8);
    assert.ok(codes.includes('cash_flow_quality'));
    assert.ok(codes.includes('core_balance_sheet'));
    for (const b of METRIC_BUNDLES) {
      assert.ok(b.label && b.description && b.metrics.length > 0);
      assert.equal(new Set(b.metrics).size, b.metrics.length, `${b.code} repeats a metric`);
      for (const m of b.metrics) assert.ok(isCanonicalMetric(m), `${b.code}: ${m} is canonical`);
    }
  });

  it('offers a core_fundamentals view that mixes canonical and derived metrics', () => {
    const derivedNames = new Set(DERIVED_METRICS.map((d) => d.metric));
    const view = METRIC_VIEWS.find((v) => v.code === 'core_fundamentals');
    assert.ok(view);
    assert.ok(view.metrics.some(isCanonicalMetric));
    assert.ok(view.metrics.some((m) => derivedNames.has(m)));
    for (const v of METRIC_VIEWS) {
      for (const m of v.metrics) assert.ok(isCanonicalMetric(m) || derivedNames.has(m), `${v.code}: ${m} is defined`);
    }
    assert.equal(new Set(METRIC_VIEWS.map((v) => v.code)).size, METRIC_VIEWS.length);
  });

  it('publishes definitions without the mapping internals', () => {
    const fields = ['metric', 'display_name', 'category', 'statement_type', 'is_canonical', 'is_derived', 'unit_type', 'formula',
      'dependencies', 'denominator_zero_behavior', 'missing_input_behavior', 'market_data_required', 'source_notes'];
    const revenue = definitionOf('REVENUE');
    assert.ok(revenue);
    assert.deepEqual(Object.keys(revenue).sort(), [...fields].sort());
    assert.deepEqual(Object.keys(definitionOf('ROE')!).sort(), [...fields].sort());
    assert.equal(definitionOf('NOT_A_METRIC'), undefined);
    assert.deepEqual(publicDefinition(canonicalMetric('NET_INCOME')!), definitionOf('NET_INCOME'));
    assert.equal(ALL_METRIC_DEFINITIONS.length, CANONICAL_METRICS.length + DERIVED_METRICS.length);
    assert.ok(ALL_METRIC_DEFINITIONS.every((d) => !('concepts' in d) && !('period_kind' in d)));
  });

  it('keeps the catalog pure: its modules import only each other, the statement enumerations and node:crypto', () => {
    for (const f of readdirSync(CATALOG_DIR).filter((n) => n.endsWith('.ts'))) {
      const src = readFileSync(new URL(f, CATALOG_DIR), 'utf8');
      for (const [, spec] of src.matchAll(/from\s+'([^']+)'/g)) assert.match(spec!, /^((\.\/[\w-]+|\.\.\/statements\/types)\.ts|node:crypto)$/, `${f} imports ${spec}`);
    }
  });
});
