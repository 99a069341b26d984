/**
 * How the data-quality rules (domain/data-quality.ts) write a finding: its message figures, the
 * version it names, the figures it compares, and its severity tier.
 */
import { HEADLINE_METRICS } from './catalog/traits.ts';
import { dec, wireDecimal } from './decimal.ts';
import type { EvidencePoint, IssueSeverity, QualityFinding, QualityVersion } from './data-quality-rules.ts';

/** Plain decimal with thousands separators, for messages: -4734605 -> "-4,734,605". */
export function readable(value: string): string {
  const plainText = dec(value).toFixed();
  const [int, frac] = plainText.split('.');
  const sign = int!.startsWith('-') ? '-' : '';
  const digits = int!.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${digits}${frac ? `.${frac}` : ''}`;
}

/** a version as messages name it: `INCOME_STATEMENT 2024 Q3 v2` */
export function label(v: Pick<QualityVersion, 'statement_type' | 'fiscal_year' | 'fiscal_period' | 'version_sequence'>): string {
  return `${v.statement_type} ${v.fiscal_year} ${v.fiscal_period} v${v.version_sequence}`;
}

/** one compared figure of a finding's evidence: `metric` of version `v`, in the role it plays */
export function point(role: string, v: QualityVersion, metric: string): EvidencePoint {
  return {
    role,
    metric,
    value: wireDecimal(v.values[metric]!),
    statement_version_id: v.statement_version_id,
    version_sequence: v.version_sequence,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
  };
}

/** a finding on version `v`, every field of the version it names filled from it */
export function finding(
  v: QualityVersion,
  rule_code: string,
  severity: IssueSeverity,
  metric: string | null,
  message: string,
  evidence: QualityFinding['evidence'],
): QualityFinding {
  return {
    rule_code,
    severity,
    cik: v.cik,
    statement_type: v.statement_type,
    fiscal_year: v.fiscal_year,
    fiscal_period: v.fiscal_period,
    version_sequence: v.version_sequence,
    statement_version_id: v.statement_version_id,
    metric,
    message,
    evidence,
  };
}

/** the severity of a finding on a metric: HIGH for statement totals and share counts, MEDIUM otherwise */
export const tierOf = (metric: string): IssueSeverity => (HEADLINE_METRICS.has(metric) ? 'HIGH' : 'MEDIUM');
