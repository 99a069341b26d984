import { z } from 'zod';
import { wireDecimal, wireDecimalOrNull } from '../domain/decimal.ts';
import type { CalculationEvidence } from '../domain/calculation-evidence.ts';
import { checkIdentities } from '../domain/identity-checks.ts';
import { CORRECTION_RULES, SELECTION_RULES, type FiscalPeriod, type StatementType } from '../domain/statement-types.ts';
import { UNAVAILABLE_REASONS, type UnavailableFigure } from '../domain/normalize/statement-presentation.ts';
import type { StoredFigure } from '../db/figure-storage.ts';
import type { VersionHeader, VersionRow } from '../db/statement-versions.ts';
import { CikOut, DecimalString, FiscalPeriodParam, StatementTypeParam, Timestamp } from './schemas.ts';
import { ACCOUNTING_STANDARDS } from '../domain/statements/types.ts';
import { CoherenceOut } from './coherence.ts';
import { SplitAdjustmentOut } from './split-adjustment.ts';

/** Output shapes shared by statement, time-series and provenance reads, and their row mappers. */

export const CalculationStepOut = z.object({
  operation: z.enum(['add', 'subtract', 'base']),
  metric: z.string(),
  value: DecimalString,
  period_start: z.string().nullable(),
  period_end: z.string(),
  source_accession: z.string(),
  source_xbrl_concept: z.string().nullable(),
});

export const FigureProvenance = {
  source_accession: z.string().describe('accession of the filing the value was read from'),
  source_xbrl_concept: z.string().nullable().describe('taxonomy-qualified tag, e.g. us-gaap:Revenues; null for a derived figure'),
  mapping_type: z
    .string()
    .nullable()
    .describe(
      "null only for the metric's first tag served exactly as tagged; FALLBACK_CONCEPT, SIGN_FLIPPED_BY_CONVENTION (the catalog's sign convention reversed the tagged sign), FALLBACK_CONCEPT_SIGN_FLIPPED, CORRECTION, DERIVED_DISCRETE_QUARTER, DERIVED_Q4 or DERIVED_IDENTITY (a total the same filing's figures give exactly) otherwise",
    ),
  selection_rule: z
    .enum(SELECTION_RULES)
    .nullable()
    .describe(
      "how the tag was chosen among the metric's candidates: PRESENTATION_LINKBASE (the filing's own presentation puts it on this statement), " +
        'COMPANY_PRESENTATION (another filing of the company presents it; this one has no presentation linkbase), CANDIDATE_ORDER (catalog order, totals first), ' +
        'CONCEPT_CONTINUITY (an earlier version of the period had this tag and the filing still reports it), ' +
        'CONCEPT_RETAGGED (the filing no longer reports the earlier version\'s tag and tells the same figure under this one); null for a derived figure',
    ),
  value_origin: z.enum(['SOURCE', 'DERIVED']),
  correction_rule: z
    .enum(CORRECTION_RULES)
    .nullable()
    .describe(
      'null means exactly as tagged; SCALE_SLIP_PREVIOUS_VALUE_KEPT: a later filing told the figure 1,000 or 1,000,000 times off, the previous value is kept and as_filed_value holds what was filed; ' +
        'SIGN_SLIP_PREVIOUS_VALUE_KEPT: a later filing told it with the opposite sign against its EPS (or, for EPS, its income available to common; for a working-capital line, the balance sheet\'s movement; ' +
        'for pretax income and the tax, the statement\'s arithmetic; for a quarter, the filing\'s year-to-date and the earlier quarters; for a metric that is never negative, the catalog), the previous value is kept; ' +
        'NET_CHANGE_IN_CASH_FX_EFFECT_ADDED: the change in cash was tagged before the effect of exchange rates (it equals the three section totals exactly beside a non-zero exchange-rate line), the effect is added and as_filed_value holds the tagged subtotal; ' +
        'TOTAL_EQUITY_COMPONENT_REPLACED: total equity was tagged with a line of the equity section, it is served as the filing\'s stockholders\' equity plus noncontrolling interest and as_filed_value holds the tagged value; ' +
        'COST_OF_REVENUE_CREDIT_SIGN and REVENUE_RESIDUAL_TOP_LINE_REPLACED: the corrections gross profit proves',
    ),
  as_filed_value: DecimalString.nullable().describe('value before a correction; null when none applied or a different fact was chosen'),
  as_filed_concept: z.string().nullable().describe('tag of the replaced value when a correction chose a different fact'),
  calculation_steps: z.array(CalculationStepOut).nullable().describe('inputs of a derived figure; null for a tagged one'),
};

export const CalculationEvidenceOut = z.object({
  metric: z.string(),
  concept: z.string().describe('the total tag'),
  children: z.array(z.object({ concept: z.string(), weight: z.number(), value: DecimalString.nullable().describe('as tagged; null when the filing reports none') })),
  reported_value: DecimalString,
  computed_value: DecimalString,
  delta: DecimalString.describe('reported_value - computed_value'),
  tolerance: DecimalString.describe("one unit of the total's reported precision"),
  holds: z.boolean(),
  identity_rules: z.array(z.string()).describe('identity checks whose actual side is this metric'),
});

export const UnavailableFigureOut = z.object({
  metric: z.string(),
  reason: z
    .enum(UNAVAILABLE_REASONS)
    .describe(
      'YEAR_RETOLD_WITHOUT_NINE_MONTHS: the year was told again (restated) and no nine months on its basis were told, so the year less the nine months would mix two bases; ' +
        'OTHER_LINE_THAN_SERVED_YEAR: the year-to-date figures tell another line than the year as served; NEGATIVE_DERIVATION: the year-to-date figures net below zero for a line that is never negative',
    ),
  value: DecimalString.nullable().describe('what the derivation would have given; null where it was not computed'),
  withdrawn_value: DecimalString.nullable().describe('the figure an earlier version served and this reason withdrew; null where none was'),
  calculation_steps: z.array(CalculationStepOut).describe('the inputs weighed: the year (or the later year-to-date) and what it would be netted against'),
  source_accession: z.string().describe('the filing whose figures left the quarter unavailable'),
});

export const FactOut = z.object({
  metric: z.string(),
  value: DecimalString,
  unit: z.string().describe('USD, TWD, USD/shares, shares ...'),
  period_start: z.string().nullable().optional().describe("a compact read leaves it out where it equals the statement's period_start"),
  period_end: z.string().optional().describe("a compact read leaves it out where it equals the statement's period_end"),
  // Provenance is left out of a compact read (see FactView); every other read carries all of it.
  ...z.object(FigureProvenance).partial().shape,
  coherence: CoherenceOut.nullable()
    .optional()
    .describe(
      'on the money flows of an income or cash-flow statement of a quarter or a year: null where the fiscal year\'s four served quarters add up to its served year ' +
        '(or not all five are served), else why not; a compact read leaves out a null one',
    ),
  split_adjustment: SplitAdjustmentOut.optional().describe('with split_adjusted=true, on a per-share figure or share count restated to the latest split basis'),
});

export function figureOut(metric: string, f: StoredFigure): z.input<typeof FactOut> {
  return {
    metric,
    value: wireDecimal(f.value),
    unit: f.unit,
    period_start: f.period_start,
    period_end: f.period_end,
    source_accession: f.source_accession,
    source_xbrl_concept: f.source_xbrl_concept,
    mapping_type: f.mapping_type,
    selection_rule: f.selection_rule,
    value_origin: f.value_origin,
    correction_rule: f.correction_rule,
    as_filed_value: wireDecimalOrNull(f.as_filed_value),
    as_filed_concept: f.as_filed_concept,
    calculation_steps: f.calculation_steps?.map((s) => ({ ...s, value: wireDecimal(s.value) })) ?? null,
  };
}

const IdentityCheckOut = z.object({
  rule_id: z.string(),
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  status: z.enum(['PASS', 'FAIL', 'WARNING', 'SKIPPED']),
  severity: z.enum(['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL']),
  expected_value: DecimalString.nullable(),
  actual_value: DecimalString.nullable(),
  delta: DecimalString.nullable(),
  tolerance: DecimalString.nullable(),
});

export const IdentityOut = z.object({
  pass_rate: z.string().nullable().describe('PASS / evaluated rules, six fraction digits; null when no rule could be evaluated'),
  total_rules_count: z.number().int(),
  supported_rules_count: z.number().int(),
  skipped_rules_count: z.number().int(),
  failed_rules_count: z.number().int(),
  checks: z.array(IdentityCheckOut),
});

export const StatementVersionOut = z.object({
  statement_version_id: z.string(),
  cik: CikOut,
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  version_sequence: z.number().int(),
  is_latest: z.boolean().describe('the newest version visible to this read (as_of_date applied)'),
  period_start: z.string().nullable(),
  period_end: z.string(),
  currency: z.string().nullable(),
  accounting_standard: z.enum(ACCOUNTING_STANDARDS),
  source_accession: z.string().describe('filing whose presentation created this version'),
  filing_type: z.string().describe('form of that filing, e.g. 10-K, 10-Q, 10-K/A'),
  filing_date: z.string().describe('SEC filing date; the version is visible to as_of_date reads from this date'),
  accepted_at: Timestamp.nullable(),
  previous_version_id: z.string().nullable(),
  created_at: Timestamp,
  normalized_payload: z.object({
    facts: z.array(FactOut),
    _meta: z.object({
      identity: IdentityOut,
      unavailable_metrics: z
        .array(UnavailableFigureOut)
        .optional()
        .describe(
          'quarter figures this version does not serve, and why (a fourth quarter whose year was told again without nine months on its basis, ' +
            'or whose year is served as another line; a year-to-date difference a never-negative line cannot take); left out where there are none',
        ),
      calculation_evidence: z
        .array(CalculationEvidenceOut)
        .nullable()
        .optional()
        .describe(
          'left out of a compact read. ' +
          "the filer's own calculation linkbase for this version's filing, checked with the filing's facts: for each figure whose tag is a calculation total, " +
            'its declared children, their sum and whether it matches. A failing identity check beside a holding calculation points at how lines map to metrics, not at the filing. null when the filing had no calculation linkbase',
        ),
    }),
  }),
});

/**
 * Accounting identities are a pure function of the figures, so they are computed on read; their
 * amounts go on the wire as every decimal does (six fraction digits at least).
 */
function identityOf(row: VersionRow) {
  const values: Record<string, string> = {};
  for (const [m, f] of Object.entries(row.figures)) values[m] = f.value;
  const summary = checkIdentities({ statement_type: row.statement_type as StatementType, fiscal_year: row.fiscal_year, fiscal_period: row.fiscal_period as FiscalPeriod, values });
  return {
    ...summary,
    checks: summary.checks.map((c) => ({
      ...c,
      expected_value: wireDecimalOrNull(c.expected_value),
      actual_value: wireDecimalOrNull(c.actual_value),
      delta: wireDecimalOrNull(c.delta),
      tolerance: wireDecimalOrNull(c.tolerance),
    })),
  };
}

/** The filer's calculation evidence with its amounts as wire decimals. */
function evidenceOut(evidence: readonly CalculationEvidence[] | null | undefined) {
  if (!evidence) return null;
  return evidence.map((e) => ({
    ...e,
    children: e.children.map((c) => ({ ...c, value: wireDecimalOrNull(c.value) })),
    reported_value: wireDecimal(e.reported_value),
    computed_value: wireDecimal(e.computed_value),
    delta: wireDecimal(e.delta),
    tolerance: wireDecimal(e.tolerance),
  }));
}

/** The version record every statement payload shares (the header, without figures). */
export function versionRecord(row: VersionHeader, isLatest: boolean) {
  return {
    statement_version_id: row.statement_version_id,
    cik: row.cik,
    statement_type: row.statement_type,
    fiscal_year: row.fiscal_year,
    fiscal_period: row.fiscal_period,
    version_sequence: row.version_sequence,
    is_latest: isLatest,
    period_start: row.period_start,
    period_end: row.period_end,
    currency: row.currency,
    accounting_standard: row.accounting_standard,
    source_accession: row.accession,
    filing_type: row.form,
    filing_date: row.filing_date,
    accepted_at: row.accepted_at,
    previous_version_id: row.previous_version_id,
    created_at: row.created_at,
  };
}

export function versionOut(row: VersionRow, isLatest: boolean, metricOrder: (a: string, b: string) => number): z.input<typeof StatementVersionOut> {
  const facts = Object.keys(row.figures)
    .sort(metricOrder)
    .map((m) => figureOut(m, row.figures[m]!));
  const unavailable = row.unavailable_figures ?? [];
  return {
    ...versionRecord(row, isLatest),
    normalized_payload: {
      facts,
      _meta: {
        identity: identityOf(row),
        ...(unavailable.length > 0 ? { unavailable_metrics: unavailable.map(unavailableOut) } : {}),
        calculation_evidence: evidenceOut(row.calculation_evidence),
      },
    },
  };
}

function unavailableOut(u: UnavailableFigure): z.input<typeof UnavailableFigureOut> {
  return {
    metric: u.metric,
    reason: u.reason,
    value: wireDecimalOrNull(u.value),
    withdrawn_value: wireDecimalOrNull(u.withdrawn?.value ?? null),
    calculation_steps: u.calculation_steps.map((s) => ({ ...s, value: wireDecimal(s.value) })),
    source_accession: u.source_accession,
  };
}

/**
 * How much of a statement a read returns. Agents rarely need every figure with its provenance
 * (an as-of read of three statements is ~80 KB in full): `metrics` keeps the named figures,
 * `compact` keeps value, unit and period of each and drops the calculation evidence.
 */
export interface FactView {
  metrics: ReadonlySet<string> | null;
  compact: boolean;
}

/** value and unit; a period only where it is not the statement's own (a figure of another span); a coherence mark or split adjustment where there is one. */
function compactFact(f: z.input<typeof FactOut>, version: z.input<typeof StatementVersionOut>): z.input<typeof FactOut> {
  const out: z.input<typeof FactOut> = { metric: f.metric, value: f.value, unit: f.unit };
  if (f.period_start !== version.period_start) out.period_start = f.period_start ?? null;
  if (f.period_end !== version.period_end) out.period_end = f.period_end!;
  if (f.coherence) out.coherence = f.coherence;
  if (f.split_adjustment) out.split_adjustment = f.split_adjustment;
  return out;
}

export function viewOf(version: z.input<typeof StatementVersionOut>, view: FactView): z.input<typeof StatementVersionOut> {
  if (!view.metrics && !view.compact) return version;
  const kept = view.metrics ? version.normalized_payload.facts.filter((f) => view.metrics!.has(f.metric)) : version.normalized_payload.facts;
  const facts = view.compact ? kept.map((f) => compactFact(f, version)) : kept;
  const meta = version.normalized_payload._meta;
  const evidence = meta.calculation_evidence && view.metrics ? meta.calculation_evidence.filter((e) => view.metrics!.has(e.metric)) : meta.calculation_evidence;
  return {
    ...version,
    normalized_payload: {
      facts,
      _meta: {
        identity: meta.identity,
        ...(meta.unavailable_metrics ? { unavailable_metrics: view.metrics ? meta.unavailable_metrics.filter((u) => view.metrics!.has(u.metric)) : meta.unavailable_metrics } : {}),
        ...(view.compact ? {} : { calculation_evidence: evidence }),
      },
    },
  };
}
