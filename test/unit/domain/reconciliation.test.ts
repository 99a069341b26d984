import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIdentities } from '../../../domain/identity-checks.ts';
import {
  cashScopeOf,
  indexStatements,
  RECONCILIATION_METRICS,
  RECONCILIATION_RULES,
  reconcileVersions,
  relatedAsOf,
  type LedgerEntry,
  type ReconFigure,
  type StatementSnapshot,
} from '../../../domain/reconciliation/index.ts';
import type { FiscalPeriod, StatementType } from '../../../domain/statement-types.ts';

/**
 * The ledger's rules on hand-built statements. Figures are the filers' own (companyfacts in
 * shared/sec), trimmed to what each rule reads, and then broken on purpose for the failures.
 */

const RESTRICTED = 'us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsPeriodIncreaseDecreaseIncludingExchangeRateEffect';
const CASH_ONLY = 'us-gaap:CashAndCashEquivalentsPeriodIncreaseDecrease';

let ids = 0;
function snap(
  type: StatementType,
  label: `${number} ${FiscalPeriod}`,
  period: [string | null, string],
  filed: string,
  values: Record<string, string | ReconFigure>,
  version = 1,
): StatementSnapshot {
  const [year, fp] = label.split(' ') as [string, FiscalPeriod];
  const figures: Record<string, ReconFigure> = {};
  for (const [m, v] of Object.entries(values)) figures[m] = typeof v === 'string' ? { value: v, source_xbrl_concept: `us-gaap:${m}` } : v;
  return {
    statement_version_id: `v${++ids}`,
    statement_type: type,
    fiscal_year: Number(year),
    fiscal_period: fp,
    version_sequence: version,
    period_start: period[0],
    period_end: period[1],
    filing_date: filed,
    figures,
  };
}
const bs = (label: `${number} ${FiscalPeriod}`, end: string, filed: string, values: Record<string, string | ReconFigure>, version = 1) =>
  snap('BALANCE_SHEET', label, [null, end], filed, values, version);
const is = (label: `${number} ${FiscalPeriod}`, start: string, end: string, filed: string, values: Record<string, string>) =>
  snap('INCOME_STATEMENT', label, [start, end], filed, values);
const cf = (label: `${number} ${FiscalPeriod}`, start: string, end: string, filed: string, values: Record<string, string | ReconFigure>) =>
  snap('CASH_FLOW_STATEMENT', label, [start, end], filed, values);
const netChange = (value: string, concept = RESTRICTED): ReconFigure => ({ value, source_xbrl_concept: concept });

/** the entry of one rule for `subject`, judged against `others` as they stood on its filing date */
function entryOf(ruleId: string, subject: StatementSnapshot, others: StatementSnapshot[] = []): LedgerEntry | undefined {
  const [result] = reconcileVersions([subject], [subject, ...others]);
  return result!.entries.find((e) => e.rule_id === ruleId);
}

function assertDeclined(e: LedgerEntry | undefined, reason: string) {
  assert.ok(e, 'a decline is a result');
  assert.equal(e.status, 'WARNING');
  assert.equal(e.severity, 'NONE');
  assert.equal(e.delta, null);
  assert.equal(e.notes.details.reason, reason);
}

describe('the rule registry', () => {
  it('has unique stable ids in two categories, each rule attached to one statement type', () => {
    const idList = RECONCILIATION_RULES.map((r) => r.rule_id);
    assert.equal(new Set(idList).size, idList.length);
    for (const r of RECONCILIATION_RULES) {
      assert.match(r.rule_id, /^[A-Z][A-Z0-9_]+$/);
      assert.ok(['IDENTITY', 'ROLLFORWARD'].includes(r.rule_category));
      assert.ok(r.description.length > 20);
    }
    assert.deepEqual(
      RECONCILIATION_RULES.filter((r) => r.rule_category === 'ROLLFORWARD').map((r) => [r.rule_id, r.statement_type]),
      [
        ['RF_CF_ENDING_CASH_EQUALS_BS_CASH', 'CASH_FLOW_STATEMENT'],
        ['RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END', 'CASH_FLOW_STATEMENT'],
        ['RF_RETAINED_EARNINGS_ROLLFORWARD', 'BALANCE_SHEET'],
        ['RF_QUARTERS_SUM_TO_YEAR_REVENUE', 'INCOME_STATEMENT'],
        ['RF_QUARTERS_SUM_TO_YEAR_OPERATING_INCOME', 'INCOME_STATEMENT'],
        ['RF_QUARTERS_SUM_TO_YEAR_NET_INCOME', 'INCOME_STATEMENT'],
        ['RF_QUARTERS_SUM_TO_YEAR_OPERATING_CASH_FLOW', 'CASH_FLOW_STATEMENT'],
        ['RF_QUARTERS_SUM_TO_YEAR_INVESTING_CASH_FLOW', 'CASH_FLOW_STATEMENT'],
        ['RF_QUARTERS_SUM_TO_YEAR_FINANCING_CASH_FLOW', 'CASH_FLOW_STATEMENT'],
      ],
    );
    for (const m of ['NET_CHANGE_IN_CASH', 'CASH_AND_EQUIVALENTS', 'RETAINED_EARNINGS', 'TOTAL_ASSETS', 'DIVIDENDS_PAID']) assert.ok(RECONCILIATION_METRICS.includes(m), m);
  });
});

describe('IDENTITY rules', () => {
  // Apple 10-K 0000320193-23-000106, balance sheet at 2023-09-30
  const APPLE_BS = {
    TOTAL_ASSETS: '352583000000',
    TOTAL_CURRENT_ASSETS: '143566000000',
    TOTAL_NONCURRENT_ASSETS: '209017000000',
    TOTAL_LIABILITIES: '290437000000',
    STOCKHOLDERS_EQUITY: '62146000000',
    LIABILITIES_AND_EQUITY: '352583000000',
  };

  it('give the same results as the served _meta.identity checks, without the skipped ones', () => {
    const subject = bs('2023 FY', '2023-09-30', '2023-11-03', APPLE_BS);
    const { entries } = reconcileVersions([subject], [subject])[0]!;
    const served = checkIdentities({ statement_type: 'BALANCE_SHEET', fiscal_year: 2023, fiscal_period: 'FY', values: APPLE_BS }).checks;
    for (const c of served.filter((c) => c.status !== 'SKIPPED')) {
      const e = entries.find((x) => x.rule_id === c.rule_id)!;
      assert.equal(e.rule_category, 'IDENTITY');
      assert.deepEqual([e.status, e.severity, e.expected_value, e.actual_value, e.delta], [c.status, c.severity, c.expected_value, c.actual_value, c.delta]);
      assert.equal(e.notes.details.tolerance, c.tolerance);
    }
    const pass = entries.find((e) => e.rule_id === 'BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY')!;
    assert.equal(pass.status, 'PASS');
    assert.deepEqual(pass.notes.details.inputs, { TOTAL_ASSETS: '352583000000', LIABILITIES_AND_EQUITY: '352583000000' });
  });

  it('pass a ledger-only equality: current plus non-current assets', () => {
    const e = entryOf('BS_CURRENT_PLUS_NONCURRENT_ASSETS', bs('2023 FY', '2023-09-30', '2023-11-03', APPLE_BS));
    assert.equal(e?.status, 'PASS');
    assert.equal(e?.delta, '0');
  });

  it('fail a broken balance sheet with delta = actual - expected and a severity by size', () => {
    const e = entryOf('BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY', bs('2023 FY', '2023-09-30', '2023-11-03', { ...APPLE_BS, TOTAL_ASSETS: '352633000000' }));
    assert.equal(e?.status, 'FAIL');
    assert.equal(e?.delta, '50000000');
    assert.equal(e?.severity, 'LOW'); // 50M of 352.6B is under 0.1%, but 50 rounding units: not a footing plug
  });

  it('fail total equity that is not parent equity plus noncontrolling interest (Kraft Heinz 2023, NCI dropped)', () => {
    const values = { STOCKHOLDERS_EQUITY: '49526000000', NONCONTROLLING_INTEREST: '162000000', TOTAL_EQUITY: '49688000000' };
    assert.equal(entryOf('BS_TOTAL_EQUITY_PARENT_PLUS_NONCONTROLLING', bs('2023 FY', '2023-12-30', '2024-02-15', values))?.status, 'PASS');
    const broken = entryOf('BS_TOTAL_EQUITY_PARENT_PLUS_NONCONTROLLING', bs('2023 FY', '2023-12-30', '2024-02-15', { ...values, TOTAL_EQUITY: '49026000000' }));
    assert.equal(broken?.status, 'FAIL');
    assert.equal(broken?.delta, '-662000000');
  });

  it('write nothing when an input is absent (the identity is skipped, not declined)', () => {
    const subject = bs('2023 FY', '2023-09-30', '2023-11-03', { TOTAL_ASSETS: '352583000000' });
    assert.deepEqual(reconcileVersions([subject], [subject])[0]!.entries, []);
  });

  it('apply only to their own statement type', () => {
    const subject = is('2023 FY', '2022-09-25', '2023-09-30', '2023-11-03', { REVENUE: '383285000000', COST_OF_REVENUE: '214137000000', GROSS_PROFIT: '169148000000' });
    assert.deepEqual(reconcileVersions([subject], [subject])[0]!.entries.map((e) => e.rule_id), ['IS_GROSS_PROFIT']);
  });
});

describe('cash scope of a net change in cash', () => {
  it('reads the tag, or the tags of a derived quarter, and calls disagreeing inputs MIXED', () => {
    assert.equal(cashScopeOf(netChange('1', RESTRICTED)), 'CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH');
    assert.equal(cashScopeOf(netChange('1', CASH_ONLY)), 'CASH_AND_EQUIVALENTS');
    assert.equal(cashScopeOf(netChange('1', 'ifrs-full:IncreaseDecreaseInCashAndCashEquivalents')), 'CASH_AND_EQUIVALENTS');
    const derived = (a: string, b: string): ReconFigure => ({ value: '1', source_xbrl_concept: null, calculation_steps: [{ source_xbrl_concept: a }, { source_xbrl_concept: b }] });
    assert.equal(cashScopeOf(derived(RESTRICTED, RESTRICTED)), 'CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH');
    assert.equal(cashScopeOf(derived(RESTRICTED, CASH_ONLY)), 'MIXED');
    assert.equal(cashScopeOf({ value: '1', source_xbrl_concept: null }), null);
  });
});

// Apple: 10-K 0000320193-23-000106 (FY2023) and 0000320193-24-000123 (FY2024)
const APPLE_BS_2022 = bs('2022 FY', '2022-09-24', '2022-10-28', { CASH_AND_EQUIVALENTS: '23646000000', CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH: '24977000000' });
const APPLE_BS_2023 = bs('2023 FY', '2023-09-30', '2023-11-03', { CASH_AND_EQUIVALENTS: '29965000000', CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH: '30737000000' });
const APPLE_BS_2024 = bs('2024 FY', '2024-09-28', '2024-11-01', { CASH_AND_EQUIVALENTS: '29943000000', CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH: '29943000000' });
const APPLE_CF_2023 = cf('2023 FY', '2022-09-25', '2023-09-30', '2023-11-03', { NET_CHANGE_IN_CASH: netChange('5760000000') });
const APPLE_CF_2024 = cf('2024 FY', '2023-10-01', '2024-09-28', '2024-11-01', { NET_CHANGE_IN_CASH: netChange('-794000000') });

describe('RF_CF_ENDING_CASH_EQUALS_BS_CASH', () => {
  const RULE = 'RF_CF_ENDING_CASH_EQUALS_BS_CASH';

  it('passes when the restricted-cash-inclusive ending balance equals the balance sheet cash line (Apple FY2024)', () => {
    const e = entryOf(RULE, APPLE_CF_2024, [APPLE_BS_2024]);
    assert.equal(e?.status, 'PASS');
    assert.equal(e?.rule_category, 'ROLLFORWARD');
    assert.equal(e?.delta, '0');
    assert.equal((e?.notes.details.inputs as any).balance_sheet_cash.statement_version_id, APPLE_BS_2024.statement_version_id);
  });

  it('declines when restricted cash sits outside the balance sheet cash line (Apple FY2023: 772M)', () => {
    const e = entryOf(RULE, APPLE_CF_2023, [APPLE_BS_2023]);
    assertDeclined(e, 'INCOMPARABLE_CASH_SCOPES');
    assert.equal(e!.expected_value, '30737000000');
    assert.equal(e!.actual_value, '29965000000');
    assert.equal(e!.notes.details.restricted_cash_implied, '772000000');
    assert.equal(e!.notes.details.cash_flow_scope, 'CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH');
  });

  it('declines when the cash flow includes restricted cash and the balance sheet has only cash and equivalents', () => {
    const only = bs('2023 FY', '2023-09-30', '2023-11-03', { CASH_AND_EQUIVALENTS: '29965000000' });
    const e = entryOf(RULE, APPLE_CF_2023, [only]);
    assertDeclined(e, 'INCOMPARABLE_CASH_SCOPES');
    assert.equal(e!.expected_value, null);
    assert.equal(e!.actual_value, '29965000000');
  });

  it('fails when the restricted-cash-inclusive balance is below cash alone (McDonald\'s FY2021 tagged 4.7 for 4.7 billion)', () => {
    const mcd = bs('2021 FY', '2021-12-31', '2022-02-24', { CASH_AND_EQUIVALENTS: '4709200000', CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH: '4.7' });
    const e = entryOf(RULE, cf('2021 FY', '2021-01-01', '2021-12-31', '2022-02-24', { NET_CHANGE_IN_CASH: netChange('1260100000') }), [mcd]);
    assert.equal(e?.status, 'FAIL');
    assert.equal(e?.severity, 'CRITICAL');
    assert.equal(e?.delta, '4709199995.3');
  });

  it('gives no result on the cash-and-equivalents scope (the statement ends on the balance sheet line itself) or without a balance sheet', () => {
    const cashOnly = cf('2023 FY', '2022-09-25', '2023-09-30', '2023-11-03', { NET_CHANGE_IN_CASH: netChange('5760000000', CASH_ONLY) });
    assert.equal(entryOf(RULE, cashOnly, [APPLE_BS_2023]), undefined);
    assert.equal(entryOf(RULE, APPLE_CF_2023, []), undefined);
  });

  it('compares a fourth quarter with the balance sheet of the year', () => {
    const q4 = cf('2024 Q4', '2024-06-30', '2024-09-28', '2024-11-01', { NET_CHANGE_IN_CASH: netChange('3308000000') });
    assert.equal(entryOf(RULE, q4, [APPLE_BS_2024])?.status, 'PASS');
  });
});

describe('RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END', () => {
  const RULE = 'RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END';

  it("passes: the prior year's ending cash plus the net change is this year's (Apple FY2023, restricted-cash scope)", () => {
    const e = entryOf(RULE, APPLE_CF_2023, [APPLE_BS_2022, APPLE_BS_2023]);
    assert.equal(e?.status, 'PASS');
    assert.equal(e?.expected_value, '30737000000');
    assert.equal(e?.actual_value, '30737000000');
    const inputs = e!.notes.details.inputs as any;
    assert.equal(inputs.beginning_cash.value, '24977000000');
    assert.equal(inputs.beginning_cash.period_end, '2022-09-24');
    assert.equal(inputs.ending_cash.metric, 'CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH');
  });

  it('fails when the net change leaves out the exchange-rate effect (Home Depot FY2014, 106M)', () => {
    const hd = cf('2014 FY', '2014-02-03', '2015-02-01', '2015-03-26', { NET_CHANGE_IN_CASH: netChange('-100000000', CASH_ONLY) });
    const e = entryOf(RULE, hd, [
      bs('2013 FY', '2014-02-02', '2014-03-27', { CASH_AND_EQUIVALENTS: '1929000000' }),
      bs('2014 FY', '2015-02-01', '2015-03-26', { CASH_AND_EQUIVALENTS: '1723000000' }),
    ]);
    assert.equal(e?.status, 'FAIL');
    assert.equal(e?.delta, '-106000000');
    assert.equal(e?.notes.details.cash_flow_scope, 'CASH_AND_EQUIVALENTS');
  });

  it('declines when the scope includes restricted cash and the opening balance sheet has only cash and equivalents (Texas Instruments 2019)', () => {
    // 10-K 0000097476-20-000009 adopted the restricted-cash scope; the 2018 balance sheet had only the cash line
    const ti = cf('2019 FY', '2019-01-01', '2019-12-31', '2020-02-20', { NET_CHANGE_IN_CASH: netChange('-1000000') });
    const e = entryOf(RULE, ti, [
      bs('2018 FY', '2018-12-31', '2019-02-22', { CASH_AND_EQUIVALENTS: '2438000000' }),
      bs('2019 FY', '2019-12-31', '2020-02-20', { CASH_AND_EQUIVALENTS: '2437000000', CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH: '2437000000' }),
    ]);
    assertDeclined(e, 'INCOMPARABLE_CASH_SCOPES');
    assert.deepEqual(e!.notes.details.balance_sheets_without_scope, ['2018-12-31']);
  });

  it('declines a derived quarter whose inputs were tagged on different scopes', () => {
    const mixed = cf('2019 Q3', '2019-07-01', '2019-09-30', '2019-10-25', {
      NET_CHANGE_IN_CASH: { value: '10', source_xbrl_concept: null, calculation_steps: [{ source_xbrl_concept: RESTRICTED }, { source_xbrl_concept: CASH_ONLY }] },
    });
    const e = entryOf(RULE, mixed, [
      bs('2019 Q2', '2019-06-30', '2019-07-26', { CASH_AND_EQUIVALENTS: '100' }),
      bs('2019 Q3', '2019-09-30', '2019-10-25', { CASH_AND_EQUIVALENTS: '110' }),
    ]);
    assertDeclined(e, 'INCOMPARABLE_CASH_SCOPES');
    assert.equal(e!.notes.details.cash_flow_scope, 'MIXED');
  });

  it('gives no result without the prior balance sheet', () => {
    assert.equal(entryOf(RULE, APPLE_CF_2023, [APPLE_BS_2023]), undefined);
  });

  it('sees only what was filed by the subject\'s filing date, taking the latest such version', () => {
    // a later restatement of the opening balance sheet is not visible to the FY2023 cash flow
    const restatedLater = bs('2022 FY', '2022-09-24', '2024-01-01', { CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH: '1', CASH_AND_EQUIVALENTS: '1' }, 2);
    const e = entryOf(RULE, APPLE_CF_2023, [APPLE_BS_2022, restatedLater, APPLE_BS_2023]);
    assert.equal((e!.notes.details.inputs as any).beginning_cash.statement_version_id, APPLE_BS_2022.statement_version_id);
    assert.equal(e!.status, 'PASS');
    // a version filed with the subject is visible, and the latest visible one wins
    const restatedSameDay = bs('2022 FY', '2022-09-24', '2023-11-03', { CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH: '24970000000', CASH_AND_EQUIVALENTS: '23646000000' }, 2);
    const e2 = entryOf(RULE, APPLE_CF_2023, [APPLE_BS_2022, restatedSameDay, APPLE_BS_2023]);
    assert.equal((e2!.notes.details.inputs as any).beginning_cash.version_sequence, 2);
    assert.equal(e2!.delta, '7000000');
    // nothing visible at all: no result
    const filedLater = bs('2022 FY', '2022-09-24', '2024-01-01', { CASH_CASH_EQUIVALENTS_AND_RESTRICTED_CASH: '24977000000' });
    assert.equal(entryOf(RULE, APPLE_CF_2023, [filedLater, APPLE_BS_2023]), undefined);
  });
});

describe('RF_RETAINED_EARNINGS_ROLLFORWARD', () => {
  const RULE = 'RF_RETAINED_EARNINGS_ROLLFORWARD';
  // Home Depot fiscal 2023 (10-K 0000354950-24-000062): 76,896 + 15,143 - 8,383 = 83,656 (millions)
  const hdPrior = bs('2022 FY', '2023-01-29', '2023-03-15', { RETAINED_EARNINGS: '76896000000' });
  const hdBs = (re: string) => bs('2023 FY', '2024-01-28', '2024-03-13', { RETAINED_EARNINGS: re });
  const hdIs = is('2023 FY', '2023-01-30', '2024-01-28', '2024-03-13', { NET_INCOME: '15143000000' });
  const hdCf = (extra: Record<string, string> = {}) =>
    cf('2023 FY', '2023-01-30', '2024-01-28', '2024-03-13', { DIVIDENDS_PAID: '8383000000', ...extra });

  it('passes: prior retained earnings + net income - dividends paid (Home Depot FY2023)', () => {
    const e = entryOf(RULE, hdBs('83656000000'), [hdPrior, hdIs, hdCf()]);
    assert.equal(e?.status, 'PASS');
    assert.equal(e?.expected_value, '83656000000');
    assert.equal(e?.notes.details.materiality, '836560000');
  });

  it('warns (LOW) on a residual within 1% of the largest input: dividends declared but not yet paid', () => {
    const e = entryOf(RULE, hdBs('83600000000'), [hdPrior, hdIs, hdCf()]);
    assert.equal(e?.status, 'WARNING');
    assert.equal(e?.severity, 'LOW');
    assert.equal(e?.delta, '-56000000');
  });

  it('fails beyond 1% when nothing the cash flow shows explains it (NVIDIA FY2017: 353M up)', () => {
    const e = entryOf(RULE, bs('2017 FY', '2017-01-29', '2017-03-01', { RETAINED_EARNINGS: '6108000000' }), [
      bs('2016 FY', '2016-01-31', '2016-03-17', { RETAINED_EARNINGS: '4350000000' }),
      is('2017 FY', '2016-02-01', '2017-01-29', '2017-03-01', { NET_INCOME: '1666000000' }),
      cf('2017 FY', '2016-02-01', '2017-01-29', '2017-03-01', { DIVIDENDS_PAID: '261000000', SHARE_REPURCHASES: '739000000' }),
    ]);
    assert.equal(e?.status, 'FAIL');
    assert.equal(e?.severity, 'HIGH');
    assert.equal(e?.delta, '353000000');
  });

  it('declines a decrease that share repurchases charged to retained earnings can explain (Apple FY2024)', () => {
    const e = entryOf(RULE, bs('2024 FY', '2024-09-28', '2024-11-01', { RETAINED_EARNINGS: '-19154000000' }), [
      bs('2023 FY', '2023-09-30', '2023-11-03', { RETAINED_EARNINGS: '-214000000' }),
      is('2024 FY', '2023-10-01', '2024-09-28', '2024-11-01', { NET_INCOME: '93736000000' }),
      cf('2024 FY', '2023-10-01', '2024-09-28', '2024-11-01', {
        DIVIDENDS_PAID: '15234000000',
        SHARE_REPURCHASES: '94949000000',
        TAX_WITHHOLDING_ON_SHARE_BASED_COMPENSATION: '5441000000',
      }),
    ]);
    assertDeclined(e, 'OTHER_EQUITY_MOVEMENTS');
    assert.equal(e!.notes.details.explained_by, 'SHARE_REPURCHASES');
    assert.equal(e!.notes.details.residual, '-97442000000');
    assert.equal(e!.expected_value, '78288000000');
  });

  it('declines an increase no larger than the dividends paid (charged to paid-in capital: Kraft Heinz 2021)', () => {
    const e = entryOf(RULE, bs('2021 FY', '2021-12-25', '2022-02-17', { RETAINED_EARNINGS: '-1682000000' }), [
      bs('2020 FY', '2020-12-26', '2021-02-13', { RETAINED_EARNINGS: '-2694000000' }),
      is('2021 FY', '2020-12-27', '2021-12-25', '2022-02-17', { NET_INCOME: '1012000000' }),
      cf('2021 FY', '2020-12-27', '2021-12-25', '2022-02-17', { DIVIDENDS_PAID: '1959000000' }),
    ]);
    assertDeclined(e, 'OTHER_EQUITY_MOVEMENTS');
    assert.equal(e!.notes.details.explained_by, 'DIVIDENDS');
  });

  it('declines with MISSING_INPUTS when net income or the cash-flow statement is missing', () => {
    const noIncome = entryOf(RULE, hdBs('83656000000'), [hdPrior, hdCf()]);
    assertDeclined(noIncome, 'MISSING_INPUTS');
    assert.deepEqual(noIncome!.notes.details.missing, ['NET_INCOME']);
    const noCashFlow = entryOf(RULE, hdBs('83656000000'), [hdPrior, hdIs]);
    assertDeclined(noCashFlow, 'MISSING_INPUTS');
    assert.deepEqual(noCashFlow!.notes.details.missing, ['DIVIDENDS_PAID']);
  });

  it('counts dividends as zero when the cash-flow statement presents none', () => {
    const e = entryOf(RULE, hdBs('92039000000'), [hdPrior, hdIs, cf('2023 FY', '2023-01-30', '2024-01-28', '2024-03-13', { NET_CHANGE_IN_CASH: netChange('1') })]);
    assert.equal(e?.status, 'PASS');
    assert.equal(e?.notes.details.dividends_paid_presented, false);
  });

  it('declines with NONCONTIGUOUS_PERIODS when the flows do not start the day after the prior balance sheet', () => {
    const e = entryOf(RULE, hdBs('83656000000'), [hdPrior, is('2023 FY', '2023-02-05', '2024-01-28', '2024-03-13', { NET_INCOME: '15143000000' }), hdCf()]);
    assertDeclined(e, 'NONCONTIGUOUS_PERIODS');
  });

  it('rolls a second quarter forward from the first, and gives no result without the prior balance', () => {
    // Apple fiscal 2024 Q2 (10-Q 0000320193-24-000069): 8,242 + 23,636 - 3,710 = 28,168 against 4,339;
    // the 23,829 decrease is within repurchases (23,205) + withholding (284) + dividends (3,710)
    const q2 = bs('2024 Q2', '2024-03-30', '2024-05-03', { RETAINED_EARNINGS: '4339000000' });
    const q1 = bs('2024 Q1', '2023-12-30', '2024-02-02', { RETAINED_EARNINGS: '8242000000' });
    const flows = [
      is('2024 Q2', '2023-12-31', '2024-03-30', '2024-05-03', { NET_INCOME: '23636000000' }),
      cf('2024 Q2', '2023-12-31', '2024-03-30', '2024-05-03', {
        DIVIDENDS_PAID: '3710000000',
        SHARE_REPURCHASES: '23205000000',
        TAX_WITHHOLDING_ON_SHARE_BASED_COMPENSATION: '284000000',
      }),
    ];
    const e = entryOf(RULE, q2, [q1, ...flows]);
    assertDeclined(e, 'OTHER_EQUITY_MOVEMENTS');
    assert.equal(e!.notes.details.residual, '-23829000000');
    assert.equal((e!.notes.details.inputs as any).beginning_retained_earnings.fiscal_period, 'Q1');
    assert.equal(entryOf(RULE, q2, flows), undefined);
  });
});

describe('the engine', () => {
  it('reconciles each subject against the index as it stood on that subject\'s filing date', () => {
    const all = [APPLE_BS_2022, APPLE_BS_2023, APPLE_BS_2024, APPLE_CF_2023, APPLE_CF_2024];
    const results = reconcileVersions([APPLE_CF_2023, APPLE_CF_2024], all);
    assert.deepEqual(
      results.map((r) => r.entries.map((e) => `${e.rule_id}:${e.status}`)),
      [
        ['RF_CF_ENDING_CASH_EQUALS_BS_CASH:WARNING', 'RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END:PASS'],
        ['RF_CF_ENDING_CASH_EQUALS_BS_CASH:PASS', 'RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END:PASS'],
      ],
    );
    const related = relatedAsOf(indexStatements(all), '2023-01-01');
    assert.equal(related.endingOn('BALANCE_SHEET', '2023-09-30'), null);
    assert.equal(related.labelled('BALANCE_SHEET', 2022, 'FY')?.statement_version_id, APPLE_BS_2022.statement_version_id);
  });
});

describe('RF_QUARTERS_SUM_TO_YEAR_<metric>: a fiscal year\'s quarters against its year', () => {
  // Microsoft's fiscal 2016 revenue (companyfacts): its quarters as its 10-Qs and 10-K told them,
  // the year as its 10-K of 2016 told it and as its 10-K of 2018 restated it for ASC 606
  const quarters = [
    is('2016 Q1', '2015-07-01', '2015-09-30', '2015-10-22', { REVENUE: '20379000000' }),
    is('2016 Q2', '2015-10-01', '2015-12-31', '2016-01-28', { REVENUE: '23796000000' }),
    is('2016 Q3', '2016-01-01', '2016-03-31', '2016-04-21', { REVENUE: '20531000000' }),
    is('2016 Q4', '2016-04-01', '2016-06-30', '2016-07-28', { REVENUE: '20614000000' }),
  ];
  const year = is('2016 FY', '2015-07-01', '2016-06-30', '2016-07-28', { REVENUE: '85320000000' });
  const restated = { ...is('2016 FY', '2015-07-01', '2016-06-30', '2018-08-03', { REVENUE: '91154000000' }), version_sequence: 2 };

  it('passes where the quarters add up to the year, with the inputs named', () => {
    const e = entryOf('RF_QUARTERS_SUM_TO_YEAR_REVENUE', year, quarters);
    assert.deepEqual([e?.status, e?.severity, e?.delta], ['PASS', 'NONE', '0']);
  });

  it("warns, naming the year restated and the quarters not, where a later 10-K re-told the year alone: Microsoft's fiscal 2016", () => {
    const e = entryOf('RF_QUARTERS_SUM_TO_YEAR_REVENUE', restated, [year, ...quarters]);
    assert.deepEqual([e?.status, e?.severity, e?.expected_value, e?.actual_value, e?.delta], ['WARNING', 'LOW', '85320000000', '91154000000', '5834000000'], 'actual the year, expected the quarters');
    assert.equal(e!.notes.details.coherence_reason, 'YEAR_RESTATED_QUARTERS_NOT');
  });

  it("fails where every figure is as the filer first told it and they do not add up (the filer's own inconsistency), and gives no result before all five are on record", () => {
    const off = is('2016 FY', '2015-07-01', '2016-06-30', '2016-07-28', { REVENUE: '86320000000' });
    const e = entryOf('RF_QUARTERS_SUM_TO_YEAR_REVENUE', off, quarters);
    assert.deepEqual([e?.status, e?.severity, e?.notes.details.coherence_reason], ['FAIL', 'MEDIUM', 'FILER_INCONSISTENT']);
    assert.equal(entryOf('RF_QUARTERS_SUM_TO_YEAR_REVENUE', year, quarters.slice(0, 3)), undefined);
    assert.equal(entryOf('RF_QUARTERS_SUM_TO_YEAR_REVENUE', quarters[1]!, [year, ...quarters]), undefined, 'judged on the year and the fourth quarter only');
  });
});
