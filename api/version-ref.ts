import { z } from 'zod';
import type { VersionRef } from '../domain/statements/version-ref.ts';
import { Timestamp } from './schemas.ts';

/**
 * The wire shape of a reference to one statement version (domain/statements VersionRef), shared by
 * every output that points at versions: drift, deltas, timelines, ledgers, model impact. Shapes
 * that add fields extend it (`VersionRefOut.extend({...})`) rather than declaring their own.
 */
export const VersionRefOut = z.object({
  statement_version_id: z.string(),
  version_sequence: z.number().int().describe('1 = as first reported; each restatement adds one'),
  source_accession: z.string().describe('filing whose presentation created this version'),
  filing_type: z.string().describe('form of that filing, e.g. 10-K, 10-K/A, 10-Q'),
  filing_date: z.string().describe('SEC filing date (YYYY-MM-DD); the version is visible to as_of_date reads from this date'),
  accepted_at: Timestamp.nullable(),
  is_latest: z.boolean().describe('the served version (what normalized-statement reads return)'),
});

/** Any row carrying a VersionRef (rows of db/statement-versions.ts do) as the wire reference. */
export function versionRefOut(v: VersionRef, isLatest: boolean): z.input<typeof VersionRefOut> {
  return {
    statement_version_id: v.statement_version_id,
    version_sequence: v.version_sequence,
    source_accession: v.accession,
    filing_type: v.form,
    filing_date: v.filing_date,
    accepted_at: v.accepted_at,
    is_latest: isLatest,
  };
}
