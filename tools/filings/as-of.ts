import { z } from 'zod';
import { latestPeriodicFiling } from './queries.ts';
import { latestHeadersAsOf, ledgerOfLatestAsOf, ledgerOfVersions, versionsByIds, visiblePeriods, type VisiblePeriod } from './state-queries.ts';
import { wireDecimal } from '../../domain/decimal.ts';
import { TRUST_FORMULA, trustScore, type TrustScore } from '../../domain/trust-score.ts';
import { byCatalogOrder } from './shapes.ts';
import { defineTool, type ToolDefinition } from '../../api/define-tool.ts';
import { coherenceMarksByType, marksDigest, type CoherenceMarks } from '../../api/coherence.ts';
import { prepared } from '../../api/prepared-json.ts';
import { companyVersionsOf } from '../../api/company-versions.ts';
import { companyRecordsOf } from './company-records.ts';
import type { Services } from '../../api/services.ts';
import { versionPayloadsOf } from '../../api/version-payloads.ts';
import type { VersionHeader, VersionRow } from '../../db/statement-versions.ts';
import { annotateVersion } from '../../api/statement-annotations.ts';
import { Cik, CikOut, dataEnvelope, FiscalPeriodParam, FiscalYear, IsoDate, StatementTypeParam, Ticker } from '../../api/schemas.ts';
import { StatementVersionOut, versionOut, viewOf, type FactView } from '../../api/statement-shapes.ts';
import { companyOf, FactViewParams, factViewOf } from '../../api/params.ts';

/**
 * Point-in-time financials ("as known on a date, with provenance"): what an analyst could have
 * read on a date. A statement version is visible from its SEC filing date on (SEC already moves a
 * filing accepted after 17:30 ET to the next business day), so a date sees every filing accepted
 * by the end of that business date and nothing later.
 *
 * Which periods: the most recent fiscal year with an annual (FY) statement visible, plus the
 * latest quarter (Q1-Q3) reported after that year's end, when there is one: the annual picture
 * and the newest interim one, as a model would be built on the date. Q4 is never the latest
 * quarter (it is derived from the annual report and ends with it). With fiscal_year, the same
 * rule inside that year: its FY statements, or, before its annual report was filed, its latest
 * quarter. Each statement is the latest version of that period visible on the date.
 */

const PeriodOut = z.object({
  role: z
    .enum(['ANNUAL', 'LATEST_QUARTER'])
    .describe('ANNUAL: the most recent fiscal year with an annual report filed by the date; LATEST_QUARTER: the newest quarter reported after that year ended'),
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  period_end: z.string(),
  statement_types: z.array(StatementTypeParam).describe('statement types the period has on the date; a type absent here was not filed for it'),
});

const FailureOut = z.object({
  rule_id: z.string(),
  rule_category: z.string().describe('IDENTITY or ROLLFORWARD'),
  statement_type: StatementTypeParam,
  fiscal_year: z.number().int(),
  fiscal_period: FiscalPeriodParam,
  version_sequence: z.number().int(),
  severity: z.string().describe('LOW, MEDIUM, HIGH or CRITICAL'),
  delta: z.string().nullable().describe('actual_value - expected_value as a decimal string'),
});

const ReconciliationOut = z
  .object({
    rows_count: z.number().int().describe('ledger rows of the returned versions (a rule writes a row only where it produced a result; 0 means nothing was evaluated)'),
    pass_count: z.number().int(),
    warn_count: z.number().int().describe('WARNING rows, declines included'),
    fail_count: z.number().int(),
    declined_count: z.number().int().describe('WARNING rows with severity NONE: the rule declined to compare (see the ledger notes for the reason); not a defect'),
    failing_rule_ids: z.array(z.string()).describe('distinct rule ids with a FAIL row, sorted'),
    failures: z.array(FailureOut).describe('each FAIL row: read the full row with /v1/edgar/reconciliation/ledger for that statement identity'),
  })
  .describe("summary of the reconciliation ledger (cross-statement and roll-forward rules) for the returned statement versions, as written when each version was added");

const TrustScoreOut = z
  .object({
    score: z
      .string()
      .nullable()
      .describe(
        `0..1 as a decimal string with six fraction digits (rounded down); null when no statement is visible. ${TRUST_FORMULA}. ` +
          'A data-quality indication of the returned statements, not an opinion on the company.',
      ),
    components: z.object({
      identity_pass_rate: z
        .string()
        .nullable()
        .describe('accounting identity checks (those of normalized_payload._meta.identity) that PASS over those evaluated, across the returned statements; SKIPPED left out, WARNING counts as not passing; null when none could be evaluated'),
      core_completeness: z
        .string()
        .nullable()
        .describe(
          'core metrics reported over core metrics expected: each returned period expects all three statements with their headline totals ' +
            '(income statement REVENUE, OPERATING_INCOME, NET_INCOME, EPS_DILUTED; balance sheet TOTAL_ASSETS, TOTAL_LIABILITIES, STOCKHOLDERS_EQUITY or TOTAL_EQUITY; ' +
            'cash flow OPERATING_, INVESTING_ and FINANCING_CASH_FLOW)',
        ),
      correction_share: z.string().nullable().describe('figures whose value was corrected from the tagged one (correction_rule non-null) over all figures; counts against the score'),
      derived_share: z.string().nullable().describe('figures computed rather than filed (value_origin DERIVED, e.g. a discrete quarter from year-to-date figures) over all figures; counts against the score'),
    }),
    counts: z.object({
      statements: z.number().int(),
      periods: z.number().int(),
      identity_checks_evaluated: z.number().int(),
      identity_checks_passed: z.number().int(),
      core_metrics_expected: z.number().int(),
      core_metrics_present: z.number().int(),
      figures: z.number().int(),
      corrected_figures: z.number().int(),
      derived_figures: z.number().int(),
    }),
    weights: z
      .object({ identity_pass_rate: z.string(), core_completeness: z.string(), correction_share: z.string(), derived_share: z.string() })
      .describe('weight of each component in the score'),
    formula: z.string().describe('the formula, in words'),
    explanation: z.string().describe('the score in plain words: what passed, what is missing, what was corrected or derived'),
  })
  .describe('how far the returned statements can be taken at face value, with its components');

const AsOfOut = z.object({
  cik: CikOut,
  as_of_date: z.string().describe('the date of the read: filings with an SEC filing date on or before it are visible'),
  fiscal_year: z.number().int().nullable().describe('the fiscal year asked for; null when the read picked the most recent one'),
  latest_filing: z
    .object({ accession_id: z.string(), form: z.string(), filing_date: z.string(), report_date: z.string().nullable() })
    .nullable()
    .describe('the newest periodic report (10-K, 10-Q, amendments ...) filed by the date; null before the first'),
  periods: z.array(PeriodOut).describe('the periods returned, annual first; empty when nothing was filed by the date'),
  statements: z
    .array(StatementVersionOut)
    .describe(
      'latest version, as of the date, of each statement of the returned periods (annual first; income statement, balance sheet, cash flow), ' +
        'each with every figure and its provenance (accession, tag, mapping, corrections) and _meta.identity; is_latest is true (newest visible on the date). Empty before the first filing',
    ),
  _meta: z.object({
    visibility: z.string().describe('the point-in-time rule applied'),
    reconciliation: ReconciliationOut,
    trust_score: TrustScoreOut,
  }),
});

const VISIBILITY = 'statement versions whose SEC filing date is on or before as_of_date (filings accepted by the end of that business date)';

const QUARTERS = new Set(['Q1', 'Q2', 'Q3']);

/** The annual period and the latest quarter after it (see the module comment). Periods come newest end first. */
export function choosePeriods(visible: readonly VisiblePeriod[], fiscalYear: number | null): { role: 'ANNUAL' | 'LATEST_QUARTER'; period: VisiblePeriod }[] {
  const pool = fiscalYear === null ? visible : visible.filter((p) => p.fiscal_year === fiscalYear);
  const annual = pool.find((p) => p.fiscal_period === 'FY');
  const quarter = pool.find((p) => QUARTERS.has(p.fiscal_period) && (!annual || p.period_end > annual.period_end));
  const out: { role: 'ANNUAL' | 'LATEST_QUARTER'; period: VisiblePeriod }[] = [];
  if (annual) out.push({ role: 'ANNUAL', period: annual });
  if (quarter) out.push({ role: 'LATEST_QUARTER', period: quarter });
  return out;
}

type VersionWire = z.input<typeof StatementVersionOut>;

/**
 * Trust scores by the ids of the versions scored, in order: a score is a function of the versions
 * alone and a version is never rewritten, so it is worked out once per set. Bounded, oldest out.
 */
const MAX_SCORES = 20_000;
const scores = new Map<string, TrustScore>();

async function asOfFinancials(services: Services, cik: string, asOf: string, fiscalYear: number | null, view: FactView): Promise<z.input<typeof AsOfOut>> {
  const sql = services.sql;
  // with the company's versions, filings and ledger in memory (api/company-versions.ts,
  // ./company-records.ts) the read asks PostgreSQL nothing but the rows of versions not met before
  // without the company's filings kept, the newest filing is read beside the versions
  const [index, records, filingRead] = await Promise.all([
    companyVersionsOf(services, cik),
    companyRecordsOf(services, cik),
    services.changes.generation('filings') === null ? latestPeriodicFiling(sql, cik, asOf) : undefined,
  ]);
  // what a date sees follows from the versions filed by then: with the index, the periods chosen and
  // their versions are worked out once per set of filing dates before the date (epochOf)
  const fromIndex = index
    ? index.derived(`as-of|${index.epochOf(asOf)}|${fiscalYear ?? ''}`, () => {
        const chosen = choosePeriods(index.visiblePeriods(asOf), fiscalYear);
        return { chosen, picked: index.latestAsOf(asOf, chosen.map((c) => c.period)) };
      })
    : null;
  const chosen = fromIndex ? fromIndex.chosen : choosePeriods(await visiblePeriods(sql, cik, asOf), fiscalYear);
  const periods = chosen.map((c) => c.period);
  // the coherence marks of the chosen fiscal years as known on the date; a balance sheet has none
  const years = [...new Set(periods.map((p) => p.fiscal_year))];
  const seen = { as_of_date: asOf, as_reported: false };
  const picked = fromIndex?.picked ?? null;
  const ids = picked?.map((h) => h.statement_version_id) ?? [];
  const [headers, ledger, marks, filing] = await Promise.all([
    picked ?? latestHeadersAsOf(sql, cik, asOf, periods),
    picked ? (records ? records.ledgerOf(ids) : ledgerOfVersions(sql, ids)) : ledgerOfLatestAsOf(sql, cik, asOf, periods),
    coherenceMarksByType(sql, cik, ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT'], years, seen, index),
    filingRead !== undefined ? filingRead : records ? records.latestPeriodicFiling(asOf) : latestPeriodicFiling(sql, cik, asOf),
  ]);
  const marksOf = (type: string): CoherenceMarks => marks.get(type) ?? NO_MARKS;

  // each statement's payload is prepared once per version, view and marks (api/version-payloads.ts)
  const payloads = versionPayloadsOf<VersionWire>(services);
  const keyOf = (h: VersionHeader) => (view.metrics ? null : `as-of|${h.statement_version_id}|${view.compact ? 'compact' : 'full'}|${marksDigest(marksOf(h.statement_type), h.fiscal_year)}`);
  const kept = headers.map((h) => {
    const key = keyOf(h);
    return key === null ? undefined : payloads.get(key);
  });
  const scoreKey = headers.map((h) => h.statement_version_id).join(',');
  let score = scores.get(scoreKey);
  const wanted = score === undefined ? headers : headers.filter((_, i) => kept[i] === undefined);
  const rows = new Map((await versionsByIds(sql, wanted.map((h) => h.statement_version_id))).map((r) => [r.statement_version_id, r]));
  const rowOf = (h: VersionHeader): VersionRow => {
    const row = rows.get(h.statement_version_id);
    if (!row) throw new Error(`statement version ${h.statement_version_id} vanished during an as-of read`);
    return row;
  };
  const statements = headers.map((h, i) => {
    const hit = kept[i];
    if (hit !== undefined) return hit;
    const out = viewOf(annotateVersion(versionOut(rowOf(h), true, byCatalogOrder), marksOf(h.statement_type), null), view);
    const key = keyOf(h);
    return key === null ? out : payloads.set(key, out);
  });
  if (score === undefined) {
    score = prepared(trustScore(headers.map((h) => ({ statement_type: h.statement_type, fiscal_year: h.fiscal_year, fiscal_period: h.fiscal_period, figures: rowOf(h).figures }))));
    scores.set(scoreKey, score);
    if (scores.size > MAX_SCORES) scores.delete(scores.keys().next().value!);
  }
  const failures = ledger.filter((r) => r.status === 'FAIL');
  return {
    cik,
    as_of_date: asOf,
    fiscal_year: fiscalYear,
    latest_filing: filing ? { accession_id: filing.accession_id, form: filing.form, filing_date: filing.filing_date, report_date: filing.report_date } : null,
    periods: chosen.map(({ role, period }) => ({
      role,
      fiscal_year: period.fiscal_year,
      fiscal_period: period.fiscal_period,
      period_end: period.period_end,
      statement_types: headers
        .filter((v) => v.fiscal_year === period.fiscal_year && v.fiscal_period === period.fiscal_period)
        .map((v) => v.statement_type),
    })),
    statements,
    _meta: {
      visibility: VISIBILITY,
      reconciliation: {
        rows_count: ledger.length,
        pass_count: ledger.filter((r) => r.status === 'PASS').length,
        warn_count: ledger.filter((r) => r.status === 'WARNING').length,
        fail_count: failures.length,
        declined_count: ledger.filter((r) => r.declined).length,
        failing_rule_ids: [...new Set(failures.map((r) => r.rule_id))].sort(),
        failures: failures.map((r) => ({
          rule_id: r.rule_id,
          rule_category: r.rule_category,
          statement_type: r.statement_type,
          fiscal_year: r.fiscal_year,
          fiscal_period: r.fiscal_period,
          version_sequence: r.version_sequence,
          severity: r.severity,
          delta: r.delta === null ? null : wireDecimal(r.delta),
        })),
      },
      trust_score: score,
    },
  };
}

const NO_MARKS: CoherenceMarks = new Map();

const DateParam = IsoDate.describe('the point in time (YYYY-MM-DD): only filings with an SEC filing date on or before it are seen');
const YearParam = FiscalYear.optional().describe(
  "read this fiscal year (the filer's label) instead of the most recent one: its FY statements, or its latest quarter before its annual report was filed",
);

const AS_OF_DESCRIPTION =
  'What was known about a company on a date? For the most recent fiscal year with an annual report filed by that date, its income statement, balance sheet and cash-flow statement as they stood that day ' +
  '(a later restatement is not seen), plus the newest quarter filed after that year ended; fiscal_year pins a year. _meta.reconciliation summarises the reconciliation checks and _meta.trust_score scores the statements. ' +
  'metrics keeps only the named figures; figures are compact on the tool server unless compact=false, which adds each one\'s provenance (accession, XBRL tag, corrections). A date before the first filing gives no statements.';

export const provenanceAsOf = defineTool({
  name: 'provenance.as_of',
  title: 'Financials as known on a date',
  description: `${AS_OF_DESCRIPTION} Takes a CIK (companies_resolve gives it); financials_get_as_of_snapshot is the same read under the spec's second name and also takes a ticker.`,
  http: { method: 'GET', path: '/v1/edgar/as-of/{date}/financials/{cik}' },
  tool: true,
  listedAs: 'spec',
  plan: 'free',
  input: z.object({ date: DateParam, cik: Cik, fiscal_year: YearParam, ...FactViewParams }),
  output: dataEnvelope(AsOfOut),
  companies: (input) => [input.cik],
  handler: async (ctx, input) => ({ data: await asOfFinancials(ctx.services, input.cik, input.date, input.fiscal_year ?? null, factViewOf(ctx, input)) }),
});

/**
 * The spec's second name for the same read. Its own HTTP path takes the company and date as query
 * parameters, and a ticker in place of the CIK, for callers that do not build path segments.
 */
export const financialsAsOfSnapshot = defineTool({
  name: 'financials.get_as_of_snapshot',
  title: 'Financials snapshot as known on a date',
  description: 'Alias of provenance_as_of (the spec names the read twice): the same answer for the same company and date, and it also takes a ticker instead of the CIK (pass one of them). ' + AS_OF_DESCRIPTION,
  http: { method: 'GET', path: '/v1/financials/as-of-snapshot' },
  tool: true,
  listedAs: 'spec',
  plan: 'free',
  input: z.object({
    cik: Cik.optional().describe('SEC Central Index Key (zero-padded or not); pass cik or ticker'),
    ticker: Ticker.optional().describe('exchange ticker, resolved to its CIK; pass cik or ticker'),
    date: DateParam,
    fiscal_year: YearParam,
    ...FactViewParams,
  }),
  output: dataEnvelope(AsOfOut),
  companies: (input) => (input.cik ? [input.cik] : []),
  handler: async (ctx, input) => {
    const cik = await companyOf(ctx, input);
    return { data: await asOfFinancials(ctx.services, cik, input.date, input.fiscal_year ?? null, factViewOf(ctx, input)) };
  },
});

export const AS_OF_TOOLS: ToolDefinition[] = [provenanceAsOf, financialsAsOfSnapshot];
