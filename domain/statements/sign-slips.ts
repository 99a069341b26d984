import { Decimal } from 'decimal.js';
import { dec } from '../decimal.ts';
import { sameFigure, type ComparedValue } from './versions.ts';

/**
 * Sign slips: a later filing tells a figure on record with the opposite sign and the same digits
 * (SunEdison's Q1 2012 net loss of 98,600,000 tagged as net income of 98,600,000 by a later 10-Q).
 * No restatement turns a loss into a profit of exactly the same amount: one of the two filings
 * tagged the sign wrong. Which one is told by a figure whose sign must agree and that the later
 * filing did not flip with it: earnings per share and the income available to common shareholders
 * (which share a sign) for each other and for net income, which lies at or above that income
 * (preferred dividends come off it): a positive EPS means a positive net income, a negative one
 * only where the income available to common is net income's amount or not on record. With such a witness the side it agrees with is served
 * and the other recorded as a data-quality finding, never a revision; without one, the change
 * stays a revision as any other (nothing tells which filing erred). The working-capital lines of
 * the cash-flow statement have the balance sheet for a witness: the movement of the balance they
 * report over the period (balanceWitness); a quarter, the year-to-date through it that the later
 * filing tells and the year's earlier quarters on record (yearToDateWitness).
 */

/** the later value is the earlier one negated: opposite signs, neither zero, the same figure once negated */
export function isSignSlip(before: ComparedValue, after: ComparedValue): boolean {
  const b = before.value;
  const a = after.value;
  const bNegative = b.charCodeAt(0) === 45; /* - */
  if (bNegative === (a.charCodeAt(0) === 45)) return false;
  const bAbs = bNegative ? b.slice(1) : b;
  const aAbs = bNegative ? a : a.slice(1);
  if (dec(bAbs).isZero()) return false;
  return sameFigure({ value: bAbs, decimals: before.decimals ?? null }, { value: aAbs, decimals: after.decimals ?? null });
}

/** what the witnesses of a metric's sign are, in order (the first present and nonzero speaks) */
const WITNESSES: Readonly<Record<string, readonly string[]>> = {
  NET_INCOME: ['EPS_BASIC', 'EPS_DILUTED', 'NET_INCOME_AVAILABLE_TO_COMMON'],
  NET_INCOME_AVAILABLE_TO_COMMON: ['EPS_BASIC', 'EPS_DILUTED'],
  EPS_BASIC: ['NET_INCOME_AVAILABLE_TO_COMMON', 'NET_INCOME'],
  EPS_DILUTED: ['NET_INCOME_AVAILABLE_TO_COMMON', 'NET_INCOME'],
};

type Figure = { value: string; decimals?: string | null };

/**
 * The sign (1 or -1) the figures of the statement as the later filing leaves it (`offered`: what
 * the filing tells for a metric and the version would take, else `onRecord`) say `metric` must
 * have, and the witness that says it; null when none
 * can: no witness present and nonzero, a witness the same filing flipped too (the filing agrees
 * with itself, so nothing tells which filing erred), or a loss per share against net income where
 * the income available to common shareholders is on record with another amount (preferred dividends).
 */
export function signWitness(
  metric: string,
  offered: (metric: string) => Figure | undefined,
  onRecord: ReadonlyMap<string, Figure>,
  amount: string,
): { sign: 1 | -1; witness: string } | null {
  const names = WITNESSES[metric];
  if (!names) return null;
  const common = offered('NET_INCOME_AVAILABLE_TO_COMMON') ?? onRecord.get('NET_INCOME_AVAILABLE_TO_COMMON');
  for (const name of names) {
    const told = offered(name);
    const kept = onRecord.get(name);
    const f = told ?? kept;
    if (!f) continue;
    if (told && kept && isSignSlip(kept, told)) return null;
    const v = dec(f.value);
    if (v.isZero()) continue;
    // net income lies at or above the income available to common shareholders (preferred dividends
    // come off it), so a positive EPS or income available to common means a positive net income,
    // and a positive net income speaks for EPS only without preferred dividends between them
    const sign = v.isNegative() ? -1 : 1;
    const fromCommonSide = metric === 'NET_INCOME' || name === 'NET_INCOME';
    const netIncomeAbove = (metric === 'NET_INCOME' && sign === 1) || (name === 'NET_INCOME' && sign === -1);
    if (fromCommonSide && !netIncomeAbove && common && !dec(common.value).abs().equals(dec(metric === 'NET_INCOME' ? amount : f.value).abs())) {
      return null;
    }
    return { sign, witness: name };
  }
  return null;
}

/**
 * Working-capital lines of the cash-flow statement and the balance-sheet line whose movement each
 * reports, with the direction of the cash effect the catalog serves them in (an asset that grew
 * used cash: negative; a liability that grew kept cash: positive).
 */
const BALANCE_WITNESSES: Readonly<Record<string, { balance: string; direction: 1 | -1 }>> = {
  CHANGE_IN_RECEIVABLES: { balance: 'ACCOUNTS_RECEIVABLE', direction: -1 },
  CHANGE_IN_INVENTORIES: { balance: 'INVENTORY', direction: -1 },
  CHANGE_IN_PREPAID_AND_OTHER_ASSETS: { balance: 'PREPAID_EXPENSES_AND_OTHER_CURRENT_ASSETS', direction: -1 },
  CHANGE_IN_PAYABLES: { balance: 'ACCOUNTS_PAYABLE', direction: 1 },
  CHANGE_IN_ACCRUED_LIABILITIES: { balance: 'ACCRUED_LIABILITIES', direction: 1 },
};

/** the balance-sheet line a working-capital line of the cash-flow statement reports the movement of, or undefined */
export function witnessBalance(metric: string): string | undefined {
  return BALANCE_WITNESSES[metric]?.balance;
}

/**
 * The sign a working-capital line must have by the balance sheet's own movement over its period
 * (`opening` at the day before the period starts, `closing` at its end): receivables that grew by
 * about the line's amount mean a negative cash effect. The balance speaks only where it moved by
 * between half and twice the line's amount (`amount`, either side's digits): acquisitions,
 * currency and write-offs move balances too, and a movement of another size says nothing of the
 * line's sign. Null for other metrics, a balance not on record at either date, or a movement of
 * another size.
 */
export function balanceWitness(metric: string, amount: string, opening: string | undefined, closing: string | undefined): { sign: 1 | -1; witness: string } | null {
  const w = BALANCE_WITNESSES[metric];
  if (!w || opening === undefined || closing === undefined) return null;
  const moved = dec(closing).minus(dec(opening));
  const size = dec(amount).abs();
  if (moved.isZero() || size.isZero()) return null;
  const ratio = moved.abs().dividedBy(size);
  if (ratio.lessThan(HALF) || ratio.greaterThan(TWO)) return null;
  return { sign: moved.isNegative() === (w.direction === 1) ? -1 : 1, witness: w.balance };
}

const HALF = dec('0.5');
const TWO = dec('2');

/**
 * The catalog's own word on a metric it declares never negative (traits.non_negative: revenue,
 * interest expense, capital expenditures, proceeds and payments, accumulated depreciation...): of
 * the same figure told with both signs, the positive one is right. The last witness asked: a
 * figure of the statement that must agree speaks first.
 */
export const NON_NEGATIVE_METRIC = 'NON_NEGATIVE_METRIC';

export function nonNegativeWitness(nonNegative: boolean): { sign: 1; witness: string } | null {
  return nonNegative ? { sign: 1, witness: NON_NEGATIVE_METRIC } : null;
}

/** the identity that witnesses pretax income's and the income tax's signs, as named in a finding */
export const TAX_IDENTITY = 'PRETAX_INCOME - INCOME_TAX_EXPENSE = NET_INCOME_INCLUDING_NONCONTROLLING - INCOME_FROM_DISCONTINUED_OPERATIONS';

/**
 * Pretax income and the income tax expense have the income statement's own arithmetic for a
 * witness: income before taxes less the tax is the income from continuing operations (net income
 * including noncontrolling interests, else net income, less income from discontinued operations).
 * The two signs a slipped figure could have leave that arithmetic off by amounts twice the figure
 * apart, so the sign that leaves it off by at most a quarter of the figure (equity-method income
 * below the tax line, rounding) is the one the statement agrees with. `figure` reads the statement
 * as the later filing leaves it; `flipped` tells whether that filing flipped a figure of the
 * identity too (then the filing agrees with itself and nothing tells which one erred). Null for
 * other metrics, a missing input, or no sign close enough.
 */
export function taxIdentityWitness(
  metric: string,
  amount: string,
  figure: (metric: string) => string | undefined,
  flipped: (metric: string) => boolean,
): { sign: 1 | -1; witness: string } | null {
  if (metric !== 'PRETAX_INCOME' && metric !== 'INCOME_TAX_EXPENSE') return null;
  const members = taxMembers(figure);
  if (members.some((m) => m !== metric && flipped(m))) return null;
  const size = dec(amount).abs();
  if (size.isZero()) return null;
  for (const sign of [1, -1] as const) {
    const residual = taxResidual(members, (m) => (m === metric ? size.times(sign).toFixed() : figure(m)));
    if (residual === null) return null;
    if (residual.lessThanOrEqualTo(size.dividedBy(4))) return { sign, witness: TAX_IDENTITY };
  }
  return null;
}

/** the identity's members: pretax income, the tax, the income (including noncontrolling interests where on record) and discontinued operations */
function taxMembers(read: (metric: string) => string | undefined): string[] {
  const income = read('NET_INCOME_INCLUDING_NONCONTROLLING') !== undefined ? 'NET_INCOME_INCLUDING_NONCONTROLLING' : 'NET_INCOME';
  return ['PRETAX_INCOME', 'INCOME_TAX_EXPENSE', income, 'INCOME_FROM_DISCONTINUED_OPERATIONS'];
}

/** |pretax - tax - (income - discontinued)| as `read` tells the members (discontinued operations may be absent), or null where another is */
function taxResidual(members: readonly string[], read: (metric: string) => string | undefined): Decimal | null {
  const [pretax, tax, income, discontinued] = members.map(read);
  if (pretax === undefined || tax === undefined || income === undefined) return null;
  return dec(pretax).minus(dec(tax)).minus(dec(income)).plus(dec(discontinued ?? '0')).abs();
}

/** the identity that witnesses a quarter's sign from the year-to-date through it, as named in a finding */
export const YEAR_TO_DATE_IDENTITY = 'YEAR_TO_DATE = EARLIER_QUARTERS + QUARTER';

/**
 * A quarter's figure has the year-to-date through it for a witness where the later filing also
 * tells that year-to-date and the year's earlier quarters are on record from other filings: the
 * year-to-date less the earlier quarters is the quarter. Three readings, exact to a tenth of the
 * quarter (rounding of the figures summed):
 * - the filing's year-to-date less the earlier quarters is its quarter: the filing agrees with the
 *   record and corrected the quarter (`filed`);
 * - it is the quarter on record: the filing's own year-to-date agrees with the record, only its
 *   three-month figure slipped (`previous`);
 * - the year-to-date negated less the earlier quarters is the quarter on record: the filing
 *   flipped its year-to-date with its quarter, and both slipped (`previous`, `yearToDateSlipped`).
 * Hertz's 10-Qs of 2020 told its 2019 second quarter's net interest expense of 199,000,000 and its
 * six months' 382,000,000 as income, against a first quarter of -183,000,000 two filings told
 * alike: -382 less -183 is -199, the quarter on record. Null where the earlier quarters net to
 * zero, or where no reading or more than one holds.
 */
export function yearToDateWitness(
  previous: string,
  filed: string,
  yearToDate: string,
  earlier: string,
): { served: 'previous' | 'filed'; yearToDateSlipped: boolean; witness: string } | null {
  const e = dec(earlier);
  const size = dec(previous).abs();
  if (e.isZero() || size.isZero()) return null;
  const tolerance = size.dividedBy(10);
  const close = (a: Decimal, b: string) => a.minus(dec(b)).abs().lessThanOrEqualTo(tolerance);
  const ytd = dec(yearToDate);
  const corrected = close(ytd.minus(e), filed);
  const quarterSlipped = close(ytd.minus(e), previous);
  const bothSlipped = close(ytd.negated().minus(e), previous);
  // exactly one reading: earlier quarters near zero against the quarter leave two open
  if (Number(corrected) + Number(quarterSlipped) + Number(bothSlipped) !== 1) return null;
  return { served: corrected ? 'filed' : 'previous', yearToDateSlipped: bothSlipped, witness: YEAR_TO_DATE_IDENTITY };
}

/** figures whose sign follows net income's where the same filing flipped them with it */
const FOLLOW_NET_INCOME = ['NET_INCOME', 'NET_INCOME_AVAILABLE_TO_COMMON', 'EPS_BASIC', 'EPS_DILUTED'];

/**
 * A filing that flips several figures of the tax identity at once (Herc's 10-K of 2020 told its Q1
 * 2018 pretax loss and net loss as income, and its loss per share as earnings, but left the tax
 * benefit alone) agrees with itself figure by figure, so no single witness decides; the identity
 * decides them together: where it holds (to a quarter of the smallest flipped figure) with every
 * member as on record and fails with every member as the filing tells it, all of the filing's
 * flips are slips and the figures on record stay (`previous`); where the reverse, the filing
 * corrected them all (`filed`). The figures the decision covers: the flipped members and, where
 * net income or the income including noncontrolling interests flipped, net income, the income
 * available to common and EPS the filing flipped too. `onRecord` and `told` read one side each,
 * `flipped` whether the filing told a figure with the opposite sign and the same digits. Null
 * where fewer than two members flipped or the identity does not tell.
 */
export function jointTaxWitness(
  onRecord: (metric: string) => string | undefined,
  told: (metric: string) => string | undefined,
  flipped: (metric: string) => boolean,
): { served: 'previous' | 'filed'; metrics: ReadonlySet<string> } | null {
  const members = taxMembers(onRecord);
  const income = members[2]!;
  const moved = members.filter(flipped);
  // several members flipped at once, or the income alone with its per-share figures (a quarterly
  // table's net income and EPS told as a profit where the pretax income and the tax stand)
  if (moved.length === 0 || (moved.length === 1 && (moved[0] !== income || !FOLLOW_NET_INCOME.some((m) => m !== income && flipped(m))))) return null;
  const before = taxResidual(members, onRecord);
  const after = taxResidual(members, (m) => told(m) ?? onRecord(m));
  if (before === null || after === null) return null;
  const tolerance = Decimal.min(...moved.map((m) => dec(onRecord(m)!).abs())).dividedBy(4);
  const holdsBefore = before.lessThanOrEqualTo(tolerance);
  const holdsAfter = after.lessThanOrEqualTo(tolerance);
  if (holdsBefore === holdsAfter) return null;
  const metrics = new Set(moved);
  if (moved.includes(income)) for (const m of FOLLOW_NET_INCOME) if (flipped(m)) metrics.add(m);
  return { served: holdsBefore ? 'previous' : 'filed', metrics };
}
