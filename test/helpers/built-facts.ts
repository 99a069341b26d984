import type { Fact } from '../../domain/facts.ts';
import { catalogView } from '../../domain/normalize/catalog-view.ts';
import { buildStatementHistory, type StatementHistory } from '../../domain/normalize/history.ts';
import type { BuiltVersion } from '../../domain/normalize/versions.ts';
import type { FiscalPeriod, StatementType } from '../../domain/statement-types.ts';

/** Hand-built filings and the statement history a company of them builds: what the pure normalization suites feed the normalizer. */

export interface Filing {
  accession: string;
  form: string;
  filed: string;
  fy: number;
  fp: string;
}
export type Row = [concept: string, value: string, start: string | null, end: string, decimals?: string];

/** A filing's facts: `taxonomy:Concept`, value, period, and the instance's decimals where given; the unit read off the concept's name. */
export function filing(meta: Filing, rows: Row[]): Fact[] {
  return rows.map(([concept, value, start, end, decimals]) => {
    const [taxonomy, name] = concept.split(':') as [string, string];
    const unit = concept.includes('PerShare') ? 'USD/shares' : concept.includes('Shares') ? 'shares' : concept.includes('Ratio') ? 'pure' : 'USD';
    return { taxonomy, concept: name, unit, start, end, value, ...meta, frame: null, ...(decimals ? { decimals } : {}) };
  });
}

const CATALOG = catalogView();

/** The history of one company (calendar year ending in December) of these facts. */
export const history = (facts: Fact[]): StatementHistory => buildStatementHistory({ cik: '0000000042', facts, filings: [], fiscal_year_end: '1231' }, CATALOG);

export const versionsOf = (h: StatementHistory, type: StatementType, fy: number, fp: FiscalPeriod): BuiltVersion[] =>
  h.versions.filter((v) => v.statement_type === type && v.fiscal_year === fy && v.fiscal_period === fp);
