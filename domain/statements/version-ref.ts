import type { StatementIdentity } from './key.ts';

/**
 * A reference to one statement version: which statement, which version of it, and the filing
 * that created it. The one TypeScript shape of it: db/statement-versions.ts maps rows to it and
 * api/version-ref.ts serves it (VersionRefOut), so a row type never needs a cast to meet a shape.
 */
export interface VersionRef extends StatementIdentity {
  statement_version_id: string;
  /** 1 = as first reported; each restatement adds one */
  version_sequence: number;
  /** the filing whose presentation created this version */
  accession: string;
  /** its form, e.g. 10-K, 10-K/A, 10-Q */
  form: string;
  /** its SEC filing date (YYYY-MM-DD): the version is knowable from this date on */
  filing_date: string;
  accepted_at: string | null;
}

/** Which version of a statement a row names: its id and its sequence (the part of a VersionRef most rows carry). */
export type VersionKey = Pick<VersionRef, 'statement_version_id' | 'version_sequence'>;
