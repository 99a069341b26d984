/**
 * What folding asks of domain/statements/sign-slips.ts when a later filing tells a figure on
 * record with the opposite sign: the witnesses that read the presentation and the record.
 */
import { add } from '../decimal.ts';
import { addDays } from '../dates.ts';
import { balanceWitness, isSignSlip, TAX_IDENTITY, witnessBalance, yearToDateWitness, type jointTaxWitness } from '../statements/sign-slips.ts';
import type { FiscalPeriod, StatementFigure } from '../statement-types.ts';
import { takenFrom } from './concept-continuity.ts';
import type { Presentation } from './statement-presentation.ts';
import type { BuiltVersion, FoldContext } from './versions.ts';

/** 1-4 for a quarter, null for a year */
export function quarterNumber(period: FiscalPeriod): number | null {
  return period === 'Q1' ? 1 : period === 'Q2' ? 2 : period === 'Q3' ? 3 : period === 'Q4' ? 4 : null;
}

/**
 * The year-to-date identity's word on a quarter's sign (sign-slips.ts yearToDateWitness): for a
 * second, third or fourth quarter the later filing tells as a three-month figure, where the same
 * filing tells the year-to-date through it (the year, for a fourth quarter) and every earlier
 * quarter of the year is on record from other filings (none of a derived one's inputs from this
 * filing): the filing's own figures against the record.
 */
export function yearToDateSignWitness(
  p: Presentation,
  metric: string,
  before: StatementFigure,
  figure: StatementFigure,
  accession: string,
  quarterOnRecord: FoldContext['quarterOnRecord'],
  yearToDate: FoldContext['yearToDate'],
): { sign: 1 | -1; witness: string; yearToDateSlipped: boolean } | null {
  const k = quarterNumber(p.fiscal_period);
  if (k === null || k === 1 || p.statement_type === 'BALANCE_SHEET' || figure.value_origin !== 'SOURCE') return null;
  const ytd = yearToDate(metric, p.fiscal_year, k);
  if (ytd === undefined || ytd.source_accession !== accession || ytd.period_end !== figure.period_end || ytd.unit !== figure.unit) return null;
  let earlier = '0';
  for (let q = 1; q < k; q++) {
    const f = quarterOnRecord(p.statement_type, p.fiscal_year, `Q${q}` as FiscalPeriod, metric);
    if (f === undefined || f.unit !== figure.unit || f.source_accession === accession) return null;
    if (f.calculation_steps?.some((s) => s.source_accession === accession)) return null;
    earlier = add(earlier, f.value);
  }
  const w = yearToDateWitness(before.value, figure.value, ytd.value, earlier);
  if (w === null) return null;
  return { sign: signOf(w.served === 'previous' ? before.value : figure.value), witness: w.witness, yearToDateSlipped: w.yearToDateSlipped };
}

/**
 * The balance sheet's word on a working-capital line's sign over the figure's period
 * (sign-slips.ts balanceWitness). A derived quarter is decided only where the side the balance
 * sheet agrees with also has each of its year-to-date inputs at the sign the balance sheet gives
 * over that input's own period: a later filing that flipped one input and an earlier one that
 * flipped the other net to the same digits with opposite signs, and neither is the quarter.
 */
export function balanceSignWitness(metric: string, before: StatementFigure, p: Presentation, figure: StatementFigure, balanceAt: FoldContext['balanceAt']): { sign: 1 | -1; witness: string } | null {
  const balance = witnessBalance(metric);
  const start = figure.period_start ?? p.period_start;
  if (balance === undefined || start === null) return null;
  const over = (from: string, to: string, amount: string) => balanceWitness(metric, amount, balanceAt(balance, addDays(from, -1)), balanceAt(balance, to));
  const witness = over(start, figure.period_end, before.value);
  if (witness === null) return null;
  const chosen = signOf(before.value) === witness.sign ? before : figure;
  for (const step of chosen.calculation_steps ?? []) {
    if (step.period_start === null) return null;
    const input = over(step.period_start, step.period_end, step.value);
    if (input === null || input.sign !== signOf(step.value)) return null;
  }
  return witness;
}

/** -1 for a value written with a minus sign, else 1 */
export function signOf(value: string): 1 | -1 {
  return value.charCodeAt(0) === 45 ? -1 : 1;
}

/** the joint decision of the tax identity (sign-slips.ts jointTaxWitness) for one of the figures it covers */
export function jointWitness(joint: ReturnType<typeof jointTaxWitness>, metric: string, before: StatementFigure, figure: StatementFigure): { sign: 1 | -1; witness: string } | null {
  if (joint === null || !joint.metrics.has(metric)) return null;
  return { sign: signOf(joint.served === 'previous' ? before.value : figure.value), witness: TAX_IDENTITY };
}

/** whether the presentation tells `metric` with the opposite sign of the figure on record (a sign slip of its own) */
export function flippedBy(p: Presentation, latest: BuiltVersion, metric: string): boolean {
  const told = takenFrom(p, latest, metric);
  const kept = latest.figures.get(metric);
  return told !== undefined && kept !== undefined && isSignSlip(kept, told);
}
