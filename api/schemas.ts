import { z } from 'zod';
import { CIK_INPUT_PATTERN, normalizeTicker, padCik } from '../domain/cik.ts';
import { FISCAL_PERIODS, STATEMENT_TYPES } from '../domain/statements/types.ts';

/**
 * Shared parameter and field schemas, each described for an agent. Inputs are lenient where the
 * meaning is unambiguous (unpadded CIKs, lowercase tickers) and outputs are canonical.
 */
export const Cik = z
  .string()
  .regex(CIK_INPUT_PATTERN, 'a CIK is 1 to 10 digits, e.g. 0000320193 or 320193')
  .transform((s) => padCik(s))
  .describe('SEC Central Index Key of the issuer; zero-padded (0000320193) or unpadded (320193)');

export const CikOut = z.string().regex(/^\d{10}$/).describe('10-digit zero-padded CIK');

export const Ticker = z
  .string()
  .min(1)
  .max(16)
  .regex(/^[A-Za-z0-9.\-]+$/, 'a ticker is letters, digits, "." or "-", e.g. AAPL or BRK-B')
  .transform((s) => normalizeTicker(s))
  .describe('Exchange ticker symbol, case-insensitive; share classes as BRK-B (BRK.B is accepted)');

function isRealDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * The dates every date parameter accepts. Filings start in the 1990s; the bounds keep PostgreSQL
 * date math and our fiscal-year arithmetic (year +/- 1, period starts a year back) far from year 0
 * and from five-digit years. YYYY-MM-DD compares as text, so the check is a string comparison.
 */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '9999-12-31';

export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'dates are YYYY-MM-DD', abort: true })
  .refine(isRealDate, { message: 'not a calendar date', abort: true })
  .refine((s) => s >= DATE_MIN && s <= DATE_MAX, `dates run from ${DATE_MIN} to ${DATE_MAX}`)
  .describe(`Date as YYYY-MM-DD, from ${DATE_MIN} to ${DATE_MAX}`);

/** PostgreSQL `integer` ceiling: an input integer stored in or compared with a 32-bit column stays at or below it. */
export const INT32_MAX = 2_147_483_647;

/** A statement version number (1 = as first reported); the column is a 32-bit integer. */
export const VersionSequenceParam = z.number().int().min(1).max(INT32_MAX);

export const Timestamp = z.string().describe('ISO 8601 timestamp in UTC');

export const Uuid = z.string().uuid();

/** Page size default and ceiling, documented in docs/interface.md and the OpenAPI document. */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;

export const PageParams = {
  page: z.number().int().min(1).max(INT32_MAX).default(1).describe(`1-based page number, at most ${INT32_MAX}`),
  page_size: z
    .number()
    .int()
    .min(1)
    .max(PAGE_SIZE_MAX)
    .default(PAGE_SIZE_DEFAULT)
    .describe(`items per page, default ${PAGE_SIZE_DEFAULT}, at most ${PAGE_SIZE_MAX}`),
};

export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    page: z.number().int(),
    page_size: z.number().int(),
    total: z.number().int().describe('items across all pages'),
    items: z.array(item),
  });
}

export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

export function pageOf<T>(items: T[], total: number, page: number, pageSize: number) {
  return { page, page_size: pageSize, total, items };
}

export const StatementTypeParam = z
  .enum(STATEMENT_TYPES)
  .describe('INCOME_STATEMENT, BALANCE_SHEET or CASH_FLOW_STATEMENT');

export const FiscalPeriodParam = z
  .enum(FISCAL_PERIODS)
  .describe("the filer's fiscal period: FY, Q1, Q2, Q3, or Q4 (never filed; derived as the year minus the first three quarters)");

export const FiscalYear = z.number().int().min(1900).max(2200).describe("the filer's own fiscal-year label, e.g. 2024");

export const DecimalString = z
  .string()
  .regex(/^-?\d+\.\d+$/)
  .describe('exact decimal as a string with at least six fraction digits, e.g. "383285000000.000000"; never a float');

export const AsOfDate = IsoDate.describe(
  'point in time (YYYY-MM-DD): only versions whose SEC filing date is on or before this date are seen',
);
