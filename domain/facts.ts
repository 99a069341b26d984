/**
 * A reported fact as the normalizer sees it, whatever file it came from (companyfacts JSON now,
 * the filing's own XBRL instance later). Values are exact decimal strings.
 */
export interface Fact {
  taxonomy: string;
  concept: string;
  /** XBRL unit as SEC writes it: USD, shares, USD/shares, TWD, pure ... */
  unit: string;
  /** null for an instant (balance) fact */
  start: string | null;
  end: string;
  value: string;
  accession: string;
  /** fiscal year focus and period of the *filing* (not of the fact's own period) */
  fy: number | null;
  fp: string | null;
  form: string;
  /** SEC filing date of the accession, YYYY-MM-DD */
  filed: string;
  frame: string | null;
  /**
   * the instance's `decimals` (e.g. "-6", "INF") where a filing package told this fact; absent for
   * a fact known only from companyfacts, whose precision is then read from the value's text (the
   * ingestion's own readers set null there: every fact they make has the same fields, in one order)
   */
  decimals?: string | null;
}

/** Where a filing record comes from: the submissions file, the accession company facts carry, or the filing folder only. */
export const FILING_SOURCES = ['submissions', 'companyfacts', 'package'] as const;
export type FilingSource = (typeof FILING_SOURCES)[number];

/** A filing known from submissions (preferred) or reconstructed from the facts it carries. */
export interface FilingInfo {
  accession: string;
  form: string;
  filing_date: string;
  report_date: string | null;
  accepted_at: string | null;
  primary_document: string | null;
  fiscal_year_focus: number | null;
  fiscal_period_focus: string | null;
  /** package: known only from the filing folder (no submissions entry), see filing_date_estimated */
  source: FilingSource;
  /**
   * true when SEC's filing date is unknown (a package-only filing) and filing_date is the latest
   * date the filing was due, so a point-in-time read never sees it before it could have existed.
   * Always present (false where the date is SEC's), and every FilingInfo literal lists its fields
   * in this order: filings from submissions, company facts and packages meet in the same
   * functions, and one object shape keeps V8 from deoptimizing them on each new one.
   */
  filing_date_estimated: boolean;
}
