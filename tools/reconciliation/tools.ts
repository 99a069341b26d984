import { z } from 'zod';
import { reconciliationLedger, reconciliationSummary } from './queries.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import { LEDGER_STATUSES, RULE_CATEGORIES } from '../../domain/reconciliation/index.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { defineTool } from '../../api/define-tool.ts';
import {
  Cik,
  CikOut,
  DecimalString,
  FiscalPeriodParam,
  FiscalYear,
  PageParams,
  pageOf,
  paginated,
  StatementTypeParam,
  Timestamp,
  VersionSequenceParam,
} from '../../api/schemas.ts';

/**
 * The reconciliation ledger (Growth plan): rule results stored per statement version when
 * ingestion adds it (`domain/reconciliation/`). The summary counts them; the ledger lists them.
 */

const SEVERITIES = ['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;

const SummaryRow = z.object({
  statement_type: StatementTypeParam.describe('statement the counted results belong to (rows of one period are split by statement)'),
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  version_sequence: z.number().int(),
  rule_category: z.enum(RULE_CATEGORIES).describe('IDENTITY (equalities inside one statement) or ROLLFORWARD (across statements and periods)'),
  pass_count: z.number().int(),
  warn_count: z.number().int().describe('WARNING results, declines included'),
  fail_count: z.number().int(),
  declined_count: z.number().int().describe('of warn_count, the rules that declined to compare (severity NONE, a reason, delta null): not defects'),
});

export const reconciliationSummaryTool = defineTool({
  name: 'reconciliation.summary',
  title: 'Reconciliation results by statement version',
  description:
    'Counts of reconciliation-ledger results for a company: one row per statement version (statement_type, fiscal_year, fiscal_period, version_sequence) and rule_category, with pass_count, warn_count (declines included) and fail_count. ' +
    'IDENTITY rules are accounting equalities inside a statement; ROLLFORWARD rules tie cash flow to balance sheet cash and roll cash and retained earnings forward from the prior period. ' +
    'Read this first, then reconciliation_ledger for a version it names. Versions with no evaluable rule have no row. Optional statement_type and fiscal_year_from/fiscal_year_to narrow it.',
  http: { method: 'GET', path: '/v1/edgar/reconciliation/summary' },
  tool: true,
  listedAs: 'spec',
  plan: 'growth',
  input: z.object({
    cik: Cik,
    statement_type: StatementTypeParam.optional(),
    fiscal_year_from: FiscalYear.optional(),
    fiscal_year_to: FiscalYear.optional(),
  }),
  output: z.object({ data: z.array(SummaryRow) }),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    if (input.fiscal_year_from !== undefined && input.fiscal_year_to !== undefined && input.fiscal_year_from > input.fiscal_year_to) {
      throw new ServiceError('VALIDATION_ERROR', `fiscal_year_from (${input.fiscal_year_from}) is after fiscal_year_to (${input.fiscal_year_to}).`, {
        fiscal_year_from: input.fiscal_year_from,
        fiscal_year_to: input.fiscal_year_to,
      });
    }
    const rows = await reconciliationSummary(services.sql, {
      cik: input.cik,
      statement_type: input.statement_type ?? null,
      fiscal_year_from: input.fiscal_year_from ?? null,
      fiscal_year_to: input.fiscal_year_to ?? null,
    });
    return { data: rows };
  },
});

const LedgerItem = z.object({
  cik: CikOut,
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  version_sequence: z.number().int(),
  rule_id: z.string().describe('stable rule id, e.g. BS_ASSETS_EQUAL_LIABILITIES_AND_EQUITY, RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END'),
  rule_category: z.enum(RULE_CATEGORIES),
  status: z.enum(LEDGER_STATUSES),
  severity: z.enum(SEVERITIES).describe('NONE for a pass or a decline; LOW to CRITICAL by |delta| relative to the figures'),
  expected_value: DecimalString.nullable(),
  actual_value: DecimalString.nullable(),
  delta: DecimalString.nullable().describe('actual_value - expected_value; null when the rule declined to compare'),
  notes: z
    .object({
      details: z
        .object({ reason: z.string().optional().describe('present when the rule declined, e.g. INCOMPARABLE_CASH_SCOPES, MISSING_INPUTS, OTHER_EQUITY_MOVEMENTS') })
        .catchall(z.unknown())
        .describe('the inputs the rule read (metric, value, and the statement version each came from), its tolerance, and the reason of a decline'),
    })
    .describe('a WARNING with severity NONE and a reason is the rule declining to compare, not a defect'),
  computed_at: Timestamp.describe('when the result was computed (at ingestion of the version)'),
});

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Decimal strings inside notes get the wire shape of every other decimal (six fraction digits). */
function wireNotes(value: unknown): unknown {
  if (typeof value === 'string') return DECIMAL.test(value) ? wireDecimal(value) : value;
  if (Array.isArray(value)) return value.map(wireNotes);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wireNotes(v)]));
  return value;
}

const wire = (v: string | null) => (v === null ? null : wireDecimal(v));

export const reconciliationLedgerTool = defineTool({
  name: 'reconciliation.ledger',
  title: 'Reconciliation ledger of one statement version',
  description:
    'Every reconciliation rule result for one statement version (cik, statement_type, fiscal_year, fiscal_period, version_sequence, all required): rule_id, rule_category, status PASS/WARNING/FAIL, severity, expected_value, actual_value, delta (actual - expected) and notes with the inputs. ' +
    'A WARNING with severity NONE, delta null and notes.details.reason is the rule declining to compare (e.g. INCOMPARABLE_CASH_SCOPES when the cash flow includes restricted cash and the balance sheet cash line does not), not a defect. ' +
    'Only rules that produced a result are listed, so a version nothing could be checked on answers an empty page (total 0). Find versions with reconciliation_summary. Paginated: page, page_size (default 50, max 200).',
  http: { method: 'GET', path: '/v1/edgar/reconciliation/ledger' },
  tool: true,
  listedAs: 'spec',
  plan: 'growth',
  input: z.object({
    cik: Cik,
    statement_type: StatementTypeParam,
    fiscal_year: FiscalYear,
    fiscal_period: FiscalPeriodParam,
    version_sequence: VersionSequenceParam.describe('statement version, 1 = as first reported'),
    ...PageParams,
  }),
  output: paginated(LedgerItem),
  companies: (input) => [input.cik],
  handler: async ({ services }, input) => {
    const { total, rows } = await reconciliationLedger(
      services.sql,
      {
        cik: input.cik,
        statement_type: input.statement_type,
        fiscal_year: input.fiscal_year,
        fiscal_period: input.fiscal_period,
        version_sequence: input.version_sequence,
      },
      { limit: input.page_size, offset: (input.page - 1) * input.page_size },
    );
    const items = rows.map((r) => ({
      ...r,
      expected_value: wire(r.expected_value),
      actual_value: wire(r.actual_value),
      delta: wire(r.delta),
      notes: wireNotes(r.notes) as z.input<typeof LedgerItem>['notes'],
    }));
    return pageOf(items, total, input.page, input.page_size);
  },
});

export const RECONCILIATION_TOOLS = [reconciliationSummaryTool, reconciliationLedgerTool];
