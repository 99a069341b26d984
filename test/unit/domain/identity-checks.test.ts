import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkIdentities,
  evaluateIdentityRule,
  evaluateIdentityRuleInDecimal,
  IDENTITY_RULES,
  precisionOf,
  toleranceFor,
  type IdentityInput,
} from '../../../domain/identity-checks.ts';
import type { IdentityCheck, IdentitySummary } from '../../../domain/statement-types.ts';
import { seededRandom } from '../../helpers/seeded-random.ts';

// Figures below are as filed in companyfacts (shared/sec/data.sec.gov/api/xbrl/companyfacts):
// Apple 10-K 0000320193-23-000106, fiscal year ended 2023-09-30;
// Walmart 10-K 0000104169-23-000020, fiscal year ended 2023-01-31;
// Kraft Heinz 10-K 0001637459-24-000018, fiscal year ended 2023-12-30.

const APPLE_BS_FY2023 = {
  TOTAL_ASSETS: '352583000000',
  TOTAL_LIABILITIES: '290437000000',
  STOCKHOLDERS_EQUITY: '62146000000',
  LIABILITIES_AND_EQUITY: '352583000000',
};
const APPLE_IS_FY2023 = {
  REVENUE: '383285000000',
  COST_OF_REVENUE: '214137000000',
  GROSS_PROFIT: '169148000000',
  OPERATING_EXPENSES: '54847000000',
  OPERATING_INCOME: '114301000000',
  NET_INCOME: '96995000000',
};
const APPLE_CF_FY2023 = {
  OPERATING_CASH_FLOW: '110543000000',
  INVESTING_CASH_FLOW: '3705000000',
  FINANCING_CASH_FLOW: '-108488000000',
  NET_CHANGE_IN_CASH: '5760000000',
};
const WALMART_CF_FY2023 = {
  OPERATING_CASH_FLOW: '28841000000',
  INVESTING_CASH_FLOW: '-17722000000',
  FINANCING_CASH_FLOW: '-17039000000',
  EFFECT_OF_EXCHANGE_RATE_ON_CASH: '-73000000',
  NET_CHANGE_IN_CASH: '-5993000000',
};
const KRAFT_HEINZ_BS_FY2023 = {
  TOTAL_ASSETS: '90339000000',
  TOTAL_LIABILITIES: '40617000000',
  TEMPORARY_EQUITY: '34000000',
  STOCKHOLDERS_EQUITY: '49526000000',
  NONCONTROLLING_INTEREST: '162000000',
  TOTAL_EQUITY: '49688000000',
  LIABILITIES_AND_EQUITY: '90339000000',
};

function bs(values: Record<string, string>): IdentityInput {
  return { statement_type: 'BALANCE_SHEET', fiscal_year: 2023, fiscal_period: 'FY', values };
}
function is(values: Record<string, string>): IdentityInput {
  return { statement_type: 'INCOME_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY', values };
}
function cf(values: Record<string, string>): IdentityInput {
  return { statement_type: 'CASH_FLOW_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY', values };
}
function check(summary: IdentitySummary, ruleId: string): IdentityCheck {
  const found = summary.checks.find((c) => c.rule_id === ruleId);
  assert.ok(found, `no check for ${ruleId}`);
  return found;
}

const BS_RULES = [
  'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY',
  'BS_LIABILITIES_PLUS_EQUITY',
  'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY',
];

describe('accounting identities', () => {
  it("passes every balance-sheet identity on Apple's FY2023 balance sheet", () => {
    const summary = checkIdentities(bs(APPLE_BS_FY2023));
    for (const id of BS_RULES) {
      const c = check(summary, id);
      assert.equal(c.status, 'PASS', id);
      assert.equal(c.severity, 'NONE', id);
      assert.equal(c.delta, '0', id);
      assert.equal(c.actual_value, '352583000000', id);
      assert.equal(c.expected_value, '352583000000', id);
    }
    // two figures in millions accept 1,000,000; three accept 1,500,000
    assert.equal(check(summary, 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY').tolerance, '1000000');
    assert.equal(check(summary, 'BS_LIABILITIES_PLUS_EQUITY').tolerance, '1500000');
    assert.equal(check(summary, 'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY').tolerance, '1500000');
    assert.equal(summary.pass_rate, '1.000000');
    assert.equal(summary.total_rules_count, IDENTITY_RULES.length);
    assert.equal(summary.supported_rules_count, 3);
    assert.equal(summary.skipped_rules_count, IDENTITY_RULES.length - 3);
    assert.equal(summary.failed_rules_count, 0);
  });

  it('fails with delta = actual - expected (negative) when liabilities are overstated by 50,000,000', () => {
    const summary = checkIdentities(bs({ ...APPLE_BS_FY2023, TOTAL_LIABILITIES: '290487000000' }));
    for (const id of ['BS_LIABILITIES_PLUS_EQUITY', 'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY']) {
      const c = check(summary, id);
      assert.equal(c.status, 'FAIL', id);
      assert.equal(c.actual_value, '352583000000', id);
      assert.equal(c.expected_value, '352633000000', id);
      assert.equal(c.delta, '-50000000', id);
      assert.equal(c.tolerance, '1500000', id);
      assert.equal(c.severity, 'LOW', id); // 50M of 352.6B is about 0.014%
    }
    assert.equal(check(summary, 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY').status, 'PASS');
    assert.equal(summary.failed_rules_count, 2);
    assert.equal(summary.supported_rules_count, 3);
    assert.equal(summary.pass_rate, '0.333333');
  });

  it('fails with a positive delta when liabilities are understated by 50,000,000', () => {
    const summary = checkIdentities(bs({ ...APPLE_BS_FY2023, TOTAL_LIABILITIES: '290387000000' }));
    const c = check(summary, 'BS_LIABILITIES_PLUS_EQUITY');
    assert.equal(c.status, 'FAIL');
    assert.equal(c.expected_value, '352533000000');
    assert.equal(c.delta, '50000000');
  });

  it("passes gross profit and operating income on Apple's FY2023 income statement", () => {
    const summary = checkIdentities(is(APPLE_IS_FY2023));
    const gross = check(summary, 'IS_GROSS_PROFIT');
    assert.deepEqual(
      { status: gross.status, severity: gross.severity, expected: gross.expected_value, actual: gross.actual_value, delta: gross.delta },
      { status: 'PASS', severity: 'NONE', expected: '169148000000', actual: '169148000000', delta: '0' },
    );
    const operating = check(summary, 'IS_OPERATING_INCOME');
    assert.equal(operating.status, 'PASS');
    assert.equal(operating.expected_value, '114301000000');
    // Apple reports no consolidated net income including noncontrolling interest
    assert.equal(check(summary, 'IS_NET_INCOME_ATTRIBUTION').status, 'SKIPPED');
    assert.equal(summary.supported_rules_count, 2);
    assert.equal(summary.pass_rate, '1.000000');
  });

  it('passes a 1,000,000 rounding difference between figures rounded to millions', () => {
    const summary = checkIdentities(is({ ...APPLE_IS_FY2023, GROSS_PROFIT: '169149000000' }));
    const c = check(summary, 'IS_GROSS_PROFIT');
    assert.equal(c.status, 'PASS');
    assert.equal(c.severity, 'NONE');
    assert.equal(c.delta, '1000000');
    assert.equal(c.tolerance, '1500000');
  });

  it('warns, without counting a failure, when the delta is a few rounding units beyond tolerance', () => {
    const summary = checkIdentities(is({ ...APPLE_IS_FY2023, GROSS_PROFIT: '169153000000' }));
    const c = check(summary, 'IS_GROSS_PROFIT');
    assert.equal(c.status, 'WARNING');
    assert.equal(c.severity, 'LOW');
    assert.equal(c.delta, '5000000');
    assert.equal(summary.failed_rules_count, 0);
    // WARNING is not a pass: operating income (gross profit moved too) is also off by 5M -> WARNING
    assert.equal(check(summary, 'IS_OPERATING_INCOME').status, 'WARNING');
    assert.equal(summary.pass_rate, '0.000000');
  });

  it('passes the cash-flow identity on Apple FY2023, which reports no exchange-rate effect', () => {
    const c = check(checkIdentities(cf(APPLE_CF_FY2023)), 'CF_NET_CHANGE_IN_CASH');
    assert.equal(c.status, 'PASS');
    assert.equal(c.expected_value, '5760000000');
    assert.equal(c.delta, '0');
  });

  it("includes the exchange-rate effect on Walmart's FY2023 cash flow, and fails without it", () => {
    const withFx = check(checkIdentities(cf(WALMART_CF_FY2023)), 'CF_NET_CHANGE_IN_CASH');
    assert.equal(withFx.status, 'PASS');
    assert.equal(withFx.expected_value, '-5993000000');

    const { EFFECT_OF_EXCHANGE_RATE_ON_CASH: _fx, ...withoutFx } = WALMART_CF_FY2023;
    const c = check(checkIdentities(cf(withoutFx)), 'CF_NET_CHANGE_IN_CASH');
    assert.equal(c.status, 'FAIL');
    assert.equal(c.expected_value, '-5920000000');
    assert.equal(c.delta, '-73000000');
    assert.equal(c.tolerance, '2000000');
    assert.equal(c.severity, 'HIGH'); // 73M of 5,993M is about 1.2%
  });

  it("passes Walmart's FY2023 net income attribution with a loss attributable to noncontrolling interest", () => {
    const c = check(
      checkIdentities(is({ NET_INCOME_INCLUDING_NONCONTROLLING: '11292000000', NET_INCOME: '11680000000', NET_INCOME_NONCONTROLLING: '-388000000' })),
      'IS_NET_INCOME_ATTRIBUTION',
    );
    assert.equal(c.status, 'PASS');
    assert.equal(c.expected_value, '11292000000');
  });

  it('includes temporary equity and noncontrolling interest (Kraft Heinz FY2023), from total equity or from its parts', () => {
    const summary = checkIdentities(bs(KRAFT_HEINZ_BS_FY2023));
    for (const id of BS_RULES) assert.equal(check(summary, id).status, 'PASS', id);

    const { TOTAL_EQUITY: _total, ...parts } = KRAFT_HEINZ_BS_FY2023;
    const fromParts = check(checkIdentities(bs(parts)), 'BS_LIABILITIES_PLUS_EQUITY');
    assert.equal(fromParts.status, 'PASS');
    assert.equal(fromParts.expected_value, '90339000000');

    const { TEMPORARY_EQUITY: _temporary, ...noTemporary } = KRAFT_HEINZ_BS_FY2023;
    const c = check(checkIdentities(bs(noTemporary)), 'BS_LIABILITIES_PLUS_EQUITY');
    assert.equal(c.status, 'FAIL');
    assert.equal(c.delta, '34000000');
  });

  it('skips a rule whose required input is missing, with null values, and leaves it out of pass_rate', () => {
    // Walmart FY2023 tags no total liabilities
    const summary = checkIdentities(
      bs({ TOTAL_ASSETS: '243197000000', LIABILITIES_AND_EQUITY: '243197000000', TEMPORARY_EQUITY: '237000000', TOTAL_EQUITY: '83754000000' }),
    );
    for (const id of ['BS_LIABILITIES_PLUS_EQUITY', 'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY']) {
      assert.deepEqual(check(summary, id), {
        rule_id: id,
        statement_type: 'BALANCE_SHEET',
        fiscal_year: 2023,
        fiscal_period: 'FY',
        status: 'SKIPPED',
        severity: 'NONE',
        expected_value: null,
        actual_value: null,
        delta: null,
        tolerance: null,
      });
    }
    assert.equal(check(summary, 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY').status, 'PASS');
    assert.equal(summary.supported_rules_count, 1);
    assert.equal(summary.skipped_rules_count, IDENTITY_RULES.length - 1);
    assert.equal(summary.pass_rate, '1.000000');
  });

  it("skips when the rule's actual metric is missing", () => {
    const { GROSS_PROFIT: _gp, ...noGross } = APPLE_IS_FY2023;
    const summary = checkIdentities(is(noGross));
    assert.equal(check(summary, 'IS_GROSS_PROFIT').status, 'SKIPPED');
    // operating income needs gross profit as a term: skipped too
    assert.equal(check(summary, 'IS_OPERATING_INCOME').status, 'SKIPPED');
  });

  it('never evaluates a rule on optional terms alone', () => {
    const cash = check(
      checkIdentities(cf({ NET_CHANGE_IN_CASH: '-73000000', EFFECT_OF_EXCHANGE_RATE_ON_CASH: '-73000000' })),
      'CF_NET_CHANGE_IN_CASH',
    );
    assert.equal(cash.status, 'SKIPPED');
    const attribution = check(
      checkIdentities(is({ NET_INCOME_INCLUDING_NONCONTROLLING: '-388000000', NET_INCOME_NONCONTROLLING: '-388000000' })),
      'IS_NET_INCOME_ATTRIBUTION',
    );
    assert.equal(attribution.status, 'SKIPPED');
    for (const rule of IDENTITY_RULES) {
      assert.ok(rule.expected.length > 0, rule.rule_id);
      for (const set of rule.expected) assert.ok(set.some((t) => !t.optional), `${rule.rule_id} has a set of optional terms only`);
    }
  });

  it("skips rules of the other statement types, stamped with the rule's statement type and the input's period", () => {
    const summary = checkIdentities({ statement_type: 'CASH_FLOW_STATEMENT', fiscal_year: 2024, fiscal_period: 'Q2', values: {
      ...APPLE_BS_FY2023, ...APPLE_IS_FY2023, ...APPLE_CF_FY2023,
    } });
    assert.equal(summary.checks.length, IDENTITY_RULES.length);
    for (const c of summary.checks) {
      assert.equal(c.fiscal_year, 2024);
      assert.equal(c.fiscal_period, 'Q2');
      const rule = IDENTITY_RULES.find((r) => r.rule_id === c.rule_id)!;
      assert.equal(c.statement_type, rule.statement_type);
      if (rule.statement_type === 'CASH_FLOW_STATEMENT') {
        assert.equal(c.status, 'PASS');
      } else {
        assert.equal(c.status, 'SKIPPED', c.rule_id);
        assert.equal(c.expected_value, null);
        assert.equal(c.actual_value, null);
        assert.equal(c.delta, null);
        assert.equal(c.tolerance, null);
      }
    }
    assert.equal(summary.supported_rules_count, 1);
    assert.equal(summary.total_rules_count, IDENTITY_RULES.length);
  });

  it('gives pass_rate as a 6-digit decimal string rounded down, and null when no rule was evaluated', () => {
    // gross profit passes, operating income broken by 10%
    const summary = checkIdentities(is({ ...APPLE_IS_FY2023, OPERATING_INCOME: '125731100000', NET_INCOME_INCLUDING_NONCONTROLLING: '96995000000' }));
    assert.equal(check(summary, 'IS_OPERATING_INCOME').status, 'FAIL');
    assert.equal(summary.pass_rate, '0.666666');
    assert.match(summary.pass_rate!, /^\d\.\d{6}$/);

    const empty = checkIdentities(bs({}));
    assert.equal(empty.pass_rate, null);
    assert.equal(empty.supported_rules_count, 0);
    assert.equal(empty.skipped_rules_count, IDENTITY_RULES.length);
    assert.equal(empty.failed_rules_count, 0);
  });

  it('grades the severity of a failure by its size relative to the larger side', () => {
    const grade = (grossProfit: string) =>
      check(checkIdentities(is({ REVENUE: '100000000', COST_OF_REVENUE: '40000000', GROSS_PROFIT: grossProfit })), 'IS_GROSS_PROFIT');
    assert.deepEqual([grade('60500000').status, grade('60500000').severity], ['FAIL', 'MEDIUM']); // 0.83%
    assert.deepEqual([grade('65000000').status, grade('65000000').severity], ['FAIL', 'HIGH']); // 7.7%
    assert.deepEqual([grade('10000000').status, grade('10000000').severity], ['FAIL', 'CRITICAL']); // 83%
    assert.equal(grade('10000000').delta, '-50000000');
  });

  it('fails rather than warns when a few rounding units are a large share of small figures', () => {
    const c = check(checkIdentities(is({ REVENUE: '1000', COST_OF_REVENUE: '400', GROSS_PROFIT: '650' })), 'IS_GROSS_PROFIT');
    assert.equal(c.tolerance, '15'); // rounding unit 10 ('650'), three figures
    assert.equal(c.delta, '50');
    assert.equal(c.status, 'FAIL');
    assert.equal(c.severity, 'HIGH');
  });

  it('reads the power of ten a value looks rounded to', () => {
    assert.equal(precisionOf('394328000000').toFixed(), '1000000');
    assert.equal(precisionOf('394328000000.000000').toFixed(), '1000000');
    assert.equal(precisionOf('-108488000000').toFixed(), '1000000');
    assert.equal(precisionOf('7722322000').toFixed(), '1000');
    assert.equal(precisionOf('6.13').toFixed(), '0.01');
    assert.equal(precisionOf('6.10').toFixed(), '0.1');
    assert.equal(precisionOf('0.000000000001').toFixed(), '0.000000000001');
    assert.equal(precisionOf('12345').toFixed(), '1');
    assert.equal(precisionOf('0').toFixed(), '1');
    assert.equal(precisionOf('-0.00').toFixed(), '1');
  });

  it("bases the rounding part of the tolerance on the filer's finest precision, not on a figure that merely looks rounder", () => {
    // three figures in millions
    assert.equal(toleranceFor(['352583000000', '290437000000', '62146000000']).toFixed(), '1500000');
    // a round billion among figures in millions does not widen it
    assert.equal(toleranceFor(['5000000000', '4000000000', '1234000000']).toFixed(), '1500000');
    // a zero says nothing about rounding
    assert.equal(toleranceFor(['0', '34000000', '34000000']).toFixed(), '1500000');
    // all zeros: rounding unit 1
    assert.equal(toleranceFor(['0', '0']).toFixed(), '1');
    // tiny fractions are written without an exponent
    assert.equal(toleranceFor(['0.000000000001', '0.000000000002']).toFixed(), '0.000000000001');
  });

  it('grows the tolerance with the magnitude of the figures (one part per million of the largest)', () => {
    const small = toleranceFor(['1234567', '7654321']);
    const large = toleranceFor(['123456789012', '987654321098']);
    const huge = toleranceFor(['123456789012345678901234', '1']);
    assert.equal(small.toFixed(), '7.654321');
    assert.equal(large.toFixed(), '987654.321098');
    assert.equal(huge.toFixed(), '123456789012345678.901234');
    assert.ok(small.lessThan(large) && large.lessThan(huge));
    // in thousands (Snowflake FY2023): magnitude 7,722.322 exceeds the rounding part 1,500
    assert.equal(toleranceFor(['7722322000', '2253707000', '5468615000']).toFixed(), '7722.322');
  });

  it('computes exactly with 12 fraction digits and with integers beyond 2^53', () => {
    const fractions = check(
      checkIdentities(is({ REVENUE: '0.300000000003', COST_OF_REVENUE: '0.100000000001', GROSS_PROFIT: '0.200000000002' })),
      'IS_GROSS_PROFIT',
    );
    assert.equal(fractions.expected_value, '0.200000000002');
    assert.equal(fractions.delta, '0');
    // one part per million of 0.300000000003, above the rounding part 0.0000000000015
    assert.equal(fractions.tolerance, '0.000000300000000003');
    assert.equal(fractions.status, 'PASS');

    const big = check(
      checkIdentities(is({ REVENUE: '123456789012345678901235.000000000001', COST_OF_REVENUE: '1.000000000001', GROSS_PROFIT: '123456789012345678901234' })),
      'IS_GROSS_PROFIT',
    );
    assert.equal(big.expected_value, '123456789012345678901234');
    assert.equal(big.actual_value, '123456789012345678901234');
    assert.equal(big.delta, '0');

    const beyond2to53 = check(
      checkIdentities(is({ REVENUE: '9007199254740993', COST_OF_REVENUE: '1', GROSS_PROFIT: '9007199254740993' })),
      'IS_GROSS_PROFIT',
    );
    assert.equal(beyond2to53.expected_value, '9007199254740992');
    assert.equal(beyond2to53.delta, '1');
  });

  it('rejects a value that is not a plain decimal string', () => {
    for (const bad of ['1e6', '', 'NaN', 'Infinity', '0x10', '1,000', ' 1']) {
      assert.throws(() => checkIdentities(is({ ...APPLE_IS_FY2023, REVENUE: bad })), TypeError, JSON.stringify(bad));
    }
    assert.throws(() => precisionOf('1e6'), TypeError);
  });

  it('lists each rule once, with a stable SCREAMING_SNAKE id, and evaluates them in that order', () => {
    const ids = IDENTITY_RULES.map((r) => r.rule_id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
    assert.deepEqual(ids, [
      'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY',
      'BS_LIABILITIES_PLUS_EQUITY',
      'BS_ASSETS_EQUAL_LIABILITIES_PLUS_EQUITY',
      'IS_GROSS_PROFIT',
      'IS_OPERATING_INCOME',
      'IS_NET_INCOME_ATTRIBUTION',
      'CF_NET_CHANGE_IN_CASH',
    ]);
    assert.deepEqual(checkIdentities(bs(APPLE_BS_FY2023)).checks.map((c) => c.rule_id), ids);
  });

  it('judges each rule once on a frozen values record (shared by data quality and the ledger), and afresh on any other', () => {
    const frozen = Object.freeze({ ...APPLE_BS_FY2023, LIABILITIES_AND_EQUITY: '352583000001' });
    const input = { ...bs(APPLE_BS_FY2023), values: frozen };
    const first = checkIdentities(input).checks;
    const again = IDENTITY_RULES.map((r) => evaluateIdentityRule(r, { ...input }));
    first.forEach((c, i) => assert.equal(again[i], c, 'the same result object, not judged again'));
    // what a plain record with the same values gives
    assert.deepEqual(first, checkIdentities({ ...input, values: { ...frozen } }).checks);
    // another period or statement type on the same record is judged for itself
    const q1 = evaluateIdentityRule(IDENTITY_RULES[0]!, { ...input, fiscal_period: 'Q1' });
    assert.equal(q1.fiscal_period, 'Q1');
    assert.equal(evaluateIdentityRule(IDENTITY_RULES[0]!, { ...input, statement_type: 'INCOME_STATEMENT' }).status, 'SKIPPED');
    const plain = { ...APPLE_BS_FY2023 };
    const a = evaluateIdentityRule(IDENTITY_RULES[0]!, { ...bs(plain), values: plain });
    plain.TOTAL_ASSETS = '1';
    assert.notDeepEqual(evaluateIdentityRule(IDENTITY_RULES[0]!, { ...bs(plain), values: plain }), a, 'a record that can change is judged every time');
  });

  it('bands severity by |delta| / magnitude with the bound itself in the higher band: 0.1% is MEDIUM, 999 parts per million LOW', () => {
    const gross = IDENTITY_RULES.find((r) => r.rule_id === 'IS_GROSS_PROFIT')!;
    const judge = (actual: string, revenue: string) =>
      evaluateIdentityRule(gross, { statement_type: 'INCOME_STATEMENT', fiscal_year: 2023, fiscal_period: 'FY', values: { GROSS_PROFIT: actual, REVENUE: revenue, COST_OF_REVENUE: '0' } }).severity;
    assert.equal(judge('999000.999', '1000001'), 'MEDIUM'); // exactly 0.001 of 1,000,001
    assert.equal(judge('999001', '1000001'), 'LOW');
    assert.equal(judge('990000.99', '1000001'), 'HIGH'); // exactly 0.01
    assert.equal(judge('990001', '1000001'), 'MEDIUM');
    assert.equal(judge('900000.9', '1000001'), 'CRITICAL'); // exactly 0.1
    assert.equal(judge('900001', '1000001'), 'HIGH');
    // a quotient that never terminates: 10 / 3,001
    assert.equal(judge('2991', '3001'), 'MEDIUM');
  });
});

describe('whole-number identity checks', () => {
  it('judge exactly as the decimal.js path on random whole-number statements, every status and severity band included', () => {
    const { rand, pick } = seededRandom(0x5eed1d);
    // whole numbers with 0-9 trailing zeros (rounding units), up to 22 digits, either sign, and zero
    const value = (): string => {
      if (rand() < 0.05) return '0';
      const digits = String(Math.floor(rand() * 1e6) + 1) + '0'.repeat(Math.floor(rand() * 10)) + (rand() < 0.3 ? String(Math.floor(rand() * 1e6)) : '');
      return (rand() < 0.2 ? '-' : '') + digits;
    };
    const seen = new Set<string>();
    for (let n = 0; n < 20_000; n++) {
      const rule = pick(IDENTITY_RULES);
      const set = pick(rule.expected);
      const values: Record<string, string> = {};
      for (const t of set) if (!t.optional || rand() < 0.7) values[t.metric] = value();
      // the actual value: the terms' sum nudged by a delta around the tolerance (10^-6 of the
      // largest: 1x, 10x its warning multiple, 10.5x), in each severity band, and on the bands'
      // bounds exactly (-sum / 1000: the delta is 1/1000 of the larger value)
      let sum = 0n;
      for (const t of set) if (values[t.metric] !== undefined) sum += BigInt(values[t.metric]!) * BigInt(t.sign);
      const nudge = pick([0n, 1n, -7n, sum / 1_000_000n, sum / 100_000n, sum / 95_238n, -sum / 104_000n, sum / 2_000n, sum / 300n, sum / 50n, sum / 5n, sum * 3n, -sum / 1_000n, -sum / 100n, -sum / 10n]);
      values[rule.actual] = rand() < 0.1 ? value() : String(sum + nudge);
      const input: IdentityInput = { statement_type: rule.statement_type, fiscal_year: 2023, fiscal_period: 'FY', values };
      const whole = evaluateIdentityRule(rule, input);
      assert.deepEqual(whole, evaluateIdentityRuleInDecimal(rule, input), JSON.stringify({ rule: rule.rule_id, values }));
      seen.add(`${whole.status}/${whole.severity}`);
    }
    for (const kind of ['PASS/NONE', 'WARNING/LOW', 'FAIL/LOW', 'FAIL/MEDIUM', 'FAIL/HIGH', 'FAIL/CRITICAL']) assert.ok(seen.has(kind), `no ${kind} case among ${[...seen].join(', ')}`);
  });
});
