/**
 * The reconciliation ledger's rule engine. Pure: statement versions in, ledger entries out.
 *
 * Rules (stable ids; see each rule for its tolerance and when it declines):
 * - IDENTITY: the accounting identities of `_meta.identity` plus the ledger's own equalities
 *   (`identity-rules.ts`), each on its own statement type.
 * - ROLLFORWARD (`rollforward-rules.ts`): RF_CF_ENDING_CASH_EQUALS_BS_CASH and
 *   RF_CASH_BEGIN_PLUS_NET_CHANGE_EQUALS_END on cash-flow statements,
 *   RF_RETAINED_EARNINGS_ROLLFORWARD on balance sheets.
 * - ROLLFORWARD across periods (`quarter-rules.ts`): RF_QUARTERS_SUM_TO_YEAR_<METRIC>, a fiscal
 *   year's four quarters against its year for each headline flow, on the year's and the fourth
 *   quarter's versions.
 *
 * A rule whose inputs are absent gives no entry, so a statement's ledger lists only what was
 * evaluated (PASS, WARNING, FAIL) or declined (WARNING, severity NONE, a reason, delta null).
 */
import type { FiscalPeriod, StatementType } from '../statement-types.ts';
import { statementKey } from '../statements/key.ts';
import { isKnowableAt, latestKnowable } from '../statements/visibility.ts';
import { IDENTITY_LEDGER_RULES } from './identity-rules.ts';
import { ROLLFORWARD_RULES } from './rollforward-rules.ts';
import { QUARTER_RULES } from './quarter-rules.ts';
import type { LedgerEntry, ReconciliationRule, RelatedStatements, StatementSnapshot } from './types.ts';

export * from './types.ts';
export { cashScopeOf, RETAINED_EARNINGS_MATERIALITY } from './rollforward-rules.ts';

export const RECONCILIATION_RULES: readonly ReconciliationRule[] = [...IDENTITY_LEDGER_RULES, ...ROLLFORWARD_RULES, ...QUARTER_RULES];

/** Every metric some rule reads: a loader need fetch no other figure. */
export const RECONCILIATION_METRICS: readonly string[] = [...new Set(RECONCILIATION_RULES.flatMap((r) => r.metrics))].sort();

/** One company's statement versions, indexed for the lookups rules make. */
export interface StatementIndex {
  byEnd: Map<string, StatementSnapshot[]>;
  byLabel: Map<string, StatementSnapshot[]>;
}

const endKey = (type: StatementType, date: string) => `${type}|${date}`;
const labelKey = (type: StatementType, year: number, period: FiscalPeriod) => statementKey({ statement_type: type, fiscal_year: year, fiscal_period: period });

export function indexStatements(versions: readonly StatementSnapshot[]): StatementIndex {
  const byEnd = new Map<string, StatementSnapshot[]>();
  const byLabel = new Map<string, StatementSnapshot[]>();
  const push = (map: Map<string, StatementSnapshot[]>, key: string, s: StatementSnapshot) => {
    const list = map.get(key);
    if (list) list.push(s);
    else map.set(key, [s]);
  };
  for (const s of versions) {
    push(byEnd, endKey(s.statement_type, s.period_end), s);
    push(byLabel, labelKey(s.statement_type, s.fiscal_year, s.fiscal_period), s);
  }
  // oldest version first: a lineage keeps this order
  for (const list of byLabel.values()) list.sort((a, b) => a.version_sequence - b.version_sequence);
  return { byEnd, byLabel };
}

/**
 * The company's statements as they stood on `asOf` (SEC filing date): for each identity, its
 * latest version filed on or before that date.
 */
export function relatedAsOf(index: StatementIndex, asOf: string): RelatedStatements {
  return {
    labelled(type, fiscal_year, fiscal_period) {
      return latestKnowable(index.byLabel.get(labelKey(type, fiscal_year, fiscal_period)) ?? [], asOf);
    },
    lineage(type, fiscal_year, fiscal_period) {
      return (index.byLabel.get(labelKey(type, fiscal_year, fiscal_period)) ?? []).filter((s) => isKnowableAt(s.filing_date, asOf));
    },
    endingOn(type, date, prefer) {
      const visible = (index.byEnd.get(endKey(type, date)) ?? []).filter((s) => isKnowableAt(s.filing_date, asOf));
      const preferred = (s: StatementSnapshot) => (prefer && s.fiscal_year === prefer.fiscal_year && s.fiscal_period === prefer.fiscal_period ? 1 : 0);
      visible.sort(
        (a, b) =>
          preferred(b) - preferred(a) ||
          b.fiscal_year - a.fiscal_year ||
          a.fiscal_period.localeCompare(b.fiscal_period) ||
          b.version_sequence - a.version_sequence,
      );
      return visible[0] ?? null;
    },
  };
}

/** Every rule of the subject's statement type against one version. */
export function reconcileVersion(subject: StatementSnapshot, related: RelatedStatements): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const rule of RECONCILIATION_RULES) {
    if (rule.statement_type !== subject.statement_type) continue;
    const outcome = rule.evaluate(subject, related);
    if (outcome) entries.push({ rule_id: rule.rule_id, rule_category: rule.rule_category, ...outcome });
  }
  return entries;
}

/**
 * The ledger entries of `subjects` (versions just added), each judged against the company's
 * statements in `all` as they stood on the subject's filing date.
 */
export function reconcileVersions(
  subjects: readonly StatementSnapshot[],
  all: readonly StatementSnapshot[],
): { subject: StatementSnapshot; entries: LedgerEntry[] }[] {
  const index = indexStatements(all);
  return subjects.map((subject) => ({ subject, entries: reconcileVersion(subject, relatedAsOf(index, subject.filing_date)) }));
}
