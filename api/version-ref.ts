import { z } from 'zod';
import { ServiceError } from '../domain/service-error.ts';
import type { StatementIdentity } from '../domain/statements/key.ts';
import type { VersionRef } from '../domain/statements/version-ref.ts';
import { Timestamp } from './schemas.ts';

/**
 * Which version of a statement, as the shapes that name one declare it: its id and its sequence.
 * Spread into a shape (`...VersionKeyOut.shape`) where both fields are wanted as they are.
 */
export const VersionKeyOut = z.object({
  statement_version_id: z.string(),
  version_sequence: z.number().int(),
});

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

/** The versions on record, for error details that tell a caller what to pick. */
export const versionChoices = (versions: readonly VersionRef[]) =>
  versions.map((v) => ({ version_sequence: v.version_sequence, statement_version_id: v.statement_version_id, source_accession: v.accession, filing_type: v.form, filing_date: v.filing_date }));

/**
 * The one answer for a version a statement does not have (NOT_FOUND): which statement, what the
 * input named (`field`: `value`), and the versions on record (sequences in the message, the choices
 * in the details). A pair selector (`side`) names the side and lists each version's filing, since a
 * filing that re-presented the period without changing a figure adds no version.
 */
export function versionNotFound(
  id: StatementIdentity,
  versions: readonly VersionRef[],
  missing: { field: string; value: string | number; side?: 'from' | 'to' },
): ServiceError {
  const label = `${id.statement_type} ${id.fiscal_year} ${id.fiscal_period} of CIK ${id.cik}`;
  const details = { ...id, [missing.field]: missing.value, versions: versionChoices(versions) };
  if (!missing.side) {
    return new ServiceError('NOT_FOUND', `${label} has no version ${missing.value}; versions on record: ${versions.map((v) => v.version_sequence).join(', ')}.`, details);
  }
  const what = missing.field.endsWith('accession') ? `no version created by filing ${missing.value}` : `no version ${missing.value}`;
  return new ServiceError(
    'NOT_FOUND',
    `${label} has ${what} (${missing.side} side); versions on record: ` +
      versions.map((v) => `${v.version_sequence} (${v.accession}, ${v.form}, filed ${v.filing_date})`).join('; ') +
      '. A filing that re-presented the period without changing a figure adds no version.',
    details,
  );
}
